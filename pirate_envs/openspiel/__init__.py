"""The four games as OpenSpiel games: ``import pirate_envs.openspiel`` registers them with ``pyspiel``.

Registered names: ``python_potsm_v0``, ``python_dead_mans_draw_v0``, ``python_madame_ching_v0`` and
``python_tortuga_v0``. Parameters are the engine's (``num_players`` and every rule option, same names and
defaults) plus ``infostate_history`` (decisions kept in the information-state tensor; -1: the default,
see :mod:`pirate_envs.core.infostate`)::

    import pyspiel
    import pirate_envs.openspiel  # registers the games
    game = pyspiel.load_game("python_potsm_v0", {"num_players": 3})

- Chance: every draw of the engine is an explicit chance node (:mod:`pirate_envs.core.chance`): a
  shuffle is dealt card by card, each node over the distinct cards it may be; dice, random seats and
  picks are nodes over their values. The games are distributed exactly as the engine's own.
- Observations: ``observation_tensor/string`` is the seat's observation (``state.observation(seat)``;
  the string lists its non-zero entries), ``information_state_tensor/string`` the perfect-recall
  information state of :class:`~pirate_envs.core.infostate.InfostateTracker`.
- ``resample_from_infostate(player, sampler)`` is the engine's ``resample_hidden`` (so ``ISMCTSBot`` runs).

A game added with :func:`pirate_envs.core.registry.register_env` joins with :func:`register_game` (the shipped
games are registered at import; ``GAME_NAMES`` lists them).

A game's type states sequential moves, imperfect information, explicit chance and terminal rewards; the
utility is zero-sum for two players of potsm and Madame Ching in ``reward_mode="score"`` (margins) and
general-sum otherwise (:func:`~pirate_envs.openspiel.bounds.is_zero_sum`).
"""

from __future__ import annotations

import copy
from typing import Any

import numpy as np

try:
    import pyspiel
except ImportError as exc:  # pragma: no cover - the extra is installed wherever the tests run
    raise ImportError(
        "pirate_envs.openspiel needs OpenSpiel: pip install -c constraints.txt -e '.[openspiel]' (open-spiel==2.0.2)"
    ) from exc

from pirate_envs.core.chance import ChanceStep, ScriptedRng
from pirate_envs.core.game import Game, State
from pirate_envs.core.infostate import InfostateTracker, _delta
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.openspiel.bounds import chance_outcome_bound, is_zero_sum, utility_bounds

__all__ = ["GAME_NAMES", "PirateSpielGame", "PirateSpielState", "engine_state", "register_game", "spiel_name"]

HISTORY_PARAM = "infostate_history"


def spiel_name(env_id: str) -> str:
    """The pyspiel name of a game: ``python_<env_id>``."""
    return f"python_{env_id}"


def engine_state(state: PirateSpielState) -> State | None:
    """The engine state inside an OpenSpiel state (None while the setup is being dealt)."""
    return state._core.engine


def _parameter_spec(game_cls: type[Game]) -> dict[str, Any]:
    spec: dict[str, Any] = {"num_players": game_cls.default_num_players}
    for option in game_cls.option_specs:
        spec[option.name] = option.default
    spec[HISTORY_PARAM] = -1
    return spec


def _game_type(game_cls: type[Game], utility: Any) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=spiel_name(game_cls.game_id),
        long_name=f"pirate_envs {game_cls.display_name or game_cls.game_id}",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=utility,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=max(game_cls.player_counts),
        min_num_players=min(game_cls.player_counts),
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_parameter_spec(game_cls),
    )


class PirateSpielGame(pyspiel.Game):
    """An OpenSpiel game over one of our engines (one player count and option set); one subclass per
    game sets ``game_cls`` and is what pyspiel loads."""

    game_cls: type[Game]
    # one more than the largest chance outcome id; None: the shipped game's bound (bounds.chance_outcome_bound)
    chance_bound: int | None = None

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        game_cls = self.game_cls
        params = dict(params or {})
        history = params.pop(HISTORY_PARAM, -1)
        engine = game_cls(**params)  # InvalidOptionError (a ValueError) names a bad option
        if isinstance(history, bool) or not isinstance(history, int) or history < -1:
            raise ValueError(
                f"{spiel_name(game_cls.game_id)}: {HISTORY_PARAM} must be -1 or an int >= 0, got {history!r}"
            )
        self.engine = engine
        self.history = None if history == -1 else history
        n = engine.num_players
        zero_sum = is_zero_sum(engine)
        low, high = utility_bounds(engine)
        utility = pyspiel.GameType.Utility.ZERO_SUM if zero_sum else pyspiel.GameType.Utility.GENERAL_SUM
        info = pyspiel.GameInfo(
            num_distinct_actions=engine.num_actions,
            max_chance_outcomes=self.chance_bound if self.chance_bound is not None else chance_outcome_bound(engine),
            num_players=n,
            min_utility=low,
            max_utility=high,
            utility_sum=0.0 if zero_sum else None,
            max_game_length=engine.max_decisions,
        )
        super().__init__(_game_type(game_cls, utility), info, {**params, HISTORY_PARAM: history})
        self._tracker_template = InfostateTracker(engine, self.history, strings=True)
        self._initial_core = _Core(self)

    def new_initial_state(self) -> PirateSpielState:
        return PirateSpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if params:
            raise ValueError(f"{self.get_type().short_name}: observer parameters are not supported; got {params}")
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        if iig_obs_type is not None and (
            not iig_obs_type.public_info or iig_obs_type.private_info != pyspiel.PrivateInfoType.SINGLE_PLAYER
        ):
            raise ValueError(
                f"{self.get_type().short_name}: only the seat's own observers exist (public_info=True, "
                "private_info=SINGLE_PLAYER, with or without perfect recall)"
            )
        size = self._tracker_template.size if perfect_recall else self.engine.observation_size
        return _Observer(self, perfect_recall, size)


class _Core:
    """Everything an OpenSpiel state holds, copied fast when pyspiel clones the state (it deep-copies
    the state's ``__dict__``): the engine state, the chance step in progress, the seats' histories."""

    __slots__ = ("engine", "game", "record", "step", "tracker")

    def __init__(self, game: PirateSpielGame) -> None:
        self.game = game
        self.engine: State | None = None
        self.tracker = game._tracker_template.clone()
        self.record: Any = None
        self.step: ChanceStep | None = ChanceStep(game.engine, None, None)
        self.settle()

    def settle(self) -> None:
        """If the chance step is resolved, take its engine state and log the decision that led to it."""
        step = self.step
        if step is None or not step.done:
            return
        first = self.engine is None
        self.engine, self.step = step.state, None
        if first:
            self.tracker.reset(self.engine)
        else:
            self.tracker.after(self.record, self.engine)
            self.record = None

    def __deepcopy__(self, memo: Any) -> _Core:
        new = object.__new__(_Core)
        new.game = self.game
        new.engine = self.engine.clone() if self.engine is not None else None
        if new.engine is not None:
            new.engine.rng = ScriptedRng()
        new.tracker = self.tracker.clone()
        new.record = self.record
        new.step = self.step.clone() if self.step is not None else None
        return new


class PirateSpielState(pyspiel.State):
    """An OpenSpiel state over an engine state (see the module doc)."""

    def __init__(self, game: PirateSpielGame) -> None:
        super().__init__(game)
        self._core = copy.deepcopy(game._initial_core)  # the setup's first chance node, computed once per game

    # --- pyspiel API ------------------------------------------------------------------------------
    def current_player(self) -> int:
        core = self._core
        if core.step is not None:
            return pyspiel.PlayerId.CHANCE
        seat = core.engine.current_player()
        return pyspiel.PlayerId.TERMINAL if seat < 0 else seat

    def _legal_actions(self, player: int) -> list[int]:
        return self._core.engine.legal_actions()

    def chance_outcomes(self) -> list[tuple[int, float]]:
        core = self._core
        outcomes = core.step.outcomes()
        bound = core.game.max_chance_outcomes()
        if outcomes[-1][0] >= bound:
            raise RuntimeError(
                f"{core.game.get_type().short_name}: chance outcome {outcomes[-1][0]} >= max_chance_outcomes {bound}"
            )
        return outcomes

    def _apply_action(self, action: int) -> None:
        core = self._core
        if core.step is not None:
            core.step.apply(int(action))
        else:
            state = core.engine
            core.record = core.tracker.before(state, int(action))
            core.step = ChanceStep(core.game.engine, state, int(action))
        core.settle()

    def _action_to_string(self, player: int, action: int) -> str:
        core = self._core
        if player == pyspiel.PlayerId.CHANCE:
            return core.step.describe(action) if core.step is not None else f"chance {action}"
        return core.game.engine.action_to_string(action)

    def is_terminal(self) -> bool:
        core = self._core
        return core.step is None and core.engine.is_terminal()

    def returns(self) -> list[float]:
        core = self._core
        if core.engine is None:
            return [0.0] * core.game.engine.num_players
        return [float(r) for r in core.engine.returns()]

    def __str__(self) -> str:
        engine = self._core.engine
        return "dealing the setup" if engine is None else str(engine)

    def resample_from_infostate(self, player_id: int, probability_sampler: Any) -> PirateSpielState:
        """A state ``player_id`` cannot tell from this one: the engine's ``resample_hidden`` for that seat
        (seeded from ``probability_sampler``), its history as that seat saw it."""
        core = self._core
        if core.step is not None:
            raise ValueError("resample_from_infostate: only at a decision or terminal node, not while chance is dealt")
        seed = int(probability_sampler() * (1 << 62))
        engine = core.engine.resample_hidden(int(player_id), seed)
        engine.rng = ScriptedRng()
        new = self.clone()
        new._core.engine = engine
        new._core.tracker = core.tracker.resampled(int(player_id), engine)
        return new


class _Observer:
    """pyspiel's observer protocol: ``tensor``, ``dict``, ``set_from`` and ``string_from``."""

    def __init__(self, game: PirateSpielGame, perfect_recall: bool, size: int) -> None:
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(size, np.float32)
        obs_size = game.engine.observation_size
        self.dict = {"observation": self.tensor[:obs_size]}
        if perfect_recall:
            self.dict["history"] = self.tensor[obs_size:]

    def set_from(self, state: PirateSpielState, player: int) -> None:
        engine = state._core.engine
        if engine is None:
            self.tensor.fill(0.0)
        elif self.perfect_recall:
            state._core.tracker.tensor(engine, player, out=self.tensor)
        else:
            self.tensor[:] = engine.observation(player)

    def string_from(self, state: PirateSpielState, player: int) -> str:
        engine = state._core.engine
        if engine is None:
            return f"seat {player}: the setup is being dealt"
        if self.perfect_recall:
            return state._core.tracker.string(player)
        obs = engine.observation(player)
        return f"seat {player} {_delta(np.zeros_like(obs), obs)}"


def register_game(env_id: str, max_chance_outcomes: int | None = None) -> str:
    """Register the game of ``env_id`` with pyspiel as ``python_<env_id>`` and return that name (idempotent).

    ``max_chance_outcomes`` is one more than the largest chance outcome id the game can produce at any player
    count and option (:mod:`pirate_envs.core.chance`: a card's int value for a shuffle or a choice, ``n - 1``
    for ``randrange(n)``). The shipped games have theirs in :mod:`pirate_envs.openspiel.bounds`; a game added
    with :func:`~pirate_envs.core.registry.register_env` must give it. pyspiel cannot unregister a game: the
    name stays registered until the process ends.
    """
    name = spiel_name(env_id)
    if env_id in _FACTORIES:
        return name
    game_cls = game_class(env_id)  # InvalidOptionError naming the registered env ids for an unknown one
    if max_chance_outcomes is None and env_id not in ENV_IDS:
        raise ValueError(f"register_game: {env_id!r} is not a shipped game; give its max_chance_outcomes")
    if max_chance_outcomes is not None and (type(max_chance_outcomes) is not int or max_chance_outcomes < 1):
        raise ValueError(f"register_game: max_chance_outcomes must be an int >= 1, got {max_chance_outcomes!r}")
    # pyspiel keeps each factory until the process ends; a class (as OpenSpiel's own Python games
    # register) outlives the interpreter's teardown, a plain function would be freed without the GIL.
    attributes = {"game_cls": game_cls, "chance_bound": max_chance_outcomes, "__module__": __name__}
    factory = type(f"{game_cls.__name__}Spiel", (PirateSpielGame,), attributes)
    _FACTORIES[env_id] = factory
    if name not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(game_cls, pyspiel.GameType.Utility.GENERAL_SUM), factory)
    return name


_FACTORIES: dict[str, type[PirateSpielGame]] = {}
GAME_NAMES = tuple(register_game(env_id) for env_id in ENV_IDS)
