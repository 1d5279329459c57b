"""Strength yardsticks (``training.evaluation.yardsticks``): the parity rate, heuristic vs random, the table;
recording them (``training.apps.record_strength``) and the measuring script ``benchmarks/strength.py``.

Tournaments are seeded, so every figure here is reproducible: the tests use small game counts and
cannot flake, yet they fail if a cell is measured from the wrong seat, policy or estimate.
"""

from __future__ import annotations

import json
import shutil
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import strength  # noqa: E402

from pirate_envs.shipped import checkpoints_dir  # noqa: E402
from training.apps import record_strength  # noqa: E402
from training.apps.ship import YARDSTICK_FIELDS, releases_dir  # noqa: E402
from training.evaluation import yardsticks  # noqa: E402
from training.evaluation.tournament import run_tournament  # noqa: E402
from training.inputs import InputError  # noqa: E402

DMD = "dead_mans_draw_v0"


@pytest.fixture(scope="module")
def dmd_yardsticks() -> dict:
    return yardsticks.measure_strength(DMD, games=64, seed=3)


def test_symmetric_rate_is_mean_winners_over_seats():
    records = [{"winners": [0]}, {"winners": [1]}, {"winners": [0, 1]}, {"winners": []}]
    rate = yardsticks.symmetric_rate(records, num_players=2)
    assert rate["games"] == 4 and rate["wins"] == 4
    assert rate["win_rate"] == pytest.approx(0.5)
    low, high = rate["win_rate_ci95"]
    assert 0.0 <= low < 0.5 < high <= 1.0  # ties and winnerless games spread it
    single = yardsticks.symmetric_rate([{"winners": [g % 4]} for g in range(8)], num_players=4)
    assert single["win_rate"] == 0.25 and single["win_rate_ci95"] == [0.25, 0.25]  # exact by symmetry


def test_symmetric_rate_agrees_with_one_focal_seat():
    """The all-seat estimate and the focal seat's own win rate measure the same thing among identical bots."""
    result = run_tournament(DMD, None, {"random": "random", "random#2": "random"}, games=200, seed=1, keep_games=True)
    rate = yardsticks.symmetric_rate(result["game_records"], result["num_players"])
    focal = result["standings"]["random"]
    assert focal["seat_games"] == 200
    assert abs(focal["win_rate"] - rate["win_rate"]) < 0.1  # 3 standard errors of the focal rate at 200 games


def test_yardsticks_fields_and_parity_near_one_over_sides(dmd_yardsticks):
    result = dmd_yardsticks
    assert result["env_id"] == DMD and result["num_players"] == 2 and result["games"] == 64
    assert set(result["table"]) == {"random", "heuristic"}
    for row in result["table"].values():
        assert set(row) == {"random", "heuristic"}
        for cell in row.values():
            assert cell["games"] == 64
            low, high = cell["win_rate_ci95"]
            assert 0.0 <= low <= cell["win_rate"] <= high <= 1.0
    parity = result["table"]["heuristic"]["heuristic"]
    assert parity["estimate"] == "all seats"
    assert result["parity_win_rate"] == parity["win_rate"]
    assert abs(result["parity_win_rate"] - result["fair_win_rate"]) < 0.05  # 1/2, raised a little by ties
    assert abs(result["table"]["random"]["random"]["win_rate"] - 0.5) < 0.05
    assert result["heuristic_vs_random_win_rate"] == result["table"]["heuristic"]["random"]["win_rate"] > 0.75
    assert result["table"]["random"]["heuristic"]["win_rate"] < 0.25
    assert result["table"]["heuristic"]["random"]["estimate"] == "focal seat"


def test_yardsticks_are_reproducible_from_the_seed(dmd_yardsticks):
    again = yardsticks.measure_strength(DMD, games=64, seed=3)
    assert {k: v for k, v in again.items() if k != "run"} == {k: v for k, v in dmd_yardsticks.items() if k != "run"}


def test_markdown_names_parity_and_every_row(dmd_yardsticks):
    text = yardsticks.strength_markdown(dmd_yardsticks)
    assert f"Parity P = {dmd_yardsticks['parity_win_rate']:.3f}" in text
    assert "| `random` |" in text and "| `heuristic` |" in text
    summary = yardsticks.summary_markdown([dmd_yardsticks])
    assert summary.count(f"| {DMD} | 2 |") == 1 and "| — | — | — |" in summary  # no checkpoint row measured


def test_record_adds_only_the_yardstick_fields(dmd_yardsticks, tmp_path):
    target = tmp_path / "eval.json"
    shutil.copy(ROOT / "checkpoints" / DMD / "eval.json", target)
    before = json.loads(target.read_text())
    record_strength.check_record_target(target, DMD, None, {})
    record_strength.record_yardsticks(dmd_yardsticks, target)
    after = json.loads(target.read_text())

    def others(data: dict) -> dict:
        return {k: v for k, v in data.items() if k not in YARDSTICK_FIELDS}

    assert others(after) == others(before) and others(before)["vs"]["heuristic"]["games"] == 1000
    assert after["parity_win_rate"] == dmd_yardsticks["parity_win_rate"]
    assert after["parity_games"] == after["heuristic_vs_random_games"] == 64 and after["yardsticks_seed"] == 3
    keys = list(after)
    assert keys[keys.index("fair_win_rate") + 1] == "parity_win_rate"
    record_strength.record_yardsticks(dmd_yardsticks, target)  # recording again replaces, never duplicates
    assert json.loads(target.read_text()) == after


def test_record_refuses_another_player_count(tmp_path):
    target = tmp_path / "eval.json"
    shutil.copy(ROOT / "checkpoints" / DMD / "eval.json", target)
    with pytest.raises(InputError, match="num_players"):
        record_strength.check_record_target(target, DMD, 3, {})


def test_command_line_rejects_bad_input_before_any_game(capsys):
    assert strength.main(["--env", "no_such_game_v0", "--games", "2"]) == 2
    assert "unknown env id" in capsys.readouterr().err
    eval_json = ROOT / "checkpoints" / DMD / "eval.json"
    before = eval_json.read_text()
    assert strength.main(["--env", DMD, "--record", "--games", "2"]) == 2  # a release step: not here
    err = capsys.readouterr().err
    assert "--record moved" in err and f"training.apps.record_strength --env {DMD} --games 2" in err
    assert eval_json.read_text() == before
    assert strength.main(["--env", DMD, "potsm_v0", "--checkpoint", "x.zip"]) == 2
    assert "exactly one --env" in capsys.readouterr().err


def test_command_line_checkpoint_row(tmp_path, capsys):
    out = tmp_path / "strength.json"
    assert strength.main(["--env", DMD, "--games", "4", "--shipped", "--out", str(out)]) == 0
    (result,) = json.loads(out.read_text())
    assert set(result["table"]) == {"random", "heuristic", "checkpoint"}
    assert result["checkpoint"].endswith(f"checkpoints/{DMD}/model.zip")
    assert result["table"]["checkpoint"]["heuristic"]["games"] == 4
    assert "checkpoint / P" in capsys.readouterr().out


def test_a_new_checkpoint_keeps_the_game_yardsticks_and_the_bots_exploit_figures():
    from training.apps.ship import _yardsticks_of

    game = {"env_id": "madame_ching_v0", "num_players": 4, "options": {}}
    old = {
        **game,
        "parity_win_rate": 0.25,
        "exploit": {"shipped": {"responder_win_rate": 0.32}, "heuristic": {"responder_win_rate": 0.12}},
    }
    kept = _yardsticks_of(old, {**game, "win_rate": 0.5})
    assert kept == {"parity_win_rate": 0.25, "exploit": {"heuristic": {"responder_win_rate": 0.12}}}
    assert _yardsticks_of(old, {**game, "num_players": 3}) == {}  # another player count: nothing carries over


# --- recording: training.apps.record_strength ----------------------------------------------------------


@pytest.fixture
def shipped_copy(tmp_path) -> Path:
    """A checkpoints folder holding a copy of the shipped DMD eval.json (the real one is never written)."""
    target = tmp_path / "checkpoints" / DMD / "eval.json"
    target.parent.mkdir(parents=True)
    shutil.copy(ROOT / "checkpoints" / DMD / "eval.json", target)
    return tmp_path / "checkpoints"


def test_the_release_tool_records_what_the_yardsticks_measure(shipped_copy, dmd_yardsticks, capsys):
    target = shipped_copy / DMD / "eval.json"
    before = json.loads(target.read_text())
    assert record_strength.main(["--checkpoints-dir", str(shipped_copy), "--games", "64", "--seed", "3"]) == 0
    out = capsys.readouterr().out
    assert f"recorded parity and heuristic-vs-random rates in {target}" in out and "Parity P =" in out
    after = json.loads(target.read_text())
    # at the eval.json's player count and options, which are the defaults: the same figures as measured directly
    assert after["parity_win_rate"] == dmd_yardsticks["parity_win_rate"]
    assert after["heuristic_vs_random_win_rate_ci95"] == dmd_yardsticks["heuristic_vs_random_win_rate_ci95"]
    assert after["yardsticks_seed"] == 3 and after["parity_games"] == 64
    assert {k: v for k, v in after.items() if k not in YARDSTICK_FIELDS} == {
        k: v for k, v in before.items() if k not in YARDSTICK_FIELDS
    }


def test_the_release_tool_measures_at_the_recorded_player_count(shipped_copy, monkeypatch):
    target = shipped_copy / DMD / "eval.json"
    data = json.loads(target.read_text())
    target.write_text(json.dumps({**data, "num_players": 3}))
    seen = {}

    def fake_measure(env_id, num_players, games, seed, workers, options, progress=False):
        seen.update(num_players=num_players, options=options)
        raise InputError("stop here")

    monkeypatch.setattr(record_strength, "measure_strength", fake_measure)
    with pytest.raises(InputError, match="stop here"):
        record_strength.record_strength(DMD, games=2, checkpoints_dir=shipped_copy)
    assert seen == {"num_players": 3, "options": data["options"]}


def test_the_release_tool_rejects_bad_targets_before_any_game(shipped_copy, tmp_path, capsys):
    assert record_strength.main(["--env", "no_such_game_v0", "--checkpoints-dir", str(shipped_copy)]) == 2
    assert "unknown env id" in capsys.readouterr().err
    assert record_strength.main(["--env", "potsm_v0", "--checkpoints-dir", str(shipped_copy)]) == 2
    err = capsys.readouterr().err
    assert "cannot read" in err and "potsm_v0/eval.json" in err and "written by training.apps.ship" in err
    empty = tmp_path / "empty"
    empty.mkdir()
    assert record_strength.main(["--checkpoints-dir", str(empty)]) == 2
    assert "no <env_id>/eval.json" in capsys.readouterr().err
    broken = shipped_copy / DMD / "eval.json"
    broken.write_text(json.dumps({**json.loads(broken.read_text()), "options": {"variant": "no-such-variant"}}))
    before = broken.read_text()
    assert record_strength.main(["--env", DMD, "--checkpoints-dir", str(shipped_copy)]) == 2
    assert "variant" in capsys.readouterr().err and broken.read_text() == before


def test_shipping_and_recording_write_into_the_checkouts_checkpoints():
    assert releases_dir() == checkpoints_dir()  # in a checkout: the repository's checkpoints/, not training/'s
    assert record_strength.eval_json_path(DMD) == checkpoints_dir() / DMD / "eval.json"
