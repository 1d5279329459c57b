/* Dead Man's Draw's compiled heuristic bot (part of pirate_envs._native, optional).
 *
 * dmd_act(obs, mask, spec, margin): the twin of pirate_envs.games.dead_mans_draw.heuristic.HeuristicPolicy.act,
 *     read from the seat's observation vector and action mask alone, as HeuristicPolicy reads them: the
 *     action, or None where the Python bot picks at random (a phase it has no rule for).
 *
 * The Python bot stays the reference: tests/test_native_bots.py compares the two decision for decision
 * and bit for bit, and an input the twin does not expect raises (ValueError, TypeError) so that the caller
 * runs the Python bot. The spec and the reading are dmd.h's, the bot itself bot_core.c's (shared with the
 * compiled engine, observe.c).
 */
#include "dmd.h"

PyObject *dmd_act(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *obs_obj, *mask_obj, *spec;
    double margin;
    if (!PyArg_ParseTuple(args, "OOOd", &obs_obj, &mask_obj, &spec, &margin)) return NULL;
    Dmd d;
    Py_buffer obs_buf;
    const char *why = NULL;
    d.why = &why;
    if (read_spec(&d, spec) < 0 || read_obs(&d, &obs_buf, obs_obj, mask_obj) < 0) return NULL;
    long action;
    int rc = dmd_bot_decide(&d, margin, &action);
    release_obs(&obs_buf);
    if (rc < 0) {
        spec_error(why);
        return NULL;
    }
    if (action < 0) Py_RETURN_NONE; /* the Python bot's random pick */
    return PyLong_FromLong(action);
}
