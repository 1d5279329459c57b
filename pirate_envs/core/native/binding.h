/* What the generic native files share (binding.c, search.c, vector.c): the Python types over a NativeEngine and
 * the engine-level operations every game gets for free (truncation, legality, reseeding on resample).
 */
#ifndef PIRATE_ENVS_NATIVE_BINDING_H
#define PIRATE_ENVS_NATIVE_BINDING_H

#include "core/native/common.h"
#include "core/native/engine.h"

/* The engines built into this module (engines.c), NULL-terminated. */
extern const NativeEngine *const NATIVE_ENGINES[];

/* _native.NativeGame: one engine with one configuration (player count, options, sizes). */
typedef struct {
    PyObject_HEAD
    const NativeEngine *engine;
    NeConfig cfg;
} GameObject;

/* _native.EngineState: one game state owned by C. */
typedef struct {
    PyObject_HEAD
    GameObject *game;
    void *st;
} StateObject;

extern PyTypeObject NativeGameType;
extern PyTypeObject EngineStateType;

/* ---- engine-level operations, on a state made by init/apply/load ---------------------------------------- */

static inline int ne_terminal(const GameObject *g, const void *st) {
    return NE_CHEADER(st)->truncated || g->engine->is_terminal(&g->cfg, st);
}

static inline int ne_current(const GameObject *g, const void *st) {
    return ne_terminal(g, st) ? -1 : g->engine->current_player(&g->cfg, st);
}

/* Legal actions (none once terminal); out has room for engine->max_actions. */
static inline int ne_legal(const GameObject *g, const void *st, int32_t *out) {
    return ne_terminal(g, st) ? 0 : g->engine->legal_actions(&g->cfg, st, out);
}

/* Apply a legal action and count the decision (State.apply_action after its checks). */
static inline void ne_apply(const GameObject *g, void *st, int action) {
    g->engine->apply(&g->cfg, st, action);
    NeHeader *h = NE_HEADER(st);
    h->decisions++;
    if (h->decisions >= g->cfg.max_decisions && !g->engine->is_terminal(&g->cfg, st)) h->truncated = 1;
}

/* Final returns (zeros before the end and after truncation), as State.returns. */
static inline void ne_returns(const GameObject *g, const void *st, double *out) {
    if (NE_CHEADER(st)->truncated || !g->engine->is_terminal(&g->cfg, st)) {
        for (int i = 0; i < g->cfg.num_players; i++) out[i] = 0.0;
        return;
    }
    g->engine->returns(&g->cfg, st, out);
}

/* A fresh game from the Rng state ``rng`` (already mixed from the seed, as Python's Rng(seed).state). */
static inline void ne_init(const GameObject *g, void *st, uint64_t rng) {
    memset(st, 0, g->engine->state_size);
    NE_HEADER(st)->rng.state = rng;
    g->engine->init(&g->cfg, st);
}

/* State.resample_hidden on a copy already made: its own generator reseeded from source, then the game's part. */
static inline void ne_resample(const GameObject *g, void *st, int seat, SplitMix *source) {
    NE_HEADER(st)->rng.state = sm_seed_state(sm_next(source));
    g->engine->resample_hidden(&g->cfg, st, seat, source);
}

/* A legal action at random (Python: legal[rng.randrange(len(legal))]); -1 when terminal. */
static inline int ne_random_action(const GameObject *g, const void *st, SplitMix *rng, int32_t *buf) {
    int n = ne_legal(g, st, buf);
    return n ? buf[sm_randrange(rng, (uint64_t)n)] : -1;
}

/* New Python objects. */
StateObject *state_alloc(GameObject *g);
/* The GameObject of an argument, or NULL with a TypeError. */
GameObject *as_game(PyObject *o);
StateObject *as_state(PyObject *o);
/* A writable C-contiguous buffer of exactly ``count`` items of ``format`` ("f" float32, "b" int8, "d" float64,
 * "i" int32, "q" int64, "?" bool (any one-byte type)); 0, or -1 with a ValueError naming ``what``. */
int get_buffer(PyObject *o, Py_buffer *view, const char *format, Py_ssize_t count, const char *what);
/* An unsigned 64-bit generator state from a Python int in [0, 2**64); 0, or -1 with an exception set. */
int as_u64(PyObject *o, uint64_t *out);

/* search.c */
PyObject *native_ismcts(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *native_flatmc(PyObject *self, PyObject *args, PyObject *kwargs);
PyObject *native_puct(PyObject *self, PyObject *args, PyObject *kwargs);
/* vector.c */
extern PyTypeObject NativeVectorType;

#endif
