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
 * The features themselves are features_core.c's (plain C), which the native engine shares. The Python code
 * finds each distinct resulting line once; here every legal action gets its own block,
 * which is cheap enough in C and gives the same values. An observation the twin does not expect (a
 * ship_position field that is not a permutation by argmax, NaN or infinite values in the fields read)
 * raises ValueError, and the caller then runs the Python code, which does whatever it does with it.
 */
#include "potsm.h"

#include "games/potsm/native/features_core.h"

#define PF_MAX_N 16   /* sanity bound on the player count */

/* The ValueError of an observation the core does not read (the caller then runs the Python code). */
static void unreadable(void) {
    PyErr_SetString(PyExc_ValueError, "potsm_features: an observation the twin does not read (the Python code does)");
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
    if (potsm_write_features(&f, c.lay, c.n, (const float *)buf.buf, (const unsigned char *)mbuf.buf, c.num_actions,
                             (float *)out.buf, 0) < 0) {
        unreadable();
        goto done;
    }
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
        const long written = potsm_write_features(&f, c.lay, c.n, (const float *)obs.buf + i * c.lay[L_SIZE],
                                                  mask + i * c.num_actions, c.num_actions, rows, 1);
        if (written < 0) {
            unreadable();
            goto done;
        }
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
