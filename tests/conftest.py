"""Shared fixtures: the matrix of (env id, player count, rule variant) every conformance test covers, and
the registration of games that live outside the package for one test.

A shipped game joins the whole conformance suite by being in ``pirate_envs.ENV_IDS``; the rule variants it
wants exercised are declared on its ``Game`` class as ``variants`` (a dict of name -> options). A game from
outside the package runs the same suite from its own test module, with a ``case`` fixture over
``conformance_cases([its Game class])`` that registers it through ``register_outside_env``
(``tests/test_toy_game.py`` does this for the toy game).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence

import gymnasium
import pytest

import pirate_envs
from pirate_envs.core.game import Game
from pirate_envs.core.registry import game_class, register_env, unregister_env


def conformance_cases(game_classes: Sequence[type[Game]] | None = None) -> list[tuple[str, int, str, dict]]:
    """(env id, player count, variant name, options) for every player count and variant of ``game_classes``
    (default: the shipped games of ``ENV_IDS``)."""
    if game_classes is None:
        game_classes = [game_class(env_id) for env_id in pirate_envs.ENV_IDS]
    cases = []
    for game_cls in game_classes:
        variants = getattr(game_cls, "variants", None) or {"base": {}}
        for n in game_cls.player_counts:
            for name, options in variants.items():
                cases.append((game_cls.game_id, n, name, dict(options)))
    return cases


def case_ids(cases: Sequence[tuple[str, int, str, dict]]) -> list[str]:
    return [f"{env_id}-{n}p-{name}" for env_id, n, name, _ in cases]


CASES = conformance_cases()
CASE_IDS = case_ids(CASES)


@pytest.fixture(params=CASES, ids=CASE_IDS)
def case(request):
    """(env_id, num_players, variant name, options) for every registered game configuration."""
    return request.param


@pytest.fixture
def register_outside_env() -> Iterator[Callable[[str, str], None]]:
    """``register_outside_env(env_id, module_name)``: ``register_env`` for this test only. When the test ends
    the game is unregistered, and taken out of Gymnasium's registry if the test registered it there, so no
    other test sees it (pyspiel cannot unregister: a name registered there stays, unused)."""
    added: list[str] = []

    def register(env_id: str, module_name: str) -> None:
        register_env(env_id, module_name)
        if env_id not in added:
            added.append(env_id)

    yield register
    for env_id in reversed(added):
        unregister_env(env_id)
        gymnasium.registry.pop(pirate_envs.gym_id(env_id), None)
