"""The drawn table of Pirates of the Spanish Main for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): every seat's pirates are face down except the
viewer's own and the revealed ones (PSM-515, PSM-701 at the end); in the hand variant (PSM-803)
only the viewer's hand is face up; the pending accusation is shown to the acting seat alone; the
ship line, fame, damage, the adventure row, the move row and discard, the claimed fame and the
public turn records (PSM-560) are open to all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import Card, TableView, TableWording, Zone, seat_name, seat_name_at
from pirate_envs.games.potsm import actions as act
from pirate_envs.games.potsm.cards import (
    ADVENTURE_NAMES,
    ADVENTURE_TEXT,
    MOVE_NAMES,
    NATION_NAMES,
    NATION_OF_SHIP,
    PIRATE_NAMES,
    SHIP_NAMES,
)
from pirate_envs.games.potsm.render import describe_turn, owner_known

if TYPE_CHECKING:
    from pirate_envs.games.potsm.game import PotsmState


MOVE_TEXT = (  # PSM-630..637
    "Move one ship 6 places towards the front of the line.",
    "Move one ship 6 places towards the back of the line.",
    "Move two neighbouring ships together 3 places towards the front.",
    "Move two neighbouring ships together 3 places towards the back.",
    "Every English ship moves 2 places forward (PSM-505).",
    "Every Spanish ship moves 2 places forward (PSM-505).",
    "Every Dutch ship moves 2 places forward (PSM-505).",
    "Every English ship moves 2 places back (PSM-506).",
    "Every Spanish ship moves 2 places back (PSM-506).",
    "Every Dutch ship moves 2 places back (PSM-506).",
    "Damage one undamaged ship (damaged ships win no fame from most adventures).",
    "The current adventure is not resolved this turn.",
)
GLOSSARY = (
    ("fame", "points on a ship; the ship's secret pirate owner scores them at the end"),
    ("claimed", "fame taken by correct accusations (half a ship's fame, rounded up)"),
    ("position", "1 is the front of the line, 9 the back"),
    ("face-down pirate", "a pirate card whose owner is still secret"),
)


def _owner_text(state: PotsmState, ship: int, viewer: int | None) -> str:
    case, seats = owner_known(state, ship, viewer)
    names = ", ".join(seat_name(t) for t in seats)
    if case == "revealed":
        return f"pirate {PIRATE_NAMES[ship]} revealed: {names or 'unowned'}"
    if case == "yours":
        return f"your pirate {PIRATE_NAMES[ship]} (secret)"
    if case == "nobody":
        return "nobody owns this ship's pirate (public)"
    return f"owner secret; known not to be {names}" if seats else "owner secret"


def _ship_card(state: PotsmState, position: int, viewer: int | None) -> Card:
    ship = state.line[position]
    nation = NATION_NAMES[NATION_OF_SHIP[ship]]
    damaged = bool(state.damaged[ship])
    owner = state.pirate_owner[ship]
    label = f"{position + 1}. {SHIP_NAMES[ship]} fame {state.fame[ship]}" + (" DAMAGED" if damaged else "")
    if state.revealed[ship]:
        label += f" ({seat_name(owner)})" if owner >= 0 else " (unowned)"
    detail = (
        f"{nation} ship {SHIP_NAMES[ship]} at position {position + 1}, fame {state.fame[ship]}, "
        f"{'damaged' if damaged else 'undamaged'}; {_owner_text(state, ship, viewer)}."
    )
    mine = viewer is not None and owner == viewer
    return Card(label=label, kind=nation, detail=detail, highlight=mine)


def _move_cards(counts: list[int] | bytearray) -> tuple[Card, ...]:
    """One card per move card counted in ``counts`` (a count per move-card type)."""
    return tuple(
        Card(label=MOVE_NAMES[t], kind="move card", detail=MOVE_TEXT[t])
        for t, count in enumerate(counts)
        for _ in range(count)
    )


def _pirate_zone(state: PotsmState, seat: int, viewer: int | None) -> Zone:
    shown = state.game_over or viewer == seat
    cards = []
    for ship in range(9):
        if state.pirate_owner[ship] != seat:
            continue
        if shown or state.revealed[ship]:
            detail = f"{PIRATE_NAMES[ship]} owns the {NATION_NAMES[NATION_OF_SHIP[ship]]} ship {SHIP_NAMES[ship]}"
            cards.append(Card(label=PIRATE_NAMES[ship], kind="pirate", detail=detail))
        else:
            cards.append(Card.face_down("pirate"))
    hidden_first = sorted(cards, key=lambda c: not c.hidden) if not shown else cards
    note = f"claimed fame {state.claimed[seat]}"
    if state.game.move_cards_in_hand:
        note += f", {sum(state.hands[seat])} move cards in hand"
    return Zone(title=f"{seat_name(seat)}'s pirates", cards=tuple(hidden_first), owner=seat, note=note)


def _standing(state: PotsmState, seat: int, viewer: int | None) -> str:
    fame = state.fame
    public = state.claimed[seat] + sum(fame[j] for j in range(9) if state.revealed[j] and state.pirate_owner[j] == seat)
    if state.game_over or seat == viewer:
        return f"{state.scores()[seat]:g} fame"
    return f"{public} fame known (+ secret ships)"


def _label(state: PotsmState, seat: int, action: int) -> tuple[str, str]:
    """A readable label and help text of ``seat``'s ``action`` (ship names, absolute seats)."""
    n = state.game.num_players
    kind, move_type, param = act.decode_action(action, n)
    if kind == act.KIND_MOVE:
        name = MOVE_NAMES[move_type]
        if move_type in (0, 1, 10):
            ship = state.line[param]
            return f"{name} on {SHIP_NAMES[ship]} (position {param + 1})", MOVE_TEXT[move_type]
        if move_type in (2, 3):
            a, b = state.line[param], state.line[param + 1]
            return f"{name} on {SHIP_NAMES[a]} + {SHIP_NAMES[b]} (positions {param + 1}-{param + 2})", MOVE_TEXT[
                move_type
            ]
        return name, MOVE_TEXT[move_type]
    if kind == act.KIND_ACCUSE:
        offset, pirate = param
        return (
            f"Accuse {seat_name_at(seat, offset, n)} of being {PIRATE_NAMES[pirate]} ({SHIP_NAMES[pirate]})",
            "Right: the pirate is revealed and you take half its ship's fame. Wrong: it becomes public "
            "that they are not this pirate (PSM-514..516).",
        )
    if kind == act.KIND_REPAIR:
        return "Repair all ships", "Every damaged ship becomes undamaged (PSM-513)."
    if kind == act.KIND_PASS:
        return "Pass", "Do nothing this turn (PSM-518)."
    if kind == act.KIND_PASS_DISCARD:
        return f"Pass and discard {MOVE_NAMES[param]}", "Throw this move card away and draw a new one (PSM-518)."
    return f"Pay with {MOVE_NAMES[param]}", "Discard this card to pay for your accusation (PSM-803)."


def describe_action(state: PotsmState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` in ``state`` (the state before it).

    Everything is public (the turn records, PSM-560) except an accusation waiting to be paid in the
    hand variant: the observation shows it to the acting seat alone until the turn record publishes it.
    """
    kind, _, _ = act.decode_action(action, state.game.num_players)
    if kind == act.KIND_ACCUSE and state.game.move_cards_in_hand and viewer != seat:
        return f"{seat_name(seat)} makes an accusation (shown once it is paid for)"
    return f"{seat_name(seat)}: {_label(state, seat, action)[0]}"


def _decision(state: PotsmState) -> tuple[str, str]:
    """What the seat to act decides, and its help text."""
    if state.phase_name() == "ACCUSE_DISCARD" and state.pending_accusation:
        target, pirate = state.pending_accusation
        what = f"pay for accusing {seat_name(target)} of being {PIRATE_NAMES[pirate]}"
        return what, f"Discard one of your move cards to {what} (PSM-803)."
    source = "your hand" if state.game.move_cards_in_hand else "the move row"
    return (
        "choose your action",
        f"Play a move card from {source} to move or damage ships, repair every ship, pass (optionally "
        "discarding a move card), or accuse an opponent of owning a pirate. Then the current adventure "
        "resolves on the line (PSM-401).",
    )


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY, scores_title="fame")


def table_view(state: PotsmState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    game = state.game
    n = game.num_players
    zones = [Zone(title="The line (front to back)", cards=tuple(_ship_card(state, p, viewer) for p in range(9)))]
    row = state.adventure_row
    adventures = tuple(
        Card(label=ADVENTURE_NAMES[c], kind="adventure", detail=ADVENTURE_TEXT[c], highlight=(i == 0))
        for i, c in enumerate(row)
    )
    zones.append(
        Zone(
            title="Adventures (current first)",
            cards=adventures,
            note=f"deck {len(state.adventure_deck)}, discarded {sum(state.adventure_discard)}",
        )
    )
    if game.move_cards_in_hand:
        for seat in range(n):
            if seat == viewer:
                cards = _move_cards(state.hands[seat])
            else:
                cards = tuple(Card.face_down("move card") for _ in range(sum(state.hands[seat])))
            zones.append(Zone(title=f"{seat_name(seat)}'s hand", cards=cards, owner=seat))
    else:
        zones.append(Zone(title="Move row", cards=_move_cards(state.move_row)))
    for seat in range(n):
        zones.append(_pirate_zone(state, seat, viewer))
    zones.append(
        Zone(
            title="Move discard",
            cards=_move_cards(state.move_discard),
            note=f"move deck {len(state.move_deck)} cards",
        )
    )
    if state.recent_turns:
        zones.append(
            Zone(
                title="Last turns (newest first)",
                cards=tuple(
                    Card(label=describe_turn(state, record), kind="turn record", detail=describe_turn(state, record))
                    for record in state.recent_turns
                ),
            )
        )
    title = f"{game.display_name} - turn {state.turn_index}, start {seat_name(state.start_seat)}"
    return WORDING.table_view(state, viewer, title, zones)
