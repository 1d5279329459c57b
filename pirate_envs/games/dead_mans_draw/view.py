"""The drawn table of Dead Man's Draw for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): the row, the collections, the discard pile, the
offers of Map and Davy Jones' Locker, the variant card and the live scores are public; the draw
pile is face down (the viewer sees its own Oracle/Mystic peeks among the top three, DMD-903); a
seat's dealt ability cards are seen by that seat alone, and the kept abilities of the others are
face down until the reveal (DMD-304).
"""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from pirate_envs.drawing.table import (
    Card,
    TableView,
    TableWording,
    Zone,
    ending_of,
    keyed,
    player_name,
    player_possessive,
    player_their,
    whose_turn,
)
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.cards import (
    ABILITY_NAMES,
    CARD_SUIT,
    CARD_VALUE,
    MARKER,
    NUM_CARDS,
    NUM_SUITS,
    SUDDEN_DEATH_TARGET,
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
    act.ABILITY_CHOICE: ("keep one of your two ability cards", "Keep one ability for the whole game."),
    act.LOCKER_TARGET: (
        "choose the player for Davy Jones' Locker",
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
    act.MERMAID_PICK: ("Mermaid: pick a card", "Pick a card left of the Mermaid (mermaid variant)."),
    act.RAKE_PICK: ("Rake: pick a card of the row", "Move one card of the row into your collection."),
    act.PLUNDER_PICK: ("plunder", "Take the top card of an opponent's suit, once per bonus card."),
    act.LOCKER_ACCEPT: (
        "accept the Locker's cards?",
        "Take the busted cards on offer into your collection, or decline.",
    ),
}
STACK_CHOICE = {  # what choosing a stack does, by phase (the short button under a clicked stack)
    act.CANNON_TARGET: "Fire the Cannon at it",
    act.NAVIGATOR_SELF: "Discard its top card",
    act.SWORD_TARGET: "Take it with the Sword",
    act.HOOK_SUIT: "Hook it back",
    act.PLUNDER_PICK: "Plunder it",
}
GLOSSARY = (
    ("score", "the top card of each suit in your collection, added up"),
    ("bust", "a second card of a suit already in the row: the row is lost"),
    ("row", "the cards drawn this turn, banked when you stop"),
    ("bank", "a player's collection: one stack per suit, the top card scores"),
)
END_REASONS = {
    "deck_out": "The draw pile ran out.",
    "sudden_death": "Sudden Death: a player reached 50 points.",
    "last_standing": "Every other player was eliminated.",
}


def _card(card: int, highlight: bool = False) -> Card:
    if card == MARKER:
        return Card(label="Anchor marker", kind="marker", detail="Rake's marker: protects like an Anchor (DMD-502).")
    suit = CARD_SUIT[card]
    return Card(label=card_name(card), kind=SUIT_NAMES[suit], detail=SUIT_TEXT[suit], highlight=highlight)


def _ability(ability: int, note: str = "") -> Card:
    return Card(label=ABILITY_NAMES[ability] + note, kind="ability", detail=ABILITY_TEXT[ability])


def _label(state: DmdState, actor: int, action: int) -> tuple[str, str, str, str]:
    """(label, help, the board key it belongs to, its short name there)."""
    n = state.game.num_players
    phase = state.phase
    if action == act.STOP:
        return "Stop and bank the row", PHASE_HELP[act.DRAW_OR_STOP][1], "row", "Stop and bank"
    if action == act.DRAW:
        return "Draw a card", PHASE_HELP[act.DRAW_OR_STOP][1], "deck", "Draw a card"
    if act.OWN_SUIT_BASE <= action < act.CARD_BASE:
        suit = action - act.OWN_SUIT_BASE
        choice = STACK_CHOICE.get(phase, "Choose it")
        return f"Your {SUIT_NAMES[suit]} stack", SUIT_TEXT[suit], f"bank:{actor}:{SUIT_NAMES[suit]}", choice
    if act.CARD_BASE <= action < act.CARD_BASE + NUM_CARDS:
        card = action - act.CARD_BASE
        return f"Take {card_name(card)}", SUIT_TEXT[CARD_SUIT[card]], f"card:{card}", f"Take {card_name(card)}"
    if act.ABILITY_BASE <= action < act.ACCEPT:
        ability = action - act.ABILITY_BASE
        name = ABILITY_NAMES[ability]
        return f"Keep {name}", ABILITY_TEXT[ability], f"ability:{ability}", f"Keep {name}"
    if action == act.ACCEPT:
        return "Accept the Locker's cards", PHASE_HELP[act.LOCKER_ACCEPT][1], "offer", "Accept"
    if action == act.DECLINE:
        return "Decline the Locker's cards", PHASE_HELP[act.LOCKER_ACCEPT][1], "offer", "Decline"
    if act.LOCKER_TARGET_BASE < action < act.target_base(n):
        seat = (actor + action - act.LOCKER_TARGET_BASE) % n
        return (
            f"Choose {player_name(seat)} for the Locker",
            PHASE_HELP[act.LOCKER_TARGET][1],
            f"seat:{seat}",
            "Choose for the Locker",
        )
    k, suit = divmod(action - act.target_base(n), NUM_SUITS)
    seat = (actor + k + 1) % n
    return (
        f"{player_possessive(seat)} {SUIT_NAMES[suit]} stack",
        SUIT_TEXT[suit],
        f"bank:{seat}:{SUIT_NAMES[suit]}",
        STACK_CHOICE.get(phase, "Choose it"),
    )


def describe_action(state: DmdState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` (``state`` is the state before it): the
    ability a seat keeps is secret until the reveal (DMD-304); everything else is played in the open."""
    who = player_name(seat)
    if act.ABILITY_BASE <= action < act.ACCEPT:
        if viewer != seat:
            return f"{who} kept one of their ability cards (secret until the reveal)"
        return f"{who} kept {ABILITY_NAMES[action - act.ABILITY_BASE]}"
    if action == act.DRAW:
        return f"{who} drew a card"
    if action == act.STOP:
        return f"{who} stopped to bank the row"
    if action in (act.ACCEPT, act.DECLINE):
        return f"{who} {'accepted' if action == act.ACCEPT else 'declined'} the Locker's cards"
    label, _help, _target, _choice = _label(state, seat, action)
    if act.OWN_SUIT_BASE <= action < act.CARD_BASE:
        label = f"{player_their(seat)} own {SUIT_NAMES[action - act.OWN_SUIT_BASE]} stack"
    return f"{who} ({PHASE_HELP[state.phase][0]}): {label}"


def _decision(state: DmdState) -> tuple[str, str]:
    return PHASE_HELP[state.phase]


def _stack_cards(state: DmdState, seat: int) -> list[Card]:
    cards = []
    for suit in range(NUM_SUITS):
        stack = state.collections[seat][suit]
        if stack:
            top = stack[-1]
            under = f" (+{len(stack) - 1} below)" if len(stack) > 1 else ""
            detail = f"{SUIT_NAMES[suit]} stack: " + ", ".join(card_name(c) for c in stack) + ". " + SUIT_TEXT[suit]
            cards.append(Card(label=card_name(top) + under, kind=SUIT_NAMES[suit], detail=detail))
    return cards


def _ability_shown(state: DmdState, seat: int, viewer: int | None) -> int | None:
    """The kept ability ``viewer`` may see (-1: none kept yet), or None when it is face down to ``viewer``."""
    kept = state.kept[seat]
    if state.revealed or viewer == seat:
        return kept
    return None


def _collection_zone(state: DmdState, seat: int, viewer: int | None) -> Zone:
    cards = _stack_cards(state, seat)
    if state.game.characters:
        shown = _ability_shown(state, seat, viewer)
        if shown is None:
            cards.append(Card.face_down("ability"))
        elif shown >= 0:
            cards.append(_ability(shown, "" if state.revealed else " (secret)"))
    marks = [f"{state.live_score(seat)} points"]
    if state.eliminated[seat]:
        marks.append("eliminated")
    if state.locker_target == seat:
        marks.append("the Locker's target")
    if seat == state.active and state.phase != act.GAME_OVER:
        marks.append("playing")
    return Zone(title=f"{player_possessive(seat)} bank", cards=tuple(cards), owner=seat, note=", ".join(marks))


def _standing(state: DmdState, seat: int, viewer: int | None) -> str:
    shown = _ability_shown(state, seat, viewer)
    ability = f", {ABILITY_NAMES[shown]}" if shown is not None and shown >= 0 else ""
    out = ", eliminated" if state.eliminated[seat] else ""
    score = state.scores()[seat] if state.is_terminal() else state.live_score(seat)  # the end adds bonuses
    return f"{score:g} points{ability}{out}"


# --- the board (docs/arena-board.md) ----------------------------------------------------------------------


def _card_data(card: int) -> dict:
    if card == MARKER:
        return {"name": "Anchor marker", "suit": "Marker", "value": 0, "detail": _card(card).detail}
    suit = CARD_SUIT[card]
    return {"name": card_name(card), "suit": SUIT_NAMES[suit], "value": CARD_VALUE[card], "detail": SUIT_TEXT[suit]}


def _ability_data(ability: int) -> dict:
    return {"name": ABILITY_NAMES[ability], "detail": ABILITY_TEXT[ability]}


def _board(state: DmdState, viewer: int | None, keys: set[str]) -> dict:
    game = state.game
    row = state.row
    row_cards = []
    for i, card in enumerate(row):
        data = _card_data(card)
        data["safe"] = card in state.hook_protected
        data["last"] = i == len(row) - 1
        row_cards.append(keyed(data, f"card:{card}", keys) if card != MARKER else data)
    peeks = []
    pile = state.draw_pile
    if viewer is not None:
        for depth in range(min(3, len(pile))):
            card = pile[-1 - depth]
            if card in state.known[viewer]:
                peeks.append({"depth": depth + 1, "card": _card_data(card)})
    banks = []
    for seat in range(game.num_players):
        stacks = [
            keyed(
                {"suit": SUIT_NAMES[suit], "cards": [_card_data(c) for c in state.collections[seat][suit]]},
                f"bank:{seat}:{SUIT_NAMES[suit]}",
                keys,
            )
            for suit in range(NUM_SUITS)
            if state.collections[seat][suit]
        ]
        ability: dict | None = None
        if game.characters:
            shown = _ability_shown(state, seat, viewer)
            if shown is None:
                ability = {"hidden": True, "back": "ability"}
            elif shown >= 0:
                ability = {**_ability_data(shown), "secret": not state.revealed}
        bank = {
            "seat": seat,
            "score": state.live_score(seat),
            "playing": seat == state.active and state.phase != act.GAME_OVER,
            "eliminated": bool(state.eliminated[seat]),
            "locker_target": state.locker_target == seat,
            "stacks": stacks,
            "ability": ability,
        }
        banks.append(keyed(bank, f"seat:{seat}", keys))
    offer = None
    if state.phase in (act.MAP_PICK, act.LOCKER_ACCEPT) and state.offer:
        title = "Map offers" if state.phase == act.MAP_PICK else "Davy Jones' Locker offers"
        cards = [keyed(_card_data(c), f"card:{c}", keys) for c in sorted(state.offer)]
        offer = keyed({"title": title, "cards": cards}, "offer", keys)
    elif state.phase in (act.MERMAID_PICK, act.RAKE_PICK):
        picks = sorted(a - act.CARD_BASE for a in state.choices)
        offer = {"title": "Cards to pick from", "cards": [keyed(_card_data(c), f"card:{c}", keys) for c in picks]}
    dealt = []
    if viewer is not None:
        dealt = [keyed(_ability_data(a), f"ability:{a}", keys) for a in state.dealt[viewer]]
    variant = VARIANTS[state.variant]
    last_turn = None
    if state.last_turn_player >= 0:
        last_turn = {
            "seat": state.last_turn_player,
            "busted": bool(state.last_turn_busted),
            "cards": [_card_data(c) for c in state.last_turn_cards],
        }
    pending = sum(arg for kind, arg in state.tasks if kind == 0)
    return {
        "kind": "dead_mans_draw",
        "active": state.active if state.phase != act.GAME_OVER else None,
        "row": keyed({"cards": row_cards}, "row", keys),
        "deck": keyed({"count": len(pile), "forced_draws": pending, "peeks": peeks}, "deck", keys),
        "discard": {"count": len(state.discard), "cards": [_card_data(c) for c in sorted(state.discard)]},
        "banks": banks,
        "offer": offer,
        "dealt": dealt,
        "variant": {"name": _variant_name(variant), "detail": VARIANT_TEXT[variant]},
        "mermaid_variant": bool(game.mermaid_variant),
        "last_turn": last_turn,
    }


def _variant_name(variant: str) -> str:
    return "No variant" if variant == "none" else VARIANT_TEXT[variant].split(":")[0]


# --- the end (Section 7) ----------------------------------------------------------------------------------


def end_reason(state: DmdState) -> str:
    """Why a finished game ended: the draw pile ran out, Sudden Death, or one player left (Undertow)."""
    n = state.game.num_players
    if sum(1 for s in range(n) if not state.eliminated[s]) == 1 and any(state.eliminated):
        return "last_standing"
    if VARIANTS[state.variant] == "sudden_death" and any(state.live_score(s) >= SUDDEN_DEATH_TARGET for s in range(n)):
        return "sudden_death"
    return "deck_out"


def _breakdown(state: DmdState, seat: int) -> list[tuple[str, float]]:
    items: list[tuple[str, float]] = []
    variant = VARIANTS[state.variant]
    held = 0
    for suit in range(NUM_SUITS):
        stack = state.collections[seat][suit]
        if not stack:
            continue
        held += 1
        if variant == "piri_reis":
            items.append(
                (
                    f"{SUIT_NAMES[suit]} stack, every card: " + ", ".join(card_name(c) for c in stack),
                    sum(CARD_VALUE[c] for c in stack),
                )
            )
        else:
            items.append((f"{SUIT_NAMES[suit]} stack: top card {card_name(stack[-1])}", CARD_VALUE[stack[-1]]))
    if variant == "grand_slam" and held < NUM_SUITS:
        items.append((f"Grand Slam: {NUM_SUITS - held} suits missing", -5 * (NUM_SUITS - held)))
    bonus = state.scores()[seat] - state.live_score(seat)
    if bonus:
        items.append(("Golden Mermaid bonus", bonus))
    return items


def _verdict(state: DmdState, seat: int) -> tuple[str, str] | None:
    if state.eliminated[seat]:
        return "eliminated", "eliminated by Undertow (over 60 points)"
    return None


def _ending(state: DmdState) -> dict:
    if not state.is_terminal():
        return {}
    reason = end_reason(state)
    return ending_of(
        state,
        reason=reason,
        why=END_REASONS[reason],
        score_name="points",
        breakdown=lambda seat: _breakdown(state, seat),
        verdict=lambda seat: _verdict(state, seat),
    )


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY, scores_title="points")


def table_view(state: DmdState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    game = state.game
    n = game.num_players
    row = state.row
    zones = [
        Zone(
            title="The row (this turn's cards)",
            cards=tuple(_card(c, highlight=(i == len(row) - 1)) for i, c in enumerate(row)),
            note=", ".join(card_name(c) + " is safe from a bust (Hook)" for c in state.hook_protected if c in row),
        )
    ]
    if state.phase in (act.MAP_PICK, act.LOCKER_ACCEPT) and state.offer:
        title = "Map offers" if state.phase == act.MAP_PICK else "Davy Jones' Locker offers"
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
                where = "on top" if depth == 0 else f"{depth + 1} from the top"
                peeks.append(
                    Card(label=f"{peek.label} ({where})", kind=peek.kind, detail="You peeked at it. " + peek.detail)
                )
    pending = sum(arg for kind, arg in state.tasks if kind == 0)
    zones.append(
        Zone(
            title="Draw pile",
            cards=(*peeks, Card.face_down("deck")) if pile else tuple(peeks),
            note=f"{len(pile)} cards" + (f", {pending} more must be drawn" if pending else ""),
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
            cards=(Card(label=_variant_name(variant), kind="variant", detail=VARIANT_TEXT[variant]),),
            note="mermaid variant" if game.mermaid_variant else "",
        )
    )
    if state.last_turn_player >= 0:
        how = "busted" if state.last_turn_busted else "stopped"
        zones.append(
            Zone(
                title=f"Last turn: {player_name(state.last_turn_player)} {how}",
                cards=tuple(_card(c) for c in state.last_turn_cards),
            )
        )
    over = state.phase == act.GAME_OVER
    title = "Dead Man's Draw" if over else f"Dead Man's Draw - {whose_turn(state, state.active)}"
    board = partial(_board, state, viewer)
    return WORDING.table_view(state, viewer, title, zones, board=board, ending=_ending(state))
