/* Madame Ching's rules on the MchState struct: setup, the round, boat-turns, ending expeditions, the action
 * window, scoring and determinisation; a line-by-line port of madame_ching/game.py (MadameChingState), which
 * stays the oracle: the same steps in the same order, the same draws from the same SplitMix64 stream.
 */
#include "games/madame_ching/native/mch.h"

/* ---- piles and hands --------------------------------------------------------------------------------------- */

/* Remove the first ``value`` of items[0..*n) keeping the order (list.remove); 1 when found. */
static int remove_item(int8_t *items, int8_t *n, int value) {
    for (int i = 0; i < *n; i++) {
        if (items[i] == value) {
            memmove(items + i, items + i + 1, (size_t)(*n - i - 1));
            (*n)--;
            return 1;
        }
    }
    return 0;
}

/* The k-th card (0-based, ascending) of a hand (sorted list indexing). */
static int nth_card(uint64_t hand, int k) {
    while (k-- > 0) hand &= hand - 1;
    return mch_ctz(hand);
}

static int has_skill(const MchState *s, int seat, int kind) { return s->skills[seat][kind] > 0 || s->skills[seat][ELITE] > 0; }

/* MCH-525/526: flip a basic card of that kind if owned, else an Elite. */
static void spend_skill(MchState *s, int seat, int kind) {
    if (s->skills[seat][kind] == 0) kind = ELITE;
    s->skills[seat][kind]--;
    s->skills[seat][5 + kind]++;
}

/* MCH-540: the top navigation card (the discard pile reshuffled into the deck when it is empty); 0 if none. */
static int draw_nav(MchState *s) {
    if (s->nav_deck_n == 0) {
        if (s->nav_discard_n == 0) return 0;
        memcpy(s->nav_deck, s->nav_discard, (size_t)s->nav_discard_n);
        s->nav_deck_n = s->nav_discard_n;
        s->nav_discard_n = 0;
        sm_shuffle_i8(&s->h.rng, s->nav_deck, s->nav_deck_n);
    }
    return s->nav_deck[--s->nav_deck_n];
}

/* ---- MCH-917: known cards ------------------------------------------------------------------------------------ */

/* Remove ``card`` from known[knower][q], where known_set says it is. */
static void drop_known(MchState *s, int knower, int q, int card) {
    int8_t *items = s->known[knower][q];
    int n = s->known_n[knower][q], i = 0;
    while (items[i] != card) i++;
    for (; i < n - 1; i++) items[i] = items[i + 1];
    s->known_n[knower][q] = (int8_t)(n - 1);
    s->known_set[knower][q] &= ~BIT(card);
}

/* Drop ``card`` from knower's lists (it is in at most one). */
static void unknow(MchState *s, int knower, int card) {
    if (!(s->known_any[knower] & BIT(card))) return;
    s->known_any[knower] &= ~BIT(card);
    for (int q = 0; q < 4; q++) {
        if (s->known_set[knower][q] & BIT(card)) {
            drop_known(s, knower, q, card);
            return;
        }
    }
}

/* A played or placed card leaves every 'known' list. */
static void forget(MchState *s, int n, int card) {
    for (int k = 0; k < n; k++) unknow(s, k, card);
}

/* ``knower`` now knows ``card`` is in ``holder``'s hand (and nowhere else). */
static void learn(MchState *s, int knower, int holder, int card) {
    if (s->known_any[knower] & BIT(card)) {
        if (s->known_set[knower][holder] & BIT(card)) return; /* already in holder's list */
        for (int q = 0; q < 4; q++) {
            if (s->known_set[knower][q] & BIT(card)) {
                drop_known(s, knower, q, card);
                break;
            }
        }
    }
    s->known[knower][holder][s->known_n[knower][holder]++] = (int8_t)card;
    s->known_set[knower][holder] |= BIT(card);
    s->known_any[knower] |= BIT(card);
}

/* A card enters ``seat``'s hand; the seat's own stale knowledge of it is dropped. */
static void to_hand(MchState *s, int seat, int card) {
    s->hands[seat] |= BIT(card);
    unknow(s, seat, card);
}

static void draw_nav_to_hand(MchState *s, int seat) {
    int card = draw_nav(s);
    if (card) to_hand(s, seat, card);
}

/* Hidden hand-to-hand transfer known to both (Combat give, team passes; MCH-911/913). */
static void give_nav(MchState *s, int giver, int receiver, int card) {
    s->hands[giver] &= ~BIT(card);
    to_hand(s, receiver, card);
    learn(s, giver, receiver, card);
}

/* ---- encounter cards, tokens, skills -------------------------------------------------------------------------- */

static void gain_enc(const MchRules *r, MchState *s, int seat, int kind) {
    s->enc_hands[seat][kind]++;
    if (r->team && s->gift_n < MCH_ENC_CARDS) s->gift_queue[s->gift_n++] = (int8_t)kind; /* MCH-553 */
}

/* MCH-541: draw an encounter card (in team mode it is offered as a gift). */
static void draw_enc(const MchRules *r, MchState *s, int seat) {
    if (s->enc_deck_n == 0) {
        if (s->enc_discard_n == 0) return;
        memcpy(s->enc_deck, s->enc_discard, (size_t)s->enc_discard_n);
        s->enc_deck_n = s->enc_discard_n;
        s->enc_discard_n = 0;
        sm_shuffle_i8(&s->h.rng, s->enc_deck, s->enc_deck_n);
    }
    gain_enc(r, s, seat, s->enc_deck[--s->enc_deck_n]);
}

/* MCH-542: as many as the supply holds. */
static void pay(MchState *s, int seat, int token, int amount) {
    int paid = amount < s->supply[token] ? amount : s->supply[token];
    s->supply[token] -= (int8_t)paid;
    s->tokens[seat][token] += (int8_t)paid;
}

/* MCH-531 / MCH-804 */
static void check_pearl(const MchRules *r, MchState *s, int seat) {
    if (s->pearl_owner != -1) return;
    const int8_t *k = s->skills[seat];
    int missing = 0;
    for (int i = 0; i < 4; i++) missing += k[i] + k[5 + i] == 0;
    if (r->elite_pearl) missing -= k[ELITE] + k[5 + ELITE];
    if (missing <= 0) {
        s->pearl_owner = (int8_t)seat;
        s->end_triggered = 1; /* MCH-701 */
    }
}

/* (offset action code 1..3, boat) of the opponent boats a Siren may target (MCH-616, MCH-1003), into codes/boats,
 * by ascending code. */
static int target_boats(const MchRules *r, int seat, int *codes, int *boats) {
    int k = 0;
    if (r->n == 2) {
        int opp = 1 - seat;
        for (int i = 0; i < 2; i++) {
            codes[k] = i + 1;
            boats[k++] = 2 * opp + i;
        }
        return k;
    }
    for (int o = 1; o < r->n; o++) {
        int q = (seat + o) % r->n;
        if (!mch_is_opponent(r, seat, q)) continue;
        codes[k] = o;
        boats[k++] = q;
    }
    return k;
}

/* ---- the round (Section 4) ------------------------------------------------------------------------------------- */

/* MCH-401 phase 1 (Deal) and the start of Select with the hand safeguard (MCH-502). */
static void new_round(const MchRules *r, MchState *s) {
    s->round++;
    for (int slot = 0; slot < 4; slot++) {
        if (s->display[slot]) {
            s->nav_discard[s->nav_discard_n++] = s->display[slot];
            s->display[slot] = 0;
        }
    }
    for (int slot = 0; slot < r->nb; slot++) s->display[slot] = (int8_t)draw_nav(s);
    memset(s->picks, 0, sizeof s->picks);
    memset(s->shown_picks, 0, sizeof s->shown_picks);
    memset(s->acted, 0, sizeof s->acted);
    s->revealed = 0;
    s->order_n = 0;
    s->turn_index = 0;
    s->active_boat = -1;
    int boats = mch_boats_count(r);
    for (int seat = 0; seat < r->n; seat++) {
        while (mch_popcount(s->hands[seat]) < boats) {
            int card = draw_nav(s);
            if (!card) break;
            to_hand(s, seat, card);
        }
    }
    s->select_seat = 0;
    s->select_boat = 0;
    s->step = ST_SELECT;
}

/* MCH-401 phase 3: picks revealed, boats ordered highest card first. */
static void reveal(const MchRules *r, MchState *s) {
    s->revealed = 1;
    memcpy(s->shown_picks, s->picks, sizeof s->picks);
    for (int b = 0; b < r->nb; b++)
        if (s->picks[b]) forget(s, r->n, s->picks[b]);
    s->order_n = 0;
    for (int b = 0; b < r->nb; b++) {
        if (!s->picks[b]) continue;
        int i = s->order_n++;
        while (i > 0 && s->picks[s->order[i - 1]] < s->picks[b]) {
            s->order[i] = s->order[i - 1];
            i--;
        }
        s->order[i] = (int8_t)b;
    }
    s->turn_index = 0;
    s->step = ST_NEXT_TURN;
}

/* ---- step A: placing the card (5.2) ------------------------------------------------------------------------------ */

static void start(MchState *s, int boat, int card) {
    s->picks[boat] = 0;
    s->expeditions[boat][0] = (int8_t)card;
    s->expedition_n[boat] = 1;
    s->positions[boat][0] = 1;
    s->positions[boat][1] = 1;
    s->history[boat][0][0] = 0;
    s->history[boat][0][1] = 0;
}

static void place(MchState *s) {
    int boat = s->active_boat, card = s->picks[boat];
    s->pending_card = (int8_t)card;
    if (!s->expedition_n[boat]) { /* MCH-504 */
        start(s, boat, card);
        s->step = ST_NIGHT;
    } else if (s->positions[boat][0] == MCH_LAST_COLUMN || card < mch_last_card(s, boat)) { /* MCH-505 */
        s->end_gains = 0;
        s->step = ST_END_MISSION;
    } else { /* MCH-506 */
        s->move_return = 1;
        s->step = ST_MOVE;
    }
}

/* MCH-506..509: add pending_card as a Continue; lines, Hong Kong. */
static void move(const MchRules *r, MchState *s, int use_weather) {
    int boat = s->active_boat, seat = mch_active_seat(r, s), card = s->pending_card;
    int c = s->positions[boat][0], row = s->positions[boat][1], n = s->expedition_n[boat];
    s->history[boat][n][0] = (int8_t)c;
    s->history[boat][n][1] = (int8_t)row;
    int down = use_weather || MCH_COLOUR[card] != MCH_COLOUR[s->expeditions[boat][n - 1]];
    s->expeditions[boat][n] = (int8_t)card;
    s->expedition_n[boat] = (int8_t)(n + 1);
    s->picks[boat] = 0;
    if (down && row < MCH_LAST_ROW) row++;
    c++;
    s->positions[boat][0] = (int8_t)c;
    s->positions[boat][1] = (int8_t)row;
    s->step = ST_NIGHT; /* move_return: always "night" when a card moves (load checks it) */
    int draws = c == 5 ? 1 : c == 7 ? 2 : 0; /* MCH-508 */
    for (int i = 0; i < draws; i++) draw_enc(r, s, seat);
    if (s->hk_owner == -1 && (c == 7 || c == 8) && row == 7) s->hk_owner = (int8_t)seat; /* MCH-509 */
}

/* ---- ending an expedition (5.3) ------------------------------------------------------------------------------------- */

/* MCH-512: board tiles with the highest number <= v, ascending, into out; their count. */
static int mission_candidates(const MchState *s, int *out) {
    int boat = s->active_boat, v = s->positions[boat][0] * s->positions[boat][1], best = 0, k = 0;
    for (uint32_t b = s->board; b; b &= b - 1) {
        int number = MCH_MISSION_NUMBER[__builtin_ctz(b)];
        if (number <= v && number > best) best = number;
    }
    if (!best) return 0;
    for (uint32_t b = s->board; b; b &= b - 1) {
        int t = __builtin_ctz(b);
        if (MCH_MISSION_NUMBER[t] == best) out[k++] = t;
    }
    return k;
}

static void take_mission(const MchRules *r, MchState *s, int tile) {
    int seat = mch_active_seat(r, s);
    s->board &= ~(1u << tile);
    s->taken_tiles[seat][s->taken_n[seat]++] = (int8_t)tile;
    s->end_gains++;
    const int8_t *reward = MCH_MISSION_REWARD[tile];
    for (int token = 0; token < 4; token++)
        if (reward[token]) pay(s, seat, token, reward[token]);
    for (int i = 0; i < reward[4]; i++) draw_enc(r, s, seat);
    if (!s->board) s->end_triggered = 1; /* MCH-513 */
}

static void icon_pool(const MchState *s, int boat, int8_t *pool) {
    memset(pool, 0, 4);
    for (int i = 0; i < s->expedition_n[boat]; i++) {
        int icon = MCH_ICON[s->expeditions[boat][i]];
        if (icon >= 0) pool[icon]++;
    }
}

/* MCH-514: skill kinds claimable from the remaining icon pool, into out; their count. */
static int possible_claims(const MchState *s, int *out) {
    const int8_t *pool = s->claim_pool;
    int k = 0;
    for (int kind = 0; kind < 4; kind++)
        if (pool[kind] >= 3 && s->stacks[kind] > 0) out[k++] = kind;
    if (s->stacks[ELITE] > 0 && pool[0] >= 1 && pool[1] >= 1 && pool[2] >= 1 && pool[3] >= 1) out[k++] = ELITE;
    return k;
}

static void claim(const MchRules *r, MchState *s, int kind) {
    int seat = mch_active_seat(r, s);
    if (kind == ELITE) {
        for (int k = 0; k < 4; k++) s->claim_pool[k]--;
    } else {
        s->claim_pool[kind] -= 3;
    }
    s->stacks[kind]--;
    s->skills[seat][kind]++;
    s->end_gains++;
    check_pearl(r, s, seat); /* MCH-515 */
}

/* MCH-517: the old expedition's cards are discarded and the new one starts. */
static void finish_expedition(MchState *s) {
    int boat = s->active_boat;
    memcpy(s->nav_discard + s->nav_discard_n, s->expeditions[boat], (size_t)s->expedition_n[boat]);
    s->nav_discard_n += s->expedition_n[boat];
    start(s, boat, s->pending_card);
    s->step = ST_NIGHT;
}

/* MCH-527: the hand cards Night Sailing may add now (a bit set). */
static uint64_t night_sail_cards(const MchRules *r, const MchState *s) {
    int boat = s->active_boat, seat = mch_active_seat(r, s);
    if (!s->expedition_n[boat] || s->positions[boat][0] >= MCH_LAST_COLUMN || !has_skill(s, seat, NIGHT_SAILING))
        return 0;
    int last = mch_last_card(s, boat);
    return s->hands[seat] & (~0ULL << (last + 1));
}

/* ---- legal actions (MCH-1004) ------------------------------------------------------------------------------------- */

static int gems(const MchState *s, int q) { return s->tokens[q][1] + s->tokens[q][2] + s->tokens[q][3]; }
static int enc_held(const MchState *s, int q) {
    int total = 0;
    for (int k = 0; k < MCH_ENC_KINDS; k++) total += s->enc_hands[q][k];
    return total;
}

/* MCH-523 / 6.2: whether ``seat`` may play an encounter card of ``kind`` now. */
static int playable(const MchRules *r, const MchState *s, int seat, int kind) {
    if (!s->enc_hands[seat][kind]) return 0;
    switch (kind) {
    case THIEF:
        for (int q = 0; q < r->n; q++)
            if (mch_is_opponent(r, seat, q) && gems(s, q)) return 1;
        return 0;
    case SPY:
        for (int q = 0; q < r->n; q++)
            if (mch_is_opponent(r, seat, q) && enc_held(s, q)) return 1;
        return 0;
    case NEGOTIATOR: return s->supply[GOLD] > 0;
    case SALVAGER: return s->nav_discard_n > 0;
    case ORACLE: return s->nav_deck_n > 0 || s->nav_discard_n > 0;
    case SIREN: {
        int codes[4], boats[4], k = target_boats(r, seat, codes, boats);
        for (int i = 0; i < k; i++)
            if (s->expedition_n[boats[i]] >= 2) return 1;
        return 0;
    }
    default: /* MADAME_CHING */
        return s->stacks[0] || s->stacks[1] || s->stacks[2] || s->stacks[3];
    }
}

/* A bit per byte of enc_hands[seat][2..9] that is not zero (bit 8*i+7: kind 2+i), kind 2 left out: the kinds
 * THIEF..MADAME_CHING seat holds, ascending through the set bits (counts are 0..5, so no byte carries). */
static inline uint64_t held_action_kinds(const MchState *s, int seat) {
    uint64_t held;
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    held = 0;
    for (int i = 0; i < 8; i++) held |= (uint64_t)(uint8_t)s->enc_hands[seat][MCH_ENC_KINDS - 8 + i] << (8 * i);
#else
    memcpy(&held, &s->enc_hands[seat][MCH_ENC_KINDS - 8], 8); /* little-endian: byte i is kind 2+i */
#endif
    return ((held + 0x7F7F7F7F7F7F7F7FULL) & 0x8080808080808080ULL) & ~(uint64_t)0xFF;
}
#define HELD_KIND(bits) (MCH_ENC_KINDS - 8 + (mch_ctz(bits) >> 3))

static int can_combat(const MchRules *r, const MchState *s, int seat) {
    if (!has_skill(s, seat, COMBAT)) return 0;
    for (int q = 0; q < r->n; q++)
        if (mch_is_opponent(r, seat, q) && s->hands[q]) return 1;
    return 0;
}

static int cards_out(uint64_t cards, int32_t *out, int k) {
    for (; cards; cards &= cards - 1) out[k++] = mch_ctz(cards) - 1;
    return k;
}

/* The targets (action codes, ascending offsets) among the opponents of seat that ``ok`` accepts. */
#define TARGETS(COND)                                                                                         \
    do {                                                                                                      \
        for (int o = 1; o < r->n; o++) {                                                                      \
            int q = (seat + o) % r->n;                                                                        \
            if (mch_is_opponent(r, seat, q) && (COND)) out[k++] = A_TARGET + o;                               \
        }                                                                                                     \
    } while (0)

static int legal(const MchRules *r, const MchState *s, int32_t *out) {
    int phase = s->phase, k = 0;
    if (phase == PH_SELECT) return cards_out(s->hands[s->select_seat], out, 0);
    int seat = mch_active_seat(r, s);
    switch (phase) {
    case PH_ACTION:
        if (!s->enc_played)
            for (uint64_t held = held_action_kinds(s, seat); held; held &= held - 1) {
                int kind = HELD_KIND(held);
                if (playable(r, s, seat, kind)) out[k++] = A_PLAY_ENC + kind;
            }
        if (can_combat(r, s, seat)) out[k++] = A_USE_COMBAT;
        out[k++] = A_PASS;
        return k;
    case PH_TAKE:
        for (int slot = 0; slot < 4; slot++)
            if (s->display[slot]) out[k++] = A_SLOT + slot;
        return k;
    case PH_ENC_GIFT:
        out[0] = A_GIVE_TO_PARTNER;
        out[1] = A_PASS;
        return 2;
    case PH_WEATHER:
        out[0] = A_USE_WEATHER;
        out[1] = A_PASS;
        return 2;
    case PH_NIGHT_SAIL:
        k = cards_out(night_sail_cards(r, s), out, 0);
        out[k++] = A_PASS;
        return k;
    case PH_MISSION_CHOOSE: {
        int tiles[MCH_MISSIONS], m = mission_candidates(s, tiles);
        for (int i = 0; i < m; i++) out[i] = A_MISSION + tiles[i];
        return m;
    }
    case PH_SKILL_CLAIM: {
        int kinds[5], m = possible_claims(s, kinds);
        for (int i = 0; i < m; i++) out[i] = A_SKILL + kinds[i];
        return m;
    }
    case PH_CARTO:
        out[0] = A_USE_CARTOGRAPHY;
        out[1] = A_PASS;
        return 2;
    case PH_COMBAT_GIVE:
    case PH_TEAM_RETURN:
        return cards_out(s->hands[seat], out, 0);
    case PH_TEAM_GIVE: /* MCH-552: the giver keeps at least 1 card */
        if (mch_popcount(s->hands[seat]) >= 2) k = cards_out(s->hands[seat], out, 0);
        out[k++] = A_PASS;
        return k;
    case PH_THIEF_TARGET:
        TARGETS(gems(s, q) > 0);
        return k;
    case PH_THIEF_GEM:
        for (int t = 1; t <= 3; t++)
            if (s->tokens[s->pending_target][t]) out[k++] = A_GEM + t;
        return k;
    case PH_SPY_TARGET:
        TARGETS(enc_held(s, q) > 0);
        return k;
    case PH_COMBAT_TARGET:
        TARGETS(s->hands[q] != 0);
        return k;
    case PH_SIREN_TARGET: {
        int codes[4], boats[4], m = target_boats(r, seat, codes, boats);
        for (int i = 0; i < m; i++)
            if (s->expedition_n[boats[i]] >= 2) out[k++] = A_TARGET + codes[i];
        return k;
    }
    case PH_SALVAGE_CHOOSE: {
        uint64_t cards = 0;
        for (int i = 0; i < s->nav_discard_n; i++) cards |= BIT(s->nav_discard[i]);
        return cards_out(cards, out, 0);
    }
    case PH_MC_SKILL:
        for (int kind = 0; kind < 4; kind++)
            if (s->stacks[kind]) out[k++] = A_SKILL + kind;
        return k;
    default:
        return 0;
    }
}
#undef TARGETS

/* ---- applying decisions --------------------------------------------------------------------------------------------- */

static void end_round(const MchRules *r, MchState *s);

/* Run automatic steps up to the next decision (or the end); sets phase. */
static void advance(const MchRules *r, MchState *s) {
    for (;;) {
        if (s->gift_n) {
            s->phase = PH_ENC_GIFT;
            return;
        }
        switch (s->step) {
        case ST_SELECT:
            while (s->select_seat < r->n) {
                int seat = s->select_seat;
                if (s->select_boat < mch_boats_count(r) && s->hands[seat]) {
                    s->phase = PH_SELECT;
                    return;
                }
                s->select_seat++;
                s->select_boat = 0;
            }
            reveal(r, s);
            break;
        case ST_NEXT_TURN:
            if (s->turn_index >= s->order_n) {
                end_round(r, s);
                if (s->over) return;
                break;
            }
            s->active_boat = s->order[s->turn_index];
            s->enc_played = 0;
            s->last_action[mch_active_seat(r, s)][0] = 0;
            s->last_action[mch_active_seat(r, s)][1] = 0;
            s->step = ST_PLACE;
            break;
        case ST_PLACE:
            place(s);
            break;
        case ST_MOVE: {
            int boat = s->active_boat;
            int right_move = MCH_COLOUR[s->pending_card] == MCH_COLOUR[mch_last_card(s, boat)];
            if (right_move && s->positions[boat][1] < MCH_LAST_ROW && has_skill(s, mch_active_seat(r, s), WEATHER)) {
                s->phase = PH_WEATHER; /* MCH-529 */
                return;
            }
            move(r, s, 0);
            break;
        }
        case ST_END_MISSION: {
            int tiles[MCH_MISSIONS], m = mission_candidates(s, tiles);
            if (m > 1) {
                s->phase = PH_MISSION_CHOOSE;
                return;
            }
            icon_pool(s, s->active_boat, s->claim_pool);
            s->step = ST_END_SKILLS;
            if (m) take_mission(r, s, tiles[0]);
            break;
        }
        case ST_END_SKILLS: {
            int kinds[5];
            if (possible_claims(s, kinds)) {
                s->phase = PH_SKILL_CLAIM;
                return;
            }
            s->step = ST_END_FINISH;
            if (!s->end_gains) draw_enc(r, s, mch_active_seat(r, s)); /* MCH-516 */
            break;
        }
        case ST_END_FINISH:
            finish_expedition(s);
            break;
        case ST_NIGHT:
            if (night_sail_cards(r, s)) {
                s->phase = PH_NIGHT_SAIL;
                return;
            }
            s->step = ST_ACTION;
            break;
        case ST_ACTION: s->phase = PH_ACTION; return;
        case ST_THIEF_TARGET: s->phase = PH_THIEF_TARGET; return;
        case ST_THIEF_GEM: s->phase = PH_THIEF_GEM; return;
        case ST_SPY_TARGET: s->phase = PH_SPY_TARGET; return;
        case ST_SALVAGE: s->phase = PH_SALVAGE_CHOOSE; return;
        case ST_SIREN_TARGET: s->phase = PH_SIREN_TARGET; return;
        case ST_MC_SKILL: s->phase = PH_MC_SKILL; return;
        case ST_COMBAT_TARGET: s->phase = PH_COMBAT_TARGET; return;
        case ST_COMBAT_GIVE: s->phase = PH_COMBAT_GIVE; return;
        case ST_TAKE:
            if (s->display[0] || s->display[1] || s->display[2] || s->display[3]) {
                s->phase = PH_TAKE;
                return;
            }
            s->step = ST_CARTO;
            break;
        case ST_CARTO:
            if (has_skill(s, mch_active_seat(r, s), CARTOGRAPHY) && (s->nav_deck_n || s->nav_discard_n)) {
                s->phase = PH_CARTO;
                return;
            }
            s->step = ST_TEAM_RETURN;
            break;
        case ST_TEAM_RETURN: {
            int seat = mch_active_seat(r, s);
            if (r->team && s->owes[seat] > 0) {
                if (s->hands[seat]) {
                    s->phase = PH_TEAM_RETURN;
                    return;
                }
                s->owes[seat] = 0; /* MCH-551: an empty hand clears the debt */
            }
            s->step = ST_TEAM_GIVE;
            s->give_open = r->team && s->owes[seat] == 0 && s->owes[mch_partner(seat)] == 0;
            break;
        }
        case ST_TEAM_GIVE:
            if (s->give_open) { /* MCH-1004: PASS is always legal */
                s->phase = PH_TEAM_GIVE;
                return;
            }
            s->give_open = 0;
            s->acted[s->active_boat] = 1;
            s->turn_index++;
            s->step = ST_NEXT_TURN;
            break;
        case ST_NEW_ROUND:
            new_round(r, s);
            break;
        default: /* ST_OVER: never advanced (load refuses any other step value) */
            return;
        }
    }
}

static void decide(const MchRules *r, MchState *s, int action);

/* The one legal action of a forced decision, else -1: legal() with early exits for the common phases. */
static int forced_action(const MchRules *r, const MchState *s) {
    switch (s->phase) {
    case PH_SELECT: {
        uint64_t hand = s->hands[s->select_seat];
        return hand && !(hand & (hand - 1)) ? mch_ctz(hand) - 1 : -1;
    }
    case PH_ACTION: { /* PASS, alone unless a card or Combat can be played */
        int seat = mch_active_seat(r, s);
        if (!s->enc_played)
            for (uint64_t held = held_action_kinds(s, seat); held; held &= held - 1)
                if (playable(r, s, seat, HELD_KIND(held))) return -1;
        return can_combat(r, s, seat) ? -1 : A_PASS;
    }
    case PH_TAKE: { /* TAKE is asked only with a card on display: the slot when it is the only one */
        unsigned full = (unsigned)(s->display[0] != 0) | (unsigned)(s->display[1] != 0) << 1 |
                        (unsigned)(s->display[2] != 0) << 2 | (unsigned)(s->display[3] != 0) << 3;
        return full & (full - 1) ? -1 : A_SLOT + __builtin_ctz(full);
    }
    case PH_ENC_GIFT:
    case PH_WEATHER:
    case PH_CARTO:
        return -1; /* always two choices */
    default: {
        int32_t buf[MCH_NUM_ACTIONS];
        return legal(r, s, buf) == 1 ? buf[0] : -1;
    }
    }
}

/* Advance; apply forced single-choice decisions automatically (MCH-402). */
static void run(const MchRules *r, MchState *s) {
    for (;;) {
        advance(r, s);
        if (s->over) return;
        if (!r->auto_resolve) return;
        int action = forced_action(r, s);
        if (action < 0) return;
        decide(r, s, action);
    }
}

/* MCH-522: play one encounter card, use Combat, or pass. */
static void decide_action(MchState *s, int seat, int action) {
    if (action == A_PASS) {
        s->step = ST_TAKE;
        return;
    }
    if (action == A_USE_COMBAT) {
        spend_skill(s, seat, COMBAT);
        s->last_action[seat][0] = HISTORY_COMBAT;
        s->last_action[seat][1] = 0;
        s->step = ST_COMBAT_TARGET;
        return;
    }
    int kind = action - A_PLAY_ENC;
    s->enc_hands[seat][kind]--;
    s->enc_discard[s->enc_discard_n++] = (int8_t)kind;
    s->enc_played = 1;
    s->pending_enc = (int8_t)kind;
    s->last_action[seat][0] = (int8_t)(kind - THIEF + 1);
    s->last_action[seat][1] = 0;
    switch (kind) {
    case THIEF: s->step = ST_THIEF_TARGET; break;
    case SPY: s->step = ST_SPY_TARGET; break;
    case NEGOTIATOR: /* MCH-613 */
        pay(s, seat, GOLD, 2);
        s->pending_enc = -1;
        break;
    case SALVAGER: s->step = ST_SALVAGE; break;
    case ORACLE: /* MCH-615 */
        draw_nav_to_hand(s, seat);
        s->pending_enc = -1;
        break;
    case SIREN: s->step = ST_SIREN_TARGET; break;
    default: s->step = ST_MC_SKILL; break;
    }
}

/* Targets and choices of encounter cards and Combat (6.1, 6.2). */
static void decide_effect(const MchRules *r, MchState *s, int seat, int action) {
    int n = r->n, phase = s->phase;
    s->step = ST_ACTION;
    switch (phase) {
    case PH_THIEF_TARGET:
        s->pending_target = (int8_t)((seat + action - A_TARGET) % n);
        s->last_action[seat][1] = (int8_t)(action - A_TARGET);
        s->step = ST_THIEF_GEM;
        return;
    case PH_THIEF_GEM: { /* MCH-611 */
        int token = action - A_GEM;
        s->tokens[s->pending_target][token]--;
        s->tokens[seat][token]++;
        break;
    }
    case PH_SPY_TARGET: { /* MCH-612 */
        int victim = (seat + action - A_TARGET) % n;
        s->last_action[seat][1] = (int8_t)(action - A_TARGET);
        int8_t *held = s->enc_hands[victim];
        int pick = (int)sm_randrange(&s->h.rng, (uint64_t)enc_held(s, victim)), kind = 0;
        while (pick >= held[kind]) {
            pick -= held[kind];
            kind++;
        }
        held[kind]--;
        gain_enc(r, s, seat, kind);
        break;
    }
    case PH_SALVAGE_CHOOSE: { /* MCH-614 */
        int card = action + 1;
        remove_item(s->nav_discard, &s->nav_discard_n, card);
        to_hand(s, seat, card);
        for (int q = 0; q < n; q++)
            if (q != seat) learn(s, q, seat, card);
        break;
    }
    case PH_SIREN_TARGET: { /* MCH-616 */
        int offset = action - A_TARGET, codes[4], boats[4], m = target_boats(r, seat, codes, boats), boat = -1;
        for (int i = 0; i < m; i++)
            if (codes[i] == offset) boat = boats[i];
        s->last_action[seat][1] = (int8_t)(r->n == 2 ? 1 : offset);
        int last = --s->expedition_n[boat];
        s->nav_discard[s->nav_discard_n++] = s->expeditions[boat][last];
        s->positions[boat][0] = s->history[boat][last][0];
        s->positions[boat][1] = s->history[boat][last][1];
        break;
    }
    case PH_MC_SKILL: { /* MCH-617 */
        int kind = action - A_SKILL;
        s->stacks[kind]--;
        s->skills[seat][kind]++;
        check_pearl(r, s, seat);
        break;
    }
    case PH_COMBAT_TARGET: { /* MCH-604 */
        int victim = (seat + action - A_TARGET) % n;
        s->pending_target = (int8_t)victim;
        s->last_action[seat][1] = (int8_t)(action - A_TARGET);
        uint64_t hand = s->hands[victim];
        int card = nth_card(hand, (int)sm_randrange(&s->h.rng, (uint64_t)mch_popcount(hand)));
        s->hands[victim] &= ~BIT(card);
        to_hand(s, seat, card);
        learn(s, victim, seat, card);
        s->combat_card = (int8_t)card;
        s->step = ST_COMBAT_GIVE;
        return;
    }
    case PH_COMBAT_GIVE:
        give_nav(s, seat, s->pending_target, action + 1);
        s->combat_card = 0;
        break;
    default:
        break;
    }
    s->pending_enc = -1;
    s->pending_target = -1;
}

static void decide(const MchRules *r, MchState *s, int action) {
    int phase = s->phase;
    if (phase == PH_SELECT) {
        int seat = s->select_seat, card = action + 1;
        s->hands[seat] &= ~BIT(card);
        s->picks[mch_boat_of(r, seat, s->select_boat)] = (int8_t)card;
        s->select_boat++;
        return;
    }
    int seat = mch_active_seat(r, s), n = r->n;
    switch (phase) {
    case PH_ENC_GIFT: {
        int kind = s->gift_queue[0];
        memmove(s->gift_queue, s->gift_queue + 1, (size_t)(s->gift_n - 1));
        s->gift_n--;
        if (action == A_GIVE_TO_PARTNER) {
            s->enc_hands[seat][kind]--;
            s->enc_hands[mch_partner(seat)][kind]++; /* MCH-553: not offered again */
        }
        break;
    }
    case PH_WEATHER: {
        int use = action == A_USE_WEATHER;
        if (use) spend_skill(s, seat, WEATHER);
        move(r, s, use);
        break;
    }
    case PH_NIGHT_SAIL:
        if (action == A_PASS) {
            s->step = ST_ACTION;
        } else {
            int card = action + 1;
            spend_skill(s, seat, NIGHT_SAILING);
            s->hands[seat] &= ~BIT(card);
            forget(s, n, card);
            s->picks[s->active_boat] = (int8_t)card; /* in transit to the expedition */
            s->pending_card = (int8_t)card;
            s->move_return = 1;
            s->step = ST_MOVE;
        }
        break;
    case PH_MISSION_CHOOSE:
        icon_pool(s, s->active_boat, s->claim_pool);
        s->step = ST_END_SKILLS;
        take_mission(r, s, action - A_MISSION);
        break;
    case PH_SKILL_CLAIM:
        claim(r, s, action - A_SKILL);
        break;
    case PH_ACTION:
        decide_action(s, seat, action);
        break;
    case PH_TAKE: {
        int slot = action - A_SLOT, card = s->display[slot];
        s->display[slot] = 0;
        to_hand(s, seat, card);
        if (slot) /* MCH-917: a face-up take is public */
            for (int q = 0; q < n; q++)
                if (q != seat) learn(s, q, seat, card);
        s->step = ST_CARTO;
        break;
    }
    case PH_CARTO:
        if (action == A_PASS) {
            s->step = ST_TEAM_RETURN;
        } else {
            spend_skill(s, seat, CARTOGRAPHY);
            draw_nav_to_hand(s, seat);
        }
        break;
    case PH_TEAM_RETURN:
        give_nav(s, seat, mch_partner(seat), action + 1);
        s->owes[seat]--;
        if (!s->hands[seat]) s->owes[seat] = 0;
        break;
    case PH_TEAM_GIVE:
        if (action == A_PASS) {
            s->give_open = 0;
        } else {
            int partner = mch_partner(seat);
            give_nav(s, seat, partner, action + 1);
            s->owes[partner]++; /* MCH-552 */
        }
        break;
    default:
        decide_effect(r, s, seat, action);
        break;
    }
}

/* ---- end of round and game (Section 7) ------------------------------------------------------------------------------ */

static void end_round(const MchRules *r, MchState *s) {
    s->active_boat = -1;
    if (s->end_triggered || s->round >= r->round_limit) { /* MCH-701/702 */
        /* MCH-703: 1 gold per distinct icon kind of each unfinished expedition, seats in order, boat A first */
        for (int seat = 0; seat < r->n; seat++) {
            for (int i = 0; i < mch_boats_count(r); i++) {
                int boat = mch_boat_of(r, seat, i), kinds = 0;
                for (int j = 0; j < s->expedition_n[boat]; j++) {
                    int icon = MCH_ICON[s->expeditions[boat][j]];
                    if (icon >= 0) kinds |= 1 << icon;
                }
                if (kinds) pay(s, seat, GOLD, __builtin_popcount((unsigned)kinds));
            }
        }
        s->over = 1;
        s->phase = -1;
        s->step = ST_OVER;
        return;
    }
    s->step = ST_NEW_ROUND;
}

/* MCH-704 */
static int seat_score(const MchState *s, int seat) {
    const int8_t *t = s->tokens[seat], *k = s->skills[seat];
    int score = 0;
    for (int i = 0; i < 4; i++) score += t[i] * MCH_TOKEN_VP[i];
    for (int i = 0; i < 5; i++) score += (k[i] + k[5 + i]) * MCH_SKILL_VP[i];
    for (int i = 0; i < 3; i++) score += s->enc_hands[seat][i] * MCH_TREASURE_VP[i];
    score += MCH_PEARL_VP * (s->pearl_owner == seat) + MCH_HONG_KONG_VP * (s->hk_owner == seat);
    return score;
}

/* MCH-705/706: (score, white, red, blue) per side (the team in team mode, else the seat); the side count. */
static int side_keys(const MchRules *r, const MchState *s, int keys[4][4]) {
    int sides = r->team ? 2 : r->n;
    memset(keys, 0, sizeof(int[4][4]));
    for (int seat = 0; seat < r->n; seat++) {
        int *k = keys[r->team ? seat % 2 : seat];
        k[0] += seat_score(s, seat);
        k[1] += s->tokens[seat][WHITE];
        k[2] += s->tokens[seat][RED];
        k[3] += s->tokens[seat][BLUE];
    }
    return sides;
}

static int key_cmp(const int *a, const int *b) {
    for (int i = 0; i < 4; i++)
        if (a[i] != b[i]) return a[i] < b[i] ? -1 : 1;
    return 0;
}

/* ---- the NativeEngine functions ------------------------------------------------------------------------------------- */

/* Python's _setup_game. */
void mch_init(const NeConfig *cfg, void *vst) {
    MchState *s = vst;
    MchRules r = mch_rules(cfg);
    SplitMix *rng = &s->h.rng;
    s->enc_deck_n = 0; /* MCH-301 */
    for (int kind = 0; kind < MCH_ENC_KINDS; kind++)
        for (int i = 0; i < MCH_ENC_COUNTS[kind]; i++) s->enc_deck[s->enc_deck_n++] = (int8_t)kind;
    sm_shuffle_i8(rng, s->enc_deck, s->enc_deck_n);
    s->enc_discard_n = 0;
    for (int k = 0; k < 5; k++) s->stacks[k] = MCH_SKILL_STACK; /* MCH-302 */
    int8_t tiles[MCH_MISSIONS]; /* MCH-303 */
    for (int t = 0; t < MCH_MISSIONS; t++) tiles[t] = (int8_t)t;
    sm_shuffle_i8(rng, tiles, MCH_MISSIONS);
    int free_slots[33] = {0}, placed = 0;
    for (int number = 0; number < 33; number++) free_slots[number] = mch_slot_capacity(number);
    s->board = s->set_aside = 0;
    for (int i = 0; i < MCH_MISSIONS; i++) {
        if (placed == r.mission_count) break;
        int tile = tiles[i], number = MCH_MISSION_NUMBER[tile];
        if (free_slots[number] > 0) {
            free_slots[number]--;
            s->board |= 1u << tile;
            placed++;
        } else {
            s->set_aside |= 1u << tile;
        }
    }
    for (int c = 0; c < MCH_CARDS; c++) s->nav_deck[c] = (int8_t)(c + 1); /* MCH-304 */
    s->nav_deck_n = MCH_CARDS;
    sm_shuffle_i8(rng, s->nav_deck, MCH_CARDS);
    s->nav_discard_n = 0;
    for (int seat = 0; seat < r.n; seat++) {
        s->hands[seat] = 0;
        for (int i = 0; i < r.hand_size; i++) s->hands[seat] |= BIT(s->nav_deck[--s->nav_deck_n]);
    }
    memset(s->enc_hands, 0, sizeof s->enc_hands);
    memset(s->picks, 0, sizeof s->picks);
    memset(s->shown_picks, 0, sizeof s->shown_picks);
    s->revealed = 0;
    s->order_n = 0;
    s->turn_index = 0;
    memset(s->acted, 0, sizeof s->acted);
    memset(s->expedition_n, 0, sizeof s->expedition_n); /* MCH-305 */
    memset(s->positions, 0, sizeof s->positions);
    memset(s->display, 0, sizeof s->display);
    memset(s->taken_n, 0, sizeof s->taken_n);
    memset(s->tokens, 0, sizeof s->tokens); /* MCH-306 */
    for (int t = 0; t < 4; t++) s->supply[t] = MCH_TOKEN_SUPPLY[t];
    memset(s->skills, 0, sizeof s->skills);
    s->pearl_owner = -1;
    s->hk_owner = -1;
    memset(s->known_n, 0, sizeof s->known_n);
    memset(s->known_any, 0, sizeof s->known_any);
    memset(s->known_set, 0, sizeof s->known_set);
    s->round = 0;
    s->end_triggered = 0;
    s->over = 0;
    s->phase = PH_SELECT;
    s->step = ST_NEW_ROUND;
    s->select_seat = 0;
    s->select_boat = 0;
    s->active_boat = -1;
    s->pending_card = 0;
    s->move_return = 0;
    s->end_gains = 0;
    memset(s->claim_pool, 0, sizeof s->claim_pool);
    s->gift_n = 0;
    s->enc_played = 0;
    s->pending_enc = -1;
    s->pending_target = -1;
    s->combat_card = 0;
    memset(s->owes, 0, sizeof s->owes);
    s->give_open = 0;
    memset(s->last_action, 0, sizeof s->last_action);
    run(&r, s);
}

int mch_is_terminal(const NeConfig *cfg, const void *st) {
    (void)cfg;
    return ((const MchState *)st)->over;
}

int mch_current_player(const NeConfig *cfg, const void *st) {
    const MchState *s = st;
    if (s->phase == PH_SELECT) return s->select_seat;
    MchRules r = mch_rules(cfg);
    return mch_active_seat(&r, s);
}

int mch_legal_actions(const NeConfig *cfg, const void *st, int32_t *out) {
    MchRules r = mch_rules(cfg);
    return legal(&r, st, out);
}

void mch_apply(const NeConfig *cfg, void *st, int action) {
    MchRules r = mch_rules(cfg);
    decide(&r, st, action);
    run(&r, st);
}

void mch_scores(const NeConfig *cfg, const void *st, double *out) {
    for (int seat = 0; seat < cfg->num_players; seat++) out[seat] = (double)seat_score(st, seat);
}

int mch_winners(const NeConfig *cfg, const void *st, int32_t *out) {
    MchRules r = mch_rules(cfg);
    int keys[4][4], sides = side_keys(&r, st, keys), best = 0, k = 0;
    for (int side = 1; side < sides; side++)
        if (key_cmp(keys[side], keys[best]) > 0) best = side;
    for (int seat = 0; seat < r.n; seat++)
        if (key_cmp(keys[r.team ? seat % 2 : seat], keys[best]) == 0) out[k++] = seat;
    return k;
}

void mch_returns(const NeConfig *cfg, const void *st, double *out) {
    MchRules r = mch_rules(cfg);
    if (!r.score_mode) {
        int32_t winners[4];
        int w = mch_winners(cfg, st, winners);
        for (int seat = 0; seat < r.n; seat++) {
            out[seat] = -1.0;
            for (int i = 0; i < w; i++)
                if (winners[i] == seat) out[seat] = 1.0;
        }
        return;
    }
    int keys[4][4], sides = side_keys(&r, st, keys);
    for (int seat = 0; seat < r.n; seat++) {
        int side = r.team ? seat % 2 : seat, best_other = 0, any = 0;
        for (int other = 0; other < sides; other++) {
            if (other == side) continue;
            if (!any || keys[other][0] > best_other) best_other = keys[other][0];
            any = 1;
        }
        double margin = ((double)keys[side][0] - (double)best_other) / 50.0; /* MCH-1007: clipped_margin */
        out[seat] = margin > 1.0 ? 1.0 : margin < -1.0 ? -1.0 : margin;
    }
}

/* ---- determinisation (Section 9): Python's _resample_hidden ---------------------------------------------------------- */

void mch_resample_hidden(const NeConfig *cfg, void *vst, int seat, SplitMix *source) {
    MchState *s = vst;
    MchRules r = mch_rules(cfg);
    int n = r.n;
    int hidden[4], hidden_n = 0;
    if (!s->revealed)
        for (int b = 0; b < r.nb; b++)
            if (s->picks[b] && mch_boat_owner(&r, b) != seat) hidden[hidden_n++] = b;
    uint64_t pool_set = 0;
    for (int i = 0; i < s->nav_deck_n; i++) pool_set |= BIT(s->nav_deck[i]);
    for (int q = 0; q < n; q++)
        if (q != seat) pool_set |= s->hands[q];
    for (int i = 0; i < hidden_n; i++) pool_set |= BIT(s->picks[hidden[i]]);
    if (s->display[0]) pool_set |= BIT(s->display[0]);
    uint64_t kept[4] = {0};
    for (int q = 0; q < n; q++) {
        if (q == seat) continue;
        uint64_t known = s->known_set[seat][q] & pool_set;
        int room = mch_popcount(s->hands[q]);
        while (mch_popcount(known) > room) known &= ~BIT(63 - __builtin_clzll(known)); /* sorted(...)[:len] */
        kept[q] = known;
        pool_set &= ~known;
    }
    int8_t pool[MCH_CARDS];
    int pool_n = 0; /* sorted(pool_set) */
    for (uint64_t b = pool_set; b; b &= b - 1) pool[pool_n++] = (int8_t)mch_ctz(b);
    sm_shuffle_i8(source, pool, pool_n);
    if (s->display[0]) s->display[0] = pool[--pool_n];
    for (int i = 0; i < hidden_n; i++) s->picks[hidden[i]] = pool[--pool_n];
    for (int q = 0; q < n; q++) {
        if (q == seat) continue;
        int need = mch_popcount(s->hands[q]) - mch_popcount(kept[q]);
        uint64_t hand = kept[q];
        for (int i = 0; i < need; i++) hand |= BIT(pool[--pool_n]);
        s->hands[q] = hand;
    }
    memcpy(s->nav_deck, pool, (size_t)pool_n);
    s->nav_deck_n = (int8_t)pool_n;
    int active = s->active_boat >= 0 ? mch_active_seat(&r, s) : -1;
    if (s->combat_card && seat != active && seat != s->pending_target) {
        uint64_t hand = s->hands[active];
        s->combat_card = (int8_t)nth_card(hand, (int)sm_randrange(source, (uint64_t)mch_popcount(hand)));
    }
    /* Encounter cards: the deck and the other hands (per-player counts are public). */
    int8_t enc_pool[MCH_ENC_CARDS];
    int counts[MCH_ENC_KINDS] = {0}, enc_n = 0;
    for (int i = 0; i < s->enc_deck_n; i++) counts[s->enc_deck[i]]++;
    for (int q = 0; q < n; q++)
        if (q != seat)
            for (int k = 0; k < MCH_ENC_KINDS; k++) counts[k] += s->enc_hands[q][k];
    for (int k = 0; k < MCH_ENC_KINDS; k++)
        for (int i = 0; i < counts[k]; i++) enc_pool[enc_n++] = (int8_t)k; /* sorted */
    sm_shuffle_i8(source, enc_pool, enc_n);
    for (int q = 0; q < n; q++) {
        if (q == seat) continue;
        int total = enc_held(s, q);
        memset(s->enc_hands[q], 0, MCH_ENC_KINDS);
        for (int i = 0; i < total; i++) s->enc_hands[q][enc_pool[--enc_n]]++;
    }
    memcpy(s->enc_deck, enc_pool, (size_t)enc_n);
    s->enc_deck_n = (int8_t)enc_n;
    if (s->gift_n && active != seat) { /* the offered cards are some of the holder's cards */
        int8_t cards[MCH_ENC_CARDS];
        int m = 0;
        for (int k = 0; k < MCH_ENC_KINDS; k++)
            for (int i = 0; i < s->enc_hands[active][k]; i++) cards[m++] = (int8_t)k;
        sm_shuffle_i8(source, cards, m);
        if (m < s->gift_n) s->gift_n = (int8_t)m; /* cards[:len(gift_queue)] */
        memcpy(s->gift_queue, cards, (size_t)s->gift_n);
    }
}
