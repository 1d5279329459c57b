"""The rules-engine contract every game implements: :class:`Game` and :class:`State`.

The base classes enforce the invariants that must hold for every game in one place
(legality check before any mutation, the decision bound, serialisation, cloning, the
determinisation entry point), so a game writes only small methods named after its rules:

    _current_player, _legal_actions, _apply_action, _is_terminal, _scores, _returns,
    _winners, _phase_name, observation, _resample_hidden, render

A state keeps its game-specific data in plain attributes listed in ``State.fields``; each must be
JSON-safe (ints, floats, bools, strings, None, lists and str-keyed dicts of those). That single
rule gives exact ``to_dict``/``state_from_dict`` round trips and a generic deep ``clone``. The one
exception is a :class:`ByteCounts` field: a vector of small counts kept as a ``bytearray`` (so an
observation encoder can copy it into its byte buffer without a per-element conversion); it is
written as a list by ``to_dict`` and turned back into bytes by assignment.
Nothing here imports gymnasium or pettingzoo.
"""

from __future__ import annotations

import operator
import pickle
from typing import Any, ClassVar

import numpy as np

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.options import Option, resolve_options
from pirate_envs.core.rng import Rng, as_rng

TERMINAL = -1


def copy_plain(value: Any) -> Any:
    """Deep copy of a state's data (lists, dicts, scalars): ``pickle`` in C, several times faster than
    ``copy.deepcopy`` or a recursive copy in Python. The copy shares no mutable object with the original.

    (``marshal`` would be faster still, but it silently turns buffer-like values such as numpy
    scalars into ``bytes``.)
    """
    return pickle.loads(pickle.dumps(value, pickle.HIGHEST_PROTOCOL))


class ByteCounts:
    """Declares a state field that holds counts in 0..255 as a ``bytearray``.

    Put ``name = ByteCounts()`` in the state class. Whatever is assigned (a list, a tuple, bytes)
    is stored as a ``bytearray``; a value outside 0..255 raises ``ValueError`` naming the field. Only
    assignment goes through the descriptor: reads and item writes (``state.fame[3] += 1``) are plain
    instance-dict and ``bytearray`` operations. ``to_dict`` writes the field as a list of ints.
    """

    def __set_name__(self, owner: type, name: str) -> None:
        self.name = name
        self.where = f"{owner.__name__}.{name}"

    def __set__(self, state: Any, value: Any) -> None:
        if type(value) is not bytearray:
            if isinstance(value, (int, str)):
                raise ValueError(f"{self.where} holds a sequence of counts in 0..255, got {value!r}")
            try:
                value = bytearray(value)
            except (TypeError, ValueError):
                raise ValueError(f"{self.where} holds counts in 0..255, got {value!r}") from None
        state.__dict__[self.name] = value


def plain_field(value: Any) -> Any:
    """A deep, JSON-safe copy of one state field (a ``bytearray`` becomes a list of ints)."""
    return list(value) if type(value) is bytearray else copy_plain(value)


class Game:
    """A game's rules and fixed facts for one player count and option set.

    Subclasses declare as data: ``game_id``, ``display_name``, ``player_counts``,
    ``default_num_players``, ``option_specs`` (must include ``max_decisions``) and
    ``state_class``; and compute ``num_actions`` and ``observation_size`` in ``_setup``.
    """

    game_id: ClassVar[str] = ""
    display_name: ClassVar[str] = ""
    player_counts: ClassVar[tuple[int, ...]] = ()
    default_num_players: ClassVar[int] = 2
    option_specs: ClassVar[tuple[Option, ...]] = ()
    state_class: ClassVar[type[State]]
    # Bounds of every observation entry (used for the Box spaces of the adapters).
    observation_low: ClassVar[float] = 0.0
    observation_high: ClassVar[float] = 1.0e4
    # True when a finished (not truncated) game can have no winner, e.g. a team game whose
    # winning side was wiped out; otherwise ``winners()`` is never empty at a natural end.
    may_end_without_winner: ClassVar[bool] = False

    num_actions: int
    observation_size: int

    def __init__(self, num_players: int | None = None, **options: Any) -> None:
        if num_players is None:
            num_players = self.default_num_players
        if isinstance(num_players, bool) or not isinstance(num_players, (int, np.integer)):
            raise InvalidOptionError(
                f"{self.game_id}: num_players must be an int, one of {self.player_counts}; got {num_players!r}"
            )
        if int(num_players) not in self.player_counts:
            raise InvalidOptionError(
                f"{self.game_id}: num_players must be one of {self.player_counts}; got {num_players!r}"
            )
        self.num_players = int(num_players)
        self.options: dict[str, Any] = resolve_options(self.option_specs, options, self.game_id)
        self.max_decisions: int = self.options["max_decisions"]
        self._setup()

    def _setup(self) -> None:
        """Compute ``num_actions``, ``observation_size`` and any per-game lookup tables."""
        raise NotImplementedError

    @property
    def num_sides(self) -> int:
        """How many sides can win: the player count, or the number of teams in a team game.

        A seat's fair win rate is ``1 / num_sides``; tournaments and checkpoint targets use it.
        """
        return self.num_players

    @property
    def observation_shape(self) -> tuple[int]:
        return (self.observation_size,)

    def new_initial_state(self, seed: Any = None) -> State:
        """A fresh game; every chance event comes from an RNG seeded with ``seed``."""
        state = self.state_class.__new__(self.state_class)
        state._init_base(self, as_rng(seed) if not isinstance(seed, Rng) else seed.clone())
        state._setup_game()
        return state

    def action_to_string(self, action: int) -> str:
        raise NotImplementedError

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(num_players={self.num_players}, {opts})"

    @classmethod
    def state_from_dict(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output (exactly, RNG included)."""
        if data.get("game") != cls.game_id:
            raise ValueError(f"state_from_dict: this dict is for game {data.get('game')!r}, not {cls.game_id!r}")
        game = cls(num_players=data["num_players"], **data["options"])
        state = cls.state_class.__new__(cls.state_class)
        state._init_base(game, Rng.from_json(data["rng"]))
        state.decisions = int(data["decisions"])
        state.truncated = bool(data["truncated"])
        fields = data["fields"]
        missing = [f for f in cls.state_class.fields if f not in fields]
        if missing:
            raise ValueError(f"state_from_dict: missing fields {missing}")
        for name in cls.state_class.fields:
            setattr(state, name, copy_plain(fields[name]))
        return state


class State:
    """One position of a game. Subclasses implement the underscore methods named in the module doc."""

    fields: ClassVar[tuple[str, ...]] = ()

    game: Game
    rng: Rng
    decisions: int
    truncated: bool

    def _init_base(self, game: Game, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.decisions = 0
        self.truncated = False
        self._legal: list[int] | None = None

    def _setup_game(self) -> None:
        """Set up the board, deal, and resolve chance up to the first decision."""
        raise NotImplementedError

    # --- queries -----------------------------------------------------------------------------
    @property
    def num_players(self) -> int:
        return self.game.num_players

    def current_player(self) -> int:
        """Seat to act, or ``TERMINAL`` (-1) when the game is over or truncated."""
        if self.truncated or self._is_terminal():
            return TERMINAL
        return self._current_player()

    def is_terminal(self) -> bool:
        """True once the game is over, by its own end or by truncation at ``max_decisions``."""
        return self.truncated or self._is_terminal()

    def is_truncated(self) -> bool:
        """True when the game was cut at ``max_decisions`` without reaching its end (no winner)."""
        return self.truncated

    def legal_actions(self) -> list[int]:
        """Sorted legal action indices for the seat to act (empty only when terminal)."""
        if self.is_terminal():
            return []
        if self._legal is None:
            self._legal = self._legal_actions()
        return list(self._legal)

    def legal_action_mask(self) -> np.ndarray:
        mask = np.zeros(self.game.num_actions, dtype=np.int8)
        legal = self.legal_actions()
        if legal:
            mask[legal] = 1
        return mask

    def phase_name(self) -> str:
        if self.truncated:
            return "TRUNCATED"
        if self._is_terminal():
            return "GAME_OVER"
        return self._phase_name()

    def returns(self) -> list[float]:
        """Final reward per seat (zeros until the end, and after truncation)."""
        if self.truncated or not self._is_terminal():
            return [0.0] * self.game.num_players
        return self._returns()

    def winners(self) -> list[int]:
        """Seats that won (several for team games); empty before the end and after truncation."""
        if self.truncated or not self._is_terminal():
            return []
        return self._winners()

    def scores(self) -> list[float]:
        """The game's own score figures per seat (meaningful at the end; running totals before)."""
        return self._scores()

    # --- acting --------------------------------------------------------------------------------
    def apply_action(self, action: int) -> None:
        """Apply the acting seat's ``action``; an illegal one raises and changes nothing."""
        if isinstance(action, (bool, np.bool_)):
            raise IllegalActionError(f"action must be an integer index, got {action!r}")
        try:
            action = operator.index(action)
        except TypeError:
            raise IllegalActionError(
                f"action must be an integer index in [0, {self.game.num_actions}), got {action!r}"
            ) from None
        if self.is_terminal():
            raise IllegalActionError(f"action {action}: the game is over ({self.phase_name()}); no action is legal")
        if self._legal is None:
            self._legal = self._legal_actions()
        if action not in self._legal:
            raise IllegalActionError(self._illegal_message(action))
        self._legal = None
        self._apply_action(action)
        self.decisions += 1
        if self.decisions >= self.game.max_decisions and not self._is_terminal():
            self.truncated = True

    def _illegal_message(self, action: int) -> str:
        n = self.game.num_actions
        if not 0 <= action < n:
            what = f"action {action} is out of range [0, {n})"
        else:
            what = f"action {action} ({self.game.action_to_string(action)}) is not legal"
        legal = self._legal or []
        shown = ", ".join(f"{a} ({self.game.action_to_string(a)})" for a in legal[:12])
        more = f", ... ({len(legal)} in all)" if len(legal) > 12 else ""
        return f"{what} for player_{self._current_player()} in phase {self._phase_name()}; legal: {shown}{more}"

    # --- copies, serialisation, determinisation -------------------------------------------------
    def clone(self) -> State:
        new = object.__new__(type(self))
        new.game = self.game
        new.rng = self.rng.clone()
        new.decisions = self.decisions
        new.truncated = self.truncated
        new._legal = self._legal
        fields = self.fields
        for name, value in zip(fields, copy_plain([getattr(self, name) for name in fields]), strict=True):
            setattr(new, name, value)
        return new

    def to_dict(self) -> dict[str, Any]:
        """JSON-safe snapshot; ``Game.state_from_dict`` restores it exactly (RNG included)."""
        return {
            "game": self.game.game_id,
            "num_players": self.game.num_players,
            "options": dict(self.game.options),
            "rng": self.rng.to_json(),
            "decisions": self.decisions,
            "truncated": self.truncated,
            "fields": {name: plain_field(getattr(self, name)) for name in self.fields},
        }

    def resample_hidden(self, seat: int, rng: Any = None) -> State:
        """A copy consistent with all that ``seat`` has seen, everything hidden from it redrawn.

        The copy's own RNG is reseeded too, so future chance (reshuffles, dice) is not
        the real game's either.
        """
        self.check_seat(seat)
        source = as_rng(rng)
        new = self.clone()
        new.rng = Rng(source.next_u64())
        new._legal = None
        new._resample_hidden(seat, source)
        return new

    def check_seat(self, seat: int) -> None:
        """Raise ``ValueError`` unless ``seat`` is a seat of this game (for per-seat queries)."""
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be in [0, {self.game.num_players}), got {seat}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return self.render(None)

    # --- per game --------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        """Raise AssertionError if a structural invariant (e.g. card conservation) is broken."""
        raise NotImplementedError

    def render(self, viewer: int | None = None) -> str:
        """Text view; ``viewer=None`` shows only public information, a seat adds its own secrets."""
        raise NotImplementedError

    def observation(self, seat: int) -> np.ndarray:
        """The float32 vector of what ``seat`` may see, built by the game's ``encoder`` (its
        ``observation.py``: visibility is decided there and only there)."""
        self.check_seat(seat)
        return self.game.encoder.encode(self, seat)

    def _current_player(self) -> int:
        raise NotImplementedError

    def _legal_actions(self) -> list[int]:
        raise NotImplementedError

    def _apply_action(self, action: int) -> None:
        raise NotImplementedError

    def _is_terminal(self) -> bool:
        raise NotImplementedError

    def _scores(self) -> list[float]:
        raise NotImplementedError

    def _returns(self) -> list[float]:
        raise NotImplementedError

    def _phase_name(self) -> str:
        raise NotImplementedError

    def _winners(self) -> list[int]:
        raise NotImplementedError

    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        raise NotImplementedError
