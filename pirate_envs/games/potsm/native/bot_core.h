/* The core of Pirates of the Spanish Main's compiled heuristic bot, in plain C (no Python API): the scores
 * of HeuristicPolicy._scores (pirate_envs/games/potsm/heuristic.py) for one seat's observation and legal
 * actions. Two callers: the Python twin potsm_act (bot.c), which fills the spec from the tuple
 * HeuristicPolicy.native_spec builds and reads the observation, and the native engine's heuristic
 * (engine_bot.c), which fills it with potsm_bot_default_spec, the same values built in C, and writes what the
 * bot reads from the observation straight from its state (the same values: no observation is encoded).
 *
 * Every value is computed with the same operations in the same order as the Python code, and every ``sum``
 * as the Python this module is built for adds (py_sum: left to right before 3.12, compensated from 3.12 on),
 * so the scores agree bit for bit.
 */
#ifndef PIRATE_ENVS_POTSM_BOT_CORE_H
#define PIRATE_ENVS_POTSM_BOT_CORE_H

#include "games/potsm/native/rules.h"

/* The spec's ints (HeuristicPolicy._native_spec, in this order), then its tables. */
enum {
    P_SIZE, P_N, P_NUM_ACTIONS, P_HAND, P_UPCOMING, P_SINKHORN,
    /* observation offsets */
    P_MY_PIRATES, P_SHIP_POSITION, P_SHIP_DAMAGED, P_SHIP_FAME, P_REVEALED, P_NOT_OWNER, P_CLAIMED, P_CURRENT,
    P_UPCOMING_AT, P_DECK_SIZE, P_MOVE_TALLY, P_ACCUSATION_TALLY,
    /* counts */
    P_PIRATES_EACH, P_UNUSED, P_NUM_CARDS, P_FOG_TYPE,
    P_INTS, /* the ints end here */
    P_RULES = P_INTS, P_PARAMS, P_TABLES, P_MOVE_TYPE,
    P_COUNT
};

/* the doubles of P_PARAMS (HeuristicPolicy._native_spec) */
enum {
    Q_OPPONENT, Q_LEADER, Q_HORIZON, Q_NEXT, Q_DAMAGE_COST, Q_FOG_KEEP, Q_ACCUSE_SCALE, Q_ACCUSE_COST,
    Q_ACCUSE_CARD_COST, Q_CARD_COST, Q_TALLY_FORWARD, Q_TALLY_BACKWARD, Q_TALLY_SABOTAGE, Q_TALLY_ACCUSE,
    Q_TIE, /* TIE_TOLERANCE: scores this close to the best are ties */
    Q_COUNT
};

/* P_TABLES: per adventure type the potential tables (heuristic._potential_tables), then the deck's mix
 * (DECK_MIX), then ADVENTURE_COUNTS and CARD_KEEP_VALUE, all doubles. A table set is (gain_pos 9, gain_rank
 * 9, damage_pos 3 x 9, damage_front 9, damage_back 9, loss_pos 9). */
#define TSET (9 * 5 + 27)
#define T_GP 0
#define T_GR 9
#define T_DP 18
#define T_DF 45
#define T_DB 54
#define T_LP 63
#define KEEP_TYPES 12
#define TABLES_SIZE (PS_TYPES * TSET + TSET + PS_TYPES + KEEP_TYPES)

#define MAX_PLAYERS 4
#define MAX_ACTIONS (76 + 9 * (MAX_PLAYERS - 1))

/* _mix of the next adventure and the deck for each type and the two horizons a game reaches (one card left,
 * more), precomputed for the default parameters (the native engine's bot): the same doubles as prepare's. */
typedef struct {
    double horizon[2];
    double mix[PS_TYPES][2][TSET];
} PbMixes;

/* One decision of the bot: the spec (sp .. move_type, mixes), the observation and legal actions (o, n,
 * n_legal, legal), and what potsm_bot_scores computes from them. */
typedef struct {
    long sp[P_INTS];
    const PotsmRules *rules; /* POTSM_RULES, or the Python twin's copy in own_rules */
    PotsmRules own_rules;
    const double *q, *tables, *counts, *keep;
    const unsigned char *move_type;
    const PbMixes *mixes; /* NULL: prepare computes the mix */
    const float *o;       /* NULL: the reading below is already written (the native engine reads its state) */
    long n;
    int n_legal, legal[MAX_ACTIONS];
    /* the decision's reading (HeuristicPolicy._scores): the line, damage, fame and adventure; own and
     * revealed pirates (prob's revealed rows, caps: the pirates per offset left to place); for the rows the
     * belief fits, not_owner and the tallies (move forward, backward, sabotage, accusations) per offset; the
     * claimed fame per offset; the adventures left (deck and upcoming) and the first upcoming one (-1: none) */
    int line[PS_SHIPS], damaged[PS_SHIPS], mine[PS_SHIPS], unrevealed[PS_SHIPS], card, remaining, next;
    double fame[PS_SHIPS], prob[PS_SHIPS][4], weight[MAX_PLAYERS], caps[MAX_PLAYERS], claimed[MAX_PLAYERS];
    unsigned char not_owner[PS_SHIPS][MAX_PLAYERS];
    double tally[PS_SHIPS][MAX_PLAYERS][4];
    /* _prepare's parts */
    double values[PS_SHIPS], place[PS_SHIPS][PS_SHIPS], edge[PS_SHIPS][PS_SHIPS], wreck[PS_SHIPS];
    int n_losses, loss_at[PS_SHIPS];
    double loss[PS_SHIPS];
} Pb;

/* Whether every field the bot reads, at its spec offset and with its width, lies inside the observation. */
int potsm_bot_fields_inside(const long *sp, long n);
/* HeuristicPolicy._scores into scores[action] for every legal action (b->o, b->n, b->legal, b->n_legal set);
 * -1 where the Python bot would fail or read the observation otherwise than the C code does. With b->o NULL
 * the caller has written the reading instead, the values the observation would give (``mine`` always; the
 * rest unless the legal actions are the accusation's discard). */
int potsm_bot_scores(Pb *b, double *scores);
/* Whether the legal actions are the accusation's discard (PSM-1051), which reads only ``mine``. */
int potsm_bot_is_discard(const Pb *b);
/* Whether the ``size`` floats of ``o`` are all finite. */
int potsm_bot_all_finite(const float *o, long size);
/* Whether every legal action's score is finite. */
int potsm_bot_legal_scores_finite(const Pb *b, const double *scores);
/* The spec of HeuristicPolicy(game) with its default parameters, for n players and the variants (hand:
 * move_cards_in_hand, upcoming: upcoming_adventures); ``starts`` are the observation's field starts
 * (PotsmLayout order) and ``size`` its length, or NULL and 0 where no observation is read (the native
 * engine's bot writes the reading from its state). */
void potsm_bot_default_spec(Pb *b, long n, int hand, int upcoming, const long *starts, long size);

#endif
