"""A rule-of-thumb Tortuga 1667 bot that reads only its own observation and action mask.

It estimates for every other seat the chance of sharing its nation (known nations from the
observation; otherwise the public composition, nudged by how that seat voted on this seat's votes
and against it, and by steals from it), then: sails towards the galleon, attacks as Captain, steals
from the galleon or from the richest likely enemy as Sailor, disputes the richest likely enemy as
Governor, mutinies against likely-enemy Captains as First Mate, votes for outcomes that move
treasure towards likely friends (Wild when allowed, declared the same way), keeps loot and maps or
hands them to known friends, and draws events unless the Armada may be near while its nation trails.

The bot has a compiled twin (``tor_act`` in this game's ``native/bot.c``), which :meth:`HeuristicPolicy.act`
calls where the module is built (pirate_envs/core/native/); :meth:`HeuristicPolicy.act_python` is the
reference it is tested against decision for decision (tests/test_native_bots.py) and the fallback.
"""

from __future__ import annotations

import math

import numpy as np

from pirate_envs.core.native import twin_decides
from pirate_envs.games.tortuga import actions as act
from pirate_envs.games.tortuga.board import (
    ARMADA_PACKET,
    DISTANCE,
    GAL,
    GOVERNOR,
    NATION_TABLE,
    NUM_NODES,
    SAILOR,
    SHIP_NODE,
    TOR,
    V_ATTACK,
    V_MUTINY,
)
from pirate_envs.games.tortuga.observation import PLAYER_BLOCK, field_slices
from pirate_envs.policies.base import legal_indices

FRIEND_CACHE_LIMIT = 20_000  # friend estimates kept (cleared when full)

(MOVE, ACTION, VOTE, DECLARE, LOOT, DRAW, MAP_RECIPIENT, EXTRA_MOVE) = range(8)
(CURRENT_TARGET, CURRENT_DEST, MUTINY_SHIP, BRAWL_TARGET, SPY_TARGET, MAP_GIVE) = range(8, 14)


def _argmax(values: list[float]) -> int:
    """Index of the first largest entry (numpy's argmax on a list)."""
    return values.index(max(values))


def _player_columns() -> np.ndarray:
    """A ``PLAYER_BLOCK x 4`` matrix: a player block times it gives the block's position, role and nation
    (-1 when unknown) from their one-hots, and its visible wealth (public treasure + my steal delta +
    2 x public maps + my map delta; TOR-1004 block entries 21, 23, 24, 25)."""
    columns = np.zeros((PLAYER_BLOCK, 4), dtype=np.float32)
    columns[0:8, 0] = range(8)
    columns[8:16, 1] = range(8)
    columns[17, 2] = -1.0
    columns[18:21, 2] = range(3)
    columns[[21, 23, 24, 25], 3] = (1.0, 1.0, 2.0, 1.0)
    return columns


class HeuristicPolicy:
    """Heuristic bot for ``tortuga_v0`` (any player count and options)."""

    name = "heuristic"

    def __init__(self, game) -> None:
        self.game = game
        self.n = game.num_players
        self.ix = game.idx
        self.sl = field_slices(self.n)
        self.armada_zone = ARMADA_PACKET[game.options["armada_depth"]]
        self.composition = NATION_TABLE[self.n]
        self.player_columns = _player_columns()
        self.scalars = self._scalar_indices()
        self.friend_cache: dict[tuple[float, ...], list[float]] = {}
        self.native_spec = self._native_spec()

    def _native_spec(self) -> tuple:
        """The offsets, constants and tables of the compiled bot (the order of ``T_*`` in native/bot.c)."""
        sl, ix = self.sl, self.ix
        return (
            self.game.observation_size,
            self.n,
            *(sl[name].start for name in ("phase", "counts", "players", "own", "vote_stats", "current_vote")),
            ix.num_actions,
            *(act.PASS, act.ATTACK, act.MUTINY, act.STEAL_GALLEON),
            *(ix.steal, ix.dispute, ix.vote, ix.declare, ix.draw, ix.select, ix.ship),
            *(self.armada_zone, GAL, TOR, GOVERNOR, SAILOR, V_ATTACK, V_MUTINY),
            *(MOVE, ACTION, VOTE, DECLARE, LOOT, DRAW, MAP_RECIPIENT, EXTRA_MOVE),
            *(CURRENT_TARGET, CURRENT_DEST, MUTINY_SHIP, BRAWL_TARGET, SPY_TARGET, MAP_GIVE),
            bytes(self.composition),
            bytes(SHIP_NODE),
            bytes(DISTANCE[a][b] for a in range(NUM_NODES) for b in range(NUM_NODES)),
        )

    def _scalar_indices(self) -> np.ndarray:
        """The observation entries ``_read`` takes one by one, in ``_read``'s order: the phase one-hot, the
        galleon and deck counts, the own hoard, every seat's yes votes on my votes and against me, the
        number of votes I initiated, every seat's steal delta against me, and the head of current_vote
        (its type, initiator, target and participants)."""
        n, sl = self.n, self.sl
        vs, counts, players = sl["vote_stats"].start, sl["counts"].start, sl["players"].start
        picks = [*range(14), counts, counts + 2, sl["own"].start]
        picks += [vs + k * n for k in range(n)] + [vs + n * n + k * n for k in range(n)] + [vs + 2 * n * n]
        picks += [players + k * PLAYER_BLOCK + 23 for k in range(n)]
        cv = sl["current_vote"].start  # type one-hot (4), initiator, target and participants (n each)
        picks += range(cv, cv + 4 + 3 * n)
        return np.array(picks, dtype=np.intp)

    # --- reading the observation -------------------------------------------------------------------
    def _read(self, obs: np.ndarray) -> dict:
        # Two numpy calls read everything: one product maps each player block to its position, role,
        # nation (-1: unknown) and visible wealth (one-hot fields times their indices; every entry is a
        # small integer, so the float32 sums are exact), one gather takes the scattered single entries.
        n = self.n
        blocks = obs[self.sl["players"]].reshape(n, PLAYER_BLOCK)
        pos, role, nations, wealth = blocks.dot(self.player_columns).T.tolist()
        scalars = obs.take(self.scalars).tolist()
        # The friend estimate depends only on the nations and the vote/steal counts, which change a few
        # times a round: it is computed once per distinct input.
        key = (*nations, *scalars[17 : 18 + 3 * n])
        friend = self.friend_cache.get(key)
        if friend is None:
            friend = self._friend(nations, scalars[17 : 18 + 3 * n])
            if len(self.friend_cache) >= FRIEND_CACHE_LIMIT:
                self.friend_cache.clear()
            self.friend_cache[key] = friend
        return {
            "pos": pos,
            "role": role,
            "friend": friend,
            "wealth": wealth,
            "galleon": scalars[14],
            "deck": scalars[15],
            "own_hoard": scalars[16],
            "phase": _argmax(scalars[:14]),
            "vote": scalars[18 + 3 * n :],
        }

    def _friend(self, nations: list[float], counts: list[float]) -> list[float]:
        """Per seat, the chance of sharing my nation (see the module docstring). ``counts``: every seat's
        yes votes on my votes, every seat's yes votes against me, the votes I initiated, every seat's
        steal delta against me. Read-only once returned (it is cached)."""
        n = self.n
        yes_on_mine, yes_against_me = counts[:n], counts[n : 2 * n]
        initiated_by_me = counts[2 * n]
        stolen_from_me = counts[2 * n + 1 :]
        mine = int(nations[0])
        unknown = [k for k in range(1, n) if nations[k] < 0]
        left = self.composition[mine] - sum(1 for k in range(n) if nations[k] == mine)
        prior = left / len(unknown) if unknown else 0.0
        friend = []
        for k in range(n):
            if k == 0:
                friend.append(1.0)
            elif nations[k] >= 0:
                friend.append(1.0 if nations[k] == mine else 0.0)
            elif prior <= 0.0 or prior >= 1.0:
                friend.append(prior)
            else:
                logit = math.log(prior / (1 - prior))
                # k's yes votes on my votes, and k's yes votes against me
                logit += 0.5 * (2 * yes_on_mine[k] - initiated_by_me) - 0.7 * yes_against_me[k]
                logit += 0.8 * min(0.0, stolen_from_me[k])  # k stole from me
                friend.append(1 / (1 + math.exp(-logit)))
        return friend

    # --- policy ----------------------------------------------------------------------------------------
    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        action = twin_decides("tor_act", observation, action_mask, self.native_spec)
        return self.act_python(observation, action_mask, rng) if action is None else action

    def act_python(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """:meth:`act` in Python alone: the reference of the compiled twin (and its random pick)."""
        # ndarray.nonzero() is np.flatnonzero without its Python-level wrappers (a 1-D mask)
        legal = np.asarray(action_mask).nonzero()[0]
        if legal.size == 0:
            legal_indices(action_mask)  # raises the shared error
        if legal.size == 1:
            return int(legal[0])
        info = self._read(observation)
        phase = info["phase"]
        choice = None
        if phase in (MOVE, EXTRA_MOVE):
            choice = self._move(info, set(legal.tolist()))
        elif phase == ACTION:
            choice = self._action(info, set(legal.tolist()))
        elif phase in (VOTE, DECLARE):
            choice = self._vote(info, set(legal.tolist()), phase)
        elif phase in (LOOT, MAP_RECIPIENT, MAP_GIVE):
            choice = self._give(info, legal, phase)
        elif phase == DRAW:
            choice = self._draw(info)
        elif phase in (CURRENT_TARGET, BRAWL_TARGET, SPY_TARGET):
            choice = self._target(info, legal, phase)
        elif phase == CURRENT_DEST:
            choice = max(legal.tolist(), key=lambda m: (DISTANCE[GAL][m], -m))
        elif phase == MUTINY_SHIP:
            choice = self._mutiny_ship(info, legal)
        if choice is None or not action_mask[choice]:
            choice = int(legal[rng.integers(legal.size)])
        return int(choice)

    def _move(self, info: dict, legal: set) -> int:
        role = int(info["role"][0])
        here = int(info["pos"][0])
        if role == GOVERNOR:
            goal = TOR
        elif 3 <= role <= 5:  # First Mate: stay by a likely-enemy Captain's ship, else go to the galleon
            ship_here = SHIP_NODE.index(here) if here in SHIP_NODE else -1
            goal = GAL
            for k in range(1, self.n):
                if int(info["role"][k]) <= 2 and info["friend"][k] < 0.5:
                    goal = SHIP_NODE[int(info["role"][k])]
                    if ship_here == int(info["role"][k]):
                        break
        elif role == SAILOR and info["galleon"] < 1:
            goal = TOR
        else:
            goal = GAL
        return min(legal, key=lambda m: (DISTANCE[m][goal], m != here))

    def _richest_enemy(self, info: dict, candidates: list[int]) -> int | None:
        best, best_key = None, None
        for k in candidates:
            enemy = 1 - info["friend"][k]
            if enemy < 0.5:
                continue
            key = (enemy * (1 + info["wealth"][k]), -k)
            if best_key is None or key > best_key:
                best, best_key = k, key
        return best

    def _action(self, info: dict, legal: set) -> int:
        ix = self.ix
        if act.ATTACK in legal:
            return act.ATTACK
        if act.MUTINY in legal:
            ship = SHIP_NODE.index(int(info["pos"][0]))
            captain = next(k for k in range(self.n) if int(info["role"][k]) == ship)
            if info["friend"][captain] < 0.5:
                return act.MUTINY
        if act.STEAL_GALLEON in legal:
            return act.STEAL_GALLEON
        steals = [a - ix.steal for a in legal if ix.steal <= a < ix.steal + self.n]
        if steals:
            target = self._richest_enemy(info, steals)
            if target is not None:
                return ix.steal + target
        disputes = [a - ix.dispute for a in legal if ix.dispute <= a < ix.dispute + self.n]
        if disputes:
            target = self._richest_enemy(info, disputes)
            if target is not None:
                return ix.dispute + target
        return act.PASS

    def _want(self, info: dict) -> bool:
        """Does the vote in progress (current_vote) help my nation if it passes?"""
        n = self.n
        cv = info["vote"]
        kind = _argmax(cv[:4])
        initiator = _argmax(cv[4 : 4 + n])
        target_vec = cv[4 + n : 4 + 2 * n]
        target = _argmax(target_vec) if any(target_vec) else -1
        friend = info["friend"]
        if kind == V_ATTACK:
            participants = [k for k in range(n) if cv[4 + 2 * n + k]]
            return friend[initiator] >= 0.5 or (0 in participants and friend[initiator] >= 0.34)
        if kind == V_MUTINY:
            return friend[target] < 0.5 and target != 0
        return friend[initiator] - friend[target] > 0 if target >= 0 else friend[initiator] >= 0.5

    def _vote(self, info: dict, legal: set, phase: int) -> int:
        want = self._want(info)
        if phase == DECLARE:
            return self.ix.declare + (0 if want else 1)
        wild = self.ix.vote + 2
        if wild in legal:
            return wild
        return self.ix.vote + (0 if want else 1)

    def _give(self, info: dict, legal: np.ndarray, phase: int) -> int:
        options = [a - self.ix.select for a in legal.tolist() if a >= self.ix.select]
        if phase == MAP_GIVE:
            friends = [k for k in options if info["friend"][k] == 1.0]
            return self.ix.select + friends[0] if friends else act.PASS
        return self.ix.select + 0 if 0 in options else self.ix.select + max(options, key=lambda k: info["friend"][k])

    def _leading(self, info: dict) -> bool:
        friend = info["friend"]
        ours = sum(f * w for f, w in zip(friend, info["wealth"], strict=True)) + info["own_hoard"] - info["wealth"][0]
        theirs = sum((1 - f) * w for f, w in zip(friend, info["wealth"], strict=True))
        rivals = max(1, sum(1 for c in self.composition if c > 0) - 1)
        return ours >= theirs / rivals

    def _draw(self, info: dict) -> int:
        if info["deck"] > self.armada_zone or self._leading(info):
            return self.ix.draw
        return act.PASS

    def _target(self, info: dict, legal: np.ndarray, phase: int) -> int:
        options = [a - self.ix.select for a in legal.tolist()]
        if phase == SPY_TARGET:
            unknown = [k for k in options if 0.0 < info["friend"][k] < 1.0]
            return self.ix.select + (unknown[0] if unknown else options[0])
        if phase == CURRENT_TARGET:
            on_gal = [k for k in options if int(info["pos"][k]) == GAL and info["friend"][k] < 0.5]
            if on_gal:
                return self.ix.select + on_gal[0]
        target = self._richest_enemy(info, options)
        return self.ix.select + (target if target is not None else min(options, key=lambda k: info["friend"][k]))

    def _mutiny_ship(self, info: dict, legal: np.ndarray) -> int:
        best = None
        for a in legal.tolist():
            ship = a - self.ix.ship
            captain = next(k for k in range(self.n) if int(info["role"][k]) == ship)
            score = 1 - info["friend"][captain]
            if best is None or score > best[0]:
                best = (score, a)
        return best[1] if best[0] >= 0.5 else int(legal[0])
