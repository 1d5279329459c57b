"""What the search bots share: playing a determinised state out to the end, their spec strings, and the choice
of engine (the compiled search of ``pirate_envs/core/native/search.c`` wherever the game has a compiled engine).

A rollout plays every seat with one policy: uniform random moves (drawn from the engine's own
:class:`~pirate_envs.core.rng.Rng`, cheap) or the game's heuristic bot, which acts on each seat's
own observation exactly as it does at the table.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pirate_envs.core.rng import Rng

ROLLOUTS = ("random", "heuristic")
ENGINES = ("auto", "native", "python")


def check_engine(engine: str, owner: str) -> str:
    """``engine``: ``"auto"`` (the compiled search where the game has a compiled engine, else Python),
    ``"native"`` (the same, said explicitly) or ``"python"``; anything else raises ``ValueError``."""
    if engine not in ENGINES:
        raise ValueError(f"{owner}: engine must be one of {ENGINES}, got {engine!r}")
    return engine


def native_twin(state: Any, engine: str) -> Any:
    """The compiled state to search for ``state`` (a native state's own, or a Python state's converted
    twin), or None where the search runs in Python (``engine="python"``, or no compiled engine here).

    With random rollouts the compiled search takes the same decision as the Python one from the same draws."""
    if engine == "python":
        return None
    from pirate_envs.core.native.backend import NativeState, has_native, to_native

    if isinstance(state, NativeState):
        return state.engine_state
    if not has_native(state.game.game_id):
        return None
    return to_native(state).engine_state


class StateSearchBot:
    """Base of the bots that search over the game state (``needs_state``): they cannot act from an observation."""

    needs_state = True

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        raise TypeError(
            f"{type(self).__name__} searches over the game state and cannot act from an observation alone; "
            "call pirate_envs.policies.base.choose_action(policy, state, seat, rng) "
            "(training.evaluation.evaluate, training.apps.play and make_gym do this)"
        )


def rollout_bot(game: Any, rollout: str, owner: str) -> Any:
    """The heuristic bot for ``rollout="heuristic"``, None for ``"random"``; ``owner`` names the caller in errors."""
    if rollout not in ROLLOUTS:
        raise ValueError(f"{owner}: rollout must be one of {ROLLOUTS}, got {rollout!r}")
    if rollout == "random":
        return None
    if game is None:
        raise ValueError(f"{owner}: rollout='heuristic' needs the game (to build its heuristic bot)")
    from pirate_envs.core.registry import env_module

    return env_module(game.game_id).HeuristicPolicy(game)


def play_out(state: Any, rng: Rng, heuristic: Any = None) -> list[float]:
    """Play ``state`` (changed in place) to the end; the final returns of every seat."""
    if heuristic is None:
        while not state.is_terminal():
            legal = state.legal_actions()
            state.apply_action(legal[rng.randrange(len(legal))])
    else:
        policy_rng = np.random.default_rng(rng.next_u64())
        act = heuristic.act
        while not state.is_terminal():
            player = state.current_player()
            state.apply_action(act(state.observation(player), state.legal_action_mask(), policy_rng))
    return state.returns()


def parse_spec(spec: str, name: str, kinds: dict[str, type]) -> dict[str, Any]:
    """The keyword arguments of ``"name"`` or ``"name:key=value,..."``; each value converted by ``kinds[key]``."""
    head, _, params = spec.partition(":")
    if head != name:
        raise ValueError(f"not a {name} spec: {spec!r}")
    kwargs: dict[str, Any] = {}
    for pair in filter(None, (p.strip() for p in params.split(","))):
        key, sep, value = pair.partition("=")
        key = key.strip()
        if not sep or key not in kinds:
            raise ValueError(
                f"bad {name} parameter {pair!r} in {spec!r}; expected key=value with key one of {sorted(kinds)}"
            )
        try:
            kwargs[key] = kinds[key](value.strip())
        except ValueError:
            raise ValueError(f"{name} parameter {key} needs a {kinds[key].__name__}, got {value!r}") from None
    return kwargs
