"""Env versioning (docs/engine.md, "Versioning"): what each env id shows an agent, lets it do and rewards it
with is pinned by fingerprints recorded in ``tests/data/env_fingerprints.json``.

For every env id and each of its configurations below (every player count, the main variants), the
fingerprint is three hashes:

- ``layout``: observation shape and bounds, the number of actions, the per-action feature size;
- ``actions``: the action table (``Game.action_to_string`` of every action index);
- ``games``: seeded games played with seeded random legal actions (a hash of seed and step picks each):
  at every decision the deciding seat, every seat's observation, the legal-action mask (and the per-action
  features, for games that define them), the action; at the end the returns, winners, scores and truncation.

A change that moves any of them fails here. That is a new env version: give the env id a new suffix
(``potsm_v0`` -> ``potsm_v1``), add a CHANGELOG.md line, then record the new id's fingerprints with

    .venv/bin/python tests/test_env_versions.py --record

which only adds fingerprints for ids and configurations not yet recorded; it never changes a recorded one.
Changes that keep every fingerprint (speed-ups, rendering, messages, bots, a new option whose default
keeps the old behaviour) keep the version.
"""

from __future__ import annotations

import hashlib
import json
import sys
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from pirate_envs import ENV_IDS, game_class

DATA = Path(__file__).resolve().parent / "data" / "env_fingerprints.json"
GAMES_PER_CONFIG = 2
PARTS = {
    "layout": "the observation layout (shape, bounds), the action count or the per-action feature size",
    "actions": "the action table (what each action index means)",
    "games": "what seeded games show and do (observations, legal actions, per-action features, returns, winners)",
}

# Each env id's configurations: every player count at the default options, plus the main variants.
_DMD_VARIANTS = ("grand_slam", "sudden_death", "thieves_island", "uncharted_waters", "piri_reis", "undertow")
CONFIGS: dict[str, list[dict[str, Any]]] = {
    "potsm_v0": [
        *({"num_players": n} for n in (2, 3, 4)),
        {"num_players": 3, "upcoming_adventures": True, "move_cards_in_hand": True, "reward_mode": "score"},
    ],
    "dead_mans_draw_v0": [
        *({"num_players": n} for n in (2, 3, 4)),
        *({"num_players": 3, "variant": v, "reward_mode": "score"} for v in _DMD_VARIANTS),
        {"num_players": 2, "mermaid_variant": True, "characters": False, "starting_discard": False},
    ],
    "madame_ching_v0": [
        *({"num_players": n} for n in (2, 3, 4)),
        {"num_players": 4, "team_mode": True},
        {"num_players": 2, "two_player_dual_boats": False, "reward_mode": "score"},
    ],
    "tortuga_v0": [
        *({"num_players": n} for n in range(2, 10)),
        {"num_players": 4, "max_rounds": 8, "neutral_vote": "always", "secret_exile": True, "public_steal": True},
        {"num_players": 3, "armada_depth": "last", "draw_replaces_action": False, "reward_mode": "score"},
    ],
}


def config_key(options: dict[str, Any]) -> str:
    return json.dumps(options, sort_keys=True)


def _digest(chunks) -> str:
    h = hashlib.sha256()
    for chunk in chunks:
        h.update(chunk if isinstance(chunk, bytes) else repr(chunk).encode())
    return h.hexdigest()[:16]


def _pick(seed: int, step: int, count: int) -> int:
    """A seeded uniform-enough index that no library version can change (unlike numpy's streams)."""
    return int.from_bytes(hashlib.sha256(f"{seed}:{step}".encode()).digest()[:8], "big") % count


def _game_chunks(game: Any, seed: int):
    state = game.new_initial_state(seed)
    features = bool(game.action_feature_size)
    step = 0
    while not state.is_terminal():
        seat = state.current_player()
        mask = state.legal_action_mask()
        yield ("seat", seat)
        for t in range(game.num_players):
            yield np.ascontiguousarray(state.observation(t), dtype=np.float32).tobytes()
        yield np.asarray(mask, dtype=np.int8).tobytes()
        if features:
            yield np.asarray(game.action_features(state.observation(seat), mask), dtype=np.float32).tobytes()
        legal = state.legal_actions()
        action = int(legal[_pick(seed, step, len(legal))])
        step += 1
        yield ("action", action)
        state.apply_action(action)
    yield ("end", [round(float(r), 9) for r in state.returns()], list(state.winners()))
    yield ("scores", [round(float(s), 9) for s in state.scores()], bool(state.is_truncated()))


def fingerprint(env_id: str, options: dict[str, Any]) -> dict[str, str]:
    game = game_class(env_id)(**options)
    layout = (
        tuple(game.observation_shape),
        float(game.observation_low),
        float(game.observation_high),
        int(game.num_actions),
        int(game.action_feature_size),
    )
    table = [game.action_to_string(a) for a in range(game.num_actions)]
    games = (chunk for seed in range(GAMES_PER_CONFIG) for chunk in _game_chunks(game, seed))
    return {"layout": _digest([layout]), "actions": _digest(table), "games": _digest(games)}


def recorded() -> dict[str, dict[str, dict[str, str]]]:
    return json.loads(DATA.read_text()) if DATA.exists() else {}


CASES = [(env_id, options) for env_id, configs in CONFIGS.items() for options in configs]


def test_every_env_id_has_configurations_and_fingerprints():
    assert set(CONFIGS) == set(ENV_IDS), "CONFIGS must list every registered env id (and only those)"
    data = recorded()
    missing = [f"{e} {config_key(o)}" for e, o in CASES if config_key(o) not in data.get(e, {})]
    assert not missing, (
        f"no recorded fingerprint for: {missing}; record it with .venv/bin/python tests/test_env_versions.py --record"
    )
    stale = sorted(set(data) - set(ENV_IDS))
    assert not stale, f"fingerprints recorded for env ids no longer registered: {stale}; remove them from {DATA.name}"


@pytest.mark.parametrize(("env_id", "options"), CASES, ids=[f"{e}-{config_key(o)}" for e, o in CASES])
def test_env_fingerprint_unchanged(env_id, options):
    want = recorded().get(env_id, {}).get(config_key(options))
    if want is None:
        pytest.fail(f"{env_id} {config_key(options)} has no recorded fingerprint (see the module docstring)")
    got = fingerprint(env_id, options)
    changed = [part for part in PARTS if got[part] != want[part]]
    assert not changed, (
        f"{env_id} with {config_key(options)}: {'; '.join(PARTS[p] for p in changed)} changed "
        f"(fingerprint {got} != recorded {want}). This changes what a trained agent sees, does or is rewarded "
        f"for: give the env a new version suffix ({env_id} -> {env_id[:-1]}{int(env_id[-1]) + 1}), add a "
        "CHANGELOG.md line, and record the new id with .venv/bin/python tests/test_env_versions.py --record "
        "(docs/engine.md, 'Versioning'). If the change was not meant to alter the env, it is a bug."
    )


def record() -> int:
    """Add fingerprints of configurations not recorded yet; report (never overwrite) changed ones."""
    data = recorded()
    added = changed = 0
    for env_id, options in CASES:
        key = config_key(options)
        got = fingerprint(env_id, options)
        have = data.setdefault(env_id, {}).get(key)
        if have is None:
            data[env_id][key] = got
            added += 1
        elif have != got:
            changed += 1
            print(f"CHANGED (not recorded; needs a new env version): {env_id} {key}", file=sys.stderr)
    DATA.parent.mkdir(parents=True, exist_ok=True)
    DATA.write_text(json.dumps(data, indent=1, sort_keys=True) + "\n")
    print(f"{added} fingerprint(s) added, {changed} changed, in {DATA}")
    return 1 if changed else 0


if __name__ == "__main__":
    if sys.argv[1:] != ["--record"]:
        sys.exit("usage: python tests/test_env_versions.py --record")
    sys.exit(record())
