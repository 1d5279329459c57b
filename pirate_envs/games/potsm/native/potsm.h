/* What the compiled twins of Pirates of the Spanish Main that read Python values share (bot.c, features.c): the
 * rules of rules.h, and potsm_rules, which reads them from the "rules spec", the tuple
 * pirate_envs.games.potsm.heuristic.native_rules_spec() builds (the order of the R_* enum; its last entries
 * are the resolver table and the nation of each ship, as bytes), so that the twins write no constant of the
 * rules twice.
 */
#ifndef PIRATE_ENVS_POTSM_NATIVE_H
#define PIRATE_ENVS_POTSM_NATIVE_H

#include "core/native/common.h"
#include "games/potsm/native/rules.h"

static inline int potsm_rules(PyObject *spec, PotsmRules *r, const char *who) {
    if (twin_spec_ints(spec, R_COUNT, R_INTS, r->sp, who) < 0) return -1;
    PyObject *res = PyTuple_GET_ITEM(spec, R_RESOLVERS), *nat = PyTuple_GET_ITEM(spec, R_NATION);
    if (!PyBytes_Check(res) || PyBytes_GET_SIZE(res) != PS_TYPES * PS_RESOLVER || !PyBytes_Check(nat) ||
        PyBytes_GET_SIZE(nat) != PS_SHIPS) {
        PyErr_Format(PyExc_TypeError, "%s: the rules spec's tables must be bytes of the right sizes", who);
        return -1;
    }
    memcpy(r->resolver, PyBytes_AS_STRING(res), PS_TYPES * PS_RESOLVER);
    memcpy(r->nation, PyBytes_AS_STRING(nat), PS_SHIPS);
    for (int t = 0; t < PS_TYPES; t++) {
        if (r->resolver[t][0] >= K_KINDS) {
            PyErr_Format(PyExc_ValueError, "%s: unknown resolver kind", who);
            return -1;
        }
    }
    for (int s = 0; s < PS_SHIPS; s++) {
        if (r->nation[s] > 2) {
            PyErr_Format(PyExc_ValueError, "%s: a nation outside 0..2", who);
            return -1;
        }
    }
    return 0;
}

#endif
