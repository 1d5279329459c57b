/* Dead Man's Draw's heuristic bot and action features over a seat's observation and legal actions, in pure C
 * (no Python API): what the compiled twins (bot.c, features.c: dmd_act, dmd_features, which read a Python spec
 * and buffers, dmd.h) and the compiled engine (observe.c: dmd_engine's heuristic and action_features) share.
 * The estimates (score, bank, bust cost, draw total, target loss) are the twins of
 * pirate_envs.games.dead_mans_draw.heuristic.HeuristicPolicy's helpers, which action_features.py reads as well;
 * bot_core.c holds the decision (HeuristicPolicy.act) and the features (action_features_python).
 *
 * ``sp`` and the tables are HeuristicPolicy.native_spec (the order of the B_* enum): read from the Python tuple
 * by the twins (dmd.h), built from the C constants by the engine (observe.c). Every sum is taken in the order
 * the Python code takes it, so the doubles agree bit for bit, and every ``max(legal, key=...)`` keeps the first
 * of equal values, as Python's max does. An input the bot cannot read (a target on an empty stack, an empty
 * draw pile) makes a function return -1 with *d->why naming it.
 */
#ifndef PIRATE_ENVS_DMD_BOT_CORE_H
#define PIRATE_ENVS_DMD_BOT_CORE_H

#include <math.h>
#include <stdint.h>
#include <string.h>

enum {
    B_SIZE, B_N, B_PHASE, B_NUM_PHASES, B_CONFIG, B_NUM_VARIANTS, B_MY_COLLECTION, B_ROW_CARDS, B_ROW_POSITION,
    B_MARKER_POSITION, B_DRAW_PILE, B_KNOWN_TOP, B_SCORES, B_ELIMINATED, B_NUM_CARDS, B_NUM_SUITS,
    /* suits */
    B_ANCHOR, B_CHEST, B_KEY, B_MERMAID,
    /* variants */
    B_GRAND_SLAM, B_SUDDEN_DEATH, B_UNCHARTED_WATERS, B_PIRI_REIS, B_UNDERTOW,
    /* phases */
    B_ABILITY_CHOICE, B_LOCKER_TARGET, B_DRAW_OR_STOP, B_CANNON_TARGET, B_NAVIGATOR_SELF, B_SWORD_TARGET,
    B_HOOK_SUIT, B_MAP_PICK, B_MERMAID_PICK, B_RAKE_PICK, B_PLUNDER_PICK, B_LOCKER_ACCEPT,
    /* actions */
    B_NUM_ACTIONS, B_STOP, B_DRAW, B_OWN_SUIT_BASE, B_CARD_BASE, B_ABILITY_BASE, B_NUM_ABILITIES, B_ACCEPT,
    B_LOCKER_TARGET_BASE, B_TARGET_BASE,
    B_INTS, /* the ints end here */
    B_CARD_SUIT = B_INTS, B_CARD_VALUE, B_ABILITY_RANK, B_BONUS, B_HALF_PULL,
    B_COUNT
};

#define MAX_CARDS 64
#define MAX_SUITS 16
#define MAX_PLAYERS 8
#define MAX_ACTIONS 256

typedef struct {
    long sp[B_INTS];
    unsigned char suit[MAX_CARDS], value[MAX_CARDS], rank[MAX_CARDS];
    double bonus[MAX_SUITS], half_pull[MAX_SUITS];
    const char **why; /* where a failing function names the problem */
    const float *obs;
    long phase, variant;
    /* the seat's cards, in card order (row: in row order, the anchor marker as -1 among the entries) */
    int n_own, own[MAX_CARDS];
    int n_entries, entries[MAX_CARDS + 1];
    int n_row, row[MAX_CARDS];
    int n_pile, pile[MAX_CARDS];
    int known[3];
    int n_legal, legal[MAX_ACTIONS];
    /* the collection summarised (HeuristicPolicy._my_base): its total (Piri Reis) or top value per suit */
    long mine_total, mine_top[MAX_SUITS];
    double own_score;
    /* the collection plus the row (HeuristicPolicy._row_summary) */
    long raw, top[MAX_SUITS], fill[MAX_SUITS];
    double row_bonus[MAX_SUITS];
} Dmd;

static inline int dmd_fail(const Dmd *d, const char *what) {
    *d->why = what;
    return -1;
}

/* The first entry of the one-hot field at ``start`` that is set, else ``otherwise`` (heuristic._first). */
static inline int first_set(const float *obs, long start, long size, int otherwise) {
    for (long i = 0; i < size; i++)
        if (obs[start + i] != 0.0f) return (int)i;
    return otherwise;
}

static inline int set_ids(const float *obs, long start, long size, int *found) {
    int n = 0;
    for (long i = 0; i < size; i++)
        if (obs[start + i] != 0.0f) found[n++] = (int)i;
    return n;
}

/* Reads the observation and the legal actions (HeuristicPolicy._read, with its pile, known and legal actions);
 * d->sp and the tables are set. The observation is read in place (kept as d->obs). */
static inline void dmd_read(Dmd *d, const float *obs, const int *legal, int n_legal) {
    const long *sp = d->sp, nc = sp[B_NUM_CARDS];
    d->n_legal = n_legal;
    memcpy(d->legal, legal, sizeof(int) * (size_t)n_legal);
    d->obs = obs;
    d->phase = first_set(obs, sp[B_PHASE], sp[B_NUM_PHASES], 0);
    d->variant = first_set(obs, sp[B_CONFIG], sp[B_NUM_VARIANTS], 0);
    d->n_own = set_ids(obs, sp[B_MY_COLLECTION], nc, d->own);
    /* the row: its cards by position, the marker (position > 0) among them, ties by card id (marker -1) */
    int cards[MAX_CARDS];
    double positions[MAX_CARDS + 1];
    int n_cards = set_ids(obs, sp[B_ROW_CARDS], nc, cards);
    int n = 0;
    for (int i = 0; i < n_cards; i++) {
        positions[n] = (double)obs[sp[B_ROW_POSITION] + cards[i]];
        d->entries[n++] = cards[i];
    }
    double marker = (double)obs[sp[B_MARKER_POSITION]];
    if (marker > 0) {
        positions[n] = marker;
        d->entries[n++] = -1;
    }
    for (int i = 1; i < n; i++) { /* insertion sort on (position, card) */
        double p = positions[i];
        int e = d->entries[i], j = i - 1;
        while (j >= 0 && (positions[j] > p || (positions[j] == p && d->entries[j] > e))) {
            positions[j + 1] = positions[j];
            d->entries[j + 1] = d->entries[j];
            j--;
        }
        positions[j + 1] = p;
        d->entries[j + 1] = e;
    }
    d->n_entries = n;
    d->n_row = 0;
    for (int i = 0; i < n; i++)
        if (d->entries[i] >= 0) d->row[d->n_row++] = d->entries[i];
    d->n_pile = set_ids(obs, sp[B_DRAW_PILE], nc, d->pile);
    for (int depth = 0; depth < 3; depth++) d->known[depth] = first_set(obs, sp[B_KNOWN_TOP] + nc * depth, nc, -1);
}


static inline double bend(const Dmd *d, long s) {
    if (d->variant == d->sp[B_SUDDEN_DEATH] && s >= 50)
        s += 100;
    else if (d->variant == d->sp[B_UNDERTOW] && s > 60)
        s -= 100;
    return (double)s;
}

static inline double bend_tops(const Dmd *d, const long *top) {
    long s = 0, empty = 0;
    for (long k = 0; k < d->sp[B_NUM_SUITS]; k++) {
        s += top[k];
        empty += top[k] == 0;
    }
    if (d->variant == d->sp[B_GRAND_SLAM]) s -= 5 * empty;
    return bend(d, s);
}

static inline int piri(const Dmd *d) {
    return d->variant == d->sp[B_PIRI_REIS];
}

static inline void raise_tops(const Dmd *d, long *top, const int *cards, int n) {
    for (int i = 0; i < n; i++) {
        long v = d->value[cards[i]];
        if (v > top[d->suit[cards[i]]]) top[d->suit[cards[i]]] = v;
    }
}

/* score([*own collection, *cards]) (HeuristicPolicy._score_mine) */
static inline double score_mine(const Dmd *d, const int *cards, int n) {
    if (piri(d)) {
        long s = d->mine_total;
        for (int i = 0; i < n; i++) s += d->value[cards[i]];
        return bend(d, s);
    }
    long top[MAX_SUITS];
    memcpy(top, d->mine_top, sizeof top);
    raise_tops(d, top, cards, n);
    return bend_tops(d, top);
}

static inline double gain(const Dmd *d, const int *cards, int n) {
    return score_mine(d, cards, n) - d->own_score;
}

static inline int row_has(const Dmd *d, long suit) {
    for (int i = 0; i < d->n_row; i++)
        if (d->suit[d->row[i]] == suit) return 1;
    return 0;
}

/* The collection alone (_my_base, _own_score) and with the row (_row_summary): S before the bends, the top
 * value per suit, what a first card of a suit takes back of Grand Slam's penalty, per suit the Key+Chest
 * bonus a card of it would make due. */
static inline void summarise(Dmd *d) {
    const long ns = d->sp[B_NUM_SUITS];
    d->mine_total = 0;
    memset(d->mine_top, 0, sizeof d->mine_top);
    if (piri(d))
        for (int i = 0; i < d->n_own; i++) d->mine_total += d->value[d->own[i]];
    else
        raise_tops(d, d->mine_top, d->own, d->n_own);
    d->own_score = score_mine(d, NULL, 0);
    memset(d->fill, 0, sizeof d->fill);
    if (piri(d)) {
        d->raw = d->mine_total;
        for (int i = 0; i < d->n_row; i++) d->raw += d->value[d->row[i]];
    } else {
        memcpy(d->top, d->mine_top, sizeof d->top);
        raise_tops(d, d->top, d->row, d->n_row);
        long raw = 0, empty = 0;
        for (long k = 0; k < ns; k++) {
            raw += d->top[k];
            empty += d->top[k] == 0;
        }
        if (d->variant == d->sp[B_GRAND_SLAM]) {
            raw -= 5 * empty;
            for (long k = 0; k < ns; k++) d->fill[k] = d->top[k] == 0 ? 5 : 0;
        }
        d->raw = raw;
    }
    int has_key = row_has(d, d->sp[B_KEY]), has_chest = row_has(d, d->sp[B_CHEST]);
    double due = 1.2 * (d->n_row + 1);
    for (long k = 0; k < ns; k++) d->row_bonus[k] = 0.0;
    if (has_key && has_chest)
        for (long k = 0; k < ns; k++) d->row_bonus[k] = due;
    else if (has_key)
        d->row_bonus[d->sp[B_CHEST]] = due;
    else if (has_chest)
        d->row_bonus[d->sp[B_KEY]] = due;
}

/* HeuristicPolicy.bonus_due: whether the row, with a card of ``extra_suit`` added (-1: none), holds a Key
 * and a Chest */
static inline int bonus_due(const Dmd *d, long extra_suit) {
    const long key = d->sp[B_KEY], chest = d->sp[B_CHEST];
    return (extra_suit == key || row_has(d, key)) && (extra_suit == chest || row_has(d, chest));
}

/* HeuristicPolicy.bank_value(row) */
static inline double bank_value(const Dmd *d) {
    return gain(d, d->row, d->n_row) + (bonus_due(d, -1) ? 1.2 * d->n_row : 0.0);
}

/* HeuristicPolicy.bust_cost: of ``bank``, what a bust would lose (the cards from the rightmost Anchor or
 * marker on; every row card where there is none) */
static inline double bust_cost(const Dmd *d, double bank) {
    int p = -1;
    for (int i = d->n_entries - 1; i >= 0; i--) {
        int e = d->entries[i];
        if (e < 0 || d->suit[e] == d->sp[B_ANCHOR]) {
            p = i;
            break;
        }
    }
    unsigned char lost[MAX_CARDS] = {0};
    if (p >= 0) {
        for (int i = p; i < d->n_entries; i++)
            if (d->entries[i] >= 0) lost[d->entries[i]] = 1;
    } else {
        for (int i = 0; i < d->n_row; i++) lost[d->row[i]] = 1;
    }
    int kept[MAX_CARDS], n = 0;
    for (int i = 0; i < d->n_row; i++)
        if (!lost[d->row[i]]) kept[n++] = d->row[i];
    return bank - gain(d, kept, n);
}

static inline long key_of(const Dmd *d, int card) {
    return d->variant == d->sp[B_UNCHARTED_WATERS] ? d->value[card] : d->suit[card];
}

/* HeuristicPolicy.busts(card): whether the card would bust the row (DMD-505c) */
static inline int busts(const Dmd *d, int card) {
    for (int i = 0; i < d->n_row; i++)
        if (key_of(d, d->row[i]) == key_of(d, card)) return 1;
    return 0;
}

/* HeuristicPolicy.next_draws: the peeked top card, else the pile less the cards peeked deeper (all of it
 * where that leaves none) */
static inline int next_draws(const Dmd *d, int *out) {
    if (d->known[0] >= 0) {
        out[0] = d->known[0];
        return 1;
    }
    int n = 0;
    for (int i = 0; i < d->n_pile; i++)
        if (d->pile[i] != d->known[1] && d->pile[i] != d->known[2]) out[n++] = d->pile[i];
    if (n == 0) {
        memcpy(out, d->pile, sizeof(int) * (size_t)d->n_pile);
        n = d->n_pile;
    }
    return n;
}

/* HeuristicPolicy.draw_total: the summed value of the next draw over ``pile`` and how many of its cards bust */
static inline double draw_total(const Dmd *d, const int *pile, int n_pile, double bank, double lost_value,
                         const double *pull, int *n_busts) {
    const long ns = d->sp[B_NUM_SUITS];
    double flat[MAX_SUITS];
    double unchanged = bend(d, d->raw) - d->own_score;
    for (long k = 0; k < ns; k++) flat[k] = unchanged + d->row_bonus[k] - bank + pull[k];
    double total = 0.0;
    int count = 0;
    for (int i = 0; i < n_pile; i++) {
        int c = pile[i];
        if (busts(d, c)) {
            count++;
            total -= lost_value;
            continue;
        }
        long suit = d->suit[c], v = d->value[c];
        if (piri(d))
            total += bend(d, d->raw + v) - d->own_score + d->row_bonus[suit] - bank + pull[suit];
        else if (v > d->top[suit])
            total += bend(d, d->raw + v - d->top[suit] + d->fill[suit]) - d->own_score + d->row_bonus[suit] - bank +
                     pull[suit];
        else
            total += flat[suit];
    }
    *n_busts = count;
    return total;
}

/* HeuristicPolicy.row_gain(card): what ``card`` adds to the collection plus the row */
static inline double row_gain(const Dmd *d, int card) {
    long s, v = d->value[card];
    if (piri(d)) {
        s = d->raw + v;
    } else {
        long held = d->top[d->suit[card]];
        s = v > held ? d->raw + v - held + d->fill[d->suit[card]] : d->raw;
    }
    return bend(d, s) - bend(d, d->raw);
}

/* HeuristicPolicy.top_card_loss: the top card of ``suit`` in the collection of the seat at offset ``k``
 * (its stack's last card: ids ascend with values within a suit) and what losing it costs that seat */
static inline int top_card_loss(const Dmd *d, long k, long suit, int *card, double *loss) {
    const long nc = d->sp[B_NUM_CARDS], ns = d->sp[B_NUM_SUITS];
    if (k < 0 || k >= d->sp[B_N] || suit < 0 || suit >= ns) return dmd_fail(d, "a target outside the seats or suits");
    long values[MAX_SUITS] = {0}, seconds[MAX_SUITS] = {0}, total = 0;
    int cards[MAX_SUITS];
    for (long i = 0; i < ns; i++) cards[i] = -1;
    const float *field = d->obs + d->sp[B_MY_COLLECTION] + nc * k;
    for (long c = 0; c < nc; c++) {
        if (field[c] == 0.0f) continue;
        long t = d->suit[c];
        cards[t] = (int)c;
        seconds[t] = values[t];
        values[t] = d->value[c];
        total += d->value[c];
    }
    if (cards[suit] < 0) return dmd_fail(d, "no card of the targeted suit"); /* the Python bot would index card -1 */
    *card = cards[suit];
    if (piri(d)) {
        *loss = bend(d, total) - bend(d, total - d->value[*card]);
    } else {
        double score = bend_tops(d, values);
        values[suit] = seconds[suit];
        *loss = score - bend_tops(d, values);
    }
    return 0;
}

/* a seat's live score in points, as the Python bot rounds it: (float32 entry * 100).round() */
static inline double score_of(const Dmd *d, long k) {
    float x = d->obs[d->sp[B_SCORES] + k] * 100.0f;
    return (double)nearbyintf(x);
}

/* HeuristicPolicy.leader_weight(k): 2 for a seat at least as high as every opponent still in, else 1 */
static inline double leader_weight(const Dmd *d, long k) {
    double best = 0.0;
    int any = 0;
    for (long j = 1; j < d->sp[B_N]; j++) {
        if (d->obs[d->sp[B_ELIMINATED] + j] != 0.0f) continue;
        double s = score_of(d, j);
        if (!any || s > best) best = s;
        any = 1;
    }
    if (!any) return 1.0; /* nobody leads: inf */
    return score_of(d, k) >= best ? 2.0 : 1.0;
}

static inline int target_phase(const Dmd *d) {
    const long *sp = d->sp, p = d->phase;
    return p == sp[B_CANNON_TARGET] || p == sp[B_SWORD_TARGET] || p == sp[B_PLUNDER_PICK];
}

static inline int own_suit_phase(const Dmd *d) {
    return d->phase == d->sp[B_HOOK_SUIT] || d->phase == d->sp[B_NAVIGATOR_SELF];
}

static inline int card_phase(const Dmd *d) {
    const long *sp = d->sp, p = d->phase;
    return p == sp[B_MAP_PICK] || p == sp[B_MERMAID_PICK] || p == sp[B_RAKE_PICK];
}

/* A target action (DMD-1048): the seat offset ``k`` and ``suit`` it names, the top card there and what
 * losing it costs that seat (HeuristicPolicy._target's divmod, then top_card_loss); -1 on an error. */
static inline int target_loss(const Dmd *d, int a, long *k, long *suit, int *card, double *loss) {
    const long base = d->sp[B_TARGET_BASE], ns = d->sp[B_NUM_SUITS];
    if (a < base) return dmd_fail(d, "a target action below the target actions");
    *k = (a - base) / ns + 1;
    *suit = (a - base) % ns;
    return top_card_loss(d, *k, *suit, card, loss);
}

/* bot_core.c: HeuristicPolicy.act (the action, or -1 where the Python bot picks at random; -1 returned on an
 * error) and action_features_python (rows: num_actions x 8 floats, zero-filled by the caller) */
int dmd_bot_decide(Dmd *d, double margin, long *action);
int dmd_bot_features(Dmd *d, float *rows, double scale);

#endif
