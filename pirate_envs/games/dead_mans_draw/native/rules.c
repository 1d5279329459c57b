/* Dead Man's Draw's compiled rules (dmd_engine): setup, the turn and task-stack driver, placing a card, the suit
 * abilities, bust and stop, gain events (Sudden Death, Undertow), scoring, and dump/load.
 *
 * A procedure for procedure port of DmdState (pirate_envs/games/dead_mans_draw/game.py, the oracle), read in the
 * same order: each procedure returns ASK (a decision is asked), CONT (this piece of resolution is done: pop the
 * task stack) or END (the turn is over), and run() drives the codes up to the next decision or the game's end.
 * The random draws (the setup's shuffles, Map's and the bonus's picks from the discard pile) are the Python
 * engine's, draw for draw.
 */
#include "games/dead_mans_draw/native/dmd_engine.h"

enum { CONT = 0, ASK = 1, END = 2 };

#define N_OF(cfg) ((cfg)->num_players)
#define OPT(cfg, i) ((cfg)->options[i])

/* ---- small list helpers ---------------------------------------------------------------------------------- */

static inline void push_capped(int8_t *items, int8_t *n, int cap, int v) {
    if (*n < cap) items[(*n)++] = (int8_t)v;
}

static inline int index_of(const int8_t *items, int n, int v) {
    for (int i = 0; i < n; i++)
        if (items[i] == v) return i;
    return -1;
}

static inline int8_t pop_at(int8_t *items, int8_t *n, int i) {
    int8_t v = items[i];
    memmove(items + i, items + i + 1, (size_t)(*n - i - 1));
    (*n)--;
    return v;
}

static inline void remove_value(int8_t *items, int8_t *n, int v) {
    int i = index_of(items, *n, v);
    if (i >= 0) pop_at(items, n, i);
}

static inline void set_bit(uint64_t *mask, int a) { mask[a >> 6] |= 1ULL << (a & 63); }
static inline void set_choice(DmdState *st, int a) { set_bit(st->choices, a); }

static int ask(DmdState *st, int phase, int decider) {
    /* the caller sets the choices after this call */
    st->phase = (int8_t)phase;
    st->decider = (int8_t)decider;
    st->choices[0] = st->choices[1] = 0;
    return ASK;
}

static inline uint64_t held_suits(uint64_t coll) {
    uint64_t suits = 0;
    for (int s = 0; s < DMD_SUITS; s++)
        if (coll & dmd_suit_mask(s)) suits |= 1ULL << s;
    return suits;
}

/* ---- queries ----------------------------------------------------------------------------------------------- */

static int final_score(const DmdState *st, int seat) {
    int score = dmd_live_score(st->variant, st->coll[seat]);
    if (st->kept[seat] == GOLDEN_MERMAID && !st->eliminated[seat] && (st->coll[seat] & dmd_suit_mask(MERMAID)))
        score += 5;
    return score;
}

static int right_neighbour(const NeConfig *cfg, const DmdState *st, int seat) {
    const int n = N_OF(cfg);
    for (int k = 1; k < n; k++) {
        int t = ((seat - k) % n + n) % n;
        if (!st->eliminated[t]) return t;
    }
    return seat;
}

/* ---- turn bookkeeping ---------------------------------------------------------------------------------------- */

static void record_finished_turn(DmdState *st) {
    int a = st->active;
    if (st->turns_taken[a] < INT32_MAX) st->turns_taken[a]++;
    if (st->turn_busted && st->busts[a] < INT32_MAX) st->busts[a]++;
    st->last_turn_player = (int8_t)a;
    memcpy(st->last_turn_cards, st->turn_cards, (size_t)st->n_turn);
    st->n_last = st->n_turn;
    st->last_turn_busted = st->turn_busted;
    st->n_turn = 0;
    st->turn_busted = 0;
}

static void clear_turn_state(DmdState *st) {
    st->n_row = 0;
    st->n_hook = 0;
    st->n_tasks = 0;
    st->n_offer = 0;
    st->hook_s1 = -1;
    st->plunder_target = -1;
    st->plunder_remaining = 0;
}

static void finish(const NeConfig *cfg, DmdState *st, const int *winners, int n_winners, int mid_turn) {
    (void)cfg;
    if (mid_turn) {
        /* the unbanked row and any offer go to the discard pile (DMD-805, DMD-809) */
        uint64_t held = 0;
        for (int t = 0; t < N_OF(cfg); t++) held |= st->coll[t];
        for (int i = 0; i < st->n_removed; i++) held |= 1ULL << st->removed[i];
        for (int i = 0; i < st->n_row; i++) {
            int e = st->row[i];
            if (e != DMD_MARKER && !((held >> e) & 1)) push_capped(st->discard, &st->n_discard, DMD_CAP, e);
        }
        for (int i = 0; i < st->n_offer; i++) {
            int e = st->offer[i];
            if (!((held >> e) & 1)) push_capped(st->discard, &st->n_discard, DMD_CAP, e);
        }
        record_finished_turn(st);
    }
    clear_turn_state(st);
    for (int i = 0; i < n_winners; i++) st->winners[i] = (int8_t)winners[i];
    st->n_winners = (int8_t)n_winners;
    st->phase = GAME_OVER;
    st->decider = -1;
    st->choices[0] = st->choices[1] = 0;
}

static void finish_by_score(const NeConfig *cfg, DmdState *st) {
    int scores[DMD_PLAYERS], best = 0, any = 0, winners[DMD_PLAYERS], k = 0;
    for (int t = 0; t < N_OF(cfg); t++) {
        if (st->eliminated[t]) continue;
        scores[t] = final_score(st, t);
        if (!any || scores[t] > best) best = scores[t];
        any = 1;
    }
    for (int t = 0; t < N_OF(cfg); t++)
        if (!st->eliminated[t] && scores[t] == best) winners[k++] = t;
    finish(cfg, st, winners, k, 0);
}

/* ---- gain events, Sudden Death, Undertow (DMD-704, DMD-805, DMD-809) ------------------------------------------- */

static void eliminate(const NeConfig *cfg, DmdState *st, int seat) {
    st->eliminated[seat] = 1;
    uint64_t coll = st->coll[seat];
    for (uint64_t m = coll; m; m &= m - 1) push_capped(st->removed, &st->n_removed, DMD_CAP, __builtin_ctzll(m));
    st->coll[seat] = 0;
    for (int a = 0; a < DMD_ABILITIES; a++)
        if (st->holder[a] == seat) st->holder[a] = -1;
    if (seat == st->active) { /* DMD-1013 */
        uint64_t gone = 0;
        for (int i = 0; i < st->n_removed; i++) gone |= 1ULL << st->removed[i];
        for (int i = 0; i < st->n_row; i++) {
            int e = st->row[i];
            if (e != DMD_MARKER && !((gone >> e) & 1)) push_capped(st->discard, &st->n_discard, DMD_CAP, e);
        }
        st->n_row = 0;
        st->n_tasks = 0;
    }
    int alive[DMD_PLAYERS], k = 0;
    for (int t = 0; t < N_OF(cfg); t++)
        if (!st->eliminated[t]) alive[k++] = t;
    if (k == 1) finish(cfg, st, alive, 1, 1);
}

/* Cards join seat's collection (one gain event); 1 when the procedure must stop (the game ended, or the active
 * player was eliminated). */
static int gain(const NeConfig *cfg, DmdState *st, int seat, const int8_t *cards, int n) {
    if (n == 0) return 0;
    for (int i = 0; i < n; i++) st->coll[seat] |= 1ULL << cards[i];
    if (st->variant == SUDDEN_DEATH) {
        if (dmd_live_score(st->variant, st->coll[seat]) >= 50) {
            int w = seat;
            finish(cfg, st, &w, 1, 1);
            return 1;
        }
    } else if (st->variant == UNDERTOW && dmd_live_score(st->variant, st->coll[seat]) > 60) {
        eliminate(cfg, st, seat);
        return st->phase == GAME_OVER || seat == st->active;
    }
    return 0;
}

static inline int gain1(const NeConfig *cfg, DmdState *st, int seat, int card) {
    int8_t c = (int8_t)card;
    return gain(cfg, st, seat, &c, 1);
}

/* ---- the driver pieces (DMD-401, DMD-510) --------------------------------------------------------------------- */

static int place(const NeConfig *cfg, DmdState *st, int card, int from_draw);
static int stop(const NeConfig *cfg, DmdState *st);

static int draw_card(const NeConfig *cfg, DmdState *st) {
    int card = st->draw[--st->n_draw];
    for (int t = 0; t < N_OF(cfg); t++) {
        int i = index_of(st->known[t], st->n_known[t], card);
        if (i >= 0) pop_at(st->known[t], &st->n_known[t], i);
    }
    return card;
}

static int begin_turn(const NeConfig *cfg, DmdState *st) {
    st->n_row = 0;
    st->n_hook = 0;
    st->n_tasks = 0;
    st->n_turn = 0;
    st->turn_busted = 0;
    st->phase = DRAW_OR_STOP;
    st->decider = st->active;
    return place(cfg, st, draw_card(cfg, st), 1);
}

static void end_turn(const NeConfig *cfg, DmdState *st) {
    int a = st->active, n = N_OF(cfg);
    record_finished_turn(st);
    clear_turn_state(st);
    if (st->phase == GAME_OVER) return;
    if (st->n_draw == 0) {
        finish_by_score(cfg, st);
        return;
    }
    for (int k = 1; k <= n; k++) {
        int t = (a + k) % n;
        if (!st->eliminated[t]) {
            st->active = (int8_t)t;
            return;
        }
    }
}

static inline void push_task(DmdState *st, int kind, int arg) {
    if (st->n_tasks < DMD_CAP) {
        st->task_kind[st->n_tasks] = (int8_t)kind;
        st->task_arg[st->n_tasks] = (int8_t)arg;
        st->n_tasks++;
    }
}

static int run_task(const NeConfig *cfg, DmdState *st) {
    st->n_tasks--;
    int kind = st->task_kind[st->n_tasks], arg = st->task_arg[st->n_tasks];
    if (kind == FORCED_DRAW) {
        if (st->n_draw == 0) return CONT;
        if (arg > 1) push_task(st, FORCED_DRAW, arg - 1);
        return place(cfg, st, draw_card(cfg, st), 1);
    }
    /* SECOND_HOOK(s1), DMD-617 */
    uint64_t coll = st->coll[st->active];
    int any = 0;
    for (int s = 0; s < DMD_SUITS; s++)
        if ((coll & dmd_suit_mask(s)) && s != arg) any = 1;
    if (!any) return CONT;
    st->hook_s1 = (int8_t)arg;
    ask(st, HOOK_SUIT, st->active);
    for (int s = 0; s < DMD_SUITS; s++)
        if ((coll & dmd_suit_mask(s)) && s != arg) set_choice(st, A_OWN_SUIT + s);
    return ASK;
}

static void run(const NeConfig *cfg, DmdState *st, int code) {
    for (;;) {
        if (st->phase == GAME_OVER || code == ASK) return;
        if (code == END) {
            end_turn(cfg, st);
            if (st->phase == GAME_OVER) return;
            code = begin_turn(cfg, st);
            continue;
        }
        if (st->n_tasks) {
            code = run_task(cfg, st);
            continue;
        }
        if (st->n_draw == 0) { /* DMD-523 */
            code = stop(cfg, st);
            continue;
        }
        ask(st, DRAW_OR_STOP, st->active);
        set_choice(st, A_STOP);
        set_choice(st, A_DRAW);
        return;
    }
}

/* ---- 6.1: suit abilities --------------------------------------------------------------------------------------- */

static int target_action(const NeConfig *cfg, int a, int seat, int suit) {
    const int n = N_OF(cfg);
    return dmd_target_base(n) + DMD_SUITS * (((seat - a) % n + n) % n - 1) + suit;
}

static int cannon_targets(const NeConfig *cfg, const DmdState *st, uint64_t *mask) {
    const int n = N_OF(cfg), a = st->active;
    int count = 0;
    for (int k = 1; k < n; k++) {
        int seat = (a + k) % n;
        if (st->eliminated[seat]) continue;
        for (int s = 0; s < DMD_SUITS; s++)
            if (st->coll[seat] & dmd_suit_mask(s)) {
                set_bit(mask, target_action(cfg, a, seat, s));
                count++;
            }
    }
    return count;
}

static int sword_targets(const NeConfig *cfg, const DmdState *st, uint64_t *mask) {
    const int n = N_OF(cfg), a = st->active;
    const uint64_t own = st->coll[a];
    const int free = st->holder[SWORDSMAN] == a, parry = st->holder[PARRY];
    int count = 0;
    for (int k = 1; k < n; k++) {
        int seat = (a + k) % n;
        if (st->eliminated[seat]) continue;
        for (int s = 0; s < DMD_SUITS; s++)
            if ((st->coll[seat] & dmd_suit_mask(s)) && (free || !(own & dmd_suit_mask(s))) &&
                (seat != parry || s == KRAKEN)) {
                set_bit(mask, target_action(cfg, a, seat, s));
                count++;
            }
    }
    return count;
}

static int navigator(const NeConfig *cfg, DmdState *st) {
    (void)cfg;
    const int a = st->active, nav = st->holder[NAVIGATOR];
    if (nav < 0 || nav == a) return CONT;
    uint64_t coll = st->coll[a];
    if (!coll) return CONT;
    ask(st, NAVIGATOR_SELF, a);
    for (int s = 0; s < DMD_SUITS; s++)
        if (coll & dmd_suit_mask(s)) set_choice(st, A_OWN_SUIT + s);
    return ASK;
}

static int resolve(const NeConfig *cfg, DmdState *st, int card) {
    const int suit = DMD_CARD_SUIT[card], a = st->active;
    switch (suit) {
    case CANNON: {
        uint64_t mask[2] = {0, 0};
        if (!cannon_targets(cfg, st, mask)) return navigator(cfg, st);
        ask(st, CANNON_TARGET, a);
        st->choices[0] = mask[0];
        st->choices[1] = mask[1];
        return ASK;
    }
    case SWORD: {
        uint64_t mask[2] = {0, 0};
        if (!sword_targets(cfg, st, mask)) return CONT;
        ask(st, SWORD_TARGET, a);
        st->choices[0] = mask[0];
        st->choices[1] = mask[1];
        return ASK;
    }
    case HOOK: { /* DMD-605 */
        if (st->holder[CAPTAIN_HOOK] == a && index_of(st->hook_protected, st->n_hook, card) < 0)
            push_capped(st->hook_protected, &st->n_hook, DMD_CAP, card);
        uint64_t coll = st->coll[a];
        if (!coll) return CONT;
        st->hook_s1 = -1;
        ask(st, HOOK_SUIT, a);
        for (int s = 0; s < DMD_SUITS; s++)
            if (coll & dmd_suit_mask(s)) set_choice(st, A_OWN_SUIT + s);
        return ASK;
    }
    case KRAKEN: { /* DMD-606, DMD-614 */
        int king = st->holder[KRAKEN_KING];
        push_task(st, FORCED_DRAW, king >= 0 && king != a ? 4 : 2);
        return CONT;
    }
    case MAP: /* DMD-607, DMD-622 */
        if (st->n_discard == 0) return CONT;
        if (st->holder[MISFIRE] == a) {
            memcpy(st->offer, st->discard, (size_t)st->n_discard);
            st->n_offer = st->n_discard;
            st->n_discard = 0;
        } else {
            int k = st->n_discard < 3 ? st->n_discard : 3;
            st->n_offer = 0;
            for (int i = 0; i < k; i++) {
                int j = (int)sm_randrange(&st->h.rng, (uint64_t)st->n_discard);
                st->offer[st->n_offer++] = pop_at(st->discard, &st->n_discard, j);
            }
        }
        ask(st, MAP_PICK, a);
        for (int i = 0; i < st->n_offer; i++) set_choice(st, A_CARD + st->offer[i]);
        return ASK;
    case ORACLE: { /* DMD-609, DMD-626 */
        int depth = st->holder[MYSTIC] == a ? 3 : 1;
        int from = st->n_draw - depth;
        if (from < 0) from = 0;
        for (int i = from; i < st->n_draw; i++) {
            int c = st->draw[i];
            if (index_of(st->known[a], st->n_known[a], c) < 0) push_capped(st->known[a], &st->n_known[a], 3, c);
        }
        return CONT;
    }
    case MERMAID: /* DMD-810 */
        if (OPT(cfg, O_MERMAID_VARIANT)) {
            int any = 0;
            for (int i = 0; i < st->n_row; i++) {
                int e = st->row[i];
                if (e != DMD_MARKER && DMD_CARD_SUIT[e] != MERMAID) any = 1;
            }
            if (!any) return CONT;
            ask(st, MERMAID_PICK, a);
            for (int i = 0; i < st->n_row; i++) {
                int e = st->row[i];
                if (e != DMD_MARKER && DMD_CARD_SUIT[e] != MERMAID) set_choice(st, A_CARD + e);
            }
            return ASK;
        }
        return CONT;
    default:
        return CONT; /* Anchor, Chest, Key */
    }
}

/* ---- 5.4: bust, 5.5: stop ------------------------------------------------------------------------------------- */

static int lose(const NeConfig *cfg, DmdState *st, const int8_t *cards, int n) {
    if (st->variant == THIEVES_ISLAND) {
        int neighbour = right_neighbour(cfg, st, st->active);
        if (neighbour != st->holder[LOCKER]) {
            gain(cfg, st, neighbour, cards, n);
            return END;
        }
    }
    for (int i = 0; i < n; i++) push_capped(st->discard, &st->n_discard, DMD_CAP, cards[i]);
    return END;
}

static int bust(const NeConfig *cfg, DmdState *st) {
    const int a = st->active, last = st->n_row - 1;
    st->turn_busted = 1;
    st->n_tasks = 0; /* DMD-511 */
    int p = -1;
    for (int i = last - 1; i >= 0; i--) { /* DMD-514a (D36) */
        int e = st->row[i];
        if (e == DMD_MARKER || DMD_CARD_SUIT[e] == ANCHOR) {
            p = i;
            break;
        }
    }
    uint32_t safe = p > 0 ? (1U << p) - 1 : 0;
    if (p >= 0 && st->holder[SAFE_HARBOR] == a) { /* DMD-514b (D16) */
        if (st->row[p] != DMD_MARKER) safe |= 1U << p;
        if (p + 1 <= last) safe |= 1U << (p + 1);
        if (p + 2 <= last) safe |= 1U << (p + 2);
    }
    const int hooked = st->holder[CAPTAIN_HOOK] == a; /* DMD-514c */
    int8_t protected_[DMD_ROW_CAP], lost[DMD_ROW_CAP];
    int n_protected = 0, n_lost = 0;
    for (int i = 0; i <= last; i++) {
        int e = st->row[i];
        if (e == DMD_MARKER) continue;
        if (((safe >> i) & 1) || (hooked && index_of(st->hook_protected, st->n_hook, e) >= 0))
            protected_[n_protected++] = (int8_t)e;
        else
            lost[n_lost++] = (int8_t)e;
    }
    if (n_protected) { /* DMD-515, DMD-618 */
        if (st->holder[LOCKER] == a) {
            for (int i = 0; i < n_protected; i++) push_capped(st->discard, &st->n_discard, DMD_CAP, protected_[i]);
        } else if (gain(cfg, st, a, protected_, n_protected)) {
            return END;
        }
    }
    if (!n_lost) return END;
    int locker = st->holder[LOCKER];
    if (locker >= 0 && st->locker_target == a) { /* DMD-516.1 */
        memcpy(st->offer, lost, (size_t)n_lost);
        st->n_offer = (int8_t)n_lost;
        ask(st, LOCKER_ACCEPT, locker);
        set_choice(st, A_ACCEPT);
        set_choice(st, A_DECLINE);
        return ASK;
    }
    return lose(cfg, st, lost, n_lost);
}

static int bonus(const NeConfig *cfg, DmdState *st, int count) {
    int8_t cards[DMD_CAP];
    int k = count < st->n_discard ? count : st->n_discard;
    for (int i = 0; i < k; i++) {
        int j = (int)sm_randrange(&st->h.rng, (uint64_t)st->n_discard);
        cards[i] = pop_at(st->discard, &st->n_discard, j);
    }
    gain(cfg, st, st->active, cards, k);
    return END;
}

static int plunder_next(const NeConfig *cfg, DmdState *st) {
    if (st->plunder_remaining <= 0) return END;
    const int a = st->active, n = N_OF(cfg);
    int seats[DMD_PLAYERS], k = 0;
    if (st->plunder_target < 0) {
        for (int j = 1; j < n; j++) {
            int t = (a + j) % n;
            if (!st->eliminated[t] && st->coll[t]) seats[k++] = t;
        }
    } else {
        int t = st->plunder_target;
        if (!st->eliminated[t] && st->coll[t]) seats[k++] = t;
    }
    if (!k) {
        int remaining = st->plunder_remaining;
        st->plunder_remaining = 0;
        return bonus(cfg, st, remaining);
    }
    ask(st, PLUNDER_PICK, a);
    for (int i = 0; i < k; i++)
        for (int s = 0; s < DMD_SUITS; s++)
            if (st->coll[seats[i]] & dmd_suit_mask(s)) set_choice(st, target_action(cfg, a, seats[i], s));
    return ASK;
}

static int stop(const NeConfig *cfg, DmdState *st) {
    const int a = st->active;
    int8_t cards[DMD_ROW_CAP];
    int n = 0, key = 0, chest = 0;
    for (int i = 0; i < st->n_row; i++) {
        int e = st->row[i];
        if (e == DMD_MARKER) continue;
        cards[n++] = (int8_t)e;
        key |= DMD_CARD_SUIT[e] == KEY;
        chest |= DMD_CARD_SUIT[e] == CHEST;
    }
    st->n_row = 0;
    if (st->holder[LOCKER] == a) { /* DMD-519, DMD-618 */
        for (int i = 0; i < n; i++) push_capped(st->discard, &st->n_discard, DMD_CAP, cards[i]);
        return END;
    }
    if (n && gain(cfg, st, a, cards, n)) return END;
    if (!(key && chest)) return END; /* DMD-518 */
    if (st->holder[PLUNDERER] == a) { /* DMD-520 (D19) */
        st->plunder_target = -1;
        st->plunder_remaining = (int8_t)n;
        return plunder_next(cfg, st);
    }
    return bonus(cfg, st, st->holder[BOUNTY_HUNTER] == a ? 2 * n : n);
}

/* ---- DMD-505: placing a card ------------------------------------------------------------------------------------ */

static int place(const NeConfig *cfg, DmdState *st, int card, int from_draw) {
    const int a = st->active, suit = DMD_CARD_SUIT[card];
    const int mermaid_variant = (int)OPT(cfg, O_MERMAID_VARIANT);
    if (suit == KRAKEN && st->holder[FISHERMAN] == a) return gain1(cfg, st, a, card) ? END : CONT;
    const int raked = suit == MERMAID && from_draw && st->holder[RAKE] == a;
    if (raked && !mermaid_variant) return gain1(cfg, st, a, card) ? END : CONT;
    int busts = 0;
    if (st->variant == UNCHARTED_WATERS) { /* DMD-808 */
        const int value = DMD_CARD_VALUE[card];
        for (int i = 0; i < st->n_row; i++)
            if (st->row[i] != DMD_MARKER && DMD_CARD_VALUE[st->row[i]] == value) busts = 1;
    } else {
        for (int i = 0; i < st->n_row; i++)
            if (st->row[i] != DMD_MARKER && DMD_CARD_SUIT[st->row[i]] == suit) busts = 1;
    }
    push_capped(st->row, &st->n_row, DMD_ROW_CAP, card);
    push_capped(st->turn_cards, &st->n_turn, DMD_CAP, card);
    if (busts) return bust(cfg, st);
    if (raked) { /* DMD-811 */
        ask(st, RAKE_PICK, a);
        for (int i = 0; i < st->n_row; i++)
            if (st->row[i] != DMD_MARKER) set_choice(st, A_CARD + st->row[i]);
        return ASK;
    }
    return resolve(cfg, st, card);
}

/* ---- acting ------------------------------------------------------------------------------------------------------- */

static void target_of(const NeConfig *cfg, const DmdState *st, int action, int *seat, int *suit) {
    const int n = N_OF(cfg), i = action - dmd_target_base(n);
    *seat = (st->decider + i / DMD_SUITS + 1) % n;
    *suit = i % DMD_SUITS;
}

static inline int pop_top(DmdState *st, int seat, int suit) {
    int card = dmd_top_bit(st->coll[seat] & dmd_suit_mask(suit));
    st->coll[seat] &= ~(1ULL << card);
    return card;
}

static int choose_ability(const NeConfig *cfg, DmdState *st, int ability) {
    const int seat = st->decider, n = N_OF(cfg);
    st->kept[seat] = (int8_t)ability;
    if (seat + 1 < n) {
        ask(st, ABILITY_CHOICE, seat + 1);
        for (int i = 0; i < st->n_dealt[seat + 1]; i++) set_choice(st, A_ABILITY + st->dealt[seat + 1][i]);
        return ASK;
    }
    st->revealed = 1;
    for (int s = 0; s < n; s++)
        if (st->kept[s] >= 0) st->holder[st->kept[s]] = (int8_t)s;
    int locker = st->holder[LOCKER];
    if (locker >= 0) {
        ask(st, LOCKER_TARGET, locker);
        for (int k = 1; k < n; k++) set_choice(st, A_LOCKER_TARGET + k);
        return ASK;
    }
    return begin_turn(cfg, st);
}

static int fire_cannon(const NeConfig *cfg, DmdState *st, int seat, int suit) {
    const int a = st->active;
    if (st->holder[MASTER_GUNNER] == a) {
        uint64_t stack = st->coll[seat] & dmd_suit_mask(suit);
        for (uint64_t m = stack; m; m &= m - 1) push_capped(st->discard, &st->n_discard, DMD_CAP, __builtin_ctzll(m));
        st->coll[seat] &= ~stack;
    } else if (st->holder[SCAVENGER] == a) {
        if (gain1(cfg, st, a, pop_top(st, seat, suit))) return END;
    } else {
        push_capped(st->discard, &st->n_discard, DMD_CAP, pop_top(st, seat, suit));
    }
    return navigator(cfg, st);
}

static int hook(const NeConfig *cfg, DmdState *st, int suit) {
    const int a = st->active;
    int card = pop_top(st, a, suit);
    if (st->hook_s1 < 0 && st->holder[MISER] == a) push_task(st, SECOND_HOOK, suit);
    st->hook_s1 = -1;
    if (st->holder[CAPTAIN_HOOK] == a && index_of(st->hook_protected, st->n_hook, card) < 0)
        push_capped(st->hook_protected, &st->n_hook, DMD_CAP, card);
    return place(cfg, st, card, 0);
}

static int mermaid_move(const NeConfig *cfg, DmdState *st, int card) {
    remove_value(st->row, &st->n_row, card);
    int siren = st->holder[SIREN];
    if (siren >= 0 && siren != st->active) return gain1(cfg, st, siren, card) ? END : CONT;
    push_capped(st->row, &st->n_row, DMD_ROW_CAP, card);
    return resolve(cfg, st, card);
}

static int rake_pick(const NeConfig *cfg, DmdState *st, int card) {
    remove_value(st->row, &st->n_row, card);
    if (DMD_CARD_SUIT[card] == ANCHOR) {
        remove_value(st->row, &st->n_row, DMD_MARKER);
        push_capped(st->row, &st->n_row, DMD_ROW_CAP, DMD_MARKER);
    }
    return gain1(cfg, st, st->active, card) ? END : CONT;
}

static int locker_accept(const NeConfig *cfg, DmdState *st, int accept) {
    int8_t cards[DMD_CAP];
    int n = st->n_offer;
    memcpy(cards, st->offer, (size_t)n);
    st->n_offer = 0;
    if (accept) {
        gain(cfg, st, st->decider, cards, n);
        return END;
    }
    return lose(cfg, st, cards, n);
}

static void dmd_apply(const NeConfig *cfg, void *state, int action) {
    DmdState *st = (DmdState *)state;
    int code, seat, suit;
    switch (st->phase) {
    case DRAW_OR_STOP:
        code = action == A_DRAW ? place(cfg, st, draw_card(cfg, st), 1) : stop(cfg, st);
        break;
    case ABILITY_CHOICE:
        code = choose_ability(cfg, st, action - A_ABILITY);
        break;
    case LOCKER_TARGET:
        st->locker_target = (int8_t)((st->decider + action - A_LOCKER_TARGET) % N_OF(cfg));
        code = begin_turn(cfg, st);
        break;
    case CANNON_TARGET:
        target_of(cfg, st, action, &seat, &suit);
        code = fire_cannon(cfg, st, seat, suit);
        break;
    case NAVIGATOR_SELF: /* DMD-623 */
        push_capped(st->discard, &st->n_discard, DMD_CAP, pop_top(st, st->active, action - A_OWN_SUIT));
        code = CONT;
        break;
    case SWORD_TARGET: /* DMD-610 */
        target_of(cfg, st, action, &seat, &suit);
        code = place(cfg, st, pop_top(st, seat, suit), 0);
        break;
    case HOOK_SUIT:
        code = hook(cfg, st, action - A_OWN_SUIT);
        break;
    case MAP_PICK: { /* DMD-607 */
        int card = action - A_CARD;
        remove_value(st->offer, &st->n_offer, card);
        for (int i = 0; i < st->n_offer; i++) push_capped(st->discard, &st->n_discard, DMD_CAP, st->offer[i]);
        st->n_offer = 0;
        code = place(cfg, st, card, 0);
        break;
    }
    case MERMAID_PICK:
        code = mermaid_move(cfg, st, action - A_CARD);
        break;
    case RAKE_PICK:
        code = rake_pick(cfg, st, action - A_CARD);
        break;
    case PLUNDER_PICK: { /* DMD-520 */
        target_of(cfg, st, action, &seat, &suit);
        st->plunder_target = (int8_t)seat;
        st->plunder_remaining--;
        code = gain1(cfg, st, st->active, pop_top(st, seat, suit)) ? END : plunder_next(cfg, st);
        break;
    }
    case LOCKER_ACCEPT: /* DMD-516 */
        code = locker_accept(cfg, st, action == A_ACCEPT);
        break;
    default:
        return;
    }
    run(cfg, st, code);
}

/* ---- setup (Section 3) ------------------------------------------------------------------------------------------ */

static void dmd_init(const NeConfig *cfg, void *state) {
    DmdState *st = (DmdState *)state;
    const int n = N_OF(cfg), mermaid_variant = (int)OPT(cfg, O_MERMAID_VARIANT);
    SplitMix *rng = &st->h.rng;
    if (OPT(cfg, O_VARIANT) == V_RANDOM) /* DMD-303 */
        st->variant = (int8_t)(GRAND_SLAM + (int)sm_randrange(rng, 6));
    else
        st->variant = (int8_t)OPT(cfg, O_VARIANT);
    /* DMD-301, DMD-302 */
    uint64_t lowest = 0;
    for (int s = 0; s < DMD_SUITS; s++)
        lowest |= 1ULL << (DMD_SUIT_BASE[s] + (s == MERMAID ? (mermaid_variant ? 0 : 2) : 0));
    const uint64_t out_of_game = mermaid_variant ? (3ULL << 48) : (3ULL << 42);
    st->n_discard = 0;
    st->n_draw = 0;
    if (OPT(cfg, O_STARTING_DISCARD)) {
        for (int s = 0; s < DMD_SUITS; s++)
            st->discard[st->n_discard++] = (int8_t)(DMD_SUIT_BASE[s] + (s == MERMAID ? (mermaid_variant ? 0 : 2) : 0));
        sm_shuffle_i8(rng, st->discard, st->n_discard);
    }
    for (int c = 0; c < DMD_CARDS; c++) {
        if ((out_of_game >> c) & 1) continue;
        if (OPT(cfg, O_STARTING_DISCARD) && ((lowest >> c) & 1)) continue;
        st->draw[st->n_draw++] = (int8_t)c;
    }
    sm_shuffle_i8(rng, st->draw, st->n_draw);
    for (int t = 0; t < n; t++) {
        st->coll[t] = 0;
        st->kept[t] = -1;
        st->eliminated[t] = 0;
        st->n_known[t] = 0;
        st->turns_taken[t] = st->busts[t] = 0;
        st->n_dealt[t] = 0;
    }
    st->n_removed = 0;
    clear_turn_state(st);
    for (int a = 0; a < DMD_ABILITIES; a++) st->holder[a] = -1;
    st->locker_target = -1;
    st->n_turn = 0;
    st->turn_busted = 0;
    st->last_turn_player = -1;
    st->n_last = 0;
    st->last_turn_busted = 0;
    st->n_winners = 0;
    if (OPT(cfg, O_CHARACTERS)) { /* DMD-304 */
        int8_t pool[DMD_ABILITIES + 2];
        int size = mermaid_variant ? DMD_ABILITIES : DMD_ABILITIES - 1;
        for (int a = 0; a < size; a++) pool[a] = (int8_t)a;
        sm_shuffle_i8(rng, pool, size);
        for (int t = 0; t < n; t++) {
            int8_t x = pool[2 * t], y = pool[2 * t + 1];
            st->dealt[t][0] = x < y ? x : y;
            st->dealt[t][1] = x < y ? y : x;
            st->n_dealt[t] = 2;
        }
    }
    st->first_player = (int8_t)sm_randrange(rng, (uint64_t)n); /* DMD-307 */
    st->active = st->first_player;
    if (OPT(cfg, O_CHARACTERS)) {
        st->revealed = 0;
        ask(st, ABILITY_CHOICE, 0);
        for (int i = 0; i < st->n_dealt[0]; i++) set_choice(st, A_ABILITY + st->dealt[0][i]);
    } else {
        st->revealed = 1;
        run(cfg, st, begin_turn(cfg, st));
    }
}

/* ---- queries of the contract -------------------------------------------------------------------------------------- */

static const char *dmd_configure(const NeConfig *cfg) {
    const int n = cfg->num_players;
    if (n < 2 || n > DMD_PLAYERS) return "dead_mans_draw_v0 takes 2 to 4 players";
    if (cfg->num_options != O_COUNT) return "dead_mans_draw_v0 takes 6 options (native_bridge.OPTIONS)";
    for (int i = 0; i < O_COUNT; i++) {
        int64_t v = cfg->options[i];
        int64_t high = i == O_VARIANT ? V_RANDOM : 1;
        if (i != O_SCORE_SCALE && (v < 0 || v > high)) return "an option outside its choices";
    }
    double scale;
    memcpy(&scale, &cfg->options[O_SCORE_SCALE], sizeof scale);
    if (!(scale >= 1e-9 && scale <= 1e300)) return "score_scale must be a positive finite number";
    if (cfg->num_actions != dmd_num_actions(n)) return "num_actions is not 94 + 11(n-1)";
    if (cfg->obs_size != dmd_obs_size(n)) return "obs_size is not 675 + 88n";
    if (cfg->max_decisions < 1) return "max_decisions must be at least 1";
    if (cfg->num_features != DMD_NUM_FEATURES) return "dead_mans_draw_v0 has 8 action features";
    return NULL;
}

static int dmd_is_terminal(const NeConfig *cfg, const void *state) {
    (void)cfg;
    return ((const DmdState *)state)->phase == GAME_OVER;
}

static int dmd_current_player(const NeConfig *cfg, const void *state) {
    (void)cfg;
    return ((const DmdState *)state)->decider;
}

static int dmd_legal_actions(const NeConfig *cfg, const void *state, int32_t *out) {
    (void)cfg;
    const DmdState *st = (const DmdState *)state;
    int k = 0;
    for (int w = 0; w < 2; w++)
        for (uint64_t m = st->choices[w]; m; m &= m - 1) out[k++] = 64 * w + __builtin_ctzll(m);
    return k;
}

static void dmd_scores(const NeConfig *cfg, const void *state, double *out) {
    const DmdState *st = (const DmdState *)state;
    for (int t = 0; t < N_OF(cfg); t++)
        out[t] = (double)(st->phase == GAME_OVER ? final_score(st, t) : dmd_live_score(st->variant, st->coll[t]));
}

static int dmd_winners(const NeConfig *cfg, const void *state, int32_t *out) {
    (void)cfg;
    const DmdState *st = (const DmdState *)state;
    if (st->phase != GAME_OVER) return 0;
    for (int i = 0; i < st->n_winners; i++) out[i] = st->winners[i];
    return st->n_winners;
}

static void dmd_returns(const NeConfig *cfg, const void *state, double *out) {
    const DmdState *st = (const DmdState *)state;
    const int n = N_OF(cfg);
    if (st->phase != GAME_OVER) {
        for (int t = 0; t < n; t++) out[t] = 0.0;
        return;
    }
    if (OPT(cfg, O_REWARD_MODE) == 0) { /* win */
        for (int t = 0; t < n; t++) {
            int won = 0;
            for (int i = 0; i < st->n_winners; i++) won |= st->winners[i] == t;
            out[t] = won ? 1.0 : -1.0;
        }
        return;
    }
    double scale;
    memcpy(&scale, &cfg->options[O_SCORE_SCALE], sizeof scale);
    /* DMD-1141 (D41): after a Sudden Death win the margins are of the live scores */
    int sudden = 0;
    if (st->variant == SUDDEN_DEATH)
        for (int i = 0; i < st->n_winners; i++)
            sudden |= dmd_live_score(st->variant, st->coll[st->winners[i]]) >= 50;
    int score[DMD_PLAYERS];
    for (int t = 0; t < n; t++) score[t] = sudden ? dmd_live_score(st->variant, st->coll[t]) : final_score(st, t);
    for (int t = 0; t < n; t++) {
        if (st->eliminated[t]) {
            out[t] = -1.0;
            continue;
        }
        int any = 0, best = 0;
        for (int u = 0; u < n; u++) {
            if (u == t || st->eliminated[u]) continue;
            if (!any || score[u] > best) best = score[u];
            any = 1;
        }
        if (!any) {
            out[t] = 1.0;
            continue;
        }
        double r = ((double)score[t] - (double)best) / scale;
        out[t] = r < -1.0 ? -1.0 : (r > 1.0 ? 1.0 : r);
    }
}

/* ---- dump / load -------------------------------------------------------------------------------------------------- */

#define DMD_MAX_DUMP 2048

static int dmd_dump(const NeConfig *cfg, const void *state, int64_t *out) {
    const DmdState *st = (const DmdState *)state;
    const int n = N_OF(cfg);
    int k = 0;
#define PUT(v) (out[k++] = (int64_t)(v))
#define PUT_LIST(items, len)                                                                                       \
    do {                                                                                                           \
        PUT(len);                                                                                                  \
        for (int i_ = 0; i_ < (len); i_++) PUT((items)[i_]);                                                       \
    } while (0)
    PUT(st->variant);
    PUT(st->phase);
    PUT(st->decider);
    PUT(st->active);
    PUT(st->first_player);
    {
        int32_t legal[128];
        int m = dmd_legal_actions(cfg, st, legal);
        PUT_LIST(legal, m);
    }
    PUT_LIST(st->draw, st->n_draw);
    PUT_LIST(st->discard, st->n_discard);
    for (int t = 0; t < n; t++) {
        PUT(__builtin_popcountll(st->coll[t]));
        for (uint64_t m = st->coll[t]; m; m &= m - 1) PUT(__builtin_ctzll(m));
    }
    PUT_LIST(st->removed, st->n_removed);
    PUT_LIST(st->row, st->n_row);
    PUT_LIST(st->hook_protected, st->n_hook);
    PUT(st->n_tasks);
    for (int i = 0; i < st->n_tasks; i++) {
        PUT(st->task_kind[i]);
        PUT(st->task_arg[i]);
    }
    PUT_LIST(st->offer, st->n_offer);
    PUT(st->hook_s1);
    PUT(st->plunder_target);
    PUT(st->plunder_remaining);
    for (int t = 0; t < n; t++) PUT_LIST(st->dealt[t], st->n_dealt[t]);
    for (int t = 0; t < n; t++) PUT(st->kept[t]);
    PUT(st->revealed);
    for (int a = 0; a < DMD_ABILITIES; a++) PUT(st->holder[a]);
    PUT(st->locker_target);
    for (int t = 0; t < n; t++) PUT_LIST(st->known[t], st->n_known[t]);
    for (int t = 0; t < n; t++) PUT(st->eliminated[t]);
    for (int t = 0; t < n; t++) PUT(st->turns_taken[t]);
    for (int t = 0; t < n; t++) PUT(st->busts[t]);
    PUT_LIST(st->turn_cards, st->n_turn);
    PUT(st->turn_busted);
    PUT(st->last_turn_player);
    PUT_LIST(st->last_turn_cards, st->n_last);
    PUT(st->last_turn_busted);
    PUT_LIST(st->winners, st->n_winners);
#undef PUT
#undef PUT_LIST
    return k;
}

/* The choices the phase asks in st (the _ask calls of the Python engine), into want; 0, or -1 when the phase
 * cannot be asked there. */
static int expected_choices(const NeConfig *cfg, const DmdState *st, uint64_t *want) {
    DmdState tmp;
    const int n = N_OF(cfg), a = st->active, d = st->decider;
    memcpy(&tmp, st, sizeof tmp);
    tmp.choices[0] = tmp.choices[1] = 0;
    switch (st->phase) {
    case ABILITY_CHOICE:
        for (int i = 0; i < st->n_dealt[d]; i++) set_choice(&tmp, A_ABILITY + st->dealt[d][i]);
        break;
    case LOCKER_TARGET:
        for (int k = 1; k < n; k++) set_choice(&tmp, A_LOCKER_TARGET + k);
        break;
    case LOCKER_ACCEPT:
        set_choice(&tmp, A_ACCEPT);
        set_choice(&tmp, A_DECLINE);
        break;
    case DRAW_OR_STOP:
        set_choice(&tmp, A_STOP);
        set_choice(&tmp, A_DRAW);
        break;
    case HOOK_SUIT:
    case NAVIGATOR_SELF:
        for (int s = 0; s < DMD_SUITS; s++)
            if ((st->coll[a] & dmd_suit_mask(s)) && !(st->phase == HOOK_SUIT && s == st->hook_s1))
                set_choice(&tmp, A_OWN_SUIT + s);
        break;
    case MAP_PICK:
        for (int i = 0; i < st->n_offer; i++) set_choice(&tmp, A_CARD + st->offer[i]);
        break;
    case MERMAID_PICK:
    case RAKE_PICK:
        for (int i = 0; i < st->n_row; i++) {
            int e = st->row[i];
            if (e != DMD_MARKER && (st->phase == RAKE_PICK || DMD_CARD_SUIT[e] != MERMAID)) set_choice(&tmp, A_CARD + e);
        }
        break;
    case CANNON_TARGET:
        cannon_targets(cfg, st, tmp.choices);
        break;
    case SWORD_TARGET:
        sword_targets(cfg, st, tmp.choices);
        break;
    case PLUNDER_PICK: {
        for (int j = 1; j < n; j++) {
            int t = (a + j) % n;
            if (st->eliminated[t] || !st->coll[t] || (st->plunder_target >= 0 && t != st->plunder_target)) continue;
            for (int s = 0; s < DMD_SUITS; s++)
                if (st->coll[t] & dmd_suit_mask(s)) set_choice(&tmp, target_action(cfg, a, t, s));
        }
        break;
    }
    default:
        return -1;
    }
    want[0] = tmp.choices[0];
    want[1] = tmp.choices[1];
    return 0;
}

typedef struct {
    const int64_t *data;
    int n, k;
    const char *why;
} Reader;

/* the next value, which must lie in [low, high]; else the reader fails (why set once) */
static int64_t take(Reader *r, int64_t low, int64_t high, const char *what) {
    if (r->why) return low;
    if (r->k >= r->n) {
        r->why = "the dump is too short";
        return low;
    }
    int64_t v = r->data[r->k++];
    if (v < low || v > high) {
        r->why = what;
        return low;
    }
    return v;
}

static int take_list(Reader *r, int8_t *items, int cap, int low, int high, const char *what) {
    int len = (int)take(r, 0, cap, what);
    for (int i = 0; i < len; i++) items[i] = (int8_t)take(r, low, high, what);
    return r->why ? 0 : len;
}

static int dmd_load(const NeConfig *cfg, void *state, const int64_t *data, int count, const char **why) {
    DmdState *st = (DmdState *)state;
    const int n = N_OF(cfg), na = dmd_num_actions(n), last_card = DMD_CARDS - 1;
    if (n < 2 || n > DMD_PLAYERS) {
        *why = "a player count outside 2..4";
        return -1;
    }
    Reader r = {data, count, 0, NULL};
    const int64_t turn_limit = cfg->max_decisions < INT32_MAX ? cfg->max_decisions : INT32_MAX;
    st->variant = (int8_t)take(&r, 0, UNDERTOW, "variant");
    st->phase = (int8_t)take(&r, 0, GAME_OVER, "phase");
    st->decider = (int8_t)take(&r, -1, n - 1, "decider");
    st->active = (int8_t)take(&r, 0, n - 1, "active");
    st->first_player = (int8_t)take(&r, 0, n - 1, "first_player");
    uint64_t choices[2] = {0, 0};
    {
        int len = (int)take(&r, 0, na, "choices (length)");
        int prev = -1;
        for (int i = 0; i < len; i++) {
            int a = (int)take(&r, 0, na - 1, "choices");
            if (!r.why && a <= prev) r.why = "choices are not ascending";
            prev = a;
            if (!r.why) choices[a >> 6] |= 1ULL << (a & 63);
        }
    }
    st->n_draw = (int8_t)take_list(&r, st->draw, 60, 0, last_card, "draw_pile");
    st->n_discard = (int8_t)take_list(&r, st->discard, 60, 0, last_card, "discard");
    for (int t = 0; t < n; t++) {
        int len = (int)take(&r, 0, 60, "collections (length)");
        st->coll[t] = 0;
        for (int i = 0; i < len; i++) {
            int c = (int)take(&r, 0, last_card, "collections");
            if (!r.why && ((st->coll[t] >> c) & 1)) r.why = "collections: a card twice";
            st->coll[t] |= 1ULL << c;
        }
    }
    st->n_removed = (int8_t)take_list(&r, st->removed, 60, 0, last_card, "removed");
    st->n_row = (int8_t)take_list(&r, st->row, 12, DMD_MARKER, last_card, "row");
    st->n_hook = (int8_t)take_list(&r, st->hook_protected, 60, 0, last_card, "hook_protected");
    st->n_tasks = (int8_t)take(&r, 0, 60, "tasks (length)");
    for (int i = 0; i < st->n_tasks && !r.why; i++) {
        st->task_kind[i] = (int8_t)take(&r, FORCED_DRAW, SECOND_HOOK, "tasks (kind)");
        if (st->task_kind[i] == FORCED_DRAW)
            st->task_arg[i] = (int8_t)take(&r, 1, DMD_CARDS, "tasks (forced draws)");
        else
            st->task_arg[i] = (int8_t)take(&r, 0, DMD_SUITS - 1, "tasks (suit)");
    }
    st->n_offer = (int8_t)take_list(&r, st->offer, 60, 0, last_card, "offer");
    st->hook_s1 = (int8_t)take(&r, -1, DMD_SUITS - 1, "hook_s1");
    st->plunder_target = (int8_t)take(&r, -1, n - 1, "plunder_target");
    st->plunder_remaining = (int8_t)take(&r, 0, DMD_CARDS, "plunder_remaining");
    for (int t = 0; t < n; t++) {
        st->n_dealt[t] = (int8_t)take_list(&r, st->dealt[t], 2, 0, DMD_ABILITIES - 1, "dealt");
        if (st->n_dealt[t] == 2 && st->dealt[t][0] >= st->dealt[t][1] && !r.why) r.why = "dealt is not sorted";
    }
    for (int t = 0; t < n; t++) st->kept[t] = (int8_t)take(&r, -1, DMD_ABILITIES - 1, "kept");
    st->revealed = (int8_t)take(&r, 0, 1, "revealed");
    for (int a = 0; a < DMD_ABILITIES; a++) st->holder[a] = (int8_t)take(&r, -1, n - 1, "holder");
    st->locker_target = (int8_t)take(&r, -1, n - 1, "locker_target");
    for (int t = 0; t < n; t++) st->n_known[t] = (int8_t)take_list(&r, st->known[t], 3, 0, last_card, "known");
    for (int t = 0; t < n; t++) st->eliminated[t] = (int8_t)take(&r, 0, 1, "eliminated");
    for (int t = 0; t < n; t++) st->turns_taken[t] = (int32_t)take(&r, 0, turn_limit, "turns_taken");
    for (int t = 0; t < n; t++) st->busts[t] = (int32_t)take(&r, 0, st->turns_taken[t], "busts");
    st->n_turn = (int8_t)take_list(&r, st->turn_cards, DMD_CAP, 0, last_card, "turn_cards");
    st->turn_busted = (int8_t)take(&r, 0, 1, "turn_busted");
    st->last_turn_player = (int8_t)take(&r, -1, n - 1, "last_turn_player");
    st->n_last = (int8_t)take_list(&r, st->last_turn_cards, DMD_CAP, 0, last_card, "last_turn_cards");
    st->last_turn_busted = (int8_t)take(&r, 0, 1, "last_turn_busted");
    st->n_winners = (int8_t)take_list(&r, st->winners, n, 0, n - 1, "winner_seats");
    if (!r.why && r.k != r.n) r.why = "the dump is too long";
    if (r.why) goto fail;

    /* consistency: what the rules rely on (DmdState.check_invariants, _check_ranges) */
    if (OPT(cfg, O_VARIANT) == V_RANDOM ? st->variant == V_NONE : st->variant != OPT(cfg, O_VARIANT)) {
        r.why = "variant differs from the variant option";
        goto fail;
    }
    {
        /* card conservation (DMD-301): every card in play exactly once */
        const int mv = (int)OPT(cfg, O_MERMAID_VARIANT);
        const uint64_t deck = ((1ULL << DMD_CARDS) - 1) & ~(mv ? (3ULL << 48) : (3ULL << 42));
        uint64_t seen = 0;
        int dup = 0;
#define SEE(c)                                                                                                     \
    do {                                                                                                           \
        uint64_t b_ = 1ULL << (c);                                                                                 \
        dup |= (seen & b_) != 0;                                                                                   \
        seen |= b_;                                                                                                \
    } while (0)
        for (int i = 0; i < st->n_draw; i++) SEE(st->draw[i]);
        for (int i = 0; i < st->n_discard; i++) SEE(st->discard[i]);
        for (int i = 0; i < st->n_removed; i++) SEE(st->removed[i]);
        for (int t = 0; t < n; t++) {
            dup |= (seen & st->coll[t]) != 0;
            seen |= st->coll[t];
        }
        if (st->phase == MAP_PICK || st->phase == LOCKER_ACCEPT) {
            for (int i = 0; i < st->n_offer; i++) SEE(st->offer[i]);
        } else if (st->n_offer && st->phase != GAME_OVER) {
            r.why = "offer holds cards outside a Map pick or a Locker offer";
            goto fail;
        }
        int markers = 0;
        for (int i = 0; i < st->n_row; i++) {
            if (st->row[i] == DMD_MARKER)
                markers++;
            else if (st->phase != LOCKER_ACCEPT)
                SEE(st->row[i]);
        }
#undef SEE
        if (dup || seen != deck) {
            r.why = "card conservation: the cards in play are not each in one place";
            goto fail;
        }
        if (markers > 1) {
            r.why = "row holds two anchor markers";
            goto fail;
        }
        if (st->phase == LOCKER_ACCEPT) { /* the row as it stood at the bust: cards in play, once each */
            uint64_t row = 0;
            for (int i = 0; i < st->n_row; i++) {
                int e = st->row[i];
                if (e == DMD_MARKER) continue;
                if (((row >> e) & 1) || !((deck >> e) & 1)) {
                    r.why = "row repeats a card";
                    goto fail;
                }
                row |= 1ULL << e;
            }
        }
    }
    for (int t = 0; t < n; t++)
        for (int i = 0; i < st->n_known[t]; i++) {
            int depth = index_of(st->draw, st->n_draw, st->known[t][i]);
            if (depth < 0 || depth < st->n_draw - 3 || index_of(st->known[t], i, st->known[t][i]) >= 0) {
                r.why = "known holds a card not among the draw pile's top three, or twice";
                goto fail;
            }
        }
    {
        uint64_t dealt = 0;
        for (int t = 0; t < n; t++)
            for (int i = 0; i < st->n_dealt[t]; i++) {
                if ((dealt >> st->dealt[t][i]) & 1) {
                    r.why = "dealt: an ability card dealt twice";
                    goto fail;
                }
                dealt |= 1ULL << st->dealt[t][i];
            }
        /* as DmdState._check_ranges: a kept ability was dealt to its seat (hand-built positions, as the worked
         * examples', may deal one card or none, or keep none; without characters anything goes) */
        const int mv = (int)OPT(cfg, O_MERMAID_VARIANT);
        if (OPT(cfg, O_CHARACTERS) && !mv && ((dealt >> SIREN) & 1)) {
            r.why = "dealt: Siren outside the mermaid variant";
            goto fail;
        }
        for (int t = 0; t < n; t++) {
            int k = st->kept[t];
            if (OPT(cfg, O_CHARACTERS) && k >= 0 && index_of(st->dealt[t], st->n_dealt[t], k) < 0) {
                r.why = "kept: not an ability dealt to the seat";
                goto fail;
            }
        }
        if (!OPT(cfg, O_CHARACTERS) && !st->revealed) {
            r.why = "revealed: false without characters";
            goto fail;
        }
        for (int a = 0; a < DMD_ABILITIES; a++) {
            int h = st->holder[a];
            if (h >= 0 && (st->kept[h] != a || st->eliminated[h] || !st->revealed)) {
                r.why = "holder: not the kept ability of a seat in the game";
                goto fail;
            }
        }
    }
    if (st->phase != GAME_OVER && st->phase != LOCKER_ACCEPT) { /* an unbusted row repeats no suit (value) */
        int keys = 0;
        for (int i = 0; i < st->n_row; i++) {
            int e = st->row[i];
            if (e == DMD_MARKER) continue;
            int key = st->variant == UNCHARTED_WATERS ? DMD_CARD_VALUE[e] : DMD_CARD_SUIT[e];
            if ((keys >> key) & 1) {
                r.why = "row: an unbusted row repeats a suit (value)";
                goto fail;
            }
            keys |= 1 << key;
        }
    }
    for (int i = 0; i < st->n_tasks; i++)
        if (st->task_kind[i] == FORCED_DRAW && st->task_arg[i] > 4) {
            r.why = "tasks: more than four forced draws";
            goto fail;
        }
    {
        int alive = 0;
        for (int t = 0; t < n; t++) alive += !st->eliminated[t];
        if (!alive) {
            r.why = "every seat eliminated";
            goto fail;
        }
    }
    if (st->phase == GAME_OVER) {
        if (st->decider != -1 || choices[0] || choices[1] || st->n_row || st->n_tasks || st->n_hook) {
            r.why = "a finished game with a decision or a row";
            goto fail;
        }
    } else {
        if (st->n_winners) {
            r.why = "winners in a running game";
            goto fail;
        }
        if (st->decider < 0 || st->eliminated[st->decider] || st->eliminated[st->active]) {
            r.why = "decider: not a seat in the game";
            goto fail;
        }
        const int p = st->phase;
        if (p == ABILITY_CHOICE ? (st->revealed || !OPT(cfg, O_CHARACTERS) || st->kept[st->decider] >= 0)
                                : (p != LOCKER_TARGET && p != LOCKER_ACCEPT && st->decider != st->active)) {
            r.why = "decider: not the seat this phase asks";
            goto fail;
        }
        if ((p == LOCKER_TARGET || p == LOCKER_ACCEPT) && st->holder[LOCKER] != st->decider) {
            r.why = "decider: not the Locker holder";
            goto fail;
        }
        if (p == PLUNDER_PICK && st->plunder_remaining < 1) {
            r.why = "a Plunder pick with none remaining";
            goto fail;
        }
        if (p == PLUNDER_PICK && st->plunder_target == st->active) {
            r.why = "plunder_target: the active player";
            goto fail;
        }
        uint64_t want[2];
        if (expected_choices(cfg, st, want) < 0 || want[0] != choices[0] || want[1] != choices[1] ||
            !(choices[0] | choices[1])) {
            r.why = "choices: not the decision the phase asks";
            goto fail;
        }
    }
    st->choices[0] = choices[0];
    st->choices[1] = choices[1];
    return 0;
fail:
    *why = r.why;
    return -1;
}

const NativeEngine dmd_engine = {
    .game_id = "dead_mans_draw_v0",
    .state_size = sizeof(DmdState),
    .max_actions = 128,
    .max_dump = DMD_MAX_DUMP,
    .configure = dmd_configure,
    .init = dmd_init,
    .is_terminal = dmd_is_terminal,
    .current_player = dmd_current_player,
    .legal_actions = dmd_legal_actions,
    .apply = dmd_apply,
    .returns = dmd_returns,
    .scores = dmd_scores,
    .winners = dmd_winners,
    .observe = dmd_observe,
    .resample_hidden = dmd_resample_hidden,
    .heuristic = dmd_heuristic,
    .action_features = dmd_action_features,
    .dump = dmd_dump,
    .load = dmd_load,
};
