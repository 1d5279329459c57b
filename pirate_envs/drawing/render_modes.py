"""Rendering for both env adapters: the render modes, the ``render_seat`` option and the last action.

``TablePainter`` is what an adapter holds: it validates ``render_mode`` and ``render_seat``, keeps
the last action in words for the picture (as the viewer may read it: a secret choice such as a vote
card is told without its content, see each game's ``view.describe_action``), and renders a frame:

- ``"ansi"``: the engine's text view (returned); ``"human"``: the same text printed (never needs a
  display, so it never fails headless);
- ``"rgb_array"``: the drawn table (:func:`pirate_envs.drawing.picture.draw_table`) of
  ``state.table_view(render_seat)`` as an ``(720, 1280, 3)`` uint8 array, the same size for every
  frame of every game, so ``gymnasium.wrappers.RecordVideo`` and PettingZoo's ``render_test`` work.

Drawing stays out of the state transition: an adapter applies actions to the engine itself and, only
when it draws pictures (``TablePainter.captions``), asks :meth:`TablePainter.caption` for each action's
words before playing it (they are told from the state the action is played in).

``render_seat=None`` (the default) is the spectator: public information only. Nothing here imports
gymnasium or pettingzoo.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.game import Game, State

RENDER_MODES = ("ansi", "human", "rgb_array")
RENDER_FPS = 2


def check_render_seat(owner: str, render_seat: Any, num_players: int) -> int | None:
    """``render_seat`` as None (the spectator) or a seat index; a clear error for anything else."""
    if render_seat is None:
        return None
    is_int = isinstance(render_seat, (int, np.integer)) and not isinstance(render_seat, (bool, np.bool_))
    if not is_int or not 0 <= int(render_seat) < num_players:
        raise InvalidOptionError(
            f"{owner}: render_seat must be None (spectator) or a seat in [0, {num_players}); got {render_seat!r}"
        )
    return int(render_seat)


class TablePainter:
    """An adapter's renderer: mode, viewer and the last action of the game being shown."""

    def __init__(self, game: Game, render_mode: str | None, render_seat: Any = None) -> None:
        self.game = game
        self.render_mode = render_mode
        self.render_seat = check_render_seat(game.game_id, render_seat, game.num_players)
        self.captions = render_mode == "rgb_array"  # only the picture shows the last action
        self.last_action = ""

    def reset(self) -> None:
        self.last_action = ""

    def caption(self, state: State, action: Any) -> str:
        """``action`` in words as the viewer may read it, told from ``state`` before it is played ("" for an
        action that is not legal there: the engine rejects it and the last action stays)."""
        index = int(action) if type(action) is int or isinstance(action, np.integer) else None
        if index is None or index not in state.legal_actions():
            return ""
        return self.game.view_builder().describe_action(state, state.current_player(), index, self.render_seat)

    def apply(self, state: State, action: Any) -> None:
        """``state.apply_action(action)``, remembering the action in words when pictures are drawn (for a
        caller without its own step, such as the demo); the engine raises on an illegal action (state and
        last action unchanged)."""
        caption = self.caption(state, action) if self.captions else None
        state.apply_action(action)
        if caption is not None:
            self.last_action = caption

    def frame(self, state: State) -> np.ndarray:
        """The drawn table of ``state`` for ``render_seat``, with the last action."""
        from pirate_envs.drawing.picture import draw_table  # Pillow is loaded only when pictures are asked for

        view = dataclasses.replace(state.table_view(self.render_seat), last_action=self.last_action)
        return draw_table(view)

    def render(self, state: State | None, text_viewer: int | None) -> str | np.ndarray | None:
        """The adapters' ``render()``: text for ``ansi``, printed for ``human``, a picture for ``rgb_array``.

        ``text_viewer`` is whose secrets the text modes show (the adapter decides); ``render_seat``
        overrides it when given.
        """
        if self.render_mode is None:
            return None
        if self.render_mode == "rgb_array":
            if state is None:
                from pirate_envs.drawing.picture import DEFAULT_SIZE

                return np.zeros((DEFAULT_SIZE[1], DEFAULT_SIZE[0], 3), dtype=np.uint8)
            return self.frame(state)
        viewer = self.render_seat if self.render_seat is not None else text_viewer
        text = state.render(viewer) if state is not None else "(call reset() first)"
        if self.render_mode == "human":
            print(text)
            return None
        return text
