"""The ``pirate-envs`` command (installed by pip): one subcommand per tool of the project.

    pirate-envs --help                      # every subcommand with a one-line description
    pirate-envs train potsm_v0              # = python -m training.train configs/potsm_v0.yaml
    pirate-envs evaluate --env potsm_v0 --num-players 4 --checkpoint shipped --vs random --games 4

Each subcommand hands the rest of the command line, unchanged, to the ``main(argv)`` of the module
that ``python -m`` runs from a checkout (``training.train`` there is ``pirate_envs.training.train`` in an
installed wheel), so it takes exactly that module's options. :data:`COMMANDS` is the one table of
subcommands: a tool becomes a subcommand by adding a row. Modules are imported only when their
subcommand runs, so ``--help`` works without the optional extras and a row may name a module that a
given install lacks (the subcommand then says so).
"""

from __future__ import annotations

import difflib
import functools
import importlib
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from pirate_envs._version import __version__

PROG = "pirate-envs"
EXIT_USAGE = 2
_running: str | None = None  # the subcommand main() is running, for command_prog


@dataclass(frozen=True)
class Command:
    """A subcommand: the module whose ``main(argv: list[str] | None) -> int`` runs it, a one-line summary
    for ``--help``, and the pip extra its imports need (named when one is missing)."""

    module: str
    summary: str
    extra: str | None = None


COMMANDS: dict[str, Command] = {
    "train": Command(
        "pirate_envs.training.train",
        "train a MaskablePPO agent from a YAML config, or a game id's shipped config (potsm_v0)",
        "train",
    ),
    "evaluate": Command(
        "pirate_envs.training.evaluation.evaluate",
        "seat-rotated tournaments between policies, or a checkpoint ('shipped' too) against opponent kinds",
        "train",
    ),
    "play": Command("pirate_envs.training.apps.play", "play a game in the terminal against bots", "train"),
    "ship": Command("pirate_envs.training.apps.ship", "release a trained run's model as a shipped checkpoint", "train"),
    "record-strength": Command(
        "pirate_envs.training.apps.record_strength",
        "measure each game's parity and heuristic-vs-random rates and record them in its shipped eval.json",
        "train",
    ),
    "rate": Command(
        "pirate_envs.training.evaluation.rate",
        "place a policy on its game's reference ladder (a rating with a 95% interval)",
        "train",
    ),
    "exploit": Command(
        "pirate_envs.training.evaluation.exploit",
        "train a best response to a frozen policy (a lower bound on its exploitability)",
        "train",
    ),
    "rllib-train": Command(
        "pirate_envs.training.rllib_train", "multi-agent PPO self-play on Ray RLlib from a YAML config", "rllib"
    ),
    "arena": Command("pirate_envs.arena.__main__", "a local web page to play, watch and replay games", "arena"),
    "demo": Command("pirate_envs.demo", "one demo game: the heuristic bot against random bots"),
}


def command_prog(module: str) -> str:
    """The program name of ``module``'s usage line (its argparse ``prog``): ``pirate-envs NAME`` while that
    subcommand runs it, else ``python -m MODULE``. Modules pass their ``__spec__.name``."""
    return f"{PROG} {_running}" if _running is not None else f"python -m {module}"


def exits_on(
    *errors: type[Exception], label: str = "error"
) -> Callable[[Callable[..., int | None]], Callable[..., int]]:
    """A decorator for a command's ``main(argv)``: one of ``errors`` escaping it (bad input, not a crash) is
    printed on stderr as ``LABEL: message`` and the command returns :data:`EXIT_USAGE`."""

    def decorate(main: Callable[..., int | None]) -> Callable[..., int]:
        @functools.wraps(main)
        def run(*args: object, **kwargs: object) -> int:
            try:
                return int(main(*args, **kwargs) or 0)
            except errors as exc:
                print(f"{label}: {exc}", file=sys.stderr)
                return EXIT_USAGE

        return run

    return decorate


def usage() -> str:
    width = max(map(len, COMMANDS))
    rows = "\n".join(f"  {name:<{width}}  {command.summary}" for name, command in COMMANDS.items())
    return (
        f"usage: {PROG} [-h] [--version] COMMAND [ARGS ...]\n\n"
        "Pirate board and card games for multi-agent RL: training, evaluation and play.\n\n"
        f"commands:\n{rows}\n\n"
        f"'{PROG} COMMAND --help' shows a command's options.\n"
    )


def load_command(name: str) -> Callable[[list[str]], int | None]:
    """The ``main`` function of subcommand ``name``; raises ``LookupError`` saying why it cannot run."""
    command = COMMANDS[name]
    try:
        module = importlib.import_module(command.module)
    except ModuleNotFoundError as exc:
        missing = exc.name or ""
        if command.module == missing or command.module.startswith(missing + "."):
            raise LookupError(f"{PROG} {name}: not available in this install (no module {command.module})") from None
        hint = f": pip install 'pirate_envs[{command.extra}]'" if command.extra else ""
        raise LookupError(f"{PROG} {name} needs the module {missing!r}, missing here{hint}") from None
    main = getattr(module, "main", None)
    if not callable(main):
        raise LookupError(f"{PROG} {name}: {command.module} has no main(argv) function")
    return main


def main(argv: Sequence[str] | None = None) -> int:
    args = list(sys.argv[1:] if argv is None else argv)
    if not args:
        print(usage(), end="", file=sys.stderr)
        return EXIT_USAGE
    if args[0] in ("-h", "--help"):
        print(usage(), end="")
        return 0
    if args[0] == "--version":
        print(f"{PROG} {__version__}")
        return 0
    name, rest = args[0], args[1:]
    if name not in COMMANDS:
        close = difflib.get_close_matches(name, COMMANDS, n=1)
        hint = f" (did you mean {close[0]!r}?)" if close else ""
        print(f"{PROG}: unknown command {name!r}{hint}; commands: {', '.join(COMMANDS)}", file=sys.stderr)
        return EXIT_USAGE
    try:
        command_main = load_command(name)
    except LookupError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return EXIT_USAGE
    global _running
    _running = name
    try:
        code = command_main(rest)
    finally:
        _running = None
    return int(code or 0)


if __name__ == "__main__":
    sys.exit(main())
