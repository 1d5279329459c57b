/* The compiled engines built into pirate_envs._native: one line per game (its engine lives in
 * pirate_envs/games/<game>/native/). NativeGame looks an engine up here by its game id.
 */
#include "core/native/engine.h"

extern const NativeEngine dmd_engine;
extern const NativeEngine potsm_engine;
extern const NativeEngine tor_engine;
extern const NativeEngine mch_engine;

const NativeEngine *const NATIVE_ENGINES[] = {
    &dmd_engine,
    &potsm_engine,
    &tor_engine,
    &mch_engine,
    NULL,
};
