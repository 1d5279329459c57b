"""Replay files in the arena: read (size-capped, errors as 400s naming the file) and written through
:mod:`pirate_envs.core.replay`, the project's one replay format, and listed with what a person picks a
replay by (the game, the players, the date, the result)."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

from pirate_envs.arena.errors import ApiError
from pirate_envs.arena.paths import list_inside
from pirate_envs.arena.seats import recorded_seat
from pirate_envs.core.registry import ENV_IDS, game_class
from pirate_envs.core.replay import Replay, ReplayError, final_state, record_game, replay_from_dict, save_replay

MAX_REPLAY_BYTES = 5_000_000


def read_replay(path: Path, name: str) -> Replay:
    """The replay at ``path`` (already resolved inside the replays directory), checked to re-simulate
    to its recorded outcome; an :class:`ApiError` (400) saying what is wrong otherwise."""
    if path.stat().st_size > MAX_REPLAY_BYTES:
        raise ApiError(400, f"replay {name!r} is larger than {MAX_REPLAY_BYTES} bytes")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ApiError(400, f"replay {name!r} is not valid JSON: {exc}") from exc
    try:
        replay = replay_from_dict(data, where=f"replay {name!r}")
        if replay.env_id not in ENV_IDS:
            raise ReplayError(f"replay {name!r}: env_id must be one of {', '.join(ENV_IDS)}; got {replay.env_id!r}")
        final_state(replay, check_outcome=bool(replay.outcome))
    except (ReplayError, ValueError, TypeError) as exc:
        raise ApiError(400, str(exc)) from exc
    return replay


def write_replay(directory: Path, stem: str, state: Any, seed: int, actions: list[int], policies: list[str]) -> str:
    """Save the finished game ``state`` (started from ``seed``, played with ``actions``) as ``<stem>.json``
    in ``directory``; the file name written."""
    replay = record_game(state, seed, actions, policies, source={"from": "arena"})
    name = f"{stem}.json"
    save_replay(replay, directory / name)
    return name


def _result_words(outcome: dict[str, Any], names: list[str]) -> str:
    if outcome.get("truncated"):
        return "cut at the decision limit"
    winners = [names[w] for w in outcome.get("winners") or [] if isinstance(w, int) and 0 <= w < len(names)]
    if not winners:
        return "no winner" if "winners" in outcome else ""
    return ("won by " if len(winners) == 1 else "shared by ") + " and ".join(winners)


def replay_summary(directory: Path, name: str) -> dict[str, Any]:
    """What the replay list shows of the file ``name`` in ``directory``: its game, players, date and result.

    Read without re-simulating; a file that does not read as a replay is listed with ``problem`` set (opening
    it says what is wrong)."""
    path = directory / name
    summary: dict[str, Any] = {"path": name, "title": name, "players": [], "date": "", "result": "", "problem": ""}
    try:
        stat = path.stat()
        summary["date"] = time.strftime("%Y-%m-%d %H:%M", time.localtime(stat.st_mtime))
        summary["time"] = stat.st_mtime
        if stat.st_size > MAX_REPLAY_BYTES:
            raise ReplayError("too large")
        data = json.loads(path.read_text(encoding="utf-8"))
        replay = replay_from_dict(data, where=f"replay {name!r}")
        if replay.env_id not in ENV_IDS:
            raise ReplayError(f"unknown game {replay.env_id!r}")
    except (OSError, UnicodeDecodeError, json.JSONDecodeError, ReplayError, ValueError, TypeError) as exc:
        summary["problem"] = str(exc) or type(exc).__name__
        return summary
    count = replay.options.get("num_players")
    count = count if isinstance(count, int) and 0 < count < 20 else len(replay.policies)
    labels = [*replay.policies, *[""] * count][:count]
    names = [recorded_seat(label).name(seat) for seat, label in enumerate(labels)]
    summary.update(
        env_id=replay.env_id,
        title=game_class(replay.env_id).display_name or replay.env_id,
        num_players=count,
        players=names,
        moves=len(replay.actions),
        result=_result_words(replay.outcome, names),
    )
    return summary


def list_replays(directory: Path | None) -> list[dict[str, Any]]:
    """:func:`replay_summary` of every replay file in ``directory``, the newest first."""
    if directory is None:
        return []
    summaries = [replay_summary(directory, name) for name in list_inside(directory, ".json")]
    return sorted(summaries, key=lambda s: (-s.get("time", 0.0), s["path"]))
