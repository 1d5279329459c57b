"""The native backend: game states owned by a compiled engine, behind the engine contract's methods.

``Game(num_players, backend="native", **options)`` makes :class:`NativeState` objects: the same methods as a
Python :class:`~pirate_envs.core.game.State` (``legal_actions``, ``apply_action``, ``current_player``,
``is_terminal``, ``returns``, ``scores``, ``winners``, ``observation``, ``clone``, ``to_dict``,
``resample_hidden``, ...), the same answers and the same games from the same seeds, computed in C
(``pirate_envs/games/<game>/native/``; the contract is ``core/native/engine.h``). The Python engine stays the
oracle and the fallback: where the compiled module is not built, ``PIRATE_ENVS_PURE_PYTHON=1`` is set or the game
has no compiled engine, ``backend="native"`` runs the Python engine (with a :class:`NativeUnavailableWarning`).

What only the Python state has (views, rendering, the game's own fields such as ``state.row``) is read from a
Python copy made on demand (:meth:`NativeState.to_python`, cached until the next action). Conversions go
through each game's ``native_bridge.py``: ``pack`` (Python fields to the engine's flat int64 dump), ``unpack``
(a dump to the fields of ``to_dict``) and ``options_vector`` (the rule options as ints).
"""

from __future__ import annotations

import importlib
import operator
import warnings
from types import ModuleType
from typing import TYPE_CHECKING, Any

import numpy as np

from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.native import NATIVE
from pirate_envs.core.rng import Rng, as_rng

if TYPE_CHECKING:
    from pirate_envs.core.game import Game, State

BACKENDS = ("python", "native")


class NativeUnavailableWarning(RuntimeWarning):
    """``backend="native"`` was asked where no compiled engine runs; the Python engine runs instead."""


def native_game_ids() -> tuple[str, ...]:
    """The game ids with a compiled engine in this build (empty without the compiled module)."""
    return tuple(getattr(NATIVE, "ENGINES", ())) if NATIVE is not None else ()


def has_native(game_id: str) -> bool:
    """Whether ``game_id`` runs natively here."""
    return game_id in native_game_ids()


def resolve_backend(game: Game, backend: Any) -> str:
    """``"python"`` or ``"native"`` for ``game``: a bad value raises ``InvalidOptionError`` naming the allowed
    ones; ``"native"`` where it cannot run warns and gives ``"python"``."""
    from pirate_envs.core.errors import InvalidOptionError

    if backend not in BACKENDS:
        raise InvalidOptionError(f"{game.game_id}: backend must be one of {BACKENDS}; got {backend!r}")
    if backend == "native" and not has_native(game.game_id):
        why = (
            "the compiled module is not built or PIRATE_ENVS_PURE_PYTHON is set"
            if NATIVE is None
            else ("this build has no compiled engine for it")
        )
        warnings.warn(
            f"{game.game_id}: backend='native' is unavailable ({why}); the Python engine runs",
            NativeUnavailableWarning,
            stacklevel=3,
        )
        return "python"
    return backend


def bridge(game: Game) -> ModuleType:
    """The game's ``native_bridge`` module (next to its ``game.py``)."""
    package = type(game).state_class.__module__.rpartition(".")[0]
    return importlib.import_module(f"{package}.native_bridge")


def native_game(game: Game) -> Any:
    """The compiled engine configured like ``game`` (made once per Game object)."""
    engine = game.__dict__.get("_native_game")
    if engine is None:
        glue = bridge(game)
        engine = NATIVE.NativeGame(
            game.game_id,
            game.num_players,
            tuple(glue.options_vector(game)),
            game.num_actions,
            game.observation_size,
            game.max_decisions,
            glue.num_features(game.num_players) if hasattr(glue, "num_features") else glue.NUM_FEATURES,
        )
        game.__dict__["_native_game"] = engine
    return engine


def new_native_state(game: Game, seed: Any = None) -> NativeState:
    """``game.new_initial_state(seed)`` on the compiled engine: the same game as the Python engine's."""
    rng = seed.clone() if isinstance(seed, Rng) else as_rng(seed)
    return NativeState(game, native_game(game).new_state(rng.state))


def to_native(state: State) -> NativeState:
    """The native twin of a Python state (same position, generator and decision count)."""
    engine = native_game(state.game)
    values = bridge(state.game).pack(state)
    return NativeState(state.game, engine.load(state.rng.state, state.decisions, state.truncated, values))


class NativeState:
    """A game state in a compiled engine, with the engine contract's methods (see the module docstring)."""

    __slots__ = ("_engine", "_python", "game")

    def __init__(self, game: Game, engine_state: Any) -> None:
        self.game = game
        self._engine = engine_state
        self._python: State | None = None

    # --- queries -----------------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    @property
    def decisions(self) -> int:
        return self._engine.decisions

    @property
    def truncated(self) -> bool:
        return self._engine.is_truncated()

    @property
    def rng(self) -> Rng:
        """A copy of the state's generator (changing it does not change the state)."""
        rng = Rng.__new__(Rng)
        rng.state = self._engine.rng_state
        return rng

    @property
    def engine_state(self) -> Any:
        """The compiled state (``pirate_envs._native.EngineState``)."""
        return self._engine

    def current_player(self) -> int:
        return self._engine.current_player()

    def is_terminal(self) -> bool:
        return self._engine.is_terminal()

    def is_truncated(self) -> bool:
        return self._engine.is_truncated()

    def legal_actions(self) -> list[int]:
        return self._engine.legal_actions()

    def legal_action_mask(self) -> np.ndarray:
        mask = np.empty(self.game.num_actions, dtype=np.int8)
        self._engine.legal_mask(mask)
        return mask

    def returns(self) -> list[float]:
        return self._engine.returns()

    def scores(self) -> list[float]:
        return self._engine.scores()

    def winners(self) -> list[int]:
        return self._engine.winners()

    def observation(self, seat: int) -> np.ndarray:
        seat = self.check_seat(seat)
        out = np.empty(self.game.observation_size, dtype=np.float32)
        self._engine.observe(seat, out)
        return out

    def phase_name(self) -> str:
        return self.to_python().phase_name()

    # --- acting ------------------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply the acting seat's ``action``; an illegal one raises :class:`IllegalActionError` (the Python
        engine's message) and changes nothing."""
        if isinstance(action, (bool, np.bool_)):
            raise IllegalActionError(f"action must be an integer index, got {action!r}")
        try:
            action = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action must be an integer index in [0, {self.game.num_actions}), got {action!r}"
            ) from None
        try:
            self._engine.apply_action(action)
        except ValueError:
            self.to_python().apply_action(action)  # raises the Python engine's IllegalActionError
            raise AssertionError(f"the compiled and Python engines disagree on action {action}") from None
        self._python = None

    # --- copies, serialisation, determinisation ---------------------------------------------------
    def clone(self) -> NativeState:
        return NativeState(self.game, self._engine.clone())

    def resample_hidden(self, seat: int, rng: Any = None) -> NativeState:
        """As :meth:`State.resample_hidden`: the same draws from ``rng`` as the Python engine."""
        seat = self.check_seat(seat)
        source = as_rng(rng)
        new, source.state = self._engine.resample_hidden(seat, source.state)
        return NativeState(self.game, new)

    def to_dict(self) -> dict[str, Any]:
        rng_state, decisions, truncated, values = self._engine.dump()
        return {
            "game": self.game.game_id,
            "num_players": self.game.num_players,
            "options": dict(self.game.options),
            "rng": format(rng_state, "016x"),
            "decisions": decisions,
            "truncated": truncated,
            "fields": bridge(self.game).unpack(self.game, values),
        }

    def to_python(self) -> State:
        """The same position as a Python state (a copy, cached until the next action: do not change it)."""
        if self._python is None:
            rng_state, decisions, truncated, values = self._engine.dump()
            cls = type(self.game).state_class
            state = cls.__new__(cls)
            rng = Rng.__new__(Rng)
            rng.state = rng_state
            state._init_base(self.game, rng)
            state.decisions = decisions
            state.truncated = truncated
            for name, value in bridge(self.game).unpack(self.game, values).items():
                setattr(state, name, value)
            self._python = state
        return self._python

    def heuristic_action(self, rng: Any = None) -> int:
        """The game's heuristic bot's move for the seat to act, decided in C (ties drawn from ``rng``)."""
        action, _ = self._engine.heuristic_action(as_rng(rng).next_u64())
        return action

    def __reduce__(self) -> tuple:
        return (_from_dict, (type(self.game), self.game.num_players, dict(self.game.options), self.to_dict()))

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, NativeState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]

    # --- what the Python state answers ------------------------------------------------------------
    def check_seat(self, seat: Any) -> int:
        return type(self.game).state_class.check_seat(self, seat)

    def check_viewer(self, viewer: Any) -> int | None:
        return None if viewer is None else self.check_seat(viewer)

    def render(self, viewer: int | None = None) -> str:
        return self.to_python().render(viewer)

    def table_view(self, viewer: int | None = None) -> Any:
        return self.to_python().table_view(viewer)

    def __str__(self) -> str:
        return self.render(None)

    def __repr__(self) -> str:
        return f"NativeState({self.game!r}, decisions={self.decisions})"

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__") or name in NativeState.__slots__:
            raise AttributeError(name)
        return getattr(self.to_python(), name)


def _from_dict(game_class: type, num_players: int, options: dict, data: dict) -> NativeState:
    game = game_class(num_players=num_players, backend="native", **options)
    python = game_class.state_from_dict(data)
    native = to_native(python)
    native.game = game
    return native
