"""The arena in a real browser (issues 21 and 48): Debian's headless Chromium driven by Playwright.

For every game, at a laptop's size (1366x768) and a phone's (390x844): the setup address starts the game;
nothing scrolls sideways; the board is drawn (``[data-board]``) and on a phone uses the screen's width;
no rule id, file path, agent name or card code is in the visible text; the turn panel stays in view; a
whole game is played by clicking the page's move controls (``[data-action]``, on the board and in the
panel), checking every message the browser received for the other seats' secrets, and ends with the
explanation in ``[data-result]``, scrolled into view. Then: watching bots to the end with the view switch,
saving, the replay list, and the replay slider moving to the chosen step; the setup form (player counts,
agents that fit, the advanced fold, the help panel).

Screenshots go to a pytest tmp dir, and to ``artifacts/arena/`` too when ``ARENA_SCREENSHOTS`` is set.
Needs ``/usr/bin/chromium`` (apt ``chromium``) and the ``playwright`` Python package; Playwright's own
browser downloads are never used.
"""

from __future__ import annotations

import importlib.util
import json
import os
import random
import re
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
SIZES = {"desktop": (1366, 768), "phone": (390, 844)}
SHORT_OPTIONS = {"madame_ching_v0": {"round_limit": "3"}}  # short games, set through the setup address
STEP_TIMEOUT = 20_000  # ms for any one thing to appear
SHIPPED = Path(__file__).resolve().parent.parent / "checkpoints"
# What a player must never read (issue 48 §2): internal codes, with what each one is.
FORBIDDEN = [
    (r"\b[A-Z]{2,4}-\d{3,4}\b", "a rule id"),
    (r"\bplayer_\d\b", "an agent name"),
    (r"[\w-]+/[\w./-]+\.(?:zip|json|py)\b|\bcheckpoints/", "a file path"),
    (r"\b\d{1,2}[WBGYRP]-[MLSK-]", "a Madame Ching card code"),
    (r"\bb/r/w\b|\(\d,\d\)=\d", "a Madame Ching code"),
    (r"\b(?:FM|C)-(?:ENG|FRA|SPA)\b|\bLANE_[A-Z]\b|\bGOV\b|\bp\d\b", "a Tortuga code"),
    (r"\bS=\d", "a Dead Man's Draw score code"),
]


@pytest.fixture(scope="module")
def shots(tmp_path_factory):
    folder = tmp_path_factory.mktemp("arena-screens")
    keep = Path("artifacts/arena") if os.environ.get("ARENA_SCREENSHOTS") else None

    def save(page, name: str) -> Path:
        path = folder / f"{name}.png"
        page.screenshot(path=str(path))
        if keep is not None:
            keep.mkdir(parents=True, exist_ok=True)
            shutil.copy(path, keep / path.name)
        return path

    return save


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    replays = tmp_path_factory.mktemp("replays")
    app = create_app(checkpoints_dir=SHIPPED if SHIPPED.is_dir() else None, replays_dir=replays)
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


def open_page(browser, url: str, size: str = "desktop"):
    width, height = SIZES[size]
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    page.errors = []
    page.on("pageerror", lambda exc: page.errors.append(str(exc)))
    page.set_default_timeout(STEP_TIMEOUT)
    page.goto(url)
    return page


@pytest.fixture
def page(browser, server):
    page = open_page(browser, server["url"])
    page.wait_for_selector("body[data-ready=true]")
    yield page
    page.context.close()
    assert not page.errors, f"JavaScript errors on the page: {page.errors}"


def setup_address(env_id: str, seats: list[str], seed: int = 5) -> str:
    options = "".join(f"&option.{k}={v}" for k, v in SHORT_OPTIONS.get(env_id, {}).items())
    return f"?game={env_id}&players={len(seats)}&seats={','.join(seats)}&seed={seed}{options}"


def fastest_bots(page) -> None:
    page.eval_on_selector("#speed", "e => { e.value = '4'; }")


def wait_idle(page) -> None:
    page.wait_for_selector("body[data-busy=false]", state="attached")


def wait_for_me(page) -> None:
    """Until the person is to act or the game is over (bots move on their own in between)."""
    page.wait_for_selector("#table[data-waiting=you], #table[data-finished=true]", timeout=60_000)
    wait_idle(page)


def check_readable(page, env_id: str, size: str) -> None:
    """No sideways scrolling, the board drawn at a useful size, and nothing in the visible text a player
    should not have to read."""
    width, height = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert width <= height, f"{env_id} {size}: the page scrolls sideways ({width} px wide in {height})"
    board = page.query_selector("#board[data-board]")
    assert board is not None, f"{env_id}: the board's root carries data-board"
    box = board.bounding_box()
    inner = page.evaluate("innerWidth")
    assert box["height"] > 150 and box["width"] > 300, f"{env_id} {size}: the board is {box}"
    if size == "phone":
        assert box["width"] >= 0.9 * inner, f"{env_id}: the board uses {box['width']} of the phone's {inner} px"
    text = page.inner_text("body")
    for pattern, what in FORBIDDEN:
        found = re.findall(pattern, text)
        assert not found, f"{env_id} {size}: {what} in the visible text: {sorted(set(found))[:5]}"


def check_turn_panel_in_view(page, env_id: str) -> None:
    """The turn panel stays in view wherever the page is scrolled (sticky)."""
    for where in ("0", "document.documentElement.scrollHeight"):
        page.evaluate(f"window.scrollTo(0, {where})")
        page.wait_for_timeout(50)
        box = page.query_selector("#turn-panel").bounding_box()
        height = page.evaluate("innerHeight")
        assert box["y"] < height and box["y"] + min(box["height"], 60) > 0, f"{env_id}: the turn panel is off-screen"
        controls = "#turn-panel [data-action], #turn-panel [data-target], #turn-panel .group, #turn-panel summary"
        assert page.is_visible(controls), f"{env_id}: no control in the turn panel"


def click_a_move(page, rng: random.Random) -> None:
    """One of the person's moves, clicked as a player would: a board element or a panel button. A board
    element with several choices opens them in the turn panel, and one of those is clicked."""
    every = (
        "#board [data-action], #board [data-target], #actions [data-action], #actions [data-target], #actions .group"
    )
    controls = [c for c in page.query_selector_all(every) if c.is_visible()]
    assert controls, "the person is to act but no move control is shown"
    control = rng.choice(controls)
    if control.get_attribute("data-action") is None:
        control.click()
        choices = [c for c in page.query_selector_all("#actions [data-action]") if c.is_visible()]
        groups = [c for c in page.query_selector_all("#actions button.group") if c.is_visible()]
        while not choices and groups:
            rng.choice(groups).click()
            choices = [c for c in page.query_selector_all("#actions [data-action]") if c.is_visible()]
            groups = [c for c in page.query_selector_all("#actions button.group") if c.is_visible()]
        control = rng.choice(choices)
    step = page.get_attribute("#table", "data-step")
    control.scroll_into_view_if_needed()
    control.click()
    page.wait_for_function(
        "step => document.querySelector('#table').dataset.step !== step"
        " || (document.body.dataset.busy === 'false' && !document.querySelector('#error').hidden)",
        arg=step,
    )
    assert page.is_hidden("#error"), f"a move was refused: {page.inner_text('#error')}"


@pytest.mark.parametrize("size", list(SIZES))
@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_a_whole_game_by_clicking_at_every_size(env_id, size, browser, server, shots):
    started = time.monotonic()
    n = min(game_class(env_id).player_counts)
    bodies: list[dict] = []

    def record(response):
        if "/api/games" in response.url and response.request.method in ("GET", "POST") and response.ok:
            bodies.append(response.json())

    page = open_page(browser, server["url"] + setup_address(env_id, ["me"] + ["random"] * (n - 1)), size)
    page.on("response", record)
    page.wait_for_selector("#table:not([hidden])")
    assert page.is_hidden("#viewer-box"), "a person playing has no view switch"
    fastest_bots(page)
    rng = random.Random(f"{env_id}-{size}")
    clicks = 0
    while True:
        wait_for_me(page)
        if page.get_attribute("#table", "data-finished") == "true":
            break
        if clicks in (0, 12):
            check_readable(page, env_id, size)
            assert page.inner_text("#status").startswith("Your turn"), "one status, and it says it is my turn"
            assert page.get_attribute("#seat-strip li.current", "data-seat") == "0"
            if clicks == 0:
                check_turn_panel_in_view(page, env_id)
                shots(page, f"{env_id}-{size}-first-decision")
        click_a_move(page, rng)
        clicks += 1
        assert time.monotonic() - started < 240, f"{env_id}: the played game took too long ({clicks} clicks)"
    result = page.wait_for_selector("[data-result]:not([hidden])")
    page.wait_for_function(
        "() => { const r = document.querySelector('[data-result]').getBoundingClientRect();"
        " return r.top >= -2 && r.top < innerHeight - 40; }"
    )
    assert page.inner_text("#result-headline").strip()
    assert page.inner_text("#result-why").strip(), "the result says why the game ended"
    assert len(page.query_selector_all("#result-seats .result-seat")) == n, "a verdict and score per seat"
    assert page.query_selector_all("#log li"), "the moves are told"
    check_readable(page, env_id, size)
    shots(page, f"{env_id}-{size}-end")
    assert result.is_visible()
    page.remove_listener("response", record)

    game_id = bodies[-1]["id"]
    match = server["app"].state.store.get(game_id)
    audit = SeatAudit(match.game, match.seed, 0, match.names)
    secrets_total = 0
    assert clicks > 0 and len(bodies) > clicks
    for body in bodies:
        assert body["id"] == game_id and body["viewer"] == 0
        found, count = audit.check(match.actions[: body["step"]], body)
        assert not found, f"{env_id}: the browser was sent other seats' secrets at step {body['step']}: {found}"
        secrets_total += count
    assert secrets_total > 0
    page.context.close()
    assert not page.errors, f"JavaScript errors on the page: {page.errors}"


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_watch_save_and_move_through_a_replay_with_the_slider(env_id, page, server, shots):
    n = min(game_class(env_id).player_counts)
    page.goto(server["url"] + setup_address(env_id, ["random"] * n))
    page.wait_for_selector("#table[data-mode=watch]")
    fastest_bots(page)
    page.click("#step")
    page.wait_for_selector("#table[data-step='1']")
    page.select_option("#viewer", "1")
    wait_idle(page)
    assert "what Random bot 2 sees" in page.inner_text("#mode")
    page.click("#play")
    page.wait_for_selector("#table[data-finished=true]", timeout=90_000)
    page.select_option("#viewer", "spectator")
    page.wait_for_selector("#mode:has-text('what everyone sees')")
    page.wait_for_selector("[data-result]:not([hidden])")
    page.click("#save-replay")
    page.wait_for_selector("#saved:has-text('Saved as')")
    saved = page.get_attribute("#saved", "data-replay")
    total = len(json.loads((server["replays"] / saved).read_text())["actions"])

    # the replay list is up to date at once: game, players, date and result
    page.click("#nav-replays")
    item = page.wait_for_selector(f"#replay-list .replay-item:has(button[data-path='{saved}'])")
    about = item.inner_text()
    assert game_class(env_id).display_name in about and "Random bot 1" in about
    assert re.search(r"\d{4}-\d\d-\d\d \d\d:\d\d", about) and re.search(r"won by|shared by|no winner|cut at", about)
    page.click(f"#replay-list button[data-path='{saved}']")
    page.wait_for_selector("#table[data-mode=replay][data-step='0']")
    page.click("#fwd")
    page.wait_for_selector("#table[data-step='1']")
    page.click("#back")
    page.wait_for_selector("#table[data-step='0']")

    # the slider moves the replay to the step it is set to, and stays there
    target = max(1, total // 2)
    page.eval_on_selector(
        "#scrub",
        f"e => {{ e.value = '{target}'; e.dispatchEvent(new Event('input')); e.dispatchEvent(new Event('change')); }}",
    )
    page.wait_for_selector(f"#table[data-step='{target}']")
    wait_idle(page)
    assert page.input_value("#scrub") == str(target)
    assert page.inner_text("#step-count") == f"move {target} of {total}"
    page.select_option("#viewer", "0")
    page.wait_for_selector("#mode:has-text('what Random bot 1 sees')")
    assert page.get_attribute("#table", "data-step") == str(target)
    page.click("#last")
    page.wait_for_selector(f"#table[data-step='{total}']")
    page.wait_for_selector("[data-result]:not([hidden])")
    shots(page, f"{env_id}-replay-end")


def test_the_setup_form_offers_only_what_can_play(page, server):
    """The player count starts at the shipped agent's; the shipped and trained agents are offered only where
    their network fits; training settings sit under "Advanced"; the help of one game is gone in the next."""
    networks = importlib.util.find_spec("sb3_contrib") is not None and SHIPPED.is_dir()
    for env_id in pirate_envs.ENV_IDS:
        page.select_option("#game", env_id)
        assert page.input_value("#players") == str(game_class(env_id).default_num_players)
        kinds = page.eval_on_selector(".seat[data-seat='1'] .kind", "e => [...e.options].map(o => o.value)")
        assert ("shipped" in kinds) == networks and ("checkpoint" in kinds) == networks, (env_id, kinds)
        if networks:
            assert page.input_value(".seat[data-seat='1'] .kind") == "shipped", "bots default to the shipped agent"
    page.select_option("#game", "dead_mans_draw_v0")
    if networks:
        page.select_option(".seat[data-seat='1'] .kind", "checkpoint")
        offered = page.eval_on_selector(".seat[data-seat='1'] .checkpoint", "e => [...e.options].map(o => o.text)")
        assert offered == ["dead_mans_draw_v0/model.zip"]
    page.select_option("#players", "3")
    kinds = page.eval_on_selector(".seat[data-seat='1'] .kind", "e => [...e.options].map(o => o.value)")
    assert "shipped" not in kinds and "checkpoint" not in kinds, "no agent is trained for 3 players"
    assert page.is_hidden("#advanced [data-option=reward_mode]"), "training settings are folded away"
    page.click("#advanced-box summary")
    assert page.is_visible("#advanced [data-option=reward_mode]")
    assert not page.query_selector("#options [data-option=reward_mode]"), "rules and training settings apart"
    assert page.get_attribute("#share", "href").startswith("/?game=dead_mans_draw_v0&players=3&seats=me,")

    # a Madame Ching card's help does not stay on in the next game
    page.goto(server["url"] + setup_address("madame_ching_v0", ["me", "random"]))
    page.wait_for_selector("#table:not([hidden])")
    wait_for_me(page)
    page.hover("#board .card.face")
    stale = page.inner_text("#help")
    assert page.is_visible("#help") and stale
    page.click("#nav-setup")
    page.select_option("#game", "dead_mans_draw_v0")
    page.select_option("#players", "2")
    page.select_option(".seat[data-seat='1'] .kind", "random")
    page.click("#start")
    page.wait_for_selector("#table[data-mode=play]")
    wait_idle(page)
    assert page.is_hidden("#help") or page.inner_text("#help") != stale, "the last game's help is gone"
    assert "option.round_limit" not in page.url and "game=dead_mans_draw_v0" in page.url, "the address is shareable"


def test_a_bad_setup_address_says_what_is_wrong(page, server):
    page.goto(server["url"] + "?game=dead_mans_draw_v0&players=3&seats=me,shipped,random")
    page.wait_for_selector("#error:not([hidden])")
    text = page.inner_text("#error")
    assert "does not start a game" in text and ("shipped agent" in text or "not one of" in text)
    assert page.is_visible("#setup") and page.is_hidden("#table")
