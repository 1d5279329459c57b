"""Madame Ching's compiled engine (``native/``, ``mch_engine``) and the Python state: options, state fields as ints.

* :data:`OPTIONS` and :func:`options_vector`: the rule options in the order of ``NeConfig.options`` (the C
  ``OPT_*`` of ``native/mch.h``); ``reward_mode`` as its index in the option's choices.
* :func:`pack` and :func:`unpack`: ``MadameChingState.fields`` as the flat int64 values the C ``mch_dump``
  writes and ``mch_load`` reads, and back (``unpack`` rebuilds the ``fields`` of ``to_dict()`` exactly). In
  field order: a list is its length then its items, a list of pairs its length then the pairs, ``step`` its
  index in :data:`STEPS`, ``move_return`` 0 (``""``) or 1 (``"night"``), booleans 0 or 1.
* :data:`NUM_FEATURES`: the game has no action features.
"""

from __future__ import annotations

from typing import Any

from pirate_envs.core.rewards import REWARD_MODES

OPTIONS: tuple[str, ...] = (
    "two_player_dual_boats",
    "team_mode",
    "elite_counts_for_china_pearl",
    "round_limit",
    "auto_resolve_forced",
    "reward_mode",
)
NUM_FEATURES = 0

# MadameChingState.step values, in the order of the C enum (ST_*, native/mch.h).
STEPS: tuple[str, ...] = (
    "select",
    "next_turn",
    "place",
    "move",
    "end_mission",
    "end_skills",
    "end_finish",
    "night",
    "take",
    "carto",
    "team_return",
    "team_give",
    "new_round",
    "over",
    "action",
    "thief_target",
    "thief_gem",
    "spy_target",
    "salvage",
    "siren_target",
    "mc_skill",
    "combat_target",
    "combat_give",
)
_STEP_INDEX = {name: i for i, name in enumerate(STEPS)}
MOVE_RETURNS = ("", "night")


def options_vector(game: Any) -> list[int]:
    """The game's rule options as ints in :data:`OPTIONS` order."""
    options = game.options
    out = []
    for name in OPTIONS:
        value = options[name]
        out.append(REWARD_MODES.index(value) if name == "reward_mode" else int(value))
    return out


def _num_boats(num_players: int) -> int:
    return 4 if num_players == 2 else num_players


def pack(state: Any) -> list[int]:
    """The state's fields as the flat ints of the C ``mch_dump`` (module docstring)."""
    n = state.game.num_players
    out: list[int] = [state.round, int(state.end_triggered), int(state.over)]

    def listed(items: list[int]) -> None:
        out.append(len(items))
        out.extend(items)

    for name in ("nav_deck", "nav_discard", "enc_deck", "enc_discard"):
        listed(getattr(state, name))
    for hand in state.hands:
        listed(hand)
    for held in state.enc_hands:
        out.extend(held)
    out.extend(state.picks)
    out.extend(state.shown_picks)
    out.append(int(state.revealed))
    listed(state.order)
    out.append(state.turn_index)
    out.extend(int(x) for x in state.acted)
    for expedition in state.expeditions:
        listed(expedition)
    for position in state.positions:
        out.extend(position)
    for steps in state.history:
        out.append(len(steps))
        for pair in steps:
            out.extend(pair)
    out.extend(state.display)
    listed(state.board)
    listed(state.set_aside)
    for tiles in state.taken_tiles:
        listed(tiles)
    for held in state.tokens:
        out.extend(held)
    out.extend(state.supply)
    for held in state.skills:
        out.extend(held)
    out.extend(state.stacks)
    out += [state.pearl_owner, state.hk_owner]
    for row in state.known:
        for cards in row:
            listed(cards)
    out += [state.phase, _STEP_INDEX[state.step], state.select_seat, state.select_boat, state.active_boat]
    out += [state.pending_card, MOVE_RETURNS.index(state.move_return), state.end_gains]
    out.extend(state.claim_pool)
    listed(state.gift_queue)
    out += [int(state.enc_played), state.pending_enc, state.pending_target, state.combat_card]
    out.extend(state.owes)
    out.append(int(state.give_open))
    for pair in state.last_action:
        out.extend(pair)
    assert len(state.owes) == n
    return out


def unpack(game: Any, values: list[int]) -> dict[str, Any]:
    """The ``fields`` dict of ``to_dict()`` from the flat ints of :func:`pack` (or the C ``mch_dump``)."""
    n = game.num_players
    nb = _num_boats(n)
    it = iter(values)

    def one() -> int:
        return int(next(it))

    def many(count: int) -> list[int]:
        return [one() for _ in range(count)]

    def listed() -> list[int]:
        return many(one())

    def pairs() -> list[list[int]]:
        return [many(2) for _ in range(one())]

    f: dict[str, Any] = {}
    f["round"] = one()
    f["end_triggered"] = bool(one())
    f["over"] = bool(one())
    for name in ("nav_deck", "nav_discard", "enc_deck", "enc_discard"):
        f[name] = listed()
    f["hands"] = [listed() for _ in range(n)]
    f["enc_hands"] = [many(10) for _ in range(n)]
    f["picks"] = many(nb)
    f["shown_picks"] = many(nb)
    f["revealed"] = bool(one())
    f["order"] = listed()
    f["turn_index"] = one()
    f["acted"] = [bool(x) for x in many(nb)]
    f["expeditions"] = [listed() for _ in range(nb)]
    f["positions"] = [many(2) for _ in range(nb)]
    f["history"] = [pairs() for _ in range(nb)]
    f["display"] = many(4)
    f["board"] = listed()
    f["set_aside"] = listed()
    f["taken_tiles"] = [listed() for _ in range(n)]
    f["tokens"] = [many(4) for _ in range(n)]
    f["supply"] = many(4)
    f["skills"] = [many(10) for _ in range(n)]
    f["stacks"] = many(5)
    f["pearl_owner"] = one()
    f["hk_owner"] = one()
    f["known"] = [[listed() for _ in range(n)] for _ in range(n)]
    f["phase"] = one()
    f["step"] = STEPS[one()]
    f["select_seat"] = one()
    f["select_boat"] = one()
    f["active_boat"] = one()
    f["pending_card"] = one()
    f["move_return"] = MOVE_RETURNS[one()]
    f["end_gains"] = one()
    f["claim_pool"] = many(4)
    f["gift_queue"] = listed()
    f["enc_played"] = bool(one())
    f["pending_enc"] = one()
    f["pending_target"] = one()
    f["combat_card"] = one()
    f["owes"] = many(n)
    f["give_open"] = bool(one())
    f["last_action"] = [many(2) for _ in range(n)]
    if next(it, None) is not None:
        raise ValueError("madame_ching unpack: more values than the state holds")
    return f
