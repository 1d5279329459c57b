/* The native engines, one line per game (core/native/engine.h): the generic code (engine.c) finds a game's
 * engine here by its game_id. */
#include "core/native/engine.h"

extern const NativeEngine potsm_engine;

const NativeEngine *const NATIVE_ENGINES[] = {
    &potsm_engine,
    NULL,
};
