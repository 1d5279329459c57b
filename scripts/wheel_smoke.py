"""Smoke test of an installed pirate_envs wheel (with the ``train`` extra), run from outside any checkout.

    /path/to/venv/bin/python wheel_smoke.py      # from an empty directory; scripts/package_smoke.sh runs it

Checks what a pip user gets: one top-level package (no ``training``), every env (PettingZoo AEC game to
the end, ``rgb_array`` picture, Gymnasium env against the shipped agent), the ``pirate-envs`` command
(``--help``, ``demo``, ``play``, ``evaluate --checkpoint shipped`` for every game, ``train GAME_ID`` with
the shipped config, tiny), the compiled module. Prints one line per check; exits non-zero at the first failure.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
import tempfile
from pathlib import Path

import numpy as np

import pirate_envs
from pirate_envs import ENV_IDS, make, make_gym
from pirate_envs.cli import COMMANDS
from pirate_envs.cli import main as cli_main
from pirate_envs.shipped import checkpoints_dir, in_checkout, shipped_env_ids

BIN = Path(sys.executable).parent
TINY_TRAIN = [
    "--set", "run.total_timesteps=64", "--set", "vec_env.n_envs=2", "--set", "vec_env.kind=dummy",
    "--set", "ppo.n_steps=32", "--set", "ppo.batch_size=32", "--set", "imitation.games=0",
    "--set", "eval.every=64", "--set", "eval.games=2", "--set", "checkpoint.every=64",
]  # fmt: skip


def ok(what: str) -> None:
    print(f"ok: {what}", flush=True)


def fail(what: str) -> None:
    print(f"FAILED: {what}", file=sys.stderr, flush=True)
    sys.exit(1)


def run(*args: str, stdin: str = "") -> str:
    done = subprocess.run(args, input=stdin, capture_output=True, text=True, timeout=600)
    if done.returncode != 0:
        fail(f"{' '.join(args)} exited {done.returncode}:\n{done.stdout[-2000:]}\n{done.stderr[-2000:]}")
    return done.stdout


def installed() -> None:
    where = Path(pirate_envs.__file__).resolve()
    if "site-packages" not in where.parts or in_checkout():
        fail(f"pirate_envs imported from {where}, not from an installed wheel")
    if importlib.util.find_spec("training") is not None:
        fail("a top-level 'training' package is importable")
    ok(f"pirate_envs {pirate_envs.__version__} from {where.parent}; no top-level training package")


def compiled_module() -> None:
    """A wheel built where a C compiler and Python's headers are present carries pirate_envs._native."""
    from pirate_envs.core.native import NATIVE, can_build

    if NATIVE is None and can_build():
        fail("the wheel has no compiled pirate_envs._native although setup.py could have built it here")
    ok(f"compiled module {Path(NATIVE.__file__).name}" if NATIVE else "no compiled module (nothing to build it)")


def aec_game(env_id: str) -> None:
    env = make(env_id, render_mode="rgb_array")
    env.reset(seed=1)
    rng = np.random.default_rng(1)
    picture = env.render()
    if not (isinstance(picture, np.ndarray) and picture.ndim == 3 and picture.shape[2] == 3):
        fail(f"{env_id}: rgb_array render gave {type(picture).__name__}")
    steps = 0
    for _agent in env.agent_iter():
        observation, _, terminated, truncated, _ = env.last()
        action = None
        if not (terminated or truncated):
            action = int(rng.choice(np.flatnonzero(observation["action_mask"])))
        env.step(action)
        steps += 1
    env.close()
    ok(f"{env_id}: AEC game to the end ({steps} steps), rgb_array {picture.shape}")


def gym_against_shipped(env_id: str, num_players: int) -> None:
    env = make_gym(env_id, num_players=num_players, opponents="shipped")
    env.reset(seed=2)
    rng = np.random.default_rng(2)
    done = False
    while not done:
        action = int(rng.choice(np.flatnonzero(env.action_masks())))
        _, reward, terminated, truncated, _ = env.step(action)
        done = terminated or truncated
    ok(f"{env_id}: Gymnasium episode against the shipped agent ({num_players} players), reward {reward}")


def cli() -> None:
    text = run(str(BIN / "pirate-envs"), "--help")
    missing = [name for name in COMMANDS if name not in text]
    if missing:
        fail(f"pirate-envs --help does not list {missing}")
    ok("pirate-envs --help lists " + ", ".join(COMMANDS))
    run(str(BIN / "pirate-envs"), "demo", "dead_mans_draw_v0", "--quiet")
    ok("pirate-envs demo dead_mans_draw_v0 --quiet")
    run(str(BIN / "pirate-envs"), "play", "--env", "dead_mans_draw_v0", "--opponents", "shipped", stdin="q\n")
    ok("pirate-envs play --env dead_mans_draw_v0 --opponents shipped (quit at once)")


def evaluate_shipped(env_id: str, num_players: int) -> None:
    argv = ["evaluate", "--env", env_id, "--num-players", str(num_players), "--checkpoint", "shipped"]
    code = cli_main([*argv, "--vs", "random", "--games", "2"])
    if code != 0:
        fail(f"pirate-envs {' '.join(argv)} exited {code}")
    ok(f"pirate-envs {' '.join(argv)} --vs random --games 2")


def train_from_game_id(env_id: str) -> None:
    with tempfile.TemporaryDirectory() as folder:
        run_dir = Path(folder) / "run"
        run(str(BIN / "pirate-envs"), "train", env_id, "--set", f"run.dir={run_dir}", *TINY_TRAIN)
        if not (run_dir / "final_model.zip").is_file():
            fail(f"pirate-envs train {env_id} wrote no final_model.zip")
    ok(f"pirate-envs train {env_id} (the shipped config, tiny budget)")


def main() -> int:
    installed()
    compiled_module()
    agents = shipped_env_ids()
    if agents != sorted(ENV_IDS):
        fail(f"shipped agents {agents} != env ids {sorted(ENV_IDS)}")
    players = {e: json.loads((checkpoints_dir() / e / "eval.json").read_text())["num_players"] for e in agents}
    for env_id in ENV_IDS:
        aec_game(env_id)
        gym_against_shipped(env_id, players[env_id])
    cli()
    for env_id in ENV_IDS:
        evaluate_shipped(env_id, players[env_id])
    train_from_game_id("dead_mans_draw_v0")
    print("wheel smoke test: all checks passed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
