"""Explicit chance for every engine: each random draw as a chance node with its outcomes and probabilities.

The engines draw inside ``apply_action`` (and ``_setup_game``) from their state's own :class:`Rng`. To
show those draws to a framework with explicit chance nodes (OpenSpiel's ``EXPLICIT_STOCHASTIC``), a
step is replayed on a clone of the state before it with a :class:`ScriptedRng`: a generator that
answers draws from a script of chosen outcomes and raises :class:`NeedChance` at the first draw the
script does not cover. The raised event describes the draw:

- ``shuffle(items)``: OpenSpiel's deal-on-demand. :meth:`Rng.shuffle` is Fisher-Yates from the end, so
  its step ``i`` puts at position ``i`` a card drawn uniformly from positions ``0..i``; here each step is
  a chance node over the distinct cards still in ``0..i``, each with probability count / (i + 1), and
  the chosen card is swapped in (a step with one distinct card left is resolved without a node). The
  sequence of cards is distributed exactly as the engine's own shuffle (equal cards are
  interchangeable), and the first node is the card at the end of the list, which the engines draw
  first (``pop()``).
- ``choice(seq)``: a node over the distinct values of ``seq`` (probability count / len).
- ``randrange(n)``: dice, a random seat, a random card of a face-up pile: ``n`` outcomes of 1/n.

Once an event's outcomes are chosen the step is replayed with the longer script, until it finishes
without asking (:class:`ChanceStep`). Replays run once per random event, not once per card.
The rules engines are not touched: a game made by ``Game.new_initial_state(seed)`` is unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import MutableSequence, Sequence
from typing import Any

from pirate_envs.core.game import Game, State
from pirate_envs.core.rng import Rng

SHUFFLE, CHOICE, RANDRANGE = "shuffle", "choice", "randrange"


class NeedChance(BaseException):  # a signal, not an error: BaseException, so no engine handler eats it
    """The scripted generator ran out of outcomes at a draw: ``kind`` and its ``items`` / ``n``."""

    def __init__(self, kind: str, items: tuple = (), n: int = 0) -> None:
        super().__init__(kind)
        self.kind, self.items, self.n = kind, items, n


class ScriptedRng(Rng):
    """An :class:`Rng` whose draws come from ``script`` (one int per draw, see the module doc).

    ``shuffle`` takes the ``j`` of each Fisher-Yates step, ``choice`` the index into the sequence,
    ``randrange`` its value. A draw with a single possible result takes nothing from the script.
    """

    __slots__ = ("pos", "script")

    def __init__(self, script: Sequence[int] = ()) -> None:
        self.state = 0
        self.script = list(script)
        self.pos = 0

    def _take(self, count: int) -> list[int] | None:
        if len(self.script) - self.pos < count:
            return None
        taken = self.script[self.pos : self.pos + count]
        self.pos += count
        return taken

    def randrange(self, n: int) -> int:
        if n <= 0:
            raise ValueError(f"randrange needs n >= 1, got {n}")
        if n == 1:
            return 0
        taken = self._take(1)
        if taken is None:
            raise NeedChance(RANDRANGE, n=n)
        return taken[0]

    def choice(self, seq: Any) -> Any:
        if len(set(seq)) <= 1:
            return seq[0]
        taken = self._take(1)
        if taken is None:
            raise NeedChance(CHOICE, items=tuple(seq))
        return seq[taken[0]]

    def shuffle(self, items: MutableSequence) -> None:
        n = len(items)
        if len(set(items)) <= 1:
            return  # every order of equal cards is the same
        swaps = self._take(n - 1)
        if swaps is None:
            raise NeedChance(SHUFFLE, items=tuple(items))
        for i, j in zip(range(n - 1, 0, -1), swaps, strict=True):
            items[i], items[j] = items[j], items[i]

    def next_u64(self) -> int:
        raise RuntimeError(
            "an engine drew raw random bits (Rng.next_u64/random); explicit chance covers shuffle, choice and randrange"
        )

    def clone(self) -> ScriptedRng:
        new = ScriptedRng(self.script)
        new.pos = self.pos
        return new


class ChanceStep:
    """One engine step (the setup when ``action`` is None, else ``apply_action(action)`` on ``base``)
    resolved through explicit chance nodes.

    While :attr:`done` is false, :meth:`outcomes` lists the current node's ``(outcome, probability)``
    pairs (outcome ids: a card's int value for shuffles and choices, the value for ``randrange``) and
    :meth:`apply` takes one. When done, :attr:`state` is the engine state after the step (its rng a
    fresh :class:`ScriptedRng`, so the next step asks again).
    """

    __slots__ = ("action", "base", "event", "game", "i", "script", "state", "swaps", "work")

    def __init__(self, game: Game, base: State | None, action: int | None) -> None:
        self.game, self.base, self.action = game, base, action
        self.script: list[int] = []
        self.state: State | None = None
        self.event: NeedChance | None = None
        self.work: list[Any] = []
        self.swaps: list[int] = []
        self.i = 0
        self._run()

    @property
    def done(self) -> bool:
        return self.state is not None

    def clone(self) -> ChanceStep:
        new = object.__new__(ChanceStep)
        new.game, new.base, new.action = self.game, self.base, self.action  # base is never mutated
        new.script, new.state, new.event = list(self.script), self.state, self.event
        new.work, new.swaps, new.i = list(self.work), list(self.swaps), self.i
        return new

    def _run(self) -> None:
        rng = ScriptedRng(self.script)
        try:
            if self.base is None:
                state = self.game.state_class.__new__(self.game.state_class)
                state._init_base(self.game, rng)
                state._setup_game()
            else:
                state = self.base.clone()
                state.rng = rng
                state.apply_action(self.action)
        except NeedChance as need:
            self.event = need
            if need.kind == SHUFFLE:
                self.work, self.swaps, self.i = list(need.items), [], len(need.items) - 1
                self._skip_forced()
            return
        if rng.pos != len(self.script):
            raise RuntimeError(f"{self.game.game_id}: a replayed step used {rng.pos} of {len(self.script)} outcomes")
        state.rng = ScriptedRng()
        self.state, self.event = state, None

    def _skip_forced(self) -> None:
        work, i = self.work, self.i
        while i >= 1 and len(set(work[: i + 1])) == 1:
            self.swaps.append(i)
            i -= 1
        self.i = i
        if i == 0:
            self.script += self.swaps
            self._run()

    def outcomes(self) -> list[tuple[int, float]]:
        event = self.event
        if event is None:
            raise RuntimeError("no chance node: the step is resolved")
        if event.kind == RANDRANGE:
            return [(k, 1.0 / event.n) for k in range(event.n)]
        pile = self.work[: self.i + 1] if event.kind == SHUFFLE else event.items
        size = len(pile)
        return sorted((int(card), count / size) for card, count in Counter(pile).items())

    def apply(self, outcome: int) -> None:
        """Take ``outcome`` (one of :meth:`outcomes`) at the current node; ``ValueError`` otherwise."""
        event = self.event
        if event is None:
            raise ValueError("no chance node: the step is resolved")
        if event.kind == RANDRANGE:
            if not 0 <= outcome < event.n:
                raise ValueError(f"chance outcome {outcome} is not in [0, {event.n})")
            self.script.append(outcome)
            self._run()
        elif event.kind == CHOICE:
            if outcome not in event.items:
                raise ValueError(f"chance outcome {outcome} is not one of {sorted(set(event.items))}")
            self.script.append(event.items.index(outcome))
            self._run()
        else:
            work, i = self.work, self.i
            try:
                j = work.index(outcome, 0, i + 1)
            except ValueError:
                raise ValueError(f"chance outcome {outcome} is not one of {sorted(set(work[: i + 1]))}") from None
            work[i], work[j] = work[j], work[i]
            self.swaps.append(j)
            self.i = i - 1
            if self.i == 0:
                self.script += self.swaps
                self._run()
            else:
                self._skip_forced()

    def describe(self, outcome: int) -> str:
        """The node's outcome in words (for ``action_to_string``)."""
        event = self.event
        if event is None:
            return f"chance {outcome}"
        if event.kind == SHUFFLE:
            return f"card {outcome} at position {self.i} of a {len(self.work)}-card shuffle"
        if event.kind == CHOICE:
            return f"random pick: {outcome}"
        return f"random number {outcome} of {event.n}"
