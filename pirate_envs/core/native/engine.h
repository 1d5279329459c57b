/* The contract of a compiled game engine: what each game's native/engine.c implements, and what the generic
 * code (engine.c beside this file: the Python type, the vector env, IS-MCTS and flat Monte Carlo) calls.
 *
 * A game's state is one plain struct that starts with NeHeader and holds only fixed-size arrays (no pointers):
 * cloning is memcpy, a batch of N games is one array of N structs. The Python engine stays the oracle: every
 * function answers what the Python State answers for the same position, draw for draw from the same SplitMix64
 * stream (rng.h). The generic code owns what is the same in every game: the decision counter and truncation at
 * max_decisions, the legality check before apply, the seat checks, resample_hidden's reseeding, conversions
 * to and from Python (flat int64 arrays that the game's native_bridge.py packs and unpacks).
 *
 * Safety: load() is the one door for outside data; it validates every value so that no later call can index
 * out of bounds (every other function may assume a state made by init/apply/load). Nothing here raises or
 * allocates; errors are return codes, turned into Python exceptions by the generic code.
 */
#ifndef PIRATE_ENVS_NATIVE_ENGINE_H
#define PIRATE_ENVS_NATIVE_ENGINE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "core/native/rng.h"

#define NE_MAX_OPTIONS 16
#define NE_MAX_PLAYERS 9 /* Tortuga 1667 plays 2-9 */

/* Fixed facts of one game: player count and rule options (set by the Python Game), sizes (checked by
 * configure against the Python Game's). */
typedef struct {
    int num_players;
    int num_options;
    int64_t options[NE_MAX_OPTIONS]; /* in the order of the game's native_bridge.OPTIONS */
    int num_actions;
    int obs_size;
    int64_t max_decisions;
    int num_features; /* action features per action (0: the game has none) */
} NeConfig;

/* A float option (score_scale): the bridge passes a double as its IEEE-754 bits in an int64
 * (native_bridge: struct.unpack("<q", struct.pack("<d", value))[0]). */
static inline double ne_option_double(const NeConfig *cfg, int i) {
    double d;
    int64_t bits = cfg->options[i];
    memcpy(&d, &bits, sizeof d);
    return d;
}

/* First member of every game's state struct. */
typedef struct {
    SplitMix rng;      /* the state's own generator (Python: state.rng) */
    int64_t decisions; /* decisions applied so far */
    int32_t truncated; /* cut at max_decisions before the game's end */
    int32_t _pad;
} NeHeader;

typedef struct NativeEngine {
    const char *game_id;  /* the Python Game.game_id */
    size_t state_size;    /* sizeof the game's state struct */
    int max_actions;      /* an upper bound of num_actions at every player count (buffer sizes) */
    int max_dump;         /* an upper bound of the int64 values dump writes */

    /* Check cfg (player count, option values, sizes); NULL when it is fine, else a message naming the problem. */
    const char *(*configure)(const NeConfig *cfg);
    /* Python's _setup_game: st->h.rng is seeded and the rest zeroed by the caller; deal and resolve chance up to
     * the first decision. */
    void (*init)(const NeConfig *cfg, void *st);
    /* The game's own end (truncation is the caller's). */
    int (*is_terminal)(const NeConfig *cfg, const void *st);
    /* The seat to act in a running game. */
    int (*current_player)(const NeConfig *cfg, const void *st);
    /* The legal actions of a running game, ascending, into out (room for max_actions); returns their count. */
    int (*legal_actions)(const NeConfig *cfg, const void *st, int32_t *out);
    /* Apply a legal action of a running game (the caller checked legality and counts the decision). */
    void (*apply)(const NeConfig *cfg, void *st, int action);
    /* Python's _returns / _scores (num_players doubles), _winners (seats into out; returns their count). */
    void (*returns)(const NeConfig *cfg, const void *st, double *out);
    void (*scores)(const NeConfig *cfg, const void *st, double *out);
    int (*winners)(const NeConfig *cfg, const void *st, int32_t *out);
    /* The observation of seat: all obs_size floats written (zeros included), equal to the Python encoder's. */
    void (*observe)(const NeConfig *cfg, const void *st, int seat, float *out);
    /* Python's _resample_hidden(seat, source): the caller already cloned and reseeded st->h.rng. */
    void (*resample_hidden)(const NeConfig *cfg, void *st, int seat, SplitMix *source);
    /* The heuristic bot's action for the seat to act, from that seat's observation and mask (what the Python
     * HeuristicPolicy sees); where the Python bot draws at random it draws with randrange from rng. */
    int (*heuristic)(const NeConfig *cfg, const void *st, SplitMix *rng);
    /* Action features of one observation and mask (num_actions x num_features floats, all written): 0, or -1
     * when the observation is none the features can read (the caller raises ValueError); NULL when the game has
     * none. */
    int (*action_features)(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out);
    /* The state as flat int64 values (the game's native_bridge.py unpacks them); returns how many. */
    int (*dump)(const NeConfig *cfg, const void *st, int64_t *out);
    /* The inverse of dump into a zeroed st: 0, or -1 when a value is out of its range or the count is wrong
     * (then *why names the first bad value). Must accept every dump of a state made by init/apply. */
    int (*load)(const NeConfig *cfg, void *st, const int64_t *data, int n, const char **why);
} NativeEngine;

#define NE_HEADER(st) ((NeHeader *)(st))
#define NE_CHEADER(st) ((const NeHeader *)(st))

#endif
