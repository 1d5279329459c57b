"""The ``pirate-envs`` command (pirate_envs/cli.py), the ``shipped`` policy spec and game ids as configs
(pirate_envs/shipped.py).

Each subcommand runs its module's ``main`` with the rest of the command line, so it takes exactly that
module's options; ``--help`` lists every subcommand; modules load only when their subcommand runs.
"""

from __future__ import annotations

import importlib.metadata
import importlib.util
import json
import sys
from pathlib import Path

import numpy as np
import pytest

from pirate_envs import ENV_IDS, make_gym
from pirate_envs.cli import COMMANDS, Command, main
from pirate_envs.policies.base import resolve_policy
from pirate_envs.shipped import (
    checkpoints_dir,
    config_names,
    config_path,
    configs_dir,
    in_checkout,
    shipped_checkpoint,
    shipped_config,
    shipped_env_ids,
    shipped_policy,
)

ROOT = Path(__file__).resolve().parents[1]
ISSUE_COMMANDS = ("train", "evaluate", "play", "ship", "arena", "demo", "rate", "exploit")
# what ``python -m`` runs from a checkout for each subcommand
CHECKOUT_MODULES = {
    "train": "training.train",
    "evaluate": "training.evaluation.evaluate",
    "play": "training.apps.play",
    "ship": "training.apps.ship",
    "record-strength": "training.apps.record_strength",
    "rate": "training.evaluation.rate",
    "exploit": "training.evaluation.exploit",
    "rllib-train": "training.rllib_train",
    "arena": "pirate_envs.arena.__main__",
    "demo": "pirate_envs.demo",
}


def test_help_lists_every_subcommand(capsys):
    assert main(["--help"]) == 0
    out = capsys.readouterr().out
    for name, command in COMMANDS.items():
        assert f"  {name}" in out and command.summary in out
    assert set(ISSUE_COMMANDS) <= set(COMMANDS)


def test_no_command_and_unknown_command_are_usage_errors(capsys):
    assert main([]) == 2
    assert "commands:" in capsys.readouterr().err
    assert main(["evaluat"]) == 2
    err = capsys.readouterr().err
    assert "unknown command 'evaluat'" in err and "did you mean 'evaluate'" in err


def test_version(capsys):
    import pirate_envs

    assert main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"pirate-envs {pirate_envs.__version__}"


def test_installed_console_script_points_here():
    scripts = importlib.metadata.entry_points(group="console_scripts")
    assert {ep.value for ep in scripts if ep.name == "pirate-envs"} == {"pirate_envs.cli:main"}


@pytest.mark.parametrize("name", sorted(CHECKOUT_MODULES))
def test_subcommand_runs_the_checkout_module(name):
    """The subcommand's module is the checkout's ``python -m`` module under its installed name: same file."""
    assert set(CHECKOUT_MODULES) == set(COMMANDS)
    installed = COMMANDS[name].module
    if importlib.util.find_spec(CHECKOUT_MODULES[name]) is None:
        pytest.skip(f"{CHECKOUT_MODULES[name]} does not exist yet")
    assert importlib.util.find_spec(installed).origin == importlib.util.find_spec(CHECKOUT_MODULES[name]).origin


def test_subcommand_passes_its_arguments_through(capsys):
    """``pirate-envs evaluate ...`` is ``python -m training.evaluation.evaluate ...``: same options, same output."""
    from training.evaluation.evaluate import main as evaluate_main

    argv = ["--env", "dead_mans_draw_v0", "--policies", "random", "heuristic", "--games", "4", "--seed", "3"]
    assert main(["evaluate", *argv]) == 0
    via_cli = capsys.readouterr().out
    assert evaluate_main(argv) == 0
    direct = capsys.readouterr().out
    strip = [line for line in via_cli.splitlines() if not line.startswith("(")]  # the wall-time line differs
    assert strip == [line for line in direct.splitlines() if not line.startswith("(")]
    assert "| `heuristic` |" in via_cli


def test_subcommand_option_errors_come_from_the_module(capsys):
    with pytest.raises(SystemExit) as exc:
        main(["demo", "--no-such-option"])
    assert exc.value.code == 2
    assert "--no-such-option" in capsys.readouterr().err


def test_missing_module_and_missing_dependency(monkeypatch, tmp_path, capsys):
    (tmp_path / "needs_a_missing_dependency.py").write_text("import no_such_dependency_xyz\n")
    monkeypatch.syspath_prepend(str(tmp_path))
    monkeypatch.setitem(COMMANDS, "later", Command("pirate_envs.training.not_written_yet", "a later tool"))
    monkeypatch.setitem(COMMANDS, "heavy", Command("needs_a_missing_dependency", "needs an extra", "train"))
    assert main(["later"]) == 2
    assert "not available in this install (no module pirate_envs.training.not_written_yet)" in capsys.readouterr().err
    assert main(["heavy", "--help"]) == 2
    err = capsys.readouterr().err
    assert "'no_such_dependency_xyz'" in err and "pip install 'pirate_envs[train]'" in err


def test_help_imports_no_subcommand_module():
    """``pirate-envs --help`` must work without the extras: it imports none of the subcommand modules."""
    import subprocess

    code = (
        "import sys; from pirate_envs.cli import main, COMMANDS; main(['--help']); "
        "print([m for m in (c.module for c in COMMANDS.values()) if m in sys.modules])"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip().splitlines()[-1] == "[]"


# --- shipped agents and configs -------------------------------------------------------------------------


def test_checkout_finds_the_repository_folders():
    assert in_checkout()
    assert checkpoints_dir() == ROOT / "checkpoints" and configs_dir() == ROOT / "configs"
    assert shipped_env_ids() == sorted(ENV_IDS)  # every game ships an agent
    assert set(ENV_IDS) | {"quickstart"} <= set(config_names())


def test_game_id_names_its_shipped_config(tmp_path, monkeypatch):
    from training.config import ConfigError, load_config

    assert config_path("potsm_v0") == shipped_config("potsm_v0") == ROOT / "configs" / "potsm_v0.yaml"
    assert load_config("potsm_v0") == load_config(ROOT / "configs" / "potsm_v0.yaml")
    monkeypatch.chdir(tmp_path)
    (tmp_path / "potsm_v0").write_text("env: {id: dead_mans_draw_v0}\nrun: {total_timesteps: 10}\n")
    assert config_path("potsm_v0") == Path("potsm_v0")  # a file of that name wins
    with pytest.raises(ConfigError, match=r"does not exist \(or name a shipped config: .*potsm_v0"):
        load_config("potsm_v1")


def test_unknown_shipped_names_say_what_exists():
    with pytest.raises(ValueError, match=r"no shipped agent for 'chess_v0'; shipped agents: dead_mans_draw_v0"):
        shipped_checkpoint("chess_v0")
    with pytest.raises(ValueError, match=r"no shipped config 'chess'; shipped configs: .*quickstart"):
        shipped_config("chess")


@pytest.mark.parametrize("env_id", ENV_IDS)
def test_shipped_policy_plays_its_game(env_id):
    """``shipped_policy`` (the Python equivalent of ``--checkpoint shipped``) and the ``shipped`` spec."""
    num_players = json.loads((checkpoints_dir() / env_id / "eval.json").read_text())["num_players"]
    policy = shipped_policy(env_id)
    assert policy.path == shipped_checkpoint(env_id)
    spec_policy = resolve_policy("shipped", env_id, num_players)
    assert spec_policy.path == policy.path
    env = make_gym(env_id, num_players=num_players, opponents="shipped", seat=0)
    observation, _ = env.reset(seed=0)
    mask = env.action_masks()
    action = policy.act(observation, mask, np.random.default_rng(0))
    assert mask[action]


def test_evaluate_checkpoint_shipped(capsys):
    from training.evaluation.evaluate import main as evaluate_main

    argv = ["--env", "dead_mans_draw_v0", "--checkpoint", "shipped", "--vs", "random", "--games", "2"]
    assert evaluate_main(argv) == 0
    assert "Checkpoint `shipped` on dead_mans_draw_v0" in capsys.readouterr().out


def test_shipped_for_the_wrong_player_count_is_an_input_error(capsys):
    from training.evaluation.evaluate import main as evaluate_main

    argv = ["--env", "potsm_v0", "--num-players", "3", "--checkpoint", "shipped", "--vs", "random", "--games", "2"]
    assert evaluate_main(argv) == 2
    assert "was trained on observations of shape" in capsys.readouterr().err


def test_arena_offers_the_shipped_agents_without_a_checkpoints_folder(tmp_path, monkeypatch):
    """Run outside a checkout (no ./checkpoints), ``pirate-envs arena`` offers the shipped agents."""
    pytest.importorskip("uvicorn")
    import uvicorn

    import pirate_envs.arena.app as arena_app

    seen = {}

    def fake_create_app(**kwargs):
        seen.update(kwargs)
        return object()

    monkeypatch.setattr(arena_app, "create_app", fake_create_app)
    monkeypatch.setattr(uvicorn.Server, "run", lambda self, *args, **kwargs: None)
    monkeypatch.chdir(tmp_path)
    assert main(["arena", "--port", "0"]) == 0
    assert seen["checkpoints_dir"] == str(checkpoints_dir())
    (tmp_path / "checkpoints").mkdir()  # a checkpoints folder here is used as before
    assert main(["arena", "--port", "0"]) == 0
    assert seen["checkpoints_dir"] == "checkpoints"


@pytest.mark.parametrize("name", ["train", "evaluate", "demo"])
def test_usage_lines_name_the_command_that_runs_them(name, capsys):
    with pytest.raises(SystemExit):
        main([name, "--help"])
    assert capsys.readouterr().out.startswith(f"usage: pirate-envs {name} ")
    module = importlib.import_module(CHECKOUT_MODULES[name])
    with pytest.raises(SystemExit):
        module.main(["--help"])
    assert capsys.readouterr().out.startswith(f"usage: python -m {CHECKOUT_MODULES[name]} ")
