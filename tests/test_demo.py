"""The README's demo game: heuristic bot against random bots, for every registered game."""

from __future__ import annotations

import pytest

import pirate_envs
from pirate_envs.demo import main, play_demo


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_demo_plays_a_full_game(env_id):
    lines: list[str] = []
    returns = play_demo(env_id, seed=3, verbose=True, out=lines.append)
    text = "\n".join(lines)
    assert "player_0 = heuristic" in text
    assert text.count(">>> player_") >= 10
    assert lines[-1].startswith("Winner: player_")
    assert any(r > 0 for r in returns)


def test_demo_cli_rejects_unknown_game(capsys):
    assert main(["no_such_game"]) == 2
    assert "registered env ids" in capsys.readouterr().err
