"""Vectorised envs: N games stepped together, in C where the game has a compiled engine.

``pirate_envs.vector.make(env_id, num_envs, opponents="heuristic", seat=0, seed=None, **options)`` returns a
Gymnasium :class:`~gymnasium.vector.VectorEnv` (:class:`NativeVectorEnv`); ``.as_sb3()`` gives the same games as a
stable-baselines3 ``VecEnv`` (:class:`NativeSB3VecEnv`) that sb3-contrib's ``MaskablePPO`` trains on directly.

Each env is the single-agent game of :class:`~pirate_envs.adapters.gym_env.PirateGymEnv`: one learner seat (an
int, or ``"random"``: drawn at every reset), every ``step`` from one learner decision to the next, reward 0 until
the end and then the learner seat's return (0 after truncation at ``max_decisions``). Opponents:

- ``"random"`` and ``"heuristic"``: played in C between the learner's steps (no Python per move);
- any other policy spec (a checkpoint path, ``"shipped"``, ``"ismcts:..."``, a Policy object): its decisions are
  gathered over all envs waiting for one and asked as one batch (``policy.act_batch`` where the policy has it).

Episodes reset themselves in the step that ends them (Gymnasium's ``AutoresetMode.SAME_STEP``): the returned
observation is the new game's, the last one is in ``infos["final_obs"]`` (and ``"terminal_observation"`` in the
SB3 form). ``action_masks()`` gives the (N, num_actions) legal masks.

Without the compiled engine (no compiler at install, ``PIRATE_ENVS_PURE_PYTHON=1``) the same class runs the
Python engine behind the same interface (``NativeVectorEnv.backend`` says which): same seeds, same games.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any, ClassVar

import gymnasium
import numpy as np
from gymnasium import spaces
from gymnasium.vector import AutoresetMode

from pirate_envs.core.errors import IllegalActionError, InvalidOptionError
from pirate_envs.core.native import NATIVE
from pirate_envs.core.native.backend import has_native, native_game
from pirate_envs.core.registry import game_class
from pirate_envs.core.rng import Rng, as_seed
from pirate_envs.policies.base import resolve_policy

__all__ = ["NativeSB3VecEnv", "NativeVectorEnv", "make"]

_NATIVE_OPPONENTS = {"random": 0, "heuristic": 1}
_MASK64 = (1 << 64) - 1


def make(
    env_id: str,
    num_envs: int,
    opponents: Any = "heuristic",
    seat: int | str = 0,
    seed: int | None = None,
    **options: Any,
) -> NativeVectorEnv:
    """``num_envs`` games of ``env_id`` (rule options as the game's) stepped together; see the module docstring."""
    return NativeVectorEnv(env_id, num_envs, opponents=opponents, seat=seat, seed=seed, **options)


class _PythonCore:
    """The NativeVector interface over Python states: the fallback, and the oracle the tests compare with."""

    def __init__(self, game: Any, num_envs: int, seat: int, opponents: int, seed: int) -> None:
        from pirate_envs.core.registry import env_module

        self.game, self.num_envs, self.seat_mode = game, num_envs, seat
        self.kinds = [[opponents] * game.num_players for _ in range(num_envs)]
        self.heuristic = env_module(game.game_id).HeuristicPolicy(game)
        self.reseed(seed)

    def set_opponents(self, envs: np.ndarray, kinds: np.ndarray) -> None:
        for i, row in zip(envs.tolist(), kinds.reshape(len(envs), -1).tolist(), strict=True):
            self.kinds[i] = row

    def _reset(self, i: int) -> None:
        rng = self.rngs[i]
        game_seed = rng.next_u64()
        self.seats[i] = self.seat_mode if self.seat_mode >= 0 else rng.randrange(self.game.num_players)
        self.lengths[i] = 0
        self.states[i] = self.game.new_initial_state(Rng(game_seed))
        self.bot_rngs[i] = np.random.default_rng(game_seed)

    def reseed(self, seed: int) -> None:
        master = Rng(seed)
        self.rngs = [Rng(master.next_u64()) for _ in range(self.num_envs)]
        self.states: list[Any] = [None] * self.num_envs
        self.seats = [0] * self.num_envs
        self.lengths = [0] * self.num_envs
        self.bot_rngs: list[Any] = [None] * self.num_envs
        for i in range(self.num_envs):
            self._reset(i)

    def seats_list(self) -> list[int]:
        return list(self.seats)

    def apply_learner(self, actions: np.ndarray) -> None:
        for i, state in enumerate(self.states):
            if state.current_player() != self.seats[i] or int(actions[i]) not in state.legal_actions():
                raise ValueError(
                    f"env {i}: action {int(actions[i])} is not legal for the learner (seat {self.seats[i]})"
                )
        for i, state in enumerate(self.states):
            state.apply_action(int(actions[i]))
            self.lengths[i] += 1

    def advance(self, envs: np.ndarray, groups: np.ndarray, obs: np.ndarray, masks: np.ndarray) -> int:
        waiting = 0
        for i, state in enumerate(self.states):
            while (seat := state.current_player()) >= 0 and seat != self.seats[i]:
                kind = self.kinds[i][seat]
                if kind == 0:
                    legal = state.legal_actions()
                    action = legal[self.rngs[i].randrange(len(legal))]
                elif kind == 1:
                    observation, mask = state.observation(seat), state.legal_action_mask()
                    action = int(self.heuristic.act(observation, mask, self.bot_rngs[i]))
                else:
                    envs[waiting], groups[waiting] = i, kind - 2
                    obs[waiting] = state.observation(seat)
                    masks[waiting] = state.legal_action_mask()
                    waiting += 1
                    break
                state.apply_action(action)
        return waiting

    def apply_external(self, envs: np.ndarray, actions: np.ndarray) -> None:
        for i, action in zip(envs.tolist(), actions.tolist(), strict=True):
            self.states[i].apply_action(int(action))

    def collect(self, rewards, terminated, truncated, final_obs, ended, lengths) -> int:
        count = 0
        rewards[:] = 0.0
        terminated[:] = False
        truncated[:] = False
        for i, state in enumerate(self.states):
            if not state.is_terminal():
                continue
            cut = state.is_truncated()
            rewards[i] = 0.0 if cut else state.returns()[self.seats[i]]
            terminated[i], truncated[i] = not cut, cut
            final_obs[i] = state.observation(self.seats[i])
            ended[count], lengths[count] = i, self.lengths[i]
            count += 1
            self._reset(i)
        return count

    def observe(self, obs: np.ndarray, masks: np.ndarray) -> None:
        for i, state in enumerate(self.states):
            obs[i] = state.observation(self.seats[i])
            masks[i] = state.legal_action_mask()


class NativeVectorEnv(gymnasium.vector.VectorEnv):
    """N games of one env id as one Gymnasium VectorEnv (see the module docstring)."""

    metadata: ClassVar[dict[str, Any]] = {"autoreset_mode": AutoresetMode.SAME_STEP, "render_modes": []}

    def __init__(
        self,
        env_id: str,
        num_envs: int,
        opponents: Any = "heuristic",
        seat: int | str = 0,
        seed: int | None = None,
        backend: str = "native",
        action_features: bool = False,
        **options: Any,
    ) -> None:
        if isinstance(num_envs, bool) or not isinstance(num_envs, (int, np.integer)) or num_envs < 1:
            raise InvalidOptionError(f"{env_id}: num_envs must be an int >= 1, got {num_envs!r}")
        if backend not in ("native", "python"):
            raise InvalidOptionError(f"{env_id}: backend must be 'native' or 'python', got {backend!r}")
        cls = game_class(env_id)
        use_native = backend == "native" and has_native(cls.game_id)
        self.game = game = cls(**options)
        self.env_id = env_id
        self.backend = "native" if use_native else "python"
        self.num_envs = int(num_envs)
        n, size, actions = self.num_envs, game.observation_size, game.num_actions
        if seat == "random":
            seat_mode = -1
        elif isinstance(seat, (int, np.integer)) and not isinstance(seat, bool) and 0 <= seat < game.num_players:
            seat_mode = int(seat)
        else:
            raise InvalidOptionError(
                f"{env_id}: seat must be an int in [0, {game.num_players}) or 'random'; got {seat!r}"
            )
        self._groups: list[Any] = []  # the outside opponents' policies, by group
        self._group_of: dict[Any, int] = {}
        self._options = dict(game.options)
        self._check_opponents(opponents)
        self.opponents = opponents
        fixed = opponents if isinstance(opponents, str) and opponents in _NATIVE_OPPONENTS else None
        kind = _NATIVE_OPPONENTS[fixed] if fixed is not None else 0
        self._seed = as_seed(seed, "seed", non_negative=True)
        start = self._seed if self._seed is not None else int(np.random.SeedSequence().entropy) & _MASK64
        if use_native:
            self._core: Any = NATIVE.NativeVector(native_game(game), n, seat_mode, kind, start)
        else:
            self._core = _PythonCore(game, n, seat_mode, kind, start)
        self._policy_rng = np.random.default_rng(start)
        low, high = game.observation_low, game.observation_high
        self.action_features = bool(action_features)
        if self.action_features and not game.action_feature_size:
            raise InvalidOptionError(f"{env_id}: action_features=True, but the game has no action features")
        view = game.augmented_observation_size if self.action_features else size
        if self.action_features:  # the Gymnasium adapter's bounds of the augmented observation
            low, high = min(low, game.action_feature_low), max(high, game.action_feature_high)
        self._features = np.zeros((n, actions, game.action_feature_size), np.float32) if self.action_features else None
        self._compiled_features = use_native and native_game(game).has_features
        self.single_observation_space = spaces.Box(low, high, (view,), np.float32)
        self.single_action_space = spaces.Discrete(actions)
        self.observation_space = spaces.Box(low, high, (n, view), np.float32)
        self.action_space = spaces.MultiDiscrete(np.full(n, actions))
        self._obs = np.zeros((n, size), np.float32)
        self._masks = np.zeros((n, actions), np.int8)
        self._ext_envs = np.zeros(n, np.int32)
        self._ext_groups = np.zeros(n, np.int32)
        self._ext_obs = np.zeros((n, size), np.float32)
        self._ext_masks = np.zeros((n, actions), np.int8)
        self._final_obs = np.zeros((n, size), np.float32)
        self._rewards = np.zeros(n, np.float32)
        self._terminated = np.zeros(n, np.bool_)
        self._truncated = np.zeros(n, np.bool_)
        self._ended = np.zeros(n, np.int32)
        self._lengths = np.zeros(n, np.int64)
        self._returns = np.zeros(n, np.float64)
        self._draw_opponents(np.arange(n, dtype=np.int32))
        self._drive()
        self._core.observe(self._obs, self._masks)

    # --- opponents ---------------------------------------------------------------------------------
    def _check_opponents(self, opponents: Any) -> None:
        n = self.game.num_players
        if isinstance(opponents, list) and len(opponents) != n - 1:
            raise InvalidOptionError(
                f"{self.env_id}: an opponents list needs one entry per other seat ({n - 1}), got {len(opponents)}"
            )
        for entry in opponents if isinstance(opponents, list) else [opponents]:
            if not hasattr(entry, "sample_opponent"):
                self._kind(entry)  # a bad spec fails here, before any game

    def set_opponents(self, opponents: Any) -> None:
        """New opponents (a spec, a sampler or a list per other seat), from each env's next game on."""
        self._check_opponents(opponents)
        self.opponents = opponents

    def _kind(self, spec: Any) -> int:
        """The vector's opponent kind of one spec: 0 random, 1 heuristic (both in C), 2 + its outside group."""
        if isinstance(spec, str) and spec in _NATIVE_OPPONENTS:
            return _NATIVE_OPPONENTS[spec]
        key = str(spec) if isinstance(spec, (str, Path)) else id(spec)
        group = self._group_of.get(key)
        if group is None:
            policy = resolve_policy(spec, self.env_id, self.game.num_players, **self._options)
            if getattr(policy, "needs_state", False):
                raise InvalidOptionError(
                    f"{self.env_id}: the vector env's opponents act from observations; {spec!r} searches the game "
                    "state (use 'random', 'heuristic', a checkpoint or a Policy object)"
                )
            group = self._group_of[key] = len(self._groups)
            self._groups.append(policy)
        return 2 + group

    def _draw_opponents(self, envs: np.ndarray) -> None:
        """Each named env's opponents for its new game (samplers drawn again at every game)."""
        spec, n = self.opponents, self.game.num_players
        per_offset = spec if isinstance(spec, list) else [spec] * (n - 1)
        if all(isinstance(e, str) and e in _NATIVE_OPPONENTS for e in per_offset) and len(set(per_offset)) == 1:
            kinds = np.full((len(envs), n), _NATIVE_OPPONENTS[per_offset[0]], np.int64)
        else:
            seats = self.seats()
            kinds = np.zeros((len(envs), n), np.int64)
            for row, i in enumerate(envs.tolist()):
                for offset, entry in enumerate(per_offset, start=1):
                    chosen = entry.sample_opponent(self._policy_rng) if hasattr(entry, "sample_opponent") else entry
                    kinds[row, (seats[i] + offset) % n] = self._kind(chosen)
        self._core.set_opponents(np.asarray(envs, np.int64), kinds.ravel())

    # --- stepping ----------------------------------------------------------------------------------
    def _drive(self) -> None:
        """Play opponents until every game waits for its learner (outside opponents asked in batches)."""
        while (k := self._core.advance(self._ext_envs, self._ext_groups, self._ext_obs, self._ext_masks)) > 0:
            groups = self._ext_groups[:k]
            actions = np.zeros(k, np.int64)
            for group in np.unique(groups).tolist():
                rows = np.flatnonzero(groups == group)
                obs, masks = self._ext_obs[rows], self._ext_masks[rows]
                actions[rows] = _act_batch(self._groups[group], obs, masks, self._policy_rng)
            self._core.apply_external(self._ext_envs[:k].copy(), actions)

    def _view(self, obs: np.ndarray, masks: np.ndarray) -> np.ndarray:
        """The observations as the learner sees them: with ``action_features`` each row followed by its
        actions' features (``Game.observation_with_action_features``), computed in C where the game has them."""
        if not self.action_features:
            return obs.copy()
        features = self._features[: len(obs)]
        if self._compiled_features:
            engine = native_game(self.game)
            for row in range(len(obs)):
                engine.features(obs[row], masks[row], features[row])
        else:
            for row in range(len(obs)):
                features[row] = self.game.action_features(obs[row], masks[row].astype(np.bool_))
        return np.concatenate([obs, features.reshape(len(obs), -1)], axis=1)

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None):
        """New games in every env (reseeded when ``seed`` is given); returns (observations, infos)."""
        if options:
            raise InvalidOptionError(f"{self.env_id}: the vector env's reset takes no options, got {sorted(options)}")
        if seed is not None:
            seed = as_seed(seed, "seed", non_negative=True)
            self._core.reseed(seed)
            self._policy_rng = np.random.default_rng(seed)
            self._draw_opponents(np.arange(self.num_envs, dtype=np.int32))
            self._drive()
            self._core.observe(self._obs, self._masks)
        self._returns[:] = 0.0
        return self._view(self._obs, self._masks), {"seat": np.asarray(self.seats())}

    def step(self, actions: Any):
        """Every env's learner action; returns (observations, rewards, terminations, truncations, infos)."""
        actions = np.asarray(actions)
        if actions.shape != (self.num_envs,) or not np.issubdtype(actions.dtype, np.integer):
            raise IllegalActionError(
                f"{self.env_id}: step takes {self.num_envs} integer actions (one per env), got shape "
                f"{actions.shape} of {actions.dtype}"
            )
        try:
            self._core.apply_learner(actions.astype(np.int64, copy=False))
        except ValueError as exc:
            raise IllegalActionError(f"{self.env_id}: {exc}") from None
        self._drive()
        ended = self._core.collect(
            self._rewards, self._terminated, self._truncated, self._final_obs, self._ended, self._lengths
        )
        if ended:
            self._draw_opponents(self._ended[:ended].copy())
            self._drive()
        self._core.observe(self._obs, self._masks)
        infos: dict[str, Any] = {}
        if ended:
            done = self._ended[:ended]
            flags = np.zeros(self.num_envs, np.bool_)
            flags[done] = True
            final = np.empty(self.num_envs, dtype=object)
            if self.action_features:  # the final view's features: of the final position's legal actions (none)
                views = self._view(self._final_obs[done], np.zeros((len(done), self.game.num_actions), np.int8))
            else:
                views = self._final_obs[done]
            for row, i in enumerate(done.tolist()):
                final[i] = views[row].copy()
            lengths = np.zeros(self.num_envs, np.int64)
            lengths[done] = self._lengths[:ended]
            infos = {"final_obs": final, "_final_obs": flags, "episode_length": lengths}
        return (
            self._view(self._obs, self._masks),
            self._rewards.copy(),
            self._terminated.copy(),
            self._truncated.copy(),
            infos,
        )

    def action_masks(self) -> np.ndarray:
        """The (num_envs, num_actions) bool masks of the learners' legal actions."""
        return self._masks.astype(np.bool_)

    def seats(self) -> list[int]:
        """The learner's seat in each env's running game."""
        return self._core.seats() if self.backend == "native" else self._core.seats_list()

    def as_sb3(self) -> NativeSB3VecEnv:
        """These games as a stable-baselines3 VecEnv."""
        return NativeSB3VecEnv(self)

    def close(self, **kwargs: Any) -> None:
        """Nothing to release: the games live in this process and are freed with the object."""


def _act_batch(policy: Any, obs: np.ndarray, masks: np.ndarray, rng: np.random.Generator) -> list[int]:
    """One decision per row: the policy's own batch call where it has one (a network), else row by row."""
    batched = getattr(policy, "act_batch", None)
    if batched is not None:
        return batched(obs, masks, rng)
    return [int(policy.act(o, m, rng)) for o, m in zip(obs, masks, strict=True)]


def _sb3_base() -> type:
    from stable_baselines3.common.vec_env import VecEnv

    return VecEnv


class NativeSB3VecEnv(_sb3_base()):  # type: ignore[misc]
    """A :class:`NativeVectorEnv` as a stable-baselines3 ``VecEnv``: infos per env with ``terminal_observation``,
    ``episode`` (``r``, ``l``) and ``is_success`` at episode ends; ``env_method("action_masks")`` for MaskablePPO."""

    def __init__(self, venv: NativeVectorEnv) -> None:
        self.venv = venv
        super().__init__(venv.num_envs, venv.single_observation_space, venv.single_action_space)
        self._actions: np.ndarray | None = None

    def reset(self) -> np.ndarray:
        obs, _ = self.venv.reset(seed=self._seeds[0] if self._seeds else None)
        self._reset_seeds()
        return obs

    def step_async(self, actions: np.ndarray) -> None:
        self._actions = np.asarray(actions)

    def step_wait(self):
        obs, rewards, terminated, truncated, infos = self.venv.step(self._actions)
        dones = terminated | truncated
        out: list[dict[str, Any]] = [{} for _ in range(self.num_envs)]
        if infos:
            for i in np.flatnonzero(dones).tolist():
                out[i] = {
                    "terminal_observation": infos["final_obs"][i],
                    "TimeLimit.truncated": bool(truncated[i]),
                    "episode": {"r": float(rewards[i]), "l": int(infos["episode_length"][i])},
                    "is_success": bool(rewards[i] > 0),
                }
        return obs, rewards, dones, out

    def close(self) -> None:
        self.venv.close()

    def get_attr(self, attr_name: str, indices: Any = None) -> list[Any]:
        return [getattr(self.venv, attr_name)] * len(self._get_indices(indices))

    def set_attr(self, attr_name: str, value: Any, indices: Any = None) -> None:
        raise AttributeError(f"NativeSB3VecEnv has no per-env attribute {attr_name!r} to set")

    def env_method(self, method_name: str, *args: Any, indices: Any = None, **kwargs: Any) -> list[Any]:
        chosen = self._get_indices(indices)
        if method_name == "action_masks":
            masks = self.venv.action_masks()
            return [masks[i] for i in chosen]
        if method_name == "set_opponents":  # the same opponents for every env: the vector holds one setting
            self.venv.set_opponents(*args, **kwargs)
            return [None] * len(chosen)
        raise AttributeError(
            f"NativeSB3VecEnv answers env_method('action_masks') and ('set_opponents'), not {method_name!r}"
        )

    def env_is_wrapped(self, wrapper_class: type, indices: Any = None) -> list[bool]:
        return [False] * len(self._get_indices(indices))

    def _get_indices(self, indices: Any) -> list[int]:
        if indices is None:
            return list(range(self.num_envs))
        if isinstance(indices, int):
            return [indices]
        return list(indices)
