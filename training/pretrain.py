"""Behaviour-cloning warm start: fit a MaskablePPO policy to a teacher policy before RL.

Generic over every game: games are played through the rules engine with each seat drawn per game
from a mix of the teacher and the ``others`` policy (random play by default, so the data covers
off-teacher positions), and every decision the *teacher* takes is recorded from that seat's own
observation, with its mask and the seat's final return. The teacher may be a search bot
(``flatmc``, ``ismcts``): it searches over the state while the record keeps only the seat's
observation, so the network learns to play the search's moves from what the seat sees. Search
teachers are slow; ``workers`` plays the games in spawned processes.

The policy head is trained with masked cross-entropy on the teacher's actions and the value head
with squared error on the final returns (the only reward; PPO's ``gamma`` is 1 in our configs),
so PPO starts from teacher-level play and a calibrated critic instead of from scratch.

    data = collect_teacher_data("potsm_v0", {"num_players": 4}, teacher="heuristic", games=2000, seed=0)
    report = behaviour_clone(model, data, epochs=10)
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from pirate_envs.core.registry import game_class
from pirate_envs.policies.base import resolve_policy


@dataclass
class TeacherData:
    """Decisions of a teacher: observations, masks, the teacher's actions, the seats' final returns."""

    observations: np.ndarray
    masks: np.ndarray
    actions: np.ndarray
    returns: np.ndarray

    def __len__(self) -> int:
        return len(self.actions)


def collect_teacher_data(
    env_id: str,
    options: dict[str, Any],
    teacher: Any = "heuristic",
    games: int = 1000,
    teacher_share: float = 0.75,
    seed: int = 0,
    others: Any = "random",
    workers: int = 1,
    action_features: bool = False,
) -> TeacherData:
    """Play ``games`` games; each seat is the teacher with probability ``teacher_share``, else ``others``.

    ``teacher`` and ``others`` are policy specs (:func:`~pirate_envs.policies.base.resolve_policy`); ``others``
    may be a list of specs, one drawn uniformly for every non-teacher seat of every game (the tables ``rate``
    plays: ``["random", "heuristic"]``).
    With ``workers > 1`` the games are split over that many spawned processes, worker ``w`` drawing
    from ``SeedSequence(seed, spawn_key=(w,))`` (specs must then be strings or picklable); the data
    depend on ``seed`` and ``workers``. One worker plays them here, from ``default_rng(seed)``.
    With ``action_features`` the observations are followed by the game's per-action features (the
    input of an action-feature network), stored as float16 (every feature is a small integer or a
    share of one, and a float32 copy of a big clone set would not fit in memory).
    """
    if not 0.0 < teacher_share <= 1.0:
        raise ValueError(f"teacher_share must be in (0, 1], got {teacher_share}")
    if workers < 1:
        raise ValueError(f"workers must be >= 1, got {workers}")
    workers = min(workers, max(games, 1))
    if workers == 1:
        return _collect(env_id, options, teacher, others, games, teacher_share, seed, action_features)
    import multiprocessing

    shares = [games // workers + (w < games % workers) for w in range(workers)]
    tasks = [
        (
            env_id,
            options,
            teacher,
            others,
            shares[w],
            teacher_share,
            np.random.SeedSequence(seed, spawn_key=(w,)),
            action_features,
        )
        for w in range(workers)
    ]
    with multiprocessing.get_context("spawn").Pool(workers) as pool:  # spawn: safe with torch in the parent
        parts = pool.starmap(_collect, tasks)
    return TeacherData(*(np.concatenate([getattr(p, f) for p in parts]) for f in TeacherData.__dataclass_fields__))


def _collect(
    env_id: str,
    options: dict[str, Any],
    teacher: Any,
    others: Any,
    games: int,
    teacher_share: float,
    seed: int | np.random.SeedSequence,
    action_features: bool = False,
) -> TeacherData:
    rng = np.random.default_rng(seed)
    game = game_class(env_id)(**options)
    n = game.num_players
    teacher_policy = resolve_policy(teacher, env_id, **options)
    pool = list(others) if isinstance(others, (list, tuple)) else [others]
    other_policies = [resolve_policy(spec, env_id, **options) for spec in pool]
    observations, masks, actions, seats_of, game_of = [], [], [], [], []
    final_returns = []
    for g in range(games):
        is_teacher = rng.random(n) < teacher_share
        if not is_teacher.any():
            is_teacher[rng.integers(n)] = True
        state = game.new_initial_state(int(rng.integers(2**63)))
        drawn = [other_policies[0]] * n  # one spec: no draw (the data of a seed stay as they were)
        if len(pool) > 1:
            drawn = [other_policies[i] for i in rng.integers(len(pool), size=n)]
        while not state.is_terminal():
            seat = state.current_player()
            policy = teacher_policy if is_teacher[seat] else drawn[seat]
            mask = state.legal_action_mask()
            # not choose_action: the teacher's observation is recorded, and built once
            if getattr(policy, "needs_state", False):
                obs = state.observation(seat) if is_teacher[seat] else None
                action = int(policy.act_state(state, seat, mask, rng))
            else:
                obs = state.observation(seat)
                action = policy.act(obs, mask, rng)
            if is_teacher[seat]:
                if action_features:
                    obs = game.observation_with_action_features(obs, mask).astype(np.float16)
                observations.append(obs)
                masks.append(mask)
                actions.append(action)
                seats_of.append(seat)
                game_of.append(g)
            state.apply_action(action)
        final_returns.append(state.returns())
    returns = np.array([final_returns[g][s] for g, s in zip(game_of, seats_of, strict=True)], dtype=np.float32)
    return TeacherData(
        observations=np.asarray(observations, dtype=np.float16 if action_features else np.float32),
        masks=np.asarray(masks, dtype=bool),
        actions=np.asarray(actions, dtype=np.int64),
        returns=returns,
    )


def behaviour_clone(
    model: Any,
    data: TeacherData,
    epochs: int = 10,
    batch_size: int = 256,
    learning_rate: float = 1e-3,
    value_coef: float = 0.5,
    validation_share: float = 0.1,
    seed: int = 0,
) -> dict[str, float]:
    """Train ``model.policy`` (a MaskablePPO policy) on ``data``; return accuracy and losses.

    ``val_accuracy`` is the share of held-out decisions where the policy's most likely action is
    the teacher's.
    """
    import torch as th

    policy = model.policy
    device = policy.device
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(data))
    n_val = int(len(order) * validation_share)
    val_idx, train_idx = order[:n_val], order[n_val:]

    def tensors(idx: np.ndarray):
        return (
            th.as_tensor(data.observations[idx], device=device, dtype=th.float32),
            th.as_tensor(data.actions[idx], device=device),
            data.masks[idx],
            th.as_tensor(data.returns[idx], device=device),
        )

    optimizer = th.optim.Adam(policy.parameters(), lr=learning_rate)
    policy.set_training_mode(True)
    policy_loss = value_loss = 0.0
    for _ in range(epochs):
        rng.shuffle(train_idx)
        for start in range(0, len(train_idx), batch_size):
            obs, act, mask, ret = tensors(train_idx[start : start + batch_size])
            values, log_prob, _ = policy.evaluate_actions(obs, act, action_masks=mask)
            p_loss = -log_prob.mean()
            v_loss = th.nn.functional.mse_loss(values.flatten(), ret)
            loss = p_loss + value_coef * v_loss
            optimizer.zero_grad()
            loss.backward()
            th.nn.utils.clip_grad_norm_(policy.parameters(), 0.5)
            optimizer.step()
            policy_loss, value_loss = float(p_loss.detach()), float(v_loss.detach())
    policy.set_training_mode(False)
    accuracy = float("nan")
    if n_val:
        with th.no_grad():
            obs, act, mask, _ = tensors(val_idx)
            dist = policy.get_distribution(obs, action_masks=mask)
            chosen = dist.distribution.probs.argmax(dim=1)
            accuracy = float((chosen == act).float().mean())
    return {
        "samples": float(len(data)),
        "val_accuracy": accuracy,
        "policy_loss": policy_loss,
        "value_loss": value_loss,
    }
