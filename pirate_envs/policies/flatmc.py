"""Flat Monte Carlo over ``resample_hidden``: one step of policy improvement over a rollout bot.

For every legal action of the seat to act, the bot plays ``rollouts`` determinised futures to the
end, each seat (itself included) following the rollout policy after that action, and picks the
action with the highest mean return. Every action is scored on the same determinisations and
rollout seeds (common random numbers), so a difference between two actions is not the luck of
different deals.

With heuristic rollouts, against the heuristic bots themselves, the rollouts model the opponents
exactly: the bot is then a sampled best response to them, one step deep. That makes it a yardstick
of how far above a heuristic bot a player can get in a game (``docs/search.md``). It reads the
real state only through ``resample_hidden``, like the IS-MCTS bot; its cost is
``legal actions x rollouts`` playouts per decision.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from pirate_envs.core.native import NATIVE
from pirate_envs.core.rng import Rng
from pirate_envs.policies.rollout import StateSearchBot, check_engine, native_twin, parse_spec, play_out, rollout_bot


class FlatMCPolicy(StateSearchBot):
    """The flat Monte Carlo bot (see the module docstring); callers use :func:`pirate_envs.policies.base.choose_action`.

    ``rollouts`` playouts per legal action; ``rollout`` is ``"heuristic"`` (the game's heuristic
    bot plays every seat, the default) or ``"random"``. Ties go to the heuristic bot's own choice
    when it is among the best (so the search departs from the bot only on evidence), else to the
    lowest action index. With the same ``rng`` seed the choice is reproducible; ``last_values``
    holds the mean return of each action at the last decision.
    """

    def __init__(self, game: Any = None, rollouts: int = 40, rollout: str = "heuristic", engine: str = "auto") -> None:
        if isinstance(rollouts, bool) or not isinstance(rollouts, int) or rollouts < 1:
            raise ValueError(f"FlatMCPolicy: rollouts must be an int >= 1, got {rollouts!r}")
        self._heuristic = rollout_bot(game, rollout, "FlatMCPolicy")
        self.engine = check_engine(engine, "FlatMCPolicy")
        self.rollouts = rollouts
        self.rollout = rollout
        self.name = f"flatmc-{rollouts}" + ("-h" if rollout == "heuristic" else "")
        self.last_values: dict[int, float] = {}

    def __repr__(self) -> str:
        return f"FlatMCPolicy(rollouts={self.rollouts}, rollout={self.rollout!r})"

    def act_state(self, state: Any, seat: int, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """The move for ``seat`` at ``state``; ``state`` is used only through ``resample_hidden``."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask allows no action: this seat is not to act")
        if len(legal) == 1:
            self.last_values = {}
            return legal[0]
        base = int(rng.integers(0, 2**62))
        compiled = native_twin(state, self.engine)
        if compiled is not None:
            action, pairs = NATIVE.flatmc(compiled, seat, self.rollouts, self.rollout, base)
            self.last_values = dict(pairs)
            return int(action)
        values = {}
        preferred = legal[0]
        if self._heuristic is not None:  # its own view, read from a determinisation like everything else
            world = state.resample_hidden(seat, Rng(base))
            preferred = int(self._heuristic.act(world.observation(seat), action_mask, np.random.default_rng(base)))
        for action in legal:
            total = 0.0
            for i in range(self.rollouts):
                world = state.resample_hidden(seat, Rng(base + i))
                world.apply_action(action)
                total += play_out(world, Rng(base + i), self._heuristic)[seat]
            values[action] = total / self.rollouts
        self.last_values = values
        best = max(values.values())
        if values[preferred] == best:  # an action no playout told apart from the best keeps the bot's choice
            return preferred
        return next(a for a in legal if values[a] == best)


def parse_flatmc_spec(spec: str, game: Any = None) -> FlatMCPolicy:
    """``"flatmc"`` or ``"flatmc:rollouts=40,rollout=heuristic,engine=python"``."""
    return FlatMCPolicy(game, **parse_spec(spec, "flatmc", {"rollouts": int, "rollout": str, "engine": str}))
