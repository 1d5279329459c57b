"""A demo game: the heuristic bot against random bots, told as a compact game log.

    python -m pirate_envs.demo [ENV_ID] [--num-players N] [--seed S] [--quiet] [--gif game.gif]

Seat 0 is played by the game's heuristic bot, every other seat by a random bot. The log is a
spectator's (public information only): the codes the table uses, explained once; the table once
per round (:mod:`pirate_envs.drawing.text` writes the game's ``table_view(None)``); one line per
action as a spectator may read it (``describe_action``: a card played face down stays unnamed), with
what it turned up (``narration.describe_outcome``); at the end the final table (all secrets the rules
reveal) and the result line. ``--quiet`` prints the header, the final table and the result only.
``--gif PATH`` also writes the whole game as an animated GIF: the drawn table of the spectator
(public information only), one frame per action.
"""

from __future__ import annotations

import argparse
import sys

import numpy as np

import pirate_envs
from pirate_envs.cli import command_prog, exits_on
from pirate_envs.core.registry import env_module
from pirate_envs.drawing.render_modes import TablePainter
from pirate_envs.drawing.text import (
    DEFAULT_WIDTH,
    describe_outcome,
    glossary_lines,
    round_number,
    rules_doc,
    table_lines,
    wrap,
)
from pirate_envs.policies.base import RandomPolicy

GIF_SCALE = 0.5  # frames are drawn at 1280x720 and stored at half size
GIF_FRAME_MS = 600
GIF_LAST_FRAME_MS = 4000


def play_demo(
    env_id: str = "potsm_v0",
    num_players: int | None = None,
    seed: int = 0,
    verbose: bool = True,
    out=print,
    frames: list | None = None,
    width: int = DEFAULT_WIDTH,
) -> list[float]:
    """Play one game; return the final returns per seat. ``frames``: a list that receives the drawn
    table (spectator) before the first action and after each one."""
    module = env_module(env_id)
    game = module.Game(num_players=num_players)
    bots = [module.HeuristicPolicy(game)] + [RandomPolicy() for _ in range(game.num_players - 1)]
    names = ["heuristic"] + ["random"] * (game.num_players - 1)
    rng = np.random.default_rng(seed)
    state = game.new_initial_state(seed)
    painter = TablePainter(game, "rgb_array" if frames is not None else None)
    if frames is not None:
        frames.append(painter.frame(state))
    spectator = state.table_view(None)
    header = (
        f"{game.display_name} ({env_id}), {game.num_players} players, seed {seed}.",
        "Seats: " + ", ".join(f"player_{s} = {name} bot" for s, name in enumerate(names)) + ".",
        f"A spectator's log: public information only. The rules: {rules_doc(game)}",
    )
    for line in (part for text in header for part in wrap(text, width)):
        out(line)
    if spectator.glossary:
        out("Codes on the table:")
        for line in glossary_lines(spectator, width):
            out(line)
    shown_round = None
    while not state.is_terminal():
        seat = state.current_player()
        action = bots[seat].act(state.observation(seat), state.legal_action_mask(), rng)
        if verbose:
            current_round = round_number(game, state)
            if current_round != shown_round:  # the table once per round, the moves one line each
                shown_round = current_round
                out("")
                for line in table_lines(spectator, width):
                    out(line)
            said = game.view_builder().describe_action(state, seat, int(action), None)
        painter.apply(state, action)
        if frames is not None:
            frames.append(painter.frame(state))
        after = state.table_view(None)
        if verbose:
            for line in [f"{said} [{names[seat]}]", *describe_outcome(game, spectator, after)]:
                for part in wrap(line.strip(), width, "  " if line.startswith(" ") else ""):
                    out(part)
        spectator = after
    out("")
    for line in table_lines(spectator, width):
        out(line)
    returns = state.returns()
    return returns


def write_gif(frames: list, path: str) -> None:
    """Save ``frames`` (RGB arrays of one size) as a looping GIF at half size; the last frame lingers."""
    from PIL import Image

    images = []
    for frame in frames:
        image = Image.fromarray(frame)
        size = (int(image.width * GIF_SCALE), int(image.height * GIF_SCALE))
        images.append(image.resize(size, Image.Resampling.LANCZOS).quantize(colors=128))
    durations = [GIF_FRAME_MS] * (len(images) - 1) + [GIF_LAST_FRAME_MS]
    images[0].save(path, save_all=True, append_images=images[1:], duration=durations, loop=0, optimize=True)


@exits_on(ValueError)
def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog=command_prog(__spec__.name), description="Play one demo game: heuristic bot (seat 0) vs random bots."
    )
    parser.add_argument("env_id", nargs="?", default="potsm_v0", help=f"one of {', '.join(pirate_envs.ENV_IDS)}")
    parser.add_argument("--num-players", type=int, default=None)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--quiet", action="store_true", help="print only the final table and result")
    parser.add_argument("--gif", metavar="PATH", default=None, help="also write the game as an animated GIF")
    args = parser.parse_args(argv)
    frames: list | None = [] if args.gif else None
    play_demo(args.env_id, args.num_players, args.seed, verbose=not args.quiet, frames=frames)
    if args.gif:
        write_gif(frames, args.gif)
        print(f"wrote {args.gif} ({len(frames)} frames)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
