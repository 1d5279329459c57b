/* Madame Ching's compiled engine (native/engine.c and the files beside it): the state struct, the card tables
 * and the small facts every part reads. The Python engine (madame_ching/game.py) is the oracle; the names
 * here follow it (MadameChingState's fields, its steps and phases).
 *
 * Conventions (as game.py): a navigation card is its number 1..55 (0 = none); a boat is 0..B-1 (one per seat
 * with 3-4 players, seat s owns boats 2s (A) and 2s+1 (B) with 2 players); a hand is a bit set (bit c = card c,
 * the Python hand is always sorted); the board and the set-aside tiles are bit sets of tiles (sorted lists in
 * Python); the ordered piles (decks, discards, known cards, taken tiles) are arrays with their lengths.
 */
#ifndef PIRATE_ENVS_MCH_H
#define PIRATE_ENVS_MCH_H

#include <stdint.h>
#include <string.h>

#include "core/native/engine.h"

/* ---- components (MCH Section 2, cards.py) ---------------------------------------------------------------- */
#define MCH_CARDS 55
#define MCH_ENC_CARDS 33
#define MCH_ENC_KINDS 10
#define MCH_MISSIONS 23
#define MCH_LAST_COLUMN 8
#define MCH_LAST_ROW 7
#define MCH_MAX_EXPEDITION 8 /* a card per column */
#define MCH_NUM_ACTIONS 105
#define MCH_NUM_PHASES 19

enum { CARTOGRAPHY, NIGHT_SAILING, COMBAT, WEATHER, ELITE };
enum { TREASURE_1, TREASURE_2, TREASURE_3, THIEF, SPY, NEGOTIATOR, SALVAGER, ORACLE, SIREN, MADAME_CHING };
enum { GOLD, BLUE, RED, WHITE };

/* Indexed by card number (index 0: no card). */
static const int8_t MCH_COLOUR[56] = {
    -1, 0, 0, 0, 0, 0,                                                               /* White 1-5 */
    1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,                      /* Blue 6-25 */
    2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2,                                        /* Green 26-39 */
    3, 3, 3, 3, 3, 3, 3,                                                             /* Yellow 40-46 */
    4, 4, 4, 4, 4,                                                                   /* Red 47-51 */
    5, 5, 5, 5,                                                                      /* Purple 52-55 */
};
#define M_ CARTOGRAPHY
#define L_ NIGHT_SAILING
#define S_ COMBAT
#define K_ WEATHER
#define N_ (-1)
static const int8_t MCH_ICON[56] = {
    N_,
    M_, N_, L_, K_, S_,
    L_, M_, K_, N_, S_, M_, L_, N_, K_, M_, N_, S_, L_, N_, K_, M_, N_, S_, L_, N_,
    S_, K_, N_, M_, L_, S_, N_, K_, M_, N_, S_, L_, K_, N_,
    K_, M_, N_, S_, L_, N_, K_,
    L_, S_, N_, M_, K_,
    M_, L_, N_, S_,
};
#undef M_
#undef L_
#undef S_
#undef K_
#undef N_

static const int8_t MCH_ENC_COUNTS[MCH_ENC_KINDS] = {2, 2, 2, 5, 4, 5, 4, 4, 3, 2};
static const int8_t MCH_TREASURE_VP[3] = {1, 2, 3};
static const int8_t MCH_TOKEN_VP[4] = {1, 2, 3, 4};
static const int8_t MCH_TOKEN_SUPPLY[4] = {46, 12, 12, 12};
static const int8_t MCH_SKILL_VP[5] = {2, 2, 2, 2, 1};
#define MCH_SKILL_STACK 4
#define MCH_PEARL_VP 5
#define MCH_HONG_KONG_VP 10

static const int8_t MCH_MISSION_NUMBER[MCH_MISSIONS] = {4,  4,  6,  6,  6,  8,  8,  10, 10, 10, 12, 12,
                                                        12, 15, 15, 18, 18, 20, 20, 24, 24, 30, 32};
/* (gold, blue, red, white, encounter draws) */
static const int8_t MCH_MISSION_REWARD[MCH_MISSIONS][5] = {
    {2, 0, 0, 0, 0}, {0, 1, 0, 0, 0}, {1, 1, 0, 0, 0}, {0, 0, 1, 0, 0}, {1, 0, 0, 0, 1}, {1, 1, 0, 0, 0},
    {3, 0, 0, 0, 0}, {0, 0, 0, 1, 0}, {0, 2, 0, 0, 0}, {0, 0, 1, 0, 1}, {1, 0, 1, 0, 0}, {0, 1, 1, 0, 0},
    {2, 0, 0, 0, 1}, {1, 0, 0, 1, 0}, {0, 1, 1, 0, 1}, {0, 0, 2, 0, 0}, {0, 1, 0, 1, 1}, {0, 0, 1, 1, 0},
    {0, 2, 1, 0, 0}, {0, 0, 0, 2, 0}, {1, 0, 1, 1, 1}, {0, 1, 0, 2, 0}, {0, 0, 1, 2, 1},
};
/* MCH-204: slot capacity by mission number (0 where no slot). */
static inline int mch_slot_capacity(int number) {
    switch (number) {
    case 4: case 8: case 15: case 18: case 20: case 24: case 30: case 32: return 1;
    case 6: case 10: case 12: return 2;
    default: return 0;
    }
}

/* ---- the flat action space (MCH-1003, actions.py) -------------------------------------------------------- */
#define A_SLOT 55
#define A_MISSION 59
#define A_SKILL 82
#define A_TARGET 86 /* + offset 1..3 */
#define A_GEM 89    /* + token 1..3 */
#define A_PLAY_ENC 90 /* + kind 3..9 */
#define A_USE_COMBAT 100
#define A_USE_WEATHER 101
#define A_USE_CARTOGRAPHY 102
#define A_GIVE_TO_PARTNER 103
#define A_PASS 104

enum {
    PH_SELECT, PH_WEATHER, PH_NIGHT_SAIL, PH_MISSION_CHOOSE, PH_SKILL_CLAIM, PH_ENC_GIFT, PH_ACTION,
    PH_THIEF_TARGET, PH_THIEF_GEM, PH_SPY_TARGET, PH_SALVAGE_CHOOSE, PH_SIREN_TARGET, PH_MC_SKILL,
    PH_COMBAT_TARGET, PH_COMBAT_GIVE, PH_TAKE, PH_CARTO, PH_TEAM_RETURN, PH_TEAM_GIVE,
};

/* MadameChingState.step, in the order of native_bridge.STEPS. */
enum {
    ST_SELECT, ST_NEXT_TURN, ST_PLACE, ST_MOVE, ST_END_MISSION, ST_END_SKILLS, ST_END_FINISH, ST_NIGHT, ST_TAKE,
    ST_CARTO, ST_TEAM_RETURN, ST_TEAM_GIVE, ST_NEW_ROUND, ST_OVER, ST_ACTION, ST_THIEF_TARGET, ST_THIEF_GEM,
    ST_SPY_TARGET, ST_SALVAGE, ST_SIREN_TARGET, ST_MC_SKILL, ST_COMBAT_TARGET, ST_COMBAT_GIVE,
    ST_COUNT
};

/* history codes (MCH-1005): 0 none, 1..7 Thief..Madame Ching, 8 Combat */
#define HISTORY_COMBAT 8

/* ---- the rule options (native_bridge.OPTIONS) -------------------------------------------------------------- */
enum { OPT_DUAL_BOATS, OPT_TEAM_MODE, OPT_ELITE_PEARL, OPT_ROUND_LIMIT, OPT_AUTO_RESOLVE, OPT_REWARD_MODE, OPT_COUNT };
#define MCH_MAX_ROUND_LIMIT 2000000000LL

/* The game's facts for one NeConfig (MadameChingGame._setup). */
typedef struct {
    int n, nb;        /* players, boats */
    int team;         /* MCH-803: only with 4 players */
    int elite_pearl;  /* MCH-804 */
    int auto_resolve; /* MCH-806 */
    int score_mode;   /* reward_mode "score" */
    int64_t round_limit;
    int hand_size, mission_count;
} MchRules;

static inline MchRules mch_rules(const NeConfig *cfg) {
    MchRules r;
    /* configure checked 2..4; the clamp also shows the compiler that every per-seat loop stays in the arrays */
    r.n = cfg->num_players < 2 ? 2 : cfg->num_players > 4 ? 4 : cfg->num_players;
    r.nb = r.n == 2 ? 4 : r.n;
    r.team = cfg->options[OPT_TEAM_MODE] != 0 && r.n == 4;
    r.elite_pearl = cfg->options[OPT_ELITE_PEARL] != 0;
    r.auto_resolve = cfg->options[OPT_AUTO_RESOLVE] != 0;
    r.score_mode = cfg->options[OPT_REWARD_MODE] == 1;
    r.round_limit = cfg->options[OPT_ROUND_LIMIT];
    r.hand_size = r.n == 2 ? 5 : 4;
    r.mission_count = r.n == 3 ? 12 : 14;
    return r;
}

static inline int mch_boat_owner(const MchRules *r, int boat) { return r->n == 2 ? boat / 2 : boat; }
static inline int mch_boats_count(const MchRules *r) { return r->n == 2 ? 2 : 1; }
/* the i-th boat of seat (boat A, then B with 2 players) */
static inline int mch_boat_of(const MchRules *r, int seat, int i) { return r->n == 2 ? 2 * seat + i : seat; }
static inline int mch_partner(int seat) { return (seat + 2) % 4; }
/* MCH-104, MCH-554: an opponent is any other seat but the partner in a team game */
static inline int mch_is_opponent(const MchRules *r, int seat, int q) {
    return q != seat && !(r->team && q == (seat + 2) % 4);
}
/* The boat at the viewer's i-th place (ObservationEncoder.relative_boats). */
static inline int mch_relative_boat(const MchRules *r, int seat, int i) {
    if (r->n == 2) return i < 2 ? 2 * seat + i : 2 * (1 - seat) + (i - 2);
    return (seat + i) % r->n;
}
static inline int mch_relative_index(const MchRules *r, int seat, int boat) {
    if (r->n == 2) return boat / 2 == seat ? boat % 2 : 2 + boat % 2;
    return (boat - seat + r->n) % r->n;
}

/* ---- the state --------------------------------------------------------------------------------------------- */
typedef struct {
    NeHeader h;
    int64_t round;
    uint64_t hands[4];     /* bit c: card c in the hand */
    uint64_t known_any[4]; /* per knower: the cards in any of its known lists (each card is in at most one) */
    uint64_t known_set[4][4]; /* per knower and holder: the cards of known[knower][holder] (derived, as known_any) */
    uint32_t board, set_aside; /* bit t: tile t */
    int8_t end_triggered, over, revealed, enc_played, give_open, move_return; /* move_return 1: "night" */
    int8_t nav_deck[MCH_CARDS], nav_deck_n;
    int8_t nav_discard[MCH_CARDS], nav_discard_n;
    int8_t enc_deck[MCH_ENC_CARDS], enc_deck_n;
    int8_t enc_discard[MCH_ENC_CARDS], enc_discard_n;
    int8_t enc_hands[4][MCH_ENC_KINDS];
    int8_t picks[4], shown_picks[4];
    int8_t order[4], order_n, turn_index;
    int8_t acted[4];
    int8_t expeditions[4][MCH_MAX_EXPEDITION], expedition_n[4];
    int8_t positions[4][2];
    int8_t history[4][MCH_MAX_EXPEDITION][2];
    int8_t display[4];
    int8_t taken_tiles[4][MCH_MISSIONS], taken_n[4];
    int8_t tokens[4][4], supply[4];
    int8_t skills[4][10], stacks[5];
    int8_t pearl_owner, hk_owner;
    int8_t known[4][4][MCH_CARDS], known_n[4][4];
    int8_t phase, step, select_seat, select_boat, active_boat, pending_card, end_gains;
    int8_t claim_pool[4];
    int8_t gift_queue[MCH_ENC_CARDS], gift_n;
    int8_t pending_enc, pending_target, combat_card;
    int8_t owes[4];
    int8_t last_action[4][2];
} MchState;

#define BIT(c) (1ULL << (c))

/* SWAR popcount: inline on every x86-64 (__builtin_popcountll is a libgcc call without -mpopcnt). */
static inline int mch_popcount(uint64_t x) {
    x = x - ((x >> 1) & 0x5555555555555555ULL);
    x = (x & 0x3333333333333333ULL) + ((x >> 2) & 0x3333333333333333ULL);
    x = (x + (x >> 4)) & 0x0F0F0F0F0F0F0F0FULL;
    return (int)((x * 0x0101010101010101ULL) >> 56);
}
static inline int mch_ctz(uint64_t x) { return __builtin_ctzll(x); }

static inline int mch_active_seat(const MchRules *r, const MchState *s) { return mch_boat_owner(r, s->active_boat); }
static inline int mch_last_card(const MchState *s, int boat) {
    return s->expedition_n[boat] ? s->expeditions[boat][s->expedition_n[boat] - 1] : 0;
}

/* ---- the observation layout (MCH-1005; observation.field_sizes) ------------------------------------------- */
typedef struct {
    int size;
    int select_boat, own_hand, own_picks, revealed_picks, boat_flags, display, expeditions, skills, tokens,
        own_encounters, hand_sizes, known_cards, missions, supply, piles, progress, pending, team_debt, history;
} MchLayout;

static inline MchLayout mch_layout(int P, int B) {
    MchLayout l;
    int at = 19;
    l.select_boat = at; at += 2;
    l.own_hand = at; at += 55;
    l.own_picks = at; at += 110;
    l.revealed_picks = at; at += 55 * B;
    l.boat_flags = at; at += 2 * B;
    l.display = at; at += 4 * 57;
    l.expeditions = at; at += 77 * B;
    l.skills = at; at += 10 * P;
    l.tokens = at; at += 4 * P;
    l.own_encounters = at; at += 10;
    l.hand_sizes = at; at += 2 * P;
    l.known_cards = at; at += 55 * (P - 1);
    l.missions = at; at += 46;
    l.supply = at; at += 2 * P + 11;
    l.piles = at; at += 55 + 2 + 10;
    l.progress = at; at += 3;
    l.pending = at; at += 79;
    l.team_debt = at; at += 2;
    l.history = at; at += 13 * P;
    l.size = at;
    return l;
}
#define MCH_MAX_OBS (577 + 134 * 4 + 86 * 4)
/* An upper bound of the values mch_dump writes (1752 with 4 players and every list at its largest). */
#define MCH_MAX_DUMP 1800

/* ---- the parts (rules.c, observe.c, heuristic.c, state.c) -------------------------------------------------- */
const char *mch_configure(const NeConfig *cfg);
void mch_init(const NeConfig *cfg, void *st);
int mch_is_terminal(const NeConfig *cfg, const void *st);
int mch_current_player(const NeConfig *cfg, const void *st);
int mch_legal_actions(const NeConfig *cfg, const void *st, int32_t *out);
void mch_apply(const NeConfig *cfg, void *st, int action);
void mch_returns(const NeConfig *cfg, const void *st, double *out);
void mch_scores(const NeConfig *cfg, const void *st, double *out);
int mch_winners(const NeConfig *cfg, const void *st, int32_t *out);
void mch_observe(const NeConfig *cfg, const void *st, int seat, float *out);
void mch_resample_hidden(const NeConfig *cfg, void *st, int seat, SplitMix *source);
int mch_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng);
int mch_heuristic_decide(int P, int B, const float *obs, const int8_t *mask);
int mch_dump(const NeConfig *cfg, const void *st, int64_t *out);
int mch_load(const NeConfig *cfg, void *st, const int64_t *data, int n, const char **why);

#endif
