"""Options and input checks shared by both env adapters (PettingZoo AEC and Gymnasium).

Both accept the same ``render_mode`` and ``illegal_action`` values, validate them the same way,
and check seeds, actions and agent names the same way (rendering: :mod:`pirate_envs.drawing.render_modes`).

Actions (both adapters, every ``illegal_action`` mode):

- An action must be an integer index in ``[0, num_actions)``: a Python ``int``, a numpy integer
  scalar, or an integer numpy array holding one value (what SB3, RLlib, Tianshou and TorchRL hand in).
  Anything else (``None`` for an agent still in the game, ``2.0``, ``"3"``, ``True``, an array of
  several values) raises ``TypeError``; an integer outside the range raises
  :class:`~pirate_envs.core.errors.IllegalActionError` (a ``ValueError``). Both name the action
  and the allowed range, and leave the game unchanged.
- An in-range action that is not legal now is the mode's business: ``"terminate"`` (default of
  ``env()`` and ``make_gym``) ends the game with -1 for the offender and a
  :class:`IllegalActionWarning` naming the legal actions; ``"raise"`` raises ``IllegalActionError``.
"""

from __future__ import annotations

import operator
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.rng import as_seed
from pirate_envs.drawing.render_modes import RENDER_MODES

ILLEGAL_ACTION_MODES = ("terminate", "raise")
DEFAULT_ILLEGAL_ACTION = "terminate"
ILLEGAL_ACTION_REWARD = -1.0


class IllegalActionWarning(UserWarning):
    """An in-range illegal action ended the game (``illegal_action="terminate"``); filter it with
    ``warnings.simplefilter("ignore", IllegalActionWarning)``."""


class UnknownAgentError(KeyError, ValueError):
    """An agent name that is not one of the env's ``possible_agents``.

    A ``KeyError`` (what a PettingZoo env's per-agent dicts raise, so ``except KeyError`` keeps working)
    and a ``ValueError``, with a readable message that names the agent given and the valid ones.
    """

    def __str__(self) -> str:
        return str(self.args[0]) if self.args else ""


def unknown_agent(owner: str, agent: Any, agents: Iterable[str]) -> UnknownAgentError:
    valid = ", ".join(repr(a) for a in agents)
    return UnknownAgentError(f"{owner}: unknown agent {agent!r}; the agents are {valid}")


def check_render_mode(owner: str, render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidOptionError(f"{owner}: render_mode must be one of {RENDER_MODES} or None; got {render_mode!r}")


def check_illegal_action(owner: str, illegal_action: str) -> None:
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise InvalidOptionError(
            f"{owner}: illegal_action must be one of {ILLEGAL_ACTION_MODES}; got {illegal_action!r}"
        )


def check_seed(owner: str, seed: Any) -> int | None:
    """``reset(seed=...)``: an int (or None); a bool, a float, a string ... raises ``TypeError``, a
    negative int ``ValueError`` (the same seeds Gymnasium accepts, numpy integers included)."""
    return as_seed(seed, f"{owner}: reset(seed=...)", non_negative=True)


def as_action_index(owner: str, who: str, action: Any, num_actions: int) -> int:
    """The int behind an action that is not a plain ``int`` (the adapters' hot path checks
    ``type(action) is int`` first and calls this only otherwise). Raises ``TypeError`` for anything
    that is not one integer; the range is checked by the engine (see the module docstring)."""
    allowed = f"an integer in [0, {num_actions})"
    if action is None:
        raise TypeError(
            f"{owner}: action None for {who}, who is still in the game (None is only for agents that are done); "
            f"expected {allowed}"
        )
    if isinstance(action, np.ndarray):
        if action.size == 1 and action.dtype.kind in "iu":
            return int(action.reshape(()))
        raise TypeError(
            f"{owner}: action {action!r} for {who} is not one integer (array of shape {action.shape}, "
            f"dtype {action.dtype}); expected {allowed}"
        )
    if not isinstance(action, (bool, np.bool_)):
        try:
            return operator.index(action)  # numpy integer scalars, torch integer scalars ...
        except TypeError:
            pass
    raise TypeError(f"{owner}: action {action!r} ({type(action).__name__}) for {who} is not {allowed}")


def out_of_range(action: int, num_actions: int) -> bool:
    return not 0 <= action < num_actions


def warn_illegal_action(owner: str, error: Exception, outcome: str) -> None:
    """The warning of ``illegal_action="terminate"``: the engine's message (action, phase, legal
    actions) and what happened instead of an error, pointed at the caller of the adapter's ``step``."""
    warnings.warn(
        f"{owner}: {error}; {outcome} (illegal_action='terminate'; pass illegal_action='raise' to get an error)",
        IllegalActionWarning,
        stacklevel=4,
    )


def zeros_like_info(value: Any) -> Any:
    """A value of the same structure and shape as ``value`` with every number 0 (False for bools):
    the infos every step carries before the end of the game (fixed shapes for replay buffers)."""
    if isinstance(value, (bool, np.bool_)):
        return False
    if isinstance(value, (int, np.integer)):
        return 0
    if isinstance(value, (float, np.floating)):
        return 0.0
    if isinstance(value, np.ndarray):
        return np.zeros_like(value)
    if isinstance(value, dict):
        return {key: zeros_like_info(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [zeros_like_info(item) for item in value]
    return type(value)()  # not numeric (the conformance suite rejects such info values)
