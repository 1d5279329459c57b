/* Pirates of the Spanish Main in plain C, shared by every compiled part of the game (no Python API here): the
 * rules spec (the action blocks, the move distances, the adventure resolvers and the nation of each ship, in
 * the order of heuristic.native_rules_spec()), the heuristic's resolver of the current adventure and the
 * move cards' effect on the line (the twins of heuristic.RESOLVERS, line_after_move and game.move_ship,
 * move_pair, nation_advance / nation_retreat).
 *
 * The Python twins (bot.c, features.c) read the rules spec from Python (potsm.h's potsm_rules); the native
 * engine (engine.c) and its bot use POTSM_RULES, the same values written as a constant (the engine's tests
 * check its decisions against the Python bot's, which reads native_rules_spec()). Fame changes are small
 * whole numbers, so every double here is exact, and the order of the Python loops is kept anyway.
 */
#ifndef PIRATE_ENVS_POTSM_RULES_H
#define PIRATE_ENVS_POTSM_RULES_H

#include <math.h>
#include <string.h>

#define PS_SHIPS 9
#define PS_TYPES 24   /* adventure types */
#define PS_RESOLVER 6 /* bytes per type in the resolver table: kind, p1, p2, p3, places (low byte, high byte) */

enum {
    R_FULL_SPEED, R_LOST_AT_SEA, R_ALLIANCE, R_RIP, R_ADVANCE, R_RETREAT, R_SABOTAGE, R_FOG, R_REPAIR, R_PASS,
    R_PASS_DISCARD, R_ACCUSE_DISCARD, R_ACCUSE,
    R_SHIP_DISTANCE, R_PAIR_DISTANCE, R_NATION_DISTANCE,
    R_INTS, /* the ints end here */
    R_RESOLVERS = R_INTS, R_NATION,
    R_COUNT
};

/* Resolver kinds (heuristic._resolvers): p1..p3 and the places bit mask (bit p: position p) as each reads them. */
enum {
    K_DAMAGE_LAST,  /* p1 ships, from the back, undamaged ones */
    K_AWARD_AT,     /* +1 at each place, undamaged ships only */
    K_AWARD_FRONT,  /* the front p1 undamaged ships gain p2; damaged after when p3 */
    K_DAMAGE_AT,    /* the ships at the places are damaged */
    K_GHOST_SHIP,   /* the ships at the places are damaged and lose a fame if they have one */
    K_VOLCANO,      /* the front undamaged ship is damaged */
    K_CURSED_SHIP,  /* the ships at the places lose a fame if they have one */
    K_MUTINY,       /* the front unrevealed ship loses ceil(fame / 2) */
    K_ATTACK,       /* nation p1: every other nation's ship ahead of its last undamaged ship is damaged */
    K_LOOT,         /* nation p1: each undamaged ship of it takes a fame from every other nation's ship behind */
    K_KINDS
};

typedef struct {
    long sp[R_INTS];
    unsigned char resolver[PS_TYPES][PS_RESOLVER];
    unsigned char nation[PS_SHIPS];
} PotsmRules;

/* heuristic.native_rules_spec() as a constant: the action blocks (PSM-1040..1052), the distances of PSM-630..635,
 * the resolver of every adventure type (PSM-610..627) and the nation of every ship (PSM-201). */
static const PotsmRules POTSM_RULES = {
    .sp = {0, 9, 18, 26, 34, 37, 40, 49, 50, 51, 52, 64, 76, 6, 3, 2},
    .resolver = {
        {K_AWARD_AT, 0, 0, 0, 7, 0}, {K_AWARD_AT, 0, 0, 0, 7, 0}, {K_AWARD_AT, 0, 0, 0, 15, 0},
        {K_AWARD_AT, 0, 0, 0, 15, 0}, {K_AWARD_AT, 0, 0, 0, 21, 0}, {K_AWARD_FRONT, 3, 1, 0, 0, 0},
        {K_AWARD_FRONT, 2, 2, 0, 0, 0}, {K_AWARD_AT, 0, 0, 0, 43, 0}, {K_AWARD_FRONT, 2, 1, 0, 0, 0},
        {K_AWARD_FRONT, 2, 2, 1, 0, 0}, {K_DAMAGE_LAST, 2, 0, 0, 0, 0}, {K_DAMAGE_LAST, 1, 0, 0, 0, 0},
        {K_GHOST_SHIP, 0, 0, 0, 192, 1}, {K_VOLCANO, 0, 0, 0, 0, 0}, {K_DAMAGE_AT, 0, 0, 0, 168, 0},
        {K_DAMAGE_AT, 0, 0, 0, 80, 1}, {K_CURSED_SHIP, 0, 0, 0, 3, 0}, {K_MUTINY, 0, 0, 0, 0, 0},
        {K_ATTACK, 0, 0, 0, 0, 0}, {K_ATTACK, 1, 0, 0, 0, 0}, {K_ATTACK, 2, 0, 0, 0, 0},
        {K_LOOT, 0, 0, 0, 0, 0}, {K_LOOT, 1, 0, 0, 0, 0}, {K_LOOT, 2, 0, 0, 0, 0},
    },
    .nation = {0, 0, 0, 1, 1, 1, 2, 2, 2},
};

/* Whether the rules spec's action blocks have the order and sizes potsm_after_move and the twins index by. */
static inline int potsm_blocks_as_expected(const long *sp) {
    return sp[R_FULL_SPEED] == 0 && sp[R_LOST_AT_SEA] == sp[R_FULL_SPEED] + PS_SHIPS &&
           sp[R_ALLIANCE] == sp[R_LOST_AT_SEA] + PS_SHIPS && sp[R_RIP] == sp[R_ALLIANCE] + PS_SHIPS - 1 &&
           sp[R_ADVANCE] == sp[R_RIP] + PS_SHIPS - 1 && sp[R_RETREAT] == sp[R_ADVANCE] + 3 &&
           sp[R_SABOTAGE] == sp[R_RETREAT] + 3 && sp[R_FOG] == sp[R_SABOTAGE] + PS_SHIPS && sp[R_REPAIR] == sp[R_FOG] + 1 &&
           sp[R_ACCUSE_DISCARD] > sp[R_REPAIR] && sp[R_ACCUSE] > sp[R_ACCUSE_DISCARD];
}

/* The adventure ``card`` on ``line`` (ships front to back): writes ``after`` (damage per ship after it) and
 * ``delta`` (fame change per ship, zero when the card changes no fame); returns 1 when the card changes
 * fame (the Python resolver's delta is not None), else 0. */
static inline int potsm_resolve(const PotsmRules *r, int card, const int *line, const int *damaged, const double *fame,
                         const int *unrevealed, double *delta, int *after) {
    const unsigned char *d = r->resolver[card];
    const int places = d[4] | (d[5] << 8);
    for (int s = 0; s < PS_SHIPS; s++) {
        delta[s] = 0.0;
        after[s] = damaged[s];
    }
    switch (d[0]) {
    case K_DAMAGE_LAST: {
        int left = d[1];
        for (int p = PS_SHIPS - 1; p >= 0; p--) {
            int s = line[p];
            if (!after[s]) {
                after[s] = 1;
                if (--left == 0) break;
            }
        }
        return 0;
    }
    case K_AWARD_AT:
        for (int p = 0; p < PS_SHIPS; p++)
            if ((places >> p) & 1 && !damaged[line[p]]) delta[line[p]] += 1.0;
        return 1;
    case K_AWARD_FRONT: {
        int taken = 0;
        for (int p = 0; p < PS_SHIPS && taken < d[1]; p++) {
            int s = line[p];
            if (!damaged[s]) {
                delta[s] += (double)d[2];
                taken++;
                if (d[3]) after[s] = 1;
            }
        }
        return 1;
    }
    case K_DAMAGE_AT:
        for (int p = 0; p < PS_SHIPS; p++)
            if ((places >> p) & 1) after[line[p]] = 1;
        return 0;
    case K_GHOST_SHIP:
        for (int p = 0; p < PS_SHIPS; p++) {
            if (!((places >> p) & 1)) continue;
            int s = line[p];
            after[s] = 1;
            if (fame[s] >= 1.0) delta[s] = -1.0;
        }
        return 1;
    case K_VOLCANO:
        for (int p = 0; p < PS_SHIPS; p++) {
            if (!after[line[p]]) {
                after[line[p]] = 1;
                break;
            }
        }
        return 0;
    case K_CURSED_SHIP:
        for (int p = 0; p < PS_SHIPS; p++)
            if ((places >> p) & 1 && fame[line[p]] >= 1.0) delta[line[p]] = -1.0;
        return 1;
    case K_MUTINY:
        for (int p = 0; p < PS_SHIPS; p++) {
            int s = line[p];
            if (unrevealed[s]) {
                delta[s] = -ceil(fame[s] / 2.0);
                break;
            }
        }
        return 1;
    case K_ATTACK: {
        int last = -1;
        for (int p = 0; p < PS_SHIPS; p++)
            if (r->nation[line[p]] == d[1] && !damaged[line[p]]) last = p;
        for (int p = 0; p < last; p++)
            if (r->nation[line[p]] != d[1]) after[line[p]] = 1;
        return 0;
    }
    case K_LOOT:
        for (int p = 0; p < PS_SHIPS; p++) {
            int s = line[p];
            if (r->nation[s] != d[1] || damaged[s]) continue;
            for (int q = p + 1; q < PS_SHIPS; q++) {
                int v = line[q];
                if (r->nation[v] != d[1] && fame[v] + delta[v] >= 1.0) {
                    delta[v] -= 1.0;
                    delta[s] += 1.0;
                }
            }
        }
        return 1;
    }
    return 0;
}

/* game.move_ship: the ship at ``position`` moves ``delta`` places (negative: forward), clamped; 1 if it moved. */
static inline int potsm_move_ship(int *line, int position, int delta) {
    int target = position + delta;
    if (target < 0) target = 0;
    if (target > PS_SHIPS - 1) target = PS_SHIPS - 1;
    const int ship = line[position];
    for (int p = position; p > target; p--) line[p] = line[p - 1]; /* forward: the ships between move back */
    for (int p = position; p < target; p++) line[p] = line[p + 1]; /* back: the ships between move forward */
    line[target] = ship;
    return target != position;
}

/* game.move_pair: the ships at ``position`` and ``position + 1`` move as a block, clamped; 1 if they moved. */
static inline int potsm_move_pair(int *line, int position, int delta) {
    int target = position + delta;
    if (target < 0) target = 0;
    if (target > PS_SHIPS - 2) target = PS_SHIPS - 2;
    if (target == position) return 0;
    const int a = line[position], b = line[position + 1];
    for (int p = position + 1; p >= target + 2; p--) line[p] = line[p - 2];
    for (int p = position; p < target; p++) line[p] = line[p + 2];
    line[target] = a;
    line[target + 1] = b;
    return 1;
}

static inline int potsm_index(const int *line, int ship) {
    for (int p = 0; p < PS_SHIPS; p++)
        if (line[p] == ship) return p;
    return -1;
}

/* game.nation_advance / nation_retreat: the nation's ships, front (back) one first, each moved from where
 * it is then; 1 if some ship moved. */
static inline int potsm_nation_move(const PotsmRules *r, int *line, int nation, int forward) {
    int ships[PS_SHIPS], k = 0, distance = (int)r->sp[R_NATION_DISTANCE], moved = 0;
    for (int i = 0; i < PS_SHIPS; i++) {
        int s = line[forward ? i : PS_SHIPS - 1 - i];
        if (r->nation[s] == nation) ships[k++] = s;
    }
    for (int i = 0; i < k; i++) {
        int p = potsm_index(line, ships[i]); /* always found: the ship is on the line */
        if (p >= 0) moved |= potsm_move_ship(line, p, forward ? -distance : distance);
    }
    return moved;
}

/* heuristic.line_after_move: ``line`` and ``damaged`` after move-card action ``a`` < FOG, written into
 * ``new_line`` and ``new_damaged``; 0 only where both are left as they were (no ship moved, no new damage). */
static inline int potsm_after_move(const PotsmRules *r, int a, const int *line, const int *damaged, int *new_line,
                                   int *new_damaged) {
    const long *sp = r->sp;
    memcpy(new_line, line, PS_SHIPS * sizeof(int));
    memcpy(new_damaged, damaged, PS_SHIPS * sizeof(int));
    if (a < sp[R_LOST_AT_SEA]) return potsm_move_ship(new_line, a - (int)sp[R_FULL_SPEED], -(int)sp[R_SHIP_DISTANCE]);
    if (a < sp[R_ALLIANCE]) return potsm_move_ship(new_line, a - (int)sp[R_LOST_AT_SEA], (int)sp[R_SHIP_DISTANCE]);
    if (a < sp[R_RIP]) return potsm_move_pair(new_line, a - (int)sp[R_ALLIANCE], -(int)sp[R_PAIR_DISTANCE]);
    if (a < sp[R_ADVANCE]) return potsm_move_pair(new_line, a - (int)sp[R_RIP], (int)sp[R_PAIR_DISTANCE]);
    if (a < sp[R_RETREAT]) return potsm_nation_move(r, new_line, a - (int)sp[R_ADVANCE], 1);
    if (a < sp[R_SABOTAGE]) return potsm_nation_move(r, new_line, a - (int)sp[R_RETREAT], 0);
    const int ship = line[a - sp[R_SABOTAGE]];
    new_damaged[ship] = 1;
    return damaged[ship] != 1;
}

#endif
