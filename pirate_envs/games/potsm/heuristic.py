"""The heuristic bot of ``potsm_v0``: one-step lookahead of the current adventure, from the observation alone.

The bot reads only its own observation vector (PSM-1010) and action mask, never the state. Per decision:

1. **Ownership belief** (PSM-561, PSM-1079, PSM-1081). Its own pirates are known; revealed owners are
   facts; a public *not-owner* fact forbids an (opponent, ship) pair. The other unknown ships are spread
   over the opponents' free slots and the unused pile by iterative proportional fitting (Sinkhorn) of
   prior weights that lean on the move tallies — players push their own ships forward and push back or
   sabotage the others — and on the accusation tally (nobody names their own pirate, usually).
2. **Ship values** ``V[j]``: +1 for each of its own ships, ``-sum_k P(k owns j) * c_k`` for the others
   (``c_k`` weighs opponent k, more for the estimated leader); unused ships count 0.
3. **Lookahead.** For every distinct line a legal action produces (move cards PSM-502..506 and 630..636,
   Repair PSM-513, Pass) it resolves the current adventure exactly (Section 6), then adds a *potential*
   per ship: the expected fame of its place in the line from the coming adventures (the deck's mix, plus
   the next card of the row in the upcoming variant), minus the expected cost of being or becoming damaged.
   The score of an action is ``sum_j V[j] * (fame gained + potential)``.
4. **Fog** (PSM-637) keeps the current adventure for the next player: its effect counts only in part.
   **Accuse** (PSM-515) adds ``accuse_scale * P(k owns j) * ceil(fame/2) * (1 + c_k)`` to the Pass line; in the
   hand variant it also pays a hand card for good (PSM-803), a cost that fades over the last 2n adventures.
   **Pass-discard** and the accusation's discard throw the card type least worth keeping.

The weights (``DEFAULT_PARAMS``) were tuned in 4-player games against copies of the bot; any of them can be
overridden by keyword (``HeuristicPolicy(game, horizon=2.0)``). ``action_scores`` exposes the evaluation.
Everything runs on plain Python lists. The hot path is kept lean without changing a single float: each
adventure card has its own resolver (``RESOLVERS``), move actions are permutations of positions interned
once (``POSITION_MOVE_IDS``, ``nation_move_id``) so every distinct line is scored once, the Sinkhorn fit is
written out for 4 columns, and every sum keeps the plain version's order and its use of ``sum`` (compensated
from Python 3.12 on) or ``+``.

``HeuristicPolicy.act`` runs the compiled twin (``potsm_act`` in this game's native/bot.c, with
the rules shared with the action features' twin in native/potsm.h, which ``native_rules_spec`` hands it):
every score the same double, ties drawn here with the bot's rng. ``act_python`` stays the reference and
the fallback (tests/test_native_bots_potsm.py).
"""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Callable, Sequence
from operator import itemgetter, mul
from typing import Any

import numpy as np

from pirate_envs.core.native import twin_decides
from pirate_envs.games.potsm.actions import (
    ACCUSE_BASE,
    ACCUSE_DISCARD_BASE,
    ADVANCE_BASE,
    ALLIANCE_BASE,
    FOG_ACTION,
    FULL_SPEED_BASE,
    LOST_AT_SEA_BASE,
    MOVE_TYPE_ACTIONS,
    PASS_ACTION,
    PASS_DISCARD_BASE,
    REPAIR_ACTION,
    RETREAT_BASE,
    RIP_BASE,
    SABOTAGE_BASE,
)
from pirate_envs.games.potsm.cards import (
    ADVENTURE_COUNTS,
    ALLIANCE_DISTANCE,
    CURSED_SHIP,
    CURSED_SHIP_POSITIONS,
    CURSED_TREASURE,
    ENGLISH_ATTACK,
    ENGLISH_LOOT,
    FRONT_AWARDS,
    FULL_SPEED_DISTANCE,
    GHOST_SHIP,
    MAELSTROM,
    MUTINY,
    NATION_MOVE_DISTANCE,
    NATION_OF_SHIP,
    NUM_ADVENTURE_CARDS,
    NUM_ADVENTURE_TYPES,
    POSITION_AWARDS,
    POSITION_DAMAGE,
    SHIPS_OF_NATION,
    STORM_AHEAD,
    VOLCANO,
    pirates_per_player,
)
from pirate_envs.games.potsm.cards import FOG as FOG_MOVE
from pirate_envs.games.potsm.game import move_pair, move_ship, nation_advance, nation_retreat
from pirate_envs.games.potsm.observation import field_slices

# Action blocks (PSM-1040..1052), short names for the hot path.
FULL_SPEED = FULL_SPEED_BASE
LOST_AT_SEA = LOST_AT_SEA_BASE
ALLIANCE = ALLIANCE_BASE
RIP = RIP_BASE
ADVANCE = ADVANCE_BASE
RETREAT = RETREAT_BASE
SABOTAGE = SABOTAGE_BASE
FOG = FOG_ACTION
REPAIR = REPAIR_ACTION
PASS = PASS_ACTION
PASS_DISCARD = PASS_DISCARD_BASE
ACCUSE_DISCARD = ACCUSE_DISCARD_BASE
ACCUSE = ACCUSE_BASE

TIE_TOLERANCE = 1e-9  # actions scoring this close to the best are tied; the bot draws among them
MOVE_TYPE_OF_ACTION = {a: t for t, actions in enumerate(MOVE_TYPE_ACTIONS) for a in actions}
NATION = NATION_OF_SHIP
NATION_SHIPS = SHIPS_OF_NATION
FOG_TYPE = FOG_MOVE
# Adventure effects (Section 6) in the shapes the lookahead reads.
AWARD_AT = POSITION_AWARDS  # +1 at each listed 0-based position, undamaged ships only (PSM-523)
AWARD_FRONT = FRONT_AWARDS  # front k undamaged ships gain a (PSM-522); Cursed Treasure then damages them
DAMAGE_AT = {t: places for t, places in POSITION_DAMAGE.items() if t != GHOST_SHIP}  # Kraken, Cursed Water
ATTACK_FIRST = ENGLISH_ATTACK  # 18..20 X Attack
LOOT_FIRST = ENGLISH_LOOT  # 21..23 X Loot

Line = Sequence[int]  # ships from front to back (a list, or a tuple from a permutation's itemgetter)
Resolved = tuple[list[float] | None, list[int]]
Resolver = Callable[[Line, list[int], list[float], list[bool]], Resolved]

# Static value of holding a move card type, for the hand variant's discards (PSM-803).
CARD_KEEP_VALUE = (1.0, 0.55, 0.7, 0.45, 0.35, 0.35, 0.35, 0.25, 0.25, 0.25, 0.6, 0.9)

DEFAULT_PARAMS: dict[str, float] = {
    "opponent_weight": 0.4,  # c_k for n >= 3 (n = 2 uses 1.0: the game is zero-sum there)
    "leader_weight": 0.4,  # extra c_k for the opponent estimated to lead
    "horizon": 1.5,  # how many coming adventures a place in the line is worth
    "next_weight": 0.5,  # weight of the next known adventure (upcoming variant) on the potential
    "damage_cost": 0.4,  # cost of a ship being damaged (before the end-game scaling)
    "fog_keep": 0.5,  # share of the current adventure's effect still expected after Fog
    "accuse_scale": 1.5,  # multiplier on the accusation's expected steal
    "accuse_cost": 0.0,  # waiting cost of an early accusation (fades over the last 2n adventures)
    "accuse_card_cost": 3.0,  # hand variant: a hand card lost for good (fades like accuse_cost)
    "card_cost": 0.15,  # hand variant: weight of giving up a good card when playing it
    "tally_forward": 0.8,  # ownership evidence per forward play by a seat on a ship
    "tally_backward": 0.8,  # per backward play
    "tally_sabotage": 2.0,  # per Sabotage
    "tally_accuse": 3.0,  # per accusation naming the pirate (nobody names their own)
}


def _potential_tables() -> tuple[list, list, list, list, list, list]:
    """Per adventure type: the expected effect of one adventure on an undamaged ship, by place.

    Returns ``gain_pos[t][p]`` (award at position p), ``gain_rank[t][r]`` (award to the r-th undamaged
    ship from the front), ``damage_pos[t][nation][p]``, ``damage_front[t][r]``, ``damage_back[t][r]``
    (r-th undamaged from the back) and ``loss_pos[t][p]`` (fame lost at position p).
    """
    gain_pos = [[0.0] * 9 for _ in range(NUM_ADVENTURE_TYPES)]
    gain_rank = [[0.0] * 9 for _ in range(NUM_ADVENTURE_TYPES)]
    damage_pos = [[[0.0] * 9 for _ in range(3)] for _ in range(NUM_ADVENTURE_TYPES)]
    damage_front = [[0.0] * 9 for _ in range(NUM_ADVENTURE_TYPES)]
    damage_back = [[0.0] * 9 for _ in range(NUM_ADVENTURE_TYPES)]
    loss_pos = [[0.0] * 9 for _ in range(NUM_ADVENTURE_TYPES)]
    for t, places in AWARD_AT.items():
        for p in places:
            gain_pos[t][p] = 1.0
    for t, (k, amount) in AWARD_FRONT.items():
        for r in range(k):
            gain_rank[t][r] = float(amount)
            if t == CURSED_TREASURE:
                damage_front[t][r] = 1.0
    damage_back[STORM_AHEAD][0] = damage_back[STORM_AHEAD][1] = 1.0
    damage_back[MAELSTROM][0] = 1.0
    damage_front[VOLCANO][0] = 1.0
    for p in POSITION_DAMAGE[GHOST_SHIP]:
        for a in range(3):
            damage_pos[GHOST_SHIP][a][p] = 1.0
        loss_pos[GHOST_SHIP][p] = 1.0
    for t, places in DAMAGE_AT.items():
        for p in places:
            for a in range(3):
                damage_pos[t][a][p] = 1.0
    for p in CURSED_SHIP_POSITIONS:
        loss_pos[CURSED_SHIP][p] = 1.0
    # X Attack: a ship of another nation at p is hit when some X ship is behind it. Its 8 fellow ships
    # hold the 3 X ships in uniformly random places: P(all 3 ahead) = C(p, 3) / C(8, 3).
    for x in range(3):
        for a in range(3):
            if a == x:
                continue
            for p in range(9):
                damage_pos[ATTACK_FIRST + x][a][p] = 1.0 - math.comb(p, 3) / math.comb(8, 3)
    return gain_pos, gain_rank, damage_pos, damage_front, damage_back, loss_pos


GAIN_POS, GAIN_RANK, DAMAGE_POS, DAMAGE_FRONT, DAMAGE_BACK, LOSS_POS = _potential_tables()


def _mix(weights: list[tuple[int, float]]) -> tuple[list, list, list, list, list, list]:
    """The potential tables of a weighted mixture of adventure types."""
    gp = [0.0] * 9
    gr = [0.0] * 9
    dp = [[0.0] * 9 for _ in range(3)]
    df = [0.0] * 9
    db = [0.0] * 9
    lp = [0.0] * 9
    for t, w in weights:
        if w == 0.0:
            continue
        for i in range(9):
            gp[i] += w * GAIN_POS[t][i]
            gr[i] += w * GAIN_RANK[t][i]
            df[i] += w * DAMAGE_FRONT[t][i]
            db[i] += w * DAMAGE_BACK[t][i]
            lp[i] += w * LOSS_POS[t][i]
            for a in range(3):
                dp[a][i] += w * DAMAGE_POS[t][a][i]
    return gp, gr, dp, df, db, lp


# The deck's mix, per adventure (weights sum to 1).
DECK_MIX = _mix([(t, c / float(NUM_ADVENTURE_CARDS)) for t, c in enumerate(ADVENTURE_COUNTS)])


# The current adventure, one resolver per kind of card (Section 6). Each takes the line, the damage
# flags, fame and the unrevealed flags and returns (fame change per ship or None when the card changes
# no fame, damage flags after): the input list itself when the card damages nothing, else a new one.


def _award_at(places: tuple[int, ...]) -> Resolver:
    def resolve(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
        delta = [0.0] * 9
        for p in places:
            s = line[p]
            if not damaged[s]:
                delta[s] += 1.0
        return delta, damaged

    return resolve


def _award_front(k: int, amount: int, then_damage: bool) -> Resolver:
    def resolve(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
        delta = [0.0] * 9
        taken = []
        for s in line:
            if not damaged[s]:
                delta[s] += amount
                taken.append(s)
                if len(taken) == k:
                    break
        if not then_damage:
            return delta, damaged
        d = damaged[:]
        for s in taken:
            d[s] = 1
        return delta, d

    return resolve


def _damage_last(count: int) -> Resolver:
    def resolve(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
        d = damaged[:]
        left = count
        for p in range(8, -1, -1):
            s = line[p]
            if not d[s]:
                d[s] = 1
                left -= 1
                if left == 0:
                    break
        return None, d

    return resolve


def _ghost_ship(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
    delta = [0.0] * 9
    d = damaged[:]
    for p in POSITION_DAMAGE[GHOST_SHIP]:
        s = line[p]
        d[s] = 1
        if fame[s] >= 1.0:
            delta[s] = -1.0
    return delta, d


def _volcano(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
    d = damaged[:]
    for s in line:
        if not d[s]:
            d[s] = 1
            break
    return None, d


def _damage_at(places: tuple[int, ...]) -> Resolver:
    def resolve(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
        d = damaged[:]
        for p in places:
            d[line[p]] = 1
        return None, d

    return resolve


def _cursed_ship(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
    delta = [0.0] * 9
    for p in CURSED_SHIP_POSITIONS:
        s = line[p]
        if fame[s] >= 1.0:
            delta[s] = -1.0
    return delta, damaged


def _mutiny(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
    delta = [0.0] * 9
    for s in line:
        if unrevealed[s]:
            delta[s] = -float(math.ceil(fame[s] / 2.0))
            break
    return delta, damaged


def _attack(x: int) -> Resolver:
    def resolve(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
        last = -1
        for p in range(9):
            s = line[p]
            if NATION[s] == x and not damaged[s]:
                last = p
        if last <= 0:
            return None, damaged
        d = damaged[:]
        for p in range(last):
            s = line[p]
            if NATION[s] != x:
                d[s] = 1
        return None, d

    return resolve


def _loot(x: int) -> Resolver:
    def resolve(line: Line, damaged: list[int], fame: list[float], unrevealed: list[bool]) -> Resolved:
        delta = [0.0] * 9
        for p in range(9):
            s = line[p]
            if NATION[s] != x or damaged[s]:
                continue
            for q in range(p + 1, 9):
                v = line[q]
                if NATION[v] != x and fame[v] + delta[v] >= 1.0:
                    delta[v] -= 1.0
                    delta[s] += 1.0
        return delta, damaged

    return resolve


def _resolvers() -> tuple[Resolver, ...]:
    """The resolver of every adventure type, by index."""
    table: dict[int, Resolver] = {STORM_AHEAD: _damage_last(2), MAELSTROM: _damage_last(1)}
    table.update({t: _award_at(places) for t, places in AWARD_AT.items()})
    table.update({t: _award_front(k, a, t == CURSED_TREASURE) for t, (k, a) in AWARD_FRONT.items()})
    table.update({t: _damage_at(places) for t, places in DAMAGE_AT.items()})
    table.update({GHOST_SHIP: _ghost_ship, VOLCANO: _volcano, CURSED_SHIP: _cursed_ship, MUTINY: _mutiny})
    table.update({ATTACK_FIRST + x: _attack(x) for x in range(3)})
    table.update({LOOT_FIRST + x: _loot(x) for x in range(3)})
    assert sorted(table) == list(range(NUM_ADVENTURE_TYPES))
    return tuple(table[t] for t in range(NUM_ADVENTURE_TYPES))


RESOLVERS = _resolvers()

# The same resolvers as a table for the compiled twins (native/potsm.h, K_* kinds): per adventure type the
# bytes (kind, p1, p2, p3, places low byte, places high byte), places as a bit mask of positions.
_KIND = {"damage_last": 0, "award_at": 1, "award_front": 2, "damage_at": 3, "ghost_ship": 4, "volcano": 5}
_KIND.update({"cursed_ship": 6, "mutiny": 7, "attack": 8, "loot": 9})


def _places(places: Sequence[int]) -> int:
    return sum(1 << p for p in places)


def _resolver_table() -> bytes:
    rows: dict[int, tuple[int, int, int, int, int]] = {STORM_AHEAD: (_KIND["damage_last"], 2, 0, 0, 0)}
    rows[MAELSTROM] = (_KIND["damage_last"], 1, 0, 0, 0)
    rows.update({t: (_KIND["award_at"], 0, 0, 0, _places(places)) for t, places in AWARD_AT.items()})
    rows.update({t: (_KIND["award_front"], k, a, int(t == CURSED_TREASURE), 0) for t, (k, a) in AWARD_FRONT.items()})
    rows.update({t: (_KIND["damage_at"], 0, 0, 0, _places(places)) for t, places in DAMAGE_AT.items()})
    rows[GHOST_SHIP] = (_KIND["ghost_ship"], 0, 0, 0, _places(POSITION_DAMAGE[GHOST_SHIP]))
    rows[VOLCANO] = (_KIND["volcano"], 0, 0, 0, 0)
    rows[CURSED_SHIP] = (_KIND["cursed_ship"], 0, 0, 0, _places(CURSED_SHIP_POSITIONS))
    rows[MUTINY] = (_KIND["mutiny"], 0, 0, 0, 0)
    rows.update({ATTACK_FIRST + x: (_KIND["attack"], x, 0, 0, 0) for x in range(3)})
    rows.update({LOOT_FIRST + x: (_KIND["loot"], x, 0, 0, 0) for x in range(3)})
    assert sorted(rows) == list(range(NUM_ADVENTURE_TYPES))
    return bytes(b for t in range(NUM_ADVENTURE_TYPES) for b in (*rows[t][:4], rows[t][4] & 255, rows[t][4] >> 8))


# line_after_move moves single ships and pairs by these distances (one per kind of card)
assert FULL_SPEED_DISTANCE == 6 and ALLIANCE_DISTANCE == 3


def native_rules_spec() -> tuple:
    """The rules the compiled twins read (the order of ``R_*`` in native/potsm.h): the action
    blocks, the move distances, the resolver table and the nation of each ship."""
    return (
        FULL_SPEED,
        LOST_AT_SEA,
        ALLIANCE,
        RIP,
        ADVANCE,
        RETREAT,
        SABOTAGE,
        FOG,
        REPAIR,
        PASS,
        PASS_DISCARD,
        ACCUSE_DISCARD,
        ACCUSE,
        FULL_SPEED_DISTANCE,
        ALLIANCE_DISTANCE,
        NATION_MOVE_DISTANCE,
        _resolver_table(),
        bytes(NATION),
    )


def resolve_adventure(
    card: int, line: Sequence[int], damaged: list[int], fame: list[float], unrevealed: list[bool]
) -> tuple[list[float], list[int]]:
    """The current adventure against ``line`` (Section 6): (fame change per ship, damage per ship after).

    ``damaged`` is not modified. Mutiny's fame loss is the full ``ceil(f/2)`` of the frontmost unrevealed
    ship; the caller's ship values carry the chance that it is owned at all.
    """
    delta, d = RESOLVERS[card](line, damaged, fame, unrevealed)
    return ([0.0] * 9 if delta is None else delta), (damaged[:] if d is damaged else d)


def line_after_move(a: int, line: list[int], damaged: list[int]) -> tuple[list[int], list[int]]:
    """The line and damage after move-card action ``a`` < 49 (PSM-630..636); the inputs are not modified."""
    new_line = line[:]
    if a < LOST_AT_SEA:
        move_ship(new_line, a - FULL_SPEED, -6)
    elif a < ALLIANCE:
        move_ship(new_line, a - LOST_AT_SEA, 6)
    elif a < RIP:
        move_pair(new_line, a - ALLIANCE, -3)
    elif a < ADVANCE:
        move_pair(new_line, a - RIP, 3)
    elif a < RETREAT:
        nation_advance(new_line, a - ADVANCE)
    elif a < SABOTAGE:
        nation_retreat(new_line, a - RETREAT)
    else:
        damaged = damaged[:]
        damaged[line[a - SABOTAGE]] = 1
    return new_line, damaged


# The lookahead's lines as permutations of positions: the line after move action ``a`` is
# ``[line[i] for i in perm]``. Single-ship and pair moves (PSM-630..633) are the same permutation
# whatever the line; a nation's Advance or Retreat (PSM-634, 635) depends only on where that nation's
# ships are. Permutations are interned: equal ids mean equal resulting lines.
_PERMUTATION_IDS: dict[tuple[int, ...], int] = {}
PERMUTATION_GETTERS: list[itemgetter] = []  # by id: line -> the new line (a tuple)


def _permutation_id(perm: tuple[int, ...]) -> int:
    pid = _PERMUTATION_IDS.get(perm)
    if pid is None:
        pid = _PERMUTATION_IDS[perm] = len(PERMUTATION_GETTERS)
        PERMUTATION_GETTERS.append(itemgetter(*perm))
    return pid


# action < ADVANCE -> permutation id
POSITION_MOVE_IDS = tuple(
    _permutation_id(tuple(line_after_move(a, list(range(9)), [0] * 9)[0])) for a in range(ADVANCE)
)
_NATION_MOVE_IDS: dict[tuple[int, bytes], int] = {}  # (action, nation of each position) -> permutation id


def nation_move_id(a: int, line: Line, nations: bytes) -> int:
    """Permutation id of Advance/Retreat action ``a`` on ``line``, whose ships' nations are ``nations``."""
    key = (a, nations)
    pid = _NATION_MOVE_IDS.get(key)
    if pid is None:
        new_line = line_after_move(a, list(line), [0] * 9)[0]
        place = {s: p for p, s in enumerate(line)}
        pid = _permutation_id(tuple(place[s] for s in new_line))
        if len(place) == 9:  # a line that is no permutation (a hostile observation) must not poison the cache
            _NATION_MOVE_IDS[key] = pid
    return pid


def move_keys(moves: list[int], line: list[int]) -> list[int]:
    """For sorted move-card actions: the permutation id of the line each leaves, or ``-1 - position`` for a
    Sabotage (the line stays, a ship is damaged). Equal keys mean equal lines and damage."""
    first_nation = bisect_left(moves, ADVANCE)
    first_sabotage = bisect_left(moves, SABOTAGE, first_nation)
    keys = list(map(POSITION_MOVE_IDS.__getitem__, moves[:first_nation]))
    if first_nation < first_sabotage:
        nations = bytes(map(NATION.__getitem__, line))
        keys += [nation_move_id(a, line, nations) for a in moves[first_nation:first_sabotage]]
    keys += [SABOTAGE - 1 - a for a in moves[first_sabotage:]]
    return keys


def _line_scorer(
    card: int, fame: list[float], unrevealed: list[bool], prepared: tuple, keep: float = 1.0
) -> Callable[[Line, list[int]], float]:
    """The score of a line for one decision's adventure ``card``: the fame the adventure gains on the line
    (times ``keep``) plus the potential of the line after it (``prepared``: see ``HeuristicPolicy._prepare``).

    With ``keep`` != 1 (Fog) the adventure is still ahead: its fame counts ``keep`` times and the line
    stays as it is. A card that changes no fame skips the all-zero fame sum (which is exactly 0.0).
    """
    resolve = RESOLVERS[card]
    values, place, edge, wreck, losses = prepared

    def score(line: Line, damaged: list[int]) -> float:
        delta, d = resolve(line, damaged, fame, unrevealed)
        total = 0.0 if delta is None else sum(map(mul, values, delta))
        if keep != 1.0:
            total *= keep
            delta, d = None, damaged
        edges = edge[8 - sum(d)]
        rank = 0
        for p, s in enumerate(line):
            if d[s]:
                total += wreck[s]
            else:
                total += place[s][p] + values[s] * edges[rank]
                rank += 1
        for p, loss in losses:
            s = line[p]
            if (fame[s] if delta is None else fame[s] + delta[s]) >= 1.0:
                total -= values[s] * loss
        return total

    return score


def sinkhorn4(weights: list[list[float]], caps: list[float], iterations: int) -> list[tuple[float, ...]]:
    """Iterative proportional fitting of rows of 4 weights: each row sums to 1, each column to its cap.

    Written out for 4 columns (a game has at most 4 seats; fewer are padded with zero columns of cap 0,
    which stay exactly zero and add exactly nothing to any sum), which is much faster than looping over
    columns. Row and column totals are taken with ``sum`` as the plain version does (``sum`` of floats is
    compensated from Python 3.12 on, so writing them as ``+`` would change the floats there).
    """
    c0, c1, c2, c3 = (c if c > 0.0 else 0.0 for c in caps)
    rows: list = weights
    for _ in range(iterations):
        t0, t1, t2, t3 = map(sum, zip(*rows, strict=True))
        s0 = c0 / t0 if t0 > 0.0 else 0.0
        s1 = c1 / t1 if t1 > 0.0 else 0.0
        s2 = c2 / t2 if t2 > 0.0 else 0.0
        s3 = c3 / t3 if t3 > 0.0 else 0.0
        scaled = []
        for w0, w1, w2, w3 in rows:
            a0 = w0 * s0
            a1 = w1 * s1
            a2 = w2 * s2
            a3 = w3 * s3
            t = sum((a0, a1, a2, a3))
            scaled.append((a0 / t, a1 / t, a2 / t, a3 / t) if t > 0.0 else (a0, a1, a2, a3))
        rows = scaled
    return rows


class HeuristicPolicy:
    """One-step lookahead bot for ``potsm_v0``; sees only its own observation and mask."""

    name = "heuristic"
    sinkhorn_iterations = 4

    def __init__(self, game: Any, **params: float) -> None:
        unknown = set(params) - set(DEFAULT_PARAMS)
        if unknown:
            raise ValueError(f"HeuristicPolicy: unknown parameters {sorted(unknown)}; known: {sorted(DEFAULT_PARAMS)}")
        self.params = {**DEFAULT_PARAMS, **params}
        self.num_players = n = int(game.num_players)
        self.hand_variant = bool(game.options.get("move_cards_in_hand", False))
        self.upcoming_variant = bool(game.options.get("upcoming_adventures", False))
        self.pirates_each = pirates_per_player(n)
        self.unused_pirates = 9 - n * self.pirates_each
        self._start = {name: sl.start for name, sl in field_slices(n).items()}
        self._read_size = self._start["recent_turns"]  # the bot reads nothing from there on
        self._mix_cache: dict[tuple[int, float], tuple] = {}  # upcoming variant: (next adventure, horizon)
        p = self.params
        self.opponent_weight = 1.0 if n == 2 else p["opponent_weight"]
        self.leader_weight = 0.0 if n == 2 else p["leader_weight"]
        self._free_slots = [float(self.unused_pirates)] + [float(self.pirates_each)] * (n - 1)
        self._tally_weights = (p["tally_forward"], p["tally_backward"], p["tally_sabotage"], p["tally_accuse"])
        self._static_cache: dict[tuple[int, float], tuple] = {}  # (id of potential tables, scale) -> _prepare's parts
        st = self._start  # per ship j: (offset k, its not-owner fact, its move tally, its accusation tally)
        self._evidence_at = [
            [
                (
                    k,
                    st["ship_not_owner"] + n * j + k,
                    st["move_tally"] + (k * 9 + j) * 3,
                    st["accusation_tally"] + k * 9 + j,
                )
                for k in range(1, n)
            ]
            for j in range(9)
        ]
        self.native_spec = self._native_spec(game)

    def __repr__(self) -> str:
        return f"HeuristicPolicy(num_players={self.num_players})"

    def _native_spec(self, game: Any) -> tuple:
        """The offsets, parameters and tables of the compiled twin (the order of ``P_*`` in
        native/bot.c)."""
        st = self._start
        p = self.params
        params = (
            self.opponent_weight, self.leader_weight, p["horizon"], p["next_weight"], p["damage_cost"],
            p["fog_keep"], p["accuse_scale"], p["accuse_cost"], p["accuse_card_cost"], p["card_cost"],
            *self._tally_weights,
            TIE_TOLERANCE,
        )  # fmt: skip
        tables = [
            x
            for t in range(NUM_ADVENTURE_TYPES)
            for x in (*GAIN_POS[t], *GAIN_RANK[t], *DAMAGE_POS[t][0], *DAMAGE_POS[t][1], *DAMAGE_POS[t][2],
                      *DAMAGE_FRONT[t], *DAMAGE_BACK[t], *LOSS_POS[t])
        ]  # fmt: skip
        gp, gr, dp, df, db, lp = DECK_MIX
        tables += [*gp, *gr, *dp[0], *dp[1], *dp[2], *df, *db, *lp, *map(float, ADVENTURE_COUNTS), *CARD_KEEP_VALUE]
        return (
            game.observation_size,
            self.num_players,
            game.num_actions,
            int(self.hand_variant),
            int(self.upcoming_variant),
            self.sinkhorn_iterations,
            *(st[name] for name in ("my_pirates", "ship_position", "ship_damaged", "ship_fame", "ship_revealed_owner")),
            *(st[name] for name in ("ship_not_owner", "claimed_fame", "current_adventure", "upcoming_adventures")),
            *(st[name] for name in ("adventure_deck_size", "move_tally", "accusation_tally")),
            self.pirates_each,
            self.unused_pirates,
            NUM_ADVENTURE_CARDS,
            FOG_TYPE,
            native_rules_spec(),
            np.array(params, dtype=np.float64).tobytes(),
            np.array(tables, dtype=np.float64).tobytes(),
            bytes(MOVE_TYPE_OF_ACTION[a] for a in range(FOG)),
        )

    # --- the decision -------------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        choice = twin_decides("potsm_act", observation, action_mask, self.native_spec, None)
        if choice is None:
            return self.act_python(observation, action_mask, rng)
        if isinstance(choice, tuple):  # tied best actions: the same draw as act_python's
            return choice[int(rng.integers(len(choice)))]
        return choice

    def act_python(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """:meth:`act` in Python alone: the reference of the compiled twin, and its fallback."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask allows no action: this seat is not to act")
        if len(legal) == 1:
            return legal[0]
        scores = self._scores(observation[: self._read_size].tolist(), legal)
        threshold = max(scores.values()) - TIE_TOLERANCE
        top = [a for a, s in scores.items() if s >= threshold]
        if len(top) == 1:
            return top[0]
        return top[int(rng.integers(len(top)))]

    def action_scores(self, observation: np.ndarray, action_mask: np.ndarray) -> dict[int, float]:
        """The score of every legal action (higher is better); ``act`` picks a best one."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask allows no action: this seat is not to act")
        return self._scores(observation[: self._read_size].tolist(), legal)

    def _scores(self, o: list[float], legal: list[int]) -> dict[int, float]:
        st = self._start
        if legal[0] >= ACCUSE_DISCARD and legal[-1] < ACCUSE:  # PSM-1051: the accusation's discard
            return self._accusation_discard_scores(o, legal)

        # --- the public line (PSM-1061..1063) ---
        line = [0] * 9
        b = st["ship_position"]
        positions = o[b : b + 81]  # one-hot position per ship
        i = -1
        for j in range(9):
            i = positions.index(1.0, i + 1)
            line[i - 9 * j] = j
        b = st["ship_damaged"]
        damaged = [1 if x > 0.5 else 0 for x in o[b : b + 9]]
        b = st["ship_fame"]
        fame = o[b : b + 9]
        b = st["current_adventure"]
        card = o[b : b + NUM_ADVENTURE_TYPES].index(1.0)

        owner_prob, mine, unrevealed = self._ownership(o)
        values = self._ship_values(o, owner_prob, mine, fame)
        tables, scale, remaining = self._potential(o)
        prepared = self._prepare(values, tables, scale)
        score = _line_scorer(card, fame, unrevealed, prepared)
        p_ = self.params
        hand = self.hand_variant

        # --- lookahead over the distinct resulting lines (legal is sorted: move cards first) ---
        scores: dict[int, float] = {}
        n_moves = bisect_left(legal, FOG)
        if n_moves:
            moves = legal[:n_moves]
            keys = move_keys(moves, line)
            cache = {}  # the score of each distinct line
            for key in dict.fromkeys(keys):
                if key >= 0:
                    cache[key] = score(PERMUTATION_GETTERS[key](line), damaged)
                else:
                    sabotaged = damaged[:]
                    sabotaged[line[-1 - key]] = 1
                    cache[key] = score(line, sabotaged)
            scores.update(zip(moves, map(cache.__getitem__, keys), strict=True))
            if hand:
                for a in moves:
                    scores[a] -= p_["card_cost"] * self._card_cost(MOVE_TYPE_OF_ACTION[a], mine)
        rest = legal[n_moves:]
        if not rest:
            return scores
        if rest[0] == FOG:
            s = _line_scorer(card, fame, unrevealed, prepared, p_["fog_keep"])(line, damaged)
            if hand:
                s -= p_["card_cost"] * self._card_cost(FOG_TYPE, mine)
            scores[FOG] = s
            rest = rest[1:]
        if rest and rest[0] == REPAIR:
            scores[REPAIR] = score(line, [0] * 9) - 1e-6
            rest = rest[1:]
        if rest:  # Pass, Pass-discard, Accuse: the line stays as it is
            base = score(line, damaged)
            n_pass = bisect_left(rest, ACCUSE)
            for a in rest[:n_pass]:
                scores[a] = base if a == PASS else base + self._discard_bonus(a - PASS_DISCARD, mine)
            if n_pass < len(rest):
                accusation = self._accusation_values(owner_prob, mine, fame, remaining)
                accusations = rest[n_pass:]
                scores.update(zip(accusations, [base + accusation[a - ACCUSE] for a in accusations], strict=True))
        return scores

    def predict_turn(
        self, a: int, line: list[int], damaged: list[int], fame: list[float], card: int, unrevealed: list[bool]
    ) -> tuple[list[int], list[int], list[float]] | None:
        """What the lookahead expects after action ``a`` and the adventure: (line, damage, fame).

        None for Fog, accusations and the accusation discard, whose outcome the lookahead does not
        predict as a line. Mutiny's prediction assumes the target is owned.
        """
        if a < FOG:
            line, damaged = line_after_move(a, line, damaged)
        elif a == REPAIR:
            damaged = [0] * 9
        elif a == FOG or a >= ACCUSE_DISCARD:
            return None
        delta, after = resolve_adventure(card, line, damaged, fame, unrevealed)
        return line, after, [fame[j] + delta[j] for j in range(9)]

    # --- beliefs ------------------------------------------------------------------------------------------
    def _ownership(self, o: list[float]) -> tuple[list[Sequence[float]], list[int], list[bool]]:
        """P(opponent at offset k owns ship j) for k = 1..n-1 (column 0 unused, columns n..3 zero), own ships,
        unrevealed flags."""
        n = self.num_players
        st = self._start
        b = st["my_pirates"]
        mine = [1 if x > 0.5 else 0 for x in o[b : b + 9]]
        prob: list[Sequence[float]] = [[0.0] * 4 for _ in range(9)]  # zero-padded to 4 columns, like sinkhorn4
        unrevealed = [True] * 9
        caps = self._free_slots[:]  # column 0: the unused pile; columns 1..n-1: opponents
        b = st["ship_revealed_owner"]
        revealed = o[b : b + 9 * n]  # one-hot per ship
        if 1.0 in revealed:
            i = revealed.index(1.0)
            while True:
                j, k = divmod(i, n)
                unrevealed[j] = False
                if k > 0:
                    prob[j][k] = 1.0  # type: ignore[index]
                    caps[k] -= 1.0
                try:
                    i = revealed.index(1.0, i + 1)
                except ValueError:
                    break
        rows = [j for j in range(9) if unrevealed[j] and not mine[j]]
        if rows:
            fitted = sinkhorn4(self._prior_weights(o, rows), caps + [0.0] * (4 - n), self.sinkhorn_iterations)
            for j, w in zip(rows, fitted, strict=True):
                prob[j] = w
        return prob, mine, unrevealed

    def _prior_weights(self, o: list[float], rows: list[int]) -> list[list[float]]:
        """Per unknown ship: a weight per column (pile, opponents; zero-padded to 4) from the not-owner facts and
        the tallies."""
        n = self.num_players
        tf, tb, ts, ta = self._tally_weights
        exp = math.exp
        weights = []
        for j in rows:
            w = [1.0] * n + [0.0] * (4 - n)
            for k, not_owner, t, accused in self._evidence_at[j]:
                if o[not_owner] > 0.5:
                    w[k] = 0.0
                    continue
                e = tf * o[t] - tb * o[t + 1] - ts * o[t + 2] - ta * o[accused]
                if e != 0.0:
                    w[k] = exp(-4.0 if e < -4.0 else 4.0 if e > 4.0 else e)
            weights.append(w)
        return weights

    def _ship_values(self, o: list[float], prob: list[list[float]], mine: list[int], fame: list[float]) -> list[float]:
        """+1 for an own ship; minus the weighted chance that an opponent owns it otherwise."""
        n = self.num_players
        st = self._start
        weight = [self.opponent_weight] * n
        if self.leader_weight > 0.0:
            b = st["claimed_fame"]
            estimate = [o[b + k] for k in range(n)]
            for j in range(9):
                if not mine[j] and fame[j] > 0.0:
                    pj = prob[j]
                    for k in range(1, n):
                        estimate[k] += pj[k] * fame[j]
            leader = max(range(1, n), key=estimate.__getitem__)
            weight[leader] += self.leader_weight
        _, c1, c2, c3 = weight + [0.0] * (4 - n)  # rows of prob have 4 columns (zero-padded)
        values = [
            1.0 if own else 0.0 - p1 * c1 - p2 * c2 - p3 * c3 for own, (_, p1, p2, p3) in zip(mine, prob, strict=True)
        ]
        self._opponent_weights = weight
        return values

    # --- evaluation ---------------------------------------------------------------------------------------
    def _potential(self, o: list[float]) -> tuple[tuple, float, int]:
        """Potential tables for the coming adventures, the end-game scale, and the adventures left after this one."""
        st = self._start
        remaining = int(o[st["adventure_deck_size"]])
        weights = None
        if self.upcoming_variant:
            b = st["upcoming_adventures"]
            upcoming = []
            for slot in range(3):
                seg = o[b + 24 * slot : b + 24 * slot + 24]
                if 1.0 in seg:
                    upcoming.append(seg.index(1.0))
            remaining += len(upcoming)
            if upcoming:
                weights = [(upcoming[0], self.params["next_weight"])]
        horizon = min(self.params["horizon"], float(remaining))
        if weights is None:
            return DECK_MIX, horizon, remaining
        key = (weights[0][0], horizon)
        tables = self._mix_cache.get(key)
        if tables is None:
            deck_share = horizon / float(NUM_ADVENTURE_CARDS)
            tables = _mix(weights + [(t, deck_share * c) for t, c in enumerate(ADVENTURE_COUNTS)])
            self._mix_cache[key] = tables
        return tables, 1.0, remaining

    def _prepare(self, values: list[float], tables: tuple, scale: float) -> tuple:
        """Per-call lookup tables of the line potential, ship values folded in.

        Undamaged ship s at position p, r-th undamaged from the front of the u undamaged ones, is worth
        ``place[s][p] + values[s] * edge[u - 1][r]`` (``edge[u - 1][r] = front[r] + back[u - 1 - r]``, the
        award and damage odds of the r-th from the front and the back); a damaged one ``wreck[s]``; a
        ship with fame at a position of ``losses`` loses ``values[s] * loss``.
        """
        if scale <= 0.0:
            # The last adventure: only the tie-break is left (PSM-703): own undamaged ships count a little.
            zero = [0.0] * 9
            place = [[1e-3 if v > 0.0 else 0.0] * 9 for v in values]
            return values, place, [zero] * 9, zero, ()
        key = (id(tables), scale)  # the tables live as long as the bot (DECK_MIX or self._mix_cache)
        static = self._static_cache.get(key)
        if static is None:
            static = self._static_cache[key] = self._prepare_static(tables, scale)
        by_nation, edge, wreck_unit, losses = static
        place = [[v * x for x in by_nation[NATION[s]]] for s, v in enumerate([v * scale for v in values])]
        wreck = [wreck_unit * v for v in values]
        return values, place, edge, wreck, losses

    def _prepare_static(self, tables: tuple, scale: float) -> tuple:
        """The parts of ``_prepare`` that do not depend on the ship values (cached per tables and scale)."""
        gp, gr, dp, df, db, lp = tables
        cost = self.params["damage_cost"]
        by_nation = [[gp[p] - cost * d[p] for p in range(9)] for d in dp]
        front = [scale * (gr[r] - cost * df[r]) for r in range(9)]
        back = [-scale * cost * db[r] for r in range(9)]
        edge = [[front[r] + back[last - r] for r in range(last + 1)] for last in range(9)]
        losses = tuple((p, scale * lp[p]) for p in range(9) if lp[p] != 0.0)
        return by_nation, edge, -scale * cost, losses

    # --- accusations and discards -------------------------------------------------------------------------
    def _accusation_values(self, prob, mine, fame, remaining) -> list[float]:
        """Per accusation index - 76: ``P(k owns j) * ceil(f/2) * (1 + c_k)`` (scaled) minus its cost (PSM-515)."""
        n = self.num_players
        p = self.params
        cost = p["accuse_cost"]
        if self.hand_variant:
            cost += p["accuse_card_cost"]
        cost = cost * min(1.0, remaining / (2.0 * n)) + 1e-6
        steal = [float(math.ceil(f / 2.0)) for f in fame]
        values = []
        for k in range(1, n):
            coef = p["accuse_scale"] * (1.0 + self._opponent_weights[k])
            # naming its own pirate is always wrong
            values += [-1.0 if own else coef * pj[k] * s - cost for own, pj, s in zip(mine, prob, steal, strict=True)]
        return values

    def _card_cost(self, t: int, mine: list[int]) -> float:
        """Value of keeping move card type t, relative to an average fresh draw."""
        return self._keep_value(t, mine) - 0.5

    def _keep_value(self, t: int, mine: list[int]) -> float:
        if 4 <= t <= 6:  # an Advance helps when it carries own ships
            nation = t - 4
            return 0.2 + 0.3 * sum(mine[s] for s in NATION_SHIPS[nation])
        if 7 <= t <= 9:  # a Retreat helps when it carries none
            nation = t - 7
            return 0.5 - 0.25 * sum(mine[s] for s in NATION_SHIPS[nation])
        return CARD_KEEP_VALUE[t]

    def _discard_bonus(self, t: int, mine: list[int]) -> float:
        """Pass-discard: in the hand variant, throwing a weak card for a fresh draw is worth a little."""
        if self.hand_variant:
            return 0.1 * (0.5 - self._keep_value(t, mine)) - 1e-6
        return -1e-6

    def _accusation_discard_scores(self, o: list[float], legal: list[int]) -> dict[int, float]:
        """PSM-803: the accusation costs a hand card for good; throw the one least worth keeping."""
        b = self._start["my_pirates"]
        mine = [1 if o[b + j] > 0.5 else 0 for j in range(9)]
        return {a: -self._keep_value(a - ACCUSE_DISCARD, mine) for a in legal}
