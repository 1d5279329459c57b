"""Bad inputs to training.train, training.evaluation.evaluate and training.apps.ship fail fast, with errors
naming the file or key; damaged checkpoints are skipped on resume; one process at a time trains in a run directory.

Nothing here trains: runs are faked from the shipped potsm_v0 checkpoint, and the fail-fast paths must
stop before any model, env or game is built (the expensive steps are replaced by tripwires).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest
import yaml

from pirate_envs.policies.selfplay import SelfPlayPool
from training.callbacks import pool_to_state
from training.checkpoints import RunDirBusy, latest_checkpoint, lock_run_dir, model_spaces, model_zip_problem
from training.config import ConfigError, dump_config, load_config, validate_config
from training.config_types import TrainConfig

ROOT = Path(__file__).resolve().parents[1]
ENV_ID = "potsm_v0"
SHIPPED = ROOT / "checkpoints" / ENV_ID
OTHER_GAME = ROOT / "checkpoints" / "dead_mans_draw_v0"
MINIMAL = {"env": {"id": ENV_ID}, "run": {"total_timesteps": 1000}}


def write_yaml(path: Path, data: dict | str) -> Path:
    path.write_text(data if isinstance(data, str) else yaml.safe_dump(data))
    return path


def truncate(path: Path, keep: float = 0.5) -> None:
    data = path.read_bytes()
    path.write_bytes(data[: int(len(data) * keep)])


@pytest.fixture
def no_training(monkeypatch):
    """``training.train.train`` replaced by a tripwire: the errors under test must come before it."""
    import training.train

    def tripwire(*args, **kwargs):
        raise AssertionError("training started although the input was bad")

    monkeypatch.setattr(training.train, "train", tripwire)


def fake_run(run_dir: Path, steps: list[int]) -> TrainConfig:
    """A run directory whose checkpoints are copies of the shipped potsm_v0 model (no training needed).

    ``total_timesteps`` is below the model's own count, so resuming it trains nothing.
    """
    from training.train import new_state

    data = yaml.safe_load((SHIPPED / "config.yaml").read_text())
    data["run"].update({"dir": str(run_dir), "total_timesteps": 1})
    data["vec_env"] = {"n_envs": 1, "kind": "dummy"}
    data["ppo"]["batch_size"] = data["ppo"]["n_steps"]
    data["imitation"]["games"] = 0
    data["logging"] = {"tensorboard": False, "progress_bar": False}
    config = TrainConfig.from_dict(validate_config(data))
    (run_dir / "checkpoints").mkdir(parents=True)
    (run_dir / "config.yaml").write_text(dump_config(config))
    for step in steps:
        state = {**new_state(config), "timesteps": step}
        state["pool"] = pool_to_state(SelfPlayPool(mix={"random": 1.0}), run_dir)
        shutil.copy(SHIPPED / "model.zip", run_dir / "checkpoints" / f"step_{step:010d}.zip")
        (run_dir / "checkpoints" / f"step_{step:010d}.json").write_text(json.dumps(state))
    return config


# --- 1. damaged checkpoints on resume -------------------------------------------------------------------
def test_latest_checkpoint_skips_a_truncated_zip_or_json(tmp_path):
    fake_run(tmp_path, [100, 200, 300])
    folder = tmp_path / "checkpoints"
    truncate(folder / "step_0000000300.zip")
    truncate(folder / "step_0000000200.json")
    damaged = []
    path, state = latest_checkpoint(tmp_path, on_damaged=lambda p, problem: damaged.append((p.name, problem)))
    assert path.name == "step_0000000100.zip" and state["timesteps"] == 100
    assert [name for name, _ in damaged] == ["step_0000000300.zip", "step_0000000200.json"]
    assert "zip" in damaged[0][1] and "JSON" in damaged[1][1]
    assert model_zip_problem(folder / "step_0000000100.zip") is None
    assert "does not exist" in model_zip_problem(folder / "missing.zip")


def test_resume_falls_back_from_a_damaged_newest_checkpoint(tmp_path, capsys):
    """A truncated step zip and a truncated step JSON: the resume warns naming each and uses the older one."""
    from training.train import main

    run_dir = tmp_path / "run"
    fake_run(run_dir, [100, 200, 300])
    folder = run_dir / "checkpoints"
    truncate(folder / "step_0000000300.zip")
    truncate(folder / "step_0000000200.json", keep=0.3)
    assert main(["--resume", str(run_dir)]) == 0
    err = capsys.readouterr().err
    assert f"warning: checkpoint file {folder / 'step_0000000300.zip'}" in err
    assert f"warning: checkpoint file {folder / 'step_0000000200.json'}" in err
    assert "resuming from step_0000000100.zip" in err
    # the damaged pairs are set aside, so later checkpoints and pruning never pick them up
    assert (folder / "step_0000000300.zip.damaged").is_file() and not (folder / "step_0000000300.zip").exists()
    assert latest_checkpoint(run_dir)[0].name == "step_0000000100.zip"


def test_resume_with_only_damaged_checkpoints_names_them(tmp_path, capsys, no_training):
    from training.train import main

    fake_run(tmp_path, [100])
    truncate(tmp_path / "checkpoints" / "step_0000000100.zip")
    assert main(["--resume", str(tmp_path)]) == 2
    err = capsys.readouterr().err
    assert "no sound checkpoint" in err and "step_0000000100.zip" in err


# --- 2. config ------------------------------------------------------------------------------------------
def test_duplicate_yaml_keys_are_an_error_naming_key_and_line(tmp_path):
    text = "env:\n  id: potsm_v0\nrun:\n  total_timesteps: 100\nppo:\n  n_steps: 32\n  n_steps: 64\n"
    with pytest.raises(ConfigError, match=r"line 7, column 3: duplicate key 'n_steps' \(first given at line 6\)"):
        load_config(write_yaml(tmp_path / "c.yaml", text))
    sections = "env: {id: potsm_v0}\nrun: {total_timesteps: 100}\nppo: {n_steps: 32}\nppo: {n_epochs: 2}\n"
    with pytest.raises(ConfigError, match=r"line 4, column 1: duplicate key 'ppo'"):
        load_config(write_yaml(tmp_path / "c.yaml", sections))
    with pytest.raises(ConfigError, match="duplicate key 'a'"):
        load_config(write_yaml(tmp_path / "c.yaml", MINIMAL), ["env.options={a: 1, a: 2}"])


def test_set_into_a_scalar_section_is_a_config_error(tmp_path, capsys, no_training):
    from training.train import main

    path = write_yaml(tmp_path / "c.yaml", "env: {id: potsm_v0}\nrun: 5\n")
    with pytest.raises(ConfigError, match=r"run.dir=.*: cannot set a key inside run: it is int 5, not a mapping"):
        load_config(path, [f"run.dir={tmp_path / 'x'}"])
    assert main([str(path), "--set", f"run.dir={tmp_path / 'x'}"]) == 2
    assert "config error" in capsys.readouterr().err


@pytest.mark.parametrize("where", ["a_file", "a_file/sub", "/proc/pirate_envs_run"])
def test_unusable_run_dir_is_a_config_error_before_training(tmp_path, capsys, no_training, where):
    (tmp_path / "a_file").write_text("not a directory")
    run_dir = where if where.startswith("/") else str(tmp_path / where)
    path = write_yaml(tmp_path / "c.yaml", {**MINIMAL, "run": {"total_timesteps": 100, "dir": run_dir}})
    assert main_train([str(path)]) == 2
    err = capsys.readouterr().err
    assert f"run.dir: {run_dir!r}" in err and "Traceback" not in err


@pytest.mark.skipif(os.geteuid() == 0, reason="root writes into read-only directories")
def test_read_only_run_dir_is_a_config_error(tmp_path, capsys, no_training):
    locked = tmp_path / "ro"
    locked.mkdir()
    locked.chmod(0o500)
    try:
        path = write_yaml(tmp_path / "c.yaml", {**MINIMAL, "run": {"total_timesteps": 100, "dir": str(locked / "r")}})
        assert main_train([str(path)]) == 2
        assert "cannot be created or written" in capsys.readouterr().err
    finally:
        locked.chmod(0o700)


def main_train(argv: list[str]) -> int:
    from training.train import main

    return main(argv)


def test_init_from_another_games_checkpoint_fails_at_config_time(tmp_path):
    """Found from the zip's own records (its run's config.yaml, its spaces) while the config loads: no torch,
    no env, no network (it took 19.5 s of building before)."""
    base = {**MINIMAL, "run": {"total_timesteps": 100, "init_from": str(OTHER_GAME / "model.zip")}}
    started = time.perf_counter()
    with pytest.raises(ConfigError, match=r"run.init_from: .* was trained on 'dead_mans_draw_v0' .*config.yaml"):
        load_config(write_yaml(tmp_path / "c.yaml", base))
    assert time.perf_counter() - started < 2.0
    bare = tmp_path / "bare.zip"  # no run files beside it: the recorded spaces still tell
    shutil.copy(OTHER_GAME / "model.zip", bare)
    assert model_spaces(bare) == ((851,), 105)
    base["run"]["init_from"] = str(bare)
    foreign = r"run.init_from: .* shape \(851,\) with 105 actions; it cannot play for potsm_v0 .*\(637,\)"
    with pytest.raises(ConfigError, match=foreign):
        load_config(write_yaml(tmp_path / "c.yaml", base))
    truncate(bare)
    with pytest.raises(ConfigError, match=r"run.init_from: checkpoint file .*bare.zip' is not a readable zip"):
        load_config(write_yaml(tmp_path / "c.yaml", base))
    base["run"]["init_from"] = str(SHIPPED / "model.zip")  # the right game passes
    assert load_config(write_yaml(tmp_path / "c.yaml", base))["run"]["init_from"] == str(SHIPPED / "model.zip")


# --- 3. one process per run directory -------------------------------------------------------------------
def test_a_second_run_on_a_locked_run_dir_is_refused(tmp_path, capsys, no_training):
    run_dir = tmp_path / "run"
    fake_run(run_dir, [100])
    fresh = write_yaml(tmp_path / "c.yaml", {**MINIMAL, "run": {"total_timesteps": 100, "dir": str(run_dir)}})
    with lock_run_dir(run_dir):  # as a live training process holds it
        assert main_train(["--resume", str(run_dir)]) == 2
        err = capsys.readouterr().err
        assert "in use by another training process" in err and f"pid {os.getpid()}" in err
        assert main_train([str(fresh)]) == 2
        assert "in use by another training process" in capsys.readouterr().err
    with lock_run_dir(run_dir):  # released on exit
        pass


def test_the_lock_of_a_killed_process_is_not_stale(tmp_path):
    """The OS drops an flock when its process dies, so a crashed run never blocks the next one."""
    holder = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "import sys, time; from training.checkpoints import lock_run_dir; lock = lock_run_dir(sys.argv[1]); "
            "print('locked', flush=True); time.sleep(60)",
            str(tmp_path),
        ],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    try:
        assert holder.stdout.readline().strip() == "locked"
        with pytest.raises(RunDirBusy, match=f"pid {holder.pid} "):
            lock_run_dir(tmp_path)
    finally:
        holder.kill()
        holder.wait()
    assert f"pid {holder.pid} " in (tmp_path / "run.lock").read_text()  # the file stays, the lock is gone
    with lock_run_dir(tmp_path):
        pass


# --- 4. training.evaluation.evaluate -------------------------------------------------------------------------------
@pytest.fixture
def no_checkpoint_loads(monkeypatch):
    """Records every MaskablePPO checkpoint load (the seconds-long step the fail-fast checks must precede)."""
    import pirate_envs.networks.checkpoint_policy as checkpoint_policy

    loads: list[str] = []
    real = checkpoint_policy.CheckpointPolicy

    def recording(path, *args, **kwargs):
        loads.append(str(path))
        return real(path, *args, **kwargs)

    monkeypatch.setattr(checkpoint_policy, "CheckpointPolicy", recording)
    return loads


@pytest.mark.parametrize("out", ["a_file", "a_file/report.json", "/proc/pirate_envs_out"])
def test_evaluate_out_that_cannot_be_written_fails_before_any_game(tmp_path, capsys, no_checkpoint_loads, out):
    from training.evaluation.evaluate import main

    (tmp_path / "a_file").write_text("not a directory")
    target = out if out.startswith("/") else str(tmp_path / out)
    argv = ["--env", ENV_ID, "--checkpoint", str(SHIPPED / "model.zip"), "--vs", "random", "--games", "4"]
    assert main([*argv, "--out", target]) == 2
    assert "error: --out: " in capsys.readouterr().err
    assert no_checkpoint_loads == []


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        (["--checkpoint", str(SHIPPED / "model.zip"), "--vs", "random", "heuristic", "heurstic"], "'heurstic'"),
        (["--policies", str(SHIPPED / "model.zip"), "heuristic", "flatmc:rollouts=many"], "rollouts"),
    ],
    ids=["vs", "policies"],
)
def test_evaluate_rejects_a_bad_spec_before_loading_any_checkpoint(capsys, no_checkpoint_loads, mode, message):
    from training.evaluation.evaluate import main

    assert main(["--env", ENV_ID, *mode, "--games", "4"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and message in err
    assert no_checkpoint_loads == []


def test_evaluate_rejects_unreadable_or_foreign_checkpoints_by_name(tmp_path, capsys, no_checkpoint_loads):
    from training.evaluation.evaluate import main

    broken = tmp_path / "broken.zip"
    shutil.copy(SHIPPED / "model.zip", broken)
    truncate(broken)
    argv = ["--env", ENV_ID, "--checkpoint", str(SHIPPED / "model.zip"), "--games", "4", "--vs"]
    assert main([*argv, "random", str(broken)]) == 2
    assert f"checkpoint file {str(broken)!r} is not a readable zip" in capsys.readouterr().err
    assert main([*argv, str(OTHER_GAME / "model.zip")]) == 2
    assert "(851,) with 105 actions; it cannot play for potsm_v0" in capsys.readouterr().err
    assert no_checkpoint_loads == []


# --- 5. training.apps.ship -----------------------------------------------------------------------------------
@pytest.fixture
def ship_run(tmp_path, monkeypatch):
    """A run to ship (the shipped potsm model as its best_model.zip) and a repository root in tmp_path whose
    checkpoints/potsm_v0 already holds a checkpoint: the real checkpoints/ is never written."""
    import training.apps.ship

    run_dir = tmp_path / "run"
    run_dir.mkdir()
    shutil.copy(SHIPPED / "model.zip", run_dir / "best_model.zip")
    shutil.copy(SHIPPED / "config.yaml", run_dir / "config.yaml")
    repo = tmp_path / "repo"
    shutil.copytree(SHIPPED, repo / "checkpoints" / ENV_ID)
    monkeypatch.setattr(training.apps.ship, "ROOT", repo)
    return run_dir, repo / "checkpoints" / ENV_ID


def test_ship_refuses_to_replace_a_shipped_checkpoint_without_force(ship_run, capsys):
    from training.apps.ship import main

    run_dir, existing = ship_run
    before = (existing / "model.zip").read_bytes(), (existing / "eval.json").read_text()
    assert main([str(run_dir), "--games", "4", "--vs", "random"]) == 2
    err = capsys.readouterr().err
    assert f"{str(existing / 'model.zip')!r} is a shipped checkpoint already" in err and "--force" in err
    recorded = json.loads(before[1])["vs"]["heuristic"]["win_rate"]
    assert f"vs heuristic {recorded:.3f}" in err  # what would be replaced: its recorded evaluation
    assert ((existing / "model.zip").read_bytes(), (existing / "eval.json").read_text()) == before


def test_ship_with_force_prints_old_and_new_evaluations(ship_run, capsys):
    from training.apps.ship import main

    run_dir, existing = ship_run
    old = json.loads((existing / "eval.json").read_text())["vs"]["random"]
    assert main([str(run_dir), "--games", "4", "--vs", "random", "--force"]) == 0
    out = capsys.readouterr().out
    assert "| opponents | replaced checkpoint | new checkpoint |" in out
    row = next(line for line in out.splitlines() if line.startswith("| `random`"))
    assert f"{old['win_rate']:.3f}" in row and f"({old['games']} games)" in row and "(4 games)" in row
    new = json.loads((existing / "eval.json").read_text())
    assert new["vs"]["random"]["games"] == 4
    # the game's yardsticks (training.apps.record_strength) stay: they do not depend on the checkpoint
    recorded = json.loads((SHIPPED / "eval.json").read_text())
    assert new["parity_win_rate"] == recorded["parity_win_rate"] > 0
    assert new["heuristic_vs_random_win_rate_ci95"] == recorded["heuristic_vs_random_win_rate_ci95"]


def test_ship_names_a_truncated_model_zip(ship_run, tmp_path, capsys):
    from training.apps.ship import main

    run_dir, _ = ship_run
    truncate(run_dir / "best_model.zip")
    assert main([str(run_dir), "--out", str(tmp_path / "new"), "--games", "4"]) == 2
    err = capsys.readouterr().err
    assert f"error: model file {str(run_dir / 'best_model.zip')!r} is not a readable zip" in err
    assert not (tmp_path / "new").exists()
