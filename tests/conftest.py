"""Shared fixtures: the matrix of (env id, player count, rule variant) every conformance test covers.

A game joins the whole conformance suite by being registered in ``pirate_envs.ENV_IDS``; the
rule variants it wants exercised are declared on its ``Game`` class as ``variants`` (a dict of
name -> options).
"""

from __future__ import annotations

import pytest

import pirate_envs
from pirate_envs.core.registry import game_class


def conformance_cases() -> list[tuple[str, int, str, dict]]:
    cases = []
    for env_id in pirate_envs.ENV_IDS:
        game_cls = game_class(env_id)
        variants = getattr(game_cls, "variants", None) or {"base": {}}
        for n in game_cls.player_counts:
            for name, options in variants.items():
                cases.append((env_id, n, name, dict(options)))
    return cases


CASES = conformance_cases()
CASE_IDS = [f"{env_id}-{n}p-{name}" for env_id, n, name, _ in CASES]


@pytest.fixture(params=CASES, ids=CASE_IDS)
def case(request):
    """(env_id, num_players, variant name, options) for every registered game configuration."""
    return request.param
