"""SB3 callbacks of a training run: the pipeline (curriculum, self-play, evaluation, checkpoints), the progress bar.

:class:`RunPipelineCallback` does all of its work at *update boundaries* — when a rollout starts,
right after the previous PPO update — so every checkpoint, snapshot and evaluation sees a model
whose weights match its timestep counter and nothing is lost on resume. At each boundary, in order:

1. curriculum: switch the envs' opponent mix when a new stage begins (it applies from each env's
   next episode);
2. self-play: while the stage uses ``selfplay``, save a snapshot to ``pool/`` every
   ``opponents.snapshot_every`` steps (and once on entering the stage) and hand the pool to the envs;
3. evaluation every ``eval.every`` steps (and at the start and the end): win rates against each
   ``eval.opponents`` entry, logged to TensorBoard, ``evaluations.json``, ``metrics.csv`` and
   ``learning_curve.png``; a new best score writes ``best_model.zip``;
4. a checkpoint every ``checkpoint.every`` steps (and at the end) with its resume state.
"""

from __future__ import annotations

import csv
import io
import time
from pathlib import Path
from typing import Any

from stable_baselines3.common.callbacks import BaseCallback

from pirate_envs.core.registry import game_class
from pirate_envs.networks.checkpoint_policy import NetworkPolicy
from pirate_envs.policies.selfplay import SelfPlayPool

from .checkpoints import (
    POOL_DIR,
    atomic_save_model,
    atomic_write_json,
    atomic_write_text,
    save_checkpoint,
)
from .config import require_typed
from .config_types import TrainConfig
from .curriculum import OpponentSchedule
from .evaluation.matches import play_matches
from .plotting import plot_learning_curve

EVAL_SEED_OFFSET = 1_000_003  # evaluation deals differ from training deals but repeat across evaluations


def _tqdm():
    try:
        from tqdm import tqdm
    except ImportError:  # the progress bar is optional
        return None
    return tqdm


def say(message: str) -> None:
    """Print without breaking a running progress bar."""
    tqdm = _tqdm()
    if tqdm is not None:
        tqdm.write(message)
    else:
        print(message, flush=True)


class RunPipelineCallback(BaseCallback):
    """Curriculum, self-play snapshots, evaluation and checkpoints of one run (see the module docstring)."""

    def __init__(self, config: TrainConfig, run_dir: Path, state: dict[str, Any], pool: SelfPlayPool) -> None:
        super().__init__()
        self.config = require_typed(config, "RunPipelineCallback")
        self.run_dir = Path(run_dir)
        self.state = state
        self.pool = pool
        self.schedule = OpponentSchedule.from_config(config)
        self.env_id = config.env.id
        self.options = dict(config.env.options)
        self.num_players = game_class(self.env_id)(**self.options).num_players
        self._active_stage: int | None = None
        self._clock = time.perf_counter()
        self._steps_at_clock = 0

    # --- SB3 hooks -----------------------------------------------------------------------------
    def _on_training_start(self) -> None:
        self._clock = time.perf_counter()
        self._steps_at_clock = self.model.num_timesteps
        self._boundary(first=True)

    def _on_rollout_start(self) -> None:
        self._boundary(first=False)

    def _on_step(self) -> bool:
        return True

    def _on_training_end(self) -> None:
        timesteps = self.model.num_timesteps
        self._update_clock()
        if not self.state["evaluations"] or self.state["evaluations"][-1]["timesteps"] < timesteps:
            self._evaluate()
        self._checkpoint()
        atomic_save_model(self.model, self.run_dir / "final_model.zip")

    # --- the boundary work ---------------------------------------------------------------------
    def _boundary(self, first: bool) -> None:
        timesteps = self.model.num_timesteps
        self._update_clock()
        stage = self.schedule.stage_at(timesteps)
        if stage != self._active_stage:
            self._enter_stage(stage, announce=not first or timesteps > 0)
        elif self.schedule.uses_selfplay(stage) and timesteps >= self.state["next_snapshot"]:
            self._snapshot()
            self._push_opponents()
        if timesteps >= self.state["next_eval"]:
            self._evaluate()
        if not first and timesteps >= self.state["next_checkpoint"]:
            self._checkpoint()

    def _update_clock(self) -> None:
        now = time.perf_counter()
        self.state["wall_seconds"] += now - self._clock
        self._clock = now
        self.state["timesteps"] = int(self.model.num_timesteps)

    def _enter_stage(self, stage: int, announce: bool) -> None:
        self._active_stage = stage
        self.state["stage"] = stage
        self.pool.mix = self.schedule.mix(stage)
        if self.schedule.uses_selfplay(stage) and (
            not self.pool.snapshots or self.model.num_timesteps >= self.state["next_snapshot"]
        ):
            self._snapshot()
        self._push_opponents()
        if announce:
            say(f"[{self.model.num_timesteps:>10,}] stage {stage}: opponents {self.schedule.describe(stage)}")

    def _snapshot(self) -> None:
        timesteps = self.model.num_timesteps
        path = self.run_dir / POOL_DIR / f"snapshot_{timesteps:010d}.zip"
        atomic_save_model(self.model, path)
        self.pool.add(path)
        every = self.config.opponents.snapshot_every
        self.state["next_snapshot"] = (timesteps // every + 1) * every

    def _push_opponents(self) -> None:
        self.training_env.env_method("set_opponents", self.pool)

    # --- evaluation ----------------------------------------------------------------------------
    def _evaluate(self) -> None:
        cfg = self.config.eval
        timesteps = self.model.num_timesteps
        learner = NetworkPolicy(self.model.policy, deterministic=cfg.deterministic, name="learner")
        results = {}
        for opponent in cfg.opponents:
            outcome = play_matches(
                learner,
                self.env_id,
                opponent,
                games=cfg.games,
                seed=self.config.run.seed + EVAL_SEED_OFFSET,
                options=self.options,
            )
            results[opponent] = outcome.to_dict()
            self.logger.record(f"eval/win_rate_vs_{Path(opponent).stem}", outcome.win_rate)
        score = self._score(results)
        evaluation = {
            "timesteps": int(timesteps),
            "wall_seconds": round(self.state["wall_seconds"], 1),
            "stage": self.state["stage"],
            "train_success_rate": self._train_success_rate(),
            "score": score,
            "results": results,
        }
        self.state["evaluations"].append(evaluation)
        every = cfg.every
        self.state["next_eval"] = (timesteps // every + 1) * every
        improved = score > self.state["best_score"]
        if improved:
            self.state["best_score"] = score
            self.state["best_timesteps"] = int(timesteps)
            atomic_save_model(self.model, self.run_dir / "best_model.zip")
            atomic_write_json(self.run_dir / "best_model.json", evaluation)
        self.write_reports()
        rates = ", ".join(f"vs {name} {r['win_rate']:.3f}" for name, r in results.items())
        say(f"[{timesteps:>10,}] eval ({cfg.games} games each): {rates}{'  * best' if improved else ''}")

    def _score(self, results: dict[str, dict[str, Any]]) -> float:
        best_by = self.config.eval.best_by
        if best_by == "mean":
            return sum(r["win_rate"] for r in results.values()) / len(results)
        return results[best_by]["win_rate"]

    def _train_success_rate(self) -> float | None:
        buffer = getattr(self.model, "ep_success_buffer", None)
        return round(sum(buffer) / len(buffer), 4) if buffer else None

    def write_reports(self) -> None:
        """Rewrite evaluations.json, metrics.csv and learning_curve.png from the evaluation history."""
        evaluations = self.state["evaluations"]
        atomic_write_json(self.run_dir / "evaluations.json", evaluations)
        atomic_write_text(self.run_dir / "metrics.csv", metrics_csv(evaluations, self.config.eval.opponents))
        n = self.num_players
        stages = [(self.schedule.start_of(i), f"stage {i}") for i in range(len(self.schedule.stages))]
        plot_learning_curve(
            evaluations,
            self.run_dir / "learning_curve.png",
            title=f"{self.env_id}, {n} players: evaluation win rate",
            chance_level=1.0 / n,
            stage_starts=stages,
        )

    # --- checkpoints ---------------------------------------------------------------------------
    def _checkpoint(self) -> None:
        timesteps = self.model.num_timesteps
        every = self.config.checkpoint.every
        self.state["next_checkpoint"] = (timesteps // every + 1) * every
        self.state["pool"] = pool_to_state(self.pool, self.run_dir)
        save_checkpoint(self.model, self.run_dir, dict(self.state), keep=self.config.checkpoint.keep)


def pool_to_state(pool: SelfPlayPool, run_dir: Path) -> dict[str, Any]:
    """The pool as JSON data, snapshot paths relative to the run directory when inside it."""
    data = pool.to_dict()
    relative = []
    for path in data["snapshots"]:
        try:
            relative.append(str(Path(path).resolve().relative_to(Path(run_dir).resolve())))
        except ValueError:
            relative.append(path)
    data["snapshots"] = relative
    return data


def pool_from_state(data: dict[str, Any], run_dir: Path) -> SelfPlayPool:
    data = dict(data)
    data["snapshots"] = [str(p) if Path(p).is_absolute() else str(Path(run_dir) / p) for p in data["snapshots"]]
    return SelfPlayPool.from_dict(data)


def metrics_csv(evaluations: list[dict[str, Any]], opponents: list[str]) -> str:
    """One row per evaluation: timesteps, wall time, steps/s, stage, training success rate, win rates."""
    out = io.StringIO()
    writer = csv.writer(out)
    columns = [f"win_rate_vs_{Path(o).stem}" for o in opponents]
    writer.writerow(["timesteps", "wall_seconds", "steps_per_second", "stage", "train_success_rate", *columns, "score"])
    for e in evaluations:
        rate = e["timesteps"] / e["wall_seconds"] if e["wall_seconds"] > 0 else ""
        rates = [e["results"][o]["win_rate"] if o in e["results"] else "" for o in opponents]
        success = "" if e.get("train_success_rate") is None else e["train_success_rate"]
        row = [e["timesteps"], e["wall_seconds"], round(rate, 1) if rate != "" else "", e["stage"], success]
        writer.writerow([*row, *rates, e["score"]])
    return out.getvalue()


class UpdateThreadsCallback(BaseCallback):
    """Torch threads by phase: ``rollout_threads`` while the envs are stepped (subprocess workers need
    the cores then) and ``update_threads`` for the PPO update after each rollout (the workers wait)."""

    def __init__(self, rollout_threads: int, update_threads: int) -> None:
        super().__init__()
        self.rollout_threads = rollout_threads
        self.update_threads = update_threads

    def _set(self, threads: int) -> None:
        import torch

        torch.set_num_threads(threads)

    def _on_rollout_start(self) -> None:
        self._set(self.rollout_threads)

    def _on_rollout_end(self) -> None:
        self._set(self.update_threads)

    def _on_training_end(self) -> None:
        self._set(self.rollout_threads)

    def _on_step(self) -> bool:
        return True


VALUE_PARAMETERS = ("mlp_extractor.value_net.", "value_net.", "vf_features_extractor.")


class ValueWarmupCallback(BaseCallback):
    """``ppo.value_warmup_steps``: the PPO updates whose rollouts end at or before ``steps`` timesteps fit
    only the value branch; every other parameter (the policy) is frozen, so the rollouts keep coming
    from the warm-started policy while its value head learns what that policy's positions are worth.
    A cloned policy's value head is uncalibrated, and PPO steps on its advantages are noise."""

    def __init__(self, steps: int) -> None:
        super().__init__()
        self.steps = steps

    def _freeze_policy(self, frozen: bool) -> None:
        for name, parameter in self.model.policy.named_parameters():
            if not name.startswith(VALUE_PARAMETERS):
                parameter.requires_grad_(not frozen)

    def _on_rollout_end(self) -> None:  # the PPO update follows
        self._freeze_policy(self.model.num_timesteps <= self.steps)

    def _on_training_end(self) -> None:
        self._freeze_policy(False)

    def _on_step(self) -> bool:
        return True


class ProgressCallback(BaseCallback):
    """A tqdm progress bar over the run's total timesteps (it starts where a resumed run left off)."""

    def __init__(self, total_timesteps: int, pipeline: RunPipelineCallback | None = None) -> None:
        super().__init__()
        self.total_timesteps = total_timesteps
        self.pipeline = pipeline
        self.bar = None

    def _on_training_start(self) -> None:
        tqdm = _tqdm()
        if tqdm is not None:
            self.bar = tqdm(
                total=self.total_timesteps,
                initial=self.model.num_timesteps,
                unit="step",
                unit_scale=True,
                dynamic_ncols=True,
                mininterval=1.0,
                smoothing=0.05,
            )

    def _on_rollout_start(self) -> None:
        if self.bar is None or self.pipeline is None:
            return
        evaluations = self.pipeline.state["evaluations"]
        postfix = {"stage": self.pipeline.state["stage"]}
        if evaluations:
            for name, result in evaluations[-1]["results"].items():
                postfix[f"vs_{Path(name).stem}"] = f"{result['win_rate']:.2f}"
        self.bar.set_postfix(postfix, refresh=False)

    def _on_step(self) -> bool:
        if self.bar is not None:
            self.bar.update(self.training_env.num_envs)
        return True

    def _on_training_end(self) -> None:
        if self.bar is not None:
            self.bar.close()
            self.bar = None
