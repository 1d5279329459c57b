"""Expert iteration: a trained agent fitted to a stronger search's decisions, then tested against itself.

One round, for any game:

1. **Play** ``games`` games at the tables ``rate`` plays: the search (the *expert*) in one seat, or in each
   seat with probability ``teacher_share``, every other seat ``random`` or ``heuristic`` drawn per seat
   (:func:`training.pretrain.collect_teacher_data`). Every decision of the expert is kept: the seat's own
   observation, its mask and the expert's move (what the search decided over its determinisations, never a
   hidden card), and the seat's final return.
2. **Fit** the agent (``--start``, by default the shipped ``checkpoints/<env_id>/model.zip``) to those moves:
   masked cross-entropy on the policy head, squared error on the value head
   (:func:`training.pretrain.behaviour_clone`), at a small learning rate so that what PPO learned is kept where
   the expert agrees with it. The agent's agreement with the expert on held-out decisions is reported before
   and after.
3. **Test** the fitted agent against the one it started from with the SPRT of ``training.evaluation.evaluate
   --sprt`` (``--sprt`` here; H0: no stronger, H1: 50 points stronger); ship it
   (``training.apps.ship OUT_DIR --model model.zip``: the start's ``config.yaml`` is copied beside the model)
   only where H1 is accepted.

    python -m training.expert_iteration --env dead_mans_draw_v0 \\
        --expert "ismcts:iterations=1500,rollout=heuristic" --games 600 --workers 2 \\
        --out runs/exit-dmd/model.zip --sprt

Why decisions, not visit counts: the compiled searches return their move (the most visited root action over
``iterations`` determinisations), and a 0.05 s search's move is already an average over 1,000+ playouts;
the decisions are the search's policy at the tables the agent is rated at.
"""

from __future__ import annotations

import argparse
import json
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import numpy as np

from pirate_envs.cli import command_prog
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.shipped import shipped_checkpoint

from .inputs import InputError, exits_on_input_error

REFERENCES = ("random", "heuristic")


def appends_features(model: Any, game: Any) -> bool:
    """Whether ``model`` reads observations followed by the per-action features (``network.action_features``
    with the envs appending them) rather than the plain observation."""
    return tuple(model.observation_space.shape) != tuple(game.observation_shape)


def agreement(model: Any, observations: np.ndarray, masks: np.ndarray, actions: np.ndarray) -> float:
    """The share of decisions where ``model``'s most likely legal action is ``actions``'s."""
    import torch as th

    if not len(actions):
        return float("nan")
    policy = model.policy
    with th.no_grad():
        obs = th.as_tensor(observations, dtype=th.float32, device=policy.device)
        dist = policy.get_distribution(obs, action_masks=masks)
        chosen = dist.distribution.probs.argmax(dim=1).cpu().numpy()
    return float((chosen == actions).mean())


def expert_iteration(
    env_id: str, expert: str, games: int, start: str | Path | None = None, teacher_share: float | None = None,
    epochs: int = 4, learning_rate: float = 1e-4, batch_size: int = 256, value_coef: float = 0.5, seed: int = 0,
    workers: int = 1, data_path: str | Path | None = None,
) -> tuple[Any, dict[str, Any]]:  # fmt: skip
    """One round (module docstring, steps 1-2): the fitted model and a report of the data and the fit.

    With ``data_path`` the expert's decisions are kept there (``.npz``) and read back on the next call with the
    same path, so that another fit (epochs, learning rate) costs no search."""
    from pirate_envs.networks.checkpoint_policy import load_maskable_ppo

    from .pretrain import TeacherData, behaviour_clone, collect_teacher_data

    if env_id not in ENV_IDS:
        raise InputError(f"unknown env id {env_id!r}; known: {', '.join(ENV_IDS)}")
    game = game_class(env_id)()
    start_path = Path(start) if start is not None else shipped_checkpoint(env_id)
    if not start_path.is_file():
        raise InputError(f"--start: no model at {str(start_path)!r}")
    model = load_maskable_ppo(start_path, device="cpu")
    share = teacher_share if teacher_share is not None else 1.0 / game.num_players
    started = time.perf_counter()
    stored = Path(data_path) if data_path is not None else None
    if stored is not None and stored.is_file():
        with np.load(stored) as arrays:
            data = TeacherData(*(arrays[field] for field in TeacherData.__dataclass_fields__))
    else:
        data = collect_teacher_data(
            env_id, {}, teacher=expert, games=games, teacher_share=share, seed=seed, others=list(REFERENCES),
            workers=workers, action_features=appends_features(model, game),
        )  # fmt: skip
        if stored is not None:
            stored.parent.mkdir(parents=True, exist_ok=True)
            np.savez_compressed(stored, **{field: getattr(data, field) for field in TeacherData.__dataclass_fields__})
    collected = time.perf_counter() - started
    held_out = np.random.default_rng(seed).permutation(len(data))[: int(len(data) * 0.1)]  # behaviour_clone's split
    before = agreement(model, data.observations[held_out], data.masks[held_out], data.actions[held_out])
    fit = behaviour_clone(
        model, data, epochs=epochs, batch_size=batch_size, learning_rate=learning_rate, value_coef=value_coef,
        seed=seed,
    )  # fmt: skip
    report = {
        "env_id": env_id,
        "expert": expert,
        "start": str(start_path),
        "games": games,
        "teacher_share": share,
        "others": list(REFERENCES),
        "decisions": len(data),
        "agreement_before": round(before, 4),
        "agreement_after": round(fit["val_accuracy"], 4),
        "policy_loss": round(fit["policy_loss"], 4),
        "value_loss": round(fit["value_loss"], 4),
        "epochs": epochs,
        "learning_rate": learning_rate,
        "seed": seed,
        "collect_seconds": round(collected, 1),
        "seconds": round(time.perf_counter() - started, 1),
    }
    return model, report


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name), description="One round of expert iteration: " + __doc__.split("\n")[0]
    )
    parser.add_argument("--env", required=True, help=f"one of: {', '.join(ENV_IDS)}")
    parser.add_argument("--expert", required=True, help="the search whose decisions are learned (a policy spec)")
    parser.add_argument("--games", type=int, default=600, help="games played with the expert (default 600)")
    parser.add_argument("--start", default=None, help="the model to fit (default: the shipped agent)")
    parser.add_argument("--teacher-share", type=float, default=None, help="expert seats' share (default 1/players)")
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--learning-rate", type=float, default=1e-4)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--workers", type=int, default=1, help="processes playing the expert's games")
    parser.add_argument("--data", default=None, help="keep the expert's decisions here (.npz); reused when present")
    parser.add_argument("--out", required=True, help="where the fitted model is written (.zip)")
    parser.add_argument("--sprt", action="store_true", help="then test it against --start (SPRT, up to 2,000 games)")
    return parser


@exits_on_input_error
def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.games < 1 or args.epochs < 1 or args.workers < 1:
        raise InputError("--games, --epochs and --workers must be at least 1")
    out = Path(args.out)
    if out.suffix != ".zip":
        raise InputError(f"--out must name a .zip file, got {args.out!r}")
    model, report = expert_iteration(
        args.env, args.expert, args.games, args.start, args.teacher_share, args.epochs, args.learning_rate,
        seed=args.seed, workers=args.workers, data_path=args.data,
    )  # fmt: skip
    out.parent.mkdir(parents=True, exist_ok=True)
    model.save(out)
    config = Path(report["start"]).with_name("config.yaml")
    if config.is_file() and not out.with_name("config.yaml").exists():
        # the start's training config beside the model: the folder ships as a run (training.apps.ship)
        shutil.copyfile(config, out.with_name("config.yaml"))
    if args.sprt:
        from .evaluation.sprt import run_sprt, sprt_line

        result = run_sprt(args.env, None, str(out), report["start"], max_games=2000, seed=args.seed + 1)
        report["sprt"] = {k: result[k] for k in ("decision", "games", "score", "llr", "elo0", "elo1")}
        print(sprt_line(result), end="")
    out.with_suffix(".json").write_text(json.dumps(report, indent=1) + "\n")
    print(json.dumps(report, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
