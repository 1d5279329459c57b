/* SplitMix64 in C, bit for bit the stream of pirate_envs.core.rng.Rng (the Python engine's generator).
 *
 * A seeded game is the same game in both engines only if every draw matches: randrange is the 128-bit
 * multiply-shift, random() the top 53 bits, shuffle Fisher-Yates from the end with j = randrange(i + 1).
 */
#ifndef PIRATE_ENVS_NATIVE_RNG_H
#define PIRATE_ENVS_NATIVE_RNG_H

#include <stdint.h>

#define SM_GOLDEN 0x9E3779B97F4A7C15ULL

typedef struct {
    uint64_t state;
} SplitMix;

/* Rng(seed).state for a Python int seed already reduced modulo 2**64 (the Python side seeds). */
static inline uint64_t sm_seed_state(uint64_t seed) { return seed * SM_GOLDEN + 0x632BE59BD9B4E019ULL; }

static inline uint64_t sm_next(SplitMix *r) {
    uint64_t z = (r->state += SM_GOLDEN);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

/* Uniform in [0, n) for n >= 1: (next * n) >> 64, as Rng.randrange. */
static inline uint64_t sm_randrange(SplitMix *r, uint64_t n) {
    return (uint64_t)(((unsigned __int128)sm_next(r) * n) >> 64);
}

static inline double sm_random(SplitMix *r) { return (double)(sm_next(r) >> 11) * (1.0 / 9007199254740992.0); }

/* Rng.shuffle on arrays of each element type the engines keep. */
#define SM_SHUFFLE(NAME, T)                                                                                   \
    static inline void NAME(SplitMix *r, T *items, int n) {                                                   \
        for (int i = n - 1; i > 0; i--) {                                                                     \
            int j = (int)sm_randrange(r, (uint64_t)i + 1);                                                    \
            T t = items[i];                                                                                   \
            items[i] = items[j];                                                                              \
            items[j] = t;                                                                                     \
        }                                                                                                     \
    }
SM_SHUFFLE(sm_shuffle_i8, int8_t)
SM_SHUFFLE(sm_shuffle_u8, uint8_t)
SM_SHUFFLE(sm_shuffle_i16, int16_t)
SM_SHUFFLE(sm_shuffle_i32, int32_t)
#undef SM_SHUFFLE

#endif
