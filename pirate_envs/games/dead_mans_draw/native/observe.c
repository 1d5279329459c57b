/* placeholder, filled below */
#include "games/dead_mans_draw/native/dmd_engine.h"
void dmd_observe(const NeConfig *cfg, const void *st, int seat, float *out) { (void)cfg; (void)st; (void)seat; for (int i = 0; i < cfg->obs_size; i++) out[i] = 0; }
void dmd_resample_hidden(const NeConfig *cfg, void *st, int seat, SplitMix *source) { (void)cfg; (void)st; (void)seat; (void)source; }
int dmd_heuristic(const NeConfig *cfg, const void *st, SplitMix *rng) { (void)cfg; (void)st; (void)rng; return 0; }
void dmd_action_features(const NeConfig *cfg, const float *obs, const int8_t *mask, float *out) { (void)obs; (void)mask; for (int i = 0; i < cfg->num_actions * 8; i++) out[i] = 0; }
