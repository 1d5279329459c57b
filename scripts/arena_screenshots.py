"""Screenshots of the arena for docs/arena.md: every game at a laptop's and a phone's size, a few moves in.

Starts the arena on a free loopback port, opens each game through its setup address
(``/?game=<env_id>&seats=me,heuristic,...&seed=<k>``), plays the person's first moves by clicking the
page's move controls (``[data-action]``) and saves ``<env_id>-desktop.png`` (1366x768) and
``<env_id>-phone.png`` (390x844) into the output folder. Needs Debian's ``/usr/bin/chromium`` and the
``playwright`` package (the dev extra) and the arena extra::

    .venv/bin/python scripts/arena_screenshots.py                 # into docs/img/arena/
    .venv/bin/python scripts/arena_screenshots.py --out /tmp/shots --games potsm_v0 --moves 3
"""

from __future__ import annotations

import argparse
import socket
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"]
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
SEEDS = {"potsm_v0": 7, "dead_mans_draw_v0": 5, "madame_ching_v0": 3, "tortuga_v0": 4}


@contextmanager
def arena_server(replays_dir: Path) -> Iterator[str]:
    """The arena on a free loopback port, in a thread; yields its address."""
    import uvicorn

    from pirate_envs.arena.app import create_app

    app = create_app(checkpoints_dir=None, replays_dir=replays_dir)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline:
            raise RuntimeError("the arena server did not start")
        time.sleep(0.05)
    try:
        yield f"http://127.0.0.1:{port}/"
    finally:
        server.should_exit = True
        thread.join(timeout=10)


def play_moves(page, moves: int) -> None:
    """Click ``moves`` of the person's moves: the first move control in the turn panel each time, opening a
    board element's choices first where the panel offers those."""
    for _ in range(moves):
        page.wait_for_selector("#table[data-waiting=you], #table[data-finished=true]", timeout=60_000)
        if page.get_attribute("#table", "data-finished") == "true":
            return
        group = page.query_selector("#actions button.group")
        action = page.query_selector("#actions button[data-action]")
        if action is None and group is not None:
            group.click()
            action = page.wait_for_selector("#actions button[data-action]")
        step = page.get_attribute("#table", "data-step")
        action.click()
        page.wait_for_function("step => document.querySelector('#table').dataset.step !== step", arg=step)
        page.wait_for_selector("body[data-busy=false]", state="attached")


def main(argv: list[str] | None = None) -> int:
    import pirate_envs
    from pirate_envs.core.registry import game_class

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--out", default="docs/img/arena", help="folder for the PNG files (default docs/img/arena)")
    parser.add_argument("--games", nargs="*", default=list(pirate_envs.ENV_IDS), help="env ids (default: all)")
    parser.add_argument("--moves", type=int, default=4, help="the person's moves played before the picture")
    args = parser.parse_args(argv)
    if not Path(CHROMIUM).exists():
        print(f"needs Debian's chromium at {CHROMIUM} (apt-get install chromium)", file=sys.stderr)
        return 2
    from playwright.sync_api import sync_playwright

    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as replays, arena_server(Path(replays)) as url, sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        for env_id in args.games:
            n = game_class(env_id).default_num_players
            seats = ",".join(["me"] + ["heuristic"] * (n - 1))
            for size, (width, height) in SIZES.items():
                context = browser.new_context(viewport={"width": width, "height": height})
                page = context.new_page()
                page.goto(f"{url}?game={env_id}&players={n}&seats={seats}&seed={SEEDS.get(env_id, 1)}")
                page.wait_for_selector("#table:not([hidden])", timeout=60_000)
                page.eval_on_selector("#speed", "e => { e.value = '4'; }")
                play_moves(page, args.moves)
                page.wait_for_selector("#table[data-waiting=you], #table[data-finished=true]", timeout=60_000)
                path = out / f"{env_id}-{size}.png"
                page.screenshot(path=str(path))
                print(path)
                context.close()
        browser.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
