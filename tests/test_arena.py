"""The browser arena's HTTP API (issue 21 §3-§4), driven with Starlette's TestClient (no browser).

Covers: whole games played and watched through the API for every game, the per-viewer checks (a
person sees only their own seat; the view switch only where no person plays), what is sent (no
other seat's secret in any message), 4xx JSON errors that leave the game going, a failing bot,
several games at once, replays (save, list, open, step), and paths kept inside their directories.
"""

from __future__ import annotations

import importlib.util
import json
import os
import re
import threading
from pathlib import Path

import pytest

pytest.importorskip("starlette", reason="the arena needs the arena extra (starlette, uvicorn)")
try:
    from starlette.testclient import TestClient
except RuntimeError as exc:  # Starlette's TestClient without httpx2 (the dev extra)
    pytest.skip(f"the arena API tests need httpx2: {exc}", allow_module_level=True)

import pirate_envs
from pirate_envs.arena.__main__ import build_parser
from pirate_envs.arena.app import create_app
from pirate_envs.arena.audit import SeatAudit, leaked, secret_labels
from pirate_envs.core.registry import game_class

BASE = "http://127.0.0.1"
# Short games: the smallest player count, and Madame Ching cut to a few rounds.
SHORT_OPTIONS = {"madame_ching_v0": {"round_limit": 3}}


class Boom:
    """A bot that raises on its first move."""

    def act(self, observation, action_mask, rng):
        raise RuntimeError("the bot exploded")


class Cheat:
    """A bot that answers an action that is never legal."""

    def act(self, observation, action_mask, rng):
        return len(action_mask) + 5


@pytest.fixture
def dirs(tmp_path):
    checkpoints = tmp_path / "checkpoints"
    replays = tmp_path / "replays"
    checkpoints.mkdir()
    replays.mkdir()
    return checkpoints, replays


@pytest.fixture
def client(dirs):
    checkpoints, replays = dirs
    app = create_app(
        checkpoints_dir=checkpoints,
        replays_dir=replays,
        extra_policies={"boom": lambda game: Boom(), "cheat": lambda game: Cheat()},
    )
    with TestClient(app, base_url=BASE) as c:
        yield c


def new_game(client, env_id="dead_mans_draw_v0", seats=("me", "random"), seed=3, **extra):
    game = game_class(env_id)
    body = {
        "env_id": env_id,
        "num_players": len(seats),
        "options": SHORT_OPTIONS.get(env_id, {}),
        "seats": list(seats),
        "seed": seed,
        **extra,
    }
    assert len(seats) in game.player_counts
    return client.post("/api/games", json=body)


def play_to_end(client, snap, pick=lambda legal: legal[0]["action"], limit=5000):
    """Click through a play-mode game: the person picks from the legal actions, the bots are advanced."""
    gid = snap["id"]
    for _ in range(limit):
        if snap["finished"]:
            return snap
        if snap["waiting_for"] == "you":
            r = client.post(f"/api/games/{gid}/action", json={"action": pick(snap["view"]["legal"])})
        else:
            r = client.post(f"/api/games/{gid}/advance", json={})
        assert r.status_code == 200, r.text
        snap = r.json()
    raise AssertionError("the game did not end")


def watch_to_end(client, snap, viewer="spectator", limit=20000):
    for _ in range(limit):
        if snap["finished"]:
            return snap
        r = client.post(f"/api/games/{snap['id']}/advance", json={"viewer": viewer})
        assert r.status_code == 200, r.text
        snap = r.json()
    raise AssertionError("the game did not end")


# --- whole games ---------------------------------------------------------------------------------


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_play_a_whole_game_against_a_bot_seeing_only_my_seat(env_id, dirs):
    """Every message of a played game is the person's view only: no card another seat sees face up and
    the person does not appears in any of them (checked against the real state at each message)."""
    audits = {}
    found = []  # (secrets found, secrets there were) per message

    def hook(match, payload):
        audit = audits.setdefault(match.id, SeatAudit(match.game, match.seed, match.human, match.names))
        found.append(audit.check(match.actions, payload))
        assert payload["view"]["viewer"] == match.human

    app = create_app(checkpoints_dir=dirs[0], replays_dir=dirs[1], message_hook=hook)
    with TestClient(app, base_url=BASE) as client:
        n = min(game_class(env_id).player_counts)
        snap = new_game(client, env_id, seats=("random",) * (n - 1) + ("me",), seed=11).json()
        assert snap["mode"] == "play" and snap["viewer"] == n - 1 and snap["viewers"] == [n - 1]
        end = play_to_end(client, snap)
    assert end["finished"] and end["result"]["winners"] is not None
    assert len(end["result"]["scores"]) == n and end["view"]["result"]
    assert any(line["seat"] != n - 1 for line in end["log"]), "the bots' moves are named in the log"
    assert len(found) == end["step"] + 1  # one message per move, plus the first
    assert not [f for f, _ in found if f], f"{env_id}: secrets sent to the person: {[f for f, _ in found if f]}"
    assert sum(count for _, count in found) > 0, f"{env_id}: the audit found nothing hidden to check against"


def test_the_leak_audit_catches_another_seats_view():
    """The audit has teeth: the view of seat 1 carries labels that seat 0 must not be sent."""
    game = game_class("dead_mans_draw_v0")(num_players=2)
    state = game.new_initial_state(5)
    secrets = secret_labels(state, 0)
    assert secrets  # seat 1's dealt ability cards
    assert leaked(state.table_view(1).to_dict(), secrets)
    assert not leaked(state.table_view(0).to_dict(), secrets)


@pytest.mark.parametrize("env_id", pirate_envs.ENV_IDS)
def test_watch_bots_to_the_end_switching_views(env_id, client):
    n = min(game_class(env_id).player_counts)
    snap = new_game(client, env_id, seats=("random",) * n, seed=2).json()
    assert snap["mode"] == "watch" and snap["viewer"] is None and snap["view"]["legal"] == []
    assert snap["viewers"] == ["spectator", *range(n)]
    snap = watch_to_end(client, snap)
    assert snap["finished"] and snap["result"]["line"] and snap["view"]["ending"]["why"]
    for seat in range(n):  # the view switch: every seat's view of the same game
        r = client.get(f"/api/games/{snap['id']}", params={"viewer": seat})
        assert r.status_code == 200 and r.json()["view"]["viewer"] == seat
        assert r.json()["step"] == snap["step"]


def test_moves_are_named_as_the_viewer_may_read_them(client):
    """DMD-304: the ability a bot keeps is secret; the spectator's log says only that one was kept."""
    snap = new_game(client, seats=("random", "random"), seed=4).json()
    gid = snap["id"]
    snap = client.post(f"/api/games/{gid}/advance", json={"viewer": "spectator"}).json()
    spectator = snap["log"][0]["text"]
    own = client.get(f"/api/games/{gid}", params={"viewer": 0}).json()["log"][0]["text"]
    kept = own.removeprefix("Random bot 1 kept ")
    assert kept != own and kept not in spectator and spectator.startswith("Random bot 1 kept one of their ")


def test_search_bot_with_parameters_plays(client):
    snap = new_game(client, seats=("me", {"kind": "flatmc", "params": {"rollouts": 2, "rollout": "random"}})).json()
    assert snap["seats"][1]["policy"] == "flatmc:rollouts=2,rollout=random"
    play_to_end(client, snap)


# --- who may see what ----------------------------------------------------------------------------


def test_a_player_may_only_ask_for_their_own_seat(client):
    snap = new_game(client, seats=("me", "random")).json()
    gid = snap["id"]
    for viewer in (1, "spectator"):
        r = client.get(f"/api/games/{gid}", params={"viewer": viewer})
        assert r.status_code == 403 and "viewed as: 0" in r.json()["error"]
        r = client.post(f"/api/games/{gid}/advance", json={"viewer": viewer})
        assert r.status_code == 403
    assert client.get(f"/api/games/{gid}").json()["step"] == snap["step"]  # nothing moved
    assert client.get(f"/api/games/{gid}", params={"viewer": 0}).status_code == 200


def test_only_one_me_seat(client):
    r = new_game(client, seats=("me", "me"))
    assert r.status_code == 400 and "at most one seat" in r.json()["error"]


# --- errors that leave the game going --------------------------------------------------------------


def test_illegal_and_malformed_actions_are_4xx_and_the_game_goes_on(client):
    snap = new_game(client, seats=("me", "random")).json()
    gid = snap["id"]
    legal = [a["action"] for a in snap["view"]["legal"]]
    illegal = next(a for a in range(1000) if a not in legal)
    cases = [
        ({"action": illegal}, 400, "not legal now"),
        ({"action": "1"}, 400, "must be an integer"),
        ({"action": True}, 400, "must be an integer"),
        ({"action": 1.5}, 400, "must be an integer"),
        ({}, 400, "must name the action"),
    ]
    for body, status, text in cases:
        r = client.post(f"/api/games/{gid}/action", json=body)
        assert r.status_code == status and text in r.json()["error"], (body, r.text)
    r = client.post(f"/api/games/{gid}/action", content=b"{not json", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "malformed JSON" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/action", content=b"[1]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "must be an object" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/action", content=b"action=1", headers={"content-type": "text/plain"})
    assert r.status_code == 415
    r = client.post(f"/api/games/{gid}/action", content=b"{" + b" " * 70000 + b"}",
                    headers={"content-type": "application/json"})  # fmt: skip
    assert r.status_code == 413
    r = client.post(f"/api/games/{gid}/advance", json={})  # the person is to act, not a bot
    assert r.status_code == 409 and "your turn" in r.json()["error"]
    r = client.post(f"/api/games/{gid}/action", json={"action": legal[0]})
    assert r.status_code == 200 and r.json()["step"] == 1  # the game went on from where it was


def test_bad_setups_are_400_naming_what_is_wrong(client):
    cases = [
        ({"env_id": "chess_v0", "num_players": 2, "seats": ["me", "random"]}, "env_id must be one of"),
        ({"env_id": "potsm_v0", "num_players": 7, "seats": ["me"] * 7}, "num_players must be one of"),
        ({"env_id": "potsm_v0", "num_players": 2, "seats": ["me"]}, "list of 2 policies"),
        ({"env_id": "potsm_v0", "num_players": 2, "seats": ["me", "gpt"]}, "unknown policy kind 'gpt'"),
        ({"env_id": "potsm_v0", "num_players": 2, "seats": ["me", "random"], "options": {"speed": 1}}, "speed"),
        ({"env_id": "potsm_v0", "num_players": 2, "seats": ["me", "random"], "seed": -1}, "seed must be"),
        ({"env_id": "potsm_v0", "num_players": 2, "seats": ["me", "random"], "colour": 1}, "unknown field"),
        (
            {"env_id": "potsm_v0", "num_players": 2, "seats": ["me", {"kind": "ismcts", "params": {"iterations": 0}}]},
            "iterations must be in",
        ),
        (
            {"env_id": "potsm_v0", "num_players": 2, "seats": ["me", {"kind": "ismcts", "params": {"depth": 3}}]},
            "no parameter 'depth'",
        ),
    ]
    for body, text in cases:
        r = client.post("/api/games", json=body)
        assert r.status_code == 400 and text in r.json()["error"], (body, r.text)


def test_unknown_game_and_route_are_404_json(client):
    r = client.get("/api/games/nope")
    assert r.status_code == 404 and "no game" in r.json()["error"]
    assert client.post("/api/games/nope/advance", json={}).status_code == 404
    assert client.get("/api/nothing-here").status_code == 404


def test_a_failing_bot_ends_its_game_with_a_visible_error_not_the_server(client):
    snap = new_game(client, seats=("me", "boom")).json()
    gid = snap["id"]
    snap = play_to_end(client, snap)
    assert snap["finished"] and "the bot exploded" in snap["error"] and "Boom bot 2 (boom)" in snap["error"]
    r = client.post(f"/api/games/{gid}/advance", json={})
    assert r.status_code == 409 and "over" in r.json()["error"]
    cheat = new_game(client, seats=("cheat", "random")).json()
    cheat = client.post(f"/api/games/{cheat['id']}/advance", json={}).json()
    assert cheat["finished"] and "illegal action" in cheat["error"]
    assert new_game(client).status_code == 200  # the server goes on


# --- several games at once ---------------------------------------------------------------------------


def test_games_in_several_tabs_do_not_interfere(client):
    a = new_game(client, seats=("me", "random"), seed=1).json()
    b = new_game(client, env_id="tortuga_v0", seats=("random", "me"), seed=1).json()
    assert a["id"] != b["id"]
    errors = []

    def run(snap):
        try:
            end = play_to_end(client, snap)
            assert end["finished"] and end["env_id"] == snap["env_id"]
        except Exception as exc:  # pragma: no cover - reported below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(s,)) for s in (a, b)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    # each tab's game stayed its own: replaying the same seed alone gives the same log
    alone = play_to_end(client, new_game(client, seats=("me", "random"), seed=1).json())
    again = client.get(f"/api/games/{a['id']}").json()
    assert [line["text"] for line in again["log"]] == [line["text"] for line in alone["log"]]


def test_old_games_are_dropped_beyond_the_limit(dirs):
    with TestClient(create_app(checkpoints_dir=dirs[0], max_matches=2), base_url=BASE) as client:
        first, _, _ = (new_game(client).json() for _ in range(3))
        assert client.get(f"/api/games/{first['id']}").status_code == 404


def test_closing_a_game(client):
    gid = new_game(client).json()["id"]
    assert client.delete(f"/api/games/{gid}").json() == {"closed": True}
    assert client.get(f"/api/games/{gid}").status_code == 404


# --- replays -----------------------------------------------------------------------------------------


def test_save_open_and_step_through_a_replay(client, dirs):
    snap = watch_to_end(client, new_game(client, seats=("random", "heuristic"), seed=9).json())
    saved = client.post(f"/api/games/{snap['id']}/save", json={}).json()["replay"]
    [listed] = client.get("/api/replays").json()["replays"]
    assert listed["path"] == saved and listed["title"] == "Dead Man's Draw" and listed["num_players"] == 2
    assert listed["players"] == ["Random bot 1", "Heuristic bot 2"] and listed["date"]
    winner = snap["result"]["winners"]
    assert listed["result"] == (f"won by {listed['players'][winner[0]]}" if len(winner) == 1 else listed["result"])
    data = json.loads((dirs[1] / saved).read_text())
    assert data["policies"] == ["random", "heuristic"] and data["seed"] == 9
    opened = client.post("/api/replays/open", json={"path": saved}).json()
    assert opened["mode"] == "replay" and opened["step"] == 0 and opened["total_steps"] == snap["step"]
    assert [s["name"] for s in opened["seats"]] == ["Random bot 1", "Heuristic bot 2"]
    rid = opened["id"]
    middle = client.get(f"/api/games/{rid}", params={"step": 5, "viewer": 1}).json()
    assert middle["step"] == 5 and len(middle["log"]) == 5 and middle["view"]["viewer"] == 1
    back = client.get(f"/api/games/{rid}", params={"step": 4, "viewer": "spectator"}).json()
    assert back["step"] == 4 and back["view"]["viewer"] is None
    end = client.get(f"/api/games/{rid}", params={"step": snap["step"]}).json()
    assert end["finished"] and end["result"]["scores"] == snap["result"]["scores"]
    assert client.get(f"/api/games/{rid}", params={"step": snap["step"] + 1}).status_code == 400
    assert client.post(f"/api/games/{rid}/advance", json={}).status_code == 409


def test_unfinished_games_are_not_saved(client):
    gid = new_game(client).json()["id"]
    assert client.post(f"/api/games/{gid}/save", json={}).status_code == 409


def test_broken_replays_are_400(client, dirs):
    replays = dirs[1]
    (replays / "bad.json").write_text("{nope")
    (replays / "list.json").write_text("[]")
    (replays / "chess.json").write_text(json.dumps({"env_id": "chess_v0", "options": {}, "seed": 1,
                                                    "policies": [], "actions": []}))  # fmt: skip
    (replays / "illegal.json").write_text(json.dumps({"env_id": "dead_mans_draw_v0", "options": {"num_players": 2},
                                                      "seed": 1, "policies": [], "actions": [999]}))  # fmt: skip
    for name, text in [("bad.json", "not valid JSON"), ("list.json", "JSON object"), ("chess.json", "chess_v0"),
                       ("illegal.json", "step 0")]:  # fmt: skip
        r = client.post("/api/replays/open", json={"path": name})
        assert r.status_code == 400 and text in r.json()["error"], (name, r.text)


# --- paths stay inside their directories ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("path", "status"),
    [
        ("../secret.json", 400),
        ("a/../../secret.json", 400),
        ("./x.json", 400),
        ("/etc/passwd.json", 400),
        ("..\\secret.json", 400),
        ("", 400),
        (None, 400),
        (["x.json"], 400),
        ("secret.txt", 400),
        ("missing.json", 404),
        ("escape.json", 400),  # a symlink leading outside
        ("inner/escape_dir/secret.json", 400),  # through a symlinked folder leading outside
    ],
)
def test_replay_paths_are_resolved_inside_the_replays_dir(client, dirs, tmp_path, path, status):
    outside = tmp_path / "secret.json"
    outside.write_text("{}")
    (dirs[1] / "escape.json").symlink_to(outside)
    (dirs[1] / "inner").mkdir()
    (dirs[1] / "inner" / "escape_dir").symlink_to(tmp_path)
    r = client.post("/api/replays/open", json={"path": path})
    assert r.status_code == status, r.text
    assert "error" in r.json()
    listed = client.get("/api/replays").json()["replays"]
    assert "escape.json" not in listed and not any("escape_dir" in p for p in listed)


@pytest.mark.parametrize("path", ["../model.zip", "/tmp/model.zip", "potsm_v0/../../model.zip", "model.json"])
def test_checkpoint_paths_are_resolved_inside_the_checkpoints_dir(client, path):
    r = new_game(client, seats=("me", {"kind": "checkpoint", "root": "checkpoints", "path": path}))
    assert r.status_code == 400 and "checkpoint path" in r.json()["error"]
    r = new_game(client, seats=("me", {"kind": "checkpoint", "root": "/", "path": "x.zip"}))
    assert r.status_code == 400 and "root must be" in r.json()["error"]


SHIPPED = Path(__file__).resolve().parent.parent / "checkpoints"


def test_trained_agents_are_offered_only_for_the_tables_they_fit(tmp_path):
    """Every listed model zip says which game and player count it plays (read from the zip, without torch), so
    the setup offers it only there; a game's shipped agent plays its shipped player count."""
    if not (SHIPPED / "dead_mans_draw_v0" / "model.zip").is_file():
        pytest.skip("no shipped checkpoints in this checkout")
    (tmp_path / "broken.zip").write_bytes(b"not a zip")
    with TestClient(create_app(checkpoints_dir=SHIPPED, runs_dir=tmp_path), base_url=BASE) as client:
        meta = client.get("/api/meta").json()
    listed = {(c["root"], c["path"]): c["fits"] for c in meta["checkpoints"]}
    assert listed[("checkpoints", "dead_mans_draw_v0/model.zip")] == [["dead_mans_draw_v0", 2]]
    assert listed[("checkpoints", "tortuga_v0/model.zip")] == [["tortuga_v0", 6]]
    assert listed[("runs", "broken.zip")] == []  # listed, fits nothing: never offered
    if importlib.util.find_spec("sb3_contrib") is None:
        assert all(g["shipped_players"] == [] for g in meta["games"])
        return
    shipped = {g["env_id"]: g["shipped_players"] for g in meta["games"]}
    assert shipped == {"potsm_v0": [4], "dead_mans_draw_v0": [2], "madame_ching_v0": [4], "tortuga_v0": [6]}
    defaults = {g["env_id"]: g["default_num_players"] for g in meta["games"]}
    assert defaults == {env_id: counts[0] for env_id, counts in shipped.items()}, "the shipped agent's table first"


def test_an_agent_at_the_wrong_table_is_refused_in_words(dirs):
    """A trained agent at another player count is a 400 naming the table it plays, not a path or a shape."""
    if not (SHIPPED / "dead_mans_draw_v0" / "model.zip").is_file():
        pytest.skip("no shipped checkpoints in this checkout")
    with TestClient(create_app(checkpoints_dir=SHIPPED, replays_dir=dirs[1]), base_url=BASE) as client:
        spec = {"kind": "checkpoint", "root": "checkpoints", "path": "dead_mans_draw_v0/model.zip"}
        for seat in (spec, "shipped"):
            r = new_game(client, seats=("me", seat, "random"))
            error = r.json()["error"]
            assert r.status_code == 400 and "trained for Dead Man's Draw with 2 players" in error, error
            assert "cannot play Dead Man's Draw with 3 players" in error and str(SHIPPED) not in error
            assert "shape" not in error
        r = new_game(client, env_id="potsm_v0", seats=("me", spec))  # another game's network
        assert r.status_code == 400 and "cannot play Pirates of the Spanish Main" in r.json()["error"]


def test_the_shipped_agent_plays_when_the_train_extra_is_there(dirs):
    pytest.importorskip("sb3_contrib")
    if not (SHIPPED / "dead_mans_draw_v0" / "model.zip").is_file():
        pytest.skip("no shipped Dead Man's Draw checkpoint")
    with TestClient(create_app(checkpoints_dir=SHIPPED, replays_dir=dirs[1]), base_url=BASE) as client:
        spec = {"kind": "checkpoint", "root": "checkpoints", "path": "dead_mans_draw_v0/model.zip"}
        snap = new_game(client, seats=("shipped", spec)).json()
        assert [(s["name"], s["policy"]) for s in snap["seats"]] == [
            ("Shipped agent 1", "shipped"),
            ("Trained agent 2", "checkpoint checkpoints/dead_mans_draw_v0/model.zip"),
        ]
        assert watch_to_end(client, snap)["finished"]


def test_seats_are_named_as_a_player_says_them(client):
    """Issue 48: "You", "Heuristic bot 2", "Random bot 3" in the seat list and in the view's text alike."""
    snap = new_game(client, env_id="potsm_v0", seats=("me", "heuristic", "random"), seed=2).json()
    assert [s["name"] for s in snap["seats"]] == ["You", "Heuristic bot 2", "Random bot 3"]
    text = json.dumps(snap["view"])
    assert "player_1" not in text and "Heuristic bot 2" in text
    assert snap["view"]["players"][0].startswith("You")


def test_the_setup_options_read_in_words_with_training_settings_apart(client):
    meta = client.get("/api/meta").json()
    for game in meta["games"]:
        for option in game["options"]:
            assert not re.search(r"\b[A-Z]{2,4}-\d{3,4}\b", option["help"] + option["label"]), option
            assert option["rule"], "the rule id stays for the curious (hover)"
            assert option["advanced"] == (option["name"] in ("reward_mode", "score_scale", "max_decisions"))
    assert {p["kind"]: p["name"] for p in meta["policies"]}["heuristic"] == "Heuristic bot"


def test_the_replay_list_names_game_players_date_and_result(client, dirs):
    (dirs[1] / "junk.json").write_text("{nope")
    snap = watch_to_end(client, new_game(client, env_id="potsm_v0", seats=("random", "heuristic"), seed=3).json())
    saved = client.post(f"/api/games/{snap['id']}/save", json={}).json()
    assert saved["replays"][0]["path"] == saved["replay"], "the save answers with the list, newest first"
    listed = {r["path"]: r for r in client.get("/api/replays").json()["replays"]}
    assert "not valid JSON" in listed["junk.json"]["problem"] or listed["junk.json"]["problem"]
    entry = listed[saved["replay"]]
    assert entry["title"] == "Pirates of the Spanish Main: The Card Game" and entry["moves"] == snap["step"]
    assert entry["players"] == ["Random bot 1", "Heuristic bot 2"] and not entry["problem"]
    assert entry["result"].startswith(("won by", "shared by", "no winner", "cut at"))


# --- the server's edges ------------------------------------------------------------------------------


def test_only_loopback_host_names_are_served(dirs):
    app = create_app(checkpoints_dir=dirs[0])
    with TestClient(app, base_url="http://evil.example") as client:
        assert client.get("/api/meta").status_code == 400
    with TestClient(app, base_url="http://localhost:8765") as client:
        assert client.get("/api/meta").status_code == 200


def test_page_and_meta(client):
    page = client.get("/")
    assert page.status_code == 200 and "arena.js" in page.text
    assert "default-src 'self'" in page.headers["content-security-policy"]
    assert client.get("/static/arena.js").status_code == 200
    meta = client.get("/api/meta").json()
    assert [g["env_id"] for g in meta["games"]] == list(pirate_envs.ENV_IDS)
    kinds = [p["kind"] for p in meta["policies"]]
    assert kinds[:5] == ["me", "random", "heuristic", "ismcts", "flatmc"]
    tortuga = meta["games"][pirate_envs.ENV_IDS.index("tortuga_v0")]
    assert tortuga["player_counts"][0] == 2 and any(o["name"] == "max_rounds" for o in tortuga["options"])


def test_command_line_binds_to_loopback_by_default():
    args = build_parser().parse_args([])
    assert args.host == "127.0.0.1" and args.checkpoints_dir == "checkpoints"
    args = build_parser().parse_args(["--port", "9000", "--replays-dir", "r", "--runs-dir", "runs"])
    assert (args.port, args.replays_dir, args.runs_dir) == (9000, "r", "runs")


def test_arena_static_files_are_package_data():
    static = Path(pirate_envs.__file__).parent / "arena" / "static"
    boards = {f"board{suffix}.js" for suffix in ("", "-potsm", "-dmd", "-tortuga", "-mch")}
    assert {p.name for p in static.iterdir()} >= {"index.html", "arena.js", "arena.css", *boards}
    page = (static / "index.html").read_text()
    assert all(f"/static/{name}" in page for name in boards), "the page loads every board"
    assert os.path.getsize(static / "arena.js") > 1000
