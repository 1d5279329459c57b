"""Rule options: their declaration as data and their validation.

Each game declares its options once, as a tuple of :class:`Option`; ``Game.__init__`` validates
what the caller passes against it. Every error names the option and what is allowed.

Accepted types, and what is stored (always a plain Python value, so options stay JSON-safe and
compare equal whatever the caller passed):

- ``int`` options: ``int`` or a numpy integer (not ``bool``/``numpy.bool_``) -> ``int``;
- ``float`` options: ``int``, ``float`` or a numpy integer/floating (not a bool), finite (no
  NaN, no infinity) -> ``float``;
- ``bool`` options: ``bool`` or ``numpy.bool_`` -> ``bool`` (``0``/``1`` and strings are refused:
  a typo such as ``characters="false"`` must not silently mean True);
- ``str`` options: ``str`` (``numpy.str_`` included) -> ``str``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from pirate_envs.core.errors import InvalidOptionError


@dataclass(frozen=True)
class Option:
    """One rule option: its name, default, and the values it accepts.

    ``kind`` is ``bool``, ``int``, ``float`` or ``str``. ``choices`` (for str/int) lists the
    accepted values; ``minimum``/``maximum`` bound numbers (inclusive).
    """

    name: str
    default: Any
    kind: type
    doc: str = ""
    choices: tuple = ()
    minimum: float | None = None
    maximum: float | None = None

    def allowed(self) -> str:
        if self.choices:
            return "one of " + ", ".join(repr(c) for c in self.choices)
        if self.kind is bool:
            return "true or false"
        lo = "-inf" if self.minimum is None else self.minimum
        hi = "inf" if self.maximum is None else self.maximum
        return f"{'an integer' if self.kind is int else 'a finite number'} in [{lo}, {hi}]"

    def validate(self, value: Any, owner: str) -> Any:
        def fail(why: str) -> InvalidOptionError:
            return InvalidOptionError(
                f"{owner}: option {self.name!r} {why}; allowed: {self.allowed()} (default {self.default!r})"
            )

        kind = self.kind
        if kind is bool:
            if not isinstance(value, (bool, np.bool_)):
                raise fail(f"must be a bool, got {value!r}")
            value = bool(value)
        elif kind is int:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
                raise fail(f"must be an int, got {value!r}")
            value = int(value)
        elif kind is float:
            if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, float, np.integer, np.floating)):
                raise fail(f"must be a number, got {value!r}")
            value = float(value)
            if not math.isfinite(value):
                raise fail(f"must be a finite number, got {value!r}")
        elif kind is str:
            if not isinstance(value, str):
                raise fail(f"must be a string, got {value!r}")
            value = str(value)
        if self.choices and value not in self.choices:
            raise fail(f"got {value!r}")
        if self.minimum is not None and value < self.minimum:
            raise fail(f"got {value!r}, below the minimum")
        if self.maximum is not None and value > self.maximum:
            raise fail(f"got {value!r}, above the maximum")
        return value


def resolve_options(specs: tuple[Option, ...], given: Mapping[str, Any], owner: str) -> dict[str, Any]:
    """Validate ``given`` against ``specs`` and return the full option dict (defaults filled in)."""
    by_name = {spec.name: spec for spec in specs}
    unknown = sorted(set(given) - set(by_name))
    if unknown:
        valid = ", ".join(f"{s.name} ({s.allowed()})" for s in specs)
        raise InvalidOptionError(f"{owner}: unknown option(s) {', '.join(map(repr, unknown))}; valid options: {valid}")
    return {spec.name: spec.validate(given[spec.name], owner) if spec.name in given else spec.default for spec in specs}
