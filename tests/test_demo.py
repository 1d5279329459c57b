"""The README's demo game: heuristic bot against random bots, for every registered game."""

from __future__ import annotations

import re

import pytest

import pirate_envs
from pirate_envs.demo import main, play_demo


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_demo_plays_a_full_game(env_id):
    lines: list[str] = []
    returns = play_demo(env_id, seed=3, verbose=True, out=lines.append)
    text = "\n".join(lines)
    assert "player_0 = heuristic bot" in text
    assert sum(line.endswith(("[heuristic]", "[random]")) for line in lines) >= 10
    assert any(re.search(r"\b(wins? with|share the win|wins the tie-break|Nobody wins)\b", line) for line in lines[-4:])
    assert any(r > 0 for r in returns)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_demo_is_a_compact_log(env_id):
    """One line per action, the table once per round, the codes once, lines within the width, no engine
    words, and the final line is the view's result sentence (regression: the board after every action)."""
    lines: list[str] = []
    play_demo(env_id, seed=4, verbose=True, out=lines.append, width=80)
    actions = sum(line.endswith(("[heuristic]", "[random]")) for line in lines)
    tables = sum(line.startswith("== ") for line in lines)
    assert lines.count("Codes on the table:") == 1
    assert actions >= 10 and tables <= actions // 2 + 2
    assert all(len(line) <= 80 or " " not in line.strip() for line in lines)
    assert not any(re.search(r"\b(ABILITY|DRAW_OR_STOP|OWN_SUIT|TARGET offset|decision [A-Z])", line) for line in lines)
    # A spectator: secret choices are told without their content (a vote card, a Select pick, a kept ability).
    assert not any(re.match(r"player_\d: (Vote (Yes|No|Wild)|Pick |Keep )", line) for line in lines)


def test_demo_tortuga_result_reads_at_a_glance():
    """TOR-703..705: the nations' scores, a tie, the winners with their nation, the exiled who do not win."""
    lines: list[str] = []
    play_demo("tortuga_v0", num_players=4, seed=0, verbose=False, out=lines.append)
    start = max(i for i, line in enumerate(lines) if not line.startswith(" "))  # the result, after the table
    final = " ".join(line.strip() for line in lines[start:])
    assert re.search(r"(wins with|tie on) \d+", final) and "[" not in final
    assert re.search(r"winners: player_\d \((England|France|Spain)\)", final)
    assert re.search(r"player_\d \((England|France|Spain)\) was exiled and does not share the win", final), final


def test_demo_cli_rejects_unknown_game(capsys):
    assert main(["no_such_game"]) == 2
    assert "registered env ids" in capsys.readouterr().err


def test_demo_cli_writes_a_gif_of_the_whole_game(tmp_path, capsys):
    """``--gif`` writes one frame per action (plus the first table) at half the drawn size."""
    from PIL import Image

    path = tmp_path / "game.gif"
    assert main(["potsm_v0", "--num-players", "2", "--seed", "1", "--quiet", "--gif", str(path)]) == 0
    frames = int(capsys.readouterr().out.rsplit("(", 1)[1].split()[0])
    with Image.open(path) as gif:
        assert gif.size == (640, 360)
        assert 10 < gif.n_frames <= frames  # identical neighbours may be merged by the GIF writer
