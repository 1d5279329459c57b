/* The native engine's state as flat int64 values, and back: the fields of PotsmState.fields in their order
 * (native_bridge.pack / unpack are the Python side), each list of varying length preceded by its length:
 *
 *   line 9, damaged 9, fame 9, pirate_owner 9, revealed 9, not_owner 9n, claimed n,
 *   adventure_deck (len, cards), adventure_row (len, cards), adventure_seen 24, adventure_discard 24,
 *   blind_fame_cards 24, move_row 12, hands (0 or n, then 12 per hand), move_deck (len, cards),
 *   move_discard 12, start_seat, current_seat, phase, pending_accusation (0 or 2, then target, pirate),
 *   turn_index, game_over, move_tally 27n, repair_tally n, accusation_tally 9n,
 *   recent_turns (count, then 13 per record).
 *
 * load is the one door for outside data: it checks every value against its range and the state's invariants
 * (those of PotsmState.check_invariants, card conservation included) before any is used, and a few bounds of
 * its own that keep every later count inside its storage: no fame, claim or tally can then pass 255 (the
 * Python state's bytearrays) whatever is played.
 */
#include "games/potsm/native/engine.h"

#define PZ_MAX_TURN_INDEX 150 /* turns so far; a game has at most ~71 decisions, so tallies stay below 255 */
#define PZ_FAME_ROOM 255      /* fame + claims + 4 per adventure card still to resolve: no count passes it */

/* --- dump ----------------------------------------------------------------------------------------------- */

typedef struct {
    int64_t *out;
    int at;
} Writer;

static void put_u8(Writer *w, const uint8_t *values, int count) {
    for (int i = 0; i < count; i++) w->out[w->at++] = values[i];
}

static void put_i8(Writer *w, const int8_t *values, int count) {
    for (int i = 0; i < count; i++) w->out[w->at++] = values[i];
}

int potsm_dump(const NeConfig *cfg, const void *st, int64_t *out) {
    const PotsmState *s = (const PotsmState *)st;
    const int n = cfg->num_players, hand = cfg->options[PZ_OPT_HAND] != 0;
    Writer w = {out, 0};
    for (int p = 0; p < PS_SHIPS; p++) out[w.at++] = s->line[p];
    put_u8(&w, s->damaged, PS_SHIPS);
    for (int j = 0; j < PS_SHIPS; j++) out[w.at++] = s->fame[j];
    put_i8(&w, s->pirate_owner, PS_SHIPS);
    put_u8(&w, s->revealed, PS_SHIPS);
    put_u8(&w, s->not_owner, PS_SHIPS * n);
    for (int seat = 0; seat < n; seat++) out[w.at++] = s->claimed[seat];
    out[w.at++] = s->adventure_deck_len;
    put_i8(&w, s->adventure_deck, s->adventure_deck_len);
    out[w.at++] = s->adventure_row_len;
    put_i8(&w, s->adventure_row, s->adventure_row_len);
    put_u8(&w, s->adventure_seen, PS_TYPES);
    put_u8(&w, s->adventure_discard, PS_TYPES);
    put_u8(&w, s->blind_fame_cards, PS_TYPES);
    put_u8(&w, s->move_row, PZ_MOVE_TYPES);
    out[w.at++] = hand ? n : 0;
    for (int seat = 0; hand && seat < n; seat++) put_u8(&w, s->hands[seat], PZ_MOVE_TYPES);
    out[w.at++] = s->move_deck_len;
    put_i8(&w, s->move_deck, s->move_deck_len);
    put_u8(&w, s->move_discard, PZ_MOVE_TYPES);
    out[w.at++] = s->start_seat;
    out[w.at++] = s->current_seat;
    out[w.at++] = s->phase;
    out[w.at++] = s->pending_len;
    if (s->pending_len == 2) {
        out[w.at++] = s->pending_target;
        out[w.at++] = s->pending_pirate;
    }
    out[w.at++] = s->turn_index;
    out[w.at++] = s->game_over;
    put_u8(&w, s->move_tally, 27 * n);
    put_u8(&w, s->repair_tally, n);
    put_u8(&w, s->accusation_tally, PS_SHIPS * n);
    out[w.at++] = s->recent_len;
    for (int i = 0; i < s->recent_len; i++) put_i8(&w, s->recent_turns[i], PZ_RECORD);
    return w.at;
}

/* --- load ----------------------------------------------------------------------------------------------- */

typedef struct {
    const int64_t *data;
    int n, at;
    const char *why; /* the first problem found */
} Reader;

/* The next value, which must lie in [low, high]; else the reader fails with ``what`` (and reads 0 on). */
static int64_t take(Reader *r, int64_t low, int64_t high, const char *what) {
    if (r->why != NULL) return low;
    if (r->at >= r->n) {
        r->why = "potsm: the dump is too short";
        return low;
    }
    const int64_t v = r->data[r->at++];
    if (v < low || v > high) {
        r->why = what;
        return low;
    }
    return v;
}

static void take_u8(Reader *r, uint8_t *into, int count, int64_t high, const char *what) {
    for (int i = 0; i < count; i++) into[i] = (uint8_t)take(r, 0, high, what);
}

static void take_i8(Reader *r, int8_t *into, int count, int64_t low, int64_t high, const char *what) {
    for (int i = 0; i < count; i++) into[i] = (int8_t)take(r, low, high, what);
}

/* The values, read into st without a check between them (ranges only). */
static void read_fields(Reader *r, const PotsmFacts *f, PotsmState *s) {
    const int n = f->n;
    for (int p = 0; p < PS_SHIPS; p++) s->line[p] = (int)take(r, 0, 8, "potsm: line holds a ship outside 0..8");
    take_u8(r, s->damaged, PS_SHIPS, 1, "potsm: damaged holds a value outside 0..1");
    for (int j = 0; j < PS_SHIPS; j++) s->fame[j] = (int16_t)take(r, 0, 232, "potsm: fame outside 0..232");
    take_i8(r, s->pirate_owner, PS_SHIPS, PZ_UNUSED, n - 1, "potsm: pirate_owner outside -1..n-1");
    take_u8(r, s->revealed, PS_SHIPS, 1, "potsm: revealed holds a value outside 0..1");
    take_u8(r, s->not_owner, PS_SHIPS * n, 1, "potsm: not_owner holds a value outside 0..1");
    for (int seat = 0; seat < n; seat++) s->claimed[seat] = (int16_t)take(r, 0, 232, "potsm: claimed outside 0..232");
    s->adventure_deck_len = (uint8_t)take(r, 0, PZ_ADVENTURES, "potsm: adventure_deck longer than 58 cards");
    take_i8(r, s->adventure_deck, s->adventure_deck_len, 0, PS_TYPES - 1, "potsm: adventure_deck holds no card type");
    const int row_size = f->row_size < PZ_MAX_N ? f->row_size : PZ_MAX_N;
    s->adventure_row_len = (uint8_t)take(r, 0, row_size, "potsm: adventure_row longer than the row");
    take_i8(r, s->adventure_row, s->adventure_row_len, 0, PS_TYPES - 1, "potsm: adventure_row holds no card type");
    take_u8(r, s->adventure_seen, PS_TYPES, PZ_ADVENTURES, "potsm: adventure_seen outside 0..58");
    take_u8(r, s->adventure_discard, PS_TYPES, PZ_ADVENTURES, "potsm: adventure_discard outside 0..58");
    take_u8(r, s->blind_fame_cards, PS_TYPES, PZ_ADVENTURES, "potsm: blind_fame_cards outside 0..58");
    take_u8(r, s->move_row, PZ_MOVE_TYPES, PZ_MOVES, "potsm: move_row outside 0..24");
    const int hands = (int)take(r, f->hand ? n : 0, f->hand ? n : 0, "potsm: hands must be n hands (hand variant) or none");
    for (int seat = 0; seat < hands; seat++) take_u8(r, s->hands[seat], PZ_MOVE_TYPES, PZ_MOVES, "potsm: a hand count outside 0..24");
    s->move_deck_len = (uint8_t)take(r, 0, PZ_MOVES, "potsm: move_deck longer than 24 cards");
    take_i8(r, s->move_deck, s->move_deck_len, 0, PZ_MOVE_TYPES - 1, "potsm: move_deck holds no move type");
    take_u8(r, s->move_discard, PZ_MOVE_TYPES, PZ_MOVES, "potsm: move_discard outside 0..24");
    s->start_seat = (int8_t)take(r, 0, n - 1, "potsm: start_seat is not a seat");
    s->current_seat = (int8_t)take(r, 0, n - 1, "potsm: current_seat is not a seat");
    s->phase = (int8_t)take(r, PZ_MAIN, PZ_ACCUSE_DISCARD, "potsm: phase outside 0..1");
    s->pending_len = (int8_t)take(r, 0, 2, "potsm: pending_accusation is not [] or [seat, pirate]");
    if (s->pending_len == 1) r->why = r->why ? r->why : "potsm: pending_accusation is not [] or [seat, pirate]";
    if (s->pending_len == 2) {
        s->pending_target = (int8_t)take(r, 0, n - 1, "potsm: the pending accusation's seat is not a seat");
        s->pending_pirate = (int8_t)take(r, 0, 8, "potsm: the pending accusation's pirate is outside 0..8");
    }
    const int64_t max_turns = PZ_MAX_TURN_INDEX;
    s->turn_index = (uint8_t)take(r, 0, max_turns, "potsm: turn_index outside 0..150");
    s->game_over = (int8_t)take(r, 0, 1, "potsm: game_over outside 0..1");
    take_u8(r, s->move_tally, 27 * n, s->turn_index, "potsm: a move tally above turn_index");
    take_u8(r, s->repair_tally, n, s->turn_index, "potsm: a repair tally above turn_index");
    take_u8(r, s->accusation_tally, PS_SHIPS * n, s->turn_index, "potsm: an accusation tally above turn_index");
    s->recent_len = (uint8_t)take(r, 0, n, "potsm: recent_turns longer than n");
    for (int i = 0; i < s->recent_len; i++) {
        int8_t *record = s->recent_turns[i];
        record[0] = (int8_t)take(r, 0, n - 1, "potsm: a recent turn's actor is not a seat");
        record[1] = (int8_t)take(r, 0, POTSM_TURN_KINDS - 1, "potsm: a recent turn's kind outside 0..16");
        record[2] = (int8_t)take(r, -1, n - 1, "potsm: a recent turn's accused seat outside -1..n-1");
        take_i8(r, record + 3, PS_SHIPS, -8, 8, "potsm: a recent turn's ship vector outside -8..8");
        record[12] = (int8_t)take(r, -1, PZ_MOVE_TYPES - 1, "potsm: a recent turn's card outside -1..11");
    }
    if (r->why == NULL && r->at != r->n) r->why = "potsm: the dump is longer than its fields";
}

/* The invariants between the values (PotsmState.check_invariants and load's own bounds); NULL when they hold. */
static const char *check_state(const PotsmFacts *f, const PotsmState *s, int64_t max_decisions) {
    const int n = f->n;
    int seen[PS_SHIPS] = {0};
    for (int p = 0; p < PS_SHIPS; p++)
        if (seen[s->line[p]]++) return "potsm: line is not a permutation of the ships";
    /* pirates: each seat holds its share, the rest are set aside (PSM-303); the public facts are true (PSM-561) */
    int held[PZ_MAX_N] = {0}, unused = 0;
    for (int j = 0; j < PS_SHIPS; j++) {
        const int owner = s->pirate_owner[j];
        if (owner == PZ_UNUSED) unused++;
        else held[owner]++;
        for (int seat = 0; seat < n; seat++) {
            if (s->not_owner[j * n + seat] && owner == seat) return "potsm: a not_owner fact is false";
            if (s->revealed[j] && seat != owner && !s->not_owner[j * n + seat])
                return "potsm: a revealed pirate's other seats are not all marked not_owner";
        }
        if (s->revealed[j] && owner == PZ_UNUSED && !s->game_over) return "potsm: an unused pirate is revealed before the end";
        if (s->game_over && !s->revealed[j]) return "potsm: a pirate is unrevealed at the end (PSM-701)";
    }
    for (int seat = 0; seat < n; seat++)
        if (held[seat] != f->pirates_each) return "potsm: a seat holds the wrong number of pirates";
    if (unused != f->unused) return "potsm: the wrong number of pirates set aside";
    /* adventures: seen + deck + blind fame = the card counts; discard + row within seen (PSM-526) */
    int in_deck[PS_TYPES] = {0}, in_row[PS_TYPES] = {0};
    for (int i = 0; i < s->adventure_deck_len; i++) in_deck[s->adventure_deck[i]]++;
    for (int i = 0; i < s->adventure_row_len; i++) in_row[s->adventure_row[i]]++;
    for (int t = 0; t < PS_TYPES; t++) {
        if (s->adventure_seen[t] + in_deck[t] + s->blind_fame_cards[t] != PZ_ADVENTURE_COUNTS[t])
            return "potsm: an adventure card type is not conserved";
        if (s->adventure_discard[t] + in_row[t] > s->adventure_seen[t])
            return "potsm: more adventure cards discarded or in the row than seen";
    }
    if (s->game_over) {
        if (s->adventure_row_len || s->adventure_deck_len) return "potsm: the game is over with adventures left";
    } else {
        if (s->adventure_row_len == 0) return "potsm: a running game has no current adventure";
        if (s->adventure_deck_len && s->adventure_row_len != f->row_size) return "potsm: the row is not full";
    }
    /* fame: no count can pass 255 later (each adventure card still to resolve awards at most 4) */
    int fame = 0;
    for (int j = 0; j < PS_SHIPS; j++) fame += s->fame[j];
    for (int seat = 0; seat < n; seat++) fame += s->claimed[seat];
    if (fame + 4 * (s->adventure_deck_len + s->adventure_row_len) > PZ_FAME_ROOM)
        return "potsm: more fame than the game can hold";
    /* move cards: 24 across the row, the hands, the deck and the discard pile (PSM-204) */
    int totals[PZ_MOVE_TYPES], row = 0;
    for (int t = 0; t < PZ_MOVE_TYPES; t++) {
        totals[t] = s->move_row[t] + s->move_discard[t];
        row += s->move_row[t];
    }
    for (int i = 0; i < s->move_deck_len; i++) totals[s->move_deck[i]]++;
    if (f->hand) {
        if (row) return "potsm: a move row in the hand variant";
        for (int seat = 0; seat < n; seat++) {
            int size = 0;
            for (int t = 0; t < PZ_MOVE_TYPES; t++) {
                totals[t] += s->hands[seat][t];
                size += s->hands[seat][t];
            }
            if (size < 1 || size > f->hand_size) return "potsm: a hand of the wrong size";
        }
    } else if (row != 3) {
        return "potsm: the move row does not hold 3 cards";
    }
    for (int t = 0; t < PZ_MOVE_TYPES; t++)
        if (totals[t] != PZ_MOVE_COUNTS[t]) return "potsm: a move card type is not conserved";
    /* the turn */
    if (s->phase == PZ_ACCUSE_DISCARD) {
        if (!f->hand || s->pending_len != 2) return "potsm: ACCUSE_DISCARD without the hand variant's pending accusation";
        if (s->pending_target == s->current_seat || s->revealed[s->pending_pirate])
            return "potsm: the pending accusation names the seat itself or a revealed pirate";
        int size = 0;
        for (int t = 0; t < PZ_MOVE_TYPES; t++) size += s->hands[s->current_seat][t];
        if (size < 2) return "potsm: ACCUSE_DISCARD with fewer than 2 hand cards";
    } else if (s->pending_len != 0) {
        return "potsm: a pending accusation outside ACCUSE_DISCARD";
    }
    if (s->turn_index > max_decisions) return "potsm: turn_index above max_decisions";
    if (s->recent_len != (s->turn_index < n ? s->turn_index : n)) return "potsm: recent_turns is not min(n, turn_index) long";
    int repairs = 0;
    for (int seat = 0; seat < n; seat++) repairs += s->repair_tally[seat];
    if (repairs > s->turn_index) return "potsm: more repairs than turns";
    return NULL;
}

int potsm_load(const NeConfig *cfg, void *st, const int64_t *data, int n, const char **why) {
    PotsmFacts f;
    potsm_facts(cfg, &f);
    Reader r = {data, n < 0 ? 0 : n, 0, NULL};
    PotsmState *s = (PotsmState *)st;
    if (f.n < 2 || f.n > PZ_MAX_N) {
        *why = "potsm: a player count outside 2..4";
        return -1;
    }
    read_fields(&r, &f, s);
    if (r.why == NULL) r.why = check_state(&f, s, cfg->max_decisions);
    if (r.why != NULL) {
        *why = r.why;
        return -1;
    }
    return 0;
}
