/* pirate_envs._native: compiled versions of per-decision hot paths (optional): the module's method table.
 *
 * Each function has a pure-Python twin that stays the reference: the package works without this module (it
 * is built when a C compiler is present, see setup.py), and tests/test_native*.py check every function
 * against its twin. A function that meets a value it does not expect raises (ValueError, TypeError,
 * IndexError) and the caller falls back to the Python code (pirate_envs/core/native/__init__.py).
 *
 * The functions live with their games, pirate_envs/games/<game>/native/: encode.c (the observation
 * encoders), bot.c (the heuristic bots), features.c (the action features); what they share is common.h,
 * beside this file. setup.py builds them all into this one module.
 */
#include "core/native/binding.h"

/* games/dead_mans_draw/native/ */
PyObject *dmd_encode(PyObject *self, PyObject *args);
PyObject *dmd_act(PyObject *self, PyObject *args);
PyObject *dmd_features(PyObject *self, PyObject *args);
/* games/madame_ching/native/ */
PyObject *mch_counts(PyObject *self, PyObject *args);
/* games/tortuga/native/ */
PyObject *tor_counts(PyObject *self, PyObject *args);
PyObject *tor_act(PyObject *self, PyObject *args);
/* games/potsm/native/ */
PyObject *potsm_encode(PyObject *self, PyObject *args);
PyObject *potsm_act(PyObject *self, PyObject *args);
PyObject *potsm_features(PyObject *self, PyObject *args);
PyObject *potsm_legal_features(PyObject *self, PyObject *args);

static PyMethodDef methods[] = {
    {"dmd_encode", dmd_encode, METH_VARARGS,
     "dmd_encode(out, state, seat, spec): Dead Man's Draw's observation of ``seat`` written into the "
     "zero-filled float32 buffer ``out`` (the twin of ObservationEncoder.encode_python)."},
    {"mch_counts", mch_counts, METH_VARARGS,
     "mch_counts(buf, state, seat, spec): Madame Ching's observation counts of ``seat`` written into the "
     "zero-filled bytearray ``buf`` (the twin of ObservationEncoder._encode before its division by the scales)."},
    {"tor_counts", tor_counts, METH_VARARGS,
     "tor_counts(buf, state, seat, spec): Tortuga's observation of ``seat`` as stored bytes, written into "
     "``buf`` (a copy of the encoder's template; the twin of ObservationEncoder._encode before the bias)."},
    {"potsm_encode", potsm_encode, METH_VARARGS,
     "potsm_encode(out, state, seat, spec): Pirates of the Spanish Main's observation of ``seat`` written into "
     "the zero-filled float32 vector ``out`` (the twin of ObservationEncoder.encode_python)."},
    {"dmd_act", dmd_act, METH_VARARGS,
     "dmd_act(obs, mask, spec, margin): Dead Man's Draw's heuristic bot's action from its observation and "
     "mask, None where it picks at random (the twin of HeuristicPolicy.act)."},
    {"dmd_features", dmd_features, METH_VARARGS,
     "dmd_features(out, obs, mask, spec, scale): Dead Man's Draw's action features written into the "
     "zero-filled float32 (actions, 8) matrix ``out`` (the twin of action_features_python)."},
    {"tor_act", tor_act, METH_VARARGS,
     "tor_act(obs, mask, spec): Tortuga 1667's heuristic bot's action from its observation and mask, None "
     "where it picks at random (the twin of HeuristicPolicy.act)."},
    {"potsm_act", potsm_act, METH_VARARGS,
     "potsm_act(obs, mask, spec, scores): Pirates of the Spanish Main's heuristic bot's action from its "
     "observation and mask: an action, the tuple of tied best actions (the caller draws one as the Python bot "
     "does), or None where a score lies too near the tie threshold to decide (the twin of HeuristicPolicy.act); "
     "``scores``, a float64 vector per action or None, receives the legal actions' scores."},
    {"potsm_features", potsm_features, METH_VARARGS,
     "potsm_features(out, obs, mask, rules_spec, n, layout): Pirates of the Spanish Main's action features "
     "written into the zero-filled float32 (actions, 9 * channels) matrix ``out``; ``layout`` is "
     "action_features._twin_layout(n) (the observation size, the starts of the fields read, the float64 table of "
     "channels 2..5) (the twin of action_features_python)."},
    {"potsm_legal_features", potsm_legal_features, METH_VARARGS,
     "potsm_legal_features(out, observations, masks, rules_spec, n, layout): potsm_features for a batch of "
     "observations and their (batch, actions) masks, the legal actions' rows alone, in the order of "
     "numpy.nonzero(masks), written into the zero-filled float32 (legal actions, 9 * channels) matrix ``out``."},
    {"ismcts", (PyCFunction)(void (*)(void))native_ismcts, METH_VARARGS | METH_KEYWORDS,
     "ismcts(state, seat, iterations, exploration, rollout, source, time_budget=0) -> (action, iterations, "
     "source, [(action, visits), ...]): IS-MCTS over a compiled engine (the twin of ISMCTSPolicy.search)."},
    {"flatmc", (PyCFunction)(void (*)(void))native_flatmc, METH_VARARGS | METH_KEYWORDS,
     "flatmc(state, seat, rollouts, rollout, base) -> (action, [(action, mean return), ...]): flat Monte Carlo "
     "over a compiled engine (the twin of FlatMCPolicy.act_state after its draw of base)."},
    {"puct", (PyCFunction)(void (*)(void))native_puct, METH_VARARGS | METH_KEYWORDS,
     "puct(state, seat, iterations, exploration, prior, rollout, source) -> (action, iterations, source, "
     "[(action, visits, mean return), ...]): PUCT over determinisations at the root with a network's prior "
     "(the twin of pirate_envs.policies.puct.PuctPolicy.search_python)."},
    {NULL, NULL, 0, NULL},
};

static struct PyModuleDef module = {
    PyModuleDef_HEAD_INIT, "pirate_envs._native",
    "Compiled twins of per-decision hot paths (optional; the Python code is the reference).", -1, methods,
    NULL, NULL, NULL, NULL,
};

static int add_type(PyObject *m, PyTypeObject *type, const char *name) {
    if (PyType_Ready(type) < 0) return -1;
    Py_INCREF(type);
    if (PyModule_AddObject(m, name, (PyObject *)type) < 0) {
        Py_DECREF(type);
        return -1;
    }
    return 0;
}

PyMODINIT_FUNC PyInit__native(void) {
    PyObject *m = PyModule_Create(&module);
    if (m == NULL) return NULL;
    if (add_type(m, &NativeGameType, "NativeGame") < 0 || add_type(m, &EngineStateType, "EngineState") < 0 ||
        add_type(m, &NativeVectorType, "NativeVector") < 0) {
        Py_DECREF(m);
        return NULL;
    }
    PyObject *ids = PyTuple_New(0);
    for (int i = 0; ids != NULL && NATIVE_ENGINES[i] != NULL; i++) {
        PyObject *id = PyUnicode_FromString(NATIVE_ENGINES[i]->game_id);
        if (id == NULL || _PyTuple_Resize(&ids, i + 1) < 0) {
            Py_XDECREF(id);
            Py_CLEAR(ids);
            break;
        }
        PyTuple_SET_ITEM(ids, i, id);
    }
    if (ids == NULL || PyModule_AddObject(m, "ENGINES", ids) < 0) {
        Py_XDECREF(ids);
        Py_DECREF(m);
        return NULL;
    }
    return m;
}
