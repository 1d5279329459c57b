"""Replay files in the arena: read (size-capped, errors as 400s naming the file) and written through
:mod:`pirate_envs.core.replay`, the project's one replay format."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from pirate_envs.arena.errors import ApiError
from pirate_envs.core.registry import ENV_IDS
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
