"""A person plays any registered game in the terminal against bots: ``python -m training.play``.

    python -m training.play --env potsm_v0 --seat 0 --num-players 4 --opponents heuristic
    python -m training.play --env potsm_v0 --seat 2 --opponents random heuristic model.zip

The person sees only their own seat's view (``state.render(viewer=seat)``, nothing else of the
state is ever printed), picks one of the numbered legal actions (named by
``game.action_to_string``), and sees every bot move announced by name. A non-number, a number
out of range or an illegal choice is asked again; ``q``, end of input (Ctrl-D) or Ctrl-C leave
the game cleanly; ``v`` shows the view again. At the end: the final view, scores and winner.

``--opponents`` takes one spec for every other seat, or one per other seat in seat order
(``random``, ``heuristic`` or a checkpoint path). Input and output are injectable:
:func:`play_game` takes ``input_fn`` and ``print_fn``, so tests drive it with scripts. The
game uses ``seed`` as its engine seed and the bots draw from ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pirate_envs.core.errors import IllegalActionError
from pirate_envs.core.policy import choose_action as bot_action
from training.inputs import EXIT_USAGE, InputError, add_game_arguments, load_policy, make_game, parse_options

QUIT_WORDS = ("q", "quit", "exit")
VIEW_WORDS = ("v", "view")


def seat_name(seat: int) -> str:
    return f"player_{seat}"


def assign_opponents(opponents: Sequence[Any], seat: int, num_players: int) -> dict[int, Any]:
    """Spec per bot seat: one spec for all other seats, or one per other seat in seat order."""
    bot_seats = [s for s in range(num_players) if s != seat]
    if len(opponents) == 1:
        return dict.fromkeys(bot_seats, opponents[0])
    if len(opponents) != len(bot_seats):
        raise InputError(
            f"--opponents takes 1 spec (for every other seat) or {len(bot_seats)} (one per seat "
            f"{', '.join(map(str, bot_seats))}); got {len(opponents)}"
        )
    return dict(zip(bot_seats, opponents, strict=True))


def choose_action(state: Any, seat: int, input_fn: Callable[[str], str], print_fn: Callable[..., None]) -> int | None:
    """Show ``seat``'s view and numbered legal actions; return the chosen action, None to quit."""
    game = state.game
    legal = state.legal_actions()

    def show() -> None:
        print_fn("")
        print_fn(state.render(viewer=seat))
        print_fn(f"Your move, {seat_name(seat)}:")
        for number, action in enumerate(legal, start=1):
            print_fn(f"  {number:>3}. {game.action_to_string(action)}")

    show()
    while True:
        try:
            answer = input_fn(f"Choose 1-{len(legal)} (v: view again, q: quit): ").strip().lower()
        except (EOFError, KeyboardInterrupt):
            print_fn("")
            return None
        if answer in QUIT_WORDS:
            return None
        if answer in VIEW_WORDS:
            show()
            continue
        if not answer.lstrip("-").isdigit():
            print_fn(f"Please type a number from 1 to {len(legal)}.")
            continue
        number = int(answer)
        if not 1 <= number <= len(legal):
            print_fn(f"{number} is not one of the choices; type a number from 1 to {len(legal)}.")
            continue
        return legal[number - 1]


def play_game(
    env_id: str,
    seat: int = 0,
    opponents: Sequence[Any] = ("heuristic",),
    num_players: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[..., None] = print,
) -> dict:
    """Play one game with a person at ``seat``; return ``{"completed", "actions", "scores", "winners", ...}``.

    Bad inputs (env id, player count, options, seat, opponent specs) raise ``InputError``.
    ``actions`` lists every action taken in order, so the game can be replayed from ``seed``.
    """
    game = make_game(env_id, num_players, options)
    n = game.num_players
    if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < n:
        raise InputError(f"--seat must be a seat number from 0 to {n - 1}; got {seat!r}")
    specs = assign_opponents(list(opponents), seat, n)
    loaded: dict[str, Any] = {}
    bots = {}
    for bot_seat, spec in specs.items():
        key = str(spec)
        if key not in loaded:
            loaded[key] = load_policy(spec, game)
        bots[bot_seat] = (key, loaded[key])

    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    actions: list[int] = []
    display = getattr(game, "display_name", "") or env_id
    print_fn(f"{display} ({env_id}), {n} players, seed {seed}. You are {seat_name(seat)}.")
    for bot_seat, (label, _) in bots.items():
        print_fn(f"  {seat_name(bot_seat)}: {label}")

    while not state.is_terminal():
        current = state.current_player()
        if current == seat:
            action = choose_action(state, seat, input_fn, print_fn)
            if action is None:
                print_fn("You left the game.")
                return {"completed": False, "seed": seed, "seat": seat, "actions": actions}
            who = "You"
        else:
            label, bot = bots[current]
            action = bot_action(bot, state, current, rng)
            who = f"{seat_name(current)} ({label})"
        try:
            state.apply_action(action)
        except IllegalActionError as exc:  # only a faulty bot can get here: the person picks from legal ones
            raise RuntimeError(f"{who} chose an illegal action: {exc}") from exc
        actions.append(action)
        print_fn(f"{who}: {game.action_to_string(action)}")

    return _finish(state, seat, actions, seed, print_fn)


def _finish(state: Any, seat: int, actions: list[int], seed: int, print_fn: Callable[..., None]) -> dict:
    scores = [float(s) for s in state.scores()]
    winners = state.winners()
    print_fn("")
    print_fn(state.render(viewer=seat))
    print_fn("Final scores:")
    for s, score in enumerate(scores):
        you = " (you)" if s == seat else ""
        print_fn(f"  {seat_name(s)}{you}: {score:g}")
    if state.is_truncated():
        print_fn("The game was cut at its decision limit: no winner.")
    elif seat in winners:
        print_fn("You win!" if len(winners) == 1 else f"You win, with {', '.join(map(seat_name, winners))}!")
    else:
        print_fn(f"Winner: {', '.join(map(seat_name, winners))}.")
    return {
        "completed": True,
        "seed": seed,
        "seat": seat,
        "actions": actions,
        "scores": scores,
        "returns": [float(r) for r in state.returns()],
        "winners": winners,
        "truncated": bool(state.is_truncated()),
    }


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m training.play", description="Play a game against bots.")
    add_game_arguments(parser)
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0..n-1 (default 0)")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic"],
        metavar="SPEC",
        help=(
            "random | heuristic | ismcts[:k=v,...] | flatmc[:k=v,...] | PATH.zip: one for all other seats, "
            "or one per other seat (default heuristic)"
        ),
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    try:
        options = parse_options(args.env, args.option)
        play_game(args.env, args.seat, args.opponents, args.num_players, args.seed, options)
    except InputError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:  # Ctrl-C while a bot thinks
        print("\nYou left the game.")
    return 0


if __name__ == "__main__":
    sys.exit(main())
