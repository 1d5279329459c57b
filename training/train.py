"""Train a MaskablePPO agent on one game from a YAML config.

    python -m training.train CONFIG.yaml [--set key=value ...] [--resume RUN_DIR]

The config (``training/config.py``) fully describes a run; ``--set`` overrides single keys
(``--set ppo.learning_rate=1e-4 --set vec_env.n_envs=2``). The learner plays one seat of the
game's Gymnasium adapter (``pirate_envs.make_gym``, seat drawn per episode by default) against the
opponent curriculum of ``opponents.stages``; ``training/callbacks.py`` runs the curriculum,
self-play snapshots, evaluations and checkpoints. ``--resume RUN_DIR`` continues a run from its
newest checkpoint with the timestep counter, opponent pool, curriculum stage, best score and
evaluation history it had (the config is the run's own ``config.yaml`` unless CONFIG is given; keys
an older run's file lacks get their schema defaults).

The config passed through training is a :class:`~training.config_types.TrainConfig` (one dataclass
per section, the schema itself): ``config.ppo.learning_rate``,
``config.vec_env.n_envs``. :func:`prepare_run` loads it once; :func:`train` also takes a plain config
dict (validated and converted), the functions below it only a ``TrainConfig``.

Output in the run directory: see ``training/checkpoints.py``. One process trains in a run directory
at a time: a second ``training.train`` on the same ``run.dir`` (fresh or ``--resume``) is refused
while the first lives (``run.lock``). On ``--resume`` a damaged newest checkpoint (truncated zip or
JSON) is set aside with a warning naming it and the run continues from the newest sound one.
Exit status 2 on a config error (including a run directory that cannot be created or written, or
is in use), which is reported before anything is trained.
"""

from __future__ import annotations

import argparse
import functools
import sys
import time
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from pirate_envs.cli import command_prog
from pirate_envs.networks.checkpoint_policy import load_maskable_ppo

from .checkpoints import (
    CHECKPOINT_DIR,
    LOCK_NAME,
    RunDirBusy,
    RunLock,
    atomic_write_text,
    checkpoint_states,
    latest_checkpoint,
    lock_run_dir,
    set_aside,
)
from .config import ConfigError, dump_config, load_typed_config, require_typed, run_dir_of, typed_config
from .config_types import TrainConfig

TB_LOG_NAME = "MaskablePPO"
WARM_START_MODEL = "warm_start_model.zip"  # the warm-started model before any PPO update


@dataclass
class PreparedRun:
    """A validated run, its directory locked for this process (release with :meth:`close`)."""

    config: TrainConfig
    run_dir: Path
    resume: tuple[Path, dict[str, Any]] | None
    lock: RunLock

    def close(self) -> None:
        self.lock.release()


def lock_run(run_dir: Path) -> RunLock:
    """Create ``run_dir`` and take its lock; a directory that cannot be made or written, or one another
    live process trains in, is a :class:`ConfigError` (found before anything is built)."""
    try:
        return lock_run_dir(run_dir)
    except RunDirBusy as err:
        raise ConfigError(
            f"run.dir: {err}; wait for it to finish, or stop it, or choose another run.dir "
            f"(the lock is {LOCK_NAME} in the run directory; the operating system drops it when its process ends)"
        ) from None
    except OSError as err:
        if run_dir.exists() and not run_dir.is_dir():
            problem = "exists and is not a directory"
        else:
            problem = f"cannot be created or written ({err.strerror or err})"
        raise ConfigError(f"run.dir: {str(run_dir)!r} {problem}; allowed: a writable directory path") from None


def prepare_run(config_path: str | None, overrides: list[str], resume_dir: str | None) -> PreparedRun:
    """Load and validate everything a run needs and lock its directory.

    On resume a damaged newest checkpoint (zip or JSON that does not read) is renamed to
    ``*.damaged`` with a warning, and the run continues from the newest sound one.
    """
    if resume_dir is None:
        if config_path is None:
            raise ConfigError("a CONFIG.yaml is required unless --resume RUN_DIR is given")
        config = load_typed_config(config_path, overrides)
        run_dir = run_dir_of(config)
        lock = lock_run(run_dir)
        if checkpoint_states(run_dir):
            lock.release()
            raise ConfigError(
                f"run.dir: {str(run_dir)!r} already holds a run; continue it with --resume {run_dir} "
                "or choose another run.dir (e.g. with {timestamp})"
            )
        return PreparedRun(config, run_dir, None, lock)
    run_dir = Path(resume_dir)
    if not run_dir.is_dir():
        raise ConfigError(f"--resume: run directory {str(run_dir)!r} does not exist")
    # an older run's config.yaml lacks the keys added since: validation gives them their schema defaults
    config = load_typed_config(config_path or run_dir / "config.yaml", overrides)
    lock = lock_run(run_dir)
    try:
        return PreparedRun(config, run_dir, _checkpoint_to_resume(config, run_dir), lock)
    except BaseException:
        lock.release()
        raise


def _checkpoint_to_resume(config: TrainConfig, run_dir: Path) -> tuple[Path, dict[str, Any]]:
    damaged: list[tuple[Path, str]] = []
    resume = latest_checkpoint(run_dir, on_damaged=lambda path, problem: damaged.append((path, problem)))
    if resume is None:
        if damaged:
            listed = "; ".join(f"{path} {problem}" for path, problem in damaged)
            raise ConfigError(f"--resume: no sound checkpoint in {str(run_dir / CHECKPOINT_DIR)!r}: {listed}")
        raise ConfigError(f"--resume: no checkpoint in {str(run_dir / CHECKPOINT_DIR)!r} (step_<T>.zip with its .json)")
    saved_env = resume[1].get("env_id")
    if saved_env is not None and saved_env != config.env.id:
        raise ConfigError(
            f"env.id: the run in {str(run_dir)!r} trains {saved_env!r}, the config says {config.env.id!r}"
        )
    for path, problem in damaged:
        kept = [set_aside(p) for p in (path.with_suffix(".zip"), path.with_suffix(".json")) if p.exists()]
        print(
            f"warning: checkpoint file {path} {problem}; resuming from {resume[0].name} instead "
            f"(the damaged pair is kept as {', '.join(p.name for p in kept)})",
            file=sys.stderr,
            flush=True,
        )
    return resume


# --- envs and model -------------------------------------------------------------------------------
def appended_action_features(config: TrainConfig) -> bool:
    """Whether the envs append the per-action features to each observation (``network.action_features``),
    rather than the policy computing them from the observation and the mask (``network.features_in_policy``)."""
    return config.network.action_features and not config.network.features_in_policy


def make_training_env(
    env_id: str, seat: Any, opponents: Any, options: dict[str, Any], single_thread: bool, action_features: bool = False
):
    """One training env (top-level so that subprocess vec envs can pickle it). No ``Monitor``: the vec envs'
    stepper (:class:`training.stepper.EnvStepper`) keeps its episode record."""
    from pirate_envs.adapters.gym_env import make_gym

    if single_thread:  # a subprocess: one torch thread each, or the cores are oversubscribed
        import torch

        torch.set_num_threads(1)
    return make_gym(
        env_id, seat=seat, opponents=opponents, illegal_action="raise", action_features=action_features, **options
    )


VEC_ENV_KINDS = ("dummy", "lockstep", "subproc", "batched", "batched_lockstep", "native")


def build_vec_env(config: TrainConfig, opponents: Any):
    """The training vec env of ``config.vec_env``; every kind steps its envs with the one stepper
    (:class:`training.stepper.EnvStepper`), ``kind`` choosing the layout:

    - ``dummy``: all envs in this process, every opponent deciding row by row;
    - ``lockstep``: all envs in this process, a network opponent deciding for every env waiting on it at
      once; an ``offload`` share of them stepped meanwhile by one worker process;
    - ``subproc``: one worker process per env;
    - ``batched``: the envs split over ``workers`` processes, masks sent with each step; ``batched_lockstep``:
      the same, a network opponent deciding for all of a worker's envs at once;
    - ``native``: all envs in one compiled vector (:mod:`pirate_envs.vector`): random and heuristic opponents
      played in C, network opponents batched; the Python engine behind the same class where the game has no
      compiled engine.
    """
    from .lockstep import LockstepVecEnv, offloaded_count
    from .vec_env import BatchedSubprocVecEnv

    config = require_typed(config, "build_vec_env")
    env, vec = config.env, config.vec_env
    if vec.kind not in VEC_ENV_KINDS:
        raise ConfigError(f"vec_env.kind: {vec.kind!r}; allowed: one of {', '.join(map(repr, VEC_ENV_KINDS))}")
    factory = functools.partial(
        make_training_env,
        env.id,
        env.seat,
        opponents,
        dict(env.options),
        action_features=appended_action_features(config),
    )
    if vec.kind == "native":
        from pirate_envs.vector import NativeVectorEnv

        venv = NativeVectorEnv(
            env.id,
            vec.n_envs,
            opponents=opponents,
            seat=env.seat,
            seed=config.run.seed,
            action_features=appended_action_features(config),
            **dict(env.options),
        )
        return venv.as_sb3()
    here = functools.partial(factory, single_thread=False)
    in_worker = functools.partial(factory, single_thread=True)  # a worker process: one torch thread
    n = vec.n_envs
    if vec.kind in ("dummy", "lockstep"):
        batched = vec.kind == "lockstep"
        n_remote = offloaded_count(n, vec.offload) if batched else 0
        return LockstepVecEnv(
            [here] * (n - n_remote) + [in_worker] * n_remote,
            seed=config.run.seed,
            offload=vec.offload if batched else 0.0,
            batch_opponents=batched,
        )
    workers = n if vec.kind == "subproc" else vec.workers
    return BatchedSubprocVecEnv([in_worker] * n, workers=workers, lockstep=vec.kind == "batched_lockstep")


def ppo_hyperparameters(config: TrainConfig) -> dict[str, Any]:
    """MaskablePPO's keyword arguments from ``config.ppo`` (for a new model and on resume)."""
    from stable_baselines3.common.utils import LinearSchedule

    ppo = require_typed(config, "ppo_hyperparameters").ppo
    learning_rate: Any = ppo.learning_rate
    if ppo.lr_schedule == "linear":
        learning_rate = LinearSchedule(start=ppo.learning_rate, end=0.0, end_fraction=1.0)
    return {
        "learning_rate": learning_rate,
        "n_steps": ppo.n_steps,
        "batch_size": ppo.batch_size,
        "n_epochs": ppo.n_epochs,
        "gamma": ppo.gamma,
        "gae_lambda": ppo.gae_lambda,
        "clip_range": ppo.clip_range,
        "ent_coef": ppo.ent_coef,
        "vf_coef": ppo.vf_coef,
        "max_grad_norm": ppo.max_grad_norm,
        "target_kl": ppo.target_kl,
        "normalize_advantage": ppo.normalize_advantage,
    }


def rollout_buffer_settings(config: TrainConfig) -> dict[str, Any]:
    """MaskablePPO's rollout buffer for ``config.network``: with per-action features one that keeps big
    observations in place (``FlatRolloutBuffer``), and with ``features_in_policy`` one that also computes
    the rows' legal features once per rollout (``LegalFeatureRolloutBuffer``); SB3's own otherwise."""
    net = require_typed(config, "rollout_buffer_settings").network
    if not net.action_features:
        return {}
    from pirate_envs.networks.action_feature_policy import FlatRolloutBuffer, LegalFeatureRolloutBuffer

    if not net.features_in_policy:
        return {"rollout_buffer_class": FlatRolloutBuffer}
    return {
        "rollout_buffer_class": LegalFeatureRolloutBuffer,
        "rollout_buffer_kwargs": {"env_id": config.env.id, "game_options": dict(config.env.options)},
    }


def build_model(config: TrainConfig, vec_env: Any, tensorboard_log: str | None):
    """A fresh MaskablePPO on ``vec_env`` with the network of ``config.network`` and ``config.ppo``'s settings."""
    import torch
    from sb3_contrib import MaskablePPO

    from pirate_envs.networks.checkpoint_policy import signed_log_features_class

    config = require_typed(config, "build_model")
    net = config.network
    # torch.distributions re-checks every distribution's arguments (a sizeable share of a batch-of-4
    # forward pass); the masked categorical's inputs come from the network, so skip the checks.
    torch.distributions.Distribution.set_default_validate_args(False)
    activation = {"tanh": torch.nn.Tanh, "relu": torch.nn.ReLU}[net.activation]
    policy_kwargs: dict[str, Any] = {
        "net_arch": {"pi": list(net.pi), "vf": list(net.vf)},
        "activation_fn": activation,
    }
    policy: Any = "MlpPolicy"
    if net.action_features:
        from pirate_envs.networks.action_feature_policy import ActionFeaturePolicy

        policy = ActionFeaturePolicy
        policy_kwargs.update(
            env_id=config.env.id,
            game_options=dict(config.env.options),
            embed_dim=net.action_embed,
            signed_log=net.features == "signed_log",
            features_from_mask=net.features_in_policy,
        )
    elif net.features == "signed_log":
        policy_kwargs["features_extractor_class"] = signed_log_features_class()
    return MaskablePPO(
        policy,
        vec_env,
        **ppo_hyperparameters(config),
        policy_kwargs=policy_kwargs,
        **rollout_buffer_settings(config),
        tensorboard_log=tensorboard_log,
        seed=config.run.seed,
        device="cpu",
        verbose=0,
    )


def new_state(config: TrainConfig) -> dict[str, Any]:
    """The resume state of a fresh run (saved next to every checkpoint)."""
    config = require_typed(config, "new_state")
    return {
        "env_id": config.env.id,
        "timesteps": 0,
        "stage": 0,
        "pool": None,
        "best_score": -1.0,
        "best_timesteps": None,
        "next_eval": 0,
        "next_checkpoint": config.checkpoint.every,
        "next_snapshot": 0,
        "wall_seconds": 0.0,
        "evaluations": [],
    }


def network_input_shape(policy: Any) -> tuple[int, ...]:
    """The shape of the rows the network reads: with per-action features those follow the observation,
    whether the envs appended them or the policy computes them (``network.features_in_policy``)."""
    return tuple(getattr(policy, "input_shape", policy.observation_space.shape))


def load_initial_weights(model: Any, path: str) -> None:
    """Copy the policy weights of the MaskablePPO zip at ``path`` into ``model`` (``run.init_from``)."""
    try:
        source = load_maskable_ppo(path, device="cpu")
    except Exception as err:  # zipfile, pickle, torch: the file is not a usable model
        raise ConfigError(
            f"run.init_from: cannot load {path!r} as a MaskablePPO model: {type(err).__name__}: {err}"
        ) from None
    theirs, ours = source.policy.state_dict(), model.policy.state_dict()
    if hasattr(source.policy, "augment") != hasattr(model.policy, "augment"):
        had = hasattr(source.policy, "augment")
        raise ConfigError(
            f"run.init_from: {path!r} was trained with network.action_features={str(had).lower()}; "
            f"set network.action_features: {str(had).lower()} to start from it"
        )
    if (
        network_input_shape(source.policy) != network_input_shape(model.policy)
        or source.action_space != model.action_space
    ):
        raise ConfigError(
            f"run.init_from: {path!r} was trained for observations {source.observation_space.shape} and "
            f"{source.action_space}; this run has {model.observation_space.shape} and {model.action_space}"
        )
    if theirs.keys() != ours.keys() or any(theirs[k].shape != ours[k].shape for k in ours):
        raise ConfigError(
            f"run.init_from: {path!r} has another network (net_arch {source.policy_kwargs.get('net_arch')}); "
            f"set network.pi / network.vf to match it"
        )
    model.policy.load_state_dict(theirs)


def load_for_resume(config: TrainConfig, checkpoint_path: Path, vec_env: Any, tensorboard_log: str | None):
    """The run's checkpoint with the config's PPO settings (e.g. a ``--set`` on resume); its network stays."""
    config = require_typed(config, "load_for_resume")
    try:
        model = load_maskable_ppo(
            checkpoint_path,
            env=vec_env,
            device="cpu",
            tensorboard_log=tensorboard_log,
            **ppo_hyperparameters(config),
            **rollout_buffer_settings(config),  # a checkpoint made before LegalFeatureRolloutBuffer gets it too
        )
    except Exception as err:  # passed the zip check, but still does not load (pickle, torch, spaces)
        raise ConfigError(
            f"--resume: cannot load the checkpoint {str(checkpoint_path)!r}: {type(err).__name__}: {err}"
        ) from None
    wanted = {"pi": list(config.network.pi), "vf": list(config.network.vf)}
    saved = model.policy_kwargs.get("net_arch")
    if saved != wanted:
        raise ConfigError(
            f"network: the run's checkpoint has net_arch {saved}, the config says {wanted}; a resumed run "
            "keeps its network (start a new run with run.init_from to change it)"
        )
    return model


def warm_start(config: TrainConfig, model: Any) -> dict[str, float]:
    """Clone the ``imitation.teacher`` into the fresh model (behaviour cloning, ``training/pretrain.py``)."""
    from .callbacks import say
    from .pretrain import behaviour_clone, collect_teacher_data

    config = require_typed(config, "warm_start")
    cfg, env = config.imitation, config.env
    start = time.perf_counter()
    say(
        f"imitation: playing {cfg.games:,} games with {cfg.teacher} in {cfg.teacher_share:.0%} of the seats "
        f"and {cfg.others} in the rest" + (f", in {cfg.workers} processes" if cfg.workers > 1 else "")
    )
    data = collect_teacher_data(
        env.id,
        dict(env.options),
        teacher=cfg.teacher,
        games=cfg.games,
        teacher_share=cfg.teacher_share,
        seed=config.run.seed,
        others=cfg.others,
        workers=cfg.workers,
        action_features=appended_action_features(config),
    )
    fit_threads = config.run.update_threads or config.run.torch_threads
    say(f"imitation: fitting {len(data):,} teacher decisions for {cfg.epochs} epochs ({fit_threads} torch threads)")
    import torch

    rollout_threads = torch.get_num_threads()
    torch.set_num_threads(fit_threads)  # nothing else runs during the fit: the PPO update's threads
    try:
        stats = behaviour_clone(
            model,
            data,
            epochs=cfg.epochs,
            batch_size=cfg.batch_size,
            learning_rate=cfg.learning_rate,
            value_coef=cfg.value_coef,
            seed=config.run.seed,
        )
    finally:
        torch.set_num_threads(rollout_threads)
    stats["seconds"] = round(time.perf_counter() - start, 1)
    say(
        f"imitation: held-out accuracy {stats['val_accuracy']:.3f}, policy loss {stats['policy_loss']:.3f} "
        f"({stats['seconds']:.0f} s)"
    )
    return stats


# --- training -------------------------------------------------------------------------------------
def starting_state(
    config: TrainConfig, run_dir: Path, resume: tuple[Path, dict[str, Any]] | None
) -> tuple[dict[str, Any], Any]:
    """The run state and self-play pool a run starts from: fresh ones, or the checkpoint's (its evaluations
    past the checkpoint's timestep dropped, the pool's settings from ``config.opponents``)."""
    from pirate_envs.policies.selfplay import SelfPlayPool

    from .callbacks import pool_from_state
    from .curriculum import OpponentSchedule

    opp_cfg = config.opponents
    if resume is None:
        pool = SelfPlayPool(
            mix=OpponentSchedule.from_config(config).mix(0),
            latest_share=opp_cfg.latest_share,
            max_snapshots=opp_cfg.max_snapshots,
            deterministic=opp_cfg.snapshot_deterministic,
        )
        return new_state(config), pool
    state = dict(resume[1])
    state["evaluations"] = [e for e in state["evaluations"] if e["timesteps"] <= state["timesteps"]]
    pool = pool_from_state(state["pool"], run_dir)
    pool.latest_share = opp_cfg.latest_share
    pool.max_snapshots = opp_cfg.max_snapshots
    pool.deterministic = opp_cfg.snapshot_deterministic
    return state, pool


def model_for_run(
    config: TrainConfig,
    run_dir: Path,
    vec_env: Any,
    state: dict[str, Any],
    pool: Any,
    checkpoint_path: Path | None,
):
    """The model a run trains: a fresh one (with ``run.init_from``'s weights and the imitation warm start,
    saved as ``warm_start_model.zip``) or the checkpoint's. ``config.yaml`` is written once it fits the config."""
    from .callbacks import say
    from .precision import set_update_precision

    run_cfg = config.run
    tensorboard_log = str(run_dir / "tb") if config.logging.tensorboard else None
    if checkpoint_path is None:
        model = build_model(config, vec_env, tensorboard_log)
        if run_cfg.init_from is not None:
            load_initial_weights(model, run_cfg.init_from)
            state["init_from"] = run_cfg.init_from
    else:
        model = load_for_resume(config, checkpoint_path, vec_env, tensorboard_log)
    set_update_precision(model.policy, config.ppo.update_precision)  # not saved with the model: set on every start
    if checkpoint_path is not None:
        model.set_random_seed(run_cfg.seed + state["timesteps"])
        snapshots = len(pool.snapshots)
        say(f"resuming {run_dir} at {model.num_timesteps:,} timesteps (stage {state['stage']}, {snapshots} snapshots)")
    elif run_cfg.init_from is not None:
        say(f"starting from the weights of {run_cfg.init_from}")
    atomic_write_text(run_dir / "config.yaml", dump_config(config))
    if checkpoint_path is None and config.imitation.games > 0:
        state["imitation"] = warm_start(config, model)
    if checkpoint_path is None and (config.imitation.games > 0 or run_cfg.init_from is not None):
        # the model at PPO step 0, to measure what PPO added (benchmarks/ppo_gain.py)
        model.save(run_dir / WARM_START_MODEL)
    return model


def training_callbacks(config: TrainConfig, run_dir: Path, state: dict[str, Any], pool: Any) -> list[Any]:
    """The run's SB3 callbacks: the pipeline (curriculum, snapshots, evaluations, checkpoints), and by the
    config the torch threads per phase, the value warm-up and the progress bar."""
    from .callbacks import ProgressCallback, RunPipelineCallback, UpdateThreadsCallback, ValueWarmupCallback

    run_cfg = config.run
    pipeline = RunPipelineCallback(config, run_dir, state, pool)
    callbacks: list[Any] = [pipeline]
    update_threads = run_cfg.update_threads
    if update_threads is not None and update_threads != run_cfg.torch_threads:
        # first, so that the pipeline's evaluations at each rollout start run with torch_threads
        callbacks.insert(0, UpdateThreadsCallback(run_cfg.torch_threads, update_threads))
    if config.ppo.value_warmup_steps > 0:
        callbacks.append(ValueWarmupCallback(config.ppo.value_warmup_steps))
    if config.logging.progress_bar:
        callbacks.append(ProgressCallback(run_cfg.total_timesteps, pipeline))
    return callbacks


def train(
    config: TrainConfig | Mapping[str, Any], run_dir: Path, resume: tuple[Path, dict[str, Any]] | None = None
) -> dict[str, Any]:
    """Run (or continue) training; returns the final run state.

    ``config`` is a :class:`TrainConfig`; a plain config dict (what this function took before the typed
    config) is validated and converted first."""
    import torch
    from stable_baselines3.common.callbacks import CallbackList

    from .callbacks import say
    from .stepper import single_blas_thread

    config = typed_config(config)
    run_cfg = config.run
    torch.set_num_threads(run_cfg.torch_threads)
    single_blas_thread()  # numpy's BLAS threads only fight the envs and torch for the cores
    run_dir = Path(run_dir)
    run_dir.mkdir(parents=True, exist_ok=True)
    state, pool = starting_state(config, run_dir, resume)
    vec_env = build_vec_env(config, opponents=pool)
    try:  # whatever stops the run here (a config error found with the model, say) stops the workers too
        model = model_for_run(config, run_dir, vec_env, state, pool, resume[0] if resume is not None else None)
        remaining = run_cfg.total_timesteps - model.num_timesteps
        if remaining > 0:
            model.learn(
                total_timesteps=remaining,
                callback=CallbackList(training_callbacks(config, run_dir, state, pool)),
                reset_num_timesteps=resume is None,
                tb_log_name=TB_LOG_NAME,
            )
        else:
            say(f"{run_dir} already has {model.num_timesteps:,} of {run_cfg.total_timesteps:,} timesteps")
    finally:
        vec_env.close()
    best = state["best_score"]
    say(f"done: {run_dir} ({state['timesteps']:,} timesteps, best score {best:.3f} at {state['best_timesteps']})")
    return state


# --- command line ---------------------------------------------------------------------------------
def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name),
        description="Train a MaskablePPO agent on a pirate_envs game from a YAML config.",
    )
    parser.add_argument("config", nargs="?", help="YAML config (configs/<env_id>.yaml); optional with --resume")
    parser.add_argument(
        "--set",
        dest="overrides",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="override one config key, e.g. --set ppo.learning_rate=1e-4 (repeatable; values are YAML)",
    )
    parser.add_argument("--resume", metavar="RUN_DIR", help="continue the run in RUN_DIR from its newest checkpoint")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    try:
        run = prepare_run(args.config, args.overrides, args.resume)
        try:
            train(run.config, run.run_dir, run.resume)  # may still find one once the model is built (network)
        finally:
            run.close()
    except ConfigError as err:
        print(f"config error: {err}", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main())
