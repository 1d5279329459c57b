/* Pirates of the Spanish Main's compiled heuristic bot (part of pirate_envs._native, optional).
 *
 * potsm_act(obs, mask, spec, scores): the twin of pirate_envs.games.potsm.heuristic.HeuristicPolicy.act,
 *     read from the seat's observation vector and action mask alone. Returns the action; the tuple of the
 *     tied best actions, ascending (the Python caller draws one with the bot's rng, as act_python does);
 *     or None where some score lies within a hair of the tie threshold (below). ``scores``, a float64
 *     vector with one entry per action or None, receives every legal action's score (the twin of
 *     HeuristicPolicy.action_scores; illegal entries are left as they are).
 *
 * ``spec`` is the tuple HeuristicPolicy.native_spec builds once per bot (the order of the P_* enum): the
 * observation's offsets, the bot's parameters and potential tables, and the rules spec of
 * potsm.h. The scores themselves are bot_core.c's (plain C), which the native engine's bot shares. Every value is computed with the same operations in the same order as the Python
 * code, and every ``sum`` as the Python this module is built for adds (py_sum: left to right before 3.12,
 * compensated from 3.12 on), so the scores agree bit for bit. As a second line of defence, a decision
 * is left to the Python bot (None) whenever a score lies within 1e-11 (relative) of the tie threshold
 * (best score - TIE_TOLERANCE, read from the spec), the only place where a difference in the last bits
 * could change it.
 *
 * An input the twin does not read as the Python bot does raises ValueError, and the Python bot decides: a
 * spec whose fields reach outside the observation, ship positions that are no permutation (two ships on
 * one place), NaN or infinite entries, a deck size outside int's range (never cast: that is undefined
 * behaviour in C), or scores that overflow to infinities.
 */
#include "potsm.h"

#include "games/potsm/native/bot_core.h"

#define WHO "potsm bot twin"

static int pb_error(const char *what) {
    return twin_error(WHO, what);
}

static const double *doubles(PyObject *spec, int at, Py_ssize_t count) {
    PyObject *b = PyTuple_GET_ITEM(spec, at);
    if (!PyBytes_Check(b) || PyBytes_GET_SIZE(b) != count * (Py_ssize_t)sizeof(double)) {
        PyErr_SetString(PyExc_TypeError, WHO ": the spec's tables must be bytes of doubles of the right sizes");
        return NULL;
    }
    return (const double *)PyBytes_AS_STRING(b);
}


static int read_spec(Pb *b, PyObject *spec) {
    if (twin_spec_ints(spec, P_COUNT, P_INTS, b->sp, WHO) < 0) return -1;
    if (potsm_rules(PyTuple_GET_ITEM(spec, P_RULES), &b->own_rules, WHO) < 0) return -1;
    b->rules = &b->own_rules;
    b->n = b->sp[P_N];
    if (b->n < 2 || b->n > MAX_PLAYERS || b->sp[P_NUM_ACTIONS] > MAX_ACTIONS) return pb_error("a game size it was not built for");
    if (!potsm_bot_fields_inside(b->sp, b->n)) return pb_error("a spec whose fields reach outside the observation");
    if (!potsm_blocks_as_expected(b->rules->sp)) return pb_error("a rules spec whose action blocks it does not read");
    if ((b->q = doubles(spec, P_PARAMS, Q_COUNT)) == NULL) return -1;
    if ((b->tables = doubles(spec, P_TABLES, TABLES_SIZE)) == NULL) return -1;
    b->counts = b->tables + PS_TYPES * TSET + TSET;
    b->keep = b->counts + PS_TYPES;
    PyObject *mt = PyTuple_GET_ITEM(spec, P_MOVE_TYPE);
    if (!PyBytes_Check(mt) || PyBytes_GET_SIZE(mt) != b->rules->sp[R_FOG]) {
        PyErr_SetString(PyExc_TypeError, WHO ": the move types must be bytes, one per move action");
        return -1;
    }
    b->move_type = (const unsigned char *)PyBytes_AS_STRING(mt);
    b->mixes = NULL; /* the spec's parameters may be any: prepare mixes for each decision */
    return 0;
}


PyObject *potsm_act(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *mask_obj, *spec, *scores_obj;
    if (!PyArg_ParseTuple(args, "OOOO", &obs_obj, &mask_obj, &spec, &scores_obj)) return NULL;
    Pb b;
    Py_buffer buf, mbuf, sbuf;
    if (read_spec(&b, spec) < 0) return NULL;
    if (twin_obs_and_mask(obs_obj, mask_obj, b.sp[P_SIZE], b.sp[P_NUM_ACTIONS], &buf, &mbuf, WHO) < 0) return NULL;
    int have_out = scores_obj != Py_None;
    if (have_out) {
        if (PyObject_GetBuffer(scores_obj, &sbuf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT | PyBUF_WRITABLE) < 0) {
            PyBuffer_Release(&buf);
            PyBuffer_Release(&mbuf);
            return NULL;
        }
        if (sbuf.format == NULL || strcmp(sbuf.format, "d") != 0 || sbuf.len != b.sp[P_NUM_ACTIONS] * (Py_ssize_t)sizeof(double)) {
            PyBuffer_Release(&buf);
            PyBuffer_Release(&mbuf);
            PyBuffer_Release(&sbuf);
            PyErr_SetString(PyExc_TypeError, WHO ": scores must be a float64 vector with one entry per action");
            return NULL;
        }
    }
    b.o = (const float *)buf.buf;
    const char *mask = (const char *)mbuf.buf;
    b.n_legal = legal_actions(mask, b.sp[P_NUM_ACTIONS], b.legal);
    PyObject *result = NULL;
    double scores[MAX_ACTIONS];
    if (b.n_legal == 0) {
        pb_error("no legal action");
    } else if (b.n_legal == 1 && !have_out) {
        result = PyLong_FromLong(b.legal[0]);
    } else if (!potsm_bot_all_finite(b.o, b.sp[P_SIZE])) {
        pb_error("an observation with NaN or infinite values (the Python bot reads it)");
    } else if (potsm_bot_scores(&b, scores) < 0) {
        pb_error("an observation or action the twin does not read as the Python bot does");
    } else if (!potsm_bot_legal_scores_finite(&b, scores)) {
        pb_error("a score that is NaN or infinite (the Python bot ranks those)");
    } else {
        if (have_out)
            for (int i = 0; i < b.n_legal; i++) ((double *)sbuf.buf)[b.legal[i]] = scores[b.legal[i]];
        double best = scores[b.legal[0]];
        for (int i = 1; i < b.n_legal; i++)
            if (scores[b.legal[i]] > best) best = scores[b.legal[i]];
        const double threshold = best - b.q[Q_TIE], guard = 1e-11 * (1.0 + fabs(threshold));
        int top[MAX_ACTIONS], n_top = 0, near = 0;
        for (int i = 0; i < b.n_legal; i++) {
            double s = scores[b.legal[i]];
            if (fabs(s - threshold) <= guard) near = 1;
            if (s >= threshold) top[n_top++] = b.legal[i];
        }
        if (b.n_legal == 1) {
            result = PyLong_FromLong(b.legal[0]);
        } else if (near) {
            result = Py_NewRef(Py_None);
        } else if (n_top == 1) {
            result = PyLong_FromLong(top[0]);
        } else if ((result = PyTuple_New(n_top)) != NULL) {
            for (int i = 0; i < n_top; i++) {
                PyObject *a = PyLong_FromLong(top[i]);
                if (a == NULL) {
                    Py_CLEAR(result);
                    break;
                }
                PyTuple_SET_ITEM(result, i, a);
            }
        }
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    if (have_out) PyBuffer_Release(&sbuf);
    return result;
}
