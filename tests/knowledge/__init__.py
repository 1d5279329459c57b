"""Independent knowledge oracles for the leak tests (issue 31).

Each game has a module here whose ``Oracle`` decides, from the rules file's hidden-information table
alone, which card identities a seat has legitimately seen. It reads the engine state's raw fields and
follows play step by step (``update``) to learn what happened, but never calls the engines'
visibility code (views, observation encoders, ``resample_hidden``, ``nation_known``, the engines' own
``known`` bookkeeping for the seat under test): it is a second opinion, so that a bug in the code that
decides what is shown cannot hide itself, as ``resample_hidden``-based checks can.

The oracle's main product is a *twin*: a copy of the state that agrees with everything the seat
knows and differs in what it does not (the identities it has not seen are relabelled among
themselves). Whatever the seat is shown (observation, table view, text render, the text of an action)
must be the same on the state and on its twin. ``known_projection`` lists what the seat knows (the
twin and any determinisation must keep it) and ``hidden_slots`` lists what it does not, with every
identity each slot could hold (a determinisation must be able to produce each).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Hashable, Iterator
from typing import Any

from pirate_envs.core.game import Game, State

Chooser = Callable[[State, random.Random], int]
Twin = tuple[State, Callable[[int], int]]  # a twin state, and the map of an action onto it (Oracle.twin)


class Oracle:
    """What every game's oracle provides; ``seat=None`` is the spectator (public information only)."""

    def __init__(self, state: State) -> None:
        self.num_players = state.num_players

    def update(self, before: State, action: int, after: State) -> None:
        """Learn what ``action`` (played on ``before``, giving ``after``) showed to whom."""

    def twin(self, state: State, seat: int | None, rng: random.Random, after: tuple | None = None) -> Twin:
        """A state equal to ``state`` in all ``seat`` knows, with the rest relabelled; and the map that
        turns an action on ``state`` into the same move on the twin (identity unless the action names a
        hidden identity, such as a secretly chosen card). ``after`` = (the state after the next action,
        this oracle updated by it): the twin then also keeps what that action shows ``seat``."""
        raise NotImplementedError

    def known_projection(self, state: State, seat: int) -> Hashable:
        """Everything ``seat`` knows about the hidden parts of ``state`` (public parts excluded)."""
        raise NotImplementedError

    def hidden_slots(self, state: State, seat: int) -> dict[str, tuple[Any, frozenset]]:
        """Each hidden item ``seat`` cannot know: name -> (its value in ``state``, every value it may take)."""
        raise NotImplementedError


def random_chooser(state: State, rng: random.Random) -> int:
    return rng.choice(state.legal_actions())


def walk(
    game: Game, oracle_cls: type[Oracle], seed: int, chooser: Chooser = random_chooser
) -> Iterator[tuple[State, int, Oracle]]:
    """Play one game; yield (state, the action about to be played, the oracle up to date) at every decision."""
    state = game.new_initial_state(seed)
    oracle = oracle_cls(state)
    rng = random.Random(seed)
    while not state.is_terminal():
        action = chooser(state, rng)
        yield state, action, oracle
        before = state.clone()
        state.apply_action(action)
        oracle.update(before, action, state)


def relabel(values: Any, mapping: dict) -> Any:
    """``values`` (an id or a nested list of ids) with every id in ``mapping`` replaced."""
    if isinstance(values, list):
        return [relabel(v, mapping) for v in values]
    return mapping.get(values, values)


def random_bijection(items: list, rng: random.Random) -> dict:
    shuffled = list(items)
    rng.shuffle(shuffled)
    return dict(zip(items, shuffled, strict=True))


def oracle_for(env_id: str) -> type[Oracle]:
    from knowledge import dead_mans_draw, madame_ching, potsm, tortuga

    return {
        "potsm_v0": potsm.Oracle,
        "dead_mans_draw_v0": dead_mans_draw.Oracle,
        "tortuga_v0": tortuga.Oracle,
        "madame_ching_v0": madame_ching.Oracle,
    }[env_id]
