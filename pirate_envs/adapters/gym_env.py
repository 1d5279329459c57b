"""The one Gymnasium single-agent adapter that serves every game: :class:`PirateGymEnv`.

One learner plays one seat of a multi-player game; the other seats are played inside ``step`` by
opponent policies, so every ``step`` goes from one learner decision to the next. The adapter
drives the rules engine directly (``game_class(env_id)(**options)``), not the AEC env.

- Observation: the learner seat's flat ``Box(float32)``, ``state.observation(seat)``.
- Action: ``Discrete(game.num_actions)``; :meth:`PirateGymEnv.action_masks` gives the legal mask
  (sb3-contrib's ``MaskablePPO`` reads it), and ``action_space.sample()`` draws a *legal* action
  of the current decision (so random agents and env checkers work). An action that is not one integer
  in ``[0, num_actions)`` always raises (``TypeError``, or ``IllegalActionError`` when out of range;
  numpy integers and one-value integer arrays are accepted), whatever the mode. An in-range illegal
  action ends the episode as a loss (``illegal_action="terminate"``, the default: reward
  ``ILLEGAL_ACTION_REWARD`` = -1, ``info["illegal_action"]`` True and an ``IllegalActionWarning``
  naming the legal actions, as PettingZoo's ``TerminateIllegalWrapper``) or raises
  :class:`~pirate_envs.core.errors.IllegalActionError` naming it and the legal ones
  (``illegal_action="raise"``, for debugging); the game is then unchanged.
- Reward: 0 until the end, then the learner seat's own ``state.returns()[seat]`` — also when the
  game ends on an opponent's move. A game cut at ``max_decisions`` ends with ``truncated=True``
  and reward 0.
- Info: the same keys with fixed shapes from ``reset`` on (zeros/False until the end): ``seat``,
  ``scores`` and ``returns`` (one float per seat), ``seat_won`` (one bool per seat: the winners;
  none after truncation or a TOR-705 end), ``is_success`` (the learner won), ``truncated``,
  ``illegal_action``.
- Seat: an int, or ``"random"`` to draw the learner's seat at every reset (one policy learns every
  seat). ``reset(options={"seat": k})`` overrides it for one episode.
- Opponents (see :func:`resolve_opponents`): ``"random"``, ``"heuristic"``, a checkpoint path, a
  :class:`~pirate_envs.policies.base.Policy`, a callable, an *opponent sampler* (any object with
  ``sample_opponent(rng)``, e.g. :class:`~pirate_envs.policies.selfplay.SelfPlayPool`, sampled again
  for every opponent seat at every reset), or a list with one of those per other seat, ordered by
  offset from the learner (entry 0 plays the seat right after the learner).
- Seeding: everything random — the game's own seed, the learner's seat, opponent sampling and the
  opponents' own draws — comes from the generator that ``reset(seed=...)`` seeds (None or an int >= 0).
- Copies: ``pickle`` and ``copy.deepcopy`` keep the game in progress (opponents must be picklable for
  ``pickle``); the copy continues exactly like the original.

Each game is registered with Gymnasium as ``pirate_envs/<Name>-v0`` (:func:`gym_id`), so
``gymnasium.make("pirate_envs/Potsm-v0", seat="random", opponents="heuristic")`` works too.
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces

from pirate_envs.adapters.checks import (
    DEFAULT_ILLEGAL_ACTION,
    ILLEGAL_ACTION_REWARD,
    RENDER_MODES,
    as_action_index,
    check_illegal_action,
    check_render_mode,
    check_seed,
    out_of_range,
    warn_illegal_action,
)
from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.game import Game, State
from pirate_envs.core.infostate import InfostateTracker, check_infostate_option
from pirate_envs.core.registry import feature_env_ids, game_class, registered_env_ids
from pirate_envs.drawing.render_modes import RENDER_FPS, TablePainter
from pirate_envs.policies.base import Policy, RandomPolicy, choose_action, resolve_policy

SEAT_CHOICES = "an int seat index or 'random'"
# A game that ends before the learner's first decision is replaced by a new one; this bounds it.
MAX_GAMES_WITHOUT_LEARNER_TURN = 100


def gym_id(env_id: str) -> str:
    """The Gymnasium id of a game: ``potsm_v0`` -> ``pirate_envs/Potsm-v0``,
    ``dead_mans_draw_v0`` -> ``pirate_envs/DeadMansDraw-v0``."""
    base, sep, version = env_id.rpartition("_v")
    if not sep or not version.isdigit():
        raise InvalidOptionError(f"env id {env_id!r} does not end in _v<number>")
    name = "".join(part.capitalize() for part in base.split("_"))
    return f"pirate_envs/{name}-v{version}"


def register_gym_envs() -> None:
    """Register every game the registry knows with Gymnasium (idempotent): the shipped games of ``ENV_IDS``
    at import, and a game added later with ``pirate_envs.core.registry.register_env`` once this is called again."""
    for env_id in registered_env_ids():
        name = gym_id(env_id)
        if name not in gymnasium.registry:
            gymnasium.register(id=name, entry_point=f"{__name__}:PirateGymEnv", kwargs={"env_id": env_id})


def make_gym(env_id: str, seat: int | str = 0, opponents: Any = "random", **options: Any) -> PirateGymEnv:
    """A Gymnasium env in which a learner plays ``seat`` of ``env_id`` against ``opponents``.

    ``options`` are the game's rule options (``num_players`` ...) plus the env options
    ``render_mode`` (``"ansi"``/``"human"``/``"rgb_array"``), ``render_seat`` (None: spectator) and
    ``illegal_action`` (``"terminate"``, the default, or
    ``"raise"``), and ``action_features`` (True: the observation is followed by the game's per-action
    features, :meth:`~pirate_envs.core.game.Game.observation_with_action_features`; potsm has them).
    See the module docstring for seats, opponents, rewards and seeding.
    """
    return PirateGymEnv(env_id, seat=seat, opponents=opponents, **options)


class LegalActionSpace(spaces.Discrete):
    """``Discrete(n)`` whose ``sample()`` without a mask draws among the legal actions of the env's
    current decision (as suggested for masked envs in sb3-contrib issue #145).

    It pickles and copies as a plain ``Discrete(n)`` (the link to the env is not data), so saved
    models and subprocess vec envs see an ordinary space.
    """

    def __init__(self, n: int, mask_source: Callable[[], np.ndarray | None]) -> None:
        super().__init__(n)
        self._mask_source = weakref.WeakMethod(mask_source)

    def sample(self, mask: np.ndarray | None = None, probability: np.ndarray | None = None) -> np.int64:
        if mask is None and probability is None:
            source = self._mask_source()
            mask = source() if source is not None else None
        return super().sample(mask=mask, probability=probability)

    def __reduce__(self):
        return (spaces.Discrete, (int(self.n),))


def _is_sampler(spec: Any) -> bool:
    return callable(getattr(spec, "sample_opponent", None))


class PirateGymEnv(gymnasium.Env):
    """Single-agent Gymnasium view of any pirate_envs game (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"render_modes": list(RENDER_MODES), "render_fps": RENDER_FPS}

    def __init__(
        self,
        env_id: str,
        seat: int | str = 0,
        opponents: Any = "random",
        render_mode: str | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        render_seat: int | None = None,
        action_features: bool = False,
        infostate: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        if env_id not in registered_env_ids():
            raise InvalidOptionError(
                f"unknown env id {env_id!r}; registered env ids: {', '.join(registered_env_ids())}"
            )
        check_render_mode(env_id, render_mode)
        check_illegal_action(env_id, illegal_action)
        self.env_id = env_id
        self.game: Game = game_class(env_id)(**options)
        self.num_players = self.game.num_players
        self.render_mode = render_mode
        self._painter = TablePainter(self.game, render_mode, render_seat)  # render_seat: None = spectator
        self._captions = self._painter.captions  # the picture's caption needs each action before it is played
        self.illegal_action = illegal_action
        self._num_actions = self.game.num_actions
        self.seat_option = self._check_seat(seat)
        self.metadata = {**self.metadata, "name": env_id}
        self.action_features = self._check_action_features(action_features)
        # infostate=True: the learner observes its perfect-recall information state (docs/engine.md)
        self._infostate = InfostateTracker(self.game) if check_infostate_option(env_id, infostate) else None
        if self._infostate is not None and self.action_features:
            raise InvalidOptionError(f"{env_id}: infostate=True and action_features=True cannot be combined")
        low, high = self.game.observation_low, self.game.observation_high
        if self.action_features:
            low, high = min(low, self.game.action_feature_low), max(high, self.game.action_feature_high)
        self.observation_space = spaces.Box(
            low=low,
            high=high,
            shape=(self.game.augmented_observation_size,) if self.action_features else self.game.observation_shape,
            dtype=np.float32,
        )
        if self._infostate is not None:
            self.observation_space = self._infostate.space()
        self.action_space = LegalActionSpace(self.game.num_actions, self._current_mask)
        self._zero_mask = np.zeros(self.game.num_actions, dtype=np.int8)
        self._policy_cache: dict[str, Policy] = {}
        self._opponent_spec = self._check_opponents(opponents)
        self._pending_opponents: Any = None
        self.state: State | None = None
        self.seat: int = self.seat_option if isinstance(self.seat_option, int) else 0
        self._seat_policies: dict[int, Policy] = {}
        self._episode_over = True
        n = self.num_players
        # every info key from reset on, with its value before the end (fixed shapes; never mutated)
        self._info_template: dict[str, Any] = {
            "seat": self.seat,
            "scores": [0.0] * n,
            "returns": [0.0] * n,
            "seat_won": [False] * n,
            "is_success": False,
            "truncated": False,
            "illegal_action": False,
        }

    # --- copies ----------------------------------------------------------------------------------
    def __getstate__(self) -> dict[str, Any]:
        state = self.__dict__.copy()
        # the legal-action space pickles as a plain Discrete; keep its RNG and rebuild it on load
        state["action_space"] = None
        state["_action_space_rng"] = self.action_space._np_random
        return state

    def __setstate__(self, state: dict[str, Any]) -> None:
        rng = state.pop("_action_space_rng")
        self.__dict__.update(state)
        self.action_space = LegalActionSpace(self._num_actions, self._current_mask)
        self.action_space._np_random = rng

    # --- configuration -------------------------------------------------------------------------
    def _check_action_features(self, value: Any) -> bool:
        if not isinstance(value, (bool, np.bool_)):
            raise InvalidOptionError(f"{self.env_id}: action_features must be True or False, got {value!r}")
        if value and not self.game.action_feature_size:
            raise InvalidOptionError(
                f"{self.env_id} defines no per-action features; action_features=True works with: "
                f"{', '.join(feature_env_ids()) or 'no game yet'}"
            )
        return bool(value)

    def _check_seat(self, seat: int | str) -> int | str:
        if seat == "random":
            return "random"
        if isinstance(seat, (bool, np.bool_)) or not isinstance(seat, (int, np.integer)):
            raise InvalidOptionError(f"{self.env_id}: seat must be {SEAT_CHOICES}; got {seat!r}")
        if not 0 <= int(seat) < self.num_players:
            raise InvalidOptionError(
                f"{self.env_id}: seat must be in [0, {self.num_players}) for {self.num_players} players "
                f"or 'random'; got {seat!r}"
            )
        return int(seat)

    def _check_opponents(self, opponents: Any) -> Any:
        """Validate an opponents spec now (so errors surface at construction) and return it."""
        if isinstance(opponents, (list, tuple)):
            if len(opponents) != self.num_players - 1:
                raise InvalidOptionError(
                    f"{self.env_id}: an opponents list needs one entry per other seat "
                    f"({self.num_players - 1} for {self.num_players} players); got {len(opponents)}"
                )
            for entry in opponents:
                if isinstance(entry, (list, tuple)):
                    raise InvalidOptionError(f"{self.env_id}: an opponents list cannot nest lists; got {entry!r}")
                self._check_opponents(entry)
            return list(opponents)
        if not _is_sampler(opponents):
            self._policy(opponents)  # resolves and caches it, raising on a bad spec
        return opponents

    def set_opponents(self, opponents: Any) -> None:
        """Use ``opponents`` from the next ``reset`` on (the game in progress keeps its players)."""
        self._pending_opponents = self._check_opponents(opponents)

    @property
    def opponents(self) -> Any:
        return self._opponent_spec if self._pending_opponents is None else self._pending_opponents

    def _policy(self, spec: Any) -> Policy:
        """Resolve one opponent spec to a policy; string/path specs are resolved once and cached."""
        if isinstance(spec, (str, Path)):
            key = str(spec)
            if key not in self._policy_cache:
                policy = resolve_policy(spec, self.env_id, self.num_players, **self._rule_options())
                self._check_compatible(policy, key)
                self._policy_cache[key] = policy
            return self._policy_cache[key]
        policy = resolve_policy(spec, self.env_id, self.num_players, **self._rule_options())
        self._check_compatible(policy, repr(spec))
        return policy

    def _rule_options(self) -> dict[str, Any]:
        return dict(self.game.options)

    def _check_compatible(self, policy: Policy, what: str) -> None:
        check = getattr(policy, "check_compatible", None)
        if callable(check):
            check(self.game.observation_shape, self.game.num_actions, where=f"{self.env_id} ({what})")

    def _draw_seat_policies(self, rng: np.random.Generator) -> dict[int, Policy]:
        spec = self.opponents
        n = self.num_players
        per_offset = spec if isinstance(spec, list) else [spec] * (n - 1)
        policies = {}
        for offset, entry in enumerate(per_offset, start=1):
            chosen = entry.sample_opponent(rng) if _is_sampler(entry) else entry
            policies[(self.seat + offset) % n] = self._policy(chosen)
        return policies

    # --- episode -------------------------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """Start a new game; ``options`` may hold ``seat`` (this episode only) and ``opponents``."""
        self.begin_reset(seed=seed, options=options)
        self.play_opponents()
        return self.finish_reset()

    def begin_reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        """The start of :meth:`reset`: seat, opponents and a new game, up to the opponents' first moves."""
        super().reset(seed=check_seed(self.env_id, seed))
        rng = self.np_random
        options = dict(options or {})
        unknown = sorted(set(options) - {"seat", "opponents"})
        if unknown:
            raise InvalidOptionError(f"{self.env_id}: unknown reset option(s) {unknown}; allowed: 'seat', 'opponents'")
        if "opponents" in options:
            self.set_opponents(options["opponents"])
        if self._pending_opponents is not None:
            self._opponent_spec, self._pending_opponents = self._pending_opponents, None
        seat = self._check_seat(options["seat"]) if "seat" in options else self.seat_option
        self.seat = int(rng.integers(self.num_players)) if seat == "random" else seat
        self._seat_policies = self._draw_seat_policies(rng)
        self._games_started = 0
        self._new_game()

    def _new_game(self) -> None:
        if self._games_started >= MAX_GAMES_WITHOUT_LEARNER_TURN:
            raise RuntimeError(
                f"{self.env_id}: {MAX_GAMES_WITHOUT_LEARNER_TURN} games in a row ended before seat {self.seat} "
                "had a decision"
            )
        self._games_started += 1
        self.state = self.game.new_initial_state(int(self.np_random.integers(0, 2**63)))
        if self._infostate is not None:
            self._infostate.reset(self.state)
        self._painter.reset()

    def finish_reset(self) -> tuple[np.ndarray, dict[str, Any]]:
        """The end of :meth:`reset` once no opponent is to act (a game that ended before the learner's
        first decision is replaced by a new one)."""
        while self.state.is_terminal():
            self._new_game()
            self.play_opponents()
        self._episode_over = False
        if self.render_mode == "human":
            self.render()
        self._info_template = {**self._info_template, "seat": self.seat}
        return self._observe(), dict(self._info_template)

    def step(self, action: Any):
        ended = self.apply_learner_action(action)
        if ended is not None:
            return ended
        self.play_opponents()
        return self.finish_step()

    # --- the parts of step and reset, for stepping many envs together (training/stepper.py) ---
    def apply_learner_action(self, action: Any) -> tuple | None:
        """The learner's part of :meth:`step`; returns the step's result when an illegal action ended the
        episode (``illegal_action="terminate"``), else None (then the opponents act, then :meth:`finish_step`)."""
        if self.state is None or self._episode_over:
            raise RuntimeError(f"{self.env_id}: step() called on a finished episode; call reset() first")
        if type(action) is not int:
            action = as_action_index(self.env_id, f"the learner (seat {self.seat})", action, self._num_actions)
        try:
            self._apply(action)
        except IllegalActionError as err:
            if self.illegal_action == "raise" or out_of_range(action, self._num_actions):
                raise IllegalActionError(f"{self.env_id}: learner (seat {self.seat}): {err}") from None
            return self._end_on_illegal_action(err)
        return None

    def waiting_opponent(self) -> tuple[int, Policy] | None:
        """The opponent seat to act now and its policy; None when the learner is to act or the game is over."""
        state = self.state
        if state.is_terminal():
            return None
        seat = state.current_player()
        return None if seat == self.seat else (seat, self._seat_policies[seat])

    def apply_opponent_action(self, seat: int, action: int) -> None:
        """Play ``action`` for the opponent at ``seat`` (the seat :meth:`waiting_opponent` named)."""
        try:
            self._apply(action)
        except IllegalActionError as err:
            policy = self._seat_policies[seat]
            raise IllegalActionError(f"{self.env_id}: opponent {policy!r} at seat {seat}: {err}") from None

    def finish_step(self) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        """The end of :meth:`step` once no opponent is to act."""
        state = self.state
        reward, terminated, truncated, info = 0.0, False, False, dict(self._info_template)
        if state.is_terminal():
            self._episode_over = True
            truncated = state.is_truncated()
            terminated = not truncated
            reward = 0.0 if truncated else float(state.returns()[self.seat])
            info.update(self._final_info(state))
        if self.render_mode == "human":
            self.render()
        return self._observe(), reward, terminated, truncated, info

    def _end_on_illegal_action(self, error: IllegalActionError):
        """``illegal_action="terminate"``: the episode ends as a loss (the game itself stays as it was)."""
        warn_illegal_action(
            self.env_id, error, f"the episode ends with reward {ILLEGAL_ACTION_REWARD:g} for the learner"
        )
        self._episode_over = True
        info = {**self._info_template, "scores": [float(s) for s in self.state.scores()], "illegal_action": True}
        return self._observe(), ILLEGAL_ACTION_REWARD, True, False, info

    def play_opponents(self) -> None:
        """Let the opponents act until the learner is to act or the game is over."""
        rng = self.np_random
        while (turn := self.waiting_opponent()) is not None:
            seat, policy = turn
            self.apply_opponent_action(seat, self.opponent_action(seat, policy, rng))

    def opponent_action(self, seat: int, policy: Policy, rng: np.random.Generator) -> int:
        """What ``policy`` plays for ``seat`` now."""
        state = self.state
        if type(policy) is RandomPolicy:  # same draw as RandomPolicy.act, without building an observation
            legal = state.legal_actions()
            return legal[rng.integers(len(legal))]
        return choose_action(policy, state, seat, rng)

    def _final_info(self, state: State) -> dict[str, Any]:
        # the engine's winners: none after truncation or when a game ends without one (TOR-705)
        winners = state.winners()
        return {
            "scores": [float(s) for s in state.scores()],
            "returns": [float(r) for r in state.returns()],
            "seat_won": [seat in winners for seat in range(self.num_players)],
            "is_success": self.seat in winners,
            "truncated": state.is_truncated(),
        }

    def _apply(self, action: int) -> None:
        """``state.apply_action``, with the information state's record of it (``infostate=True``) and the
        picture's caption (``rgb_array``) taken from the state before it."""
        state = self.state
        if self._infostate is None and not self._captions:
            state.apply_action(action)
            return
        caption = self._painter.caption(state, action) if self._captions else None
        record = None if self._infostate is None else self._infostate.before(state, action)
        state.apply_action(action)
        if record is not None:
            self._infostate.after(record, state)
        if caption is not None:
            self._painter.last_action = caption

    def _observe(self) -> np.ndarray:
        if self._infostate is not None:
            return self._infostate.tensor(self.state, self.seat)
        observation = self.state.observation(self.seat)
        if self.action_features:
            mask = self._zero_mask if self._episode_over else self.state.legal_action_mask()
            return self.game.observation_with_action_features(observation, mask)
        return np.array(observation, dtype=np.float32)

    def _current_mask(self) -> np.ndarray | None:
        if self.state is None or self._episode_over:
            return None
        return self.state.legal_action_mask()

    def action_masks(self) -> np.ndarray:
        """Legal actions of the learner's current decision as a bool vector (all False once the game is over)."""
        if self.state is None:
            raise RuntimeError(f"{self.env_id}: call reset() before action_masks()")
        if self._episode_over:
            return self._zero_mask.astype(bool)
        return self.state.legal_action_mask().astype(bool)

    # --- display -------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """Text modes: the learner seat's view (its own secrets included, nobody else's); ``rgb_array``:
        the drawn table of the spectator (public information only). ``render_seat`` picks the seat for both."""
        return self._painter.render(self.state, self.seat)

    def close(self) -> None:
        pass

    def __repr__(self) -> str:
        return f"PirateGymEnv({self.env_id!r}, seat={self.seat_option!r}, num_players={self.num_players})"
