"""The arena's web app: a Starlette application serving the page and a small JSON API.

Transport: plain JSON request/response, the page asking for each next step (no WebSocket, no
server-sent events). Bots move one decision per ``advance`` request, so the page sets the pace
(play / pause / step / speed) and shows every move as it happens; the server holds no connection
and runs no background task, a closed tab leaves nothing running, and every exchange is an ordinary
request that tests drive with Starlette's ``TestClient``. See docs/arena.md for the endpoints.

What is sent: a snapshot for one viewer (:meth:`pirate_envs.arena.sessions.Match.snapshot`), never
the state. Requests are checked at the edge: JSON bodies only (``application/json``, at most
``MAX_BODY`` bytes, an object), host names limited to the served ones (a DNS-rebinding guard),
every refusal a 4xx ``{"error": "..."}`` that leaves the game as it was.
"""

from __future__ import annotations

import json
import re
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from starlette.applications import Starlette
from starlette.concurrency import run_in_threadpool
from starlette.exceptions import HTTPException
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles

from pirate_envs.arena.errors import ApiError
from pirate_envs.arena.paths import list_inside, resolve_inside
from pirate_envs.arena.replays import list_replays, read_replay, write_replay
from pirate_envs.arena.seats import (
    KIND_CHOICES,
    KIND_NAMES,
    SEARCH_PARAMS,
    can_load_networks,
    make_seat,
    model_fits,
    shipped_fits,
)
from pirate_envs.arena.sessions import Directories, Match, MatchStore, ReplayMatch, make_game, parse_viewer
from pirate_envs.core.registry import ENV_IDS, game_class

STATIC = Path(__file__).parent / "static"
MAX_BODY = 64 * 1024
SECURITY_HEADERS = [
    (
        b"content-security-policy",
        b"default-src 'self'; img-src 'self' data:; object-src 'none'; frame-ancestors 'none'",
    ),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cache-control", b"no-store"),
]
LOCAL_HOSTS = ["127.0.0.1", "localhost", "[::1]", "::1"]
# Options that tune training, not the game: the setup keeps them under an "advanced" fold.
TRAINING_OPTIONS = ("reward_mode", "score_scale", "max_decisions")
RULE_ID = re.compile(r"^\s*([A-Z]{2,4}-\d{3,4}(?:/[A-Z]{2,4}-\d{3,4})*)\s*:\s*")

MessageHook = Callable[[Any, dict[str, Any]], None]


def _option_spec(option: Any) -> dict[str, Any]:
    """A rule option as the setup form offers it: its name and help in words, the rule id kept for hover."""
    doc = option.doc or ""
    rule = RULE_ID.match(doc)
    return {
        "name": option.name,
        "label": option.name.replace("_", " ").capitalize(),
        "help": doc[rule.end() :] if rule else doc,
        "rule": rule.group(1) if rule else "",
        "advanced": option.name in TRAINING_OPTIONS,
        "kind": option.kind.__name__,
        "default": option.default,
        "choices": list(option.choices),
        "minimum": option.minimum,
        "maximum": option.maximum,
    }


def _game_meta(env_id: str) -> dict[str, Any]:
    cls = game_class(env_id)
    return {
        "env_id": env_id,
        "title": cls.display_name or env_id,
        "player_counts": list(cls.player_counts),
        "default_num_players": cls.default_num_players,
        "shipped_players": shipped_fits(env_id),
        "options": [_option_spec(o) for o in cls.option_specs],
    }


def _policy_meta(extra: dict[str, Any]) -> list[dict[str, Any]]:
    """The seat kinds the setup offers; ``shipped`` and ``checkpoint`` only where networks can be loaded."""
    networks = can_load_networks()
    kinds: list[dict[str, Any]] = []
    for kind, label in KIND_CHOICES.items():
        if kind in ("shipped", "checkpoint") and not networks:
            continue
        fields = []
        for name, (kind_of, default, *bounds) in SEARCH_PARAMS.get(kind, {}).items():
            field = {"name": name, "label": name.replace("_", " "), "kind": kind_of.__name__, "default": default}
            if kind_of is str:
                field["choices"] = list(bounds[0])
            else:
                field["minimum"], field["maximum"] = bounds
            fields.append(field)
        kinds.append({"kind": kind, "label": label, "name": KIND_NAMES[kind], "params": fields})
    kinds.extend({"kind": k, "label": k, "name": f"{k} bot", "params": []} for k in extra)
    return kinds


def _checkpoint_meta(root_name: str, root: Path | None) -> list[dict[str, Any]]:
    """The model zips under ``root`` with the (game, player count) tables each can play."""
    if root is None:
        return []
    return [
        {"root": root_name, "path": path, "fits": [list(fit) for fit in model_fits(root / path)]}
        for path in list_inside(root, ".zip")
    ]


async def _json_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 415/413/400 for anything else (a browser form cannot post JSON cross-site)."""
    content_type = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if content_type != "application/json":
        raise ApiError(415, "send the request body as JSON (Content-Type: application/json)")
    body = await request.body()
    if len(body) > MAX_BODY:
        raise ApiError(413, f"request body larger than {MAX_BODY} bytes")
    if not body:
        return {}
    try:
        data = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, f"malformed JSON body: {exc}") from exc
    if not isinstance(data, dict):
        raise ApiError(400, "the JSON body must be an object")
    return data


class _SecurityHeaders:
    """Adds :data:`SECURITY_HEADERS` to every HTTP response (pure ASGI, so streaming files are untouched)."""

    def __init__(self, app: Any) -> None:
        self.app = app

    async def __call__(self, scope: dict, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def send_with_headers(message: dict) -> None:
            if message["type"] == "http.response.start":
                message = {**message, "headers": [*message.get("headers", []), *SECURITY_HEADERS]}
            await send(message)

        await self.app(scope, receive, send_with_headers)


class _Endpoints:
    """The arena's endpoints over one set of served matches and directories (the routes of :func:`create_app`).

    Work that touches a match runs in a worker thread (``run_in_threadpool``) under the match's lock.
    """

    def __init__(
        self,
        dirs: Directories,
        store: MatchStore,
        extra: dict[str, Callable[[Any], Any]],
        message_hook: MessageHook | None,
    ) -> None:
        self.dirs = dirs
        self.store = store
        self.extra = extra
        self.message_hook = message_hook

    def routes(self) -> list[Route | Mount]:
        return [
            Route("/", self.index),
            Route("/api/meta", self.meta),
            Route("/api/replays", self.replays),
            Route("/api/replays/open", self.open_replay, methods=["POST"]),
            Route("/api/games", self.new_game, methods=["POST"]),
            Route("/api/games/{match_id}", self.get_game, methods=["GET"]),
            Route("/api/games/{match_id}", self.close, methods=["DELETE"]),
            Route("/api/games/{match_id}/action", self.action, methods=["POST"]),
            Route("/api/games/{match_id}/advance", self.advance, methods=["POST"]),
            Route("/api/games/{match_id}/save", self.save, methods=["POST"]),
            Mount("/static", StaticFiles(directory=STATIC), name="static"),
        ]

    # --- what a response sends ------------------------------------------------------------------------
    def send(self, match: Any, payload: dict[str, Any]) -> JSONResponse:
        if self.message_hook is not None:
            self.message_hook(match, payload)
        return JSONResponse(payload)

    def snapshot_of(self, match: Any, viewer_raw: Any, step: Any = None) -> JSONResponse:
        viewer = match.default_viewer() if viewer_raw is None else parse_viewer(viewer_raw)
        if isinstance(match, ReplayMatch):
            return self.send(match, match.snapshot(viewer, step))
        if step not in (None, ""):
            raise ApiError(400, "step is only for replays; a live game is always at its latest position")
        return self.send(match, match.snapshot(viewer))

    # --- the page and what it lists -------------------------------------------------------------------
    async def index(self, request: Request) -> Response:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    async def meta(self, request: Request) -> JSONResponse:
        return JSONResponse(await run_in_threadpool(self._meta))

    def _meta(self) -> dict[str, Any]:
        dirs = self.dirs
        return {
            "games": [_game_meta(e) for e in ENV_IDS],
            "policies": _policy_meta(self.extra),
            "checkpoints": _checkpoint_meta("checkpoints", dirs.checkpoints) + _checkpoint_meta("runs", dirs.runs),
            "replays": list_replays(dirs.replays),
            "replays_dir": dirs.replays is not None,
        }

    async def replays(self, request: Request) -> JSONResponse:
        return JSONResponse({"replays": await run_in_threadpool(list_replays, self.dirs.replays)})

    # --- live games -----------------------------------------------------------------------------------
    async def new_game(self, request: Request) -> JSONResponse:
        body = await _json_body(request)
        return await run_in_threadpool(self._new_game, body)

    def _new_game(self, body: dict[str, Any]) -> JSONResponse:
        allowed = {"env_id", "num_players", "options", "seats", "seed"}
        unknown = sorted(set(body) - allowed)
        if unknown:
            raise ApiError(400, f"unknown field(s) {', '.join(unknown)}; fields: {', '.join(sorted(allowed))}")
        env_id = body.get("env_id")
        game = make_game(env_id, body.get("num_players"), body.get("options"))
        specs = body.get("seats")
        if not isinstance(specs, list) or len(specs) != game.num_players:
            raise ApiError(400, f"seats must be a list of {game.num_players} policies, one per seat")
        seed = body.get("seed")
        if seed is None or seed == "":
            seed = int(time.time_ns() % 1_000_000_007)
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**63:
            raise ApiError(400, f"seed must be a whole number from 0 to 2**63-1; got {seed!r}")
        seats = [make_seat(spec, s, env_id, game, self.dirs, self.extra) for s, spec in enumerate(specs)]
        if sum(seat.human for seat in seats) > 1:
            raise ApiError(400, "at most one seat may be 'me': each person sees only their own seat")
        match = Match(env_id, game, seats, seed)
        self.store.add(match)
        with match.lock:
            return self.snapshot_of(match, None)

    def _with_match(self, match_id: str, work: Callable[[Any], Any], viewer_raw: Any, step: Any = None) -> JSONResponse:
        match = self.store.get(match_id)
        with match.lock:
            if viewer_raw is not None:  # check the viewer before changing anything
                viewer = parse_viewer(viewer_raw)
                match.check_viewer(viewer)
            work(match)
            return self.snapshot_of(match, viewer_raw, step)

    async def get_game(self, request: Request) -> JSONResponse:
        params = request.query_params
        return await run_in_threadpool(
            self._with_match, request.path_params["match_id"], lambda m: None, params.get("viewer"), params.get("step")
        )

    async def action(self, request: Request) -> JSONResponse:
        body = await _json_body(request)
        if "action" not in body:
            raise ApiError(400, 'the body must name the action: {"action": <action id>}')
        return await run_in_threadpool(
            self._with_match,
            request.path_params["match_id"],
            lambda m: _live(m).act(body["action"]),
            body.get("viewer"),
        )

    async def advance(self, request: Request) -> JSONResponse:
        body = await _json_body(request)
        return await run_in_threadpool(
            self._with_match, request.path_params["match_id"], lambda m: _live(m).advance(), body.get("viewer")
        )

    async def close(self, request: Request) -> JSONResponse:
        self.store.remove(request.path_params["match_id"])
        return JSONResponse({"closed": True})

    # --- replays --------------------------------------------------------------------------------------
    async def save(self, request: Request) -> JSONResponse:
        await _json_body(request)
        return await run_in_threadpool(self._save, request.path_params["match_id"])

    def _save(self, match_id: str) -> JSONResponse:
        match = self.store.get(match_id)
        replays_dir = self.dirs.replays
        if replays_dir is None:
            raise ApiError(404, "no replays directory is configured on this server (--replays-dir)")
        with match.lock:
            live = _live(match)
            if not live.state.is_terminal():
                raise ApiError(409, "only a finished game can be saved as a replay")
            stem = f"{live.env_id}-{time.strftime('%Y%m%d-%H%M%S')}-{live.id[:6]}".replace("_", "-")
            name = write_replay(replays_dir, stem, live.state, live.seed, live.actions, [s.label for s in live.seats])
        return JSONResponse({"replay": name, "replays": list_replays(replays_dir)})

    async def open_replay(self, request: Request) -> JSONResponse:
        body = await _json_body(request)
        return await run_in_threadpool(self._open_replay, body)

    def _open_replay(self, body: dict[str, Any]) -> JSONResponse:
        name = body.get("path")
        path = resolve_inside(self.dirs.replays, name, ".json", "replay")
        match = ReplayMatch(read_replay(path, name), name)
        self.store.add(match)
        viewer = parse_viewer(body.get("viewer"))
        with match.lock:
            return self.send(match, match.snapshot(viewer, body.get("step", 0)))


def _live(match: Any) -> Match:
    if not isinstance(match, Match):
        raise ApiError(409, "a replay cannot be played on; use step to move through it")
    return match


async def _api_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, ApiError)
    return JSONResponse({"error": exc.message}, status_code=exc.status)


async def _http_error(request: Request, exc: Exception) -> JSONResponse:
    assert isinstance(exc, HTTPException)
    return JSONResponse({"error": str(exc.detail)}, status_code=exc.status_code)


async def _server_error(request: Request, exc: Exception) -> JSONResponse:
    return JSONResponse({"error": f"internal error: {type(exc).__name__}: {exc}"}, status_code=500)


def create_app(
    checkpoints_dir: str | Path | None = "checkpoints",
    runs_dir: str | Path | None = None,
    replays_dir: str | Path | None = None,
    allowed_hosts: list[str] | None = None,
    max_matches: int = 64,
    extra_policies: dict[str, Callable[[Any], Any]] | None = None,
    message_hook: MessageHook | None = None,
) -> Starlette:
    """The arena app.

    ``allowed_hosts``: Host header values served (default: the loopback names); ``extra_policies``:
    more seat kinds, name -> ``factory(game) -> Policy`` (tests add a failing bot this way);
    ``message_hook(match, payload)``: called with every snapshot sent, under the match's lock (tests
    record what the browser received this way).
    """
    dirs = Directories(
        checkpoints=Path(checkpoints_dir) if checkpoints_dir else None,
        runs=Path(runs_dir) if runs_dir else None,
        replays=Path(replays_dir) if replays_dir else None,
    )
    store = MatchStore(max_matches)
    endpoints = _Endpoints(dirs, store, dict(extra_policies or {}), message_hook)
    hosts = allowed_hosts if allowed_hosts is not None else LOCAL_HOSTS
    app = Starlette(
        routes=endpoints.routes(),
        middleware=[Middleware(_SecurityHeaders), Middleware(TrustedHostMiddleware, allowed_hosts=hosts)],
        exception_handlers={ApiError: _api_error, HTTPException: _http_error, Exception: _server_error},
    )
    app.state.store = store
    app.state.dirs = dirs
    return app
