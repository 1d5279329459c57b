/* Tortuga 1667's compiled engine: the state struct and the board's constants, shared by the rules (rules.c), the
 * conversions (convert.c) and the observation and bot (observe.c). Pure C over the struct (no Python API): the
 * engine contract is core/native/engine.h, the oracle pirate_envs/games/tortuga/game.py (the names below are its
 * names).
 *
 * What the Python state keeps as lists of varying length is kept here in fixed arrays with a count: the deck
 * (top card last), the public log (LOG_LENGTH entries, oldest first) and the ledger of hoard and map changes
 * (TOR-905..911). The ledger grows by at most TOR_LEDGER_PER_TURN entries a turn (an attack's loot handed out
 * one token at a time (6), a Spanish Counterattack on a full galleon (5), the map step (1)) and a game lasts at
 * most max_rounds x n turns, so TOR_MAX_LEDGER bounds it; load refuses a ledger longer than the turns played
 * allow, so no game from a loaded state outgrows it either. A steal's or a map gift's candidates (the other
 * seats on the node, in seat order) are a bit mask.
 */
#ifndef PIRATE_ENVS_TORTUGA_ENGINE_H
#define PIRATE_ENVS_TORTUGA_ENGINE_H

#include <stdint.h>
#include <string.h>

#include "core/native/engine.h"

#define TOR_MIN_PLAYERS 2
#define TOR_MAX_PLAYERS 9
#define TOR_NODES 8
#define TOR_CARD_TYPES 12
#define TOR_DECK_SIZE 19
#define TOR_LOG_LENGTH 12
#define TOR_LOG_TYPES 16
#define TOR_TOTAL_TREASURE 30
#define TOR_MAX_ROUNDS 16
#define TOR_LEDGER_PER_TURN 12
#define TOR_MAX_LEDGER (TOR_LEDGER_PER_TURN * (TOR_MAX_ROUNDS * TOR_MAX_PLAYERS + 1))
#define TOR_MAX_ACTIONS (21 + 3 * TOR_MAX_PLAYERS)
#define TOR_OBS_SIZE(n) (2 * (n) * (n) + 71 * (n) + 508)
#define TOR_MAX_OBS TOR_OBS_SIZE(TOR_MAX_PLAYERS)
#define TOR_PLAYER_BLOCK 26
#define TOR_NOBODY (-1)
#define TOR_RESAMPLE_TRIES 100

/* Rule options, in the order of native_bridge.OPTIONS (string choices as their index). */
enum { O_MAX_ROUNDS, O_NEUTRAL_VOTE, O_WILD_COOLDOWN, O_SECRET_EXILE, O_PUBLIC_STEAL, O_ARMADA_DEPTH,
       O_DRAW_REPLACES_ACTION, O_REWARD_MODE, TOR_NUM_OPTIONS };
enum { NEUTRAL_TWO_PLAYER, NEUTRAL_ALWAYS, NEUTRAL_NEVER };
enum { REWARD_WIN, REWARD_SCORE };

/* Phases (TOR-1004 (b)). */
enum { MOVE, ACTION, VOTE, DECLARE, LOOT, DRAW, MAP_RECIPIENT, EXTRA_MOVE, CURRENT_TARGET, CURRENT_DEST,
       MUTINY_SHIP, BRAWL_TARGET, SPY_TARGET, MAP_GIVE, GAME_OVER };
#define TOR_PHASES 14

/* Roles (TOR-304), nodes (TOR-204), cards (Section 6), votes, log entries, ledger entries, end reasons. */
enum { C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR };
enum { TOR, ENG_BERTH, FRA_BERTH, SPA_BERTH, GAL, LANE_E, LANE_F, LANE_S };
enum { FLOATING_CARGO, BURIED_CHEST, FAIR_WINDS, STRONG_CURRENT, MUTINY_BREWS, TAVERN_BRAWL, SCURVY, SHIPWRECK,
       COUNTERATTACK, SPYGLASS, TREASURE_MAP, ARMADA };
enum { V_ATTACK, V_MUTINY, V_DISPUTE, V_BRAWL };
enum { CARD_YES, CARD_NO, CARD_WILD };
enum { CTX_ACTION, CTX_EVENT };
enum { LOG_ATTACK_FAILED, LOG_ATTACK_PASSED, LOG_LOOT_GIVEN, LOG_MUTINY_FAILED, LOG_EXILED, LOG_PROMOTED,
       LOG_STEAL_PLAYER, LOG_STEAL_GALLEON, LOG_DISPUTE_FAILED, LOG_DISPUTE_PASSED, LOG_EVENT_DRAWN,
       LOG_DRAW_DECLINED, LOG_MAP_GIFTED, LOG_PAWN_MOVED, LOG_TREASURE_EVENT, LOG_SPYGLASS };
enum { L_GAIN, L_LOSS, L_STEAL, L_MAP_PUBLIC, L_MAP_GIVE };
enum { END_NONE, END_GALLEON, END_ARMADA, END_ROUNDS };

/* Actions (TOR-1002): fixed ones, then the bases that depend on n. */
enum { A_PASS = 8, A_ATTACK = 9, A_MUTINY = 10, A_STEAL_GALLEON = 11, A_STEAL = 12 };
#define A_DISPUTE(n) (12 + (n))
#define A_VOTE(n) (12 + 2 * (n))
#define A_DECLARE(n) (15 + 2 * (n))
#define A_DRAW(n) (17 + 2 * (n))
#define A_SELECT(n) (18 + 2 * (n))
#define A_SHIP(n) (18 + 3 * (n))
#define TOR_NUM_ACTIONS(n) (21 + 3 * (n))

static const int8_t TOR_CAPACITY[TOR_NODES] = {9, 3, 3, 3, 5, 1, 1, 1};
static const int8_t TOR_SHIP_NODE[3] = {ENG_BERTH, FRA_BERTH, SPA_BERTH};
static const int8_t TOR_CARD_COUNTS[TOR_CARD_TYPES] = {3, 1, 2, 1, 2, 1, 2, 1, 1, 1, 3, 1};
static const int8_t TOR_ARMADA_PACKET[3] = {5, 10, 1}; /* bottom5, bottom10, last */
static const uint8_t TOR_DISTANCE[TOR_NODES][TOR_NODES] = {
    {0, 2, 2, 2, 3, 1, 1, 1}, {2, 0, 2, 2, 1, 1, 3, 3}, {2, 2, 0, 2, 1, 3, 1, 3}, {2, 2, 2, 0, 1, 3, 3, 1},
    {3, 1, 1, 1, 0, 2, 2, 2}, {1, 1, 3, 3, 2, 0, 2, 2}, {1, 3, 1, 3, 2, 2, 0, 2}, {1, 3, 3, 1, 2, 2, 2, 0},
};
/* TOR-303: n -> (England, France, Spain) */
static const uint8_t TOR_NATIONS[TOR_MAX_PLAYERS + 1][3] = {
    {0, 0, 0}, {0, 0, 0}, {1, 1, 0}, {1, 1, 1}, {2, 1, 1}, {2, 2, 1}, {2, 2, 2}, {3, 2, 2}, {3, 3, 2}, {3, 3, 3},
};
/* TOR-304: n -> the roles dealt */
static const int8_t TOR_ROLES[TOR_MAX_PLAYERS + 1][TOR_MAX_PLAYERS] = {
    {0}, {0}, {C_ENG, C_FRA}, {C_ENG, FM_ENG, SAILOR}, {C_ENG, FM_ENG, GOVERNOR, SAILOR},
    {C_ENG, C_FRA, FM_ENG, GOVERNOR, SAILOR}, {C_ENG, C_FRA, FM_ENG, FM_FRA, GOVERNOR, SAILOR},
    {C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, GOVERNOR, SAILOR},
    {C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR},
    {C_ENG, C_FRA, C_SPA, FM_ENG, FM_FRA, FM_SPA, GOVERNOR, SAILOR, SAILOR},
};

static inline int tor_is_captain(int role) { return role <= C_SPA; }
static inline int tor_is_first_mate(int role) { return role >= FM_ENG && role <= FM_SPA; }
/* the ship whose berth is ``node`` (SHIP_NODE.index), or -1 */
static inline int tor_ship_at(int node) { return node >= ENG_BERTH && node <= SPA_BERTH ? node - ENG_BERTH : -1; }
static inline int tor_is_area(int node) { return node <= GAL; }

/* One ledger entry: [L_GAIN, seat, amount], [L_LOSS, seat, -lost], [L_STEAL, thief, cands, victim, moved],
 * [L_MAP_PUBLIC, seat], [L_MAP_GIVE, giver, cands, receiver]; ``other`` is the victim or receiver (-1 where
 * the entry has none), ``amount`` the amount, -lost or moved (0 where the entry has none). */
typedef struct {
    int8_t kind, seat, other, amount;
    uint16_t cands; /* bit p: seat p is a candidate */
    int16_t _pad;
} TorEntry;

/* One public log entry [type, actor, target, node, card, value, ledger index of a secret steal or -1]. */
typedef struct {
    int8_t kind, actor, target, node, card, _pad;
    int16_t value, secret;
} TorLogItem;

typedef struct {
    NeHeader h;
    /* counts that grow with the game */
    int32_t steals_made[TOR_MAX_PLAYERS], votes_initiated[TOR_MAX_PLAYERS], votes_targeting[TOR_MAX_PLAYERS];
    int32_t pub_treasure[TOR_MAX_PLAYERS], pub_maps[TOR_MAX_PLAYERS];
    int32_t yes_by[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS], yes_vs[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS];
    int32_t steal_delta[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS], map_delta[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS];
    /* seats */
    int8_t nation[TOR_MAX_PLAYERS], role[TOR_MAX_PLAYERS], pos[TOR_MAX_PLAYERS], exiled[TOR_MAX_PLAYERS];
    int8_t revealed[TOR_MAX_PLAYERS], hoard[TOR_MAX_PLAYERS], maps[TOR_MAX_PLAYERS], wild_lock[TOR_MAX_PLAYERS];
    int8_t spied[TOR_MAX_PLAYERS][TOR_MAX_PLAYERS];
    /* table */
    int8_t galleon, supply, start, active, round, phase, acted, end_reason;
    int8_t deck_len, deck[TOR_DECK_SIZE], drawn[TOR_CARD_TYPES];
    /* the vote in progress (vote is not None): its order is (initiator + k) % n, its declarers (the Wild
     * voters in that order, set when the cards are revealed) are kept for current_player */
    int8_t v_open, v_type, v_initiator, v_target, v_ship, v_ctx, v_nparts, v_idx, v_ndeclarers, v_didx, v_die;
    int8_t v_parts[TOR_MAX_PLAYERS], v_cards[TOR_MAX_PLAYERS], v_decl[TOR_MAX_PLAYERS];
    int8_t v_declarers[TOR_MAX_PLAYERS];
    /* the last vote (last_vote is not None) */
    int8_t lv_open, lv_type, lv_initiator, lv_target, lv_passed, lv_die;
    int8_t lv_cards[TOR_MAX_PLAYERS], lv_final[TOR_MAX_PLAYERS];
    /* the loot being shared (loot is not None) */
    int8_t lo_open, lo_captain, lo_nparts, lo_dice, lo_successes, lo_left;
    int8_t lo_parts[TOR_MAX_PLAYERS], lo_assigned[TOR_MAX_PLAYERS];
    /* the event being resolved (event is not None) */
    int8_t ev_open, ev_card, ev_target;
    int8_t log_len;
    TorLogItem log[TOR_LOG_LENGTH];
    int32_t ledger_len;
    TorEntry ledger[TOR_MAX_LEDGER];
} TorState;

/* The seat holding ``role`` (Captain/First Mate/Governor slot), or -1 if vacant/unused. */
static inline int tor_holder(const TorState *s, int n, int role) {
    for (int p = 0; p < n; p++)
        if (s->role[p] == role) return p;
    return TOR_NOBODY;
}

/* The seat to act in a running game (_current_player). */
static inline int tor_current(int n, const TorState *s) {
    switch (s->phase) {
    case VOTE:
        return (s->v_initiator + s->v_idx) % n;
    case DECLARE:
        return s->v_declarers[s->v_didx];
    case LOOT:
        return s->lo_captain;
    default:
        return s->active;
    }
}

/* TOR-703 Score(N) for England, France, Spain (0 for a nation without players). */
static inline void tor_nation_scores(const TorState *s, int n, int *scores) {
    scores[0] = scores[1] = scores[2] = 0;
    for (int p = 0; p < n; p++) scores[s->nation[p]] += s->hoard[p] + 2 * s->maps[p];
}

/* TOR-901: ``viewer`` knows ``p``'s nation: revealed, its own, spied, or any once the game has ended. */
static inline int tor_nation_known(const TorState *s, int viewer, int p) {
    return s->revealed[p] || s->phase == GAME_OVER || viewer == p || s->spied[viewer][p];
}

/* The dump: the fixed part, the variable lists at their longest (see convert.c for the layout). */
#define TOR_MAX_DUMP                                                                                           \
    (13 * TOR_MAX_PLAYERS + 5 * TOR_MAX_PLAYERS * TOR_MAX_PLAYERS + 8 + 1 + TOR_DECK_SIZE + TOR_CARD_TYPES +     \
     (12 + 4 * TOR_MAX_PLAYERS) + (7 + 2 * TOR_MAX_PLAYERS) + (7 + 2 * TOR_MAX_PLAYERS) + 3 +                    \
     1 + 7 * TOR_LOG_LENGTH + 1 + 5 * TOR_MAX_LEDGER)

/* convert.c and observe.c */
int tor_dump(const NeConfig *cfg, const void *st, int64_t *out);
int tor_load(const NeConfig *cfg, void *st, const int64_t *data, int n, const char **why);
void tor_observe(const NeConfig *cfg, const void *st, int seat, float *out);
int tor_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng);
int tor_legal(const NeConfig *cfg, const void *st, int32_t *out);

#endif
