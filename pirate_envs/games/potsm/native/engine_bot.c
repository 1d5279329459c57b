/* The native engine's heuristic bot and action features: the seat to act's observation (observe.c) and legal
 * actions read by the cores the Python twins share (bot_core.c, features_core.c), with the Python bot's
 * default parameters and tables built in C.
 */
#include "games/potsm/native/bot_core.h"
#include "games/potsm/native/engine.h"
#include "games/potsm/native/features_core.h"

/* HeuristicPolicy(game).act for the seat to act: a single legal action as it is; else the best score, a tie
 * (scores within TIE_TOLERANCE of the best) drawn with randrange over the tied actions in ascending order. */
int potsm_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng) {
    const PotsmState *s = (const PotsmState *)st;
    const int n = cfg->num_players;
    int32_t legal[PZ_MAX_ACTIONS];
    const int n_legal = potsm_legal_actions(cfg, st, legal);
    if (n_legal == 1) return legal[0];
    float obs[PZ_MAX_OBS];
    potsm_observe(cfg, st, s->current_seat, obs);
    long at[PL_COUNT];
    potsm_layout(n, at);
    Pb b;
    potsm_bot_default_spec(&b, n, cfg->options[PZ_OPT_HAND] != 0, cfg->options[PZ_OPT_UPCOMING] != 0, at, at[PL_SIZE]);
    b.o = obs;
    b.n_legal = n_legal;
    for (int i = 0; i < n_legal; i++) b.legal[i] = legal[i];
    double scores[PZ_MAX_ACTIONS];
    if (potsm_bot_scores(&b, scores) < 0) return legal[0]; /* never: the engine's observations are well formed */
    double best = scores[legal[0]];
    for (int i = 1; i < n_legal; i++)
        if (scores[legal[i]] > best) best = scores[legal[i]];
    const double threshold = best - b.q[Q_TIE];
    int top[PZ_MAX_ACTIONS], n_top = 0;
    for (int i = 0; i < n_legal; i++)
        if (scores[legal[i]] >= threshold) top[n_top++] = legal[i];
    return n_top == 1 ? top[0] : top[sm_randrange(rng, (uint64_t)n_top)];
}

/* action_features.action_features: (num_actions, 9 * (8 + n - 1)) floats, rows of illegal actions zero. An
 * observation the core does not read (no line by argmax, NaN values: never one of the engine's) gives zeros and
 * -1. */
int potsm_action_features(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out) {
    const int n = cfg->num_players;
    const long k = 8 + n - 1, num_actions = 76 + 9 * (n - 1);
    memset(out, 0, (size_t)(num_actions * PS_SHIPS * k) * sizeof(float));
    long at[PL_COUNT];
    potsm_layout(n, at);
    const long lay[L_INTS] = {at[PL_SIZE],          at[PL_SHIP_POSITION], at[PL_SHIP_DAMAGED],
                              at[PL_SHIP_FAME],     at[PL_REVEALED_OWNER], at[PL_CURRENT]};
    Features f = {.r = &POTSM_RULES, .table = potsm_feature_table(), .k = k};
    if (potsm_write_features(&f, lay, n, obs, (const unsigned char *)mask, num_actions, out, 0) < 0) {
        memset(out, 0, (size_t)(num_actions * PS_SHIPS * k) * sizeof(float));
        return -1;
    }
    return 0;
}

/* The bot's and the features' tables, filled once (configure calls this while the caller holds the GIL, so no
 * two threads that later play games without it fill them at once). */
void potsm_prepare_tables(void) {
    (void)potsm_feature_table(); /* fills the bot's tables on its way */
}
