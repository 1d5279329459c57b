"""The arena in a real browser (issue 21 §5): Debian's headless Chromium driven by Playwright.

For every game: play a whole game against random bots by clicking the first legal action each time,
checking every message the browser received for the other seats' secrets; watch a bot game to the
end switching views; save it, open the replay and step back and forth. Screenshots go to a pytest
tmp dir, and to ``artifacts/arena/`` too when ``ARENA_SCREENSHOTS`` is set.

Needs ``/usr/bin/chromium`` (apt ``chromium``) and the ``playwright`` Python package; Playwright's
own browser downloads are never used.
"""

from __future__ import annotations

import json
import os
import shutil
import socket
import threading
import time
from pathlib import Path

import pytest

CHROMIUM = "/usr/bin/chromium"
if not Path(CHROMIUM).exists():
    if os.environ.get("CI"):  # CI installs it (scripts/install_system_deps.sh): missing there is a failure
        raise RuntimeError(
            f"CI: Debian's chromium is missing at {CHROMIUM}; scripts/install_system_deps.sh installs it"
        )
    pytest.skip(
        f"the browser tests need Debian's chromium at {CHROMIUM} (apt-get install chromium)", allow_module_level=True
    )
sync_api = pytest.importorskip("playwright.sync_api", reason="the browser tests need playwright (the dev extra)")
uvicorn = pytest.importorskip("uvicorn", reason="the arena needs the arena extra (starlette, uvicorn)")

import pirate_envs  # noqa: E402
from pirate_envs.arena.app import create_app  # noqa: E402
from pirate_envs.arena.audit import SeatAudit  # noqa: E402
from pirate_envs.core.registry import game_class  # noqa: E402

CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
SHORT_OPTIONS = {"madame_ching_v0": {"round_limit": "3"}}  # option inputs of the setup form
STEP_TIMEOUT = 20_000  # ms for any one thing to appear


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arena-screens")
    keep = Path("artifacts/arena") if os.environ.get("ARENA_SCREENSHOTS") else None

    def save(page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path), full_page=True)
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, keep / path.name)
        return path

    return save


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    replays = tmp_path_factory.mktemp("replays")
    app = create_app(checkpoints_dir=None, replays_dir=replays)
    sock = socket.socket()
    sock.bind(("127.0.0.1", 0))
    port = sock.getsockname()[1]
    sock.close()
    srv = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning"))
    thread = threading.Thread(target=srv.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not srv.started:
        assert time.monotonic() < deadline, "the arena server did not start"
        time.sleep(0.05)
    yield {"url": f"http://127.0.0.1:{port}/", "app": app, "replays": replays}
    srv.should_exit = True
    thread.join(timeout=10)


@pytest.fixture(scope="module")
def browser():
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser, server):
    context = browser.new_context(viewport={"width": 1400, "height": 1000})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda exc: errors.append(str(exc)))
    page.set_default_timeout(STEP_TIMEOUT)
    page.goto(server["url"])
    page.wait_for_selector("body[data-ready=true]")
    yield page
    context.close()
    assert not errors, f"JavaScript errors on the page: {errors}"


def set_up(page, env_id: str, seats: list[str]) -> None:
    """Fill the setup form: the game, the smallest player count, short options, a policy per seat."""
    page.click("#nav-setup")
    page.select_option("#game", env_id)
    page.select_option("#players", str(len(seats)))
    if SHORT_OPTIONS.get(env_id) and page.get_attribute("#options-box", "open") is None:
        page.click("#options-box summary")  # the rule options are folded away by default
    for name, value in SHORT_OPTIONS.get(env_id, {}).items():
        page.fill(f"#options [data-option={name}]", value)
    for seat, kind in enumerate(seats):
        page.select_option(f".seat[data-seat='{seat}'] .kind", kind)
    page.fill("#seed", "5")
    page.eval_on_selector("#speed", "e => { e.value = '4'; }")  # the fastest bots


def wait_idle(page) -> None:
    page.wait_for_selector("body[data-busy=false]", state="attached")


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_play_watch_and_replay_in_the_browser(env_id, page, server, shots):
    started = time.monotonic()
    n = min(game_class(env_id).player_counts)

    # -- play a whole game against random bots by clicking, recording every answer the browser gets
    bodies: list[dict] = []

    def record(response):
        if "/api/games" in response.url and response.request.method in ("GET", "POST"):
            bodies.append(response.json())

    page.on("response", record)
    set_up(page, env_id, ["me"] + ["random"] * (n - 1))
    page.click("#start")
    page.wait_for_selector("#table:not([hidden])")
    assert page.is_hidden("#viewer-box"), "a person playing has no view switch"
    clicks = 0
    while page.get_attribute("#table", "data-finished") != "true":
        page.wait_for_selector("#actions button.action, #table[data-finished=true]")
        button = page.query_selector("#actions button.action")
        if button is not None and page.get_attribute("#table", "data-finished") != "true":
            if clicks == 0:
                button.hover()
                assert page.inner_text("#help").strip(), "the help panel explains the action"
                shots(page, f"{env_id}-play-first-decision")
            button.click()
            clicks += 1
            wait_idle(page)
        assert time.monotonic() - started < 120, f"{env_id}: the played game took too long ({clicks} clicks)"
    page.wait_for_selector("#result:not([hidden])")
    assert page.inner_text("#result-line").startswith(("Game over", "Truncated"))
    assert len(page.query_selector_all("#scores tr")) == n + 1, "a score line per seat under a header"
    assert page.query_selector_all("#board .card"), "the table is drawn as SVG cards"
    assert page.query_selector_all("#log li"), "the moves are named"
    shots(page, f"{env_id}-play-end")
    page.remove_listener("response", record)

    game_id = bodies[-1]["id"]
    match = server["app"].state.store.get(game_id)
    audit = SeatAudit(match.game, match.seed, 0)
    secrets_total = 0
    assert clicks > 0 and len(bodies) > clicks
    for body in bodies:
        assert body["id"] == game_id and body["viewer"] == 0
        found, count = audit.check(match.actions[: body["step"]], body)
        assert not found, f"{env_id}: the browser was sent other seats' secrets at step {body['step']}: {found}"
        secrets_total += count
    assert secrets_total > 0

    # -- watch bots play to the end, switching views, then save the game as a replay
    set_up(page, env_id, ["random"] * n)
    page.click("#start")
    page.wait_for_selector("#table[data-mode=watch]")
    page.click("#step")
    page.wait_for_selector("#table[data-step='1']")
    page.select_option("#viewer", "1")
    wait_idle(page)
    assert "player_1" in page.inner_text("#mode")
    page.click("#play")
    page.wait_for_selector("#table[data-finished=true]", timeout=90_000)
    page.select_option("#viewer", "spectator")
    page.wait_for_selector("#mode:has-text('spectator view')")
    shots(page, f"{env_id}-watch-end")
    page.click("#save-replay")
    page.wait_for_selector("#saved:has-text('saved as')")
    saved = page.inner_text("#saved").removeprefix("saved as ").strip()
    total = json.loads((server["replays"] / saved).read_text())["actions"]

    # -- open the replay and step through it, back and forth, with the view switch
    page.click("#nav-replays")
    page.click(f"#replay-list button[data-path='{saved}']")
    page.wait_for_selector("#table[data-mode=replay][data-step='0']")
    page.click("#fwd")
    page.wait_for_selector("#table[data-step='1']")
    page.click("#fwd")
    page.wait_for_selector("#table[data-step='2']")
    page.click("#back")
    page.wait_for_selector("#table[data-step='1']")
    page.select_option("#viewer", "0")
    page.wait_for_selector("#mode:has-text('viewing as player_0')")
    assert page.get_attribute("#table", "data-step") == "1"
    page.click("#last")
    page.wait_for_selector(f"#table[data-step='{len(total)}']")
    page.wait_for_selector("#result:not([hidden])")
    shots(page, f"{env_id}-replay-end")
    page.click("#first")
    page.wait_for_selector("#table[data-step='0']")
    assert time.monotonic() - started < 180
