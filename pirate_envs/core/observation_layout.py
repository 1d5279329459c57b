"""Observation layouts: a game lists its observation fields in order, this turns the list into slices.

Every game documents its flat observation as an ordered table of fields (name, size, ...); the
same helper gives each game its ``field_slices`` and the vector's size.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def layout_slices(fields: Iterable[Sequence]) -> dict[str, slice]:
    """Field name -> slice of the flat vector, for fields ``(name, size, ...)`` in vector order."""
    out: dict[str, slice] = {}
    start = 0
    for name, size, *_ in fields:
        out[name] = slice(start, start + size)
        start += size
    return out


def layout_size(fields: Iterable[Sequence]) -> int:
    """Length of the flat vector made of ``fields`` ``(name, size, ...)``."""
    return sum(size for _, size, *_ in fields)
