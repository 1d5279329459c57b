"""YAML in and out of the training config: reading a config file, ``--set key.path=value`` overrides, and
writing a config back as YAML (a run directory's ``config.yaml``).

Reading refuses a key given twice in one mapping (:class:`UniqueKeyLoader`) and reports broken YAML with
its line and column, as a :class:`~training.config_types.ConfigError` naming the file. What the keys
mean and whether their values are allowed is ``training.config_validation``'s job.
"""

from __future__ import annotations

import copy
from collections.abc import Mapping
from pathlib import Path
from typing import Any

import yaml

from .config_types import SECTIONS, ConfigError, TrainConfig


class DuplicateKeyError(yaml.constructor.ConstructorError):
    """A key given twice in one YAML mapping."""


class UniqueKeyLoader(yaml.SafeLoader):
    """``yaml.SafeLoader`` that refuses a key given twice in one mapping (PyYAML keeps the last one
    silently, so a second ``ppo:`` section would quietly replace the first)."""

    def construct_mapping(self, node: yaml.MappingNode, deep: bool = False) -> dict:
        seen: dict[Any, yaml.Node] = {}
        for key_node, _ in node.value:
            if key_node.tag == "tag:yaml.org,2002:merge":  # ``<<: *anchor`` merges may be overridden
                continue
            key = self.construct_object(key_node, deep=True)
            try:
                first = seen.setdefault(key, key_node)
            except TypeError:  # an unhashable key: the base class reports it
                continue
            if first is not key_node:
                raise DuplicateKeyError(
                    None,
                    None,
                    f"duplicate key {key!r} (first given at line {first.start_mark.line + 1}); "
                    "a key may appear once in a mapping",
                    key_node.start_mark,
                )
        return super().construct_mapping(node, deep=deep)


def parse_yaml(text: str) -> Any:
    """YAML text to Python, refusing duplicate keys (:class:`UniqueKeyLoader`)."""
    return yaml.load(text, Loader=UniqueKeyLoader)


def read_yaml(path: str | Path) -> dict[str, Any]:
    """Parse a YAML config file; a missing file or broken YAML raises :class:`ConfigError`."""
    path = Path(path)
    if not path.is_file():
        from pirate_envs.shipped import config_names

        names = ", ".join(config_names())
        raise ConfigError(f"config file {str(path)!r} does not exist (or name a shipped config: {names})")
    try:
        data = parse_yaml(path.read_text())
    except yaml.YAMLError as err:
        mark = getattr(err, "problem_mark", None)
        where = f" at line {mark.line + 1}, column {mark.column + 1}" if mark is not None else ""
        problem = getattr(err, "problem", None) or str(err)
        if isinstance(err, DuplicateKeyError):
            raise ConfigError(f"{path}{where}: {problem}") from None
        raise ConfigError(f"{path}: broken YAML{where}: {problem}") from None
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{path}: the top level must be a mapping of sections ({', '.join(SECTIONS)}); got {data!r}")
    return data


def apply_overrides(data: dict[str, Any], overrides: list[str], source: str = "--set") -> dict[str, Any]:
    """Apply ``key.path=value`` overrides (values parsed as YAML; list items by index: ``stages.1.until``)."""
    data = copy.deepcopy(data)
    for item in overrides:
        key, sep, text = item.partition("=")
        if not sep or not key:
            raise ConfigError(f"{source} {item!r}: expected key.path=value, e.g. ppo.learning_rate=1e-4")
        try:
            value = parse_yaml(text)
        except yaml.YAMLError as err:
            raise ConfigError(f"{source} {item!r}: the value is not valid YAML: {err}") from None
        parts = key.split(".")
        node: Any = data
        for depth, part in enumerate(parts):
            if not isinstance(node, (dict, list)):  # e.g. ``run: 5`` in the file with --set run.dir=...
                raise _not_a_mapping(source, item, ".".join(parts[:depth]), node)
            if depth == len(parts) - 1:
                break
            node = _child(node, part, ".".join(parts[: depth + 1]), source, create=True)
        last = parts[-1]
        if isinstance(node, list):
            index = _index(node, last, key, source)
            node[index] = value
        else:
            node[last] = value
    return data


def _not_a_mapping(source: str, item: str, path: str, node: Any) -> ConfigError:
    return ConfigError(
        f"{source} {item!r}: cannot set a key inside {path}: it is {type(node).__name__} {node!r}, not a mapping "
        f"(make {path} a mapping in the config file, e.g. {path}: {{key: value}})"
    )


def _index(node: list, part: str, path: str, source: str) -> int:
    if not part.isdigit() or int(part) >= len(node):
        raise ConfigError(f"{source}: {path}: list index must be 0..{len(node) - 1}; got {part!r}")
    return int(part)


def _child(node: Any, part: str, path: str, source: str, create: bool) -> Any:
    if isinstance(node, list):
        return node[_index(node, part, path, source)]
    if not isinstance(node, dict):
        raise ConfigError(f"{source}: {path}: cannot descend into a {type(node).__name__}")
    if part not in node and create:
        node[part] = {}
    return node[part]


def dump_config(config: TrainConfig | Mapping[str, Any]) -> str:
    """The config as YAML, sections and keys in schema order (what ``config.yaml`` in a run directory holds)."""
    data = dict(config) if isinstance(config, Mapping) else config_dict(config)
    return yaml.safe_dump(data, sort_keys=False, default_flow_style=None, width=110)


def config_dict(config: TrainConfig) -> dict[str, Any]:
    """A :class:`TrainConfig` as the plain nested dict ``training.config.validate_config`` returns: sections
    and keys in schema order, the order of the dataclasses' fields."""
    return config.to_dict()
