"""The rules-engine contract every game implements: :class:`Game` and :class:`State`.

The base classes enforce the invariants that must hold for every game in one place
(legality check before any mutation, the decision bound, serialisation, cloning, the
determinisation entry point), so a game writes only small methods named after its rules:

    Game:  _setup, action_to_string
    State: _setup_game, _current_player, _legal_actions, _apply_action, _is_terminal, _scores,
           _returns, _winners, _phase_name, _resample_hidden, check_invariants, render

(the observation comes from the game's ``encoder``, built in ``_setup``). These are marked
``abstractmethod`` and checked when a subclass is defined: a class that lacks one raises ``TypeError``
naming what is missing, unless it is declared a partial base (``class Base(State, abstract=True)``).

A state keeps its game-specific data in plain attributes listed in ``State.fields``; each must be
JSON-safe (ints, floats, bools, strings, None, lists and str-keyed dicts of those). That single
rule gives exact ``to_dict``/``state_from_dict`` round trips and a generic deep ``clone``. The one
exception is a :class:`ByteCounts` field: a vector of small counts kept as a ``bytearray`` (so an
observation encoder can copy it into its byte buffer without a per-element conversion); it is
written as a list by ``to_dict`` and turned back into bytes by assignment.
``state_from_dict`` loads only possible positions: it checks the dict's structure against fresh
states of the same game, then the game's ``check_invariants``, and raises ``InvalidStateError``.
Nothing here imports gymnasium or pettingzoo.
"""

from __future__ import annotations

import functools
import importlib
import math
import operator
import pickle
import traceback
from abc import abstractmethod
from typing import TYPE_CHECKING, Any, ClassVar

import numpy as np

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError, InvalidStateError
from pirate_envs.core.options import Option, resolve_options
from pirate_envs.core.rng import Rng, as_rng

if TYPE_CHECKING:
    from pirate_envs.drawing.table import TableView

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


def assert_in_range(field: str, values: Any, low: int, high: int, length: int | None = None) -> None:
    """For ``check_invariants``: raise ``AssertionError`` naming ``field`` unless ``values`` (an int or a
    sequence of them) are ints in ``[low, high]``, and, when ``length`` is given, there are that many."""
    if type(values) is int:
        values = (values,)
    elif length is not None and len(values) != length:
        raise AssertionError(f"{field} must hold {length} entries, got {len(values)}")
    for value in values:
        if type(value) is not int or not low <= value <= high:
            raise AssertionError(f"{field} holds {value!r}, outside [{low}, {high}]")


def _check_contract(cls: type, contract: type, abstract: bool) -> None:
    """Raise ``TypeError`` when ``cls``, a subclass of ``contract`` not declared ``abstract``, leaves a method
    marked ``abstractmethod`` (by ``contract`` or by a partial base between them) undefined."""
    if abstract:
        return
    marked = {name for klass in cls.__mro__ for name, value in vars(klass).items() if _is_abstract(value)}
    missing = sorted(name for name in marked if _is_abstract(getattr(cls, name, None)))
    if missing:
        raise TypeError(
            f"{cls.__module__}.{cls.__qualname__} does not define {', '.join(missing)}, required by the "
            f"{contract.__name__} contract (pirate_envs.core.game); define them, or declare a partial base "
            f"with class {cls.__name__}({contract.__name__}, abstract=True)"
        )


def _is_abstract(value: Any) -> bool:
    return bool(getattr(value, "__isabstractmethod__", False))


def plain_field(value: Any) -> Any:
    """A deep, JSON-safe copy of one state field (a ``bytearray`` becomes a list of ints)."""
    return list(value) if type(value) is bytearray else copy_plain(value)


class Game:
    """A game's rules and fixed facts for one player count and option set.

    Subclasses declare as data: ``game_id``, ``display_name``, ``player_counts``,
    ``default_num_players``, ``option_specs`` (must include ``max_decisions``, and the reward options of
    :func:`~pirate_envs.core.rewards.reward_options`) and ``state_class``; and compute ``num_actions`` and
    ``observation_size`` in ``_setup``.
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

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _check_contract(cls, Game, abstract)

    def __init__(self, num_players: int | None = None, backend: str = "python", **options: Any) -> None:
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
        self.reward_mode: str = self.options.get("reward_mode", "win")
        self.score_scale: float | None = self.options.get("score_scale")  # None: the game's score mode has none
        self._setup()
        from pirate_envs.core.native.backend import resolve_backend

        # not a rule option: the same game (and the same options, fingerprints, dicts) on either engine
        self.backend: str = resolve_backend(self, backend)

    def __getstate__(self) -> dict[str, Any]:
        state = dict(self.__dict__)
        state.pop("_native_game", None)  # the compiled engine is rebuilt on first use
        return state

    @abstractmethod
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

    @classmethod
    def view_builder(cls) -> Any:
        """The game's view module (``view.py`` next to its ``game.py``): ``table_view(state, viewer)``
        and ``describe_action(state, seat, action, viewer)``; imported on first use (pictures are optional)."""
        module = cls.__dict__.get("_view_module")
        if module is None:
            package = cls.state_class.__module__.rpartition(".")[0]
            module = importlib.import_module(f"{package}.view")
            cls._view_module = module
        return module

    def new_initial_state(self, seed: Any = None) -> State:
        """A fresh game; every chance event comes from an RNG seeded with ``seed`` (a
        :class:`~pirate_envs.core.native.backend.NativeState` when the game's backend is ``"native"``)."""
        if self.backend == "native":
            from pirate_envs.core.native.backend import new_native_state

            return new_native_state(self, seed)  # type: ignore[return-value]
        state = self.state_class.__new__(self.state_class)
        state._init_base(self, as_rng(seed) if not isinstance(seed, Rng) else seed.clone())
        state._setup_game()
        return state

    @abstractmethod
    def action_to_string(self, action: int) -> str:
        """The action index ``action`` in words (the action table's name for it)."""
        raise NotImplementedError

    # --- per-action features (optional part of the contract) ---------------------------------------
    # A game that describes each legal action by the public effect it would have sets
    # ``action_feature_size`` (features per action) in ``_setup`` and overrides ``_action_features``.
    # The features are a function of one seat's observation and action mask alone, so they can show
    # nothing that seat's observation does not (the conformance suite checks this on every game).
    action_feature_size: int = 0
    action_feature_low: ClassVar[float] = -1.0e4  # bounds of every feature value (the adapters' Box)
    action_feature_high: ClassVar[float] = 1.0e4

    def action_features(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """``(num_actions, action_feature_size)`` float32 features of every action for the seat whose
        ``observation`` and ``action_mask`` these are; rows of illegal actions are zero."""
        if not self.action_feature_size:
            raise InvalidOptionError(f"{self.game_id} defines no per-action features (action_feature_size is 0)")
        observation = np.asarray(observation)
        action_mask = np.asarray(action_mask)
        if observation.shape != self.observation_shape or action_mask.shape != (self.num_actions,):
            raise ValueError(
                f"{self.game_id}: action_features needs an observation of shape {self.observation_shape} and "
                f"a mask of shape ({self.num_actions},); got {observation.shape} and {action_mask.shape}"
            )
        return self._action_features(observation, action_mask)

    def _action_features(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        raise NotImplementedError(f"{self.game_id} sets action_feature_size but does not define _action_features")

    def legal_action_features(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        """The legal actions' rows of :meth:`action_features` for a batch: ``observations`` ``(batch, size)``
        float32, ``action_masks`` ``(batch, num_actions)`` bool; float32 ``(legal actions in all,
        action_feature_size)`` in the order of ``numpy.nonzero(action_masks)`` (the inputs unchecked: for the
        batches an action-feature network trains on); a game whose features have a compiled twin writes them
        directly."""
        rows = [self._action_features(o, m)[m] for o, m in zip(observations, action_masks, strict=True)]
        return np.concatenate(rows) if rows else np.zeros((0, self.action_feature_size), dtype=np.float32)

    def observation_with_action_features(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The observation followed by the flattened action features (float32), as the Gymnasium adapter's
        ``action_features=True`` and action-feature networks see it."""
        features = self.action_features(observation, action_mask)
        return np.concatenate([np.asarray(observation, dtype=np.float32), features.ravel()])

    @property
    def augmented_observation_size(self) -> int:
        """Length of :meth:`observation_with_action_features`."""
        return self.observation_size + self.num_actions * self.action_feature_size

    def __repr__(self) -> str:
        opts = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"{type(self).__name__}(num_players={self.num_players}, {opts})"

    @classmethod
    def state_from_dict(cls, data: dict[str, Any]) -> State:
        """Rebuild a state from :meth:`State.to_dict` output (exactly, RNG included).

        Only a position the game could reach is loaded: the dict's keys and their types, the game id,
        player count and options, the RNG, the decision counter and truncation flag, each field's JSON
        structure (compared with a fresh state of the same game: same container types, per-seat lists
        of length ``num_players``) and then the game's own :meth:`State.check_invariants` (value ranges,
        card conservation, seat indices). Anything else raises :class:`InvalidStateError` naming the
        key or field.
        """
        if not isinstance(data, dict):
            raise InvalidStateError(f"state_from_dict: expected a dict (State.to_dict output), got {_short(data)}")
        wrong_keys = _key_mismatch(data, _TOP_KEYS)
        if wrong_keys:
            raise InvalidStateError(f"state_from_dict: {wrong_keys}; a state dict has the keys {list(_TOP_KEYS)}")
        if data["game"] != cls.game_id:
            raise InvalidStateError(
                f"state_from_dict: key 'game': this dict is for game {_short(data['game'])}, not {cls.game_id!r}"
            )
        num_players, options = data["num_players"], data["options"]
        if type(num_players) is not int or num_players not in cls.player_counts:
            raise InvalidStateError(
                f"state_from_dict: key 'num_players' must be one of {cls.player_counts}, got {_short(num_players)}"
            )
        if type(options) is not dict:
            raise InvalidStateError(f"state_from_dict: key 'options' must be a dict, got {_short(options)}")
        try:
            game = cls(num_players=num_players, **options)
        except (InvalidOptionError, TypeError) as exc:
            raise InvalidStateError(f"state_from_dict: key 'options': {exc}") from None
        try:
            rng = Rng.from_json(data["rng"])
        except ValueError as exc:
            raise InvalidStateError(f"state_from_dict: key 'rng': {exc}") from None
        decisions, truncated = data["decisions"], data["truncated"]
        if type(decisions) is not int or not 0 <= decisions <= game.max_decisions:
            raise InvalidStateError(
                f"state_from_dict: key 'decisions' must be an int in [0, max_decisions={game.max_decisions}], "
                f"got {_short(decisions)}"
            )
        if type(truncated) is not bool:
            raise InvalidStateError(f"state_from_dict: key 'truncated' must be true or false, got {_short(truncated)}")
        fields = data["fields"]
        if type(fields) is not dict:
            raise InvalidStateError(f"state_from_dict: key 'fields' must be a dict, got {_short(fields)}")
        names = cls.state_class.fields
        wrong_keys = _key_mismatch(fields, names)
        if wrong_keys:
            raise InvalidStateError(f"state_from_dict: key 'fields': {wrong_keys}")
        shapes = _field_shapes(cls, num_players, tuple(sorted(game.options.items())))
        for name in names:
            _check_shape(fields[name], shapes[name], num_players, name)
        state = cls.state_class.__new__(cls.state_class)
        state._init_base(game, rng)
        state.decisions = decisions
        state.truncated = truncated
        for name in names:
            try:
                setattr(state, name, copy_plain(fields[name]))
            except ValueError as exc:  # a ByteCounts field with a count outside 0..255
                raise InvalidStateError(f"state_from_dict: field {name!r}: {exc}") from None
        try:
            state.check_invariants()
            state._check_position()
        except InvalidStateError:
            raise
        except (AssertionError, LookupError, TypeError, ValueError, AttributeError, ArithmeticError) as exc:
            raise InvalidStateError(f"state_from_dict: impossible {cls.game_id} state: {_failure(exc)}") from None
        return state


# --- state_from_dict: the structure of a saved state ------------------------------------------------

_TOP_KEYS = ("game", "num_players", "options", "rng", "decisions", "truncated", "fields")
_JSON_KINDS = {bool: "bool", int: "int", float: "float", str: "str", list: "list", bytearray: "list", dict: "dict"}


def _key_mismatch(data: dict, expected: tuple[str, ...]) -> str:
    """'' when ``data`` has exactly the keys ``expected``, else which are missing and which unknown."""
    missing = [key for key in expected if key not in data]
    unknown = sorted(map(str, set(data) - set(expected)))
    parts = ([f"missing key(s) {missing}"] if missing else []) + ([f"unknown key(s) {unknown}"] if unknown else [])
    return ", ".join(parts)


def _short(value: Any) -> str:
    text = repr(value)
    return text if len(text) <= 80 else text[:77] + "..."


def _failure(exc: BaseException) -> str:
    """An invariant failure in words, with the game's source line that raised it (it names the field)."""
    frames = [f for f in traceback.extract_tb(exc.__traceback__) if f.filename != __file__]
    where = f" [{frames[-1].name}: {frames[-1].line}]" if frames else ""
    return f"{type(exc).__name__}: {exc}{where}" if str(exc) else f"{type(exc).__name__}{where}"


class _Shape:
    """The JSON structure a field shows in fresh states: its kind, and for containers what they hold.

    ``per_seat``: a list whose length is the player count in every fresh state of every player count.
    ``items``/``values``: the shape of the elements (``None``: unconstrained, e.g. always empty at the start).
    """

    __slots__ = ("items", "kind", "per_seat", "values")

    def __init__(self, kind: str, per_seat: bool = False, items: Any = None, values: Any = None) -> None:
        self.kind, self.per_seat, self.items, self.values = kind, per_seat, items, values


def _infer_shape(samples: list[tuple[Any, int]], counts_vary: bool) -> _Shape | None:
    """The shape common to ``samples`` (value, player count); ``None`` where they do not pin one down."""
    kinds = {_JSON_KINDS.get(type(value)) for value, _ in samples}
    if kinds <= {"int", "float"} and "float" in kinds:
        return _Shape("float")
    if len(kinds) != 1 or None in kinds:  # a null (or mixed kinds) says nothing about later values
        return None
    kind = kinds.pop()
    if kind == "list":
        per_seat = counts_vary and all(len(value) == n for value, n in samples)
        elements = [(item, n) for value, n in samples for item in value]
        return _Shape("list", per_seat, _infer_shape(elements, counts_vary) if elements else None)
    if kind == "dict":
        keys = {frozenset(value) for value, _ in samples}
        if len(keys) != 1:
            return _Shape("dict")
        values = {key: _infer_shape([(value[key], n) for value, n in samples], counts_vary) for key in keys.pop()}
        return _Shape("dict", values=values)
    return _Shape(kind)


@functools.lru_cache(maxsize=256)
def _field_shapes(cls: type[Game], num_players: int, options: tuple) -> dict[str, _Shape | None]:
    """Each field's shape, from fresh states (two seeds) of every player count with these options."""
    samples: dict[str, list[tuple[Any, int]]] = {name: [] for name in cls.state_class.fields}
    counts = set()
    for n in cls.player_counts:
        try:
            game = cls(num_players=n, **dict(options))
        except InvalidOptionError:  # an option that only makes sense for some player counts
            continue
        counts.add(n)
        for seed in (0, 1):
            fields = game.new_initial_state(seed).to_dict()["fields"]
            for name in samples:
                samples[name].append((fields[name], n))
    shapes = {name: _infer_shape(values, len(counts) > 1) for name, values in samples.items()}
    for name in cls.state_class.not_per_seat:
        shapes[name].per_seat = False
    return shapes


_EXPECTED = {
    "int": "an integer",
    "float": "a finite number",
    "bool": "true or false",
    "str": "a string",
    "list": "a list",
    "dict": "a dict",
}


_SCALAR_TYPES = {"int": int, "bool": bool, "str": str}


def _check_shape(value: Any, shape: _Shape | None, num_players: int, where: str) -> None:
    """Raise :class:`InvalidStateError` naming ``where`` unless ``value`` has ``shape`` (and is JSON-safe)."""
    kind = _JSON_KINDS.get(type(value))
    if shape is None:
        ok = value is None or kind is not None
        if kind == "float":
            ok = math.isfinite(value)
    elif shape.kind == "float":
        ok = kind == "int" or (kind == "float" and math.isfinite(value))
    else:
        ok = kind == shape.kind
    if not ok:
        expected = "JSON data" if shape is None else _EXPECTED[shape.kind]
        raise InvalidStateError(f"state_from_dict: field {where!r} must be {expected}, got {_short(value)}")
    if kind == "list":
        if shape is not None and shape.per_seat and len(value) != num_players:
            raise InvalidStateError(
                f"state_from_dict: field {where!r} holds one entry per seat: {num_players}, got {len(value)}"
            )
        items = shape.items if shape is not None else None
        scalar = _SCALAR_TYPES.get(items.kind) if items is not None else None
        if scalar is not None and all(type(item) is scalar for item in value):
            return  # the common case (a list of ints or bools), without a call per item
        for i, item in enumerate(value):
            _check_shape(item, items, num_players, f"{where}[{i}]")
    elif kind == "dict":
        values = shape.values if shape is not None else None
        if values is not None and set(value) != set(values):
            raise InvalidStateError(
                f"state_from_dict: field {where!r} must have the keys {sorted(values)}, got {sorted(map(str, value))}"
            )
        for key, item in value.items():
            if type(key) is not str:
                raise InvalidStateError(f"state_from_dict: field {where!r} has a non-string key {_short(key)}")
            _check_shape(item, values[key] if values is not None else None, num_players, f"{where}[{key!r}]")


class State:
    """One position of a game. Subclasses implement the underscore methods named in the module doc."""

    fields: ClassVar[tuple[str, ...]] = ()
    # Fields that start with one entry per seat but change length later (``state_from_dict`` takes
    # a list field of a fresh state's length ``num_players`` at every player count for a per-seat one).
    not_per_seat: ClassVar[tuple[str, ...]] = ()

    game: Game
    rng: Rng
    decisions: int
    truncated: bool

    def __init_subclass__(cls, abstract: bool = False, **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        _check_contract(cls, State, abstract)

    def _init_base(self, game: Game, rng: Rng) -> None:
        self.game = game
        self.rng = rng
        self.decisions = 0
        self.truncated = False
        self._legal: list[int] | None = None

    @abstractmethod
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
        """A new int8 array: 1 at each legal action (all zeros when terminal). Built from the cached
        legal list without copying it (the AEC env calls this on every step)."""
        mask = bytearray(self.game.num_actions)  # item writes to a bytearray beat numpy's (fancy) indexing
        if not (self.truncated or self._is_terminal()):
            legal = self._legal
            if legal is None:
                legal = self._legal = self._legal_actions()
            for action in legal:
                mask[action] = 1
        return np.frombuffer(mask, dtype=np.int8)

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
        seat = self.check_seat(seat)
        source = as_rng(rng)
        new = self.clone()
        new.rng = Rng(source.next_u64())
        new._legal = None
        new._resample_hidden(seat, source)
        return new

    def check_seat(self, seat: Any) -> int:
        """``seat`` as a plain int, for per-seat queries: ``TypeError`` unless it is an integer (numpy
        integers accepted, bools refused), ``ValueError`` unless it is a seat of this game."""
        if type(seat) is not int:
            if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
                raise TypeError(
                    f"seat must be an int in [0, {self.game.num_players}), got {seat!r} ({type(seat).__name__})"
                )
            seat = int(seat)
        if not 0 <= seat < self.game.num_players:
            raise ValueError(f"seat must be in [0, {self.game.num_players}), got {seat}")
        return seat

    def check_viewer(self, viewer: Any) -> int | None:
        """``viewer`` for :meth:`render`: ``None`` (the public view) or a seat, checked as by :meth:`check_seat`."""
        return None if viewer is None else self.check_seat(viewer)

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self.to_dict() == other.to_dict()  # type: ignore[union-attr]

    __hash__ = None  # type: ignore[assignment]

    def __str__(self) -> str:
        return self.render(None)

    def _check_position(self) -> None:
        """The engine-level facts of a loaded state: the decision counter agrees with truncation, and a
        running game has a seat to act, legal actions in range, and an observation for every seat."""
        game = self.game
        terminal = self._is_terminal()
        if self.truncated and (terminal or self.decisions != game.max_decisions):
            raise InvalidStateError(
                f"state_from_dict: key 'truncated' is true but decisions={self.decisions} "
                f"(max_decisions={game.max_decisions}) and the game {'has' if terminal else 'has not'} ended"
            )
        if not self.truncated and not terminal and self.decisions >= game.max_decisions:
            raise InvalidStateError(
                f"state_from_dict: key 'decisions' is {self.decisions} = max_decisions in a running game "
                "that is not truncated"
            )
        if not self.is_terminal():
            seat = self._current_player()
            if type(seat) is not int or not 0 <= seat < game.num_players:
                raise InvalidStateError(f"state_from_dict: the seat to act is {_short(seat)}, not a seat")
            legal = self._legal_actions()
            if not legal or legal != sorted(set(legal)) or not 0 <= legal[0] <= legal[-1] < game.num_actions:
                raise InvalidStateError(f"state_from_dict: the legal actions {_short(legal)} are not valid actions")
        for seat in range(game.num_players):
            obs = game.encoder.encode(self, seat)
            low, high = game.observation_low, game.observation_high
            if not (np.isfinite(obs).all() and obs.min() >= low and obs.max() <= high):
                raise InvalidStateError(f"state_from_dict: the observation of seat {seat} is out of its bounds")

    # --- per game --------------------------------------------------------------------------------
    @abstractmethod
    def check_invariants(self) -> None:
        """Raise AssertionError if a structural invariant (e.g. card conservation) is broken or a value is
        out of its range (a phase, a seat, a card id, a count): ``state_from_dict`` runs it on every load,
        so it must catch whatever would make the rules fail later (see :func:`assert_in_range`)."""
        raise NotImplementedError

    @abstractmethod
    def render(self, viewer: int | None = None) -> str:
        """Text view; ``viewer=None`` shows only public information, a seat adds its own secrets.

        Implementations pass ``self.check_viewer(viewer)`` on, so a bad viewer is a clear error."""
        raise NotImplementedError

    def observation(self, seat: int) -> np.ndarray:
        """The float32 vector of what ``seat`` may see, built by the game's ``encoder`` (its
        ``observation.py``: visibility is decided there and only there)."""
        seat = self.check_seat(seat)
        return self.game.encoder.encode(self, seat)

    def table_view(self, viewer: int | None = None) -> TableView:
        """What ``viewer`` (a seat, or None for a spectator: public information only) sees of the table,
        as plain data (:class:`~pirate_envs.drawing.table.TableView`), built by the game's ``view.py``."""
        return self.game.view_builder().table_view(self, self.check_viewer(viewer))

    @abstractmethod
    def _current_player(self) -> int:
        """The seat to act in a running game (the base answers ``TERMINAL`` at the end)."""
        raise NotImplementedError

    @abstractmethod
    def _legal_actions(self) -> list[int]:
        """The sorted legal actions of a running game (cached by the base until the next action)."""
        raise NotImplementedError

    @abstractmethod
    def _apply_action(self, action: int) -> None:
        """Apply a legal ``action`` and resolve chance up to the next decision (the base checked it)."""
        raise NotImplementedError

    @abstractmethod
    def _is_terminal(self) -> bool:
        """True once the game has ended by its own rules."""
        raise NotImplementedError

    @abstractmethod
    def _scores(self) -> list[float]:
        """The game's own score figures per seat."""
        raise NotImplementedError

    @abstractmethod
    def _returns(self) -> list[float]:
        """The final reward per seat at a natural end, in the game's ``reward_mode``."""
        raise NotImplementedError

    @abstractmethod
    def _phase_name(self) -> str:
        """The name of the decision asked in a running game."""
        raise NotImplementedError

    @abstractmethod
    def _winners(self) -> list[int]:
        """The seats that won at a natural end."""
        raise NotImplementedError

    @abstractmethod
    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        """Redraw, in place on a clone, everything hidden from ``seat`` (see :meth:`resample_hidden`)."""
        raise NotImplementedError
