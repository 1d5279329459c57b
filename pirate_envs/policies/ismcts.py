"""Information-set Monte Carlo tree search over ``resample_hidden``: a search bot for every game.

Single-observer IS-MCTS (Cowling, Powley & Whitehouse, 2012). One tree is grown for the seat to
act, keyed by action sequences. Every iteration:

1. **determinise**: draw one state consistent with what the seat has seen,
   ``state.resample_hidden(seat, rng)``, so hidden cards and future chance are redrawn;
2. **select** down the tree with UCB1, among the children whose action is legal in this
   determinisation, using *availability counts* (how often a child could have been chosen)
   in place of the parent's visit count;
3. **expand** one untried legal action;
4. **roll out** to the end with a random or heuristic policy (heuristic rollouts act on each
   seat's own observation, like the bot);
5. **back up** the final returns: each node adds the return of the seat that chose its action.

The chosen move is the most visited root child. The bot reads the real state only through
``resample_hidden`` (the engine's contract makes that a function of the seat's information and
the seed); chance inside the engine is open-loop: the tree branches on decisions only.

Generic over every game: it uses only the engine contract (``resample_hidden``,
``current_player``, ``legal_actions``, ``apply_action``, ``returns``, ``observation``).
"""

from __future__ import annotations

import math
import time
from typing import Any

import numpy as np

from pirate_envs.core.native import NATIVE
from pirate_envs.core.rng import Rng
from pirate_envs.policies.rollout import (
    ROLLOUTS,
    StateSearchBot,
    check_engine,
    native_twin,
    parse_spec,
    play_out,
    rollout_bot,
)

__all__ = ["ROLLOUTS", "ISMCTSPolicy", "parse_ismcts_spec"]


class _Node:
    __slots__ = ("avail", "children", "total", "visits")

    def __init__(self) -> None:
        self.children: dict[int, _Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0  # sum of the returns of the seat that chose the action leading here


class ISMCTSPolicy(StateSearchBot):
    """The IS-MCTS bot. It needs the game state, so callers use :func:`pirate_envs.policies.base.choose_action`.

    ``iterations`` bounds the search; ``time_budget`` (seconds per move), when given, stops it
    earlier (then the result also depends on the machine's speed). ``exploration`` is the UCB1
    constant for returns in [-1, 1]. ``rollout`` is ``"random"`` or ``"heuristic"`` (the game's
    heuristic bot, which needs ``game``). With the same ``rng`` seed and iteration budget the
    bot's choice is reproducible.
    """

    def __init__(
        self,
        game: Any = None,
        iterations: int = 400,
        time_budget: float | None = None,
        exploration: float = 0.7,
        rollout: str = "random",
        engine: str = "auto",
    ) -> None:
        if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 1:
            raise ValueError(f"ISMCTSPolicy: iterations must be an int >= 1, got {iterations!r}")
        if time_budget is not None and not (isinstance(time_budget, (int, float)) and time_budget > 0):
            raise ValueError(f"ISMCTSPolicy: time_budget must be a number of seconds > 0 or None, got {time_budget!r}")
        if not isinstance(exploration, (int, float)) or exploration < 0:
            raise ValueError(f"ISMCTSPolicy: exploration must be a number >= 0, got {exploration!r}")
        self._heuristic = rollout_bot(game, rollout, "ISMCTSPolicy")
        self.engine = check_engine(engine, "ISMCTSPolicy")
        self.iterations = int(iterations)
        self.time_budget = None if time_budget is None else float(time_budget)
        self.exploration = float(exploration)
        self.rollout = rollout
        self.name = f"ismcts-{self.iterations}" + ("" if rollout == "random" else "-h")
        self.last_iterations = 0  # iterations done by the last search (for benchmarks)

    def __repr__(self) -> str:
        budget = "" if self.time_budget is None else f", time_budget={self.time_budget}"
        return (
            f"ISMCTSPolicy(iterations={self.iterations}{budget}, exploration={self.exploration}, "
            f"rollout={self.rollout!r})"
        )

    def act_state(self, state: Any, seat: int, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """The move for ``seat`` at ``state``; ``state`` is used only through ``resample_hidden``."""
        legal = np.flatnonzero(action_mask).tolist()
        if not legal:
            raise ValueError("the action mask allows no action: this seat is not to act")
        if len(legal) == 1:
            self.last_iterations = 0
            return legal[0]
        source = Rng(int(rng.integers(0, 2**63)))
        compiled = native_twin(state, self.engine)
        if compiled is not None:
            action, self.last_iterations, _, _ = NATIVE.ismcts(
                compiled, seat, self.iterations, self.exploration, self.rollout, source.state, self.time_budget or 0.0
            )
            return int(action)
        root = self.search(state, seat, source)
        best = max(legal, key=lambda a: (root.children[a].visits if a in root.children else -1, -a))
        return int(best)

    # --- the search ---------------------------------------------------------------------------------
    def search(self, state: Any, seat: int, rng: Rng) -> _Node:
        root = _Node()
        deadline = None if self.time_budget is None else time.perf_counter() + self.time_budget
        c = self.exploration
        log = math.log
        sqrt = math.sqrt
        done = 0
        for done in range(1, self.iterations + 1):  # noqa: B007 - the count is reported below
            det = state.resample_hidden(seat, rng)
            node = root
            path: list[tuple[_Node, int]] = []  # (node, seat that chose the action leading to it)
            while not det.is_terminal():
                player = det.current_player()
                legal = det.legal_actions()
                children = node.children
                untried = [a for a in legal if a not in children]
                if untried:
                    for a in legal:
                        if a in children:
                            children[a].avail += 1
                    action = untried[rng.randrange(len(untried))]
                    child = children[action] = _Node()
                    child.avail = 1
                    det.apply_action(action)
                    path.append((child, player))
                    break
                best_value = -math.inf
                action = legal[0]
                for a in legal:
                    child = children[a]
                    child.avail += 1
                    value = child.total / child.visits + c * sqrt(log(child.avail) / child.visits)
                    if value > best_value:
                        best_value, action = value, a
                node = children[action]
                det.apply_action(action)
                path.append((node, player))
            returns = play_out(det, rng, self._heuristic)
            for child, player in path:
                child.visits += 1
                child.total += returns[player]
            if deadline is not None and time.perf_counter() >= deadline:
                break
        self.last_iterations = done
        return root


def parse_ismcts_spec(spec: str, game: Any = None) -> ISMCTSPolicy:
    """``"ismcts"`` or ``"ismcts:iterations=800,rollout=heuristic,exploration=1.0,time_budget=1,engine=python"``."""
    kinds = {"iterations": int, "time_budget": float, "exploration": float, "rollout": str, "engine": str}
    return ISMCTSPolicy(game, **parse_spec(spec, "ismcts", kinds))
