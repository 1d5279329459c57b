/* Madame Ching's state as flat int64 values (dump) and back (load, the one door for outside data), and the
 * check of a NeConfig (configure).
 *
 * The values follow MadameChingState.fields in order (native_bridge.pack / unpack): a list is its length then
 * its items, a pair list its length then the pairs, ``step`` its index in native_bridge.STEPS, ``move_return``
 * 0 ("") or 1 ("night"), booleans 0/1. load checks every value's range, the lengths, card, token and skill
 * conservation and the coherence of the step machine (the step a decision rests on, the boat whose turn it
 * is, the card in transit), so that no later call indexes out of bounds; it accepts every state that play
 * (init, apply, resample_hidden) makes.
 */
#include "games/madame_ching/native/mch.h"

const char *mch_configure(const NeConfig *cfg) {
    if (cfg->num_players < 2 || cfg->num_players > 4) return "madame_ching: num_players must be 2, 3 or 4";
    if (cfg->num_options != OPT_COUNT) return "madame_ching: wrong number of options (native_bridge.OPTIONS)";
    for (int i = 0; i < OPT_COUNT; i++) {
        int64_t v = cfg->options[i];
        if (i == OPT_ROUND_LIMIT) {
            if (v < 1 || v > MCH_MAX_ROUND_LIMIT) return "madame_ching: round_limit must be in [1, 2000000000]";
        } else if (v != 0 && v != 1) {
            return "madame_ching: a boolean option (or reward_mode's index) is not 0 or 1";
        }
    }
    int B = cfg->num_players == 2 ? 4 : cfg->num_players;
    if (cfg->num_actions != MCH_NUM_ACTIONS) return "madame_ching: num_actions is not 105";
    if (cfg->obs_size != mch_layout(cfg->num_players, B).size) return "madame_ching: obs_size disagrees (MCH-1006)";
    if (cfg->num_features != 0) return "madame_ching: the game has no action features";
    if (cfg->max_decisions < 1) return "madame_ching: max_decisions must be >= 1";
    return NULL;
}

/* ---- dump ---------------------------------------------------------------------------------------------------- */

int mch_dump(const NeConfig *cfg, const void *st, int64_t *out) {
    const MchState *s = st;
    MchRules r = mch_rules(cfg);
    int n = r.n, nb = r.nb, k = 0;
#define W(x) (out[k++] = (int64_t)(x))
#define WLIST(items, len)                                                                                     \
    do {                                                                                                      \
        W(len);                                                                                               \
        for (int i_ = 0; i_ < (len); i_++) W((items)[i_]);                                                    \
    } while (0)
#define WBITS(bits, shift)                                                                                    \
    do {                                                                                                      \
        W(__builtin_popcountll(bits));                                                                        \
        for (uint64_t b_ = (bits); b_; b_ &= b_ - 1) W(__builtin_ctzll(b_) - (shift));                        \
    } while (0)
    W(s->round);
    W(s->end_triggered);
    W(s->over);
    WLIST(s->nav_deck, s->nav_deck_n);
    WLIST(s->nav_discard, s->nav_discard_n);
    WLIST(s->enc_deck, s->enc_deck_n);
    WLIST(s->enc_discard, s->enc_discard_n);
    for (int q = 0; q < n; q++) WBITS(s->hands[q], 0);
    for (int q = 0; q < n; q++)
        for (int i = 0; i < MCH_ENC_KINDS; i++) W(s->enc_hands[q][i]);
    for (int b = 0; b < nb; b++) W(s->picks[b]);
    for (int b = 0; b < nb; b++) W(s->shown_picks[b]);
    W(s->revealed);
    WLIST(s->order, s->order_n);
    W(s->turn_index);
    for (int b = 0; b < nb; b++) W(s->acted[b]);
    for (int b = 0; b < nb; b++) WLIST(s->expeditions[b], s->expedition_n[b]);
    for (int b = 0; b < nb; b++) {
        W(s->positions[b][0]);
        W(s->positions[b][1]);
    }
    for (int b = 0; b < nb; b++) {
        W(s->expedition_n[b]);
        for (int i = 0; i < s->expedition_n[b]; i++) {
            W(s->history[b][i][0]);
            W(s->history[b][i][1]);
        }
    }
    for (int slot = 0; slot < 4; slot++) W(s->display[slot]);
    WBITS((uint64_t)s->board, 0);
    WBITS((uint64_t)s->set_aside, 0);
    for (int q = 0; q < n; q++) WLIST(s->taken_tiles[q], s->taken_n[q]);
    for (int q = 0; q < n; q++)
        for (int t = 0; t < 4; t++) W(s->tokens[q][t]);
    for (int t = 0; t < 4; t++) W(s->supply[t]);
    for (int q = 0; q < n; q++)
        for (int i = 0; i < 10; i++) W(s->skills[q][i]);
    for (int i = 0; i < 5; i++) W(s->stacks[i]);
    W(s->pearl_owner);
    W(s->hk_owner);
    for (int a = 0; a < n; a++)
        for (int q = 0; q < n; q++) WLIST(s->known[a][q], s->known_n[a][q]);
    W(s->phase);
    W(s->step);
    W(s->select_seat);
    W(s->select_boat);
    W(s->active_boat);
    W(s->pending_card);
    W(s->move_return);
    W(s->end_gains);
    for (int t = 0; t < 4; t++) W(s->claim_pool[t]);
    WLIST(s->gift_queue, s->gift_n);
    W(s->enc_played);
    W(s->pending_enc);
    W(s->pending_target);
    W(s->combat_card);
    for (int q = 0; q < n; q++) W(s->owes[q]);
    W(s->give_open);
    for (int q = 0; q < n; q++) {
        W(s->last_action[q][0]);
        W(s->last_action[q][1]);
    }
#undef W
#undef WLIST
#undef WBITS
    return k;
}

/* ---- load ---------------------------------------------------------------------------------------------------- */

typedef struct {
    const int64_t *data;
    int n, at;
    const char *why;
} Reader;

/* The next value if it lies in [lo, hi]; else records why (the first problem) and returns lo. */
static int64_t take(Reader *rd, int64_t lo, int64_t hi, const char *what) {
    if (rd->why) return lo;
    if (rd->at >= rd->n) {
        rd->why = "the dump is shorter than the state (a length or count is wrong)";
        return lo;
    }
    int64_t v = rd->data[rd->at++];
    if (v < lo || v > hi) {
        rd->why = what;
        return lo;
    }
    return v;
}

/* A list of at most cap values in [lo, hi] into items (as int8); its length. */
static int take_list(Reader *rd, int8_t *items, int cap, int lo, int hi, const char *what) {
    int len = (int)take(rd, 0, cap, what);
    for (int i = 0; i < len; i++) items[i] = (int8_t)take(rd, lo, hi, what);
    return len;
}

/* A strictly ascending list of at most cap values in [lo, hi] as a bit set. */
static uint64_t take_sorted(Reader *rd, int cap, int lo, int hi, const char *what) {
    int len = (int)take(rd, 0, cap, what);
    uint64_t bits = 0;
    int prev = lo - 1;
    for (int i = 0; i < len; i++) {
        int v = (int)take(rd, lo, hi, what);
        if (rd->why) return 0;
        if (v <= prev) {
            rd->why = what;
            return 0;
        }
        prev = v;
        bits |= BIT(v);
    }
    return bits;
}

#define FAIL(msg)                                                                                             \
    do {                                                                                                      \
        *why = (msg);                                                                                         \
        return -1;                                                                                            \
    } while (0)

/* The resting step of each phase (MadameChingState._advance; _RESTING_PHASES). */
static const int8_t RESTING_STEP[MCH_NUM_PHASES] = {
    ST_SELECT, ST_MOVE, ST_NIGHT, ST_END_MISSION, ST_END_SKILLS, -1 /* ENC_GIFT: no step of its own */, ST_ACTION,
    ST_THIEF_TARGET, ST_THIEF_GEM, ST_SPY_TARGET, ST_SALVAGE, ST_SIREN_TARGET, ST_MC_SKILL, ST_COMBAT_TARGET,
    ST_COMBAT_GIVE, ST_TAKE, ST_CARTO, ST_TEAM_RETURN, ST_TEAM_GIVE,
};

static int coherent(const NeConfig *cfg, const MchRules *r, MchState *s, const char **why);

int mch_load(const NeConfig *cfg, void *st, const int64_t *data, int count, const char **why) {
    MchState *s = st;
    MchRules r = mch_rules(cfg);
    int n = r.n, nb = r.nb;
    Reader rd = {data, count, 0, NULL};
    Reader *R = &rd;
    if (cfg->num_players != n) FAIL("num_players must be 2, 3 or 4");
    if (count < 0) FAIL("a negative value count");
    s->round = take(R, 0, r.round_limit, "round outside [0, round_limit]");
    s->end_triggered = (int8_t)take(R, 0, 1, "end_triggered is not a boolean");
    s->over = (int8_t)take(R, 0, 1, "over is not a boolean");
    s->nav_deck_n = (int8_t)take_list(R, s->nav_deck, MCH_CARDS, 1, MCH_CARDS, "nav_deck: a length or card out of range");
    s->nav_discard_n =
        (int8_t)take_list(R, s->nav_discard, MCH_CARDS, 1, MCH_CARDS, "nav_discard: a length or card out of range");
    s->enc_deck_n = (int8_t)take_list(R, s->enc_deck, MCH_ENC_CARDS, 0, MCH_ENC_KINDS - 1,
                                      "enc_deck: a length or encounter kind out of range");
    s->enc_discard_n = (int8_t)take_list(R, s->enc_discard, MCH_ENC_CARDS, 0, MCH_ENC_KINDS - 1,
                                         "enc_discard: a length or encounter kind out of range");
    for (int q = 0; q < n; q++)
        s->hands[q] = take_sorted(R, MCH_CARDS, 1, MCH_CARDS, "hands: not ascending cards 1..55");
    for (int q = 0; q < n; q++)
        for (int k = 0; k < MCH_ENC_KINDS; k++)
            s->enc_hands[q][k] = (int8_t)take(R, 0, MCH_ENC_COUNTS[k], "enc_hands: a count out of range");
    for (int b = 0; b < nb; b++) s->picks[b] = (int8_t)take(R, 0, MCH_CARDS, "picks: a card out of range");
    for (int b = 0; b < nb; b++) s->shown_picks[b] = (int8_t)take(R, 0, MCH_CARDS, "shown_picks: a card out of range");
    s->revealed = (int8_t)take(R, 0, 1, "revealed is not a boolean");
    s->order_n = (int8_t)take_list(R, s->order, nb, 0, nb - 1, "order: a length or boat out of range");
    s->turn_index = (int8_t)take(R, 0, s->order_n, "turn_index outside [0, len(order)]");
    for (int b = 0; b < nb; b++) s->acted[b] = (int8_t)take(R, 0, 1, "acted: not a boolean");
    for (int b = 0; b < nb; b++)
        s->expedition_n[b] = (int8_t)take_list(R, s->expeditions[b], MCH_MAX_EXPEDITION, 1, MCH_CARDS,
                                               "expeditions: a length or card out of range");
    for (int b = 0; b < nb; b++) {
        s->positions[b][0] = (int8_t)take(R, 0, MCH_LAST_COLUMN, "positions: a column out of range");
        s->positions[b][1] = (int8_t)take(R, 0, MCH_LAST_ROW, "positions: a row out of range");
    }
    for (int b = 0; b < nb; b++) {
        int len = (int)take(R, s->expedition_n[b], s->expedition_n[b], "history: not one entry per expedition card");
        for (int i = 0; i < len; i++) {
            s->history[b][i][0] = (int8_t)take(R, 0, MCH_LAST_COLUMN, "history: a column out of range");
            s->history[b][i][1] = (int8_t)take(R, 0, MCH_LAST_ROW, "history: a row out of range");
        }
    }
    for (int slot = 0; slot < 4; slot++) s->display[slot] = (int8_t)take(R, 0, MCH_CARDS, "display: a card out of range");
    s->board = (uint32_t)take_sorted(R, MCH_MISSIONS, 0, MCH_MISSIONS - 1, "board: not ascending tiles 0..22");
    s->set_aside = (uint32_t)take_sorted(R, MCH_MISSIONS, 0, MCH_MISSIONS - 1, "set_aside: not ascending tiles 0..22");
    for (int q = 0; q < n; q++)
        s->taken_n[q] = (int8_t)take_list(R, s->taken_tiles[q], MCH_MISSIONS, 0, MCH_MISSIONS - 1,
                                          "taken_tiles: a length or tile out of range");
    for (int q = 0; q < n; q++)
        for (int t = 0; t < 4; t++) s->tokens[q][t] = (int8_t)take(R, 0, MCH_TOKEN_SUPPLY[t], "tokens: out of range");
    for (int t = 0; t < 4; t++) s->supply[t] = (int8_t)take(R, 0, MCH_TOKEN_SUPPLY[t], "supply: out of range");
    for (int q = 0; q < n; q++)
        for (int i = 0; i < 10; i++) s->skills[q][i] = (int8_t)take(R, 0, MCH_SKILL_STACK, "skills: out of range");
    for (int i = 0; i < 5; i++) s->stacks[i] = (int8_t)take(R, 0, MCH_SKILL_STACK, "stacks: out of range");
    s->pearl_owner = (int8_t)take(R, -1, n - 1, "pearl_owner: not a seat or -1");
    s->hk_owner = (int8_t)take(R, -1, n - 1, "hk_owner: not a seat or -1");
    for (int a = 0; a < n; a++)
        for (int q = 0; q < n; q++)
            s->known_n[a][q] =
                (int8_t)take_list(R, s->known[a][q], MCH_CARDS, 1, MCH_CARDS, "known: a length or card out of range");
    s->phase = (int8_t)take(R, -1, MCH_NUM_PHASES - 1, "phase out of range");
    s->step = (int8_t)take(R, 0, ST_COUNT - 1, "step: not one of native_bridge.STEPS");
    s->select_seat = (int8_t)take(R, 0, n, "select_seat out of range");
    s->select_boat = (int8_t)take(R, 0, 2, "select_boat out of range");
    s->active_boat = (int8_t)take(R, -1, nb - 1, "active_boat: not a boat or -1");
    s->pending_card = (int8_t)take(R, 0, MCH_CARDS, "pending_card: a card out of range");
    s->move_return = (int8_t)take(R, 0, 1, "move_return: not '' or 'night'");
    s->end_gains = (int8_t)take(R, 0, MCH_MISSIONS + 10, "end_gains out of range");
    for (int t = 0; t < 4; t++) s->claim_pool[t] = (int8_t)take(R, 0, MCH_CARDS, "claim_pool out of range");
    s->gift_n = (int8_t)take_list(R, s->gift_queue, MCH_ENC_CARDS, 0, MCH_ENC_KINDS - 1,
                                  "gift_queue: a length or encounter kind out of range");
    s->enc_played = (int8_t)take(R, 0, 1, "enc_played is not a boolean");
    s->pending_enc = (int8_t)take(R, -1, MCH_ENC_KINDS - 1, "pending_enc out of range");
    s->pending_target = (int8_t)take(R, -1, n - 1, "pending_target: not a seat or -1");
    s->combat_card = (int8_t)take(R, 0, MCH_CARDS, "combat_card: a card out of range");
    for (int q = 0; q < n; q++) s->owes[q] = (int8_t)take(R, 0, MCH_CARDS, "owes out of range");
    s->give_open = (int8_t)take(R, 0, 1, "give_open is not a boolean");
    for (int q = 0; q < n; q++) {
        s->last_action[q][0] = (int8_t)take(R, 0, HISTORY_COMBAT, "last_action: a code out of range");
        s->last_action[q][1] = (int8_t)take(R, 0, 3, "last_action: an offset out of range");
    }
    if (rd.why) FAIL(rd.why);
    if (rd.at != count) FAIL("the dump is longer than the state (a length or count is wrong)");
    return coherent(cfg, &r, s, why);
}

/* The facts between values that play keeps and the rules rely on (MadameChingState.check_invariants and more). */
static int coherent(const NeConfig *cfg, const MchRules *r, MchState *s, const char **why) {
    int n = r->n, nb = r->nb;
    /* navigation cards: each of 1..55 exactly once (MCH-201) */
    uint64_t seen = 0;
    int total = 0;
#define CARD(c)                                                                                               \
    do {                                                                                                      \
        seen |= BIT(c);                                                                                       \
        total++;                                                                                              \
    } while (0)
    for (int i = 0; i < s->nav_deck_n; i++) CARD(s->nav_deck[i]);
    for (int i = 0; i < s->nav_discard_n; i++) CARD(s->nav_discard[i]);
    for (int slot = 0; slot < 4; slot++)
        if (s->display[slot]) CARD(s->display[slot]);
    for (int b = 0; b < nb; b++)
        if (s->picks[b]) CARD(s->picks[b]);
    for (int q = 0; q < n; q++) {
        seen |= s->hands[q];
        total += mch_popcount(s->hands[q]);
    }
    for (int b = 0; b < nb; b++)
        for (int i = 0; i < s->expedition_n[b]; i++) CARD(s->expeditions[b][i]);
#undef CARD
    if (total != MCH_CARDS || seen != (((1ULL << MCH_CARDS) - 1) << 1)) FAIL("navigation cards not conserved");
    /* encounter cards (MCH-209) */
    int enc[MCH_ENC_KINDS] = {0};
    for (int i = 0; i < s->enc_deck_n; i++) enc[s->enc_deck[i]]++;
    for (int i = 0; i < s->enc_discard_n; i++) enc[s->enc_discard[i]]++;
    for (int q = 0; q < n; q++)
        for (int k = 0; k < MCH_ENC_KINDS; k++) enc[k] += s->enc_hands[q][k];
    for (int k = 0; k < MCH_ENC_KINDS; k++)
        if (enc[k] != MCH_ENC_COUNTS[k]) FAIL("encounter cards not conserved");
    /* tokens and skills */
    for (int t = 0; t < 4; t++) {
        int sum = s->supply[t];
        for (int q = 0; q < n; q++) sum += s->tokens[q][t];
        if (sum != MCH_TOKEN_SUPPLY[t]) FAIL("tokens not conserved");
    }
    for (int k = 0; k < 5; k++) {
        int sum = s->stacks[k];
        for (int q = 0; q < n; q++) sum += s->skills[q][k] + s->skills[q][5 + k];
        if (sum != MCH_SKILL_STACK) FAIL("skills not conserved");
    }
    /* mission tiles: each at most once; on the board and taken at most the mission count */
    uint32_t tiles = s->board;
    if (tiles & s->set_aside) FAIL("a mission tile both on the board and set aside");
    tiles |= s->set_aside;
    int placed = __builtin_popcount(s->board);
    for (int q = 0; q < n; q++) {
        for (int i = 0; i < s->taken_n[q]; i++) {
            uint32_t bit = 1u << s->taken_tiles[q][i];
            if (tiles & bit) FAIL("a mission tile in two places");
            tiles |= bit;
        }
        placed += s->taken_n[q];
    }
    if (placed > r->mission_count) FAIL("more mission tiles placed than the mission count");
    /* boats: expeditions ascending, position and history one step per card (column = card count) */
    for (int b = 0; b < nb; b++) {
        int len = s->expedition_n[b];
        for (int i = 1; i < len; i++)
            if (s->expeditions[b][i] <= s->expeditions[b][i - 1]) FAIL("expeditions: not ascending");
        int c = s->positions[b][0], row = s->positions[b][1];
        if (c != len || (c == 0 ? row != 0 : (row < 1 || row > c))) FAIL("positions: not one column per card");
        for (int i = 0; i < len; i++) {
            int hc = s->history[b][i][0], hr = s->history[b][i][1];
            if (hc != i || (i == 0 ? hr != 0 : (hr < 1 || hr > i))) FAIL("history: not the positions before each card");
        }
    }
    /* known cards (MCH-917): each card at most once per knower, never in the knower's own list */
    for (int a = 0; a < n; a++) {
        uint64_t cards = 0, prior = 0;
        if (s->known_n[a][a]) FAIL("known: a seat's list of its own hand");
        for (int q = 0; q < n; q++) {
            for (int i = 0; i < s->known_n[a][q]; i++) {
                uint64_t bit = BIT(s->known[a][q][i]);
                if (cards & bit) FAIL("known: a card twice in one seat's lists");
                cards |= bit;
            }
            s->known_set[a][q] = cards & ~prior;
            prior = cards;
        }
        for (int q = n; q < 4; q++) s->known_set[a][q] = 0;
        s->known_any[a] = cards;
    }
    /* the reveal: order is the boats with a shown card, highest card first */
    if (s->revealed) {
        int expected = 0;
        for (int b = 0; b < nb; b++) expected += s->shown_picks[b] != 0;
        if (s->order_n != expected) FAIL("order: not the boats of shown_picks");
        for (int i = 0; i < s->order_n; i++) {
            if (!s->shown_picks[s->order[i]]) FAIL("order: a boat without a shown card");
            if (i && s->shown_picks[s->order[i]] >= s->shown_picks[s->order[i - 1]])
                FAIL("order: not highest card first");
        }
    } else {
        if (s->order_n) FAIL("order set before the reveal");
        for (int b = 0; b < nb; b++)
            if (s->shown_picks[b]) FAIL("shown_picks set before the reveal");
    }
    /* the step machine */
    if (s->over) {
        if (s->phase != -1 || s->step != ST_OVER) FAIL("a finished game rests on phase -1 and step 'over'");
        if (s->gift_n || s->combat_card) FAIL("a finished game with a pending gift or Combat card");
        return 0;
    }
    if (s->phase < 0 || s->step == ST_OVER) FAIL("a running game without a phase");
    if (s->gift_n) {
        if (!r->team || s->phase != PH_ENC_GIFT) FAIL("gift_queue outside a team game's ENC_GIFT");
        if (s->step != ST_NIGHT && s->step != ST_END_SKILLS && s->step != ST_END_FINISH && s->step != ST_ACTION)
            FAIL("gift_queue at a step that gains no encounter card");
    } else if (s->phase == PH_ENC_GIFT || RESTING_STEP[s->phase] != s->step) {
        FAIL("the step cannot ask the phase");
    }
    if ((s->phase == PH_TEAM_RETURN || s->phase == PH_TEAM_GIVE) && !r->team) FAIL("a team phase outside team mode");
    if (s->phase == PH_SELECT) {
        if (s->revealed) FAIL("Select after the reveal");
        if (s->select_seat >= n || s->select_boat >= mch_boats_count(r)) FAIL("select_seat/select_boat out of range");
    } else {
        /* a boat-turn: the boat whose turn it is acts, the cards of the other boats wait or are placed */
        if (!s->revealed || s->turn_index >= s->order_n || s->active_boat != s->order[s->turn_index])
            FAIL("active_boat is not order[turn_index]");
        for (int i = 0; i < s->order_n; i++) {
            int b = s->order[i];
            if (i < s->turn_index && s->picks[b]) FAIL("picks: a card of a boat that has placed it");
            if (i > s->turn_index && s->picks[b] != s->shown_picks[b]) FAIL("picks: a waiting boat's card changed");
        }
        int boat = s->active_boat, seat = mch_boat_owner(r, boat), step = s->step;
        int in_transit = step == ST_MOVE || step == ST_END_MISSION || step == ST_END_SKILLS || step == ST_END_FINISH;
        if (in_transit ? (!s->pending_card || s->picks[boat] != s->pending_card) : s->picks[boat] != 0)
            FAIL("picks/pending_card: the active boat's card in transit");
        if (!s->expedition_n[boat]) FAIL("the active boat has no expedition");
        if (step == ST_MOVE) {
            if (s->positions[boat][0] >= MCH_LAST_COLUMN || s->pending_card <= mch_last_card(s, boat) ||
                s->move_return != 1)
                FAIL("move: no room or no higher card to add");
        }
        if (step == ST_THIEF_GEM || step == ST_COMBAT_GIVE) {
            int target = s->pending_target;
            if (target < 0 || !mch_is_opponent(r, seat, target)) FAIL("pending_target: not an opponent");
        }
        if (s->combat_card && step != ST_COMBAT_GIVE) FAIL("combat_card outside COMBAT_GIVE");
        if (s->gift_n) {
            int queued[MCH_ENC_KINDS] = {0};
            for (int i = 0; i < s->gift_n; i++)
                if (++queued[s->gift_queue[i]] > s->enc_hands[seat][s->gift_queue[i]])
                    FAIL("gift_queue: cards not held");
        }
    }
    if (s->combat_card && s->phase != PH_COMBAT_GIVE) FAIL("combat_card outside COMBAT_GIVE");
    int32_t buf[MCH_NUM_ACTIONS];
    if (mch_legal_actions(cfg, s, buf) < 1) FAIL("a running game with no legal action");
    return 0;
}
