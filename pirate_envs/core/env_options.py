"""Options and display shared by both env adapters (PettingZoo AEC and Gymnasium).

Both accept the same ``render_mode`` and ``illegal_action`` values, validate them the same way,
and render the same text view of the engine's state.
"""

from __future__ import annotations

from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.game import State

RENDER_MODES = ("ansi", "human")
ILLEGAL_ACTION_MODES = ("raise", "terminate")


def check_render_mode(owner: str, render_mode: str | None) -> None:
    if render_mode is not None and render_mode not in RENDER_MODES:
        raise InvalidOptionError(f"{owner}: render_mode must be one of {RENDER_MODES} or None; got {render_mode!r}")


def check_illegal_action(owner: str, illegal_action: str) -> None:
    if illegal_action not in ILLEGAL_ACTION_MODES:
        raise InvalidOptionError(
            f"{owner}: illegal_action must be one of {ILLEGAL_ACTION_MODES}; got {illegal_action!r}"
        )


def render_text(state: State | None, viewer: int | None, render_mode: str | None) -> str | None:
    """The adapters' ``render()``: text for ``ansi``, printed (returning None) for ``human``."""
    if render_mode is None:
        return None
    text = state.render(viewer) if state is not None else "(call reset() first)"
    if render_mode == "human":
        print(text)
        return None
    return text
