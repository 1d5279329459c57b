/* Dead Man's Draw's compiled engine (dmd_engine, pirate_envs/core/native/engine.h): the state struct and what
 * rules.c (setup, turns, effects, scoring, dump/load) and observe.c (observation, heuristic, features,
 * resample_hidden) share. Pure C, no Python API.
 *
 * The state mirrors DmdState's fields (pirate_envs/games/dead_mans_draw/game.py), the Python engine that stays
 * the oracle: every list kept in the same order (the discard pile's order decides Map's and the bonus's random
 * picks), a collection kept as a 62-bit set (a suit's stack is ascending card ids, its top the highest).
 * Lists that legal play bounds by the 60 cards (card conservation, checked by load) need no check on append;
 * the lists where a card may come back (turn_cards, hook_protected, tasks) check their room on every append.
 */
#ifndef PIRATE_ENVS_DMD_ENGINE_H
#define PIRATE_ENVS_DMD_ENGINE_H

#include <stdint.h>
#include <string.h>

#include "core/native/engine.h"

#define DMD_PLAYERS 4
#define DMD_CARDS 62
#define DMD_SUITS 10
#define DMD_ABILITIES 18
#define DMD_CAP 64      /* room of every card list */
#define DMD_ROW_CAP 16  /* a row holds <= 10 cards, the marker and the busting card (DMD-1031) */
#define DMD_MARKER (-1) /* DMD-502 */
#define DMD_NUM_FEATURES 8

/* suits (DMD-202..211) */
enum { ANCHOR, CANNON, CHEST, KEY, HOOK, KRAKEN, MAP, MERMAID, ORACLE, SWORD };
/* abilities (DMD-214..231) */
enum {
    MASTER_GUNNER, SCAVENGER, FISHERMAN, KRAKEN_KING, LOCKER, SAFE_HARBOR, MISER, CAPTAIN_HOOK, PLUNDERER,
    BOUNTY_HUNTER, MISFIRE, NAVIGATOR, PARRY, SWORDSMAN, MYSTIC, RAKE, GOLDEN_MERMAID, SIREN
};
/* variants (DMD-804): VARIANTS, then "random" as option 7 */
enum { V_NONE, GRAND_SLAM, SUDDEN_DEATH, THIEVES_ISLAND, UNCHARTED_WATERS, PIRI_REIS, UNDERTOW, V_RANDOM };
/* phases (DMD-1002) */
enum {
    ABILITY_CHOICE, LOCKER_TARGET, DRAW_OR_STOP, CANNON_TARGET, NAVIGATOR_SELF, SWORD_TARGET, HOOK_SUIT, MAP_PICK,
    MERMAID_PICK, RAKE_PICK, PLUNDER_PICK, LOCKER_ACCEPT, GAME_OVER
};
/* actions (DMD-1040..1048) */
enum { A_STOP = 0, A_DRAW = 1, A_OWN_SUIT = 2, A_CARD = 12, A_ABILITY = 74, A_ACCEPT = 92, A_DECLINE = 93,
       A_LOCKER_TARGET = 93 };
/* task kinds (DMD-507) */
enum { FORCED_DRAW = 0, SECOND_HOOK = 1 };
/* NeConfig.options, in the order of native_bridge.OPTIONS */
enum { O_CHARACTERS, O_STARTING_DISCARD, O_VARIANT, O_MERMAID_VARIANT, O_REWARD_MODE, O_SCORE_SCALE, O_COUNT };

typedef struct {
    NeHeader h;
    int8_t variant, phase, decider, active, first_player;
    int8_t hook_s1, plunder_target, plunder_remaining, revealed, locker_target;
    int8_t turn_busted, last_turn_player, last_turn_busted;
    uint64_t choices[2]; /* the legal actions as a set of 128 bits */
    uint64_t coll[DMD_PLAYERS];
    int8_t n_draw, n_discard, n_removed, n_row, n_hook, n_tasks, n_offer, n_turn, n_last, n_winners;
    int8_t draw[DMD_CAP];    /* top of the pile = last */
    int8_t discard[DMD_CAP]; /* ordered: Map and the bonus pick by index */
    int8_t removed[DMD_CAP];
    int8_t row[DMD_ROW_CAP];
    int8_t hook_protected[DMD_CAP];
    int8_t task_kind[DMD_CAP], task_arg[DMD_CAP];
    int8_t offer[DMD_CAP];
    int8_t turn_cards[DMD_CAP], last_turn_cards[DMD_CAP];
    int8_t n_dealt[DMD_PLAYERS], dealt[DMD_PLAYERS][2];
    int8_t kept[DMD_PLAYERS], eliminated[DMD_PLAYERS], n_known[DMD_PLAYERS], known[DMD_PLAYERS][3];
    int8_t holder[DMD_ABILITIES];
    int8_t winners[DMD_PLAYERS];
    int32_t turns_taken[DMD_PLAYERS], busts[DMD_PLAYERS];
} DmdState;

/* card tables (DMD-201): id = SUIT_BASE[suit] + value - 2 */
static const int8_t DMD_SUIT_BASE[DMD_SUITS] = {0, 6, 12, 18, 24, 30, 36, 42, 50, 56};
static const int8_t DMD_SUIT_SIZE[DMD_SUITS] = {6, 6, 6, 6, 6, 6, 6, 8, 6, 6};
static const int8_t DMD_CARD_SUIT[DMD_CARDS] = {
    0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 4, 4, 4, 4, 4, 4, 5,
    5, 5, 5, 5, 5, 6, 6, 6, 6, 6, 6, 7, 7, 7, 7, 7, 7, 7, 7, 8, 8, 8, 8, 8, 8, 9, 9, 9, 9, 9, 9};
static const int8_t DMD_CARD_VALUE[DMD_CARDS] = {
    2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 2,
    3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7, 8, 9, 2, 3, 4, 5, 6, 7, 2, 3, 4, 5, 6, 7};

static inline uint64_t dmd_suit_mask(int suit) {
    return ((1ULL << DMD_SUIT_SIZE[suit]) - 1) << DMD_SUIT_BASE[suit];
}

static inline int dmd_top_bit(uint64_t m) { return 63 - __builtin_clzll(m); }

static inline int dmd_num_actions(int n) { return 94 + 11 * (n - 1); }
static inline int dmd_target_base(int n) { return 93 + n; }
static inline int dmd_obs_size(int n) { return 675 + 88 * n; }

/* DMD-701: S without Golden Mermaid (DmdState.live_score) of a collection */
static inline int dmd_live_score(int variant, uint64_t coll) {
    int s = 0;
    if (variant == PIRI_REIS) {
        for (uint64_t m = coll; m; m &= m - 1) s += DMD_CARD_VALUE[__builtin_ctzll(m)];
        return s;
    }
    int empty = 0;
    for (int suit = 0; suit < DMD_SUITS; suit++) {
        uint64_t m = coll & dmd_suit_mask(suit);
        if (m)
            s += DMD_CARD_VALUE[dmd_top_bit(m)];
        else
            empty++;
    }
    return variant == GRAND_SLAM ? s - 5 * empty : s;
}

static inline int dmd_has_choice(const DmdState *st, int a) { return (int)((st->choices[a >> 6] >> (a & 63)) & 1); }

/* observe.c */
void dmd_observe(const NeConfig *cfg, const void *st, int seat, float *out);
void dmd_resample_hidden(const NeConfig *cfg, void *st, int seat, SplitMix *source);
int dmd_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng);
int dmd_action_features(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out);

#endif
