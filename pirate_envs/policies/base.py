"""The policy protocol every bot implements, and the uniform random policy."""

from __future__ import annotations

from typing import Protocol, runtime_checkable

import numpy as np


@runtime_checkable
class Policy(Protocol):
    """Anything that picks a legal action from one seat's observation and action mask."""

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int: ...


def legal_indices(action_mask: np.ndarray) -> np.ndarray:
    legal = np.flatnonzero(action_mask)
    if legal.size == 0:
        raise ValueError("the action mask allows no action: this seat is not to act")
    return legal


class RandomPolicy:
    """Uniform over the legal actions."""

    name = "random"

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = legal_indices(action_mask)
        return int(legal[rng.integers(legal.size)])

    def __repr__(self) -> str:
        return "RandomPolicy()"


class CallablePolicy:
    """Adapts a plain function ``f(observation, action_mask, rng) -> int`` to the protocol."""

    def __init__(self, fn) -> None:
        self.fn = fn
        self.name = getattr(fn, "__name__", "callable")

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        return int(self.fn(observation, action_mask, rng))


SEARCH_BOTS = ("ismcts", "flatmc")  # spec heads of the search bots
POLICY_KINDS = (
    "random",
    "heuristic",
    "ismcts[:iterations=N,rollout=random|heuristic,exploration=C,time_budget=S]",
    "flatmc[:rollouts=N,rollout=heuristic|random]",
    "shipped (the game's shipped agent)",
    "a checkpoint path (.zip)",
    "a Policy object",
    "a callable",
)


def check_spaces(
    name: str, trained: tuple[tuple[int, ...], int], wanted: tuple[tuple[int, ...], int], where: str = ""
) -> str | None:
    """Why a network trained on ``trained`` (observation shape, actions) cannot play ``wanted``; None if it can."""
    (shape, actions), (want_shape, want_actions) = trained, wanted
    if tuple(want_shape) == tuple(shape) and int(want_actions) == int(actions):
        return None
    place = f" for {where}" if where else ""
    return (
        f"{name} was trained on observations of shape {tuple(shape)} with {actions} actions; it cannot play{place}, "
        f"which has observations of shape {tuple(want_shape)} and {want_actions} actions "
        "(another game, player count or variant)"
    )


def choose_action(policy: Policy, state, seat: int, rng: np.random.Generator) -> int:
    """The action ``policy`` picks for ``seat`` at the engine ``state``.

    Search bots (``needs_state = True``, e.g. the IS-MCTS bot) receive the state itself, which
    they may only use through ``resample_hidden(seat, ...)``; every other policy gets the seat's
    observation and mask.
    """
    mask = state.legal_action_mask()
    if getattr(policy, "needs_state", False):
        return int(policy.act_state(state, seat, mask, rng))
    return int(policy.act(state.observation(seat), mask, rng))


def resolve_policy(spec, env_id: str, num_players: int | None = None, **options) -> Policy:
    """Turn an opponent/player spec into a :class:`Policy` for ``env_id``.

    ``spec`` is ``"random"``, ``"heuristic"``, ``"shipped"`` (the game's shipped agent, see
    :mod:`pirate_envs.shipped`), ``"ismcts"`` or ``"flatmc"`` (optionally with
    parameters, see :func:`pirate_envs.policies.ismcts.parse_ismcts_spec` and
    :func:`pirate_envs.policies.flatmc.parse_flatmc_spec`), a path to a MaskablePPO checkpoint
    (``.zip``), an object with ``act``, or a callable ``f(observation, action_mask, rng)``.
    """
    from pathlib import Path

    from pirate_envs.core.registry import make_heuristic

    if isinstance(spec, str):
        if spec == "random":
            return RandomPolicy()
        if spec == "heuristic":
            return make_heuristic(env_id, num_players, **options)
        if spec == "shipped":  # the agent shipped with the package (pirate_envs.shipped)
            from pirate_envs.shipped import shipped_policy

            return shipped_policy(env_id)
        if spec.partition(":")[0] in SEARCH_BOTS:
            from pirate_envs.core.registry import game_class
            from pirate_envs.policies.flatmc import parse_flatmc_spec
            from pirate_envs.policies.ismcts import parse_ismcts_spec

            parse = parse_ismcts_spec if spec.startswith("ismcts") else parse_flatmc_spec
            return parse(spec, game_class(env_id)(num_players=num_players, **options))
        if Path(spec).is_dir():  # an RLlib checkpoint (needs the rllib extra); SB3 ones are .zip files
            from pirate_envs.interop.registry import rllib_checkpoint_policy

            return rllib_checkpoint_policy(spec)
        if spec.endswith(".zip") or Path(spec).exists():
            from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

            return CheckpointPolicy(spec)
        raise ValueError(f"unknown policy {spec!r}; expected one of: {', '.join(POLICY_KINDS)}")
    if isinstance(spec, Path):
        from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

        return CheckpointPolicy(str(spec))
    if hasattr(spec, "act"):
        return spec
    if callable(spec):
        return CallablePolicy(spec)
    raise ValueError(f"cannot use {spec!r} as a policy; expected one of: {', '.join(POLICY_KINDS)}")
