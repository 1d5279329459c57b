/* The observation of the native engine (PSM-1010): what observation.encode_reference writes, field by field in
 * the order of field_specs, from the engine's state. Every per-seat axis is indexed by offset from the
 * observer (offset 0 = the observer); what a seat may not see (others' unrevealed pirates, deck orders, other
 * hands, blind fame faces) is never read here.
 */
#include "games/potsm/native/engine.h"

/* out[at + k * width + i] = counts[seats[k] * width + i]: a per-seat table in offset order (seats[k] is the
 * seat at offset k). */
static void rotated(float *out, long at, const uint8_t *counts, int width, const int *seats, int n) {
    for (int k = 0; k < n; k++) {
        const uint8_t *row = counts + seats[k] * width;
        for (int i = 0; i < width; i++) out[at + k * width + i] = (float)row[i];
    }
}

void potsm_observe(const NeConfig *cfg, const void *st, int seat, float *out) {
    const PotsmState *s = (const PotsmState *)st;
    const int n = cfg->num_players, hand = cfg->options[PZ_OPT_HAND] != 0;
    long at[PL_COUNT];
    potsm_layout(n, at);
    memset(out, 0, (size_t)at[PL_SIZE] * sizeof(float));
    int seats[PZ_MAX_N]; /* the seat at each offset from the observer */
    for (int k = 0; k < n; k++) seats[k] = (seat + k) % n;
    /* PSM-1060 my_pirates, PSM-1064 ship_revealed_owner (ship-major, offset-minor) */
    for (int j = 0; j < PS_SHIPS; j++) {
        const int owner = s->pirate_owner[j];
        if (owner == seat) out[at[PL_MY_PIRATES] + j] = 1.0f;
        if (owner >= 0 && s->revealed[j]) out[at[PL_REVEALED_OWNER] + j * n + (owner - seat + n) % n] = 1.0f;
    }
    /* PSM-1061 ship_position: ship j's one-hot position */
    for (int p = 0; p < PS_SHIPS; p++) out[at[PL_SHIP_POSITION] + s->line[p] * PS_SHIPS + p] = 1.0f;
    /* PSM-1062, 1063 */
    for (int j = 0; j < PS_SHIPS; j++) {
        out[at[PL_SHIP_DAMAGED] + j] = (float)s->damaged[j];
        out[at[PL_SHIP_FAME] + j] = (float)s->fame[j];
    }
    /* PSM-1065 ship_not_owner, PSM-1066 claimed_fame */
    for (int j = 0; j < PS_SHIPS; j++)
        for (int k = 0; k < n; k++) out[at[PL_NOT_OWNER] + j * n + k] = (float)s->not_owner[j * n + seats[k]];
    for (int k = 0; k < n; k++) out[at[PL_CLAIMED] + k] = (float)s->claimed[seats[k]];
    /* PSM-1067 the current adventure, PSM-1068 the row's slots 2..4 */
    for (int slot = 0; slot < s->adventure_row_len && slot < 4; slot++) {
        const long base = slot == 0 ? at[PL_CURRENT] : at[PL_UPCOMING] + (slot - 1) * PS_TYPES;
        out[base + s->adventure_row[slot]] = 1.0f;
    }
    /* PSM-1069, 1070 */
    out[at[PL_ADVENTURE_DECK]] = (float)s->adventure_deck_len;
    for (int t = 0; t < PS_TYPES; t++) out[at[PL_ADVENTURE_SEEN] + t] = (float)s->adventure_seen[t];
    /* PSM-1071 move_available: the row, or the seat's own hand (PSM-803); PSM-1072 hand sizes per offset */
    const uint8_t *available = hand ? s->hands[seat] : s->move_row;
    for (int t = 0; t < PZ_MOVE_TYPES; t++) out[at[PL_MOVE_AVAILABLE] + t] = (float)available[t];
    if (hand) {
        for (int k = 0; k < n; k++) {
            int held = 0;
            for (int t = 0; t < PZ_MOVE_TYPES; t++) held += s->hands[seats[k]][t];
            out[at[PL_HAND_SIZES] + k] = (float)held;
        }
    }
    /* PSM-1073, 1074 */
    out[at[PL_MOVE_DECK]] = (float)s->move_deck_len;
    for (int t = 0; t < PZ_MOVE_TYPES; t++) out[at[PL_MOVE_DISCARD] + t] = (float)s->move_discard[t];
    /* PSM-1075 phase, PSM-1076 pending accusation: the acting seat only */
    if (s->current_seat == seat && !s->game_over && !s->h.truncated) {
        out[at[PL_PHASE] + s->phase] = 1.0f;
        if (s->pending_len == 2) {
            const int offset = (s->pending_target - seat + n) % n;
            if (offset > 0) out[at[PL_PENDING] + offset - 1] = 1.0f;
            out[at[PL_PENDING] + n - 1 + s->pending_pirate] = 1.0f;
        }
    }
    /* PSM-1077, 1078 */
    out[at[PL_START_SEAT] + (s->start_seat - seat + n) % n] = 1.0f;
    out[at[PL_TURN_INDEX]] = (float)s->turn_index;
    /* PSM-1079..1081: the tallies per offset */
    rotated(out, at[PL_MOVE_TALLY], s->move_tally, 27, seats, n);
    rotated(out, at[PL_REPAIR_TALLY], s->repair_tally, 1, seats, n);
    rotated(out, at[PL_ACCUSATION_TALLY], s->accusation_tally, PS_SHIPS, seats, n);
    /* PSM-1082: the last n turns, newest first: actor, kind, ship vector, accused */
    const long block = 2 * n + POTSM_TURN_KINDS + PS_SHIPS;
    for (int i = 0; i < s->recent_len; i++) {
        const int8_t *record = s->recent_turns[i];
        const long base = at[PL_RECENT_TURNS] + i * block;
        out[base + (record[0] - seat + n) % n] = 1.0f;
        out[base + n + record[1]] = 1.0f;
        for (int j = 0; j < PS_SHIPS; j++) out[base + n + POTSM_TURN_KINDS + j] = (float)record[3 + j];
        if (record[2] >= 0) out[base + n + POTSM_TURN_KINDS + PS_SHIPS + (record[2] - seat + n) % n] = 1.0f;
    }
}
