/* _native.NativeVector: N games of one compiled engine stepped together, each from one learner decision to the
 * next, with random or heuristic opponents played in C, or opponents decided outside (a network: the Python side
 * gets their observations as one batch). pirate_envs.vector wraps it as a Gymnasium VectorEnv and an SB3 VecEnv.
 *
 * One step, as the Python side drives it: apply_learner(actions); then advance() plays the native opponents and
 * returns the envs waiting for an outside decision (apply_external answers them; advance again until none
 * waits); collect() reports the episodes that ended (reward: the learner seat's return, 0 after truncation),
 * writes their final observations and starts new games in their place (advance again); observe() writes every
 * learner's observation and mask. Every env keeps its own SplitMix generator: game seeds, the learner's seat
 * ("random" seat mode) and the opponents' tie-breaks come from it.
 */
#include "core/native/binding.h"

enum { OPP_RANDOM = 0, OPP_HEURISTIC = 1, OPP_EXTERNAL = 2 }; /* an outside group: OPP_EXTERNAL + its index */

typedef struct {
    PyObject_HEAD
    GameObject *game;
    int num_envs;
    int seat_mode; /* a seat, or -1: drawn at every reset */
    unsigned char *states;
    int32_t *kinds; /* num_envs * NE_MAX_PLAYERS: each seat's opponent (0 random, 1 heuristic, >= 2 outside group) */ /* num_envs * state_size */
    SplitMix *rngs;
    int32_t *seats;
    int64_t *lengths; /* learner decisions in the running episode */
    int32_t *legal;   /* max_actions scratch */
} VectorObject;

static void *env_state(const VectorObject *v, int i) { return v->states + (size_t)i * v->game->engine->state_size; }

static void env_reset(VectorObject *v, int i) {
    SplitMix *rng = &v->rngs[i];
    uint64_t game_seed = sm_next(rng);
    v->seats[i] = v->seat_mode >= 0 ? v->seat_mode : (int32_t)sm_randrange(rng, (uint64_t)v->game->cfg.num_players);
    v->lengths[i] = 0;
    ne_init(v->game, env_state(v, i), sm_seed_state(game_seed));
}

static int vector_init(VectorObject *self, PyObject *args, PyObject *kwargs) {
    static char *names[] = {"game", "num_envs", "seat", "opponents", "seed", NULL};
    PyObject *game_obj;
    int num_envs, seat, opponents;
    unsigned long long seed;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiiiK", names, &game_obj, &num_envs, &seat, &opponents, &seed))
        return -1;
    GameObject *g = as_game(game_obj);
    if (g == NULL) return -1;
    if (g->engine == NULL) {
        PyErr_SetString(PyExc_ValueError, "the NativeGame was not initialised");
        return -1;
    }
    if (num_envs < 1 || num_envs > (1 << 20) || seat < -1 || seat >= g->cfg.num_players || opponents < 0 ||
        opponents > (1 << 20)) {
        PyErr_SetString(PyExc_ValueError, "num_envs in [1, 2**20], seat in [-1, num_players), opponents >= 0");
        return -1;
    }
    if (self->game != NULL) {
        PyErr_SetString(PyExc_ValueError, "a NativeVector is initialised once");
        return -1;
    }
    size_t n = (size_t)num_envs;
    self->states = PyMem_Calloc(n, g->engine->state_size);
    self->rngs = PyMem_Calloc(n, sizeof(SplitMix));
    self->seats = PyMem_Calloc(n, sizeof(int32_t));
    self->lengths = PyMem_Calloc(n, sizeof(int64_t));
    self->legal = PyMem_Calloc((size_t)g->engine->max_actions, sizeof(int32_t));
    self->kinds = PyMem_Calloc(n * NE_MAX_PLAYERS, sizeof(int32_t));
    if (!self->states || !self->rngs || !self->seats || !self->lengths || !self->legal || !self->kinds) {
        PyErr_NoMemory();
        return -1;
    }
    Py_INCREF(g);
    self->game = g;
    self->num_envs = num_envs;
    self->seat_mode = seat;
    for (size_t k = 0; k < n * NE_MAX_PLAYERS; k++) self->kinds[k] = opponents;
    SplitMix master = {sm_seed_state(seed)};
    for (int i = 0; i < num_envs; i++) {
        self->rngs[i].state = sm_seed_state(sm_next(&master));
        env_reset(self, i);
    }
    return 0;
}

static void vector_dealloc(VectorObject *self) {
    PyMem_Free(self->states);
    PyMem_Free(self->rngs);
    PyMem_Free(self->seats);
    PyMem_Free(self->lengths);
    PyMem_Free(self->legal);
    PyMem_Free(self->kinds);
    Py_XDECREF(self->game);
    Py_TYPE(self)->tp_free((PyObject *)self);
}

static int ready(VectorObject *v) {
    if (v->game == NULL) {
        PyErr_SetString(PyExc_ValueError, "the NativeVector was not initialised");
        return -1;
    }
    return 0;
}

/* The actions of a buffer of int64 or int32 values (count of them) into a fresh int64 array. */
static int64_t *read_actions(PyObject *obj, Py_ssize_t count) {
    Py_buffer view;
    if (PyObject_GetBuffer(obj, &view, PyBUF_FORMAT | PyBUF_C_CONTIGUOUS) < 0) return NULL;
    const char *f = view.format ? view.format : "B";
    if (f[0] == '<' || f[0] == '=' || f[0] == '@') f++;
    int wide = (f[0] == 'q' || f[0] == 'l') && view.itemsize == 8;
    int narrow = (f[0] == 'i' || f[0] == 'l') && view.itemsize == 4;
    if ((!wide && !narrow) || view.len != count * view.itemsize) {
        PyBuffer_Release(&view);
        PyErr_Format(PyExc_ValueError, "actions must be %zd int64 or int32 values", count);
        return NULL;
    }
    int64_t *out = PyMem_Malloc(sizeof(int64_t) * (size_t)(count ? count : 1));
    if (out == NULL) {
        PyBuffer_Release(&view);
        PyErr_NoMemory();
        return NULL;
    }
    for (Py_ssize_t i = 0; i < count; i++) out[i] = wide ? ((int64_t *)view.buf)[i] : ((int32_t *)view.buf)[i];
    PyBuffer_Release(&view);
    return out;
}

static int is_legal(VectorObject *v, const void *st, int64_t action) {
    int n = ne_legal(v->game, st, v->legal);
    for (int k = 0; k < n; k++)
        if (v->legal[k] == action) return 1;
    return 0;
}

/* apply_learner(actions): every env's learner action; nothing changes unless all are legal (ValueError naming
 * the first env whose action is not). */
static PyObject *vector_apply_learner(VectorObject *self, PyObject *arg) {
    if (ready(self) < 0) return NULL;
    int64_t *actions = read_actions(arg, self->num_envs);
    if (actions == NULL) return NULL;
    for (int i = 0; i < self->num_envs; i++) {
        void *st = env_state(self, i);
        if (ne_current(self->game, st) != self->seats[i] || !is_legal(self, st, actions[i])) {
            PyErr_Format(PyExc_ValueError, "env %d: action %lld is not legal for the learner (seat %d)", i,
                         (long long)actions[i], self->seats[i]);
            PyMem_Free(actions);
            return NULL;
        }
    }
    for (int i = 0; i < self->num_envs; i++) {
        ne_apply(self->game, env_state(self, i), (int)actions[i]);
        self->lengths[i]++;
    }
    PyMem_Free(actions);
    Py_RETURN_NONE;
}

/* advance(envs_out, groups_out, obs_out, masks_out) -> k: native opponents play until each game is at its
 * learner's decision, over, or at an outside opponent's decision; the first k rows name those last envs, the
 * outside group deciding (its kind - 2), the acting seat's observation and mask. */
static PyObject *vector_advance(VectorObject *self, PyObject *args) {
    PyObject *envs_obj, *groups_obj, *obs_obj, *masks_obj;
    if (ready(self) < 0 || !PyArg_ParseTuple(args, "OOOO", &envs_obj, &groups_obj, &obs_obj, &masks_obj)) return NULL;
    const GameObject *g = self->game;
    Py_buffer envs, groups, obs, masks;
    if (get_buffer(groups_obj, &groups, "i", self->num_envs, "groups_out") < 0) return NULL;
    if (get_buffer(envs_obj, &envs, "i", self->num_envs, "envs_out") < 0) {
        PyBuffer_Release(&groups);
        return NULL;
    }
    if (get_buffer(obs_obj, &obs, "f", (Py_ssize_t)self->num_envs * g->cfg.obs_size, "obs_out") < 0) {
        PyBuffer_Release(&envs);
        PyBuffer_Release(&groups);
        return NULL;
    }
    if (get_buffer(masks_obj, &masks, "b", (Py_ssize_t)self->num_envs * g->cfg.num_actions, "masks_out") < 0) {
        PyBuffer_Release(&envs);
        PyBuffer_Release(&groups);
        PyBuffer_Release(&obs);
        return NULL;
    }
    int waiting = 0;
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < self->num_envs; i++) {
        void *st = env_state(self, i);
        int seat;
        while ((seat = ne_current(g, st)) >= 0 && seat != self->seats[i]) {
            int action, kind = self->kinds[(size_t)i * NE_MAX_PLAYERS + seat];
            if (kind == OPP_RANDOM) action = ne_random_action(g, st, &self->rngs[i], self->legal);
            else if (kind == OPP_HEURISTIC) action = g->engine->heuristic(&g->cfg, st, &self->rngs[i]);
            else {
                ((int32_t *)envs.buf)[waiting] = i;
                ((int32_t *)groups.buf)[waiting] = kind - OPP_EXTERNAL;
                g->engine->observe(&g->cfg, st, seat, (float *)obs.buf + (size_t)waiting * g->cfg.obs_size);
                int8_t *mask = (int8_t *)masks.buf + (size_t)waiting * g->cfg.num_actions;
                memset(mask, 0, (size_t)g->cfg.num_actions);
                int n = g->engine->legal_actions(&g->cfg, st, self->legal);
                for (int k = 0; k < n; k++) mask[self->legal[k]] = 1;
                waiting++;
                break;
            }
            ne_apply(g, st, action);
        }
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&envs);
    PyBuffer_Release(&groups);
    PyBuffer_Release(&obs);
    PyBuffer_Release(&masks);
    return PyLong_FromLong(waiting);
}

/* apply_external(envs, actions): the outside opponents' actions for the envs advance named (all checked first). */
static PyObject *vector_apply_external(VectorObject *self, PyObject *args) {
    PyObject *envs_obj, *actions_obj;
    if (ready(self) < 0 || !PyArg_ParseTuple(args, "OO", &envs_obj, &actions_obj)) return NULL;
    Py_ssize_t k = PyObject_Length(envs_obj);
    if (k < 0) return NULL;
    if (k > self->num_envs) {
        PyErr_SetString(PyExc_ValueError, "more envs than the vector holds");
        return NULL;
    }
    int64_t *envs = read_actions(envs_obj, k);
    if (envs == NULL) return NULL;
    int64_t *actions = read_actions(actions_obj, k);
    if (actions == NULL) {
        PyMem_Free(envs);
        return NULL;
    }
    PyObject *result = Py_None;
    for (Py_ssize_t j = 0; j < k && result != NULL; j++) {
        int64_t i = envs[j];
        if (i < 0 || i >= self->num_envs) {
            PyErr_Format(PyExc_ValueError, "env index %lld is out of range", (long long)i);
            result = NULL;
            break;
        }
        const void *st = env_state(self, (int)i);
        int seat = ne_current(self->game, st);
        if (seat < 0 || seat == self->seats[i] || !is_legal(self, st, actions[j])) {
            PyErr_Format(PyExc_ValueError, "env %lld: action %lld is not legal for its opponent", (long long)i,
                         (long long)actions[j]);
            result = NULL;
        }
    }
    if (result != NULL)
        for (Py_ssize_t j = 0; j < k; j++) ne_apply(self->game, env_state(self, (int)envs[j]), (int)actions[j]);
    PyMem_Free(envs);
    PyMem_Free(actions);
    if (result == NULL) return NULL;
    Py_RETURN_NONE;
}

/* collect(rewards, terminated, truncated, final_obs, ended, lengths) -> k: the envs whose game is over: reward
 * (the learner's return), flags, final observation (row i of final_obs), the ended envs' indices and episode
 * lengths in the first k entries of ended/lengths; those envs start new games. Other envs get reward 0 and
 * False flags. */
static PyObject *vector_collect(VectorObject *self, PyObject *args) {
    PyObject *o[6];
    if (ready(self) < 0 || !PyArg_ParseTuple(args, "OOOOOO", &o[0], &o[1], &o[2], &o[3], &o[4], &o[5])) return NULL;
    const GameObject *g = self->game;
    Py_ssize_t n = self->num_envs;
    const char *formats[6] = {"f", "?", "?", "f", "i", "q"};
    Py_ssize_t counts[6] = {n, n, n, n * g->cfg.obs_size, n, n};
    const char *what[6] = {"rewards", "terminated", "truncated", "final_obs", "ended", "lengths"};
    Py_buffer b[6];
    for (int k = 0; k < 6; k++)
        if (get_buffer(o[k], &b[k], formats[k], counts[k], what[k]) < 0) {
            while (k-- > 0) PyBuffer_Release(&b[k]);
            return NULL;
        }
    float *rewards = b[0].buf;
    char *terminated = b[1].buf, *truncated = b[2].buf;
    int32_t *ended = b[4].buf;
    int64_t *lengths = b[5].buf;
    int count = 0;
    double returns[NE_MAX_PLAYERS];
    for (int i = 0; i < n; i++) {
        void *st = env_state(self, i);
        rewards[i] = 0.0f;
        terminated[i] = truncated[i] = 0;
        if (!ne_terminal(g, st)) continue;
        int cut = NE_HEADER(st)->truncated;
        ne_returns(g, st, returns);
        rewards[i] = cut ? 0.0f : (float)returns[self->seats[i]];
        terminated[i] = (char)!cut;
        truncated[i] = (char)cut;
        g->engine->observe(&g->cfg, st, self->seats[i], (float *)b[3].buf + (size_t)i * g->cfg.obs_size);
        ended[count] = i;
        lengths[count++] = self->lengths[i];
        env_reset(self, i);
    }
    for (int k = 0; k < 6; k++) PyBuffer_Release(&b[k]);
    return PyLong_FromLong(count);
}

/* observe(obs, masks): every env's learner observation and legal mask (each env is at its learner's decision). */
static PyObject *vector_observe(VectorObject *self, PyObject *args) {
    PyObject *obs_obj, *masks_obj;
    if (ready(self) < 0 || !PyArg_ParseTuple(args, "OO", &obs_obj, &masks_obj)) return NULL;
    const GameObject *g = self->game;
    Py_buffer obs, masks;
    if (get_buffer(obs_obj, &obs, "f", (Py_ssize_t)self->num_envs * g->cfg.obs_size, "obs") < 0) return NULL;
    if (get_buffer(masks_obj, &masks, "b", (Py_ssize_t)self->num_envs * g->cfg.num_actions, "masks") < 0) {
        PyBuffer_Release(&obs);
        return NULL;
    }
    Py_BEGIN_ALLOW_THREADS
    for (int i = 0; i < self->num_envs; i++) {
        const void *st = env_state(self, i);
        g->engine->observe(&g->cfg, st, self->seats[i], (float *)obs.buf + (size_t)i * g->cfg.obs_size);
        int8_t *mask = (int8_t *)masks.buf + (size_t)i * g->cfg.num_actions;
        memset(mask, 0, (size_t)g->cfg.num_actions);
        int k = ne_current(g, st) == self->seats[i] ? g->engine->legal_actions(&g->cfg, st, self->legal) : 0;
        for (int a = 0; a < k; a++) mask[self->legal[a]] = 1;
    }
    Py_END_ALLOW_THREADS
    PyBuffer_Release(&obs);
    PyBuffer_Release(&masks);
    Py_RETURN_NONE;
}

/* set_opponents(envs, kinds): each named env's opponents, one row of num_players kinds per env (0 random,
 * 1 heuristic, 2 + g the outside group g; the learner's own seat is ignored). */
static PyObject *vector_set_opponents(VectorObject *self, PyObject *args) {
    PyObject *envs_obj, *kinds_obj;
    if (ready(self) < 0 || !PyArg_ParseTuple(args, "OO", &envs_obj, &kinds_obj)) return NULL;
    Py_ssize_t k = PyObject_Length(envs_obj);
    if (k < 0) return NULL;
    if (k > self->num_envs) {
        PyErr_SetString(PyExc_ValueError, "more envs than the vector holds");
        return NULL;
    }
    int players = self->game->cfg.num_players;
    int64_t *envs = read_actions(envs_obj, k);
    if (envs == NULL) return NULL;
    int64_t *kinds = read_actions(kinds_obj, k * players);
    if (kinds == NULL) {
        PyMem_Free(envs);
        return NULL;
    }
    for (Py_ssize_t j = 0; j < k; j++) {
        int bad = envs[j] < 0 || envs[j] >= self->num_envs;
        for (int p = 0; p < players && !bad; p++) bad = kinds[j * players + p] < 0 || kinds[j * players + p] > (1 << 20);
        if (bad) {
            PyErr_Format(PyExc_ValueError, "row %zd: env index or opponent kind out of range", j);
            PyMem_Free(envs);
            PyMem_Free(kinds);
            return NULL;
        }
    }
    for (Py_ssize_t j = 0; j < k; j++)
        for (int p = 0; p < players; p++)
            self->kinds[(size_t)envs[j] * NE_MAX_PLAYERS + p] = (int32_t)kinds[j * players + p];
    PyMem_Free(envs);
    PyMem_Free(kinds);
    Py_RETURN_NONE;
}

/* reseed(seed): new generators for every env and new games (the vector's reset(seed=...)). */
static PyObject *vector_reseed(VectorObject *self, PyObject *arg) {
    uint64_t seed;
    if (ready(self) < 0 || as_u64(arg, &seed) < 0) return NULL;
    SplitMix master = {sm_seed_state(seed)};
    for (int i = 0; i < self->num_envs; i++) {
        self->rngs[i].state = sm_seed_state(sm_next(&master));
        env_reset(self, i);
    }
    Py_RETURN_NONE;
}

/* seats() -> list: the learner's seat in each env's running game. */
static PyObject *vector_seats(VectorObject *self, PyObject *Py_UNUSED(ignored)) {
    if (ready(self) < 0) return NULL;
    PyObject *list = PyList_New(self->num_envs);
    for (int i = 0; list != NULL && i < self->num_envs; i++) {
        PyObject *v = PyLong_FromLong(self->seats[i]);
        if (v == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, i, v);
    }
    return list;
}

/* state(i) -> EngineState: a copy of env i's game. */
static PyObject *vector_state(VectorObject *self, PyObject *arg) {
    if (ready(self) < 0) return NULL;
    long i = PyLong_AsLong(arg);
    if (i == -1 && PyErr_Occurred()) return NULL;
    if (i < 0 || i >= self->num_envs) {
        PyErr_Format(PyExc_IndexError, "env index %ld is out of range [0, %d)", i, self->num_envs);
        return NULL;
    }
    StateObject *s = state_alloc(self->game);
    if (s != NULL) memcpy(s->st, env_state(self, (int)i), self->game->engine->state_size);
    return (PyObject *)s;
}

static PyMethodDef vector_methods[] = {
    {"apply_learner", (PyCFunction)vector_apply_learner, METH_O, "apply_learner(actions): every learner's action."},
    {"advance", (PyCFunction)vector_advance, METH_VARARGS,
     "advance(envs_out, groups_out, obs_out, masks_out) -> k: play native opponents; k envs wait for outside ones."},
    {"apply_external", (PyCFunction)vector_apply_external, METH_VARARGS,
     "apply_external(envs, actions): the outside opponents' actions."},
    {"collect", (PyCFunction)vector_collect, METH_VARARGS,
     "collect(rewards, terminated, truncated, final_obs, ended, lengths) -> k: ended episodes, reset in place."},
    {"observe", (PyCFunction)vector_observe, METH_VARARGS, "observe(obs, masks): every learner's view."},
    {"set_opponents", (PyCFunction)vector_set_opponents, METH_VARARGS,
     "set_opponents(envs, kinds): per env, one opponent kind per seat (0 random, 1 heuristic, 2 + outside group)."},
    {"reseed", (PyCFunction)vector_reseed, METH_O, "reseed(seed): new generators and new games."},
    {"seats", (PyCFunction)vector_seats, METH_NOARGS, "The learner's seat per env."},
    {"state", (PyCFunction)vector_state, METH_O, "state(i): a copy of env i's game state."},
    {NULL, NULL, 0, NULL},
};

PyTypeObject NativeVectorType = {
    PyVarObject_HEAD_INIT(NULL, 0).tp_name = "pirate_envs._native.NativeVector",
    .tp_basicsize = sizeof(VectorObject),
    .tp_flags = Py_TPFLAGS_DEFAULT,
    .tp_doc = "NativeVector(game, num_envs, seat, opponents, seed): games stepped together (pirate_envs.vector).",
    .tp_new = PyType_GenericNew,
    .tp_init = (initproc)vector_init,
    .tp_dealloc = (destructor)vector_dealloc,
    .tp_methods = vector_methods,
};
