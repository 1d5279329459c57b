/* The native engine of Pirates of the Spanish Main (core/native/engine.h's contract): its state struct and what
 * its files share. engine.c holds the rules (setup, legal actions, apply, scoring, determinisation), observe.c
 * the observation, engine_bot.c the heuristic and the action features, dump.c the conversions (dump, load).
 *
 * The state mirrors pirate_envs.games.potsm.game.PotsmState field by field (the same names; lists become
 * fixed arrays with a length), so that every function reads like its Python twin and dump writes the fields
 * in State.fields order. Positions are 0-based, line[p] is the ship at position p, decks keep their top
 * card last, piles nobody orders are per-type counts.
 */
#ifndef PIRATE_ENVS_POTSM_ENGINE_H
#define PIRATE_ENVS_POTSM_ENGINE_H

#include <stdint.h>

#include "core/native/engine.h"
#include "games/potsm/native/layout.h"
#include "games/potsm/native/rules.h"

#define PZ_MAX_N 4
#define PZ_ADVENTURES 58  /* NUM_ADVENTURE_CARDS (PSM-203) */
#define PZ_MOVES 24       /* NUM_MOVE_CARDS (PSM-205) */
#define PZ_MOVE_TYPES 12
#define PZ_RECORD 13      /* actions.RECORD_LENGTH: actor, kind, accused, ship vector (9), card */
#define PZ_MAX_ACTIONS (76 + 9 * (PZ_MAX_N - 1))
#define PZ_MAX_OBS (265 + 85 * PZ_MAX_N + 2 * PZ_MAX_N * PZ_MAX_N)
#define PZ_UNUSED (-1)    /* pirate_owner of a pirate set aside (PSM-303) */
#define PZ_MAIN 0
#define PZ_ACCUSE_DISCARD 1

/* NeConfig.options, in native_bridge.OPTIONS order. score_scale is a float option: its IEEE-754 bits. */
enum { PZ_OPT_UPCOMING, PZ_OPT_HAND, PZ_OPT_REWARD_MODE, PZ_OPT_SCORE_SCALE, PZ_NUM_OPTIONS };

/* Turn kinds of a record beyond the move types 0-11 (actions.TURN_KIND_*). */
enum { PZ_KIND_REPAIR = 12, PZ_KIND_PASS, PZ_KIND_PASS_DISCARD, PZ_KIND_ACCUSE_CORRECT, PZ_KIND_ACCUSE_WRONG };

typedef struct {
    NeHeader h;
    /* the line (PSM-501) by position, damage and fame by ship */
    int line[PS_SHIPS];
    uint8_t damaged[PS_SHIPS];
    int16_t fame[PS_SHIPS];
    /* pirates (PSM-303, PSM-515, PSM-561) by pirate id; not_owner is [pirate * n + seat] */
    int8_t pirate_owner[PS_SHIPS];
    uint8_t revealed[PS_SHIPS];
    uint8_t not_owner[PS_SHIPS * PZ_MAX_N];
    int16_t claimed[PZ_MAX_N];
    /* adventures (PSM-302, PSM-526, PSM-802) */
    int8_t adventure_deck[PZ_ADVENTURES];
    int8_t adventure_row[PZ_MAX_N];
    uint8_t adventure_seen[PS_TYPES], adventure_discard[PS_TYPES], blind_fame_cards[PS_TYPES];
    /* move cards (PSM-304, PSM-550, PSM-803) */
    uint8_t move_row[PZ_MOVE_TYPES];
    uint8_t hands[PZ_MAX_N][PZ_MOVE_TYPES]; /* the hand variant only */
    int8_t move_deck[PZ_MOVES];
    uint8_t move_discard[PZ_MOVE_TYPES];
    /* public history (PSM-1079..1082), by absolute seat */
    uint8_t move_tally[PZ_MAX_N * 27], repair_tally[PZ_MAX_N], accusation_tally[PZ_MAX_N * PS_SHIPS];
    int8_t recent_turns[PZ_MAX_N][PZ_RECORD]; /* newest first */
    /* lengths of the lists above */
    uint8_t adventure_deck_len, adventure_row_len, move_deck_len, recent_len;
    /* the turn (PSM-306, PSM-401) */
    int8_t start_seat, current_seat, phase, game_over;
    int8_t pending_len, pending_target, pending_pirate; /* pending_accusation: [] or [target, pirate] */
    uint8_t turn_index;
} PotsmState;

/* The facts of one configuration (Game._setup), read from NeConfig. */
typedef struct {
    int n, upcoming, hand, reward_score, pirates_each, unused, hand_size, row_size, num_actions;
    double score_scale;
} PotsmFacts;

static inline void potsm_facts(const NeConfig *cfg, PotsmFacts *f) {
    f->n = cfg->num_players;
    f->upcoming = cfg->options[PZ_OPT_UPCOMING] != 0;
    f->hand = cfg->options[PZ_OPT_HAND] != 0;
    f->reward_score = cfg->options[PZ_OPT_REWARD_MODE] == 1;
    f->score_scale = ne_option_double(cfg, PZ_OPT_SCORE_SCALE);
    f->pirates_each = f->n == 2 ? 3 : 2; /* PSM-303 */
    f->unused = 9 - f->n * f->pirates_each;
    f->hand_size = f->n == 2 ? 4 : 3; /* PSM-803 */
    f->row_size = f->upcoming ? f->n : 1; /* PSM-302, PSM-802 */
    f->num_actions = 76 + 9 * (f->n - 1);
}

static const uint8_t PZ_ADVENTURE_COUNTS[PS_TYPES] = {2, 2, 2, 2, 4, 6, 2, 4, 3, 2, 2, 5, 2, 2, 2, 2, 1, 1, 2, 2, 2, 2, 2, 2};
static const uint8_t PZ_MOVE_COUNTS[PZ_MOVE_TYPES] = {2, 3, 4, 3, 1, 1, 1, 1, 1, 1, 5, 1};

/* engine.c */
int potsm_legal_actions(const NeConfig *cfg, const void *st, int32_t *out);
/* observe.c */
void potsm_observe(const NeConfig *cfg, const void *st, int seat, float *out);
/* engine_bot.c */
int potsm_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng);
int potsm_action_features(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out);
void potsm_prepare_tables(void);
/* dump.c */
int potsm_dump(const NeConfig *cfg, const void *st, int64_t *out);
int potsm_load(const NeConfig *cfg, void *st, const int64_t *data, int n, const char **why);
#define PZ_MAX_DUMP 700

#endif
