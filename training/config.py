"""The training config: how a run's YAML file becomes a :class:`~training.config_types.TrainConfig`.

A run is described by one YAML file (``configs/<env_id>.yaml``) plus ``--set`` overrides.
:func:`load_typed_config` reads the file (``training.config_yaml``), applies the overrides, validates
it against the schema (``training.config_validation``) and returns the typed config; :func:`load_config`
returns the same as a plain nested dict. The schema is the section dataclasses of
``training.config_types``: every key's type, default, allowed values and help, declared once there.
:func:`describe_schema` prints them as text and :func:`reference_markdown` as the table of
docs/reference/config.md. Every problem stops the run before training with a :class:`ConfigError` that
names the file, the key path and what is allowed.

This module is the config's public face: the names other modules import (``ConfigError``,
``read_yaml``, ``validate_config``, ...) are all importable from here.
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from .config_types import REQUIRED, SECTIONS, ConfigError, Field, TrainConfig, keys_of
from .config_validation import (
    FIXED_OPPONENTS,
    SELFPLAY,
    _check_game,  # noqa: F401  (training.rllib_train checks its env section with it)
    check_sections,
    validate_config,
)
from .config_yaml import (
    DuplicateKeyError,
    UniqueKeyLoader,
    apply_overrides,
    config_dict,
    dump_config,
    parse_yaml,
    read_yaml,
)

__all__ = [
    "FIXED_OPPONENTS",
    "REQUIRED",
    "SECTIONS",
    "SELFPLAY",
    "ConfigError",
    "DuplicateKeyError",
    "Field",
    "TrainConfig",
    "UniqueKeyLoader",
    "apply_overrides",
    "check_sections",
    "config_dict",
    "describe_schema",
    "dump_config",
    "load_config",
    "load_typed_config",
    "parse_yaml",
    "read_yaml",
    "reference_markdown",
    "require_typed",
    "run_dir_of",
    "typed_config",
    "validate_config",
]


def load_config(path: str | Path, overrides: list[str] | None = None, check_files: bool = True) -> dict[str, Any]:
    """Read, override and validate a config file; returns the complete config (defaults filled in).

    ``path`` may also name a shipped config (a game id such as ``potsm_v0``, or ``quickstart``) when no
    file of that name exists: :func:`pirate_envs.shipped.config_path`."""
    from pirate_envs.shipped import config_path

    path = config_path(path)
    data = apply_overrides(read_yaml(path), overrides or [])
    return validate_config(data, source=str(path), check_files=check_files)


def load_typed_config(path: str | Path, overrides: list[str] | None = None, check_files: bool = True) -> TrainConfig:
    """:func:`load_config` as a :class:`training.config_types.TrainConfig` (attributes instead of keys):
    the config that ``training.train`` and the modules it calls take."""
    return TrainConfig.from_dict(load_config(path, overrides, check_files))


def typed_config(
    config: TrainConfig | Mapping[str, Any], source: str = "config", check_files: bool = False
) -> TrainConfig:
    """``config`` as a :class:`TrainConfig`: one as is, a config dict validated first (:func:`validate_config`:
    defaults filled in, a bad key a :class:`ConfigError` naming it). For the public entry points that
    still accept the plain dicts they took before the typed config (``training.train.train``)."""
    if isinstance(config, TrainConfig):
        return config
    if isinstance(config, Mapping):
        return TrainConfig.from_dict(validate_config(config, source=source, check_files=check_files))
    raise TypeError(f"expected a TrainConfig or a config mapping; got {type(config).__name__}")


def require_typed(config: Any, caller: str) -> TrainConfig:
    """``config`` itself when it is a :class:`TrainConfig`; anything else (a plain config dict) is a
    :class:`TypeError` naming ``caller`` and the conversion to use."""
    if not isinstance(config, TrainConfig):
        raise TypeError(
            f"{caller} takes a TrainConfig (training.config_types), not a {type(config).__name__}; "
            "load one with training.config.load_typed_config(path) or convert a validated dict with "
            "TrainConfig.from_dict(config)"
        )
    return config


def run_dir_of(config: TrainConfig | Mapping[str, Any]) -> Path:
    """The run directory of a validated config (a :class:`TrainConfig`, or a config dict such as
    ``training.rllib_train``'s): ``run.dir`` with ``{env_id}`` and ``{timestamp}`` filled in."""
    if isinstance(config, Mapping):
        template, env_id = config["run"]["dir"], config["env"]["id"]
    else:
        template, env_id = config.run.dir, config.env.id
    try:
        text = template.format(env_id=env_id, timestamp=time.strftime("%Y%m%d-%H%M%S"))
    except (KeyError, IndexError, ValueError) as err:
        raise ConfigError(
            f"run.dir: {template!r} has an unknown placeholder ({err}); allowed: {{env_id}}, {{timestamp}}"
        ) from None
    return Path(text)


# --- the reference, from the dataclasses ------------------------------------------------------------------
def describe_schema() -> str:
    """A plain-text reference of every key: path, default, allowed values, meaning."""
    lines = []
    for section, cls in SECTIONS.items():
        for name, field in keys_of(cls).items():
            default = "(required)" if field.default is REQUIRED else repr(field.default)
            lines.append(f"{section}.{name}: {field.doc}. Default {default}; allowed: {field.allowed()}")
    return "\n".join(lines)


REFERENCE_HEADER = "| key | type | default | allowed | help |\n|---|---|---|---|---|"


def reference_markdown() -> str:
    """The Markdown table of every key (key path, type, default, allowed values, help): the table of
    docs/reference/config.md, which tests/test_config_types.py keeps equal to this."""
    rows = [REFERENCE_HEADER]
    for section, cls in SECTIONS.items():
        for name, field in keys_of(cls).items():
            default = "required" if field.default is REQUIRED else f"`{_yaml_text(field.default)}`"
            cells = [f"`{section}.{name}`", field.annotation, default, field.allowed(), field.doc]
            rows.append("| " + " | ".join(_table_cell(cell) for cell in cells) + " |")
    return "\n".join(rows)


def _table_cell(text: str) -> str:
    """``text`` safe in a Markdown table cell: ``|`` escaped (so never inside a code span, where the site's
    Markdown would show the backslash) and ``<`` where it would open an HTML tag (``<run dir>``)."""
    return re.sub(r"<(?=[A-Za-z/!?])", "&lt;", text.replace("|", "\\|"))


def _yaml_text(value: Any) -> str:
    """``value`` as it is written in a config file, on one line (``null``, ``[128, 128]``, ``0.0003``)."""
    text = yaml.safe_dump(value, default_flow_style=True, sort_keys=False, width=1000).strip()
    return text.removesuffix("\n...").strip()
