"""The one PettingZoo AEC adapter that serves every game.

``PirateAECEnv(game_cls, **options)`` binds any :class:`~pirate_envs.core.game.Game` to the
PettingZoo AEC API the way PettingZoo's classic envs do: agents ``player_0..player_{n-1}``,
dict observations ``{"observation": Box(float32), "action_mask": Box(int8)}`` (an all-zero mask
for every seat that is not to act), rewards only from ``state.returns()`` at the end,
truncation at the game's ``max_decisions``, and text rendering. ``wrap_aec`` adds PettingZoo's
order enforcing (the public ``env()``).

Actions (see :mod:`pirate_envs.adapters.checks`): anything that is not one integer in
``[0, num_actions)`` is always an error (``TypeError``, or ``IllegalActionError`` for an integer
out of range) and changes nothing. An in-range illegal action, with ``illegal_action="terminate"``
(the default, PettingZoo's ``TerminateIllegalWrapper`` convention that clients sampling without the
mask rely on), ends the game: the offender gets -1, the others 0, every agent is terminated, the
offender's ``info["illegal_action"]`` is True and an :class:`IllegalActionWarning` names the action
and the legal ones. With ``illegal_action="raise"`` (for debugging) it raises ``IllegalActionError``
naming the action, the phase and the legal actions, and the game is unchanged.

Infos: every agent's ``infos`` have the same keys with fixed shapes on every step, from ``reset`` on
(Tianshou's replay buffer stores them as arrays): ``scores`` (one float per seat), ``won`` (this
agent's own result), ``truncated``, ``illegal_action`` and a game's own end-of-game facts
(``state.final_info()``, numeric), all zero/False until the game ends.

An unknown agent name raises :class:`UnknownAgentError` (a ``KeyError`` and ``ValueError``) naming
the agents; ``reset(seed=...)`` takes None or a non-negative int. Once the game is over and every agent
has stepped its ``None`` out, another ``step`` (``None`` or an action) raises :class:`GameOverError` saying
so and that ``reset()`` starts a new game (PettingZoo's own order enforcing only logs a warning).
``pickle``/``copy.deepcopy`` of the env (wrapped or raw) keep the game in progress: the copy continues
exactly like the original.

The layer is lean (issue 23): ``env()`` wraps the env in :class:`OrderEnforcingWrapper`, a subclass of
PettingZoo's that keeps its checks (``step``/``observe``/``last``/``agent_iter``/``render`` before
``reset`` raise a clear ``AssertionError``; ``agent_iter`` insists on a ``step`` per turn) at one flag
test each, with no ``__getattr__`` hop on those calls. The env tracks the acting seat itself, builds
``rewards``/``_cumulative_rewards`` and the end-of-game ``infos`` once at ``reset`` and once at the end
(they do not change in between), and every ``observe`` returns fresh arrays (the engine's new
observation vector and a new mask) that the caller may keep or modify.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers
from pettingzoo.utils.env_logger import EnvLogger
from pettingzoo.utils.wrappers.order_enforcing import AECOrderEnforcingIterable, AECOrderEnforcingIterator

from pirate_envs.adapters.checks import (
    DEFAULT_ILLEGAL_ACTION,
    ILLEGAL_ACTION_REWARD,
    RENDER_MODES,
    IllegalActionWarning,
    UnknownAgentError,
    as_action_index,
    check_illegal_action,
    check_render_mode,
    check_seed,
    out_of_range,
    unknown_agent,
    warn_illegal_action,
    zeros_like_info,
)
from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.game import Game, State
from pirate_envs.core.infostate import InfostateTracker, check_infostate_option
from pirate_envs.drawing.render_modes import RENDER_FPS, TablePainter
from pirate_envs.drawing.table import seat_name

__all__ = [
    "GameOverError",
    "IllegalActionWarning",
    "OrderEnforcingWrapper",
    "PirateAECEnv",
    "UnknownAgentError",
    "agent_name",
    "make_env_functions",
    "wrap_aec",
]


agent_name = seat_name  # the agent of a seat: player_<seat>, as the table views name it


class GameOverError(RuntimeError):
    """``step()`` after the game ended and every agent stepped its ``None`` out: nothing is left to step."""

    def __init__(self, owner: str) -> None:
        super().__init__(
            f"{owner}: step() called after the game ended and every agent has left it (each stepped None once); "
            "call reset() to start a new game"
        )


class PirateAECEnv(AECEnv):
    """PettingZoo AEC environment over any pirate_envs game (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "render_fps": RENDER_FPS,
        "name": "pirate_envs",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        game_cls: type[Game],
        render_mode: str | None = None,
        illegal_action: str = DEFAULT_ILLEGAL_ACTION,
        render_seat: int | None = None,
        infostate: bool = False,
        **options: Any,
    ) -> None:
        super().__init__()
        check_render_mode(game_cls.game_id, render_mode)
        check_illegal_action(game_cls.game_id, illegal_action)
        self.game = game_cls(**options)
        # infostate=True: the observation is the seat's perfect-recall information state (docs/engine.md)
        self._infostate = InfostateTracker(self.game) if check_infostate_option(game_cls.game_id, infostate) else None
        self.metadata = {**self.metadata, "name": game_cls.game_id}
        self.render_mode = render_mode
        self._painter = TablePainter(self.game, render_mode, render_seat)  # render_seat: None = spectator
        self._captions = self._painter.captions  # the picture's caption needs each action before it is played
        self.illegal_action = illegal_action
        self._raise_illegal = illegal_action == "raise"
        self._owner = game_cls.game_id
        self._num_actions = self.game.num_actions
        n = self.game.num_players
        self.possible_agents = [agent_name(s) for s in range(n)]
        self.agents = self.possible_agents[:]
        self._seat = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        # One space object per kind, shared by every seat (PettingZoo compares them per agent).
        obs_space = spaces.Dict(
            {
                "observation": (
                    spaces.Box(
                        low=self.game.observation_low,
                        high=self.game.observation_high,
                        shape=self.game.observation_shape,
                        dtype=np.float32,
                    )
                    if self._infostate is None
                    else self._infostate.space()
                ),
                "action_mask": spaces.Box(low=0, high=1, shape=(self.game.num_actions,), dtype=np.int8),
            }
        )
        act_space = spaces.Discrete(self.game.num_actions)
        self.observation_spaces = {agent: obs_space for agent in self.possible_agents}
        self.action_spaces = {agent: act_space for agent in self.possible_agents}
        self._info_template = self._build_info_template()
        self._seed_source = np.random.default_rng()
        self._over = True
        self._acting = -1  # the seat to act, -1 before reset and once the game is over
        self.state: State | None = None

    def _build_info_template(self) -> dict[str, Any]:
        """Every info key with its value before the end (zeros): built once per env."""
        extra: dict[str, Any] = {}
        if callable(getattr(self.game.state_class, "final_info", None)):
            # the game's end-of-game facts have a fixed structure: take it from any state
            extra = zeros_like_info(self.game.new_initial_state(0).final_info())
        n = self.game.num_players
        return {"scores": [0.0] * n, "won": False, "truncated": False, "illegal_action": False, **extra}

    # --- spaces --------------------------------------------------------------------------------
    def observation_space(self, agent: str) -> spaces.Space:
        try:
            return self.observation_spaces[agent]
        except (KeyError, TypeError):
            raise unknown_agent(self._owner, agent, self.possible_agents) from None

    def action_space(self, agent: str) -> spaces.Space:
        try:
            return self.action_spaces[agent]
        except (KeyError, TypeError):
            raise unknown_agent(self._owner, agent, self.possible_agents) from None

    # --- episode -------------------------------------------------------------------------------
    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """Start a new game. ``seed`` (None or an int >= 0) fixes it and the seeds of the following resets."""
        seed = check_seed(self._owner, seed)
        if seed is not None:
            self._seed_source = np.random.default_rng(seed)
        game_seed = int(self._seed_source.integers(0, 2**63))
        state = self.state = self.game.new_initial_state(game_seed)
        if self._infostate is not None:
            self._infostate.reset(state)
        self._painter.reset()
        self._over = False
        self.agents = self.possible_agents[:]
        # Rewards, terminations, truncations and infos do not change until the game ends (``_finish``,
        # ``_end_on_illegal_action``): built here once, not on every step.
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: dict(self._info_template) for agent in self.agents}
        self._acting = state.current_player()
        self.agent_selection = self.possible_agents[self._acting]

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        """``agent``'s observation vector and action mask (all zeros unless ``agent`` is to act), both new arrays."""
        try:
            seat = self._seat[agent]
        except (KeyError, TypeError):
            raise unknown_agent(self._owner, agent, self.possible_agents) from None
        state = self.state
        if state is None:
            raise AssertionError(f"{self._owner}: reset() needs to be called before observe")
        return {
            "observation": state.observation(seat) if self._infostate is None else self._infostate.tensor(state, seat),
            "action_mask": (
                state.legal_action_mask() if seat == self._acting else np.zeros(self._num_actions, dtype=np.int8)
            ),
        }

    def last(self, observe: bool = True) -> tuple[dict[str, np.ndarray] | None, float, bool, bool, dict[str, Any]]:
        """PettingZoo's ``last()`` for ``agent_selection`` (the acting seat's observation straight from the engine)."""
        agent = self.agent_selection
        if observe:
            acting = self._acting
            if acting >= 0 and agent is self.possible_agents[acting]:  # always so while the game runs
                state = self.state
                observation = {
                    "observation": (
                        state.observation(acting) if self._infostate is None else self._infostate.tensor(state, acting)
                    ),
                    "action_mask": state.legal_action_mask(),
                }
            else:
                observation = self.observe(agent)
        else:
            observation = None
        return (
            observation,
            self._cumulative_rewards[agent],
            self.terminations[agent],
            self.truncations[agent],
            self.infos[agent],
        )

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self._over:  # every agent is terminated or truncated: each steps None once to leave
            if not self.agents:
                raise GameOverError(self._owner)
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = as_action_index(self._owner, agent, action, self._num_actions)
        state = self.state
        record = None if self._infostate is None else self._infostate.before(state, action)
        caption = self._painter.caption(state, action) if self._captions else None
        try:
            state.apply_action(action)  # IllegalActionError (state unchanged) if bad
        except IllegalActionError as err:
            if self._raise_illegal or out_of_range(action, self._num_actions):
                raise
            self._end_on_illegal_action(agent, err)
            return
        if record is not None:
            self._infostate.after(record, state)
        if caption is not None:
            self._painter.last_action = caption
        # No reward before the end: rewards and cumulative rewards stay the zeros set at reset.
        seat = state.current_player()
        if seat >= 0:
            self._acting = seat
            self.agent_selection = self.possible_agents[seat]
        else:
            self._finish(agent)
        if self.render_mode == "human":
            self.render()

    def _finish(self, last_agent: str) -> None:
        """The game has ended after ``last_agent``'s move: final rewards, terminations or truncations, infos."""
        state = self.state
        self._over = True
        self._acting = -1
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards[last_agent] = 0.0
        scores = [float(s) for s in state.scores()]
        truncated = state.is_truncated()
        if truncated:
            self.truncations = dict.fromkeys(self.agents, True)
        else:
            self.terminations = dict.fromkeys(self.agents, True)
            for seat, value in enumerate(state.returns()):
                self.rewards[agent_name(seat)] = float(value)
        # ``won`` is this agent's own result (several winners in team games, none after truncation).
        won = set(state.winners())
        extra = {}
        final_info = getattr(state, "final_info", None)  # optional per-game end-of-game facts
        if final_info is not None and not truncated:
            extra = final_info()
        template = self._info_template
        for agent in self.possible_agents:
            self.infos[agent] = {
                **template,
                "scores": scores,
                "won": self._seat[agent] in won,
                "truncated": truncated,
                **extra,
            }
        # Every agent is now done; let them observe their final reward in seat order.
        self.agent_selection = self.agents[(self._seat[last_agent] + 1) % len(self.agents)]
        self._accumulate_rewards()

    def _end_on_illegal_action(self, offender: str, error: IllegalActionError) -> None:
        """``illegal_action="terminate"``: the game ends, -1 for the offender, 0 for the others."""
        warn_illegal_action(
            self._owner, error, f"the game ends with {ILLEGAL_ACTION_REWARD:g} for {offender} and 0 for the others"
        )
        self._over = True
        self._acting = -1
        self._cumulative_rewards[offender] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self.rewards[offender] = ILLEGAL_ACTION_REWARD
        self.terminations = dict.fromkeys(self.agents, True)
        scores = [float(s) for s in self.state.scores()]
        template = self._info_template
        for agent in self.possible_agents:
            self.infos[agent] = {**template, "scores": scores, "illegal_action": agent == offender}
        self.agent_selection = self.agents[(self._seat[offender] + 1) % len(self.agents)]
        self._accumulate_rewards()

    # --- display -------------------------------------------------------------------------------
    def render(self) -> str | np.ndarray | None:
        """The public table (no seat's secrets: every agent of this env may be looking), unless
        ``render_seat`` names the seat whose cards are shown; ``rgb_array`` draws it."""
        return self._painter.render(self.state, None)

    def close(self) -> None:
        pass


def _forwarded(name: str) -> property:
    """``wrapper.<name>``: the wrapped env's attribute after reset; before it, PettingZoo's AttributeError."""

    def get(self: Any) -> Any:
        if not self._has_reset:
            raise AttributeError(f"{name} cannot be accessed before reset")
        return getattr(self.env, name)

    def set_(self: Any, value: Any) -> None:
        setattr(self.env, name, value)

    return property(get, set_, doc=f"The wrapped env's ``{name}`` (set there too).")


class OrderEnforcingWrapper(wrappers.OrderEnforcingWrapper):
    """PettingZoo's order enforcing at one flag test per call on the hot path.

    PettingZoo's wrapper forwards ``last()``, ``agent_iter()`` and every attribute read through
    ``__getattr__`` (``last()`` alone reads five attributes: about a third of a step's cost in our
    envs). This subclass keeps its checks and errors — ``step``, ``observe``, ``last``,
    ``agent_iter``, ``render`` and ``state`` before ``reset`` raise ``AssertionError`` naming the call,
    ``rewards``/``agents``/... before ``reset`` raise ``AttributeError``, ``agent_iter`` insists on a
    ``step`` per turn, ``step`` with no agent left warns — but sends ``last``/``observe``/``step`` and
    the ``agent_iter`` iterator straight to the wrapped env, and reads the per-step attributes
    (``agent_selection``, ``agents``, ``rewards``, ``terminations``, ``truncations``, ``infos``,
    ``_cumulative_rewards``) from it through properties (assigning one sets it on the wrapped env).
    Other attribute reads still go through PettingZoo's ``__getattr__``.
    """

    agent_selection = _forwarded("agent_selection")
    agents = _forwarded("agents")
    rewards = _forwarded("rewards")
    terminations = _forwarded("terminations")
    truncations = _forwarded("truncations")
    infos = _forwarded("infos")
    _cumulative_rewards = _forwarded("_cumulative_rewards")

    def last(self, observe: bool = True) -> tuple[Any, float, bool, bool, dict[str, Any]]:
        if not self._has_reset:
            raise AssertionError("reset() needs to be called before last().")
        return self.env.last(observe)

    def observe(self, agent: str) -> Any:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return self.env.observe(agent)

    def step(self, action: Any) -> None:
        env = self.env
        if self._has_reset and env.agents:
            self._has_updated = True
            env.step(action)
        elif self._has_reset:  # PettingZoo's own wrapper only logs a warning here and goes on
            raise GameOverError(str(env))
        else:  # before reset: PettingZoo's own error
            super().step(action)

    def agent_iter(self, max_iter: int = 2**63) -> AECOrderEnforcingIterable:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return _AgentIterable(self, max_iter)

    def __str__(self) -> str:
        return str(self.env)  # as PettingZoo's own wrapper prints: the env's name


class _AgentIterable(AECOrderEnforcingIterable):
    def __iter__(self) -> _AgentIterator:
        return _AgentIterator(self.env, self.max_iter)


class _AgentIterator(AECOrderEnforcingIterator):
    """PettingZoo's order-enforcing agent iterator, reading the wrapped env's attributes directly."""

    def __init__(self, wrapper: OrderEnforcingWrapper, max_iter: int) -> None:
        super().__init__(wrapper, max_iter)
        self._inner = wrapper.env

    def __next__(self) -> str:
        inner = self._inner
        if not inner.agents or self.iters_til_term <= 0:
            raise StopIteration
        self.iters_til_term -= 1
        wrapper = self.env
        if not wrapper._has_updated:
            raise AssertionError("need to call step() or reset() in a loop over `agent_iter`")
        wrapper._has_updated = False
        return inner.agent_selection


def wrap_aec(env: PirateAECEnv) -> AECEnv:
    """Stack PettingZoo's standard classic-env wrapper (order enforcing, the lean :class:`OrderEnforcingWrapper`).

    Illegal actions are handled inside :class:`PirateAECEnv` (``illegal_action``), not by PettingZoo's
    ``TerminateIllegalWrapper``: that one gives no message with the legal actions, indexes the mask
    with whatever it is handed, and every wrapper layer costs each attribute access a ``__getattr__``
    hop (measured: ~15% of AEC throughput). No ``AssertOutOfBoundsWrapper`` for the same reasons:
    the env itself rejects out-of-range actions with a clear error.
    """
    return OrderEnforcingWrapper(env)


def make_env_functions(game_cls: type[Game]):
    """The ``env``/``raw_env`` pair of a public versioned module (``potsm_v0.env`` ...)."""

    def raw_env(
        render_mode: str | None = None, illegal_action: str = DEFAULT_ILLEGAL_ACTION, **options: Any
    ) -> PirateAECEnv:
        return PirateAECEnv(game_cls, render_mode=render_mode, illegal_action=illegal_action, **options)

    def env(render_mode: str | None = None, illegal_action: str = DEFAULT_ILLEGAL_ACTION, **options: Any) -> AECEnv:
        return wrap_aec(raw_env(render_mode=render_mode, illegal_action=illegal_action, **options))

    raw_env.__doc__ = (
        f"The unwrapped PettingZoo AEC env of {game_cls.game_id}; rule options as {game_cls.__name__}, "
        "plus render_mode and illegal_action as env()."
    )
    env.__doc__ = (
        f"The wrapped PettingZoo AEC env of {game_cls.game_id} (order enforcing); rule options as in the game's "
        "docs. illegal_action='terminate' (default: an in-range illegal action ends the game with -1 for the "
        "offender and a warning) or 'raise' (an IllegalActionError, for debugging); an action that is not an "
        "integer in [0, num_actions) is always an error."
    )
    return env, raw_env
