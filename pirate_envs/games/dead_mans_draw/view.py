"""The drawn table of Dead Man's Draw for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): the row, the collections, the discard pile, the
offers of Map and Davy Jones' Locker, the variant card and the live scores are public; the draw
pile is face down (the viewer sees its own Oracle/Mystic peeks among the top three, DMD-903); a
seat's dealt ability cards are seen by that seat alone, and the kept abilities of the others are
face down until the reveal (DMD-304).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import Card, TableView, TableWording, Zone, seat_name, seat_name_at
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.cards import (
    ABILITY_NAMES,
    CARD_SUIT,
    MARKER,
    NUM_CARDS,
    NUM_SUITS,
    SUIT_NAMES,
    VARIANTS,
    card_name,
)

if TYPE_CHECKING:
    from pirate_envs.games.dead_mans_draw.game import DmdState

SUIT_TEXT = (  # DMD-601..610
    "Anchor: if you bust, the cards left of it in the row are safe.",
    "Cannon: discard the top card of one suit of an opponent.",
    "Chest: stop with a Chest and a Key in the row to take as many bonus cards from the discard pile.",
    "Key: stop with a Key and a Chest in the row to take as many bonus cards from the discard pile.",
    "Hook: take the top card of one of your suits back into the row (its ability fires again).",
    "Kraken: you must draw two more cards.",
    "Map: pick one of three cards from the discard pile into the row.",
    "Mermaid: no ability, but worth up to 9.",
    "Oracle: look at the top card of the draw pile.",
    "Sword: steal the top card of an opponent's suit you do not have into the row.",
)
ABILITY_TEXT = (  # DMD-611..628
    "Master Gunner: your Cannon discards the whole stack.",
    "Scavenger: your Cannon puts the card into your collection.",
    "Fisherman: a Kraken entering your row goes straight to your collection.",
    "Kraken King: other players' Krakens make them draw four.",
    "Davy Jones' Locker: when the designated player busts you may take their lost cards (your only way to gain).",
    "Safe Harbor: your Anchor also protects itself and the next two cards.",
    "Miser: your Hook hooks twice (two different suits).",
    "Captain Hook: your Hooks and the cards they bring are safe when you bust.",
    "Plunderer: your Key+Chest bonus is taken from one opponent's collection.",
    "Bounty Hunter: your Key+Chest bonus is twice as many discard cards.",
    "Misfire: your Map shows the whole discard pile.",
    "Navigator: after another player's Cannon, they must also discard one of their own top cards.",
    "Parry: other players' Swords can take only a Kraken from you.",
    "Swordsman: your Sword may take a suit you already hold.",
    "Mystic: your Oracle shows the top three cards.",
    "Rake: a Mermaid you draw goes straight to your collection.",
    "Golden Mermaid: +5 at the end if you hold a Mermaid.",
    "Siren: (mermaid variant) a Siren ability of the mermaid rules.",
)
VARIANT_TEXT = {
    "none": "No variant card.",
    "grand_slam": "Grand Slam: -5 points per suit you do not hold (DMD-806).",
    "sudden_death": "Sudden Death: the first player to reach 50 points wins at once (DMD-805).",
    "thieves_island": "Thieves' Island: a bust's lost cards go to your right-hand neighbour (DMD-807).",
    "uncharted_waters": "Uncharted Waters: a repeated value busts, not a repeated suit (DMD-808).",
    "piri_reis": "Piri Reis' Treasure: every card counts, not only the top of each suit (DMD-701).",
    "undertow": "Undertow: a player above 60 points is eliminated (DMD-809).",
}
PHASE_HELP = {
    act.ABILITY_CHOICE: ("keep one of your two ability cards", "Keep one ability for the whole game (DMD-304)."),
    act.LOCKER_TARGET: (
        "designate the Locker's player",
        "Davy Jones' Locker: choose the opponent whose busts you may take.",
    ),
    act.DRAW_OR_STOP: (
        "draw another card or stop",
        "Draw: flip the next card into the row (a suit already in the row busts and you lose the row). "
        "Stop: bank the row into your collection.",
    ),
    act.CANNON_TARGET: ("aim the Cannon", "Choose an opponent's suit: its top card is discarded."),
    act.NAVIGATOR_SELF: (
        "Navigator: discard one of your own top cards",
        "Choose one of your suits to lose its top card.",
    ),
    act.SWORD_TARGET: ("aim the Sword", "Choose an opponent's suit you do not hold: its top card comes to your row."),
    act.HOOK_SUIT: ("use the Hook", "Choose one of your suits: its top card comes back into the row."),
    act.MAP_PICK: ("pick a card from the Map", "One of the offered discard cards comes into your row."),
    act.MERMAID_PICK: ("Mermaid: pick a card", "Pick a card left of the Mermaid (mermaid variant, DMD-810)."),
    act.RAKE_PICK: ("Rake: pick a card of the row", "Move one card of the row into your collection (DMD-811)."),
    act.PLUNDER_PICK: ("plunder", "Take the top card of an opponent's suit, once per bonus card (DMD-620)."),
    act.LOCKER_ACCEPT: (
        "accept the Locker's cards?",
        "Take the busted cards on offer into your collection, or decline.",
    ),
}
GLOSSARY = (
    ("S", "live score: the top card of each suit you hold, added up"),
    ("bust", "a second card of a suit already in the row: the row is lost"),
    ("row", "the cards drawn this turn, banked when you stop"),
)


def _card(card: int, highlight: bool = False) -> Card:
    if card == MARKER:
        return Card(label="anchor marker", kind="marker", detail="Rake's marker: protects like an Anchor (DMD-502).")
    suit = CARD_SUIT[card]
    return Card(label=card_name(card), kind=SUIT_NAMES[suit], detail=SUIT_TEXT[suit], highlight=highlight)


def _ability(ability: int, note: str = "") -> Card:
    return Card(label=ABILITY_NAMES[ability] + note, kind="ability", detail=ABILITY_TEXT[ability])


def _label(state: DmdState, actor: int, action: int) -> tuple[str, str]:
    n = state.game.num_players
    if action == act.STOP:
        return "Stop and bank the row", PHASE_HELP[act.DRAW_OR_STOP][1]
    if action == act.DRAW:
        return "Draw a card", PHASE_HELP[act.DRAW_OR_STOP][1]
    if act.OWN_SUIT_BASE <= action < act.CARD_BASE:
        suit = action - act.OWN_SUIT_BASE
        return f"Your {SUIT_NAMES[suit]} stack", SUIT_TEXT[suit]
    if act.CARD_BASE <= action < act.CARD_BASE + NUM_CARDS:
        card = action - act.CARD_BASE
        return f"Take {card_name(card)}", SUIT_TEXT[CARD_SUIT[card]]
    if act.ABILITY_BASE <= action < act.ACCEPT:
        ability = action - act.ABILITY_BASE
        return f"Keep {ABILITY_NAMES[ability]}", ABILITY_TEXT[ability]
    if action == act.ACCEPT:
        return "Accept the Locker's cards", PHASE_HELP[act.LOCKER_ACCEPT][1]
    if action == act.DECLINE:
        return "Decline the Locker's cards", PHASE_HELP[act.LOCKER_ACCEPT][1]
    if act.LOCKER_TARGET_BASE < action < act.target_base(n):
        designated = seat_name_at(actor, action - act.LOCKER_TARGET_BASE, n)
        return f"Designate {designated}", PHASE_HELP[act.LOCKER_TARGET][1]
    k, suit = divmod(action - act.target_base(n), NUM_SUITS)
    return f"{seat_name_at(actor, k + 1, n)}'s {SUIT_NAMES[suit]} stack", SUIT_TEXT[suit]


def describe_action(state: DmdState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` (``state`` is the state before it): the
    ability a seat keeps is secret until the reveal (DMD-304); everything else is played in the open."""
    if act.ABILITY_BASE <= action < act.ACCEPT and viewer != seat:
        return f"{seat_name(seat)} kept one of their ability cards (secret until the reveal)"
    if action in (act.DRAW, act.STOP, act.ACCEPT, act.DECLINE) or act.ABILITY_BASE <= action < act.ACCEPT:
        return f"{seat_name(seat)}: {_label(state, seat, action)[0]}"
    label = _label(state, seat, action)[0]
    if act.OWN_SUIT_BASE <= action < act.CARD_BASE and viewer != seat:
        label = "their own " + label.removeprefix("Your ")
    return f"{seat_name(seat)} ({PHASE_HELP[state.phase][0]}): {label}"


def _decision(state: DmdState) -> tuple[str, str]:
    return PHASE_HELP[state.phase]


def _collection_zone(state: DmdState, seat: int, viewer: int | None) -> Zone:
    game = state.game
    cards = []
    for suit in range(NUM_SUITS):
        stack = state.collections[seat][suit]
        if stack:
            top = stack[-1]
            under = f" (+{len(stack) - 1})" if len(stack) > 1 else ""
            detail = f"{SUIT_NAMES[suit]} stack: " + ", ".join(card_name(c) for c in stack) + ". " + SUIT_TEXT[suit]
            cards.append(Card(label=card_name(top) + under, kind=SUIT_NAMES[suit], detail=detail))
    if game.characters:
        kept = state.kept[seat]
        if state.revealed and kept >= 0:
            cards.append(_ability(kept))
        elif viewer == seat and kept >= 0:
            cards.append(_ability(kept, " (secret)"))
        elif not state.revealed:
            cards.append(Card.face_down("ability"))
    marks = [f"S={state.live_score(seat)}"]
    if state.eliminated[seat]:
        marks.append("ELIMINATED")
    if state.locker_target == seat:
        marks.append("the Locker's target")
    if seat == state.active and state.phase != act.GAME_OVER:
        marks.append("playing")
    return Zone(title=f"{seat_name(seat)}'s collection", cards=tuple(cards), owner=seat, note=", ".join(marks))


def _standing(state: DmdState, seat: int, viewer: int | None) -> str:
    ability = ""
    kept = state.kept[seat]
    if kept >= 0 and (state.revealed or viewer == seat):
        ability = f" [{ABILITY_NAMES[kept]}]"
    out = " ELIMINATED" if state.eliminated[seat] else ""
    return f"S={state.live_score(seat)}{ability}{out}"


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY)


def table_view(state: DmdState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    game = state.game
    n = game.num_players
    row = state.row
    zones = [
        Zone(
            title="The row (this turn's cards)",
            cards=tuple(_card(c, highlight=(i == len(row) - 1)) for i, c in enumerate(row)),
            note=", ".join(card_name(c) + " is hook-safe" for c in state.hook_protected if c in row),
        )
    ]
    if state.phase in (act.MAP_PICK, act.LOCKER_ACCEPT) and state.offer:
        title = "Map offers" if state.phase == act.MAP_PICK else "Locker offers"
        zones.append(Zone(title=title, cards=tuple(_card(c) for c in sorted(state.offer))))
    elif state.phase in (act.MERMAID_PICK, act.RAKE_PICK):
        picks = sorted(a - act.CARD_BASE for a in state.choices)
        zones.append(Zone(title="Cards to pick from", cards=tuple(_card(c) for c in picks)))
    for seat in range(n):
        zones.append(_collection_zone(state, seat, viewer))
    pile = state.draw_pile
    peeks = []
    if viewer is not None:
        known = state.known[viewer]
        for depth in range(min(3, len(pile))):
            card = pile[-1 - depth]
            if card in known:
                peek = _card(card)
                peeks.append(
                    Card(label=f"{depth + 1}: {peek.label}", kind=peek.kind, detail="You peeked at it. " + peek.detail)
                )
    pending = sum(arg for kind, arg in state.tasks if kind == 0)
    zones.append(
        Zone(
            title="Draw pile",
            cards=(*peeks, Card.face_down("deck")) if pile else tuple(peeks),
            note=f"{len(pile)} cards" + (f", {pending} forced draws pending" if pending else ""),
        )
    )
    zones.append(
        Zone(
            title="Discard pile",
            cards=tuple(_card(c) for c in sorted(state.discard)),
            note=f"{len(state.discard)} cards",
        )
    )
    if viewer is not None and state.dealt[viewer]:
        zones.append(
            Zone(
                title="Your dealt abilities",
                cards=tuple(_ability(a) for a in state.dealt[viewer]),
                owner=viewer,
                note="seen by you alone",
            )
        )
    variant = VARIANTS[state.variant]
    zones.append(
        Zone(
            title="Rules in play",
            cards=(Card(label=variant.replace("_", " ").title(), kind="variant", detail=VARIANT_TEXT[variant]),),
            note="mermaid variant" if game.mermaid_variant else "",
        )
    )
    if state.last_turn_player >= 0:
        how = "busted" if state.last_turn_busted else "stopped"
        zones.append(
            Zone(
                title=f"Last turn: {seat_name(state.last_turn_player)} {how}",
                cards=tuple(_card(c) for c in state.last_turn_cards),
            )
        )
    title = "Dead Man's Draw" if state.phase == act.GAME_OVER else f"Dead Man's Draw - {seat_name(state.active)}'s turn"
    return WORDING.table_view(state, viewer, title, zones)
