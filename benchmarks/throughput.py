"""Random-play throughput: decisions per second, engine vs AEC env vs batched stepping, next to PettingZoo references.

For every registered game and player count it measures
  (a) the rules engine: ``legal_actions`` + the acting seat's ``observation`` + ``apply_action``;
  (b) the wrapped PettingZoo AEC env (``env()``): ``last()`` + ``step`` with a random action from the
      mask (drawn with ``random.Random`` as in (a), so the draw costs the same in both);
and, in the same run, PettingZoo's ``texas_holdem_v4`` and ``connect_four_v3`` through the same
AEC loop (they need the ``bench`` extra: rlcard, pygame). Every AEC env, ours and the references,
runs the way a training loop runs it: ``reset(seed=0)`` once, then ``reset()`` without a seed for
every following game (re-seeding costs ``texas_holdem_v4`` 0.5-1.3 ms a game, more than its 2-4
decisions). ``--reseed`` adds a column that calls ``reset(seed=k)`` before every game, for every env alike.

The batched table (c) is training-style stepping: ``N`` games of the default player count advance
in lockstep; each step writes every game's acting-seat observation and legal mask into one
preallocated ``(N, size)`` array, draws one masked random action per game in a single vectorised
call (where a policy network would run) and applies them; finished games restart. It reports
decisions/s on one core for N = 1, 16, 64 (``--batch``). ``--bots`` adds (d): the game's heuristic
bot, ``act`` on 1,000 recorded decision points of games it played against itself (one move in five
random, for variety) — the cost that dominates training against it.

    python benchmarks/throughput.py [--seconds 0.5] [--rounds 10] [--games potsm_v0 ...] [--reseed]
                                    [--batch 1 16 64] [--bots]

Single process, one core, timed in CPU seconds (``time.process_time``): time the scheduler gives
to other processes does not count. Every cell is measured in ``--rounds`` rounds of ``--seconds``
each and shows the best round, then the median in brackets. On a shared VM a core's speed still
swings by up to 2x (hyper-threads, caches and clocks are shared), so the best round is the figure of
the code's own speed (as ``timeit`` reports the minimum time) and the median says how much the
neighbours took. The rounds go round-robin over all cells, so each cell's rounds are spread over the
whole run. Prints tables; no assertions.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import time
from collections.abc import Callable

import numpy as np

os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

import pirate_envs
from pirate_envs.core.registry import game_class

# CPU time of this process: a neighbour that takes the core away does not count against a cell (it
# still slows it through shared caches and turbo clocks, hence best-of-rounds). One thread, so this
# is decisions per CPU-second of one core.
clock = time.process_time


def engine_rate(game, seconds: float) -> float:
    rng = random.Random(0)
    decisions, seed = 0, 0
    start = clock()
    while clock() - start < seconds:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal():
            state.observation(state.current_player())
            state.apply_action(rng.choice(state.legal_actions()))
            decisions += 1
    return decisions / (clock() - start)


class AecLoop:
    """One AEC env played at random, game after game. ``reseed=False`` (the fair, training-loop way):
    ``reset(seed=0)`` once when built, ``reset()`` before every game after that; ``reseed=True``:
    ``reset(seed=k)`` before every game."""

    def __init__(self, make_env: Callable, reseed: bool = False) -> None:
        self.env = make_env()
        self.reseed = reseed
        self.rng = random.Random(0)  # the engine loop's generator: the draw costs the same in both
        self.seed = 0
        self.env.reset(seed=0)
        self.fresh = True  # the first game was reset (seeded) above

    def reset(self) -> None:
        if self.fresh:
            self.fresh = False
        elif self.reseed:
            self.seed += 1
            self.env.reset(seed=self.seed)
        else:
            self.env.reset()

    def rate(self, seconds: float) -> float:
        env, rng = self.env, self.rng
        decisions = 0
        start = clock()
        while clock() - start < seconds:
            self.reset()
            for _agent in env.agent_iter():
                obs, _, terminated, truncated, _ = env.last()
                if terminated or truncated:
                    env.step(None)
                    continue
                env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
                decisions += 1
        return decisions / (clock() - start)


class BatchLoop:
    """``n`` games stepped in lockstep, observations and masks gathered into preallocated arrays."""

    def __init__(self, game, n: int) -> None:
        self.game, self.n = game, n
        self.next_seed = n
        self.states = [game.new_initial_state(seed) for seed in range(n)]
        self.observations = np.zeros((n, *game.observation_shape), dtype=np.float32)
        self.masks = np.zeros((n, game.num_actions), dtype=np.int8)
        self.rng = np.random.default_rng(0)

    def gather(self) -> None:
        """Restart finished games; write each game's acting-seat observation and mask into row i."""
        game, states, observations, masks = self.game, self.states, self.observations, self.masks
        for i, state in enumerate(states):
            if state.is_terminal():
                state = states[i] = game.new_initial_state(self.next_seed)
                self.next_seed += 1
            observations[i] = state.observation(state.current_player())
            masks[i] = state.legal_action_mask()

    def step(self) -> None:
        """Where the policy network would run: one masked random draw for the whole batch, then apply."""
        actions = np.argmax(self.rng.random(self.masks.shape) * self.masks, axis=1)
        for state, action in zip(self.states, actions.tolist(), strict=True):
            state.apply_action(action)

    def rate(self, seconds: float) -> float:
        decisions = 0
        start = clock()
        while clock() - start < seconds:
            self.gather()
            self.step()
            decisions += self.n
        return decisions / (clock() - start)


def bot_points(game, bot, count: int = 1000) -> list[tuple[np.ndarray, np.ndarray]]:
    """(observation, mask) of ``count`` decisions with a choice, from games ``bot`` plays in every seat."""
    rng, pick = np.random.default_rng(0), random.Random(0)
    points, seed = [], 0
    while len(points) < count:
        state = game.new_initial_state(seed)
        seed += 1
        while not state.is_terminal() and len(points) < count:
            observation, mask = state.observation(state.current_player()), state.legal_action_mask()
            if mask.sum() > 1:
                points.append((observation, mask))
            action = bot.act(observation, mask, rng) if pick.random() < 0.8 else pick.choice(state.legal_actions())
            state.apply_action(action)
    return points


def bot_rate(bot, points: list[tuple[np.ndarray, np.ndarray]], seconds: float) -> float:
    rng = np.random.default_rng(0)
    decisions = 0
    start = clock()
    while clock() - start < seconds:
        for _ in range(50):
            observation, mask = points[decisions % len(points)]
            bot.act(observation, mask, rng)
            decisions += 1
    return decisions / (clock() - start)


def summary(rates: list[float]) -> tuple[float, float]:
    """The best and the median of a cell's rounds."""
    return max(rates), statistics.median(rates)


def cell(rates: tuple[float, float]) -> str:
    best, median = rates
    return f"{best:,.0f} [{median:,.0f}]"


def reference_envs() -> dict[str, Callable]:
    try:
        from pettingzoo.classic import connect_four_v3, texas_holdem_v4
    except ImportError as exc:  # the bench extra is not installed
        print(
            f"(PettingZoo references skipped: {exc}; "
            "install them with .venv/bin/pip install -c constraints.txt -e '.[bench]')"
        )
        return {}
    return {"texas_holdem_v4": texas_holdem_v4.env, "connect_four_v3": connect_four_v3.env}


def ratio(value: tuple[float, float] | None, reference: tuple[float, float] | None) -> str:
    """Best over best: the code's own speed against the code's own speed."""
    return f"{value[0] / reference[0]:.2f}x" if value and reference else "-"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=0.5, help="length of one measuring round")
    parser.add_argument("--rounds", type=int, default=10, help="rounds per cell (best and median shown)")
    parser.add_argument("--games", nargs="*", default=list(pirate_envs.ENV_IDS), help="env ids to measure")
    parser.add_argument("--reseed", action="store_true", help="also measure every AEC env re-seeded before every game")
    parser.add_argument(
        "--batch", type=int, nargs="*", default=[1, 16, 64], help="batch sizes of the lockstep table (none: skip it)"
    )
    parser.add_argument("--bots", action="store_true", help="also measure each game's heuristic bot (decisions/s)")
    args = parser.parse_args()
    if args.rounds < 1 or args.seconds <= 0:
        parser.error("--rounds must be >= 1 and --seconds > 0")
    if any(n < 1 for n in args.batch):
        parser.error("--batch sizes must be >= 1")

    seconds = args.seconds
    cells: dict[tuple[str, str], Callable[[float], float]] = {}  # seconds -> decisions/s
    rows, batch_rows = [], []
    for env_id in args.games:
        game_cls = game_class(env_id)
        for n in game_cls.player_counts:
            game = game_cls(num_players=n)
            row = f"{env_id} ({n}p)"
            rows.append(row)
            cells[row, "engine"] = lambda s, game=game: engine_rate(game, s)
            make_env = lambda env_id=env_id, n=n: pirate_envs.make(env_id, num_players=n)  # noqa: E731
            cells[row, "aec"] = AecLoop(make_env).rate
            if args.reseed:
                cells[row, "aec reseeded"] = AecLoop(make_env, reseed=True).rate
            if args.bots:
                bot = pirate_envs.make_heuristic(env_id, n)
                points = bot_points(game, bot)
                cells[row, "bot"] = lambda s, bot=bot, points=points: bot_rate(bot, points, s)
            if n == game_cls.default_num_players:
                for size in args.batch:
                    cells[row, f"batch {size}"] = BatchLoop(game, size).rate
                batch_rows.append(row)
    refs = reference_envs()
    for name, make_env in refs.items():
        cells[name, "aec"] = AecLoop(make_env).rate
        if args.reseed:
            cells[name, "aec reseeded"] = AecLoop(make_env, reseed=True).rate
    # Round-robin: every round measures every cell once, so a cell's rounds are spread over the
    # whole run instead of falling into one slow stretch of the machine.
    rates: dict[tuple[str, str], list[float]] = {key: [] for key in cells}
    for _ in range(args.rounds):
        for key, measure in cells.items():
            rates[key].append(measure(seconds))
    result = {key: summary(values) for key, values in rates.items()}

    holdem = result.get(("texas_holdem_v4", "aec"))
    holdem_reseeded = result.get(("texas_holdem_v4", "aec reseeded"))
    print(f"decisions/s, best of {args.rounds} rounds of {seconds:g} s [median]; AEC envs seeded once, then reset()")
    header = f"{'env':<24}{'engine+obs':>18}{'AEC env':>18}{'AEC/engine':>11}{'AEC/holdem':>11}"
    if args.reseed:
        header += f"{'AEC, seed every game':>22}{'/holdem':>9}"
    if args.bots:
        header += f"{'heuristic bot':>18}"
    print(header)
    for row in rows:
        eng, aec = result[row, "engine"], result[row, "aec"]
        line = f"{row:<24}{cell(eng):>18}{cell(aec):>18}{ratio(aec, eng):>11}{ratio(aec, holdem):>11}"
        if args.reseed:
            reseeded = result[row, "aec reseeded"]
            line += f"{cell(reseeded):>22}{ratio(reseeded, holdem_reseeded):>9}"
        if args.bots:
            line += f"{cell(result[row, 'bot']):>18}"
        print(line)
    for name in refs:
        line = f"{name + ' (PettingZoo)':<24}{'-':>18}{cell(result[name, 'aec']):>18}{'':>11}{'':>11}"
        if args.reseed:
            line += f"{cell(result[name, 'aec reseeded']):>22}"
        print(line)
    if args.batch and batch_rows:
        print()
        print("batched lockstep stepping (default player count): N games, observations and masks into one")
        print("preallocated array per step, one vectorised masked random draw; decisions/s on one core")
        print(f"{'env':<24}" + "".join(f"{'N = ' + str(size):>18}" for size in args.batch))
        for row in batch_rows:
            print(f"{row:<24}" + "".join(f"{cell(result[row, f'batch {size}']):>18}" for size in args.batch))


if __name__ == "__main__":
    main()
