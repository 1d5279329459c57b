"""The policy protocol every bot implements, the uniform random policy, and building a policy from its spec
(the spec grammar itself is :mod:`pirate_envs.policies.spec`)."""

from __future__ import annotations

import importlib
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from pirate_envs.policies.spec import POLICY_KINDS as POLICY_KINDS  # re-exported: the forms a bad spec names
from pirate_envs.policies.spec import SEARCH_BOTS, PolicySpec, did_you_mean, parse_policy_spec


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


def resolve_policy(spec: Any, env_id: str, num_players: int | None = None, **options: Any) -> Policy:
    """The :class:`Policy` a spec names, for ``env_id`` at ``num_players`` with rule ``options``.

    ``spec`` is anything :func:`~pirate_envs.policies.spec.parse_policy_spec` reads (``"random"``,
    ``"heuristic"``, ``"shipped"``, ``"ismcts[:...]"``, ``"flatmc[:...]"``, ``"puct[:...]"``, a MaskablePPO ``.zip``, an
    RLlib checkpoint directory or ``rllib:PATH[#MODULE]``, ``"module:callable"``, a Policy object, a
    callable) or a :class:`~pirate_envs.policies.spec.PolicySpec` it returned. Bad specs raise
    ``ValueError`` saying what is allowed; checkpoints raise their own errors when they do not load.
    """
    parsed = parse_policy_spec(spec)
    kind = parsed.kind
    if kind == "random":
        return RandomPolicy()
    if kind == "heuristic":
        from pirate_envs.core.registry import make_heuristic

        return make_heuristic(env_id, num_players, **options)
    if kind == "shipped":
        from pirate_envs.shipped import shipped_policy

        return shipped_policy(env_id)
    if kind in SEARCH_BOTS:
        from pirate_envs.core.registry import game_class
        from pirate_envs.policies.flatmc import parse_flatmc_spec
        from pirate_envs.policies.ismcts import parse_ismcts_spec
        from pirate_envs.policies.puct import parse_puct_spec

        parse = {"ismcts": parse_ismcts_spec, "flatmc": parse_flatmc_spec, "puct": parse_puct_spec}[kind]
        return parse(parsed.text, game_class(env_id)(num_players=num_players, **options))
    if kind == "rllib":  # needs the rllib extra; SB3 checkpoints are .zip files
        if not Path(parsed.path).is_dir():
            raise ValueError(f"RLlib checkpoint directory {parsed.path!r} does not exist")
        from pirate_envs.interop.registry import rllib_checkpoint_policy

        return rllib_checkpoint_policy(parsed.path, **({"module_id": parsed.module_id} if parsed.module_id else {}))
    if kind == "checkpoint":
        from pirate_envs.networks.checkpoint_policy import CheckpointPolicy

        return CheckpointPolicy(parsed.path)
    if kind == "import":
        return imported_policy(parsed)
    if kind == "object":
        return parsed.value
    return CallablePolicy(parsed.value)


def imported_policy(parsed: PolicySpec) -> Policy:
    """The policy a ``module:callable`` spec names: a Policy object, a class made with no arguments, or a function."""
    module_name, attribute = parsed.target
    try:
        target = getattr(importlib.import_module(module_name), attribute)
    except (ImportError, AttributeError) as exc:
        raise ValueError(
            f"cannot import the policy {parsed.text!r} (module:callable): {type(exc).__name__}: {exc}"
            + did_you_mean(parsed.text)
        ) from None
    if isinstance(target, type):
        target = target()
    if hasattr(target, "act"):
        return target
    if callable(target):
        return CallablePolicy(target)
    raise ValueError(f"{parsed.text!r} is neither a policy (with act) nor a function f(observation, action_mask, rng)")
