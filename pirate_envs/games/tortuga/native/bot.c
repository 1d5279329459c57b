/* Tortuga 1667's compiled heuristic bot (part of pirate_envs._native, optional).
 *
 * tor_act(obs, mask, spec): the twin of pirate_envs.games.tortuga.heuristic.HeuristicPolicy.act, read from
 *     the seat's observation vector and action mask alone: the action, or None where the Python bot picks
 *     at random (its rule names an action the mask forbids).
 *
 * ``spec`` is the tuple HeuristicPolicy.native_spec builds once per game (the order of the T_* enum). The bot
 * itself is bot_core.h, which the compiled engine (observe.c) calls too; this file reads the Python inputs.
 * As for Dead Man's Draw's bot, the Python code stays the reference: tests/test_native_bots.py compares the two
 * decision for decision, and an input the twin does not expect (a field outside its one-hot range, a
 * float64 vector) raises ValueError or TypeError so that the caller runs the Python bot, which then does
 * whatever it does with it.
 */
#include "core/native/common.h"
#include "games/tortuga/native/bot_core.h"

static int tor_error(const char *what) {
    return twin_error("tortuga bot twin", what);
}

static int read_spec(TorBot *t, PyObject *spec) {
    if (twin_spec_ints(spec, T_COUNT, T_INTS, t->sp, "tortuga bot twin") < 0) return -1;
    PyObject *tables[3] = {PyTuple_GET_ITEM(spec, T_COMPOSITION), PyTuple_GET_ITEM(spec, T_SHIP_NODE),
                           PyTuple_GET_ITEM(spec, T_DISTANCE)};
    unsigned char *into[3] = {t->composition, t->ship_node, &t->distance[0][0]};
    const Py_ssize_t sizes[3] = {3, 3, TOR_BOT_NODES * TOR_BOT_NODES};
    for (int i = 0; i < 3; i++)
        if (twin_bytes(tables[i], into[i], sizes[i], "tortuga bot twin") < 0) return -1;
    const char *wrong = tor_bot_check_spec(t);
    return wrong == NULL ? 0 : tor_error(wrong);
}

PyObject *tor_act(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *mask_obj, *spec;
    if (!PyArg_ParseTuple(args, "OOO", &obs_obj, &mask_obj, &spec)) return NULL;
    TorBot t;
    Py_buffer buf, mbuf;
    if (read_spec(&t, spec) < 0) return NULL;
    if (twin_obs_and_mask(obs_obj, mask_obj, t.sp[T_SIZE], t.sp[T_NUM_ACTIONS], &buf, &mbuf, "tortuga bot twin") < 0)
        return NULL;
    const char *wrong = tor_bot_read(&t, (const float *)buf.buf, (const int8_t *)mbuf.buf);
    long action = -3;
    if (wrong != NULL) {
        tor_error(wrong);
    } else if (t.n_legal == 0) {
        tor_error("no legal action");
    } else {
        action = tor_bot_decide(&t);
        if (action == -2) {
            tor_error("an observation entry outside the range the bot reads");
            action = -3;
        }
    }
    PyBuffer_Release(&buf);
    PyBuffer_Release(&mbuf);
    if (action == -3) return NULL;
    if (action == -1) Py_RETURN_NONE;
    return PyLong_FromLong(action);
}
