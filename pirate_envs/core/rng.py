"""The seeded random-number generator every game state owns.

A SplitMix64 generator: its whole state is one 64-bit integer, so cloning a game state,
serialising it to JSON and restoring it are exact and cheap (search bots clone millions of
times). The global ``random`` and ``numpy.random`` states are never touched.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import MutableSequence
from typing import Any

import numpy as np

_MASK64 = (1 << 64) - 1
_GOLDEN = 0x9E3779B97F4A7C15
# Rng.shuffle's vectorised path (numpy's fixed cost pays off above this many items)
_VECTOR_SHUFFLE_FROM = 28
_GOLDEN_U64 = np.uint64(_GOLDEN)
_MIX1 = np.uint64(0xBF58476D1CE4E5B9)
_MIX2 = np.uint64(0x94D049BB133111EB)
_LOW32 = np.uint64(0xFFFFFFFF)
_U27, _U30, _U31, _U32 = (np.uint64(k) for k in (27, 30, 31, 32))
_MAX_VECTOR_SHUFFLE = 4096  # the tables below; longer lists take the scalar loop
with np.errstate(over="ignore"):
    _GOLDEN_STEPS = _GOLDEN_U64 * np.arange(1, _MAX_VECTOR_SHUFFLE, dtype=np.uint64)
_BOUNDS = np.arange(_MAX_VECTOR_SHUFFLE, 1, -1, dtype=np.uint64)


class Rng:
    """SplitMix64: small, fast in pure Python, statistically good enough for shuffles and dice."""

    __slots__ = ("state",)

    def __init__(self, seed: int | None = None) -> None:
        if seed is None:
            seed = secrets.randbits(64)
        elif type(seed) is not int:
            seed = as_seed(seed)
        # Mix the seed once so that nearby seeds (0, 1, 2, ...) start far apart.
        self.state = (int(seed) * _GOLDEN + 0x632BE59BD9B4E019) & _MASK64

    def next_u64(self) -> int:
        self.state = z = (self.state + _GOLDEN) & _MASK64
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK64
        return z ^ (z >> 31)

    def randrange(self, n: int) -> int:
        """Uniform integer in [0, n) (multiply-shift; bias below 2**-50 for game-sized n)."""
        if n <= 0:
            raise ValueError(f"randrange needs n >= 1, got {n}")
        return (self.next_u64() * n) >> 64

    def random(self) -> float:
        return (self.next_u64() >> 11) * (1.0 / (1 << 53))

    def choice(self, seq: Any) -> Any:
        return seq[self.randrange(len(seq))]

    def shuffle(self, items: MutableSequence) -> None:
        """Fisher-Yates shuffle in place: swap ``i`` with ``j = (next_u64() * (i + 1)) >> 64`` for
        ``i`` from the end down to 1."""
        n = len(items)
        if _VECTOR_SHUFFLE_FROM < n <= _MAX_VECTOR_SHUFFLE:
            swaps = self._swap_indices(n)
            for i, j in zip(range(n - 1, 0, -1), swaps, strict=True):
                items[i], items[j] = items[j], items[i]
            return
        z = self.state
        for i in range(n - 1, 0, -1):  # next_u64, inlined
            z = (z + _GOLDEN) & _MASK64
            x = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK64
            x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK64
            j = ((x ^ (x >> 31)) * (i + 1)) >> 64
            items[i], items[j] = items[j], items[i]
        self.state = z

    def _swap_indices(self, n: int) -> list[int]:
        """The ``j`` of every step of :meth:`shuffle` on ``n`` items, from the next ``n - 1`` outputs.

        SplitMix64's k-th next output depends only on ``state + k * GOLDEN``, so numpy computes them
        all at once in wrapping uint64 arithmetic (bit-identical to :meth:`next_u64`); the 128-bit
        product's high word is taken in 32-bit halves.
        """
        steps = n - 1
        # array arithmetic on uint64 wraps silently, as SplitMix64 wants
        z = _GOLDEN_STEPS[:steps] + np.uint64(self.state)
        z = (z ^ (z >> _U30)) * _MIX1
        z = (z ^ (z >> _U27)) * _MIX2
        z ^= z >> _U31
        bound = _BOUNDS[_MAX_VECTOR_SHUFFLE - n :]  # i + 1 for i = n-1 .. 1
        swaps = (((z >> _U32) * bound + (((z & _LOW32) * bound) >> _U32)) >> _U32).tolist()
        self.state = (self.state + steps * _GOLDEN) & _MASK64
        return swaps

    def clone(self) -> Rng:
        new = Rng.__new__(Rng)
        new.state = self.state
        return new

    def to_json(self) -> str:
        return format(self.state, "016x")

    @classmethod
    def from_json(cls, text: str) -> Rng:
        """The generator :meth:`to_json` wrote: exactly 16 hexadecimal digits, else ``ValueError``."""
        if not isinstance(text, str) or len(text) != 16 or text.strip(_HEX_DIGITS):
            raise ValueError(f"an Rng state is 16 hexadecimal digits (as Rng.to_json writes it), got {text!r}")
        new = cls.__new__(cls)
        new.state = int(text, 16)
        return new


_HEX_DIGITS = "0123456789abcdefABCDEF"


def as_seed(seed: Any, what: str = "seed", non_negative: bool = False) -> int | None:
    """``seed`` as a plain ``int`` (or ``None``): accepts ``int`` and numpy integers.

    Bools (``True`` is not a seed, it is usually a misplaced flag), floats, strings and anything
    else raise ``TypeError`` naming ``what``; with ``non_negative`` (the env adapters'
    ``reset(seed=...)``, as Gymnasium) a negative int raises ``ValueError``.
    """
    if seed is None:
        return None
    if isinstance(seed, (bool, np.bool_)) or not isinstance(seed, (int, np.integer)):
        allowed = "None or a non-negative int" if non_negative else "an int (numpy ints accepted) or None"
        raise TypeError(f"{what} must be {allowed}; got {seed!r} ({type(seed).__name__})")
    if non_negative and seed < 0:
        raise ValueError(f"{what} must be None or a non-negative int; got {seed}")
    return int(seed)


def as_rng(source: Any) -> Rng:
    """Turn what a caller passes as randomness into an :class:`Rng`.

    Accepts an ``Rng`` (used as is), an int seed (numpy integers too), ``None`` (fresh entropy), a
    ``numpy.random.Generator`` or a ``random.Random`` (a seed is drawn from it). A bool, a float
    or anything else raises ``TypeError`` naming what was passed.
    """
    if isinstance(source, Rng):
        return source
    if source is None or (isinstance(source, (int, np.integer)) and not isinstance(source, (bool, np.bool_))):
        return Rng(None if source is None else int(source))
    if isinstance(source, np.random.Generator):
        return Rng(int(source.integers(0, 1 << 63)))
    if isinstance(source, random.Random):
        return Rng(source.getrandbits(64))
    raise TypeError(
        "expected an int seed (not a bool), None, pirate_envs Rng, numpy Generator or random.Random; "
        f"got {source!r} ({type(source).__name__})"
    )
