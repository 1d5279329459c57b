"""Perfect-recall information states for every game: what one seat has seen, in order.

A seat's observation (``state.observation(seat)``) is its *current* view. Its information state adds the
history it observed: its own actions, and of every other seat's action the part it may read. The game's
``view.py`` already says what a viewer may read of an action (``describe_action(state, seat, action,
viewer)``, told without a secret's content), so one tracker serves every game:

- an action of seat ``q`` is *visible* to ``p`` when ``p == q``, when ``p`` reads the same text as the
  actor, or when ``p``'s text of it differs from ``p``'s text of every other legal action of ``q`` (so
  ``p`` can tell which action it was); otherwise ``p`` knows only that ``q`` acted (and the text).
- :meth:`InfostateTracker.tensor`: ``[observation | history]``, float32 of fixed size
  ``observation_size + history * (num_players + num_actions + 1)``; the history holds the last
  ``history`` decisions, oldest first, each as a one-hot of the actor, then a one-hot of the action
  if visible to the seat, else a "hidden action" bit. With ``history >= max_decisions`` (potsm's
  default) it holds the whole game: perfect recall; otherwise the decisions before the window are
  summarised only by the observation.
- :meth:`InfostateTracker.string` (``strings=True``): always perfect recall: the seat's initial
  observation, then for each decision the actor and the seat's reading of the action (its index when
  visible) and the entries of the seat's observation that changed with it (chance outcomes it saw
  included).

Used by the PettingZoo/Gymnasium adapters' ``infostate=True`` option and by :mod:`pirate_envs.openspiel`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.game import Game, State

DEFAULT_HISTORY = 128  # decisions kept in the tensor when the game's bound is longer


def default_history(game: Game) -> int:
    return min(game.max_decisions, DEFAULT_HISTORY)


class InfostateTracker:
    """Records one game's decisions as each seat saw them (see the module doc).

    Call :meth:`reset` with the first state, then for every decision :meth:`before` (with the state
    before the action) and, once the action is applied, :meth:`after`. With ``strings=True`` the
    tracker keeps the state after each decision (a caller must not modify it later: OpenSpiel's states
    make a new engine state per step) and builds a seat's text on demand, continuing where its last
    request stopped, so searches and rollouts that never ask for a string do not pay for it.
    """

    def __init__(self, game: Game, history: int | None = None, strings: bool = False) -> None:
        if history is None:
            history = default_history(game)
        if isinstance(history, bool) or not isinstance(history, (int, np.integer)) or history < 0:
            raise ValueError(f"{game.game_id}: the information-state history must be an int >= 0, got {history!r}")
        self.game = game
        self.history = int(history)
        self.strings = strings
        n = game.num_players
        self.record_size = n + game.num_actions + 1
        self.size = game.observation_size + self.history * self.record_size
        # (actor, action or -1 when forgotten, visible to each seat, each seat's text of it)
        self.records: list[tuple[int, int, tuple[bool, ...], tuple[str, ...]]] = []
        self._states: list[State | None] = []  # strings: the state at the start and after each record
        self._texts: list[tuple[int, str, np.ndarray | None]] = []  # per seat: states read, text, last obs
        self._describe = game.view_builder().describe_action

    def space(self) -> Any:
        """The Gymnasium ``Box`` of :meth:`tensor` (the observation's bounds, and 0/1 for the history)."""
        from gymnasium import spaces

        low = min(self.game.observation_low, 0.0)
        high = max(self.game.observation_high, 1.0)
        return spaces.Box(low=low, high=high, shape=(self.size,), dtype=np.float32)

    def clone(self) -> InfostateTracker:
        new = object.__new__(InfostateTracker)
        new.__dict__.update(self.__dict__)
        new.records = list(self.records)
        new._states = list(self._states)
        new._texts = list(self._texts)
        return new

    def reset(self, state: State) -> None:
        self.records = []
        if self.strings:
            self._states = [state]
            self._texts = [(0, f"seat {p}", None) for p in range(self.game.num_players)]

    def before(self, state: State, action: int) -> tuple[int, int, tuple[bool, ...], tuple[str, ...]] | None:
        """What each seat reads of ``action`` in ``state`` (before it is applied); None if it is not legal."""
        actor = state.current_player()
        legal = state.legal_actions()
        if actor < 0 or action not in legal:
            return None
        describe = self._describe
        own = describe(state, actor, action, actor)
        texts, visible = [], []
        for p in range(self.game.num_players):
            text = own if p == actor else describe(state, actor, action, p)
            texts.append(text)
            if text == own:
                visible.append(True)
            else:
                others = (describe(state, actor, b, p) for b in legal if b != action)
                visible.append(all(t != text for t in others))
        return actor, int(action), tuple(visible), tuple(texts)

    def after(self, record: tuple[int, int, tuple[bool, ...], tuple[str, ...]] | None, state: State) -> None:
        """Store ``record`` (from :meth:`before`) once its action was applied; ``state`` is the state after it."""
        if record is None:
            return
        self.records.append(record)
        if self.strings:
            self._states.append(state)

    def tensor(self, state: State, seat: int, out: np.ndarray | None = None) -> np.ndarray:
        """``seat``'s information-state tensor (a new array, or written into ``out``)."""
        if out is None:
            out = np.zeros(self.size, dtype=np.float32)
        else:
            out.fill(0.0)
        game = self.game
        out[: game.observation_size] = state.observation(seat)
        n, hidden = game.num_players, game.num_players + game.num_actions
        base = game.observation_size
        for actor, action, visible, _ in self.records[-self.history :] if self.history else ():
            out[base + actor] = 1.0
            out[base + (n + action if visible[seat] and action >= 0 else hidden)] = 1.0
            base += self.record_size
        return out

    def string(self, seat: int) -> str:
        """``seat``'s perfect-recall information state as text (needs ``strings=True``)."""
        if not self.strings:
            raise ValueError("this tracker keeps no strings (InfostateTracker(..., strings=True))")
        done, text, last = self._texts[seat]
        states = self._states
        if done == len(states):
            return text
        parts = [text]
        for k in range(done, len(states)):
            obs = states[k].observation(seat)
            if k == 0:
                parts.append(f"start {_delta(np.zeros_like(obs), obs)}")
            else:
                actor, action, visible, texts = self.records[k - 1]
                what = f"{action} {texts[seat]}" if visible[seat] and action >= 0 else f"? {texts[seat]}"
                parts.append(f"p{actor} {what} | {_delta(last, obs)}")
            last = obs
        text = "\n".join(parts)
        self._texts[seat] = (len(states), text, last)
        return text

    def resampled(self, seat: int, state: State) -> InfostateTracker:
        """The tracker of a determinisation for ``seat`` (``state`` = its ``resample_hidden``): ``seat``'s
        own record is kept; every action hidden from it is forgotten for everyone (action -1), and the
        other seats' texts restart from ``seat``'s text and their view of ``state`` (their real
        observations are hidden from ``seat``); the real past states are dropped."""
        new = self.clone()
        n = self.game.num_players
        new.records = [r if r[2][seat] else (r[0], -1, (False,) * n, (r[3][seat],) * n) for r in self.records]
        if self.strings:
            own = self.string(seat)
            count = len(self._states)
            new._texts = list(self._texts)
            for p in range(self.game.num_players):
                if p != seat:
                    obs = state.observation(p)
                    now = f"now {_delta(np.zeros_like(obs), obs)}"
                    new._texts[p] = (count, f"{own}\nresampled by seat {seat}, seat {p} {now}", obs)
            new._states = [None] * (count - 1) + [state]
        return new


def _delta(old: np.ndarray, new: np.ndarray) -> str:
    changed = np.flatnonzero(old != new)
    return " ".join(f"{i}:{v:g}" for i, v in zip(changed.tolist(), new[changed].tolist(), strict=True))


def check_infostate_option(owner: str, value: Any) -> bool:
    """The adapters' ``infostate`` option: True or False (anything else raises ``InvalidOptionError``)."""
    if not isinstance(value, (bool, np.bool_)):
        raise InvalidOptionError(f"{owner}: infostate must be True or False, got {value!r} ({type(value).__name__})")
    return bool(value)
