/* The Python types over any compiled engine: _native.NativeGame (an engine and its configuration) and
 * _native.EngineState (one state owned by C). The Python class pirate_envs.core.native.backend.NativeState
 * wraps EngineState with the engine contract's names and errors; this file only checks its inputs (every
 * value from Python is range-checked here or in the engine's load) and turns engine answers into Python values.
 */
#include "core/native/binding.h"

/* ---- shared helpers --------------------------------------------------------------------------------- */

GameObject *as_game(PyObject *o) {
    if (!PyObject_TypeCheck(o, &NativeGameType)) {
        PyErr_Format(PyExc_TypeError, "expected a NativeGame, got %.80s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    return (GameObject *)o;
}

StateObject *as_state(PyObject *o) {
    if (!PyObject_TypeCheck(o, &EngineStateType)) {
        PyErr_Format(PyExc_TypeError, "expected an EngineState, got %.80s", Py_TYPE(o)->tp_name);
        return NULL;
    }
    return (StateObject *)o;
}

int as_u64(PyObject *o, uint64_t *out) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "a generator state is an int in [0, 2**64), got %.80s", Py_TYPE(o)->tp_name);
        return -1;
    }
    unsigned long long v = PyLong_AsUnsignedLongLong(o);
    if (v == (unsigned long long)-1 && PyErr_Occurred()) {
        PyErr_Clear();
        PyErr_SetString(PyExc_ValueError, "a generator state is an int in [0, 2**64)");
        return -1;
    }
    *out = (uint64_t)v;
    return 0;
}

int get_buffer(PyObject *o, Py_buffer *view, const char *format, Py_ssize_t count, const char *what) {
    if (PyObject_GetBuffer(o, view, PyBUF_WRITABLE | PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) {
        PyErr_Clear();
        PyErr_Format(PyExc_ValueError, "%s must be a writable C-contiguous buffer", what);
        return -1;
    }
    const char *f = view->format ? view->format : "B";
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    char have = f[0], want = format[0];
    if (have == 'l' || have == 'L') have = view->itemsize == 8 ? 'q' : 'i';
    if (have == 'B' || have == '?' || have == 'c') have = 'b';
    if (want == '?') want = 'b';
    if (have == 'I') have = 'i';
    if (have == 'Q') have = 'q';
    Py_ssize_t size = want == 'd' || want == 'q' ? 8 : want == 'b' ? 1 : 4;
    int ok = have == want && view->itemsize == size && view->len == count * size;
    if (!ok) {
        PyErr_Format(PyExc_ValueError, "%s must hold %zd items of format '%s', got %zd bytes of format '%s'", what,
                     count, format, view->len, f);
        PyBuffer_Release(view);
        return -1;
    }
    return 0;
}

static int seat_arg(const GameObject *g, PyObject *o, int *seat) {
    if (!PyLong_Check(o) || PyBool_Check(o)) {
        PyErr_Format(PyExc_TypeError, "seat must be an int in [0, %d), got %.80s", g->cfg.num_players,
                     Py_TYPE(o)->tp_name);
        return -1;
    }
    int overflow = 0;
    long v = PyLong_AsLongAndOverflow(o, &overflow);
    if (overflow || v < 0 || v >= g->cfg.num_players) {
        PyErr_Format(PyExc_ValueError, "seat must be in [0, %d)", g->cfg.num_players);
        return -1;
    }
    *seat = (int)v;
    return 0;
}

static PyObject *double_list(const double *values, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyFloat_FromDouble(values[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

static PyObject *int_list(const int32_t *values, int n) {
    PyObject *list = PyList_New(n);
    if (list == NULL) return NULL;
    for (int i = 0; i < n; i++) {
        PyObject *v = PyLong_FromLong(values[i]);
        if (v == NULL) {
            Py_DECREF(list);
            return NULL;
        }
        PyList_SET_ITEM(list, i, v);
    }
    return list;
}

/* ---- NativeGame -------------------------------------------------------------------------------------- */

static int game_init(GameObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"game_id", "num_players", "options", "num_actions", "obs_size", "max_decisions",
                            "num_features", NULL};
    const char *game_id;
    int num_players, num_actions, obs_size, num_features = 0;
    long long max_decisions;
    PyObject *options;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "siOiiL|i", names, &game_id, &num_players, &options, &num_actions,
                                     &obs_size, &max_decisions, &num_features))
        return -1;
    const NativeEngine *engine = NULL;
    for (int i = 0; NATIVE_ENGINES[i] != NULL; i++)
        if (strcmp(NATIVE_ENGINES[i]->game_id, game_id) == 0) engine = NATIVE_ENGINES[i];
    if (engine == NULL) {
        PyErr_Format(PyExc_ValueError, "no compiled engine for the game '%s'", game_id);
        return -1;
    }
    PyObject *seq = PySequence_Fast(options, "options must be a sequence of ints");
    if (seq == NULL) return -1;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > NE_MAX_OPTIONS) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "at most %d options, got %zd", NE_MAX_OPTIONS, n);
        return -1;
    }
    NeConfig cfg;
    memset(&cfg, 0, sizeof cfg);
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        if (!PyLong_Check(item)) {
            Py_DECREF(seq);
            PyErr_SetString(PyExc_TypeError, "options must be ints");
            return -1;
        }
        int overflow = 0;
        long long v = PyLong_AsLongLongAndOverflow(item, &overflow);
        if (overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            Py_DECREF(seq);
            PyErr_SetString(PyExc_ValueError, "an option value is out of range");
            return -1;
        }
        cfg.options[i] = v;
    }
    Py_DECREF(seq);
    if (num_players < 1 || num_players > NE_MAX_PLAYERS || num_actions < 1 || num_actions > engine->max_actions ||
        obs_size < 1 || obs_size > (1 << 24) || max_decisions < 1 || max_decisions > (1LL << 40) || num_features < 0 ||
        num_features > 4096) {
        PyErr_SetString(PyExc_ValueError, "a size of the configuration is out of range");
        return -1;
    }
    cfg.num_players = num_players;
    cfg.num_options = (int)n;
    cfg.num_actions = num_actions;
    cfg.obs_size = obs_size;
    cfg.max_decisions = max_decisions;
    cfg.num_features = num_features;
    const char *why = engine->configure(&cfg);
    if (why != NULL) {
        PyErr_Format(PyExc_ValueError, "%s: %s", game_id, why);
        return -1;
    }
    self->engine = engine;
    self->cfg = cfg;
    return 0;
}

static int game_ready(GameObject *g) {
    if (g->engine == NULL) {
        PyErr_SetString(PyExc_ValueError, "the NativeGame was not initialised");
        return -1;
    }
    return 0;
}

StateObject *state_alloc(GameObject *g) {
    StateObject *s = PyObject_New(StateObject, &EngineStateType);
    if (s == NULL) return NULL;
    s->st = PyMem_Calloc(1, g->engine->state_size);
    if (s->st == NULL) {
        s->game = NULL;
        Py_DECREF(s);
        PyErr_NoMemory();
        return NULL;
    }
    Py_INCREF(g);
    s->game = g;
    return s;
}

static PyObject *game_new_state(GameObject *self, PyObject *arg) {
    uint64_t rng;
    if (game_ready(self) < 0 || as_u64(arg, &rng) < 0) return NULL;
    StateObject *s = state_alloc(self);
    if (s == NULL) return NULL;
    ne_init(self, s->st, rng);
    return (PyObject *)s;
}

static PyObject *game_load(GameObject *self, PyObject *args) {
    PyObject *rng_obj, *values;
    long long decisions;
    int truncated;
    if (game_ready(self) < 0 || !PyArg_ParseTuple(args, "OLpO", &rng_obj, &decisions, &truncated, &values)) return NULL;
    uint64_t rng;
    if (as_u64(rng_obj, &rng) < 0) return NULL;
    if (decisions < 0 || decisions > self->cfg.max_decisions) {
        PyErr_Format(PyExc_ValueError, "decisions must be in [0, %lld], got %lld", (long long)self->cfg.max_decisions,
                     decisions);
        return NULL;
    }
    PyObject *seq = PySequence_Fast(values, "values must be a sequence of ints");
    if (seq == NULL) return NULL;
    Py_ssize_t n = PySequence_Fast_GET_SIZE(seq);
    if (n > self->engine->max_dump) {
        Py_DECREF(seq);
        PyErr_Format(PyExc_ValueError, "%s: a dump holds at most %d values, got %zd", self->engine->game_id,
                     self->engine->max_dump, n);
        return NULL;
    }
    int64_t *data = PyMem_Malloc((size_t)(n ? n : 1) * sizeof(int64_t));
    if (data == NULL) {
        Py_DECREF(seq);
        return PyErr_NoMemory();
    }
    for (Py_ssize_t i = 0; i < n; i++) {
        PyObject *item = PySequence_Fast_GET_ITEM(seq, i);
        int overflow = 0;
        long long v = PyLong_Check(item) ? PyLong_AsLongLongAndOverflow(item, &overflow) : 0;
        if (!PyLong_Check(item) || overflow || (v == -1 && PyErr_Occurred())) {
            PyErr_Clear();
            PyMem_Free(data);
            Py_DECREF(seq);
            PyErr_Format(PyExc_ValueError, "%s: dump value %zd is not an int64", self->engine->game_id, i);
            return NULL;
        }
        data[i] = v;
    }
    Py_DECREF(seq);
    StateObject *s = state_alloc(self);
    if (s == NULL) {
        PyMem_Free(data);
        return NULL;
    }
    const char *why = "invalid";
    int rc = self->engine->load(&self->cfg, s->st, data, (int)n, &why);
    PyMem_Free(data);
    if (rc != 0) {
        Py_DECREF(s);
        PyErr_Format(PyExc_ValueError, "%s: %s", self->engine->game_id, why ? why : "invalid state");
        return NULL;
    }
    NeHeader *h = NE_HEADER(s->st);
    h->rng.state = rng;
    h->decisions = decisions;
    h->truncated = truncated;
    int terminal = self->engine->is_terminal(&self->cfg, s->st);
    const char *bad = NULL;
    if (truncated && (terminal || decisions != self->cfg.max_decisions))
        bad = "truncated, but the game has ended or decisions != max_decisions";
    else if (!truncated && !terminal && decisions >= self->cfg.max_decisions)
        bad = "decisions reached max_decisions in a running game that is not truncated";
    else if (!truncated && !terminal) {
        int seat = self->engine->current_player(&self->cfg, s->st);
        int32_t *buf = PyMem_Malloc(sizeof(int32_t) * (size_t)self->engine->max_actions);
        if (buf == NULL) {
            Py_DECREF(s);
            return PyErr_NoMemory();
        }
        int count = self->engine->legal_actions(&self->cfg, s->st, buf);
        if (seat < 0 || seat >= self->cfg.num_players) bad = "the seat to act is not a seat";
        else if (count < 1 || buf[0] < 0 || buf[count - 1] >= self->cfg.num_actions)
            bad = "the position has no valid legal actions";
        PyMem_Free(buf);
    }
    if (bad != NULL) {
        Py_DECREF(s);
        PyErr_Format(PyExc_ValueError, "%s: %s", self->engine->game_id, bad);
        return NULL;
    }
    return (PyObject *)s;
}

static PyObject *game_features(GameObject *self, PyObject *args) {
    PyObject *obs_obj, *mask_obj, *out_obj;
    if (game_ready(self) < 0 || !PyArg_ParseTuple(args, "OOO", &obs_obj, &mask_obj, &out_obj)) return NULL;
    if (self->engine->action_features == NULL || self->cfg.num_features == 0) {
        PyErr_Format(PyExc_ValueError, "%s has no action features", self->engine->game_id);
        return NULL;
    }
    Py_buffer obs, mask, out;
    if (get_buffer(obs_obj, &obs, "f", self->cfg.obs_size, "obs") < 0) return NULL;
    if (get_buffer(mask_obj, &mask, "b", self->cfg.num_actions, "mask") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    if (get_buffer(out_obj, &out, "f", (Py_ssize_t)self->cfg.num_actions * self->cfg.num_features, "out") < 0) {
        PyBuffer_Release(&obs);
        PyBuffer_Release(&mask);
        return NULL;
    }
    const float *o = obs.buf;
    int finite = 1;
    for (int i = 0; i < self->cfg.obs_size; i++)
        if (!(o[i] > -1e6f && o[i] < 1e6f)) finite = 0;
    int read = finite && self->engine->action_features(&self->cfg, o, mask.buf, out.buf) == 0;
    PyBuffer_Release(&obs);
    PyBuffer_Release(&mask);
    PyBuffer_Release(&out);
    if (!finite) {
        PyErr_SetString(PyExc_ValueError, "the observation holds a value outside (-1e6, 1e6)");
        return NULL;
    }
    if (!read) {
        PyErr_Format(PyExc_ValueError, "%s: the features cannot read this observation", self->engine->game_id);
        return NULL;
    }
    Py_RETURN_NONE;
}

/* The benchmark loop: ``games`` random games from seeds seed, seed + 1, ...; the decisions they took. */
static PyObject *game_random_playouts(GameObject *self, PyObject *args) {
    long long games;
    unsigned long long seed;
    if (game_ready(self) < 0 || !PyArg_ParseTuple(args, "LK", &games, &seed)) return NULL;
    if (games < 0) {
        PyErr_SetString(PyExc_ValueError, "games must be >= 0");
        return NULL;
    }
    void *st = PyMem_Malloc(self->engine->state_size);
    int32_t *buf = PyMem_Malloc(sizeof(int32_t) * (size_t)self->engine->max_actions);
    if (st == NULL || buf == NULL) {
        PyMem_Free(st);
        PyMem_Free(buf);
        return PyErr_NoMemory();
    }
    long long decisions = 0;
    Py_BEGIN_ALLOW_THREADS
    for (long long g = 0; g < games; g++) {
        SplitMix pick = {sm_seed_state(seed + (uint64_t)g) ^ 0x5bd1e995ULL};
        ne_init(self, st, sm_seed_state(seed + (uint64_t)g));
        int action;
        while ((action = ne_random_action(self, st, &pick, buf)) >= 0) {
            ne_apply(self, st, action);
            decisions++;
        }
    }
    Py_END_ALLOW_THREADS
    PyMem_Free(st);
    PyMem_Free(buf);
    return PyLong_FromLongLong(decisions);
}

static PyObject *game_get(GameObject *self, void *what) {
    if (game_ready(self) < 0) return NULL;
    switch ((int)(intptr_t)what) {
    case 0: return PyUnicode_FromString(self->engine->game_id);
    case 1: return PyLong_FromLong(self->cfg.num_players);
    case 2: return PyLong_FromLong(self->cfg.num_actions);
    case 3: return PyLong_FromLong(self->cfg.obs_size);
    case 4: return PyLong_FromLongLong(self->cfg.max_decisions);
    case 5: return PyLong_FromSize_t(self->engine->state_size);
    case 6: return PyLong_FromLong(self->cfg.num_features);
    default: return PyBool_FromLong(self->engine->action_features != NULL);
    }
}

static PyMethodDef game_methods[] = {
    {"new_state", (PyCFunction)game_new_state, METH_O, "new_state(rng_state): a fresh game (Python: _setup_game)."},
    {"load", (PyCFunction)game_load, METH_VARARGS,
     "load(rng_state, decisions, truncated, values): the state of a dump, every value checked (ValueError)."},
    {"features", (PyCFunction)game_features, METH_VARARGS,
     "features(obs, mask, out): the action features of a float32 observation and int8 mask into out."},
    {"random_playouts", (PyCFunction)game_random_playouts, METH_VARARGS,
     "random_playouts(games, seed): play that many games with random legal actions in C; the decisions taken."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef game_getset[] = {
    {"game_id", (getter)game_get, NULL, NULL, (void *)0},
    {"num_players", (getter)game_get, NULL, NULL, (void *)1},
    {"num_actions", (getter)game_get, NULL, NULL, (void *)2},
    {"obs_size", (getter)game_get, NULL, NULL, (void *)3},
    {"max_decisions", (getter)game_get, NULL, NULL, (void *)4},
    {"state_size", (getter)game_get, NULL, NULL, (void *)5},
    {"num_features", (getter)game_get, NULL, NULL, (void *)6},
    {"has_features", (getter)game_get, NULL, NULL, (void *)7},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject NativeGameType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pirate_envs._native.NativeGame",
    .tp_basicsize = sizeof(GameObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "NativeGame(game_id, num_players, options, num_actions, obs_size, max_decisions, num_features=0): "
              "a compiled engine with one configuration.",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)game_init,
    .tp_methods = game_methods,
    .tp_getset = game_getset,
};

/* ---- EngineState ------------------------------------------------------------------------------------- */

static void state_dealloc(StateObject *self) {
    PyMem_Free(self->st);
    Py_XDECREF(self->game);
    PyObject_Free(self);
}

static PyObject *state_current_player(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyLong_FromLong(ne_current(self->game, self->st));
}

static PyObject *state_is_terminal(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyBool_FromLong(ne_terminal(self->game, self->st));
}

static PyObject *state_is_truncated(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    return PyBool_FromLong(NE_HEADER(self->st)->truncated);
}

static PyObject *state_legal_actions(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    int32_t buf[1024];
    int32_t *legal = self->game->engine->max_actions <= 1024 ? buf
                                                              : PyMem_Malloc(sizeof(int32_t) * (size_t)self->game->engine->max_actions);
    if (legal == NULL) return PyErr_NoMemory();
    int n = ne_legal(self->game, self->st, legal);
    PyObject *list = int_list(legal, n);
    if (legal != buf) PyMem_Free(legal);
    return list;
}

static PyObject *state_legal_mask(StateObject *self, PyObject *arg) {
    Py_buffer view;
    if (get_buffer(arg, &view, "b", self->game->cfg.num_actions, "mask") < 0) return NULL;
    int32_t buf[1024];
    int32_t *legal = self->game->engine->max_actions <= 1024 ? buf
                                                              : PyMem_Malloc(sizeof(int32_t) * (size_t)self->game->engine->max_actions);
    if (legal == NULL) {
        PyBuffer_Release(&view);
        return PyErr_NoMemory();
    }
    int n = ne_legal(self->game, self->st, legal);
    int8_t *mask = view.buf;
    memset(mask, 0, (size_t)self->game->cfg.num_actions);
    for (int i = 0; i < n; i++) mask[legal[i]] = 1;
    if (legal != buf) PyMem_Free(legal);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

/* apply_action(action): ValueError when it is not legal (the caller words the error); the state is then
 * unchanged. */
static PyObject *state_apply_action(StateObject *self, PyObject *arg) {
    if (!PyLong_Check(arg) || PyBool_Check(arg)) {
        PyErr_Format(PyExc_TypeError, "action must be an int, got %.80s", Py_TYPE(arg)->tp_name);
        return NULL;
    }
    int overflow = 0;
    long action = PyLong_AsLongAndOverflow(arg, &overflow);
    if (action == -1 && PyErr_Occurred()) return NULL;
    int32_t buf[1024];
    int32_t *legal = self->game->engine->max_actions <= 1024 ? buf
                                                              : PyMem_Malloc(sizeof(int32_t) * (size_t)self->game->engine->max_actions);
    if (legal == NULL) return PyErr_NoMemory();
    int n = ne_legal(self->game, self->st, legal);
    int found = 0;
    for (int i = 0; i < n && !overflow; i++)
        if (legal[i] == action) found = 1;
    if (legal != buf) PyMem_Free(legal);
    if (!found) {
        PyErr_SetString(PyExc_ValueError, "illegal action");
        return NULL;
    }
    ne_apply(self->game, self->st, (int)action);
    Py_RETURN_NONE;
}

static PyObject *state_returns(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    double out[NE_MAX_PLAYERS];
    ne_returns(self->game, self->st, out);
    return double_list(out, self->game->cfg.num_players);
}

static PyObject *state_scores(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    double out[NE_MAX_PLAYERS];
    self->game->engine->scores(&self->game->cfg, self->st, out);
    return double_list(out, self->game->cfg.num_players);
}

static PyObject *state_winners(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    int32_t out[NE_MAX_PLAYERS];
    int n = 0;
    if (!NE_HEADER(self->st)->truncated && self->game->engine->is_terminal(&self->game->cfg, self->st))
        n = self->game->engine->winners(&self->game->cfg, self->st, out);
    return int_list(out, n);
}

static PyObject *state_observe(StateObject *self, PyObject *args) {
    PyObject *seat_obj, *out_obj;
    int seat;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &out_obj) || seat_arg(self->game, seat_obj, &seat) < 0) return NULL;
    Py_buffer view;
    if (get_buffer(out_obj, &view, "f", self->game->cfg.obs_size, "out") < 0) return NULL;
    self->game->engine->observe(&self->game->cfg, self->st, seat, view.buf);
    PyBuffer_Release(&view);
    Py_RETURN_NONE;
}

static StateObject *state_copy(StateObject *self) {
    StateObject *s = state_alloc(self->game);
    if (s != NULL) memcpy(s->st, self->st, self->game->engine->state_size);
    return s;
}

static PyObject *state_clone(StateObject *self, PyObject *Py_UNUSED(ignored)) { return (PyObject *)state_copy(self); }

/* resample_hidden(seat, source_state) -> (state, source_state after the draws). */
static PyObject *state_resample_hidden(StateObject *self, PyObject *args) {
    PyObject *seat_obj, *source_obj;
    int seat;
    SplitMix source;
    if (!PyArg_ParseTuple(args, "OO", &seat_obj, &source_obj) || seat_arg(self->game, seat_obj, &seat) < 0 ||
        as_u64(source_obj, &source.state) < 0)
        return NULL;
    StateObject *s = state_copy(self);
    if (s == NULL) return NULL;
    ne_resample(self->game, s->st, seat, &source);
    PyObject *rng = PyLong_FromUnsignedLongLong(source.state);
    if (rng == NULL) {
        Py_DECREF(s);
        return NULL;
    }
    return Py_BuildValue("(NN)", s, rng);
}

/* heuristic_action(rng_state) -> (action, rng_state after its draws). */
static PyObject *state_heuristic_action(StateObject *self, PyObject *arg) {
    SplitMix rng;
    if (as_u64(arg, &rng.state) < 0) return NULL;
    if (ne_terminal(self->game, self->st)) {
        PyErr_SetString(PyExc_ValueError, "the game is over: no seat is to act");
        return NULL;
    }
    int action = self->game->engine->heuristic(&self->game->cfg, self->st, &rng);
    return Py_BuildValue("(iK)", action, (unsigned long long)rng.state);
}

/* dump() -> (rng_state, decisions, truncated, values). */
static PyObject *state_dump(StateObject *self, PyObject *Py_UNUSED(ignored)) {
    int64_t *data = PyMem_Malloc(sizeof(int64_t) * (size_t)(self->game->engine->max_dump + 1));
    if (data == NULL) return PyErr_NoMemory();
    int n = self->game->engine->dump(&self->game->cfg, self->st, data);
    PyObject *list = PyList_New(n);
    for (int i = 0; list != NULL && i < n; i++) {
        PyObject *v = PyLong_FromLongLong(data[i]);
        if (v == NULL) {
            Py_CLEAR(list);
            break;
        }
        PyList_SET_ITEM(list, i, v);
    }
    PyMem_Free(data);
    if (list == NULL) return NULL;
    const NeHeader *h = NE_HEADER(self->st);
    return Py_BuildValue("(KLON)", (unsigned long long)h->rng.state, (long long)h->decisions,
                         h->truncated ? Py_True : Py_False, list);
}

static PyObject *state_get(StateObject *self, void *what) {
    const NeHeader *h = NE_HEADER(self->st);
    switch ((int)(intptr_t)what) {
    case 0: return PyLong_FromLongLong(h->decisions);
    case 1: return PyLong_FromUnsignedLongLong(h->rng.state);
    default: Py_INCREF(self->game); return (PyObject *)self->game;
    }
}

static PyMethodDef state_methods[] = {
    {"current_player", (PyCFunction)state_current_player, METH_NOARGS, "The seat to act, -1 when terminal."},
    {"is_terminal", (PyCFunction)state_is_terminal, METH_NOARGS, "The game's end or truncation."},
    {"is_truncated", (PyCFunction)state_is_truncated, METH_NOARGS, "Cut at max_decisions."},
    {"legal_actions", (PyCFunction)state_legal_actions, METH_NOARGS, "The legal actions, ascending."},
    {"legal_mask", (PyCFunction)state_legal_mask, METH_O, "legal_mask(out): 1 at each legal action of int8 out."},
    {"apply_action", (PyCFunction)state_apply_action, METH_O, "Apply a legal action (ValueError otherwise)."},
    {"returns", (PyCFunction)state_returns, METH_NOARGS, "Final returns per seat (zeros until the end)."},
    {"scores", (PyCFunction)state_scores, METH_NOARGS, "The game's scores per seat."},
    {"winners", (PyCFunction)state_winners, METH_NOARGS, "The winning seats (none before the end)."},
    {"observe", (PyCFunction)state_observe, METH_VARARGS, "observe(seat, out): the observation into float32 out."},
    {"clone", (PyCFunction)state_clone, METH_NOARGS, "An independent copy."},
    {"resample_hidden", (PyCFunction)state_resample_hidden, METH_VARARGS,
     "resample_hidden(seat, source_state) -> (state, source_state)."},
    {"heuristic_action", (PyCFunction)state_heuristic_action, METH_O,
     "heuristic_action(rng_state) -> (action, rng_state): the heuristic bot's move for the seat to act."},
    {"dump", (PyCFunction)state_dump, METH_NOARGS, "dump() -> (rng_state, decisions, truncated, values)."},
    {NULL, NULL, 0, NULL},
};

static PyGetSetDef state_getset[] = {
    {"decisions", (getter)state_get, NULL, NULL, (void *)0},
    {"rng_state", (getter)state_get, NULL, NULL, (void *)1},
    {"game", (getter)state_get, NULL, NULL, (void *)2},
    {NULL, NULL, NULL, NULL, NULL},
};

PyTypeObject EngineStateType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pirate_envs._native.EngineState",
    .tp_basicsize = sizeof(StateObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "A game state owned by a compiled engine (made by NativeGame.new_state or NativeGame.load).",
    .tp_dealloc = (destructor)state_dealloc,
    .tp_methods = state_methods,
    .tp_getset = state_getset,
};
