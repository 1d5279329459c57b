"""Training throughput: env steps per second of MaskablePPO on every game, and where the time goes.

For each game and each vec-env layout (dummy / subproc / batched x n_envs) this measures

- ``env_only``: the vec env stepped with uniformly random legal actions (masks fetched the way
  MaskablePPO fetches them) — the ceiling the environment allows;
- ``learn``: a full ``MaskablePPO.learn`` with the config's PPO and network settings; the vec env
  is wrapped in a timer, so the run splits into time in the env (steps + mask queries) and time in
  the network (rollout forward passes and PPO updates) — ``env_share`` is the env's part.

Run (defaults: every registered game, the settings of configs/<env_id>.yaml, opponents random;
``--opponents config`` uses the config's first-stage opponent mix, i.e. what its training starts with)::

    python benchmarks/train_throughput.py [--env potsm_v0] [--steps 8192] [--opponents config]
        [--layouts dummy:1 dummy:4 dummy:16 subproc:4 batched:16:2] [--threads 1 2]
        [--update-threads 2] [--json out.json]

``--update-threads N`` adds rows where the PPO updates (not the rollouts) run with N torch threads,
as ``run.update_threads`` does in training.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

import numpy as np
from stable_baselines3.common.vec_env import VecEnvWrapper

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import pirate_envs  # noqa: E402
from training.config import load_typed_config  # noqa: E402
from training.config_types import TrainConfig  # noqa: E402
from training.train import build_model, build_vec_env  # noqa: E402

DEFAULT_LAYOUTS = ("dummy:1", "dummy:4", "dummy:16", "subproc:4", "batched:16:2")


class TimedVecEnv(VecEnvWrapper):
    """Adds up the wall time spent inside the wrapped vec env (steps, resets, mask queries)."""

    def __init__(self, venv: Any) -> None:
        super().__init__(venv)
        self.seconds = 0.0

    def reset(self):
        start = time.perf_counter()
        result = self.venv.reset()
        self.seconds += time.perf_counter() - start
        return result

    def step_async(self, actions: np.ndarray) -> None:
        start = time.perf_counter()
        self.venv.step_async(actions)
        self.seconds += time.perf_counter() - start

    def step_wait(self):
        start = time.perf_counter()
        result = self.venv.step_wait()
        self.seconds += time.perf_counter() - start
        return result

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        start = time.perf_counter()
        result = self.venv.env_method(method_name, *args, indices=indices, **kwargs)
        self.seconds += time.perf_counter() - start
        return result


def layout_config(config: TrainConfig, layout: str) -> TrainConfig:
    """``config`` with the vec env of ``layout``: ``kind:n_envs``, or ``batched:n_envs:workers``
    (``vec_env.lockstep`` stays the config's)."""
    kind, n_envs, *workers = layout.split(":")
    vec = replace(config.vec_env, kind=kind, n_envs=int(n_envs), workers=int(workers[0]) if workers else 2)
    ppo = replace(config.ppo, batch_size=min(config.ppo.batch_size, config.ppo.n_steps * vec.n_envs))
    return replace(config, vec_env=vec, ppo=ppo)


def opponents_of(config: TrainConfig, spec: str) -> Any:
    """``spec`` for every other seat, or with ``config`` the config's first-stage opponent mix (what
    training starts with; later stages add self-play snapshots, which cost less than heuristic bots)."""
    if spec != "config":
        return spec
    from pirate_envs.policies.selfplay import SelfPlayPool
    from training.curriculum import OpponentSchedule

    return SelfPlayPool(mix=OpponentSchedule.from_config(config).mix(0))


def make_vec_env(config: TrainConfig, opponents: Any):
    vec = build_vec_env(config, opponents=opponents)
    vec.seed(0)
    return vec


def env_only(config: TrainConfig, opponents: Any, steps: int) -> float:
    """Env steps/s with random legal actions."""
    n_envs = config.vec_env.n_envs
    vec = make_vec_env(config, opponents)
    rng = np.random.default_rng(0)
    vec.reset()
    start = time.perf_counter()
    done_steps = 0
    while done_steps < steps:
        masks = np.stack(vec.env_method("action_masks"))
        actions = np.array([rng.choice(np.flatnonzero(m)) for m in masks])
        vec.step(actions)
        done_steps += n_envs
    seconds = time.perf_counter() - start
    vec.close()
    return done_steps / seconds


def learn(
    config: TrainConfig, opponents: Any, steps: int, threads: int = 1, update_threads: int | None = None
) -> dict[str, float]:
    """Full MaskablePPO.learn: steps/s and the share of time spent in the env."""
    import torch

    from training.callbacks import UpdateThreadsCallback

    torch.set_num_threads(threads)
    vec = TimedVecEnv(make_vec_env(config, opponents))
    model = build_model(config, vec, tensorboard_log=None)
    rollout = config.ppo.n_steps * config.vec_env.n_envs
    total = max(rollout, (steps // rollout) * rollout)
    start = time.perf_counter()
    callback = None if update_threads is None else UpdateThreadsCallback(threads, update_threads)
    model.learn(total_timesteps=total, callback=callback)
    seconds = time.perf_counter() - start
    vec.close()
    return {"steps_per_s": model.num_timesteps / seconds, "env_share": vec.seconds / seconds}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--env", nargs="*", default=list(pirate_envs.ENV_IDS), help="env ids (default: all)")
    parser.add_argument("--steps", type=int, default=8192, help="env steps per measurement")
    parser.add_argument(
        "--opponents", default="random", help="opponent spec for every other seat, or 'config' (its first stage)"
    )
    parser.add_argument(
        "--layouts", nargs="*", default=list(DEFAULT_LAYOUTS), help="kind:n_envs or batched:n_envs:workers entries"
    )
    parser.add_argument("--threads", nargs="*", type=int, default=[1, 2], help="torch threads of the learner")
    parser.add_argument(
        "--update-threads", nargs="*", type=int, default=[], help="also measure with N torch threads in PPO updates"
    )
    parser.add_argument("--skip-learn", action="store_true", help="measure the env alone")
    parser.add_argument("--json", help="also write the results to this JSON file")
    args = parser.parse_args(argv)

    rows = []
    for env_id in args.env:
        config = load_typed_config(ROOT / "configs" / f"{env_id}.yaml")
        opponents = opponents_of(config, args.opponents)
        for layout in args.layouts:
            cfg = layout_config(config, layout)
            vec = {"kind": cfg.vec_env.kind, "n_envs": cfg.vec_env.n_envs, "workers": cfg.vec_env.workers}
            env_rate = env_only(cfg, opponents, args.steps)
            thread_pairs = [(t, None) for t in args.threads] + [(1, u) for u in args.update_threads]
            for threads, update_threads in thread_pairs if not args.skip_learn else [(None, None)]:
                row = {"env": env_id, **vec, "threads": threads, "update_threads": update_threads}
                row.update({"opponents": args.opponents, "env_only": env_rate})
                if threads is not None:
                    row.update(learn(cfg, opponents, args.steps, threads, update_threads))
                rows.append(row)
                print(format_row(row), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(rows, indent=2) + "\n")
    return 0


def format_row(row: dict[str, Any]) -> str:
    layout = f"{row['kind']}:{row['n_envs']}" + (f":{row['workers']}" if row["kind"] == "batched" else "")
    text = f"{row['env']:<18} {layout:<12} env-only {row['env_only']:7.0f} steps/s"
    if row.get("steps_per_s") is not None:
        update = f", {row['update_threads']} in updates" if row.get("update_threads") else ""
        text += (
            f" | learn (torch threads {row['threads']}{update}) {row['steps_per_s']:6.0f} steps/s,"
            f" env {row['env_share']:.0%} / network {1 - row['env_share']:.0%}"
        )
    return text


if __name__ == "__main__":
    sys.exit(main())
