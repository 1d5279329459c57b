/* Pirates of the Spanish Main's compiled per-action features (part of pirate_envs._native, optional).
 *
 * potsm_features(out, obs, mask, rules_spec, n, layout): the twin of
 *     pirate_envs.games.potsm.action_features.action_features_python, written into the zero-filled float32
 *     (actions, 9 * K) matrix ``out`` (K = 8 + n - 1 channels per ship), read from the seat's observation
 *     vector and action mask alone.
 * potsm_legal_features(out, observations, masks, rules_spec, n, layout): the same features for a batch, the
 *     legal actions' rows alone: ``observations`` a float32 (batch, size) matrix, ``masks`` one byte per action
 *     (batch, actions), ``out`` a zero-filled float32 (legal actions in all, 9 * K) matrix that receives the
 *     rows in the order of ``numpy.nonzero(masks)`` (what an action-feature network's head reads in training).
 *
 * ``rules_spec`` is heuristic.native_rules_spec() (see potsm.h); ``layout`` is the tuple
 * action_features._twin_layout(n) builds once per player count: the observation size, the starts of the
 * fields read (ship_position, ship_damaged, ship_fame, ship_revealed_owner, current_adventure) and, last,
 * the float64 table of channels 2..5 (_CHANNELS_2_TO_5, C-contiguous), which is read rather than rebuilt so
 * that its doubles are the Python ones. Every float32 is the cast of the double the Python code computes
 * with the same operations, so the features agree bit for bit (tests/test_native_features_potsm.py).
 *
 * The Python code finds each distinct resulting line once; here every legal action gets its own block,
 * which is cheap enough in C and gives the same values. An observation the twin does not expect (a
 * ship_position field that is not a permutation by argmax, NaN or infinite values in the fields read)
 * raises ValueError, and the caller then runs the Python code, which does whatever it does with it.
 */
#include "potsm.h"

enum { L_SIZE, L_POSITION, L_DAMAGED, L_FAME, L_REVEALED, L_CURRENT, L_INTS, L_TABLE = L_INTS, L_COUNT };

#define PF_BASE 8     /* channels before the accusation ones */
#define PF_MAX_N 16   /* sanity bound on the player count */
#define PF_TABLE_LEN ((1 << PS_SHIPS) * PS_SHIPS * 3 * 2 * 4) /* (damage pattern, position, nation, has fame, 2..5) */

typedef struct {
    const PotsmRules *r;
    const double *table;
    int card; /* the current adventure, -1 when none is face up */
    int line[PS_SHIPS], position[PS_SHIPS], damaged[PS_SHIPS], unrevealed[PS_SHIPS];
    double fame[PS_SHIPS];
    long k; /* channels per ship */
} Features;

/* _read: the line (argmax of every ship's one-hot, as _decode_line and _decode_line_any both give it when it
 * is a permutation), damage, fame, the current adventure and the unrevealed flags. */
static int read_fields(Features *f, const float *o, const long *lay, long n) {
    int taken[PS_SHIPS] = {0};
    for (int s = 0; s < PS_SHIPS; s++) {
        const float *row = o + lay[L_POSITION] + PS_SHIPS * s;
        int best = 0;
        for (int p = 0; p < PS_SHIPS; p++) {
            if (isnan(row[p])) goto unexpected;
            if (row[p] > row[best]) best = p;
        }
        if (taken[best]++) goto unexpected;
        f->line[best] = s;
        f->position[s] = best;
    }
    for (int s = 0; s < PS_SHIPS; s++) {
        float d = o[lay[L_DAMAGED] + s], fame = o[lay[L_FAME] + s];
        if (isnan(d) || !isfinite(fame)) goto unexpected;
        f->damaged[s] = d > 0.5f;
        f->fame[s] = (double)fame;
        const float *owner = o + lay[L_REVEALED] + n * s;
        float top = owner[0];
        for (long i = 0; i < n; i++) {
            if (isnan(owner[i])) goto unexpected;
            if (owner[i] > top) top = owner[i];
        }
        f->unrevealed[s] = top < 0.5f;
    }
    const float *current = o + lay[L_CURRENT];
    int best = 0;
    for (int t = 0; t < PS_TYPES; t++) {
        if (isnan(current[t])) goto unexpected;
        if (current[t] > current[best]) best = t;
    }
    f->card = current[best] > 0.5f ? best : -1;
    return 0;
unexpected:
    PyErr_SetString(PyExc_ValueError, "potsm_features: an observation the twin does not read (the Python code does)");
    return -1;
}

/* The channels 0..6 of the block of an action that leaves ``line`` with damage ``damaged`` before the
 * adventure (_blocks); ``fog_row`` also gets channel 7, the adventure on the unchanged line, and keeps the
 * line's damage and fame as they are (Fog, PSM-637: the adventure stays ahead). */
static void write_block(const Features *f, const int *line, const int *damaged, int fog, float *row) {
    double delta[PS_SHIPS];
    int after[PS_SHIPS], position[PS_SHIPS], pattern = 0;
    if (f->card >= 0) potsm_resolve(f->r, f->card, line, damaged, f->fame, f->unrevealed, delta, after);
    else
        for (int s = 0; s < PS_SHIPS; s++) {
            delta[s] = 0.0;
            after[s] = damaged[s];
        }
    if (fog) {
        for (int s = 0; s < PS_SHIPS; s++) row[s * f->k + 7] = (float)delta[s];
        for (int s = 0; s < PS_SHIPS; s++) {
            delta[s] = 0.0;
            after[s] = damaged[s];
        }
    }
    for (int p = 0; p < PS_SHIPS; p++) position[line[p]] = p;
    for (int s = 0; s < PS_SHIPS; s++) pattern += after[s] << position[s];
    for (int s = 0; s < PS_SHIPS; s++) {
        float *ship = row + s * f->k;
        const int has_fame = f->fame[s] + delta[s] >= 1.0;
        const double *t = f->table + ((((long)pattern * PS_SHIPS + position[s]) * 3 + f->r->nation[s]) * 2 + has_fame) * 4;
        ship[0] = (float)delta[s];
        ship[1] = (float)after[s];
        for (int c = 0; c < 4; c++) ship[2 + c] = (float)t[c];
        ship[6] = (float)((double)(position[s] - f->position[s]) / 9.0);
    }
}

static int take_layout(PyObject *layout, long *lay, Py_buffer *table, long n) {
    if (twin_spec_ints(layout, L_COUNT, L_INTS, lay, "potsm_features") < 0) return -1;
    const long size = lay[L_SIZE];
    if (lay[L_POSITION] < 0 || lay[L_POSITION] + PS_SHIPS * PS_SHIPS > size || lay[L_DAMAGED] < 0 ||
        lay[L_DAMAGED] + PS_SHIPS > size || lay[L_FAME] < 0 || lay[L_FAME] + PS_SHIPS > size || lay[L_REVEALED] < 0 ||
        lay[L_REVEALED] + PS_SHIPS * n > size || lay[L_CURRENT] < 0 || lay[L_CURRENT] + PS_TYPES > size) {
        PyErr_SetString(PyExc_ValueError, "potsm_features: a field outside the observation");
        return -1;
    }
    if (PyObject_GetBuffer(PyTuple_GET_ITEM(layout, L_TABLE), table, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (table->format == NULL || strcmp(table->format, "d") != 0 || table->len != (Py_ssize_t)(PF_TABLE_LEN * sizeof(double))) {
        PyBuffer_Release(table);
        PyErr_SetString(PyExc_TypeError, "potsm_features: the channel table must be float64 (512, 9, 3, 2, 4)");
        return -1;
    }
    return 0;
}

/* The features of one observation's legal actions, written into the zero-filled ``rows``: at the action's
 * row of the (actions, 9 * K) matrix or, with ``compact``, at the next row for each legal action in turn.
 * Returns the number of legal actions, or -1 (ValueError set) for an observation the twin does not read. */
static long write_features(Features *f, const long *lay, long n, const float *obs, const unsigned char *mask,
                           long num_actions, float *rows, int compact) {
    const long *sp = f->r->sp, width = PS_SHIPS * f->k;
    int repaired[PS_SHIPS] = {0}, new_line[PS_SHIPS], new_damaged[PS_SHIPS];
    long first = -1, last = -1, count = 0, next = 0;
    for (long a = 0; a < num_actions; a++) {
        if (!mask[a]) continue;
        if (first < 0) first = a;
        last = a;
        count++;
    }
    if (first < 0 || (first >= sp[R_ACCUSE_DISCARD] && last < sp[R_ACCUSE])) return count; /* nothing moves */
    if (read_fields(f, obs, lay, n) < 0) return -1;
    for (long a = first; a <= last; a++) {
        if (!mask[a]) continue;
        float *row = rows + (compact ? next++ : a) * width;
        if (a < sp[R_FOG]) {
            potsm_after_move(f->r, (int)a, f->line, f->damaged, new_line, new_damaged);
            write_block(f, new_line, new_damaged, 0, row);
        } else if (a == sp[R_FOG]) {
            write_block(f, f->line, f->damaged, 1, row);
        } else if (a == sp[R_REPAIR]) { /* PSM-513: the adventure meets the repaired line */
            write_block(f, f->line, repaired, 0, row);
        } else if (a < sp[R_ACCUSE_DISCARD]) { /* Pass, Pass-and-discard */
            write_block(f, f->line, f->damaged, 0, row);
        } else if (a >= sp[R_ACCUSE]) { /* PSM-515: the line stays; the accused row gets what a right guess takes */
            const long index = a - sp[R_ACCUSE], ship = index % PS_SHIPS;
            write_block(f, f->line, f->damaged, 0, row);
            row[ship * f->k + PF_BASE + index / PS_SHIPS] = (float)ceil(f->fame[ship] / 2.0);
        } /* the accusation's discard (PSM-1051) moves nothing: its row stays zero */
    }
    return count;
}

/* Both entry points' arguments, (out, observation(s), mask(s), rules_spec, n, layout): the rules, the player
 * count and the layout checked, the sizes they give; on success the caller releases ``table``. */
typedef struct {
    PyObject *out, *obs, *mask;
    PotsmRules rules;
    long n, k, num_actions, lay[L_INTS];
    Py_buffer table;
} Call;

static int take_call(PyObject *args, Call *c, const char *who) {
    PyObject *spec, *layout;
    if (!PyArg_ParseTuple(args, "OOOOlO", &c->out, &c->obs, &c->mask, &spec, &c->n, &layout)) return -1;
    if (potsm_rules(spec, &c->rules, who) < 0) return -1;
    if (!potsm_blocks_as_expected(c->rules.sp)) {
        PyErr_Format(PyExc_ValueError, "%s: the rules spec's action blocks are not the ones the twin reads", who);
        return -1;
    }
    if (c->n < 2 || c->n > PF_MAX_N) {
        PyErr_Format(PyExc_ValueError, "%s: a player count outside 2..16", who);
        return -1;
    }
    c->k = PF_BASE + c->n - 1;
    c->num_actions = c->rules.sp[R_ACCUSE] + PS_SHIPS * (c->n - 1);
    return take_layout(layout, c->lay, &c->table, c->n);
}

static int float_matrix(PyObject *obj, Py_buffer *view, int writable, Py_ssize_t columns, const char *what,
                        const char *who) {
    if (PyObject_GetBuffer(obj, view, (writable ? PyBUF_WRITABLE : 0) | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0)
        return -1;
    if (view->format == NULL || strcmp(view->format, "f") != 0 || view->ndim != 2 || view->shape[1] != columns) {
        PyBuffer_Release(view);
        PyErr_Format(PyExc_TypeError, "%s: %s must be a C-contiguous float32 matrix of %zd columns", who, what, columns);
        return -1;
    }
    return 0;
}

PyObject *potsm_features(PyObject *Py_UNUSED(self), PyObject *args) {
    Call c;
    Py_buffer out, buf, mbuf;
    if (take_call(args, &c, "potsm_features") < 0) return NULL;
    if (PyObject_GetBuffer(c.out, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(&c.table);
        return NULL;
    }
    if (out.format == NULL || strcmp(out.format, "f") != 0 || out.ndim != 2 || out.shape[0] != c.num_actions ||
        out.shape[1] != PS_SHIPS * c.k) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&c.table);
        PyErr_SetString(PyExc_TypeError, "potsm_features: out must be the float32 (actions, 9 * channels) matrix");
        return NULL;
    }
    if (twin_obs_and_mask(c.obs, c.mask, c.lay[L_SIZE], c.num_actions, &buf, &mbuf, "potsm_features") < 0) {
        PyBuffer_Release(&out);
        PyBuffer_Release(&c.table);
        return NULL;
    }
    PyObject *result = NULL;
    Features f = {.r = &c.rules, .table = (const double *)c.table.buf, .k = c.k};
    if (buf.ndim != 1 || mbuf.ndim != 1) {
        PyErr_SetString(PyExc_ValueError, "potsm_features: the observation and the mask must be vectors");
        goto done;
    }
    if (write_features(&f, c.lay, c.n, (const float *)buf.buf, (const unsigned char *)mbuf.buf, c.num_actions,
                       (float *)out.buf, 0) < 0)
        goto done;
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    PyBuffer_Release(&out);
    PyBuffer_Release(&c.table);
    return result;
}

PyObject *potsm_legal_features(PyObject *Py_UNUSED(self), PyObject *args) {
    static const char *who = "potsm_legal_features";
    Call c;
    Py_buffer out, obs, masks;
    if (take_call(args, &c, who) < 0) return NULL;
    const long width = PS_SHIPS * c.k;
    if (float_matrix(c.obs, &obs, 0, c.lay[L_SIZE], "the observations", who) < 0) {
        PyBuffer_Release(&c.table);
        return NULL;
    }
    if (float_matrix(c.out, &out, 1, width, "out", who) < 0) {
        PyBuffer_Release(&obs);
        PyBuffer_Release(&c.table);
        return NULL;
    }
    PyObject *result = NULL;
    if (PyObject_GetBuffer(c.mask, &masks, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) goto no_masks;
    if (!byte_mask_format(&masks) || masks.ndim != 2 ||
        masks.shape[0] != obs.shape[0] || masks.shape[1] != c.num_actions) {
        PyErr_Format(PyExc_TypeError, "%s: the masks must be one byte (int8, uint8, bool) per action, a row per observation",
                     who);
        goto done;
    }
    const unsigned char *mask = (const unsigned char *)masks.buf;
    Py_ssize_t legal = 0;
    for (Py_ssize_t i = 0; i < masks.len; i++) legal += mask[i] != 0;
    if (out.shape[0] != legal) {
        PyErr_Format(PyExc_ValueError, "%s: out has %zd rows for %zd legal actions", who, out.shape[0], legal);
        goto done;
    }
    Features f = {.r = &c.rules, .table = (const double *)c.table.buf, .k = c.k};
    float *rows = (float *)out.buf;
    for (Py_ssize_t i = 0; i < obs.shape[0]; i++) {
        const long written = write_features(&f, c.lay, c.n, (const float *)obs.buf + i * c.lay[L_SIZE],
                                            mask + i * c.num_actions, c.num_actions, rows, 1);
        if (written < 0) goto done;
        rows += written * width;
    }
    Py_INCREF(Py_None);
    result = Py_None;
done:
    PyBuffer_Release(&masks);
no_masks:
    PyBuffer_Release(&out);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&c.table);
    return result;
}
