"""Conversions between Tortuga 1667's Python state and its compiled engine (``tor_engine``, native/rules.c).

The compiled engine takes the rule options as int64 values (:data:`OPTIONS`, :func:`options_vector`) and
writes its state as a flat list of int64 values (``dump``, native/convert.c), which :func:`unpack` turns back
into the ``fields`` dict of ``TortugaState.to_dict()`` and :func:`pack` builds from a Python state, in this
order (n = the player count):

- per seat, n values each: ``nation, role, pos, exiled, revealed, hoard, maps, wild_lock, pub_treasure,
  steals_made, pub_maps, votes_initiated, votes_targeting``
- n x n values each, row by row: ``spied, steal_delta, map_delta, yes_by, yes_vs``
- ``galleon, supply, start, active, round, phase, acted, end_reason`` (the index in :data:`END_REASONS`)
- ``deck``: its length, then its cards (bottom first); ``drawn``: 12 counts
- ``vote``: 0 for None, or 1, ``type, initiator, target, ship, ctx`` (0 action, 1 event), ``idx, didx, die``,
  the participants (length, items), ``cards`` (n), ``decl`` (n); its ``order``, ``declarers`` and
  ``revealed`` follow from these (TOR-507, TOR-509) and are rebuilt by :func:`unpack`
- ``last_vote``: 0, or 1, ``type, initiator, target, passed, die``, ``cards`` (n), ``final`` (n)
- ``loot``: 0, or 1, ``captain, dice, successes, left``, the participants (length, items), ``assigned`` (n)
- ``event``: 0, or 1, ``card, target``
- ``log``: its length, then 7 values an entry
- ``ledger``: its length, then 5 values an entry: ``kind, seat, candidates`` (a bit per seat, the seats in
  ascending order), ``victim or receiver`` (-1 where the entry has none), ``amount`` (the gain, -lost or
  moved; 0 where the entry has none)

Booleans travel as 0/1.
"""

from __future__ import annotations

from typing import Any

from pirate_envs.core.rewards import REWARD_MODES
from pirate_envs.games.tortuga.board import NUM_CARD_TYPES

OPTIONS: tuple[str, ...] = (
    "max_rounds",
    "neutral_vote",
    "wild_cooldown",
    "secret_exile",
    "public_steal",
    "armada_depth",
    "draw_replaces_action",
    "reward_mode",
)
NUM_FEATURES = 0  # Tortuga has no action features
NEUTRAL_VOTES = ("two_player", "always", "never")
ARMADA_DEPTHS = ("bottom5", "bottom10", "last")
END_REASONS = ("", "galleon", "armada", "rounds")
CONTEXTS = ("action", "event")
SEAT_LISTS = ("nation", "role", "pos", "exiled", "revealed", "hoard", "maps", "wild_lock")
SEAT_COUNTS = ("pub_treasure", "steals_made", "pub_maps", "votes_initiated", "votes_targeting")
MATRICES = ("spied", "steal_delta", "map_delta", "yes_by", "yes_vs")
BOOL_FIELDS = ("exiled", "revealed", "wild_lock")
# Ledger entries (game.L_GAIN ...): which carry candidates and a victim or receiver.
L_GAIN, L_LOSS, L_STEAL, L_MAP_PUBLIC, L_MAP_GIVE = range(5)


def options_vector(game) -> list[int]:
    """The rule options in :data:`OPTIONS` order as int64 values (choices as their index)."""
    options = game.options
    return [
        int(options["max_rounds"]),
        NEUTRAL_VOTES.index(options["neutral_vote"]),
        int(bool(options["wild_cooldown"])),
        int(bool(options["secret_exile"])),
        int(bool(options["public_steal"])),
        ARMADA_DEPTHS.index(options["armada_depth"]),
        int(bool(options["draw_replaces_action"])),
        REWARD_MODES.index(options["reward_mode"]),
    ]


def _mask(cands: list[int]) -> int:
    """The candidates (seats in ascending order, each once, as the rules list them) as a bit mask."""
    if list(cands) != sorted(set(cands)):
        raise ValueError(f"tortuga native bridge: ledger candidates {cands!r} are not ascending seats")
    return sum(1 << int(c) for c in cands)


def _ledger_values(entry: list) -> list[int]:
    kind = entry[0]
    if kind in (L_GAIN, L_LOSS):
        return [kind, entry[1], 0, -1, entry[2]]
    if kind == L_STEAL:
        return [kind, entry[1], _mask(entry[2]), entry[3], entry[4]]
    if kind == L_MAP_PUBLIC:
        return [kind, entry[1], 0, -1, 0]
    return [kind, entry[1], _mask(entry[2]), entry[3], 0]


def pack(state) -> list[int]:
    """The state's fields (``TortugaState.fields``) in the order the compiled ``dump`` writes them."""
    out: list[int] = []
    for name in SEAT_LISTS + SEAT_COUNTS:
        out += [int(v) for v in getattr(state, name)]
    for name in MATRICES:
        out += [int(v) for row in getattr(state, name) for v in row]
    out += [state.galleon, state.supply, state.start, state.active, state.round, state.phase, int(state.acted)]
    out.append(END_REASONS.index(state.end_reason))
    out += [len(state.deck), *state.deck, *state.drawn]
    vote = state.vote
    if vote is None:
        out.append(0)
    else:
        out += [1, vote["type"], vote["initiator"], vote["target"], vote["ship"], CONTEXTS.index(vote["ctx"])]
        out += [vote["idx"], vote["didx"], vote["die"], len(vote["participants"]), *vote["participants"]]
        out += [*vote["cards"], *vote["decl"]]
    last = state.last_vote
    if last is None:
        out.append(0)
    else:
        out += [1, last["type"], last["initiator"], last["target"], int(last["passed"]), last["die"]]
        out += [*last["cards"], *last["final"]]
    loot = state.loot
    if loot is None:
        out.append(0)
    else:
        out += [1, loot["captain"], loot["dice"], loot["successes"], loot["left"]]
        out += [len(loot["participants"]), *loot["participants"], *loot["assigned"]]
    event = state.event
    out += [0] if event is None else [1, event["card"], event["target"]]
    out.append(len(state.log))
    for item in state.log:
        out += item
    out.append(len(state.ledger))
    for entry in state.ledger:
        out += _ledger_values(entry)
    return [int(v) for v in out]


def unpack(game, values: list[int]) -> dict[str, Any]:
    """The ``fields`` dict of ``TortugaState.to_dict()`` from a compiled ``dump``."""
    n = game.num_players
    it = iter(values)

    def one() -> int:
        return int(next(it))

    def row() -> list[int]:
        return [one() for _ in range(n)]

    def many() -> list[int]:
        return [one() for _ in range(one())]

    fields: dict[str, Any] = {}
    for name in SEAT_LISTS + SEAT_COUNTS:
        fields[name] = [bool(v) for v in row()] if name in BOOL_FIELDS else row()
    for name in MATRICES:
        fields[name] = [[bool(v) for v in row()] if name == "spied" else row() for _ in range(n)]
    for name in ("galleon", "supply", "start", "active", "round", "phase"):
        fields[name] = one()
    fields["acted"] = bool(one())
    fields["end_reason"] = END_REASONS[one()]
    fields["deck"] = many()
    fields["drawn"] = [one() for _ in range(NUM_CARD_TYPES)]
    fields["vote"] = _unpack_vote(fields["phase"], n, one, row, many) if one() else None
    if one():
        kind, initiator, target, passed, die = (one() for _ in range(5))
        fields["last_vote"] = {
            "type": kind,
            "initiator": initiator,
            "target": target,
            "cards": row(),
            "final": row(),
            "passed": bool(passed),
            "die": die,
        }
    else:
        fields["last_vote"] = None
    if one():
        captain, dice, successes, left = (one() for _ in range(4))
        participants = many()
        fields["loot"] = {
            "captain": captain,
            "participants": participants,
            "left": left,
            "dice": dice,
            "successes": successes,
            "assigned": row(),
        }
    else:
        fields["loot"] = None
    fields["event"] = {"card": one(), "target": one()} if one() else None
    fields["log"] = [[one() for _ in range(7)] for _ in range(one())]
    fields["ledger"] = [_unpack_entry(*(one() for _ in range(5))) for _ in range(one())]
    from pirate_envs.games.tortuga.game import TortugaState  # the order of TortugaState.fields

    return {name: fields[name] for name in TortugaState.fields}


def _unpack_vote(phase: int, n: int, one, row, many) -> dict[str, Any]:
    from pirate_envs.games.tortuga.game import DECLARE

    kind, initiator, target, ship, ctx, idx, didx, die = (one() for _ in range(8))
    participants = many()
    cards = row()
    decl = row()
    order = [(initiator + k) % n for k in range(n)]
    revealed = phase == DECLARE
    return {
        "type": kind,
        "initiator": initiator,
        "target": target,
        "ship": ship,
        "ctx": CONTEXTS[ctx],
        "participants": participants,
        "order": order,
        "idx": idx,
        "cards": cards,
        "revealed": revealed,
        "declarers": [p for p in order if cards[p] == 2] if revealed else [],
        "didx": didx,
        "decl": decl,
        "die": die,
    }


def _unpack_entry(kind: int, seat: int, cands: int, other: int, amount: int) -> list:
    if kind in (L_GAIN, L_LOSS):
        return [kind, seat, amount]
    seats = [p for p in range(cands.bit_length()) if cands >> p & 1]
    if kind == L_STEAL:
        return [kind, seat, seats, other, amount]
    if kind == L_MAP_PUBLIC:
        return [kind, seat]
    return [kind, seat, seats, other]
