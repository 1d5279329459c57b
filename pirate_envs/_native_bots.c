/* Compiled twins of the heuristic bots' hottest decisions (part of pirate_envs._native, optional).
 *
 * Like the encoders in _native.c, each function here has a pure-Python twin that stays the reference:
 * tests/test_native.py compares them decision for decision and bit for bit, and a function that meets a
 * value it does not expect raises (ValueError, TypeError) so that the caller runs the Python code.
 *
 * Dead Man's Draw's draw-or-stop decision, read from the seat's observation vector alone, as
 * pirate_envs.games.dead_mans_draw.heuristic.HeuristicPolicy reads it:
 *
 * dmd_should_draw(obs, spec, margin): the twin of HeuristicPolicy._read + should_draw; None where the
 *     observation's phase is not DRAW_OR_STOP.
 * dmd_draw_features(out, obs, spec, channels, scale): the twin of action_features._draw_or_stop: writes
 *     the STOP and DRAW rows of the zero-filled float32 (actions, channels) feature matrix ``out``, values
 *     in points times ``scale``; False where the phase is not DRAW_OR_STOP.
 *
 * ``spec`` is the tuple HeuristicPolicy.native_spec builds once per game (the order of the B_* enum).
 * Every sum is taken in the order the Python code takes it, so the doubles agree bit for bit.
 */
#define PY_SSIZE_T_CLEAN
#include <Python.h>

enum {
    B_SIZE, B_PHASE, B_NUM_PHASES, B_DRAW_OR_STOP, B_CONFIG, B_NUM_VARIANTS, B_MY_COLLECTION, B_ROW_CARDS,
    B_ROW_POSITION, B_MARKER_POSITION, B_DRAW_PILE, B_KNOWN_TOP, B_NUM_CARDS, B_NUM_SUITS, B_ANCHOR, B_CHEST,
    B_KEY, B_GRAND_SLAM, B_SUDDEN_DEATH, B_UNCHARTED_WATERS, B_PIRI_REIS, B_UNDERTOW, B_STOP, B_DRAW,
    B_NUM_ACTIONS, B_INTS, /* the ints end here */
    B_CARD_SUIT = B_INTS, B_CARD_VALUE, B_HALF_PULL,
    B_COUNT
};

#define MAX_CARDS 64
#define MAX_SUITS 16

typedef struct {
    long sp[B_INTS];
    unsigned char suit[MAX_CARDS], value[MAX_CARDS];
    double half_pull[MAX_SUITS];
    long variant;
    /* the seat's cards, in card order (row: in row order, the anchor marker as -1 among the entries) */
    int n_own, own[MAX_CARDS];
    int n_entries, entries[MAX_CARDS + 1];
    int n_row, row[MAX_CARDS];
    int n_pile, pile[MAX_CARDS];
    int known[3];
    /* the collection summarised (HeuristicPolicy._my_base): its total (Piri Reis) or top value per suit */
    long mine_total, mine_top[MAX_SUITS];
    double own_score;
} Dmd;

static int spec_error(const char *what) {
    PyErr_Format(PyExc_ValueError, "dmd bot twin: %s", what);
    return -1;
}

static int read_spec(Dmd *d, PyObject *spec) {
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != B_COUNT) return spec_error("spec of the wrong length");
    for (int i = 0; i < B_INTS; i++) {
        PyObject *o = PyTuple_GET_ITEM(spec, i);
        if (!PyLong_Check(o)) {
            PyErr_SetString(PyExc_TypeError, "dmd bot twin: spec entries before the card tables must be ints");
            return -1;
        }
        d->sp[i] = PyLong_AsLong(o);
        if (d->sp[i] == -1 && PyErr_Occurred()) return -1;
    }
    long nc = d->sp[B_NUM_CARDS], ns = d->sp[B_NUM_SUITS];
    if (nc < 1 || nc > MAX_CARDS || ns < 1 || ns > MAX_SUITS) return spec_error("too many cards or suits");
    PyObject *suit = PyTuple_GET_ITEM(spec, B_CARD_SUIT), *value = PyTuple_GET_ITEM(spec, B_CARD_VALUE);
    PyObject *pull = PyTuple_GET_ITEM(spec, B_HALF_PULL);
    if (!PyBytes_Check(suit) || !PyBytes_Check(value) || PyBytes_GET_SIZE(suit) != nc || PyBytes_GET_SIZE(value) != nc)
        return spec_error("card tables must be bytes of one entry per card");
    memcpy(d->suit, PyBytes_AS_STRING(suit), (size_t)nc);
    memcpy(d->value, PyBytes_AS_STRING(value), (size_t)nc);
    for (long c = 0; c < nc; c++)
        if (d->suit[c] >= ns) return spec_error("a card's suit outside the suits");
    if (!PyTuple_Check(pull) || PyTuple_GET_SIZE(pull) != ns)
        return spec_error("the pulls must be a tuple of one float per suit");
    for (long s = 0; s < ns; s++) {
        PyObject *o = PyTuple_GET_ITEM(pull, s);
        if (!PyFloat_Check(o)) return spec_error("the pulls must be floats");
        d->half_pull[s] = PyFloat_AS_DOUBLE(o);
    }
    return 0;
}

/* The first entry of the one-hot field at ``start`` that is set, else ``otherwise`` (heuristic._first). */
static int first_set(const float *obs, long start, long size, int otherwise) {
    for (long i = 0; i < size; i++)
        if (obs[start + i] != 0.0f) return (int)i;
    return otherwise;
}

static int set_ids(const float *obs, long start, long size, int *found) {
    int n = 0;
    for (long i = 0; i < size; i++)
        if (obs[start + i] != 0.0f) found[n++] = (int)i;
    return n;
}

/* Reads what the draw decision needs (HeuristicPolicy._read, pile, known); 0 where the phase is not
 * DRAW_OR_STOP, 1 where it is, -1 on an error. */
static int read_obs(Dmd *d, PyObject *obs_obj, Py_buffer *buf) {
    if (PyObject_GetBuffer(obs_obj, buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    const long *sp = d->sp, nc = sp[B_NUM_CARDS];
    if (buf->format == NULL || strcmp(buf->format, "f") != 0 || buf->len != (Py_ssize_t)(sp[B_SIZE] * (long)sizeof(float))) {
        PyBuffer_Release(buf);
        PyErr_SetString(PyExc_TypeError, "dmd bot twin: the observation must be a float32 vector of the game's size");
        return -1;
    }
    const long fields[][2] = {
        {B_PHASE, sp[B_NUM_PHASES]}, {B_CONFIG, sp[B_NUM_VARIANTS]}, {B_MY_COLLECTION, nc}, {B_ROW_CARDS, nc},
        {B_ROW_POSITION, nc}, {B_MARKER_POSITION, 1}, {B_DRAW_PILE, nc}, {B_KNOWN_TOP, 3 * nc},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        long start = sp[fields[i][0]], size = fields[i][1];
        if (start < 0 || size < 0 || start + size > sp[B_SIZE]) {
            PyBuffer_Release(buf);
            PyErr_SetString(PyExc_ValueError, "dmd bot twin: a field outside the observation");
            return -1;
        }
    }
    const float *obs = (const float *)buf->buf;
    if (first_set(obs, sp[B_PHASE], sp[B_NUM_PHASES], 0) != sp[B_DRAW_OR_STOP]) return 0;
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
    return 1;
}

static double bend(const Dmd *d, long s) {
    if (d->variant == d->sp[B_SUDDEN_DEATH] && s >= 50)
        s += 100;
    else if (d->variant == d->sp[B_UNDERTOW] && s > 60)
        s -= 100;
    return (double)s;
}

static double bend_tops(const Dmd *d, const long *top) {
    long s = 0, empty = 0;
    for (long k = 0; k < d->sp[B_NUM_SUITS]; k++) {
        s += top[k];
        empty += top[k] == 0;
    }
    if (d->variant == d->sp[B_GRAND_SLAM]) s -= 5 * empty;
    return bend(d, s);
}

static int piri(const Dmd *d) {
    return d->variant == d->sp[B_PIRI_REIS];
}

static void raise_tops(const Dmd *d, long *top, const int *cards, int n) {
    for (int i = 0; i < n; i++) {
        long v = d->value[cards[i]];
        if (v > top[d->suit[cards[i]]]) top[d->suit[cards[i]]] = v;
    }
}

/* score([*own collection, *cards]) (HeuristicPolicy._score_mine) */
static double score_mine(const Dmd *d, const int *cards, int n) {
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

static void summarise_own(Dmd *d) {
    d->mine_total = 0;
    memset(d->mine_top, 0, sizeof d->mine_top);
    if (piri(d))
        for (int i = 0; i < d->n_own; i++) d->mine_total += d->value[d->own[i]];
    else
        raise_tops(d, d->mine_top, d->own, d->n_own);
    d->own_score = score_mine(d, NULL, 0);
}

static double gain(const Dmd *d, const int *cards, int n) {
    return score_mine(d, cards, n) - d->own_score;
}

static int row_has(const Dmd *d, long suit) {
    for (int i = 0; i < d->n_row; i++)
        if (d->suit[d->row[i]] == suit) return 1;
    return 0;
}

/* HeuristicPolicy.bank_value(row) */
static double bank_value(const Dmd *d) {
    return gain(d, d->row, d->n_row) + (row_has(d, d->sp[B_KEY]) && row_has(d, d->sp[B_CHEST]) ? 1.2 * d->n_row : 0.0);
}

/* HeuristicPolicy.bust_cost: of ``bank``, what a bust would lose (the cards from the rightmost Anchor or
 * marker on; every row card where there is none) */
static double bust_cost(const Dmd *d, double bank) {
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

static long key_of(const Dmd *d, int card) {
    return d->variant == d->sp[B_UNCHARTED_WATERS] ? d->value[card] : d->suit[card];
}

static int busts(const Dmd *d, int card) {
    for (int i = 0; i < d->n_row; i++)
        if (key_of(d, d->row[i]) == key_of(d, card)) return 1;
    return 0;
}

/* HeuristicPolicy.next_draws: the peeked top card, else the pile less the cards peeked deeper (all of it
 * where that leaves none) */
static int next_draws(const Dmd *d, int *out) {
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

/* HeuristicPolicy.draw_total (with _row_summary): the summed value of the next draw over ``pile`` and the
 * number of its cards that bust */
static double draw_total(const Dmd *d, const int *pile, int n_pile, double bank, double lost_value,
                         const double *pull, int *n_busts) {
    const long ns = d->sp[B_NUM_SUITS];
    long top[MAX_SUITS], fill[MAX_SUITS] = {0}, raw;
    double bonus[MAX_SUITS] = {0}, flat[MAX_SUITS];
    if (piri(d)) {
        raw = d->mine_total;
        for (int i = 0; i < d->n_row; i++) raw += d->value[d->row[i]];
    } else {
        memcpy(top, d->mine_top, sizeof top);
        raise_tops(d, top, d->row, d->n_row);
        raw = 0;
        long empty = 0;
        for (long k = 0; k < ns; k++) {
            raw += top[k];
            empty += top[k] == 0;
        }
        if (d->variant == d->sp[B_GRAND_SLAM]) {
            raw -= 5 * empty;
            for (long k = 0; k < ns; k++) fill[k] = top[k] == 0 ? 5 : 0;
        }
    }
    int has_key = row_has(d, d->sp[B_KEY]), has_chest = row_has(d, d->sp[B_CHEST]);
    double due = 1.2 * (d->n_row + 1);
    if (has_key && has_chest)
        for (long k = 0; k < ns; k++) bonus[k] = due;
    else if (has_key)
        bonus[d->sp[B_CHEST]] = due;
    else if (has_chest)
        bonus[d->sp[B_KEY]] = due;
    double unchanged = bend(d, raw) - d->own_score;
    for (long k = 0; k < ns; k++) flat[k] = unchanged + bonus[k] - bank + pull[k];
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
            total += bend(d, raw + v) - d->own_score + bonus[suit] - bank + pull[suit];
        else if (v > top[suit])
            total += bend(d, raw + v - top[suit] + fill[suit]) - d->own_score + bonus[suit] - bank + pull[suit];
        else
            total += flat[suit];
    }
    *n_busts = count;
    return total;
}

PyObject *dmd_should_draw(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *spec;
    double margin;
    if (!PyArg_ParseTuple(args, "OOd", &obs_obj, &spec, &margin)) return NULL;
    Dmd d;
    Py_buffer buf;
    if (read_spec(&d, spec) < 0) return NULL;
    int found = read_obs(&d, obs_obj, &buf);
    if (found < 0) return NULL;
    PyBuffer_Release(&buf);
    if (found == 0) Py_RETURN_NONE;
    if (d.known[0] >= 0) return PyBool_FromLong(!busts(&d, d.known[0]) || d.n_row == 0);
    if (d.n_row == 0) Py_RETURN_TRUE;
    summarise_own(&d);
    int pile[MAX_CARDS], n_busts;
    int n = next_draws(&d, pile);
    if (n == 0) {
        PyErr_SetString(PyExc_ValueError, "dmd_should_draw: an empty draw pile");
        return NULL;
    }
    double bank = bank_value(&d);
    if (d.variant == d.sp[B_SUDDEN_DEATH] && score_mine(&d, d.row, d.n_row) >= 150) Py_RETURN_FALSE;
    double lost_value = bust_cost(&d, bank);
    double total = draw_total(&d, pile, n, bank, lost_value, d.half_pull, &n_busts);
    return PyBool_FromLong(total / n > margin);
}

PyObject *dmd_draw_features(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out_obj, *obs_obj, *spec;
    long ch;
    double scale;
    if (!PyArg_ParseTuple(args, "OOOld", &out_obj, &obs_obj, &spec, &ch, &scale)) return NULL;
    Dmd d;
    Py_buffer buf, out;
    if (read_spec(&d, spec) < 0) return NULL;
    int found = read_obs(&d, obs_obj, &buf);
    if (found < 0) return NULL;
    PyBuffer_Release(&buf);
    if (found == 0) Py_RETURN_FALSE;
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    if (out.format == NULL || strcmp(out.format, "f") != 0 ||
        out.len != (Py_ssize_t)(d.sp[B_NUM_ACTIONS] * ch * (long)sizeof(float)) || ch < 4 ||
        d.sp[B_STOP] < 0 || d.sp[B_STOP] >= d.sp[B_NUM_ACTIONS] || d.sp[B_DRAW] < 0 || d.sp[B_DRAW] >= d.sp[B_NUM_ACTIONS]) {
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_TypeError, "dmd_draw_features: out must be the float32 (actions, channels) matrix");
        return NULL;
    }
    float *rows = (float *)out.buf;
    summarise_own(&d);
    double bank = bank_value(&d);
    rows[d.sp[B_STOP] * ch] = (float)(bank * scale);
    int pile[MAX_CARDS], n_busts;
    int n = next_draws(&d, pile);
    if (n > 0) {
        double lost_value = bust_cost(&d, bank);
        double zero[MAX_SUITS] = {0};
        double total = draw_total(&d, pile, n, bank, lost_value, zero, &n_busts);
        float *draw = rows + d.sp[B_DRAW] * ch;
        draw[1] = (float)(total / n * scale);
        draw[2] = (float)((double)n_busts / n);
        draw[3] = (float)(lost_value * scale);
    }
    PyBuffer_Release(&out);
    Py_RETURN_TRUE;
}
