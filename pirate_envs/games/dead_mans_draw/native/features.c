/* Dead Man's Draw's compiled action features (part of pirate_envs._native, optional).
 *
 * dmd_features(out, obs, mask, spec, scale): the twin of
 *     pirate_envs.games.dead_mans_draw.action_features.action_features_python: writes the zero-filled
 *     float32 (actions, 8) feature matrix ``out``, values in points times ``scale``, from the heuristic bot's
 *     estimates (dmd.h) on the seat's observation vector and action mask.
 *
 * The Python code stays the reference: tests/test_native_bots.py compares the two bit for bit, and an
 * input the twin does not expect raises (ValueError, TypeError) so that the caller runs the Python code.
 */
#include "dmd.h"

#define CHANNELS 8

PyObject *dmd_features(PyObject *Py_UNUSED(self), PyObject *args) {
    PyObject *out_obj, *obs_obj, *mask_obj, *spec;
    double scale;
    if (!PyArg_ParseTuple(args, "OOOOd", &out_obj, &obs_obj, &mask_obj, &spec, &scale)) return NULL;
    Dmd d;
    Py_buffer out, obs_buf;
    const char *why = NULL;
    d.why = &why;
    if (read_spec(&d, spec) < 0) return NULL;
    if (PyObject_GetBuffer(out_obj, &out, PyBUF_WRITABLE | PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return NULL;
    const long *sp = d.sp;
    if (out.format == NULL || strcmp(out.format, "f") != 0 || out.len != (Py_ssize_t)(sp[B_NUM_ACTIONS] * CHANNELS * (long)sizeof(float))) {
        PyBuffer_Release(&out);
        PyErr_SetString(PyExc_TypeError, "dmd_features: out must be the float32 (actions, 8) matrix");
        return NULL;
    }
    if (read_obs(&d, &obs_buf, obs_obj, mask_obj) < 0) {
        PyBuffer_Release(&out);
        return NULL;
    }
    int rc = dmd_bot_features(&d, (float *)out.buf, scale);
    release_obs(&obs_buf);
    PyBuffer_Release(&out);
    if (rc < 0) {
        spec_error(why);
        return NULL;
    }
    Py_RETURN_NONE;
}
