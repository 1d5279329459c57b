"""The typed training config (training/config_types.py) and docs/training.md's reference table agree with
``training.config.SCHEMA``, the one source of every key's type, default, allowed values and help.

A key added to the schema without regenerating the dataclasses (``python -m training.config
--write-types``) or without its row in the docs' table fails here, naming the key.
"""

from __future__ import annotations

import dataclasses
import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from training import config_types
from training.config import (
    REQUIRED,
    SCHEMA,
    ConfigError,
    field_type,
    load_config,
    load_typed_config,
    section_class_name,
)

ROOT = Path(__file__).resolve().parents[1]
REGENERATE = "regenerate training/config_types.py with: .venv/bin/python -m training.config --write-types"
NUMBER = re.compile(r"^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$")


def test_dataclasses_are_the_schema():
    train_fields = [f.name for f in dataclasses.fields(config_types.TrainConfig)]
    assert train_fields == list(SCHEMA), f"TrainConfig sections differ from the schema; {REGENERATE}"
    for section, keys in SCHEMA.items():
        cls = getattr(config_types, section_class_name(section), None)
        assert cls is not None and config_types.SECTIONS[section] is cls, f"no dataclass for {section!r}; {REGENERATE}"
        fields = {f.name: f for f in dataclasses.fields(cls)}
        assert set(fields) == set(keys), (
            f"{section}: dataclass fields {sorted(fields)} != schema keys {sorted(keys)}; {REGENERATE}"
        )
        for name, key in keys.items():
            got = fields[name]
            where = f"{section}.{name}"
            assert got.type == field_type(key), f"{where}: type {got.type} != {field_type(key)}; {REGENERATE}"
            if key.default is REQUIRED:
                assert got.default is dataclasses.MISSING and got.default_factory is dataclasses.MISSING, where
            else:
                default = got.default if got.default_factory is dataclasses.MISSING else got.default_factory()
                assert default == key.default, f"{where}: default {default!r} != {key.default!r}; {REGENERATE}"
            assert dict(got.metadata) == {"help": key.doc, "allowed": key.allowed()}, f"{where}: help; {REGENERATE}"


def _split_top_level(text: str) -> list[str]:
    """``"10, 512, 1e-3"`` -> three parts; commas inside brackets or braces do not split."""
    parts, depth, current = [], 0, ""
    for char in text:
        depth += char in "[{"
        depth -= char in "]}"
        if char == "," and depth == 0:
            parts.append(current.strip())
            current = ""
        else:
            current += char
    return [*parts, current.strip()]


def _docs_value(text: str) -> Any:
    text = text.strip().strip("`")
    if text == "required":
        return REQUIRED
    if NUMBER.match(text):
        return float(text) if any(c in text for c in ".eE") else int(text)
    if text.startswith(("[", "{")) or text in ("null", "true", "false"):
        return yaml.safe_load(text)
    return text


def docs_table() -> dict[str, Any]:
    """Key -> default of every row of docs/training.md's "Config reference" table."""
    doc = (ROOT / "docs" / "training.md").read_text()
    part = doc.split("## Config reference", 1)[1].split("\n## ", 1)[0]
    table: dict[str, Any] = {}
    for row in (line for line in part.splitlines() if line.startswith("| `")):
        key_cell, default_cell = row.strip("|").split("|")[:2]
        keys = re.findall(r"`([^`]+)`", key_cell)
        section = keys[0].split(".")[0]
        keys = [f"{section}{k}" if k.startswith(".") else k for k in keys]
        defaults = _split_top_level(default_cell.strip())
        if len(defaults) == 1:
            defaults *= len(keys)
        assert len(defaults) == len(keys), f"docs/training.md row {row!r}: one default per key"
        table.update({key: _docs_value(value) for key, value in zip(keys, defaults, strict=True)})
    return table


def test_docs_reference_table_is_the_schema():
    table = docs_table()
    schema_keys = {f"{section}.{name}" for section, keys in SCHEMA.items() for name in keys}
    missing, extra = sorted(schema_keys - set(table)), sorted(set(table) - schema_keys)
    assert not missing and not extra, (
        f"docs/training.md's config reference table and the schema differ: keys missing from the docs {missing}, "
        f"keys not in the schema {extra}"
    )
    for key, documented in table.items():
        section, name = key.split(".")
        want = SCHEMA[section][name].default
        assert documented == want or (documented is REQUIRED and want is REQUIRED), (
            f"docs/training.md gives {key} the default {documented!r}; the schema has {want!r}"
        )


def test_typed_config_reads_old_runs_and_keeps_the_errors(tmp_path):
    """A shipped agent's config.yaml, as its run wrote it, loads typed; bad values still name the key."""
    old = ROOT / "checkpoints" / "potsm_v0" / "config.yaml"
    typed = load_typed_config(old, check_files=False)
    assert isinstance(typed, config_types.TrainConfig)
    assert typed.to_dict() == load_config(old, check_files=False)
    assert isinstance(typed.ppo.learning_rate, float) and typed.env.id == "potsm_v0"
    with pytest.raises(ConfigError, match=r"ppo\.n_epochs: .*>= 1"):
        load_typed_config(old, ["ppo.n_epochs=0"], check_files=False)
    with pytest.raises(ConfigError, match=r"network\.activation: .*one of 'tanh', 'relu'"):
        load_typed_config(old, ["network.activation=gelu"], check_files=False)
