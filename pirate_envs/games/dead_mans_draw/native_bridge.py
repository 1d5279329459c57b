"""Conversions between Dead Man's Draw's Python state and its compiled engine (``dmd_engine``, native/rules.c).

The compiled engine takes the rule options as int64 values (:data:`OPTIONS`, :func:`options_vector`) and
writes its state as a flat list of int64 values (``dump``), which :func:`unpack` turns back into the
``fields`` dict of ``DmdState.to_dict()`` and :func:`pack` builds from a Python state, in this order:

- ``variant, phase, decider, active, first_player``
- ``choices``, ``draw_pile``, ``discard``: each its length, then its items
- ``collections``: per seat, its card count, then its cards ascending (a suit's stack is its cards in id order)
- ``removed``, ``row`` (the anchor marker as -1), ``hook_protected``: length, items
- ``tasks``: length, then ``kind, arg`` per task (bottom first)
- ``offer``: length, items; then ``hook_s1, plunder_target, plunder_remaining``
- ``dealt``: per seat length, items; ``kept``: one per seat; ``revealed``; ``holder``: 18 values;
  ``locker_target``
- ``known``: per seat length, items; ``eliminated``, ``turns_taken``, ``busts``: one per seat
- ``turn_cards``: length, items; ``turn_busted, last_turn_player``; ``last_turn_cards``: length, items;
  ``last_turn_busted``; ``winner_seats``: length, items

Booleans travel as 0/1. ``score_scale`` (a float) travels as the 64 bits of its IEEE double.
"""

from __future__ import annotations

import struct
from typing import Any

from pirate_envs.core.rewards import REWARD_MODES
from pirate_envs.games.dead_mans_draw.cards import CARD_SUIT, NUM_ABILITIES, NUM_SUITS, VARIANT_OPTIONS

OPTIONS: tuple[str, ...] = (
    "characters",
    "starting_discard",
    "variant",
    "mermaid_variant",
    "reward_mode",
    "score_scale",
)
NUM_FEATURES = 8  # action_features.CHANNELS


def double_bits(value: float) -> int:
    """The 64 bits of ``value`` as an IEEE double, read as a signed int64."""
    return struct.unpack("<q", struct.pack("<d", float(value)))[0]


def options_vector(game) -> list[int]:
    """The rule options in :data:`OPTIONS` order as int64 values (choices as their index)."""
    options = game.options
    return [
        int(bool(options["characters"])),
        int(bool(options["starting_discard"])),
        VARIANT_OPTIONS.index(options["variant"]),
        int(bool(options["mermaid_variant"])),
        REWARD_MODES.index(options["reward_mode"]),
        double_bits(options["score_scale"]),
    ]


def _put_list(out: list[int], items) -> None:
    out.append(len(items))
    out.extend(int(c) for c in items)


def pack(state) -> list[int]:
    """The state's fields (``DmdState.fields``) in the order the compiled ``dump`` writes them."""
    out: list[int] = [state.variant, state.phase, state.decider, state.active, state.first_player]
    _put_list(out, state.choices)
    _put_list(out, state.draw_pile)
    _put_list(out, state.discard)
    for coll in state.collections:
        _put_list(out, sorted(c for stack in coll for c in stack))
    _put_list(out, state.removed)
    _put_list(out, state.row)
    _put_list(out, state.hook_protected)
    out.append(len(state.tasks))
    for kind, arg in state.tasks:
        out += [kind, arg]
    _put_list(out, state.offer)
    out += [state.hook_s1, state.plunder_target, state.plunder_remaining]
    for dealt in state.dealt:
        _put_list(out, dealt)
    out += list(state.kept)
    out.append(int(state.revealed))
    out += list(state.holder)
    out.append(state.locker_target)
    for seen in state.known:
        _put_list(out, seen)
    out += [int(e) for e in state.eliminated]
    out += list(state.turns_taken)
    out += list(state.busts)
    _put_list(out, state.turn_cards)
    out += [int(state.turn_busted), state.last_turn_player]
    _put_list(out, state.last_turn_cards)
    out.append(int(state.last_turn_busted))
    _put_list(out, state.winner_seats)
    return [int(v) for v in out]


def unpack(game, values: list[int]) -> dict[str, Any]:
    """The ``fields`` dict of ``DmdState.to_dict()`` from a compiled ``dump``."""
    n = game.num_players
    it = iter(values)

    def one() -> int:
        return int(next(it))

    def many() -> list[int]:
        return [one() for _ in range(one())]

    fields: dict[str, Any] = {}
    for name in ("variant", "phase", "decider", "active", "first_player"):
        fields[name] = one()
    fields["choices"] = many()
    fields["draw_pile"] = many()
    fields["discard"] = many()
    collections = []
    for _ in range(n):
        coll: list[list[int]] = [[] for _ in range(NUM_SUITS)]
        for c in many():
            coll[CARD_SUIT[c]].append(c)
        collections.append(coll)
    fields["collections"] = collections
    fields["removed"] = many()
    fields["row"] = many()
    fields["hook_protected"] = many()
    fields["tasks"] = [[one(), one()] for _ in range(one())]
    fields["offer"] = many()
    fields["hook_s1"] = one()
    fields["plunder_target"] = one()
    fields["plunder_remaining"] = one()
    fields["dealt"] = [many() for _ in range(n)]
    fields["kept"] = [one() for _ in range(n)]
    fields["revealed"] = bool(one())
    fields["holder"] = [one() for _ in range(NUM_ABILITIES)]
    fields["locker_target"] = one()
    fields["known"] = [many() for _ in range(n)]
    fields["eliminated"] = [bool(one()) for _ in range(n)]
    fields["turns_taken"] = [one() for _ in range(n)]
    fields["busts"] = [one() for _ in range(n)]
    fields["turn_cards"] = many()
    fields["turn_busted"] = bool(one())
    fields["last_turn_player"] = one()
    fields["last_turn_cards"] = many()
    fields["last_turn_busted"] = bool(one())
    fields["winner_seats"] = many()
    # the order of DmdState.fields
    from pirate_envs.games.dead_mans_draw.game import DmdState

    return {name: fields[name] for name in DmdState.fields}
