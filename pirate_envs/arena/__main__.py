"""``python -m pirate_envs.arena``: start the arena on 127.0.0.1 and print the address to open."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from pirate_envs.cli import command_prog

DEFAULT_PORT = 8765
DEFAULT_CHECKPOINTS = "checkpoints"


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog=command_prog("pirate_envs.arena"),
        description="A local web page to play, watch and replay the pirate_envs games against bots.",
    )
    parser.add_argument("--host", default="127.0.0.1", help="address to bind (default 127.0.0.1: this machine only)")
    parser.add_argument("--port", type=int, default=DEFAULT_PORT, help=f"port (default {DEFAULT_PORT}; 0 = any free)")
    parser.add_argument(
        "--checkpoints-dir",
        default=DEFAULT_CHECKPOINTS,
        help="checkpoints offered as bots (*.zip inside; default ./checkpoints, else the shipped agents)",
    )
    parser.add_argument("--runs-dir", default=None, help="a training runs directory whose *.zip files are offered too")
    parser.add_argument(
        "--replays-dir", default="replays", help="replay files (*.json) to open; finished games are saved here"
    )
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if not 0 <= args.port < 65536:
        print(f"--port must be 0..65535; got {args.port}", file=sys.stderr)
        return 2
    try:
        import uvicorn

        from pirate_envs.arena.app import LOCAL_HOSTS, create_app
    except ImportError as exc:
        print(f"the arena needs the 'arena' extra: pip install 'pirate_envs[arena]' ({exc})", file=sys.stderr)
        return 2
    if args.checkpoints_dir == DEFAULT_CHECKPOINTS and not Path(DEFAULT_CHECKPOINTS).is_dir():
        from pirate_envs.shipped import checkpoints_dir

        args.checkpoints_dir = str(checkpoints_dir())  # run elsewhere or installed: the shipped agents
    for flag, value in (("--checkpoints-dir", args.checkpoints_dir), ("--runs-dir", args.runs_dir)):
        if value and not Path(value).is_dir():
            print(f"note: {flag} {value} is not a directory; nothing will be offered from it", file=sys.stderr)
    local = args.host in ("127.0.0.1", "localhost", "::1")
    if not local:
        print(f"warning: serving on {args.host}: anyone who can reach this address can use the arena", file=sys.stderr)
    app = create_app(
        checkpoints_dir=args.checkpoints_dir,
        runs_dir=args.runs_dir,
        replays_dir=args.replays_dir,
        allowed_hosts=LOCAL_HOSTS if local else ["*"],
    )
    config = uvicorn.Config(app, host=args.host, port=args.port, log_level="warning")
    server = uvicorn.Server(config)

    startup = server.startup

    async def announce(sockets=None):  # print the real address (port 0 picks one) once bound
        await startup(sockets)
        for listener in server.servers:
            for sock in listener.sockets:
                host, port = sock.getsockname()[:2]
                shown = f"[{host}]" if ":" in host else host
                print(f"pirate_envs arena: open http://{shown}:{port}/ in your browser (Ctrl-C stops it)", flush=True)
                return

    server.startup = announce
    server.run()
    return 0


if __name__ == "__main__":
    sys.exit(main())
