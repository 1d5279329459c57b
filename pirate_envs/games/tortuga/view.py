"""The drawn table of Tortuga 1667 for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): pawns, roles, exiles, the galleon, the supply,
the event deck size and the public treasure/map transfers are open to all; a seat's nation is
face down unless it is the viewer's own, revealed, spied by the viewer, or the game is over; a
seat's hoard and maps are seen by that seat alone (everyone's at the end); a vote card is face
down until the vote is revealed (the viewer sees its own); the victim of a secret steal is
shown only to the thief and the victim (TOR-805 makes steals public).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import Card, TableView, TableWording, Zone, result_line, seat_name, seat_name_at
from pirate_envs.games.tortuga import actions as act
from pirate_envs.games.tortuga.board import (
    CARD_NAMES,
    NATION_NAMES,
    NODE_NAMES,
    ROLE_NAMES,
    ROLE_SHORT,
    SHIP_NAMES,
    VOTE_CARD_NAMES,
    VOTE_TYPE_NAMES,
)
from pirate_envs.games.tortuga.narration import result_text
from pirate_envs.games.tortuga.render import log_entry_text

if TYPE_CHECKING:
    from pirate_envs.games.tortuga.game import TortugaState

VOTE_PHASE, MAP_GIVE_PHASE = 2, 13
NODE_TITLES = (
    "Tortuga (TOR)",
    "English ship (ENG)",
    "French ship (FRA)",
    "Spanish ship (SPA)",
    "Spanish galleon (GAL)",
    "Lane to ENG",
    "Lane to FRA",
    "Lane to SPA",
)
ROLE_TEXT = (
    "Captain of the English ship (C-ENG): at the galleon, calls an attack vote; exiled by a mutiny.",
    "Captain of the French ship (C-FRA): at the galleon, calls an attack vote; exiled by a mutiny.",
    "Captain of the Spanish ship (C-SPA): at the galleon, calls an attack vote; exiled by a mutiny.",
    "First Mate of the English ship (FM-ENG): calls a mutiny vote against the Captain.",
    "First Mate of the French ship (FM-FRA): calls a mutiny vote against the Captain.",
    "First Mate of the Spanish ship (FM-SPA): calls a mutiny vote against the Captain.",
    "Governor of Tortuga (GOV): calls a dispute vote to take treasure.",
    "Sailor (S): secretly steals treasure from a player at the same place.",
)
EVENT_TEXT = (
    "Floating Cargo: treasure from the supply.",
    "Buried Chest: treasure from the supply.",
    "Fair Winds: an extra move.",
    "Strong Current: move another player's pawn.",
    "Mutiny Brews: call a mutiny on a ship.",
    "Tavern Brawl: a brawl vote against a player.",
    "Scurvy: treasure is lost.",
    "Shipwreck: a ship's crew is sent back.",
    "Spanish Counterattack: players at the galleon lose treasure to it.",
    "Spyglass: secretly look at one player's nation.",
    "Treasure Map: give a map (worth 2 treasure) to a player.",
    "Spanish Armada: the game ends at once.",
)
PHASE_HELP = {
    0: "Move your pawn up to two spaces (or stay).",
    1: "Act where you stand: attack the galleon, call a mutiny or a dispute, steal, or pass.",
    2: "Play a vote card face down: Yes, No or Wild (Wild is declared after the reveal).",
    3: "Declare what your Wild card counts as.",
    4: "Give the loot of a won attack, one treasure at a time.",
    5: "Draw an event card, or not.",
    6: "Treasure Map: choose who receives the map.",
    7: "Fair Winds: move again.",
    8: "Strong Current: choose whose pawn moves.",
    9: "Strong Current: choose where the pawn goes.",
    10: "Mutiny Brews: choose the ship.",
    11: "Tavern Brawl: choose the player to vote against.",
    12: "Spyglass: choose whose nation you look at (you alone learn it).",
    13: "You may secretly give one of your maps to a player here.",
}
GLOSSARY = (
    ("C-ENG/FRA/SPA", "Captain of the English/French/Spanish ship"),
    ("FM-ENG/FRA/SPA", "First Mate of that ship"),
    ("GOV", "Governor of Tortuga"),
    ("S", "Sailor"),
    ("GAL", "the Spanish galleon, full of treasure"),
    ("TOR, ENG, FRA, SPA", "Tortuga and the English, French and Spanish ships"),
    ("LANE_E/F/S", "the lane from Tortuga to the English/French/Spanish ship"),
    ("pub", "treasure and maps moved in public (a hoard itself is secret)"),
)


def _pawn(state: TortugaState, seat: int, viewer: int | None) -> Card:
    role = state.role[seat]
    known = state.nation_known(viewer, seat)
    nation = NATION_NAMES[state.nation[seat]] if known else ""
    label = f"{seat_name(seat)} {ROLE_SHORT[role]}" + (" EXILED" if state.exiled[seat] else "")
    detail = ROLE_TEXT[role] + (f" Loyal to {nation}." if known else " Nation secret.")
    return Card(label=label, kind=nation or "player", detail=detail, highlight=(seat == state.active))


def _seat_zone(state: TortugaState, seat: int, viewer: int | None) -> Zone:
    over = state.game_over
    if state.nation_known(viewer, seat):
        nation = NATION_NAMES[state.nation[seat]]
        cards = [Card(label=nation, kind=nation, detail=f"{seat_name(seat)} is loyal to {nation}.")]
    else:
        cards = [Card.face_down("nation")]
    note = f"pub {state.pub_treasure[seat]:+d} treasure, {state.pub_maps[seat]} maps, {state.steals_made[seat]} steals"
    if viewer == seat or over:
        cards.append(Card(label=f"hoard {state.hoard[seat]}", kind="treasure", detail="Treasure tokens held."))
        cards.append(Card(label=f"maps {state.maps[seat]}", kind="map", detail="Each Treasure Map scores 2."))
    else:
        cards.append(Card.face_down("hoard"))
    title = f"{seat_name(seat)}: {ROLE_NAMES[state.role[seat]]}" + (" (exiled)" if state.exiled[seat] else "")
    return Zone(title=title, cards=tuple(cards), owner=seat, note=note)


def _vote_zone(state: TortugaState, viewer: int | None) -> Zone | None:
    vote = state.vote
    if vote is None:
        return None
    cards = []
    for seat in vote["order"]:
        card = vote["cards"][seat]
        if card >= 0 and (vote["revealed"] or viewer == seat):
            text = VOTE_CARD_NAMES[card]
            if vote["revealed"] and vote["decl"][seat] >= 0:
                text += f" as {VOTE_CARD_NAMES[vote['decl'][seat]]}"
            cards.append(Card(label=f"{seat_name(seat)}: {text}", kind=f"vote {VOTE_CARD_NAMES[card]}"))
        else:
            # An unrevealed choice looks the same as no choice yet (TOR-916).
            cards.append(Card.face_down("vote"))
    target = f" against {seat_name(vote['target'])}" if vote["target"] >= 0 else ""
    title = f"Vote: {VOTE_TYPE_NAMES[vote['type']].lower()} by {seat_name(vote['initiator'])}{target}"
    return Zone(title=title, cards=tuple(cards), note="voters in order: " + ", ".join(f"p{s}" for s in vote["order"]))


def _log_text(state: TortugaState, entry: list[int], viewer: int | None) -> str:
    return log_entry_text(state, entry, viewer, name=seat_name)


def _label(state: TortugaState, actor: int, action: int) -> tuple[str, str]:
    n = state.game.num_players
    idx = act.ActionIndex(n)
    if 0 <= action < 8:
        return f"Move to {NODE_TITLES[action]}", PHASE_HELP[0]
    if action == act.PASS:
        return "Pass", ""
    if action == act.ATTACK:
        return "Attack the galleon", "Everyone at the galleon votes; if it passes, you share out the loot."
    if action == act.MUTINY:
        return "Call a mutiny", "A vote to exile this ship's Captain."
    if action == act.STEAL_GALLEON:
        return "Steal from the galleon", "Take one treasure from the galleon."
    if idx.steal <= action < idx.steal + n:
        return f"Steal from {seat_name_at(actor, action - idx.steal, n)}", "A secret steal of one treasure."
    if idx.dispute <= action < idx.dispute + n:
        return f"Dispute with {seat_name_at(actor, action - idx.dispute, n)}", "A vote to take their treasure."
    if idx.vote <= action < idx.vote + 3:
        return f"Vote {VOTE_CARD_NAMES[action - idx.vote]}", PHASE_HELP[2]
    if idx.declare <= action < idx.declare + 2:
        return f"Declare Wild as {VOTE_CARD_NAMES[action - idx.declare]}", PHASE_HELP[3]
    if action == idx.draw:
        return "Draw an event card", PHASE_HELP[5]
    if idx.select <= action < idx.select + n:
        return f"Choose {seat_name_at(actor, action - idx.select, n)}", PHASE_HELP.get(state.phase, "")
    return f"Choose the {SHIP_NAMES[action - idx.ship]} ship", PHASE_HELP[10]


def _standing(state: TortugaState, seat: int, viewer: int | None) -> str:
    """The seat's role, place and nation as ``viewer`` may know them; its hoard and maps to itself (all at the end)."""
    nation = NATION_NAMES[state.nation[seat]] if state.nation_known(viewer, seat) else "?"
    hoard = f", hoard {state.hoard[seat]}, maps {state.maps[seat]}" if viewer == seat or state.game_over else ""
    exiled = " EXILED" if state.exiled[seat] else ""
    return f"{ROLE_SHORT[state.role[seat]]} at {NODE_NAMES[state.pos[seat]]}, {nation}{hoard}{exiled}"


def _decision(state: TortugaState) -> tuple[str, str]:
    return state.phase_name().lower().replace("_", " "), PHASE_HELP[state.phase]


def describe_action(state: TortugaState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` (``state`` is the state before it).

    Secret to everyone else: a vote card (revealed with the vote), a map given in secret (MAP_GIVE),
    and the victim of a steal unless steals are public (TOR-805).
    """
    if viewer != seat:
        idx = act.ActionIndex(state.game.num_players)
        if state.phase == VOTE_PHASE:
            return f"{seat_name(seat)} played a vote card face down"
        if state.phase == MAP_GIVE_PHASE:
            return f"{seat_name(seat)} decided whether to give a map (secret)"
        if idx.steal <= action < idx.steal + state.game.num_players and not state.game.options["public_steal"]:
            return f"{seat_name(seat)} stole from a player at {NODE_NAMES[state.pos[seat]]} (secret)"
    return f"{seat_name(seat)}: {_label(state, seat, action)[0]}"


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY)


def table_view(state: TortugaState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    game = state.game
    n = game.num_players
    zones = []
    for node in range(8):
        pawns = tuple(_pawn(state, p, viewer) for p in range(n) if state.pos[p] == node)
        note = ""
        if node == 4:
            note = f"{state.galleon} treasure aboard"
        elif node == 0:
            note = f"supply {state.supply}"
        if pawns or node <= 4:
            zones.append(Zone(title=NODE_TITLES[node], cards=pawns, note=note))
    zones += [_seat_zone(state, p, viewer) for p in range(n)]
    vote = _vote_zone(state, viewer)
    if vote is not None:
        zones.append(vote)
    event_cards = ()
    if state.event is not None:
        card = state.event["card"]
        event_cards = (Card(label=CARD_NAMES[card], kind="event", detail=EVENT_TEXT[card], highlight=True),)
    zones.append(
        Zone(title="Event", cards=event_cards or (Card.face_down("event"),), note=f"deck {len(state.deck)} cards")
    )
    if state.loot is not None:
        loot = state.loot
        zones.append(
            Zone(
                title=f"Loot shared by {seat_name(loot['captain'])}",
                cards=tuple(
                    Card(label=f"{seat_name(p)} +{loot['assigned'][p]}", kind="treasure")
                    for p in range(n)
                    if loot["assigned"][p]
                ),
                note=f"{loot['left']} left to give",
            )
        )
    if state.log:
        zones.append(
            Zone(
                title="Log (newest last)",
                cards=tuple(Card(label=_log_text(state, e, viewer), kind="log") for e in state.log[-6:]),
            )
        )
    result = result_line(state)
    if result and not state.is_truncated():
        result = "Game over: " + result_text(state)  # the nations' scores, the tie, the exiled (TOR-703..705)
    title = f"Tortuga 1667 - round {state.round}/{game.options['max_rounds']}, active {seat_name(state.active)}"
    return WORDING.table_view(state, viewer, title, zones, result=result)
