"""Rows per second of a config's PPO minibatch step: the action-feature head over the legal rows, and over all.

The PPO update of an action-feature config (``network.action_features``) runs, for every minibatch,
the policy's ``evaluate_actions`` on the rows and their masks, a loss, ``backward`` and the optimiser
step. This times that step alone, on a fixed set of decision points (seeded games of the config's game
and options in which the heuristic bot plays every seat and one move in five is random), with the
config's network and minibatch size:

* ``legal rows``: as training runs it, the masks handed to the policy, so the head reads the legal
  actions' features alone (``LegalFeatures``; with ``network.features_in_policy`` the policy computes
  them from the plain rows);
* ``every row, written``: the update's path before the legal-rows head: every row's features written
  into a zero-filled ``(batch, actions, features)`` array (potsm: by its compiled twin, row by row) for
  every minibatch, and the head over all of them;
* ``every row, given``: the head over all the rows of observation + features rows handed to it without
  masks (the path a ``NetworkPolicy`` takes; the features' cost left out).

    python benchmarks/update_speed.py [configs/potsm_v0.yaml] [--points 4096] [--seconds 2] [--rounds 3]

One process, the config's ``run.update_threads`` torch threads; every cell is measured in ``--rounds``
rounds of ``--seconds`` each, alternating the cells, and shows the best round then the median in
brackets. The loss is a stand-in (the sum of log-probabilities, values and entropies), which costs what
PPO's does to within a few elementwise operations. Prints a table; no assertions. Never run it while
something else loads the cores.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def decision_points(env_id: str, options: dict[str, Any], count: int) -> tuple[np.ndarray, np.ndarray]:
    """``count`` (observation, mask) pairs of decisions with a choice, from seeded heuristic games."""
    from pirate_envs.core.registry import env_module

    module = env_module(env_id)
    game = module.Game(**options)
    bot = module.HeuristicPolicy(game)
    observations, masks = [], []
    seed = 0
    while len(observations) < count:
        state, pick, rng = game.new_initial_state(seed), random.Random(seed), np.random.default_rng(seed)
        while not state.is_terminal() and len(observations) < count:
            seat = state.current_player()
            observation, mask = state.observation(seat), state.legal_action_mask()
            if mask.sum() > 1:
                observations.append(observation)
                masks.append(mask.astype(bool))
            legal = state.legal_actions()
            action = pick.choice(legal) if pick.random() < 0.2 else bot.act(observation, mask, rng)
            state.apply_action(action)
        seed += 1
    return np.stack(observations).astype(np.float32), np.stack(masks)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("config", nargs="?", default=str(ROOT / "configs" / "potsm_v0.yaml"))
    parser.add_argument("--points", type=int, default=4096, help="decision points (default 4096)")
    parser.add_argument("--seconds", type=float, default=2.0, help="seconds per round and cell (default 2)")
    parser.add_argument("--rounds", type=int, default=3, help="rounds per cell (default 3)")
    args = parser.parse_args(argv)

    import torch

    from training.config import ConfigError, load_typed_config
    from training.train import build_model, build_vec_env

    try:
        config = load_typed_config(args.config, ["vec_env.kind=dummy", "imitation.games=0"])
    except ConfigError as err:
        print(f"error: {err}", file=sys.stderr)
        return 2
    if not config.network.action_features:
        print(f"error: {args.config} has no network.action_features: nothing to compare", file=sys.stderr)
        return 2
    torch.set_num_threads(config.run.update_threads or 1)
    vec = build_vec_env(config, opponents="random")
    try:
        model = build_model(config, vec, tensorboard_log=None)
    finally:
        vec.close()
    policy = model.policy
    game = policy.game
    observations, masks = decision_points(config.env.id, dict(config.env.options), args.points)
    augmented = np.stack(
        [game.observation_with_action_features(o, m) for o, m in zip(observations, masks, strict=True)]
    )
    plain = observations if policy.features_from_mask else augmented
    batch = config.ppo.batch_size
    actions = torch.as_tensor([int(np.flatnonzero(m)[0]) for m in masks])

    base = game.observation_size
    if config.env.id == "potsm_v0":  # its twin writes into the array, as the update's path before did
        from pirate_envs.games.potsm.action_features import action_features

        def write(out: np.ndarray, observation: np.ndarray, mask: np.ndarray) -> None:
            action_features(observation, mask, game.num_players, out=out)
    else:

        def write(out: np.ndarray, observation: np.ndarray, mask: np.ndarray) -> None:
            out[...] = game.action_features(observation, mask)

    def written(index: slice) -> np.ndarray:
        rows = np.zeros((len(observations[index]), game.augmented_observation_size), dtype=np.float32)
        rows[:, :base] = observations[index]
        for row, observation, mask in zip(rows, observations[index], masks[index], strict=True):
            write(row[base:].reshape(game.num_actions, -1), observation, mask)
        return rows

    def step(rows: np.ndarray | None, with_masks: bool, at: int) -> int:
        index = slice(at, at + batch)
        obs = torch.as_tensor(written(index) if rows is None else rows[index])
        values, log_prob, entropy = policy.evaluate_actions(
            obs, actions[index], action_masks=masks[index] if with_masks else None
        )
        loss = -log_prob.mean() + values.mean() - entropy.mean()
        policy.optimizer.zero_grad()
        loss.backward()
        policy.optimizer.step()
        return len(obs)

    cells = {"legal rows": (plain, True), "every row, written": (None, False), "every row, given": (augmented, False)}
    rates: dict[str, list[float]] = {name: [] for name in cells}
    for rows, with_masks in cells.values():  # warm up
        step(rows, with_masks, 0)
    for _ in range(args.rounds):
        for name, (rows, with_masks) in cells.items():
            done, at, start = 0, 0, time.perf_counter()
            while time.perf_counter() - start < args.seconds:
                done += step(rows, with_masks, at)
                at = (at + batch) % max(1, len(observations) - batch)
            rates[name].append(done / (time.perf_counter() - start))
    legal = float(masks.sum(axis=1).mean())
    print(
        f"{config.env.id} {dict(config.env.options)}: {len(observations)} points, {legal:.1f} legal of "
        f"{game.num_actions} actions on average, minibatches of {batch}, {torch.get_num_threads()} torch threads"
    )
    print("| head reads | rows/s (best [median]) | ms per minibatch (best) |")
    print("|---|---|---|")
    for name, values in rates.items():
        best = max(values)
        print(f"| {name} | {best:,.0f} [{statistics.median(values):,.0f}] | {1000 * batch / best:.1f} |")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
