"""The mutation catalogue of issue 31 stays applicable: every mutation's original text occurs exactly
once in its file, its replacement differs, and the catalogue covers every game and every kind of
hidden-information code (``tests/mutations/catalogue.toml``; run by ``scripts/mutation_score.py``)."""

from __future__ import annotations

from pathlib import Path

import tomllib

import pirate_envs

ROOT = Path(__file__).resolve().parents[1]
CATALOGUE = ROOT / "tests" / "mutations" / "catalogue.toml"
FIELDS = {"id", "game", "area", "file", "original", "replacement", "leaks"}


def load() -> list[dict]:
    return tomllib.loads(CATALOGUE.read_text())["mutation"]


def test_every_mutation_applies_exactly_once():
    for m in load():
        assert set(m) == FIELDS, f"{m.get('id')}: fields {sorted(set(m) ^ FIELDS)} wrong"
        text = (ROOT / m["file"]).read_text()
        count = text.count(m["original"])
        assert count == 1, f"{m['id']}: its original text occurs {count} times in {m['file']} (must be once)"
        assert m["replacement"] != m["original"], m["id"]


def test_the_catalogue_covers_every_game_and_area():
    mutations = load()
    ids = [m["id"] for m in mutations]
    assert len(ids) == len(set(ids)) >= 25
    assert {"M1", "M2"} <= set(ids)
    assert set(pirate_envs.ENV_IDS) <= {m["game"] for m in mutations}
    areas = " ".join(m["area"] for m in mutations)
    for area in ("view", "observation", "describe_action", "resample_hidden", "text render", "arena", "replay"):
        assert area in areas, f"no mutation of the {area} code"
