"""Position set-up helpers for the tortuga rule tests: overwrite a state's fields, keep treasure conserved.

``make`` starts from ``new_initial_state(seed)`` and places roles, pawns, nations and hoards;
``give`` hands a player treasure as a public gain from the supply (so the ledger, ``pub_treasure``
and conservation stay consistent); ``Scripted`` replaces the state's RNG by fixed dice.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import numpy as np

from pirate_envs.core.rng import Rng
from pirate_envs.games.tortuga import TortugaGame, TortugaState
from pirate_envs.games.tortuga.game import L_GAIN, L_MAP_PUBLIC, MOVE


class Scripted(Rng):
    """An RNG whose ``randrange`` returns scripted values (a die roll d is d - 1)."""

    __slots__ = ("rolls",)

    def __init__(self, rolls) -> None:
        super().__init__(0)
        self.rolls = list(rolls)

    def randrange(self, n: int) -> int:
        value = self.rolls.pop(0)
        assert 0 <= value < n, f"scripted value {value} outside [0, {n})"
        return value

    def clone(self) -> Scripted:
        return Scripted(self.rolls)


def dice(*faces: int) -> Scripted:
    return Scripted([f - 1 for f in faces])


def random_agent_turns(env: Any, rng: random.Random) -> Iterator[tuple]:
    """Step the AEC ``env`` to its end with random legal actions drawn by ``rng``, yielding each agent's
    ``env.last()`` just before its step (an agent that is done steps ``None``)."""
    for _agent in env.agent_iter():
        obs, reward, term, trunc, info = env.last()
        yield obs, reward, term, trunc, info
        env.step(None if term or trunc else rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))


def refresh(state: TortugaState) -> TortugaState:
    state._legal = None
    return state


def make(
    n: int,
    roles=None,
    pos=None,
    nations=None,
    active: int = 0,
    start: int | None = None,
    phase: int = MOVE,
    seed: int = 0,
    **options,
) -> TortugaState:
    state = TortugaGame(num_players=n, **options).new_initial_state(seed)
    if roles is not None:
        state.role = list(roles)
    if pos is not None:
        state.pos = list(pos)
    if nations is not None:
        state.nation = list(nations)
    state.active = active
    state.start = active if start is None else start
    state.phase = phase
    return refresh(state)


def give(state: TortugaState, seat: int, amount: int) -> None:
    """Public gain of ``amount`` from the supply, the rest from the galleon (as if from events and loot)."""
    from_supply = min(amount, state.supply)
    state.supply -= from_supply
    state.galleon -= amount - from_supply
    state.hoard[seat] += amount
    state.pub_treasure[seat] += amount
    state.ledger.append([L_GAIN, seat, amount])


def give_map(state: TortugaState, seat: int) -> None:
    """A Treasure Map drawn earlier and handed publicly to ``seat``."""
    from pirate_envs.games.tortuga.board import TREASURE_MAP

    state.deck.remove(TREASURE_MAP)
    state.drawn[TREASURE_MAP] += 1
    state.maps[seat] += 1
    state.pub_maps[seat] += 1
    state.ledger.append([L_MAP_PUBLIC, seat])


def put_on_top(state: TortugaState, card: int) -> None:
    """Move one ``card`` of the deck to the top (order only; counts unchanged)."""
    state.deck.remove(card)
    state.deck.append(card)


def play(state: TortugaState, *actions: int) -> TortugaState:
    for action in actions:
        state.check_invariants()
        state.apply_action(action)
    state.check_invariants()
    return state
