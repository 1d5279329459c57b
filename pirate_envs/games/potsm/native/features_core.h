/* The core of Pirates of the Spanish Main's action features, in plain C (no Python API): the features of
 * action_features.action_features_python (pirate_envs/games/potsm/action_features.py) for one observation and
 * mask. Two callers: the Python twins potsm_features / potsm_legal_features (features.c), which read the
 * channel table from Python, and the native engine (engine_bot.c), which builds it with
 * potsm_feature_table, the same doubles computed in C.
 */
#ifndef PIRATE_ENVS_POTSM_FEATURES_CORE_H
#define PIRATE_ENVS_POTSM_FEATURES_CORE_H

#include "games/potsm/native/rules.h"

/* The ints of the twin's layout argument (action_features._twin_layout), then its table. */
enum { L_SIZE, L_POSITION, L_DAMAGED, L_FAME, L_REVEALED, L_CURRENT, L_INTS, L_TABLE = L_INTS, L_COUNT };

#define PF_BASE 8     /* channels before the accusation ones */
#define PF_TABLE_LEN ((1 << PS_SHIPS) * PS_SHIPS * 3 * 2 * 4) /* (damage pattern, position, nation, has fame, 2..5) */

typedef struct {
    const PotsmRules *r;
    const double *table;
    int card; /* the current adventure, -1 when none is face up */
    int line[PS_SHIPS], position[PS_SHIPS], damaged[PS_SHIPS], unrevealed[PS_SHIPS];
    double fame[PS_SHIPS];
    long k; /* channels per ship */
} Features;

/* The features of one observation's legal actions into the zero-filled ``rows`` (see features_core.c). */
long potsm_write_features(Features *f, const long *lay, long n, const float *obs, const unsigned char *mask,
                          long num_actions, float *rows, int compact);
/* action_features._CHANNELS_2_TO_5 computed in C (PF_TABLE_LEN doubles, filled on the first call). */
const double *potsm_feature_table(void);

#endif
