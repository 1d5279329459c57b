"""A person plays any registered game in the terminal against bots: ``python -m training.apps.play``.

    python -m training.apps.play --env potsm_v0 --seat 0 --num-players 4 --opponents heuristic
    python -m training.apps.play --env potsm_v0 --seat 2 --opponents random heuristic model.zip

Everything printed comes from what the person's seat may see, in words: the table is the game's
``table_view(seat)`` written out by :mod:`pirate_envs.drawing.text` (the same view the pictures
and the browser arena draw), each prompt says what is being decided, and every move of every seat is
told as it happens by the game's ``describe_action`` as the person may read it (a card played face
down stays unnamed) and ``narration.describe_outcome`` (the card a draw turned up, a log entry).

At a prompt: a number picks that choice; ``?`` or ``help`` explains the decision, every choice and
everything on the table (``? 3`` explains choice 3 alone); ``v`` shows the table again; ``q``, end
of input (Ctrl-D) or Ctrl-C leave the game cleanly. Anything else is asked again. Lines are wrapped
to the terminal's width. At the end: the final table and the result line.

``--opponents`` takes one spec for every other seat, or one per other seat in seat order
(any policy spec, :mod:`pirate_envs.policies.spec`: ``random``, ``heuristic``, ``shipped``, a search
bot, a checkpoint path, ``module:callable``). Input and output are injectable:
:func:`play_game` takes ``input_fn`` and ``print_fn``, so tests drive it with scripts. The
game uses ``seed`` as its engine seed and the bots draw from ``numpy.random.default_rng(seed)``.
"""

from __future__ import annotations

import argparse
import shutil
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from pirate_envs.cli import command_prog
from pirate_envs.core.errors import IllegalActionError
from pirate_envs.drawing.table import TableView, seat_name
from pirate_envs.drawing.text import (
    choice_lines,
    describe_outcome,
    glossary_lines,
    help_lines,
    rules_doc,
    table_lines,
    wrap,
)
from pirate_envs.policies.base import choose_action as bot_action
from pirate_envs.policies.spec import SYNOPSIS

from ..inputs import EXIT_USAGE, InputError, add_game_arguments, load_policy, make_game, parse_options

QUIT_WORDS = ("q", "quit", "exit")
VIEW_WORDS = ("v", "view")
HELP_WORDS = ("?", "h", "help")
MIN_WIDTH = 40


def terminal_width() -> int:
    """The terminal's width in columns (100 when there is no terminal)."""
    return max(MIN_WIDTH, shutil.get_terminal_size((100, 24)).columns)


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


def prompt_text(count: int) -> str:
    return f"Choose 1-{count} (?: help, v: view again, q: quit): "


def choice_help(view: TableView, number: int, width: int) -> list[str]:
    """``? N``: choice N's label and what it does."""
    legal = view.legal[number - 1]
    return wrap(f"{number}. {legal.label}: {legal.detail or view.decision_help or 'no more to say.'}", width)


def choose_action(
    state: Any,
    seat: int,
    input_fn: Callable[[str], str],
    print_fn: Callable[..., None],
    width: int | None = None,
) -> int | None:
    """Show ``seat``'s table and numbered legal actions; return the chosen action, None to quit."""
    width = width or terminal_width()
    view = state.table_view(seat)
    count = len(view.legal)
    doc = rules_doc(state.game)

    def show() -> None:
        print_fn("")
        for line in table_lines(view, width) + choice_lines(view, width):
            print_fn(line)

    def ask_again() -> None:
        print_fn(f"Please type a number from 1 to {count}, or ? for help.")

    show()
    while True:
        try:
            answer = input_fn(prompt_text(count)).strip().lower()
        except (EOFError, KeyboardInterrupt):
            print_fn("")
            return None
        words = answer.split()
        if answer in QUIT_WORDS:
            return None
        if answer in VIEW_WORDS:
            show()
            continue
        if words and words[0] in HELP_WORDS:
            if len(words) == 1:
                for line in help_lines(view, width, doc):
                    print_fn(line)
            elif len(words) == 2 and words[1].isdigit() and 1 <= int(words[1]) <= count:
                for line in choice_help(view, int(words[1]), width):
                    print_fn(line)
            else:
                print_fn(f"Type ? for help on this decision, or ? and a number from 1 to {count} for one choice.")
            continue
        if not answer.lstrip("-").isdigit():
            ask_again()
            continue
        number = int(answer)
        if not 1 <= number <= count:
            print_fn(f"{number} is not one of the choices; type a number from 1 to {count}.")
            continue
        return view.legal[number - 1].action


def tell_move(
    state_before: Any, view_before: TableView, actor: int, action: int, state_after: Any, seat: int
) -> list[str]:
    """The lines that tell ``seat`` about ``actor``'s move: the move as ``seat`` may read it, then what followed."""
    game = state_before.game
    text = game.view_builder().describe_action(state_before, actor, action, seat)
    own = seat_name(seat)
    if actor == seat and text.startswith((own + ":", own + " ")):
        text = "You" + text[len(own) :]
    return [text, *describe_outcome(game, view_before, state_after.table_view(seat))]


def play_game(
    env_id: str,
    seat: int = 0,
    opponents: Sequence[Any] = ("heuristic",),
    num_players: int | None = None,
    seed: int = 0,
    options: dict[str, Any] | None = None,
    input_fn: Callable[[str], str] = input,
    print_fn: Callable[..., None] = print,
    width: int | None = None,
) -> dict:
    """Play one game with a person at ``seat``; return ``{"completed", "actions", "scores", "winners", ...}``.

    Bad inputs (env id, player count, options, seat, opponent specs) raise ``InputError``.
    ``actions`` lists every action taken in order, so the game can be replayed from ``seed``.
    ``width``: the line width (default: the terminal's).
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
    width = width or terminal_width()

    def say(text: str, indent: str = "") -> None:
        for line in wrap(text, width, indent):
            print_fn(line)

    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    actions: list[int] = []
    display = getattr(game, "display_name", "") or env_id
    say(f"{display} ({env_id}), {n} players, seed {seed}. You are {seat_name(seat)}.")
    for bot_seat, (label, _) in bots.items():
        say(f"{seat_name(bot_seat)} is played by the {label} bot.", "  ")
    glossary = glossary_lines(state.table_view(seat), width)
    if glossary:
        print_fn("Codes on the table:")
        for line in glossary:
            print_fn(line)
    say(f"Type ? at a prompt for help. The rules: {rules_doc(game)}")

    while not state.is_terminal():
        current = state.current_player()
        view_before = state.table_view(seat)
        before = state.clone()
        if current == seat:
            action = choose_action(state, seat, input_fn, print_fn, width)
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
        for line in tell_move(before, view_before, current, action, state, seat):
            say(line.strip(), "  " if line.startswith(" ") else "")

    return _finish(state, seat, actions, seed, print_fn, width)


def _finish(state: Any, seat: int, actions: list[int], seed: int, print_fn: Callable[..., None], width: int) -> dict:
    scores = [float(s) for s in state.scores()]
    winners = state.winners()
    print_fn("")
    for line in table_lines(state.table_view(seat), width):
        print_fn(line)
    if state.is_truncated():
        pass  # the result line says the game was cut
    elif seat in winners:
        print_fn("You win!" if len(winners) == 1 else f"You win, with {', '.join(map(seat_name, winners))}!")
    else:
        print_fn("You lose.")
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
    parser = argparse.ArgumentParser(prog=command_prog(__spec__.name), description="Play a game against bots.")
    add_game_arguments(parser)
    parser.add_argument("--seat", type=int, default=0, help="your seat, 0..n-1 (default 0)")
    parser.add_argument(
        "--opponents",
        nargs="+",
        default=["heuristic"],
        metavar="SPEC",
        help=f"{SYNOPSIS}: one for all other seats, or one per other seat (default heuristic)",
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
