"""Network-guided search: PUCT over determinisations at the root, with a trained network's policy as the prior.

Every iteration draws one state consistent with what the seat to act has seen (``resample_hidden``), picks the
root action with the highest ``Q(a) + c * P(a) * sqrt(N) / (1 + n(a))`` (``P``: the network's masked softmax at
the real observation, ``Q``: the mean return of the action's playouts so far, 0 before the first; ``N``: the
iterations so far, ``n(a)``: the action's), plays it and rolls the determinisation out to the end (every seat
played by the game's heuristic bot, or at random), adding the seat's return to the action. The move is the most
visited action (ties: the higher prior, then the lower index).

Why this form ("agent+search" in the ladder): the network's prior keeps the search on the agent's own moves until
playouts show a better one, so a small budget costs little strength and a large one can only correct the agent
where the rollouts see further; the prior costs one forward pass per decision, the playouts run in C on the
compiled engine (``pirate_envs/core/native/search.c``). A tree below the root would need the network at every
node (a forward pass per iteration), which the compiled search cannot call.

Spec: ``puct`` or ``puct:iterations=800,exploration=1.5,rollout=heuristic,prior=shipped`` (``prior``: a
checkpoint path or ``shipped``).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from pirate_envs.core.native import NATIVE
from pirate_envs.core.rng import Rng
from pirate_envs.policies.rollout import StateSearchBot, check_engine, native_twin, parse_spec, play_out, rollout_bot

__all__ = ["PuctPolicy", "parse_puct_spec"]


class PuctPolicy(StateSearchBot):
    """The PUCT bot (see the module docstring); callers use :func:`pirate_envs.policies.base.choose_action`."""

    def __init__(
        self,
        game: Any = None,
        iterations: int = 800,
        exploration: float = 1.5,
        rollout: str = "heuristic",
        prior: str = "shipped",
        engine: str = "auto",
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"PuctPolicy: iterations must be an int >= 1, got {iterations!r}")
        if not isinstance(exploration, (int, float)) or not exploration >= 0:
            raise ValueError(f"PuctPolicy: exploration must be a number >= 0, got {exploration!r}")
        if game is None:
            raise ValueError("PuctPolicy needs the game (for its prior network and rollouts)")
        self._heuristic = rollout_bot(game, rollout, "PuctPolicy")
        self.engine = check_engine(engine, "PuctPolicy")
        from pirate_envs.policies.base import resolve_policy

        self.network = resolve_policy(prior, game.game_id, game.num_players, **game.options)
        if not hasattr(self.network, "action_logits"):
            raise ValueError(f"PuctPolicy: prior must name a network (a checkpoint or 'shipped'), got {prior!r}")
        self.iterations = iterations
        self.exploration = float(exploration)
        self.rollout = rollout
        self.prior_spec = prior
        self.name = f"puct-{iterations}" + ("-h" if rollout == "heuristic" else "")
        self.last_visits: dict[int, int] = {}

    def __repr__(self) -> str:
        return (
            f"PuctPolicy(iterations={self.iterations}, exploration={self.exploration}, rollout={self.rollout!r}, "
            f"prior={self.prior_spec!r})"
        )

    def prior(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        """The network's masked softmax over the actions (float64, zeros at illegal actions)."""
        inputs = self.network.network_input(observation[None, :], action_mask[None, :])
        logits = np.asarray(self.network.action_logits(inputs)[0], dtype=np.float64)
        legal = action_mask.astype(bool)
        shifted = np.where(legal, logits - logits[legal].max(), -np.inf)
        weights = np.exp(shifted)
        return weights / weights.sum()

    def act_state(self, state: Any, seat: int, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """The move for ``seat`` at ``state``; ``state`` is used only through ``resample_hidden``."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask allows no action: this seat is not to act")
        if len(legal) == 1:
            self.last_visits = {}
            return legal[0]
        prior = self.prior(state.observation(seat), action_mask)
        source = Rng(int(rng.integers(0, 2**63)))
        compiled = native_twin(state, self.engine)
        if compiled is not None:
            action, _, _, rows = NATIVE.puct(
                compiled, seat, self.iterations, self.exploration, prior, self.rollout, source.state
            )
            self.last_visits = {a: n for a, n, _ in rows}
            return int(action)
        return self.search_python(state, seat, legal, prior, source)

    def search_python(self, state: Any, seat: int, legal: list[int], prior: np.ndarray, source: Rng) -> int:
        """The same search on the Python engine (the fallback, and the compiled search's oracle with random
        rollouts)."""
        visits = dict.fromkeys(legal, 0)
        total = dict.fromkeys(legal, 0.0)
        for i in range(self.iterations):
            det = state.resample_hidden(seat, source)
            sqrt_n = math.sqrt(i)
            best, chosen = -math.inf, legal[0]
            for a in legal:
                q = total[a] / visits[a] if visits[a] else 0.0
                value = q + self.exploration * prior[a] * sqrt_n / (1.0 + visits[a])
                if value > best:
                    best, chosen = value, a
            det.apply_action(chosen)
            visits[chosen] += 1
            total[chosen] += play_out(det, source, self._heuristic)[seat]
        self.last_visits = visits
        return max(legal, key=lambda a: (visits[a], prior[a], -a))


def parse_puct_spec(spec: str, game: Any = None) -> PuctPolicy:
    """``"puct"`` or ``"puct:iterations=800,exploration=1.5,rollout=heuristic,prior=shipped,engine=python"``."""
    kinds = {"iterations": int, "exploration": float, "rollout": str, "prior": str, "engine": str}
    return PuctPolicy(game, **parse_spec(spec, "puct", kinds))
