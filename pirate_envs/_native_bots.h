/* What the compiled bot twins share (_native_bots.c, _native_bots_tortuga.c; potsm's through _native_potsm.h,
 * and potsm's encoder its spec reading): reading the int head of a spec tuple, and taking the observation and
 * mask buffers with their formats checked (static inline: a file that uses one of them does not warn of the other). ``who`` names the
 * twin in the error messages. Errors are ValueError/TypeError, which the Python callers take as "run the
 * Python bot" (pirate_envs/core/native.py, FALLBACK_ERRORS).
 */
#ifndef PIRATE_ENVS_NATIVE_BOTS_H
#define PIRATE_ENVS_NATIVE_BOTS_H

#define PY_SSIZE_T_CLEAN
#include <Python.h>

/* ``spec`` must be a tuple of ``count`` entries whose first ``ints`` are ints, copied into ``out``. */
static inline int twin_spec_ints(PyObject *spec, Py_ssize_t count, int ints, long *out, const char *who) {
    if (!PyTuple_Check(spec) || PyTuple_GET_SIZE(spec) != count) {
        PyErr_Format(PyExc_ValueError, "%s: spec of the wrong length", who);
        return -1;
    }
    for (int i = 0; i < ints; i++) {
        PyObject *o = PyTuple_GET_ITEM(spec, i);
        if (!PyLong_Check(o)) {
            PyErr_Format(PyExc_TypeError, "%s: spec entries before the tables must be ints", who);
            return -1;
        }
        out[i] = PyLong_AsLong(o);
        if (out[i] == -1 && PyErr_Occurred()) return -1;
    }
    return 0;
}

/* Takes the float32 observation of ``size`` entries into ``buf`` and the one-byte-per-action mask into
 * ``mbuf``; 0 with both held (the caller releases them), or -1 with neither. */
static inline int twin_obs_and_mask(PyObject *obs, PyObject *mask, long size, long num_actions, Py_buffer *buf,
                                    Py_buffer *mbuf, const char *who) {
    if (PyObject_GetBuffer(obs, buf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) return -1;
    if (buf->format == NULL || strcmp(buf->format, "f") != 0 || buf->len != (Py_ssize_t)(size * (long)sizeof(float))) {
        PyBuffer_Release(buf);
        PyErr_Format(PyExc_TypeError, "%s: the observation must be a float32 vector of the game's size", who);
        return -1;
    }
    if (PyObject_GetBuffer(mask, mbuf, PyBUF_C_CONTIGUOUS | PyBUF_FORMAT) < 0) {
        PyBuffer_Release(buf);
        return -1;
    }
    const char *format = mbuf->format == NULL ? "B" : mbuf->format;
    if ((strcmp(format, "b") != 0 && strcmp(format, "B") != 0 && strcmp(format, "?") != 0) || mbuf->len != num_actions) {
        PyBuffer_Release(buf);
        PyBuffer_Release(mbuf);
        PyErr_Format(PyExc_TypeError, "%s: the mask must be one byte (int8, uint8, bool) per action", who);
        return -1;
    }
    return 0;
}

#endif
