/* The observation's layout (PSM-1010, observation.field_specs) in plain C: the start of every field for a
 * player count, in field_specs order, and the vector's size last. The native engine's observe and its bot
 * read the fields at these starts; the engine's tests compare them with observation.field_slices.
 */
#ifndef PIRATE_ENVS_POTSM_LAYOUT_H
#define PIRATE_ENVS_POTSM_LAYOUT_H

enum {
    PL_MY_PIRATES, PL_SHIP_POSITION, PL_SHIP_DAMAGED, PL_SHIP_FAME, PL_REVEALED_OWNER, PL_NOT_OWNER, PL_CLAIMED,
    PL_CURRENT, PL_UPCOMING, PL_ADVENTURE_DECK, PL_ADVENTURE_SEEN, PL_MOVE_AVAILABLE, PL_HAND_SIZES, PL_MOVE_DECK,
    PL_MOVE_DISCARD, PL_PHASE, PL_PENDING, PL_START_SEAT, PL_TURN_INDEX, PL_MOVE_TALLY, PL_REPAIR_TALLY,
    PL_ACCUSATION_TALLY, PL_RECENT_TURNS,
    PL_SIZE, /* not a field: the vector's length, 265 + 85n + 2n^2 */
    PL_COUNT
};

#define POTSM_TURN_KINDS 17 /* actions.NUM_TURN_KINDS */

/* at[PL_*] = the start of each field for n players; at[PL_SIZE] the observation's size. */
static inline void potsm_layout(long n, long *at) {
    const long sizes[PL_SIZE] = {
        9, 81, 9, 9, 9 * n, 9 * n, n, 24, 3 * 24, 1, 24, 12, n, 1, 12, 2, (n - 1) + 9, n, 1, n * 27, n, n * 9,
        n * (2 * n + POTSM_TURN_KINDS + 9),
    };
    long start = 0;
    for (int f = 0; f < PL_SIZE; f++) {
        at[f] = start;
        start += sizes[f];
    }
    at[PL_SIZE] = start;
}

#endif
