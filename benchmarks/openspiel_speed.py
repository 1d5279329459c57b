"""Random play through OpenSpiel (``pyspiel``) next to our PettingZoo AEC env: decisions per second.

For every game (default player count, or ``--players``) two loops run the same way, seeded once,
a uniformly random legal action per decision drawn with ``random.Random``:
  (a) ``aec``: the wrapped AEC env (``env()``), ``last()`` + ``step``;
  (b) ``pyspiel``: ``pyspiel.load_game("python_<env_id>")``, ``new_initial_state()`` per game,
      ``legal_actions()`` + ``apply_action`` per decision and every chance node sampled from
      ``chance_outcomes()`` (the deal is dealt card by card, see ``pirate_envs.core.chance``); no
      observation is read, as in (a) only the acting seat's observation is.
  (c) ``pyspiel+obs``: (b) plus the acting seat's ``information_state_tensor`` at every decision (what
      ``rl_environment`` and NFSP read).
Decisions count player actions only; the chance nodes per game are reported beside them.

    python benchmarks/openspiel_speed.py [--seconds 1.0] [--rounds 3] [--games potsm_v0 ...] [--players N]
    python benchmarks/openspiel_speed.py --ismcts 20 --sims 20 [--games ...]   # IS-MCTS vs random bots
    python benchmarks/openspiel_speed.py --nfsp 1500 [--games potsm_v0]       # NFSP's curve vs random

``--ismcts G`` plays G games per game (2 players, the bot's seat alternating) of OpenSpiel's Python
``ISMCTSBot`` (``--sims`` simulations, one random rollout each) against ``pyspiel.make_uniform_random_bot``
through ``pyspiel.evaluate_bots`` and prints the bot's win rate. ``--nfsp E`` trains two PyTorch NFSP
agents (``open_spiel.python.pytorch.nfsp``, hidden layer 64) by self-play in ``rl_environment`` on
information-state tensors for E episodes and prints, every E/10 episodes, the average policy's win rate
against uniform random play over 40 games (20 per seat).

CPU seconds (``time.process_time``), best round of ``--rounds`` and the median in brackets, as
``benchmarks/throughput.py``. Needs the ``openspiel`` extra. Prints a table; no assertions.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable

import pirate_envs
from pirate_envs.core.registry import ENV_IDS, game_class


def aec_loop(env_id: str, players: int) -> Callable[[float], tuple[int, int]]:
    env = pirate_envs.make(env_id, num_players=players, illegal_action="raise")
    env.reset(seed=0)
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, int]:
        decisions = games = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            env.reset()
            games += 1
            for _agent in env.agent_iter():
                obs, _, term, trunc, _ = env.last()
                if term or trunc:
                    env.step(None)
                    continue
                legal = obs["action_mask"].nonzero()[0]
                env.step(int(legal[rng.randrange(len(legal))]))
                decisions += 1
        return decisions, games

    return run


def spiel_loop(env_id: str, players: int, infostate: bool) -> Callable[[float], tuple[int, int, int]]:
    import pyspiel

    import pirate_envs.openspiel as pos

    game = pyspiel.load_game(pos.spiel_name(env_id), {"num_players": players})
    rng = random.Random(0)

    def run(seconds: float) -> tuple[int, int, int]:
        decisions = games = chance = 0
        end = time.process_time() + seconds
        while time.process_time() < end:
            state = game.new_initial_state()
            games += 1
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    action = rng.choices([o for o, _ in outcomes], [p for _, p in outcomes])[0]
                    chance += 1
                else:
                    if infostate:
                        state.information_state_tensor(state.current_player())
                    legal = state.legal_actions()
                    action = legal[rng.randrange(len(legal))]
                    decisions += 1
                state.apply_action(action)
        return decisions, games, chance

    return run


def ismcts_vs_random(env_id: str, games: int, sims: int) -> None:
    import numpy as np
    import pyspiel
    from open_spiel.python.algorithms import ismcts, mcts

    import pirate_envs.openspiel as pos

    game = pyspiel.load_game(pos.spiel_name(env_id), {"num_players": 2})
    wins = 0.0
    start = time.perf_counter()
    for g in range(games):
        seat = g % 2
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(g))
        bot = ismcts.ISMCTSBot(game, evaluator, 2.0, sims, random_state=np.random.RandomState(g))
        bots = [bot, pyspiel.make_uniform_random_bot(1 - seat, 1000 + g)]
        if seat:
            bots.reverse()
        returns = pyspiel.evaluate_bots(game.new_initial_state(), bots, g)
        wins += returns[seat] > 0
    elapsed = time.perf_counter() - start
    print(f"| {env_id} (2) | {sims} | {games} | {wins / games:.2f} | {elapsed / games:.1f} s |")


def nfsp_curve(env_id: str, episodes: int) -> None:
    import numpy as np
    import pyspiel
    import torch
    from open_spiel.python import rl_environment
    from open_spiel.python.pytorch import nfsp

    import pirate_envs.openspiel as pos

    torch.manual_seed(0)
    game = pyspiel.load_game(pos.spiel_name(env_id), {"num_players": 2})
    env = rl_environment.Environment(game, seed=0)
    size = env.observation_spec()["info_state"][0]
    actions = env.action_spec()["num_actions"]
    agents = [
        nfsp.NFSP(p, size, actions, [64], 20_000, 0.1, batch_size=64, min_buffer_size_to_learn=500, seed=p)
        for p in range(2)
    ]
    rng = np.random.default_rng(0)

    def win_rate(games: int = 40) -> float:
        wins = 0
        for g in range(games):
            seat = g % 2
            time_step = env.reset()
            while not time_step.last():
                player = time_step.observations["current_player"]
                legal = time_step.observations["legal_actions"][player]
                if player == seat:
                    with agents[seat].temp_mode_as(nfsp.MODE.AVERAGE_POLICY):
                        action = agents[seat].step(time_step, is_evaluation=True).action
                else:
                    action = int(legal[rng.integers(len(legal))])
                time_step = env.step([action])
            wins += time_step.rewards[seat] > 0
        return wins / games

    start = time.perf_counter()
    steps = 0
    print("| episodes | decisions | win rate vs random (avg policy) | minutes |")
    print("|---|---|---|---|")
    print(f"| 0 | 0 | {win_rate():.2f} | 0.0 |")
    every = max(1, episodes // 10)
    for episode in range(1, episodes + 1):
        time_step = env.reset()
        while not time_step.last():
            player = time_step.observations["current_player"]
            time_step = env.step([agents[player].step(time_step).action])
            steps += 1
        for agent in agents:
            agent.step(time_step)
        if episode % every == 0:
            minutes = (time.perf_counter() - start) / 60
            print(f"| {episode} | {steps} | {win_rate():.2f} | {minutes:.1f} |")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="CPU seconds per round and cell")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--games", nargs="*", default=list(ENV_IDS), choices=ENV_IDS)
    parser.add_argument("--players", type=int, default=None, help="player count (default: each game's default)")
    parser.add_argument("--ismcts", type=int, default=0, help="games of IS-MCTS against random bots per game")
    parser.add_argument("--sims", type=int, default=20, help="IS-MCTS simulations per decision")
    parser.add_argument("--nfsp", type=int, default=0, help="NFSP self-play training episodes (first game given)")
    args = parser.parse_args()
    if args.ismcts:
        print("| env (players) | simulations | games | IS-MCTS win rate | time per game |")
        print("|---|---|---|---|---|")
        for env_id in args.games:
            ismcts_vs_random(env_id, args.ismcts, args.sims)
        return
    if args.nfsp:
        nfsp_curve(args.games[0], args.nfsp)
        return
    print("| env (players) | AEC env | pyspiel | pyspiel + infostate tensor | pyspiel / AEC | chance nodes per game |")
    print("|---|---|---|---|---|---|")
    for env_id in args.games:
        players = args.players or game_class(env_id).default_num_players
        loops = {
            "aec": aec_loop(env_id, players),
            "spiel": spiel_loop(env_id, players, False),
            "spiel_obs": spiel_loop(env_id, players, True),
        }
        rates: dict[str, list[float]] = {name: [] for name in loops}
        chance_per_game: list[float] = []
        for _ in range(args.rounds):
            for name, loop in loops.items():
                start = time.process_time()
                result = loop(args.seconds)
                rates[name].append(result[0] / (time.process_time() - start))
                if name == "spiel" and result[1]:
                    chance_per_game.append(result[2] / result[1])
        best = {name: max(values) for name, values in rates.items()}
        cells = [f"{best[name]:,.0f} ({statistics.median(rates[name]):,.0f})" for name in loops]
        ratio = best["spiel"] / best["aec"]
        chance = statistics.mean(chance_per_game) if chance_per_game else float("nan")
        print(f"| {env_id} ({players}) | {' | '.join(cells)} | {ratio:.3f} | {chance:.0f} |")


if __name__ == "__main__":
    main()
