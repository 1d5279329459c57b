/* The compiled engines of the games (pirate_envs/core/native/engine.h), one line per game. */
#include "core/native/engine.h"

extern const NativeEngine dmd_engine;

const NativeEngine *const NATIVE_ENGINES[] = {
    &dmd_engine,
    NULL,
};
