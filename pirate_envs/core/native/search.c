/* IS-MCTS and flat Monte Carlo over any compiled engine: the C versions of pirate_envs.policies.ismcts and
 * pirate_envs.policies.flatmc, draw for draw. With random rollouts they take the same decision as the Python bots
 * from the same generator state (the twin tests check it); heuristic rollouts draw the bot's tie-breaks from a
 * SplitMix generator where the Python bots use numpy's.
 *
 * The tree is a pool of nodes (one per iteration at most), children as linked lists; the search runs without
 * the GIL on a private copy of the root state.
 */
#include <math.h>
#include <time.h>

#include "core/native/binding.h"

enum { ROLLOUT_RANDOM = 0, ROLLOUT_HEURISTIC = 1 };

typedef struct {
    int32_t action;
    int32_t first_child;
    int32_t next_sibling;
    int32_t visits;
    int64_t avail;
    double total; /* sum of the returns of the seat that chose the action leading here */
} Node;

typedef struct {
    const GameObject *g;
    int rollout;
    int32_t *legal;   /* max_actions */
    int32_t *untried; /* max_actions */
    int32_t *child_of; /* max_actions: node of each legal action, -1 when untried */
    void *root;        /* a private copy of the searched state */
    void *det;         /* the determinisation an iteration plays */
} Search;

static double seconds_now(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + 1e-9 * (double)ts.tv_nsec;
}

/* policies.rollout.play_out: st played to the end in place; its final returns into out. */
static void play_out(const Search *s, void *st, SplitMix *rng, double *out) {
    const GameObject *g = s->g;
    if (s->rollout == ROLLOUT_RANDOM) {
        int action;
        while ((action = ne_random_action(g, st, rng, s->legal)) >= 0) ne_apply(g, st, action);
    } else {
        SplitMix bot = {sm_seed_state(sm_next(rng))};
        while (!ne_terminal(g, st)) ne_apply(g, st, g->engine->heuristic(&g->cfg, st, &bot));
    }
    ne_returns(g, st, out);
}

static int parse_rollout(const char *name, int *rollout) {
    if (strcmp(name, "random") == 0) *rollout = ROLLOUT_RANDOM;
    else if (strcmp(name, "heuristic") == 0) *rollout = ROLLOUT_HEURISTIC;
    else {
        PyErr_Format(PyExc_ValueError, "rollout must be 'random' or 'heuristic', got '%s'", name);
        return -1;
    }
    return 0;
}

/* The scratch of one search, and the root: a copy of the state, so the search runs without the GIL. */
static int search_buffers(Search *s, const StateObject *state) {
    const GameObject *g = state->game;
    size_t n = (size_t)g->engine->max_actions, size = g->engine->state_size;
    s->legal = PyMem_Malloc(sizeof(int32_t) * n);
    s->untried = PyMem_Malloc(sizeof(int32_t) * n);
    s->child_of = PyMem_Malloc(sizeof(int32_t) * n);
    s->root = PyMem_Malloc(size);
    s->det = PyMem_Malloc(size);
    if (s->legal == NULL || s->untried == NULL || s->child_of == NULL || s->root == NULL || s->det == NULL) {
        PyErr_NoMemory();
        return -1;
    }
    memcpy(s->root, state->st, size);
    return 0;
}

static void free_buffers(Search *s) {
    PyMem_Free(s->legal);
    PyMem_Free(s->untried);
    PyMem_Free(s->child_of);
    PyMem_Free(s->root);
    PyMem_Free(s->det);
}

static int check_actor(const GameObject *g, const void *st, int seat) {
    if (seat < 0 || seat >= g->cfg.num_players) {
        PyErr_Format(PyExc_ValueError, "seat must be in [0, %d)", g->cfg.num_players);
        return -1;
    }
    if (ne_current(g, st) != seat) {
        PyErr_Format(PyExc_ValueError, "seat %d is not to act", seat);
        return -1;
    }
    return 0;
}

/* One IS-MCTS search (ISMCTSPolicy.search); returns the iterations done. */
/* The node pool grows by doubling (without the GIL: the raw allocator); a search that cannot grow it stops. */
static int grow_pool(Node **pool, int32_t *capacity) {
    if (*capacity >= INT32_MAX / 2) return -1;
    Node *bigger = PyMem_RawRealloc(*pool, sizeof(Node) * (size_t)*capacity * 2);
    if (bigger == NULL) return -1;
    *pool = bigger;
    *capacity *= 2;
    return 0;
}

static long long ismcts_run(const Search *s, const void *root_state, void *det, int seat, long long iterations,
                            double c, double deadline, SplitMix *rng, Node **pool_ref, int32_t capacity) {
    const GameObject *g = s->g;
    size_t size = g->engine->state_size;
    int32_t used = 1;
    Node *pool = *pool_ref;
    pool[0] = (Node){-1, -1, -1, 0, 0, 0.0};
    int32_t path[4096];
    int32_t players[4096];
    double returns[NE_MAX_PLAYERS];
    long long done = 0;
    while (done < iterations) {
        if (used >= capacity) {
            if (grow_pool(pool_ref, &capacity) < 0) break;
            pool = *pool_ref;
        }
        done++;
        memcpy(det, root_state, size);
        ne_resample(g, det, seat, rng);
        int32_t node = 0;
        int depth = 0;
        while (!ne_terminal(g, det) && depth < 4096) {
            int player = g->engine->current_player(&g->cfg, det);
            int n = g->engine->legal_actions(&g->cfg, det, s->legal);
            int untried = 0;
            for (int i = 0; i < n; i++) {
                int32_t found = -1;
                for (int32_t ch = pool[node].first_child; ch >= 0; ch = pool[ch].next_sibling)
                    if (pool[ch].action == s->legal[i]) {
                        found = ch;
                        break;
                    }
                s->child_of[i] = found;
                if (found < 0) s->untried[untried++] = s->legal[i];
            }
            if (untried) {
                for (int i = 0; i < n; i++)
                    if (s->child_of[i] >= 0) pool[s->child_of[i]].avail++;
                int action = s->untried[sm_randrange(rng, (uint64_t)untried)];
                int32_t child = used++;
                pool[child] = (Node){action, -1, pool[node].first_child, 0, 1, 0.0};
                pool[node].first_child = child;
                ne_apply(g, det, action);
                path[depth] = child;
                players[depth++] = player;
                break;
            }
            double best = -INFINITY;
            int32_t chosen = s->child_of[0];
            for (int i = 0; i < n; i++) {
                Node *ch = &pool[s->child_of[i]];
                ch->avail++;
                double value = ch->total / ch->visits + c * sqrt(log((double)ch->avail) / ch->visits);
                if (value > best) {
                    best = value;
                    chosen = s->child_of[i];
                }
            }
            node = chosen;
            ne_apply(g, det, pool[node].action);
            path[depth] = node;
            players[depth++] = player;
        }
        play_out(s, det, rng, returns);
        for (int i = 0; i < depth; i++) {
            pool[path[i]].visits++;
            pool[path[i]].total += returns[players[i]];
        }
        if (deadline > 0 && seconds_now() >= deadline) break;
    }
    return done;
}

/* ismcts(state, seat, iterations, exploration, rollout, source, time_budget=0) -> (action, iterations done,
 * source after the search, [(action, visits), ...] of the root). */
PyObject *native_ismcts(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"state", "seat", "iterations", "exploration", "rollout", "source", "time_budget", NULL};
    PyObject *state_obj, *source_obj;
    int seat;
    long long iterations;
    double c, budget = 0.0;
    const char *rollout_name;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiLdsO|d", names, &state_obj, &seat, &iterations, &c,
                                     &rollout_name, &source_obj, &budget))
        return NULL;
    StateObject *state = as_state(state_obj);
    Search s = {0};
    SplitMix rng;
    if (state == NULL || parse_rollout(rollout_name, &s.rollout) < 0 || as_u64(source_obj, &rng.state) < 0) return NULL;
    if (iterations < 1 || !(c >= 0 && c < 1e6) || !(budget >= 0 && budget < 1e6)) {
        PyErr_SetString(PyExc_ValueError, "iterations must be >= 1, exploration and time_budget >= 0");
        return NULL;
    }
    const GameObject *g = state->game;
    s.g = g;
    if (check_actor(g, state->st, seat) < 0) return NULL;
    int32_t capacity = iterations < (1 << 16) ? (int32_t)iterations + 1 : (1 << 16);
    Node *pool = PyMem_RawMalloc(sizeof(Node) * (size_t)capacity);
    if (pool == NULL || search_buffers(&s, state) < 0) {
        PyMem_RawFree(pool);
        free_buffers(&s);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    long long done;
    Py_BEGIN_ALLOW_THREADS
    double deadline = budget > 0 ? seconds_now() + budget : 0.0;
    done = ismcts_run(&s, s.root, s.det, seat, iterations, c, deadline, &rng, &pool, capacity);
    Py_END_ALLOW_THREADS
    int n = g->engine->legal_actions(&g->cfg, s.root, s.legal);
    int best_action = s.legal[0];
    long best_visits = -2;
    PyObject *visits = PyList_New(0);
    for (int i = 0; visits != NULL && i < n; i++) {
        long v = -1;
        for (int32_t ch = pool[0].first_child; ch >= 0; ch = pool[ch].next_sibling)
            if (pool[ch].action == s.legal[i]) v = pool[ch].visits;
        if (v > best_visits) {
            best_visits = v;
            best_action = s.legal[i];
        }
        PyObject *pair = Py_BuildValue("(il)", s.legal[i], v < 0 ? 0 : v);
        if (pair == NULL || PyList_Append(visits, pair) < 0) Py_CLEAR(visits);
        Py_XDECREF(pair);
    }
    PyMem_RawFree(pool);
    free_buffers(&s);
    if (visits == NULL) return NULL;
    return Py_BuildValue("(iLKN)", best_action, done, (unsigned long long)rng.state, visits);
}

/* flatmc(state, seat, rollouts, rollout, base) -> (action, [(action, mean return), ...]): FlatMCPolicy.act_state
 * after its draw of ``base``. */
PyObject *native_flatmc(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"state", "seat", "rollouts", "rollout", "base", NULL};
    PyObject *state_obj, *base_obj;
    int seat;
    long long rollouts;
    const char *rollout_name;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiLsO", names, &state_obj, &seat, &rollouts, &rollout_name,
                                     &base_obj))
        return NULL;
    StateObject *state = as_state(state_obj);
    Search s = {0};
    uint64_t base;
    if (state == NULL || parse_rollout(rollout_name, &s.rollout) < 0 || as_u64(base_obj, &base) < 0) return NULL;
    if (rollouts < 1 || rollouts > 50000000) {
        PyErr_SetString(PyExc_ValueError, "rollouts must be in [1, 5e7]");
        return NULL;
    }
    const GameObject *g = state->game;
    s.g = g;
    if (check_actor(g, state->st, seat) < 0) return NULL;
    size_t size = g->engine->state_size;
    int32_t *actions = PyMem_Malloc(sizeof(int32_t) * (size_t)g->engine->max_actions);
    double *values = PyMem_Malloc(sizeof(double) * (size_t)g->engine->max_actions);
    if (actions == NULL || values == NULL || search_buffers(&s, state) < 0) {
        PyMem_Free(actions);
        PyMem_Free(values);
        free_buffers(&s);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    void *root = s.root, *world = s.det;
    int n = g->engine->legal_actions(&g->cfg, root, actions);
    int preferred = actions[0];
    Py_BEGIN_ALLOW_THREADS
    double returns[NE_MAX_PLAYERS];
    if (s.rollout == ROLLOUT_HEURISTIC) {
        SplitMix source = {sm_seed_state(base)};
        memcpy(world, root, size);
        ne_resample(g, world, seat, &source);
        SplitMix bot = {sm_seed_state(base)};
        preferred = g->engine->heuristic(&g->cfg, world, &bot);
    }
    for (int k = 0; k < n; k++) {
        double total = 0.0;
        for (long long i = 0; i < rollouts; i++) {
            SplitMix source = {sm_seed_state(base + (uint64_t)i)};
            memcpy(world, root, size);
            ne_resample(g, world, seat, &source);
            ne_apply(g, world, actions[k]);
            SplitMix play = {sm_seed_state(base + (uint64_t)i)};
            play_out(&s, world, &play, returns);
            total += returns[seat];
        }
        values[k] = total / (double)rollouts;
    }
    Py_END_ALLOW_THREADS
    double best = -INFINITY;
    int best_action = actions[0], preferred_value_is_best = 0;
    for (int k = 0; k < n; k++)
        if (values[k] > best) best = values[k];
    for (int k = n - 1; k >= 0; k--)
        if (values[k] == best) best_action = actions[k];
    for (int k = 0; k < n; k++)
        if (actions[k] == preferred && values[k] == best) preferred_value_is_best = 1;
    PyObject *list = PyList_New(n);
    for (int k = 0; list != NULL && k < n; k++) {
        PyObject *pair = Py_BuildValue("(id)", actions[k], values[k]);
        if (pair == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, k, pair);
    }
    PyMem_Free(actions);
    PyMem_Free(values);
    free_buffers(&s);
    if (list == NULL) return NULL;
    return Py_BuildValue("(iN)", preferred_value_is_best ? preferred : best_action, list);
}

/* puct(state, seat, iterations, exploration, prior, rollout, source) -> (action, iterations, source,
 * [(action, visits, mean return), ...]): PUCT over determinisations at the root (pirate_envs.policies.puct): every
 * iteration draws a determinisation, picks the root action maximising Q + c P sqrt(N) / (1 + n) with the prior P
 * of a network (float64 per action), plays it and rolls out to the end. The most visited action is chosen (ties:
 * the higher prior, then the lower action). */
PyObject *native_puct(PyObject *Py_UNUSED(self), PyObject *args, PyObject *kwargs) {
    static char *names[] = {"state", "seat", "iterations", "exploration", "prior", "rollout", "source", NULL};
    PyObject *state_obj, *prior_obj, *source_obj;
    int seat;
    long long iterations;
    double c;
    const char *rollout_name;
    if (!PyArg_ParseTupleAndKeywords(args, kwargs, "OiLdOsO", names, &state_obj, &seat, &iterations, &c, &prior_obj,
                                     &rollout_name, &source_obj))
        return NULL;
    StateObject *state = as_state(state_obj);
    Search s = {0};
    SplitMix rng;
    if (state == NULL || parse_rollout(rollout_name, &s.rollout) < 0 || as_u64(source_obj, &rng.state) < 0) return NULL;
    if (iterations < 1 || iterations > 50000000 || !(c >= 0 && c < 1e6)) {
        PyErr_SetString(PyExc_ValueError, "iterations must be in [1, 5e7] and exploration >= 0");
        return NULL;
    }
    const GameObject *g = state->game;
    s.g = g;
    if (check_actor(g, state->st, seat) < 0) return NULL;
    Py_buffer prior_view;
    if (get_buffer(prior_obj, &prior_view, "d", g->cfg.num_actions, "prior") < 0) return NULL;
    size_t size = g->engine->state_size;
    size_t na = (size_t)g->engine->max_actions;
    int32_t *actions = PyMem_Malloc(sizeof(int32_t) * na);
    double *prior = PyMem_Malloc(sizeof(double) * na), *total = PyMem_Calloc(na, sizeof(double));
    long long *visits = PyMem_Calloc(na, sizeof(long long));
    int ok = actions && prior && total && visits && search_buffers(&s, state) == 0;
    void *root = s.root, *det = s.det;
    int n = 0;
    if (ok) {
        n = g->engine->legal_actions(&g->cfg, root, actions);
        for (int k = 0; k < n; k++) {
            double p = ((const double *)prior_view.buf)[actions[k]];
            prior[k] = p >= 0 && p <= 1 ? p : -1.0;
            if (prior[k] < 0) ok = 0;
        }
        if (!ok) PyErr_SetString(PyExc_ValueError, "prior values of legal actions must lie in [0, 1]");
    }
    PyBuffer_Release(&prior_view);
    if (!ok) {
        PyMem_Free(actions);
        PyMem_Free(prior);
        PyMem_Free(total);
        PyMem_Free(visits);
        free_buffers(&s);
        return PyErr_Occurred() ? NULL : PyErr_NoMemory();
    }
    Py_BEGIN_ALLOW_THREADS
    double returns[NE_MAX_PLAYERS];
    for (long long i = 0; i < iterations; i++) {
        memcpy(det, root, size);
        ne_resample(g, det, seat, &rng);
        double sqrt_n = sqrt((double)i);
        int chosen = 0;
        double best = -INFINITY;
        for (int k = 0; k < n; k++) {
            double q = visits[k] ? total[k] / (double)visits[k] : 0.0;
            double value = q + c * prior[k] * sqrt_n / (1.0 + (double)visits[k]);
            if (value > best) {
                best = value;
                chosen = k;
            }
        }
        ne_apply(g, det, actions[chosen]);
        play_out(&s, det, &rng, returns);
        visits[chosen]++;
        total[chosen] += returns[seat];
    }
    Py_END_ALLOW_THREADS
    int best_k = 0;
    for (int k = 1; k < n; k++)
        if (visits[k] > visits[best_k] || (visits[k] == visits[best_k] && prior[k] > prior[best_k])) best_k = k;
    PyObject *list = PyList_New(n);
    for (int k = 0; list != NULL && k < n; k++) {
        PyObject *item = Py_BuildValue("(iLd)", actions[k], visits[k], visits[k] ? total[k] / (double)visits[k] : 0.0);
        if (item == NULL) Py_CLEAR(list);
        else PyList_SET_ITEM(list, k, item);
    }
    int action = actions[best_k];
    PyMem_Free(actions);
    PyMem_Free(prior);
    PyMem_Free(total);
    PyMem_Free(visits);
    free_buffers(&s);
    if (list == NULL) return NULL;
    return Py_BuildValue("(iLKN)", action, iterations, (unsigned long long)rng.state, list);
}
