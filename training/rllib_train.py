"""Multi-agent PPO self-play on Ray RLlib, from a YAML config: ``python -m training.rllib_train``.

    python -m training.rllib_train CONFIG.yaml [--set key=value ...]

Needs the ``rllib`` extra (``pip install -c constraints.txt -e '.[rllib]'``). Every seat of the game
is an RLlib agent of our AEC env inside RLlib's ``PettingZooEnv``; ``policies.mode: shared`` maps all
of them to one module (``shared``: self-play with one network), ``per_seat`` gives each seat its own
module (``player_0`` ...). The modules are :class:`~pirate_envs.interop.rllib.MaskedPPOTorchRLModule`:
the action mask is applied to the logits in every forward pass, so illegal actions are never sampled
(the env runs with ``illegal_action="raise"``: one illegal action would stop the run).

The same config runs on this machine and on a Ray cluster: ``ray.address`` null starts a local Ray
(``ray.num_cpus`` caps it), ``"auto"`` or ``"HOST:PORT"`` / ``"ray://HOST:PORT"`` joins a running
cluster, and ``env_runners.num_env_runners`` / ``learners.num_learners`` set the scale (see
``docs/interop.md``). Config problems — unknown keys ("did you mean"), bad values, an unknown env id,
bad rule options, ray not installed, an unreachable Ray address — stop the run before anything starts,
with exit status 2.

The run directory holds ``config.yaml`` (resolved), ``metrics.csv`` (one row per iteration: env steps,
episodes, mean return per module, wall time, env steps/s), ``checkpoints/iter_<N>/`` (RLlib algorithm
checkpoints, newest ``checkpoint.keep`` kept) and ``final/`` (the last one). Every checkpoint can be
evaluated by ``training.evaluation.evaluate`` as a policy (a checkpoint directory is a policy spec)::

    python -m training.evaluation.evaluate --env potsm_v0 --num-players 4 --checkpoint runs/rllib-potsm_v0-.../final \\
        --vs random heuristic --games 200
"""

from __future__ import annotations

import argparse
import csv
import shutil
import socket
import sys
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog

from .config import (
    REQUIRED,
    ConfigError,
    Field,
    _check_game,
    apply_overrides,
    check_sections,
    dump_config,
    read_yaml,
    run_dir_of,
)

EXIT_USAGE = 2
EXTRA_HINT = "pip install -c constraints.txt -e '.[rllib]'"
POLICY_MODES = ("shared", "per_seat")
SHARED_MODULE = "shared"

SCHEMA: dict[str, dict[str, Field]] = {
    "env": {
        "id": Field(str, REQUIRED, "registered env id (pirate_envs.ENV_IDS)"),
        "options": Field("mapping", {}, "rule options passed to the game (num_players, reward_mode, ...)"),
    },
    "run": {
        "dir": Field(str, "runs/rllib-{env_id}-{timestamp}", "run directory; {env_id} and {timestamp} are filled in"),
        "seed": Field(int, 0, "seed of RLlib (modules, env runners' env seeds)", minimum=0),
        "iterations": Field(
            int, REQUIRED, "training iterations (each samples ppo.train_batch_size env steps)", minimum=1
        ),
        "torch_threads": Field(int, 1, "torch threads of the driver (the local learner)", minimum=1, maximum=256),
    },
    "ray": {
        "address": Field(
            str,
            None,
            "null: start a local Ray; 'auto', 'HOST:PORT' or 'ray://HOST:PORT': join that running cluster",
            nullable=True,
        ),
        "num_cpus": Field(
            int, None, "CPUs of a local Ray (null: all); ignored with an address", minimum=1, nullable=True
        ),
        "log_to_driver": Field(bool, False, "print the workers' logs here"),
    },
    "env_runners": {
        "num_env_runners": Field(int, 0, "remote sampling processes (0: sample in the driver)", minimum=0),
        "num_envs_per_env_runner": Field(int, 1, "envs stepped together by each env runner", minimum=1),
        "num_cpus_per_env_runner": Field(float, 1.0, "CPUs Ray reserves per env runner", minimum=0.0),
        "rollout_fragment_length": Field(
            int,
            None,
            "env steps per env runner per sample call (null: 'auto', from the batch size)",
            minimum=1,
            nullable=True,
        ),
    },
    "learners": {
        "num_learners": Field(int, 0, "remote learner processes (0: learn in the driver)", minimum=0),
        "num_gpus_per_learner": Field(float, 0.0, "GPUs per learner", minimum=0.0),
    },
    "policies": {
        "mode": Field(
            str, "shared", "shared: one module for every seat; per_seat: one module per seat", choices=POLICY_MODES
        ),
    },
    "ppo": {
        "lr": Field(float, 3.0e-4, "Adam step size", minimum=0.0, exclusive_minimum=True),
        "train_batch_size": Field(int, 4000, "env steps per iteration (per learner)", minimum=2),
        "minibatch_size": Field(int, 500, "minibatch size", minimum=2),
        "num_epochs": Field(int, 4, "passes over each batch", minimum=1),
        "gamma": Field(float, 0.99, "discount", minimum=0.0, maximum=1.0),
        "lambda_": Field(float, 0.95, "GAE lambda", minimum=0.0, maximum=1.0),
        "clip_param": Field(float, 0.2, "PPO clip", minimum=0.0, maximum=1.0, exclusive_minimum=True),
        "entropy_coeff": Field(float, 0.01, "entropy bonus", minimum=0.0),
        "vf_loss_coeff": Field(float, 0.5, "value loss weight", minimum=0.0),
        "grad_clip": Field(float, 0.5, "gradient clipping (global norm)", minimum=0.0, exclusive_minimum=True),
    },
    "model": {
        "hiddens": Field("int_list", [128, 128], "hidden layer sizes of the policy and value MLPs"),
        "activation": Field(str, "tanh", "hidden activation", choices=("tanh", "relu")),
        "features": Field(
            str,
            "signed_log",
            "input: the flat observation as is, or sign(x)*log(1+|x|)",
            choices=("flat", "signed_log"),
        ),
        "vf_share_layers": Field(bool, False, "policy and value share their hidden layers"),
    },
    "checkpoint": {
        "every": Field(int, 10, "iterations between checkpoints (the last one is always saved)", minimum=1),
        "keep": Field(int, 3, "periodic checkpoints kept (older ones deleted)", minimum=1),
    },
}


# --- config ---------------------------------------------------------------------------------------------
def validate_rllib_config(data: Mapping[str, Any], source: str = "config") -> dict[str, Any]:
    """Check ``data`` against :data:`SCHEMA` and the game; return it complete. Raises :class:`ConfigError`."""

    def fail(path: str, problem: str) -> ConfigError:
        return ConfigError(f"{source}: {path}: {problem}")

    config = check_sections(data, SCHEMA, fail)
    _check_game({"env": {**config["env"], "seat": "random"}}, fail)
    ppo = config["ppo"]
    if ppo["minibatch_size"] > ppo["train_batch_size"]:
        raise fail(
            "ppo.minibatch_size",
            f"{ppo['minibatch_size']} is larger than ppo.train_batch_size ({ppo['train_batch_size']}); "
            f"allowed: <= {ppo['train_batch_size']}",
        )
    return config


def load_rllib_config(path: str | Path, overrides: list[str] | None = None) -> dict[str, Any]:
    data = apply_overrides(read_yaml(path), overrides or [])
    return validate_rllib_config(data, source=str(path))


def check_extra() -> None:
    """Raise :class:`ConfigError` naming the install command when ray[rllib] or torch is missing.

    Looks the packages up without importing them (importing ray.rllib takes seconds)."""
    import importlib.util

    def found(name: str) -> bool:
        try:
            return importlib.util.find_spec(name) is not None
        except (ImportError, ValueError, AttributeError):
            return False

    missing = [name for name in ("ray", "torch") if not found(name)]
    if not missing:
        ray_dirs = importlib.util.find_spec("ray").submodule_search_locations or []
        if not any((Path(d) / "rllib").is_dir() for d in ray_dirs):
            missing.append("ray.rllib")
    if missing:
        raise ConfigError(
            f"RLlib training needs the 'rllib' extra, which is not installed (missing: {', '.join(missing)}); "
            f"run: {EXTRA_HINT}"
        )


def check_address(address: str | None, timeout: float = 5.0) -> None:
    """Fail fast on a Ray address that cannot be reached (a TCP connect to HOST:PORT)."""
    if address is None or address in ("auto", "local"):
        return
    target = address.removeprefix("ray://")
    host, sep, port = target.rpartition(":")
    if not sep or not host or not port.isdigit():
        raise ConfigError(
            f"ray.address: {address!r} is not an address; allowed: null, 'auto', 'HOST:PORT' or 'ray://HOST:PORT'"
        )
    try:
        with socket.create_connection((host, int(port)), timeout=timeout):
            pass
    except OSError as err:
        raise ConfigError(
            f"ray.address: cannot reach the Ray cluster at {address!r} ({err}); start it with `ray start --head` "
            "there, or set ray.address: null to train on this machine"
        ) from None


def resolve_run_dir(config: dict[str, Any]) -> Path:
    run_dir = run_dir_of(config)
    if (run_dir / "final").exists() or (run_dir / "checkpoints").exists():
        raise ConfigError(
            f"run.dir: {str(run_dir)!r} already holds a run; choose another run.dir (e.g. with {{timestamp}})"
        )
    return run_dir


# --- RLlib -----------------------------------------------------------------------------------------------
def module_ids(config: dict[str, Any]) -> list[str]:
    from pirate_envs.adapters.aec import agent_name
    from pirate_envs.core.registry import game_class

    if config["policies"]["mode"] == SHARED_MODULE:
        return [SHARED_MODULE]
    game = game_class(config["env"]["id"])(**config["env"]["options"])
    return [agent_name(seat) for seat in range(game.num_players)]


def _shared_mapping(agent_id, episode, **kwargs):
    return SHARED_MODULE


def _per_seat_mapping(agent_id, episode, **kwargs):
    return agent_id


def build_algorithm_config(config: dict[str, Any]):
    """The RLlib ``PPOConfig`` of a validated config (registers the env with ray.tune)."""
    from ray.rllib.algorithms.ppo import PPOConfig
    from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
    from ray.rllib.core.rl_module.rl_module import RLModuleSpec

    from pirate_envs.interop.rllib import FEATURES_KEY, MaskedPPOTorchRLModule, register_rllib_env

    env_name = register_rllib_env(config["env"]["id"], illegal_action="raise")
    model = config["model"]
    model_config = {
        "fcnet_hiddens": list(model["hiddens"]),
        "fcnet_activation": model["activation"],
        "head_fcnet_hiddens": [],
        "vf_share_layers": model["vf_share_layers"],
        FEATURES_KEY: model["features"],
    }
    ids = module_ids(config)
    runners, learners, ppo = config["env_runners"], config["learners"], config["ppo"]
    fragment = runners["rollout_fragment_length"]
    return (
        PPOConfig()
        .framework("torch")
        # RLlib's env check steps an *unmasked* random action, which our envs rightly refuse.
        .environment(env_name, env_config=dict(config["env"]["options"]), disable_env_checking=True)
        .env_runners(
            num_env_runners=runners["num_env_runners"],
            num_envs_per_env_runner=runners["num_envs_per_env_runner"],
            num_cpus_per_env_runner=runners["num_cpus_per_env_runner"],
            rollout_fragment_length="auto" if fragment is None else fragment,
        )
        .learners(num_learners=learners["num_learners"], num_gpus_per_learner=learners["num_gpus_per_learner"])
        .multi_agent(
            policies=set(ids),
            policy_mapping_fn=_shared_mapping if ids == [SHARED_MODULE] else _per_seat_mapping,
        )
        .rl_module(
            rl_module_spec=MultiRLModuleSpec(
                rl_module_specs={
                    module_id: RLModuleSpec(module_class=MaskedPPOTorchRLModule, model_config=model_config)
                    for module_id in ids
                }
            )
        )
        .training(
            lr=ppo["lr"],
            train_batch_size_per_learner=ppo["train_batch_size"],
            minibatch_size=ppo["minibatch_size"],
            num_epochs=ppo["num_epochs"],
            gamma=ppo["gamma"],
            lambda_=ppo["lambda_"],
            clip_param=ppo["clip_param"],
            entropy_coeff=ppo["entropy_coeff"],
            vf_loss_coeff=ppo["vf_loss_coeff"],
            grad_clip=ppo["grad_clip"],
            grad_clip_by="global_norm",
        )
        .debugging(seed=config["run"]["seed"])
    )


def init_ray(config: dict[str, Any]) -> None:
    import ray

    settings = config["ray"]
    address = settings["address"]
    check_address(address)
    kwargs: dict[str, Any] = {"include_dashboard": False, "log_to_driver": settings["log_to_driver"]}
    if address is None:
        if settings["num_cpus"] is not None:
            kwargs["num_cpus"] = settings["num_cpus"]
    else:
        kwargs["address"] = address
    try:
        ray.init(**kwargs)
    except ConnectionError as err:
        raise ConfigError(f"ray.address: cannot connect to a Ray cluster at {address!r}: {err}") from None


METRIC_COLUMNS = (
    "iteration",
    "env_steps",
    "env_steps_total",
    "episodes",
    "episode_return_mean",
    "seconds",
    "sample_seconds",
    "learn_seconds",
    "env_steps_per_s",
)


def iteration_row(iteration: int, result: dict[str, Any], seconds: float) -> dict[str, Any]:
    runners = result.get("env_runners", {})
    timers = result.get("timers", {})
    steps = int(runners.get("num_env_steps_sampled", 0) or 0)
    return {
        "iteration": iteration,
        "env_steps": steps,
        "env_steps_total": int(runners.get("num_env_steps_sampled_lifetime", 0) or 0),
        "episodes": int(runners.get("num_episodes", 0) or 0),
        "episode_return_mean": float(runners.get("episode_return_mean", float("nan"))),  # summed over the seats
        "seconds": round(seconds, 3),
        # RLlib's own timers (exponential averages that weigh the first iterations heavily): sampling, PPO update
        "sample_seconds": round(float(timers.get("env_runner_sampling_timer", float("nan"))), 3),
        "learn_seconds": round(float(timers.get("learner_update_timer", float("nan"))), 3),
        "env_steps_per_s": round(steps / seconds, 1) if seconds > 0 else 0.0,
    }


def train(config: dict[str, Any], run_dir: Path, progress: bool = True) -> dict[str, Any]:
    """Run a validated config; returns ``{"run_dir", "final", "metrics": [rows]}``."""
    import ray
    import torch

    torch.set_num_threads(config["run"]["torch_threads"])
    init_ray(config)  # before the run directory: a cluster that cannot be joined leaves nothing behind
    algo = None
    rows: list[dict[str, Any]] = []
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        (run_dir / "config.yaml").write_text(dump_config(config))
        algo = build_algorithm_config(config).build_algo()
        every, keep = config["checkpoint"]["every"], config["checkpoint"]["keep"]
        kept: list[Path] = []
        with (run_dir / "metrics.csv").open("w", newline="") as handle:
            writer = csv.DictWriter(handle, fieldnames=METRIC_COLUMNS)
            writer.writeheader()
            for iteration in range(1, config["run"]["iterations"] + 1):
                started = time.perf_counter()
                result = algo.train()
                row = iteration_row(iteration, result, time.perf_counter() - started)
                rows.append(row)
                writer.writerow(row)
                handle.flush()
                if progress:
                    print(
                        f"iter {iteration}: {row['env_steps']} env steps in {row['seconds']:.1f} s "
                        f"({row['env_steps_per_s']:.0f}/s; sample {row['sample_seconds']:.1f} s, "
                        f"learn {row['learn_seconds']:.1f} s), {row['episodes']} episodes",
                        flush=True,
                    )
                if iteration % every == 0 and iteration < config["run"]["iterations"]:
                    path = run_dir / "checkpoints" / f"iter_{iteration:05d}"
                    algo.save_to_path(str(path.resolve()))
                    kept.append(path)
                    while len(kept) > keep:
                        shutil.rmtree(kept.pop(0), ignore_errors=True)
        final = run_dir / "final"
        algo.save_to_path(str(final.resolve()))
    finally:
        if algo is not None:
            algo.stop()
        ray.shutdown()
    return {"run_dir": str(run_dir), "final": str(final), "metrics": rows}


# --- command line -----------------------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name), description="Multi-agent PPO self-play on Ray RLlib from a YAML config."
    )
    parser.add_argument("config", help="YAML config (see configs/rllib/*.yaml and docs/interop.md)")
    parser.add_argument("--set", action="append", default=[], metavar="KEY=VALUE", help="override one key")
    parser.add_argument("--quiet", action="store_true", help="no per-iteration lines")
    args = parser.parse_args(argv)
    try:
        config = load_rllib_config(args.config, args.set)
        check_extra()
        check_address(config["ray"]["address"])
        run_dir = resolve_run_dir(config)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_USAGE
    try:
        result = train(config, run_dir, progress=not args.quiet)
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return EXIT_USAGE
    print(f"wrote {result['final']} (RLlib checkpoint) and {run_dir / 'metrics.csv'}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
