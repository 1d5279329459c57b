"""The benchmark scripts run: a tiny budget through ``benchmarks/throughput.py`` (every column printed) and
``benchmarks/strength.py``."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "benchmarks"))

import ppo_gain  # noqa: E402
import throughput  # noqa: E402

import pirate_envs  # noqa: E402


def test_throughput_script_prints_every_cell():
    argv = ["--games", "potsm_v0", "--rounds", "1", "--seconds", "0.01", "--bots", "--reseed", "--batch", "1", "4"]
    out = subprocess.run(
        [sys.executable, str(ROOT / "benchmarks" / "throughput.py"), *argv],
        capture_output=True,
        text=True,
        check=True,
        timeout=300,
    ).stdout
    assert "heuristic bot" in out and "seed every game" in out
    lines = out.splitlines()
    batch_at = next(i for i, line in enumerate(lines) if line.startswith("batched lockstep"))
    rows = [line for line in lines[:batch_at] if line.startswith("potsm_v0 (")]
    assert [row.split()[1] for row in rows] == ["(2p)", "(3p)", "(4p)"]
    # the holdem ratios need the PettingZoo reference (the bench extra); without it they read "-"
    holdem = any(line.startswith("texas_holdem_v4") and "[" in line for line in lines)
    for row in rows:  # engine, AEC, re-seeded AEC and bot cells read "best [median]"; ratios have no brackets
        assert row.count("[") == 4, row
        assert row.count("x") == (3 if holdem else 1), row  # AEC/engine, AEC/holdem, re-seeded AEC/holdem
    batch_rows = [line for line in lines[batch_at:] if line.startswith("potsm_v0 (")]
    assert len(batch_rows) == 1 and batch_rows[0].startswith("potsm_v0 (4p)")  # the default player count only
    assert batch_rows[0].count("[") == 2


def test_strength_script_measures_from_any_folder_and_leaves_recording_to_the_release_tool(tmp_path):
    """``benchmarks/strength.py`` runs as a script (its imports found from another working directory), prints
    the table, and points ``--record`` at ``training.apps.record_strength``."""
    script = [sys.executable, str(ROOT / "benchmarks" / "strength.py"), "--env", "dead_mans_draw_v0", "--games", "2"]
    done = subprocess.run(script, capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "## dead_mans_draw_v0, 2 players" in done.stdout and "Parity P =" in done.stdout
    moved = subprocess.run([*script, "--record"], capture_output=True, text=True, cwd=tmp_path, timeout=300)
    assert moved.returncode == 2 and "python -m training.apps.record_strength" in moved.stderr


class CountingEnv:
    """Records how an AEC env is reset; plays every game as one decision."""

    def __init__(self):
        self.resets: list[int | None] = []

    def reset(self, seed=None):
        self.resets.append(seed)
        self.done = False

    def agent_iter(self):
        yield "player_0"
        yield "player_0"

    def last(self):
        return {"action_mask": np.array([0, 1], dtype=np.int8)}, 0.0, self.done, False, {}

    def step(self, action):
        assert action == (None if self.done else 1)
        self.done = True


def test_aec_loop_seeds_once_then_resets_without_a_seed():
    """The fair method (issue 23): a training loop seeds once; re-seeding is a separate, opt-in column."""
    env = CountingEnv()
    loop = throughput.AecLoop(lambda: env)
    loop.rate(0.01)
    loop.rate(0.01)
    assert env.resets[0] == 0 and len(env.resets) > 3
    assert env.resets[1:] == [None] * (len(env.resets) - 1)
    reseeded = CountingEnv()
    throughput.AecLoop(lambda: reseeded, reseed=True).rate(0.01)
    assert reseeded.resets[:3] == [0, 1, 2]


def test_batch_loop_fills_the_arrays_with_each_games_acting_seat():
    game = pirate_envs.game_class("dead_mans_draw_v0")(num_players=2)
    loop = throughput.BatchLoop(game, 3)
    assert loop.rate(0.01) > 0
    loop.gather()
    for i, state in enumerate(loop.states):
        assert not state.is_terminal()  # finished games were restarted
        np.testing.assert_array_equal(loop.observations[i], state.observation(state.current_player()))
        np.testing.assert_array_equal(loop.masks[i], state.legal_action_mask())
    before = [state.decisions for state in loop.states]
    loop.step()
    assert [state.decisions for state in loop.states] == [d + 1 for d in before]


def test_paired_difference_counts_each_deal_once():
    warm = [1, 0, 0, 1, 0, 0, 1, 0]
    final = [1, 1, 0, 0, 1, 1, 1, 0]
    paired = ppo_gain.paired_difference(warm, final)
    assert paired["difference"] == 2 / 8 and paired["second_only"] == 3 and paired["first_only"] == 1
    low, high = paired["difference_ci95"]
    assert low < 0.25 < high and high - 0.25 == 0.25 - low
    same = ppo_gain.paired_difference([1, 0, 1], [1, 0, 1])
    assert same["difference"] == 0 and same["difference_ci95"] == [0.0, 0.0]


def test_train_speed_measures_the_steps_after_the_warmup(tmp_path):
    """benchmarks/train_speed.py: a tiny run of a real config; the rate covers the rollouts after --warmup."""
    import json

    out = tmp_path / "speed.json"
    tiny = ["vec_env.n_envs=2", "ppo.n_steps=32", "ppo.batch_size=32", "ppo.n_epochs=1", "eval.games=2"]
    command = [sys.executable, str(ROOT / "benchmarks" / "train_speed.py"), str(ROOT / "configs" / "quickstart.yaml")]
    command += ["--steps", "256", "--warmup", "64", "--json", str(out)]
    command += [arg for key in tiny for arg in ("--set", key)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    assert "env steps/s" in result.stdout
    (row,) = json.loads(out.read_text())
    assert row["steps"] == 256 - 64 and row["steps_per_second"] > 0  # rollouts end at 64, 128, ..., 256
    assert row["rollout_seconds"] > 0 and row["update_seconds"] > 0
    from pirate_envs.core.native import NATIVE

    assert row["compiled_encoders"] is (NATIVE is not None)
    assert f"compiled encoders {'on' if NATIVE is not None else 'off'}" in result.stdout


def test_train_speed_alternates_rounds_and_contenders(tmp_path):
    """train_speed.py --rounds 2 --versus: config as is, then with the settings, twice, each run fresh."""
    import json

    out = tmp_path / "speed.json"
    tiny = ["vec_env.n_envs=2", "ppo.n_steps=32", "ppo.batch_size=32", "ppo.n_epochs=1", "eval.games=2"]
    command = [sys.executable, str(ROOT / "benchmarks" / "train_speed.py"), str(ROOT / "configs" / "quickstart.yaml")]
    command += ["--steps", "128", "--warmup", "64", "--rounds", "2", "--versus", "ppo.n_epochs=2", "--json", str(out)]
    command += [arg for key in tiny for arg in ("--set", key)]
    result = subprocess.run(command, capture_output=True, text=True, timeout=300, check=False)
    assert result.returncode == 0, result.stderr[-2000:]
    rows = json.loads(out.read_text())
    assert [(row["round"], row["overrides"][-1]) for row in rows] == [
        (1, "eval.games=2"),
        (1, "ppo.n_epochs=2"),
        (2, "eval.games=2"),
        (2, "ppo.n_epochs=2"),
    ]
    assert all(row["steps"] == 128 - 64 and row["steps_per_second"] > 0 for row in rows)
    lines = result.stdout.splitlines()
    assert [line.split()[:2] for line in lines[:4]] == [["round", "1"], ["round", "1"], ["round", "2"], ["round", "2"]]
    summary = [line for line in lines if " median " in line]
    assert len(summary) == 2 and "over 2 runs" in summary[0] and "ppo.n_epochs=2]  median" in summary[1]


def test_train_speed_summary_and_bad_rounds():
    """The summary's median and range per contender; --rounds 0 is refused with the value named."""
    import train_speed

    rows = [{"config": "a.yaml", "overrides": [], "steps_per_second": rate} for rate in (3000.0, 4000.0, 3200.0)] + [
        {"config": "a.yaml", "overrides": ["x=1"], "steps_per_second": 5000.0}
    ]
    first, second = train_speed.summarise(rows)
    assert (first["median"], first["min"], first["max"], first["runs"]) == (
        3200.0,
        3000.0,
        4000.0,
        [3000.0, 4000.0, 3200.0],
    )
    assert second["overrides"] == ["x=1"] and second["median"] == 5000.0
    command = [sys.executable, str(ROOT / "benchmarks" / "train_speed.py"), "configs/quickstart.yaml", "--rounds", "0"]
    result = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert result.returncode == 2 and "--rounds must be at least 1, got 0" in result.stderr


def test_train_speed_counts_only_the_rollouts_inside_the_window():
    """The rollout time of train_speed.py: rollouts ending after the window's start, up to its end."""
    import train_speed

    starts = [0.0, 3.0, 7.0, 12.0]  # rollouts 0-2, 3-5, 7-10, 12-13; updates fill the gaps
    ends = [2.0, 5.0, 10.0, 13.0]
    assert train_speed.rollout_time(starts, ends, 2.0, 13.0) == 2.0 + 3.0 + 1.0  # the warm-up's 0-2 left out
    assert train_speed.rollout_time(starts, ends, 5.0, 10.0) == 3.0
    with pytest.raises(ValueError):  # a start without its end is a broken record, not a shorter sum
        train_speed.rollout_time(starts, ends[:-1], 2.0, 13.0)


def test_update_speed_times_each_head_path(tmp_path, capsys):
    """``benchmarks/update_speed.py`` on a small potsm action-feature config: one row per head path, and a
    config without action features refused with what is missing named."""
    import update_speed

    config = tmp_path / "small.yaml"
    config.write_text(
        "env: {id: potsm_v0, options: {num_players: 3}}\nrun: {total_timesteps: 64}\n"
        "vec_env: {n_envs: 2}\n"
        "ppo: {n_steps: 16, batch_size: 16}\n"
        "network: {pi: [16], vf: [16], action_features: true, features_in_policy: true}\n"
    )
    assert update_speed.main([str(config), "--points", "40", "--seconds", "0.01", "--rounds", "1"]) == 0
    out = capsys.readouterr().out
    assert "potsm_v0 {'num_players': 3}: 40 points" in out and "minibatches of 16" in out
    for path in ("legal rows", "every row, written", "every row, given"):
        assert f"| {path} | " in out
    flat = tmp_path / "flat.yaml"
    flat.write_text("env: {id: potsm_v0}\nrun: {total_timesteps: 64}\n")
    assert update_speed.main([str(flat), "--points", "8"]) == 2
    assert "has no network.action_features" in capsys.readouterr().err
