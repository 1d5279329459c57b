/* What Dead Man's Draw's compiled twins of the heuristic bot (bot.c) and action features (features.c) share on the
 * Python side: the spec tuple HeuristicPolicy.native_spec builds once per game (the order of the B_* enum) and
 * the seat's observation and mask read from Python buffers. The bot itself is bot_core.h / bot_core.c, pure C,
 * shared with the compiled engine (observe.c).
 */
#ifndef PIRATE_ENVS_DMD_NATIVE_H
#define PIRATE_ENVS_DMD_NATIVE_H

#include "core/native/common.h"
#include "games/dead_mans_draw/native/bot_core.h"

static inline int spec_error(const char *what) {
    return twin_error("dmd bot twin", what);
}

static inline int float_table(PyObject *table, double *into, long size) {
    if (!PyTuple_Check(table) || PyTuple_GET_SIZE(table) != size) return spec_error("a table of the wrong length");
    for (long i = 0; i < size; i++) {
        PyObject *o = PyTuple_GET_ITEM(table, i);
        if (!PyFloat_Check(o)) return spec_error("a table of floats holds something else");
        into[i] = PyFloat_AS_DOUBLE(o);
    }
    return 0;
}

static inline int byte_table(PyObject *table, unsigned char *into, long size) {
    return twin_bytes(table, into, size, "dmd bot twin");
}

static inline int read_spec(Dmd *d, PyObject *spec) {
    if (twin_spec_ints(spec, B_COUNT, B_INTS, d->sp, "dmd bot twin") < 0) return -1;
    const long *sp = d->sp, nc = sp[B_NUM_CARDS], ns = sp[B_NUM_SUITS];
    if (nc < 1 || nc > MAX_CARDS || ns < 1 || ns > MAX_SUITS || sp[B_N] < 2 || sp[B_N] > MAX_PLAYERS ||
        sp[B_NUM_ACTIONS] < 1 || sp[B_NUM_ACTIONS] > MAX_ACTIONS || sp[B_NUM_ABILITIES] > MAX_CARDS)
        return spec_error("too many cards, suits, players or actions");
    if (byte_table(PyTuple_GET_ITEM(spec, B_CARD_SUIT), d->suit, nc) < 0 ||
        byte_table(PyTuple_GET_ITEM(spec, B_CARD_VALUE), d->value, nc) < 0 ||
        byte_table(PyTuple_GET_ITEM(spec, B_ABILITY_RANK), d->rank, sp[B_NUM_ABILITIES]) < 0 ||
        float_table(PyTuple_GET_ITEM(spec, B_BONUS), d->bonus, ns) < 0 ||
        float_table(PyTuple_GET_ITEM(spec, B_HALF_PULL), d->half_pull, ns) < 0)
        return -1;
    for (long c = 0; c < nc; c++)
        if (d->suit[c] >= ns) return spec_error("a card's suit outside the suits");
    /* every action the decisions name must index the mask, every field lie inside the observation */
    const long n = sp[B_N], na = sp[B_NUM_ACTIONS];
    if (sp[B_STOP] < 0 || sp[B_STOP] >= na || sp[B_DRAW] < 0 || sp[B_DRAW] >= na || sp[B_OWN_SUIT_BASE] < 0 ||
        sp[B_CARD_BASE] < 0 || sp[B_ABILITY_BASE] < 0 || sp[B_LOCKER_TARGET_BASE] < 0 || sp[B_TARGET_BASE] < 0)
        return spec_error("an action outside the actions");
    const long fields[][2] = {
        {B_PHASE, sp[B_NUM_PHASES]}, {B_CONFIG, sp[B_NUM_VARIANTS]}, {B_MY_COLLECTION, nc * n}, {B_ROW_CARDS, nc},
        {B_ROW_POSITION, nc}, {B_MARKER_POSITION, 1}, {B_DRAW_PILE, nc}, {B_KNOWN_TOP, 3 * nc}, {B_SCORES, n},
        {B_ELIMINATED, n},
    };
    for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
        long start = sp[fields[i][0]], size = fields[i][1];
        if (start < 0 || size < 0 || start + size > sp[B_SIZE]) return spec_error("a field outside the observation");
    }
    return 0;
}

/* Reads the observation and the mask (HeuristicPolicy._read); 0, or -1 on an error. On 0 the observation's
 * buffer is held until release_obs. */
static inline int read_obs(Dmd *d, Py_buffer *obs_buf, PyObject *obs_obj, PyObject *mask_obj) {
    Py_buffer mbuf;
    const long *sp = d->sp;
    if (twin_obs_and_mask(obs_obj, mask_obj, sp[B_SIZE], sp[B_NUM_ACTIONS], obs_buf, &mbuf, "dmd bot twin") < 0)
        return -1;
    int legal[MAX_ACTIONS];
    int n_legal = legal_actions((const char *)mbuf.buf, sp[B_NUM_ACTIONS], legal);
    PyBuffer_Release(&mbuf);
    dmd_read(d, (const float *)obs_buf->buf, legal, n_legal);
    return 0;
}

static inline void release_obs(Py_buffer *obs_buf) {
    PyBuffer_Release(obs_buf);
}

#endif
