"""The drawn table of Pirates of the Spanish Main for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): every seat's pirates are face down except the
viewer's own and the revealed ones (PSM-515, PSM-701 at the end); in the hand variant (PSM-803)
only the viewer's hand is face up; the pending accusation is shown to the acting seat alone; the
ship line, fame, damage, the adventure row, the move row and discard, the claimed fame and the
public turn records (PSM-560) are open to all.
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from pirate_envs.drawing.table import (
    Card,
    TableView,
    TableWording,
    Zone,
    count_of,
    ending_of,
    keyed,
    names_list,
    player_name,
    player_possessive,
    player_verb,
)
from pirate_envs.games.potsm import actions as act
from pirate_envs.games.potsm.cards import (
    ADVENTURE_NAMES,
    ADVENTURE_TEXT,
    FOG,
    MOVE_NAMES,
    NATION_NAMES,
    NATION_OF_SHIP,
    PIRATE_NAMES,
    SABOTAGE,
    SHIP_NAMES,
)
from pirate_envs.games.potsm.render import owner_known

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
MOVE_SHORT = (  # what a move card does, in a few words (the button under a ship or a card)
    "6 places forward",
    "6 places back",
    "3 places forward with the ship behind",
    "3 places back with the ship behind",
    "English ships 2 forward",
    "Spanish ships 2 forward",
    "Dutch ships 2 forward",
    "English ships 2 back",
    "Spanish ships 2 back",
    "Dutch ships 2 back",
    "damage it",
    "skip this adventure",
)
SHIP_MOVES = (0, 1, 10)  # move cards played on one ship (its position)
PAIR_MOVES = (2, 3)  # move cards played on two neighbouring ships (the front one's position)
GLOSSARY = (
    ("fame", "points on a ship; the ship's secret pirate owner scores them at the end"),
    ("claimed fame", "fame taken by right accusations (half a ship's fame, rounded up)"),
    ("position", "1 is the front of the line, 9 the back"),
    ("face-down pirate", "a pirate card whose owner is still secret"),
)
END_REASONS = {"adventures_out": "The adventure deck and row ran out."}
ACCUSE_HELP = (
    "Right: the pirate is revealed and you take half its ship's fame. Wrong: it becomes public "
    "that they are not this pirate (PSM-514..516)."
)


def _ordinal(position: int) -> str:
    """1 -> "1st" (a position in the line, front first)."""
    suffix = "th" if 10 <= position % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(position % 10, "th")
    return f"{position}{suffix}"


def _owner_text(state: PotsmState, ship: int, viewer: int | None) -> str:
    case, seats = owner_known(state, ship, viewer)
    names = names_list([player_name(t) for t in seats])
    if case == "revealed":
        return f"pirate {PIRATE_NAMES[ship]} revealed: {names or 'nobody owns it'}"
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
    label = f"{position + 1}. {SHIP_NAMES[ship]}, {state.fame[ship]} fame" + (", damaged" if damaged else "")
    if state.revealed[ship]:
        label += f" ({player_name(owner)})" if owner >= 0 else " (nobody's)"
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


def _pirate_shown(state: PotsmState, seat: int, viewer: int | None, ship: int) -> bool:
    return state.game_over or viewer == seat or bool(state.revealed[ship])


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
        note += f", {count_of(sum(state.hands[seat]), 'move card')} in hand"
    return Zone(title=f"{player_possessive(seat)} pirates", cards=tuple(hidden_first), owner=seat, note=note)


def _public_fame(state: PotsmState, seat: int) -> int:
    fame = state.fame
    return state.claimed[seat] + sum(fame[j] for j in range(9) if state.revealed[j] and state.pirate_owner[j] == seat)


def _standing(state: PotsmState, seat: int, viewer: int | None) -> str:
    if state.game_over or seat == viewer:
        return f"{state.scores()[seat]:g} fame"
    return f"{_public_fame(state, seat)} fame known (+ secret ships)"


def _accuse_choice(state: PotsmState, seat: int, target: int, pirate: int) -> str:
    """The short button for accusing ``target`` of ``pirate``, with what ``seat`` already knows of it."""
    n = state.game.num_players
    choice = f"Accuse of being {PIRATE_NAMES[pirate]} ({SHIP_NAMES[pirate]})"
    if state.pirate_owner[pirate] == seat:
        return choice + " - your own pirate: surely wrong"
    if state.not_owner[pirate * n + target]:
        return choice + " - known not to be theirs"
    return choice


def _label(state: PotsmState, seat: int, action: int) -> tuple[str, str, str, str]:
    """(label, help, the board key it belongs to, its short name there): ship names, seat names."""
    n = state.game.num_players
    kind, move_type, param = act.decode_action(action, n)
    if kind == act.KIND_MOVE:
        name = MOVE_NAMES[move_type]
        if move_type in SHIP_MOVES:
            ship = state.line[param]
            label = f"{name} on {SHIP_NAMES[ship]} (position {param + 1}): {MOVE_SHORT[move_type]}"
            return label, MOVE_TEXT[move_type], f"ship:{ship}", f"{name} ({MOVE_SHORT[move_type]})"
        if move_type in PAIR_MOVES:
            a, b = state.line[param], state.line[param + 1]
            direction = "forward" if move_type == 2 else "back"
            label = f"{name} on {SHIP_NAMES[a]} and {SHIP_NAMES[b]} (positions {param + 1}-{param + 2})"
            choice = f"{name}: with {SHIP_NAMES[b]}, 3 places {direction}"
            return label, MOVE_TEXT[move_type], f"ship:{a}", choice
        return (
            f"{name}: {MOVE_SHORT[move_type]}",
            MOVE_TEXT[move_type],
            f"move:{move_type}",
            f"Play it: {MOVE_SHORT[move_type]}",
        )
    if kind == act.KIND_ACCUSE:
        offset, pirate = param
        target = (seat + offset) % n
        label = f"Accuse {player_name(target)} of being {PIRATE_NAMES[pirate]} ({SHIP_NAMES[pirate]})"
        return label, ACCUSE_HELP, f"seat:{target}", _accuse_choice(state, seat, target, pirate)
    if kind == act.KIND_REPAIR:
        return "Repair all ships", "Every damaged ship becomes undamaged (PSM-513).", "", "Repair all ships"
    if kind == act.KIND_PASS:
        return "Pass", "Do nothing this turn (PSM-518).", "", "Pass"
    if kind == act.KIND_PASS_DISCARD:
        name = MOVE_NAMES[param]
        help_text = "Throw this move card away and draw a new one (PSM-518)."
        return f"Pass and discard {name}", help_text, f"move:{param}", "Pass and discard it"
    name = MOVE_NAMES[param]
    return f"Pay with {name}", "Discard this card to pay for your accusation (PSM-803).", f"move:{param}", "Pay with it"


def _moved_ships(record: list[int]) -> str:
    moves = record[act.RECORD_SHIPS : act.RECORD_SHIPS + 9]
    parts = [f"{SHIP_NAMES[ship]} {abs(d)} {'forward' if d > 0 else 'back'}" for ship, d in enumerate(moves) if d]
    return names_list(parts) if parts else "no ship moved"


def turn_text(record: list[int]) -> str:
    """One public turn record (PSM-560) in words, with the seats' names."""
    actor = player_name(record[act.RECORD_ACTOR])
    kind = record[act.RECORD_KIND]
    ships = record[act.RECORD_SHIPS : act.RECORD_SHIPS + 9]
    if kind == act.TURN_KIND_REPAIR:
        return f"{actor} repaired every ship"
    if kind == act.TURN_KIND_PASS:
        return f"{actor} passed"
    if kind == act.TURN_KIND_PASS_DISCARD:
        return f"{actor} passed and discarded {MOVE_NAMES[record[act.RECORD_CARD]]}"
    if kind in (act.TURN_KIND_ACCUSE_CORRECT, act.TURN_KIND_ACCUSE_WRONG):
        pirate = ships.index(1)
        result = "right" if kind == act.TURN_KIND_ACCUSE_CORRECT else "wrong"
        paid = record[act.RECORD_CARD]
        cost = f", paying with {MOVE_NAMES[paid]}" if paid >= 0 else ""
        accused = player_name(record[act.RECORD_ACCUSED])
        return f"{actor} accused {accused} of being {PIRATE_NAMES[pirate]} ({result}{cost})"
    name = MOVE_NAMES[kind]
    if kind == SABOTAGE:
        return f"{actor} played {name} on {SHIP_NAMES[ships.index(1)]}"
    if kind == FOG:
        return f"{actor} played {name} (the adventure was skipped)"
    return f"{actor} played {name} ({_moved_ships(record)})"


def describe_action(state: PotsmState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` in ``state`` (the state before it).

    Everything is public (the turn records, PSM-560) except an accusation waiting to be paid in the
    hand variant: the observation shows it to the acting seat alone until the turn record publishes it.
    """
    n = state.game.num_players
    kind, _move_type, param = act.decode_action(action, n)
    who = player_name(seat)
    if kind == act.KIND_ACCUSE:
        if state.game.move_cards_in_hand and viewer != seat:
            return f"{who} made an accusation (shown once it is paid for)"
        offset, pirate = param
        accused = player_name((seat + offset) % n)
        return f"{who} accused {accused} of being {PIRATE_NAMES[pirate]} ({SHIP_NAMES[pirate]})"
    if kind == act.KIND_MOVE:
        return f"{who} played {_label(state, seat, action)[0]}"
    if kind == act.KIND_REPAIR:
        return f"{who} repaired every ship"
    if kind == act.KIND_PASS:
        return f"{who} passed"
    if kind == act.KIND_PASS_DISCARD:
        return f"{who} passed and discarded {MOVE_NAMES[param]}"
    return f"{who} paid with {MOVE_NAMES[param]}"


def _decision(state: PotsmState) -> tuple[str, str]:
    """What the seat to act decides, and its help text."""
    if state.phase_name() == "ACCUSE_DISCARD" and state.pending_accusation:
        target, pirate = state.pending_accusation
        what = f"pay for accusing {player_name(target)} of being {PIRATE_NAMES[pirate]}"
        return what, f"Discard one of your move cards to {what}."
    source = "your hand" if state.game.move_cards_in_hand else "the move row"
    current = ADVENTURE_NAMES[state.adventure_row[0]] if state.adventure_row else "none"
    return (
        f"choose your action (this turn's adventure: {current})",
        f"Play a move card from {source} on a ship, repair every ship, pass (optionally "
        "discarding a move card), or accuse an opponent of owning a pirate. Then the "
        f"current adventure ({current}: {ADVENTURE_TEXT[state.adventure_row[0]] if state.adventure_row else '-'}) "
        "resolves on the line.",
    )


# --- the board (docs/arena-board.md) ----------------------------------------------------------------------


def _move_data(counts: list[int] | bytearray, keys: set[str]) -> list[dict]:
    return [
        keyed({"name": MOVE_NAMES[t], "detail": MOVE_TEXT[t], "effect": MOVE_SHORT[t]}, f"move:{t}", keys)
        for t, count in enumerate(counts)
        for _ in range(count)
    ]


def _board(state: PotsmState, viewer: int | None, keys: set[str]) -> dict:
    game = state.game
    n = game.num_players
    line = []
    for position, ship in enumerate(state.line):
        case, _excluded = owner_known(state, ship, viewer)
        if state.game_over:
            case = "revealed"
        owner = state.pirate_owner[ship] if case in ("revealed", "yours") else None
        entry = {
            "position": position + 1,
            "ship": SHIP_NAMES[ship],
            "nation": NATION_NAMES[NATION_OF_SHIP[ship]],
            "fame": state.fame[ship],
            "damaged": bool(state.damaged[ship]),
            "pirate": PIRATE_NAMES[ship],
            "owner": owner if owner is None or owner >= 0 else None,
            "owner_known": "nobody" if case == "revealed" and (owner is None or owner < 0) else case,
            "not_owners": [t for t in range(n) if state.not_owner[ship * n + t]],
            "mine": viewer is not None and state.pirate_owner[ship] == viewer,
            "detail": _ship_card(state, position, viewer).detail,
        }
        line.append(keyed(entry, f"ship:{ship}", keys))
    pirates = []
    for seat in range(n):
        cards = []
        for ship in range(9):
            if state.pirate_owner[ship] != seat:
                continue
            if _pirate_shown(state, seat, viewer, ship):
                cards.append(
                    {"name": PIRATE_NAMES[ship], "ship": SHIP_NAMES[ship], "revealed": bool(state.revealed[ship])}
                )
            else:
                cards.append({"hidden": True, "back": "pirate"})
        cards.sort(key=lambda c: not c.get("hidden", False))
        entry = {"seat": seat, "claimed": state.claimed[seat], "cards": cards, "known_fame": _public_fame(state, seat)}
        pirates.append(keyed(entry, f"seat:{seat}", keys))
    hands = []
    if game.move_cards_in_hand:
        for seat in range(n):
            cards = _move_data(state.hands[seat], keys) if seat == viewer else []
            hands.append({"seat": seat, "count": sum(state.hands[seat]), "cards": cards})
    adventures = [
        {"name": ADVENTURE_NAMES[c], "detail": ADVENTURE_TEXT[c], "current": i == 0}
        for i, c in enumerate(state.adventure_row)
    ]
    return {
        "kind": "potsm",
        "turn": state.turn_index,
        "start_seat": state.start_seat,
        "line": line,
        "adventures": adventures,
        "adventure_deck": len(state.adventure_deck),
        "adventures_discarded": sum(state.adventure_discard),
        "moves": {
            "row": [] if game.move_cards_in_hand else _move_data(state.move_row, keys),
            "hands": hands,
            "discard": _move_data(state.move_discard, set()),
            "deck": len(state.move_deck),
        },
        "pirates": pirates,
        "record": [turn_text(record) for record in state.recent_turns],
    }


# --- the end (Section 7) ----------------------------------------------------------------------------------


def _breakdown(state: PotsmState, seat: int) -> list[tuple[str, float]]:
    items: list[tuple[str, float]] = []
    for ship in range(9):
        if state.pirate_owner[ship] == seat:
            items.append((f"{PIRATE_NAMES[ship]}: fame of {SHIP_NAMES[ship]}", state.fame[ship]))
    if state.claimed[seat]:
        items.append(("fame claimed by right accusations", state.claimed[seat]))
    return items


def _winner_note(state: PotsmState, winner: int) -> str:
    """Why the winner won: the most fame, or the tie-break of PSM-703."""
    scores = state.scores()
    if all(scores[winner] > scores[seat] for seat in range(state.game.num_players) if seat != winner):
        return "the most fame"
    return "tied on fame; won the tie-break (more undamaged ships, then the frontmost ship)"


def _ending(state: PotsmState) -> dict:
    if not state.is_terminal():
        return {}
    winners = set(state.winners())
    note = _winner_note(state, next(iter(winners))) if winners and not state.is_truncated() else ""

    def verdict(seat: int) -> tuple[str, str] | None:
        return ("won", note) if seat in winners else None

    headline = ""
    if not state.is_truncated() and winners:
        (w,) = winners
        headline = f"{player_name(w)} {player_verb(w, 'wins')} with {state.scores()[w]:g} fame ({note})."
    return ending_of(
        state,
        reason="adventures_out",
        why=END_REASONS["adventures_out"],
        score_name="fame",
        breakdown=lambda seat: _breakdown(state, seat),
        verdict=verdict,
        headline=headline,
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
            note=f"{len(state.adventure_deck)} in the deck, {sum(state.adventure_discard)} discarded",
        )
    )
    if game.move_cards_in_hand:
        for seat in range(n):
            if seat == viewer:
                cards = _move_cards(state.hands[seat])
            else:
                cards = tuple(Card.face_down("move card") for _ in range(sum(state.hands[seat])))
            zones.append(Zone(title=f"{player_possessive(seat)} hand", cards=cards, owner=seat))
    else:
        zones.append(Zone(title="Move row", cards=_move_cards(state.move_row)))
    for seat in range(n):
        zones.append(_pirate_zone(state, seat, viewer))
    zones.append(
        Zone(
            title="Move discard",
            cards=_move_cards(state.move_discard),
            note=f"{count_of(len(state.move_deck), 'move card')} in the deck",
        )
    )
    if state.recent_turns:
        zones.append(
            Zone(
                title="Last turns (newest first)",
                cards=tuple(
                    Card(label=turn_text(record), kind="turn record", detail=turn_text(record))
                    for record in state.recent_turns
                ),
            )
        )
    title = f"{game.display_name} - turn {state.turn_index + 1}, started by {player_name(state.start_seat)}"
    board = partial(_board, state, viewer)
    return WORDING.table_view(state, viewer, title, zones, board=board, ending=_ending(state))
