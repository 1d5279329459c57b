"""The drawn table of Tortuga 1667 for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): pawns, roles, exiles, the galleon, the supply,
the event deck size and the public treasure/map transfers are open to all; a seat's nation is
face down unless it is the viewer's own, revealed, spied by the viewer, or the game is over; a
seat's hoard and maps are seen by that seat alone (everyone's at the end); a vote card is face
down until the vote is revealed (the viewer sees its own); the victim of a secret steal is
shown only to the thief and the victim (TOR-805 makes steals public).
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
    player_name,
    player_object,
    player_possessive,
    player_their,
    player_verb,
    whose_turn,
)
from pirate_envs.games.tortuga import actions as act
from pirate_envs.games.tortuga.board import (
    C_ENG,
    CAPACITY,
    CARD_NAMES,
    FM_ENG,
    LOG_ATTACK_FAILED,
    LOG_ATTACK_PASSED,
    LOG_DISPUTE_FAILED,
    LOG_DISPUTE_PASSED,
    LOG_DRAW_DECLINED,
    LOG_EVENT_DRAWN,
    LOG_EXILED,
    LOG_LOOT_GIVEN,
    LOG_MAP_GIFTED,
    LOG_MUTINY_FAILED,
    LOG_PAWN_MOVED,
    LOG_PROMOTED,
    LOG_SPYGLASS,
    LOG_STEAL_GALLEON,
    LOG_STEAL_PLAYER,
    LOG_TREASURE_EVENT,
    NATION_NAMES,
    NEIGHBOURS,
    SHIP_NODE,
    STRONG_CURRENT,
    V_ATTACK,
    V_BRAWL,
    V_DISPUTE,
    V_MUTINY,
    VOTE_CARD_NAMES,
    VOTE_TYPE_NAMES,
)
from pirate_envs.games.tortuga.narration import result_text

if TYPE_CHECKING:
    from pirate_envs.games.tortuga.game import TortugaState

VOTE_PHASE, DECLARE_PHASE, LOOT_PHASE, MAP_GIVE_PHASE = 2, 3, 4, 13
NODE_TITLES = (
    "Tortuga",
    "English ship",
    "French ship",
    "Spanish ship",
    "Spanish galleon",
    "Lane to the English ship",
    "Lane to the French ship",
    "Lane to the Spanish ship",
)
NODE_KINDS = ("island", "ship", "ship", "ship", "galleon", "lane", "lane", "lane")
ROLE_WORDS = (
    "Captain of the English ship",
    "Captain of the French ship",
    "Captain of the Spanish ship",
    "First Mate of the English ship",
    "First Mate of the French ship",
    "First Mate of the Spanish ship",
    "Governor of Tortuga",
    "Sailor",
)
ROLE_TEXT = (
    "Captain of the English ship: at the galleon, calls an attack vote; exiled by a mutiny (TOR-520).",
    "Captain of the French ship: at the galleon, calls an attack vote; exiled by a mutiny (TOR-520).",
    "Captain of the Spanish ship: at the galleon, calls an attack vote; exiled by a mutiny (TOR-520).",
    "First Mate of the English ship: calls a mutiny vote against the Captain (TOR-505).",
    "First Mate of the French ship: calls a mutiny vote against the Captain (TOR-505).",
    "First Mate of the Spanish ship: calls a mutiny vote against the Captain (TOR-505).",
    "Governor of Tortuga: calls a dispute vote to take treasure (TOR-539).",
    "Sailor: secretly steals treasure from a player at the same place (TOR-535).",
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
PHASE_DECISION = {
    0: "move your pawn",
    1: "act where you stand",
    4: "share out the loot",
    5: "draw an event card or not",
    6: "choose who gets the Treasure Map",
    7: "Fair Winds: move again",
    8: "Strong Current: choose whose pawn moves",
    9: "Strong Current: choose where it goes",
    10: "Mutiny Brews: choose the ship",
    11: "Tavern Brawl: choose the player",
    12: "Spyglass: choose whose nation to see",
    13: "give one of your maps in secret, or not",
}
SELECT_CHOICE = {  # what choosing a player does, by phase: (the label, the short button under a clicked player)
    4: ("Give {who} 1 treasure", "Give them 1 treasure"),
    6: ("Give {who} the map", "Give them the map"),
    8: ("Move {whose} pawn", "Move their pawn"),
    11: ("Call the brawl vote on {who}", "Call the brawl vote on them"),
    12: ("Look at {whose} nation", "Look at their nation"),
    13: ("Give {who} a map in secret", "Give them a map in secret"),
}
VOTE_ABOUT = {
    V_ATTACK: "the attack on the galleon called by {initiator}",
    V_MUTINY: "the mutiny against {target} called by {initiator}",
    V_DISPUTE: "the dispute of {initiator} against {target}",
    V_BRAWL: "the tavern brawl against {target} called by {initiator}",
}
END_REASONS = {
    "armada": "The Spanish Armada was drawn.",
    "galleon": "The galleon was emptied of treasure.",
    "rounds": "The last round was played.",
}
GLOSSARY = (
    ("hoard", "a player's treasure, secret until the end; a Treasure Map counts 2"),
    ("moved in public", "treasure and maps everyone saw a player gain or lose (the hoard itself is secret)"),
    ("exiled", "a Captain thrown off by a mutiny; an exiled player never shares the win"),
)


def _the(node: int) -> str:
    """A place inside a sentence: "Tortuga", "the English ship", "the lane to the French ship"."""
    title = NODE_TITLES[node]
    return "Tortuga" if node == 0 else "the " + ("lane" + title[4:] if title.startswith("Lane") else title)


def _where(node: int) -> str:
    return ("at " if node == 4 else "on ") + _the(node)


def _pawn(state: TortugaState, seat: int, viewer: int | None) -> Card:
    role = state.role[seat]
    known = state.nation_known(viewer, seat)
    nation = NATION_NAMES[state.nation[seat]] if known else ""
    label = f"{player_name(seat)}, {ROLE_WORDS[role]}" + (" (exiled)" if state.exiled[seat] else "")
    detail = ROLE_TEXT[role] + (f" Loyal to {nation}." if known else " Nation secret.")
    return Card(label=label, kind=nation or "player", detail=detail, highlight=(seat == state.active))


def _seat_zone(state: TortugaState, seat: int, viewer: int | None) -> Zone:
    over = state.game_over
    if state.nation_known(viewer, seat):
        nation = NATION_NAMES[state.nation[seat]]
        cards = [Card(label=nation, kind=nation, detail=f"{player_name(seat)}: loyal to {nation}.")]
    else:
        cards = [Card.face_down("nation")]
    note = (
        f"moved in public: {state.pub_treasure[seat]:+d} treasure, {count_of(state.pub_maps[seat], 'map')}; "
        f"{count_of(state.steals_made[seat], 'steal')}"
    )
    if viewer == seat or over:
        cards.append(Card(label=f"{state.hoard[seat]} treasure", kind="treasure", detail="Treasure tokens held."))
        cards.append(Card(label=count_of(state.maps[seat], "map"), kind="map", detail="Each Treasure Map scores 2."))
    else:
        cards.append(Card.face_down("hoard"))
    title = f"{player_name(seat)}: {ROLE_WORDS[state.role[seat]]}" + (" (exiled)" if state.exiled[seat] else "")
    return Zone(title=title, cards=tuple(cards), owner=seat, note=note)


def vote_about(vote: dict) -> str:
    """What a vote (current or last) decides, in words."""
    target = player_name(vote["target"]) if vote["target"] >= 0 else ""
    return VOTE_ABOUT[vote["type"]].format(initiator=player_name(vote["initiator"]), target=target)


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
            cards.append(Card(label=f"{player_name(seat)}: {text}", kind=f"vote {VOTE_CARD_NAMES[card]}"))
        else:
            # An unrevealed choice looks the same as no choice yet (TOR-916).
            cards.append(Card.face_down("vote"))
    title = f"Vote on {vote_about(vote)}"
    order = ", ".join(player_name(s) for s in vote["order"])
    return Zone(title=title, cards=tuple(cards), note=f"voters in order: {order}")


def log_text(state: TortugaState, entry: list[int], viewer: int | None) -> str:
    """One public log entry (TOR-1004) in words, as ``viewer`` may read it: a secret steal's victim and
    amount only for the thief and the victim, unless steals are public (TOR-908)."""
    text = _log_words(state, entry, viewer)
    return text[0].upper() + text[1:] if text.startswith(("your ", "the ")) else text


def _log_words(state: TortugaState, entry: list[int], viewer: int | None) -> str:
    kind, actor, target, node, card, value, secret = entry
    who, whom = player_name(actor), (player_object(target) if target >= 0 else "")
    event = f"{CARD_NAMES[card]}: " if card >= 0 else ""
    if kind == LOG_ATTACK_FAILED:
        return f"{player_possessive(actor, capital=False)} attack on the galleon was voted down"
    if kind == LOG_ATTACK_PASSED:
        return f"{player_possessive(actor, capital=False)} attack on the galleon won {value} treasure"
    if kind == LOG_LOOT_GIVEN:
        return (
            f"{who} kept {value} treasure of the loot"
            if target == actor
            else f"{who} gave {whom} 1 treasure of the loot"
        )
    if kind == LOG_MUTINY_FAILED:
        return f"{event}{player_possessive(actor, capital=False)} mutiny against {whom} on {_the(node)} failed"
    if kind == LOG_EXILED:
        exiled = player_name(target)
        return f"Mutiny on {_the(node)}: {exiled} {player_verb(target, 'was')} exiled (called by {who})"
    if kind == LOG_PROMOTED:
        rank = "Captain" if value == 1 else "First Mate"
        return f"{who} {player_verb(actor, 'becomes')} {rank} of {_the(node)}"
    if kind == LOG_STEAL_PLAYER:
        visible = secret < 0 or state.game.options["public_steal"] or viewer in (actor, target)
        if not visible:
            return f"{who} stole from someone {_where(node)} (secret)"
        return f"{who} stole {'1 treasure' if value else 'nothing'} from {whom} {_where(node)}"
    if kind == LOG_STEAL_GALLEON:
        return f"{who} stole 1 treasure from the galleon"
    if kind in (LOG_DISPUTE_FAILED, LOG_DISPUTE_PASSED):
        what = (
            f"the tavern brawl against {whom}"
            if card >= 0
            else f"{player_possessive(actor, capital=False)} dispute with {whom}"
        )
        if kind == LOG_DISPUTE_FAILED:
            return f"{what[0].upper()}{what[1:]} was voted down"
        lost = f"{player_name(target)} lost {value} treasure" + (f" to {player_object(actor)}" if value else "")
        return f"{what[0].upper()}{what[1:]} passed: {lost}"
    if kind == LOG_EVENT_DRAWN:
        return f"{who} drew the event {CARD_NAMES[card]}"
    if kind == LOG_DRAW_DECLINED:
        return f"{who} drew no event"
    if kind == LOG_MAP_GIFTED:
        return f"{who} kept the Treasure Map" if target == actor else f"{who} gave the Treasure Map to {whom}"
    if kind == LOG_PAWN_MOVED:
        if target == actor and node == 0:
            return f"{event}{who} {player_verb(actor, 'was')} sent back to Tortuga"
        return f"{event}{who} moved {whom} to {_the(node)}"
    if kind == LOG_TREASURE_EVENT:
        change = f"gained {value}" if value > 0 else f"lost {-value}"
        loser = player_name(target)
        return f"{event}{loser} {change} treasure" + (" to the galleon" if node == 4 and value < 0 else "")
    return f"{who} looked at {player_possessive(target, capital=False)} nation with the Spyglass"


def _restates_move(entry: list[int]) -> bool:
    """Whether a log entry only repeats the move that made it (the move's own line already says it)."""
    kind, actor, target, _node, card = entry[:5]
    if kind in (LOG_DRAW_DECLINED, LOG_STEAL_GALLEON, LOG_SPYGLASS, LOG_MAP_GIFTED):
        return True
    if kind == LOG_LOOT_GIVEN:
        return target != actor
    return kind == LOG_PAWN_MOVED and card == STRONG_CURRENT


def _label(state: TortugaState, actor: int, action: int) -> tuple[str, str, str, str]:
    """(label, help, the board key it belongs to, its short name there)."""
    n = state.game.num_players
    idx = act.ActionIndex(n)
    phase = state.phase
    if 0 <= action < 8:
        verb = "Move them to" if phase == 9 else ("Stay on" if action == state.pos[actor] else "Move to")
        short = "Move them here" if phase == 9 else ("Stay here" if action == state.pos[actor] else "Move here")
        return f"{verb} {_the(action)}", PHASE_HELP[phase], f"place:{action}", short
    if action == act.PASS:
        text = {5: "Draw no event", 13: "Give no map"}.get(phase, "Pass")
        return text, PHASE_HELP.get(phase, ""), "", text
    if action == act.ATTACK:
        help_text = "Everyone at the galleon votes; if it passes, you share out the loot."
        return "Attack the galleon", help_text, "place:4", "Attack the galleon"
    if action == act.MUTINY:
        here = state.pos[actor]
        return "Call a mutiny", "A vote to exile this ship's Captain.", f"place:{here}", "Call a mutiny"
    if action == act.STEAL_GALLEON:
        return "Steal from the galleon", "Take one treasure from the galleon.", "place:4", "Steal 1 treasure"
    if idx.steal <= action < idx.steal + n:
        target = (actor + action - idx.steal) % n
        return (
            f"Steal from {player_name(target)}",
            "A secret steal of one treasure.",
            f"seat:{target}",
            "Steal from them",
        )
    if idx.dispute <= action < idx.dispute + n:
        target = (actor + action - idx.dispute) % n
        help_text = "A vote to take their treasure."
        return f"Dispute with {player_object(target)}", help_text, f"seat:{target}", "Call a dispute vote"
    if idx.vote <= action < idx.vote + 3:
        card = VOTE_CARD_NAMES[action - idx.vote]
        return f"Vote {card}", PHASE_HELP[2], "vote", f"Vote {card}"
    if idx.declare <= action < idx.declare + 2:
        card = VOTE_CARD_NAMES[action - idx.declare]
        return f"Count my Wild as {card}", PHASE_HELP[3], "vote", f"Count my Wild as {card}"
    if action == idx.draw:
        return "Draw an event card", PHASE_HELP[5], "event_deck", "Draw an event card"
    if idx.select <= action < idx.select + n:
        target = (actor + action - idx.select) % n
        label, short = SELECT_CHOICE.get(phase, ("Choose {who}", "Choose them"))
        label = label.format(who=player_object(target), whose=player_possessive(target, capital=False))
        return (
            label.replace("Give you ", "Keep "),
            PHASE_HELP.get(phase, ""),
            f"seat:{target}",
            short,
        )
    ship = action - idx.ship
    return f"Mutiny on {_the(SHIP_NODE[ship])}", PHASE_HELP[10], f"place:{SHIP_NODE[ship]}", "Mutiny on this ship"


def _standing(state: TortugaState, seat: int, viewer: int | None) -> str:
    """The seat's role, place and nation as ``viewer`` may know them; its hoard and maps to itself (all at the end)."""
    nation = NATION_NAMES[state.nation[seat]] if state.nation_known(viewer, seat) else "nation secret"
    hoard = ""
    if viewer == seat or state.game_over:
        hoard = f", {state.hoard[seat]} treasure, {count_of(state.maps[seat], 'map')}"
    exiled = ", exiled" if state.exiled[seat] else ""
    return f"{ROLE_WORDS[state.role[seat]]} {_where(state.pos[seat])}, {nation}{hoard}{exiled}"


def _decision(state: TortugaState) -> tuple[str, str]:
    if state.phase in (VOTE_PHASE, DECLARE_PHASE) and state.vote is not None:
        about = vote_about(state.vote)
        if state.phase == VOTE_PHASE:
            return f"vote on {about}", f"Vote on {about}. " + PHASE_HELP[2]
        return f"count your Wild in the vote on {about}", PHASE_HELP[3]
    if state.phase == LOOT_PHASE and state.loot is not None:
        return f"share out the loot ({state.loot['left']} left)", PHASE_HELP[4]
    return PHASE_DECISION[state.phase], PHASE_HELP[state.phase]


def _told(state: TortugaState, seat: int, action: int) -> str:
    """``seat``'s move in the past tense, as the log tells it."""
    n = state.game.num_players
    idx = act.ActionIndex(n)
    phase = state.phase
    if 0 <= action < 8:
        if phase == 9:
            return f"moved {player_object(state.event['target'])} to {_the(action)}"
        return f"stayed on {_the(action)}" if action == state.pos[seat] else f"moved to {_the(action)}"
    if action == act.PASS:
        return {5: "drew no event", 13: "gave no map"}.get(phase, "passed")
    if action == act.ATTACK:
        return "called an attack on the galleon"
    if action == act.MUTINY:
        return f"called a mutiny on {_the(state.pos[seat])}"
    if action == act.STEAL_GALLEON:
        return "stole 1 treasure from the galleon"
    if idx.steal <= action < idx.steal + n:
        return f"stole from {player_object((seat + action - idx.steal) % n)}"
    if idx.dispute <= action < idx.dispute + n:
        return f"called a dispute vote against {player_object((seat + action - idx.dispute) % n)}"
    if idx.vote <= action < idx.vote + 3:
        return f"voted {VOTE_CARD_NAMES[action - idx.vote]} (face down)"
    if idx.declare <= action < idx.declare + 2:
        return f"counted {player_their(seat)} Wild as {VOTE_CARD_NAMES[action - idx.declare]}"
    if action == idx.draw:
        return "drew an event card"
    if idx.select <= action < idx.select + n:
        target = player_object((seat + action - idx.select) % n)
        told = {
            4: f"gave {target} 1 treasure of the loot",
            6: f"gave the Treasure Map to {target}",
            8: f"chose to move {target}'s pawn",
            11: f"called a tavern brawl vote against {target}",
            12: f"looked at {target}'s nation with the Spyglass",
            13: f"gave {target} a map in secret",
        }
        return told.get(phase, f"chose {target}").replace("you's", "your")
    return f"chose {_the(SHIP_NODE[action - idx.ship])} for the mutiny"


def describe_action(state: TortugaState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` (``state`` is the state before it).

    Secret to everyone else: a vote card (revealed with the vote), a map given in secret (MAP_GIVE),
    and the victim of a steal unless steals are public (TOR-805).
    """
    who = player_name(seat)
    if viewer != seat:
        idx = act.ActionIndex(state.game.num_players)
        if state.phase == VOTE_PHASE:
            return f"{who} played a vote card face down"
        if state.phase == MAP_GIVE_PHASE:
            return f"{who} decided whether to give a map (secret)"
        if idx.steal <= action < idx.steal + state.game.num_players and not state.game.options["public_steal"]:
            return f"{who} stole from a player {_where(state.pos[seat])} (secret)"
    return f"{who} {_told(state, seat, action)}"


# --- the board (docs/arena-board.md) ----------------------------------------------------------------------


def _crew(state: TortugaState, ship: int) -> list[int]:
    """The seats aboard a ship's berth by rank: its Captain, its First Mate, then the others in seat order."""
    node = SHIP_NODE[ship]
    aboard = [p for p in range(state.game.num_players) if state.pos[p] == node]
    rank = {state.holder(C_ENG + ship): 0, state.holder(FM_ENG + ship): 1}
    return sorted(aboard, key=lambda p: (rank.get(p, 2), p))


def _place(state: TortugaState, node: int, keys: set[str]) -> dict:
    seats = [p for p in range(state.game.num_players) if state.pos[p] == node]
    place = {
        "node": node,
        "place": NODE_TITLES[node],
        "kind": NODE_KINDS[node],
        "seats": seats,
        "capacity": CAPACITY[node],
    }
    if NODE_KINDS[node] == "ship":
        ship = SHIP_NODE.index(node)
        captain, mate = state.holder(C_ENG + ship), state.holder(FM_ENG + ship)
        place.update(
            nation=NATION_NAMES[ship],
            captain=captain if captain >= 0 else None,
            first_mate=mate if mate >= 0 else None,
            crew=_crew(state, ship),
        )
    if node == 4:
        place["treasure"] = state.galleon
    return keyed(place, f"place:{node}", keys)


def _vote_data(state: TortugaState, viewer: int | None, keys: set[str]) -> dict | None:
    vote = state.vote
    if vote is None:
        return None
    voters = []
    for seat in vote["order"]:
        card = vote["cards"][seat]
        shown = card >= 0 and (vote["revealed"] or viewer == seat)
        declared = vote["decl"][seat] if vote["revealed"] and vote["decl"][seat] >= 0 else -1
        voters.append(
            {
                "seat": seat,
                "card": VOTE_CARD_NAMES[card] if shown else None,
                "declared": VOTE_CARD_NAMES[declared] if declared >= 0 else None,
            }
        )
    data = {
        "about": vote_about(vote),
        "kind": VOTE_TYPE_NAMES[vote["type"]].lower(),
        "initiator": vote["initiator"],
        "target": vote["target"] if vote["target"] >= 0 else None,
        "revealed": bool(vote["revealed"]),
        "voters": voters,
    }
    return keyed(data, "vote", keys)


def _last_vote_data(state: TortugaState) -> dict | None:
    """The last finished vote: every card, the Wilds as declared, the neutral die, the result (all public)."""
    vote = state.last_vote
    if vote is None:
        return None
    final = vote["final"]
    voters = [
        {"seat": p, "card": VOTE_CARD_NAMES[vote["cards"][p]], "counted": VOTE_CARD_NAMES[final[p]]}
        for p in range(state.game.num_players)
    ]
    die = vote["die"]
    return {
        "about": vote_about(vote),
        "kind": VOTE_TYPE_NAMES[vote["type"]].lower(),
        "voters": voters,
        "neutral_die": VOTE_CARD_NAMES[die] if die >= 0 else None,
        "yes": final.count(0) + (die == 0),
        "no": final.count(1) + (die == 1),
        "passed": bool(vote["passed"]),
    }


def _board(state: TortugaState, viewer: int | None, keys: set[str]) -> dict:
    game = state.game
    n = game.num_players
    players = []
    for seat in range(n):
        own = viewer == seat or state.game_over
        players.append(
            keyed(
                {
                    "seat": seat,
                    "role": ROLE_WORDS[state.role[seat]],
                    "place": state.pos[seat],
                    "exiled": bool(state.exiled[seat]),
                    "nation": NATION_NAMES[state.nation[seat]] if state.nation_known(viewer, seat) else None,
                    "chest": {
                        "treasure": state.hoard[seat] if own else None,
                        "maps": state.maps[seat] if own else None,
                        "public_treasure": state.pub_treasure[seat],
                        "public_maps": state.pub_maps[seat],
                        "steals": state.steals_made[seat],
                    },
                },
                f"seat:{seat}",
                keys,
            )
        )
    event = None
    if state.event is not None:
        card = state.event["card"]
        event = {"name": CARD_NAMES[card], "detail": EVENT_TEXT[card]}
    loot = None
    if state.loot is not None:
        given = [{"seat": p, "treasure": state.loot["assigned"][p]} for p in range(n) if state.loot["assigned"][p]]
        loot = {"captain": state.loot["captain"], "left": state.loot["left"], "given": given}
    return {
        "kind": "tortuga",
        "round": state.round,
        "max_rounds": game.options["max_rounds"],
        "active": state.active if not state.game_over else None,
        "places": [_place(state, node, keys) for node in range(8)],
        "links": [list(link) for link in sorted({tuple(sorted((a, b))) for a in range(8) for b in NEIGHBOURS[a]})],
        "supply": state.supply,
        "players": players,
        "vote": _vote_data(state, viewer, keys),
        "last_vote": _last_vote_data(state),
        "event": event,
        "event_deck": keyed({"count": len(state.deck)}, "event_deck", keys),
        "loot": loot,
        "log": [{"text": log_text(state, e, viewer), "restates_move": _restates_move(e)} for e in state.log],
    }


# --- the end (Section 7) ----------------------------------------------------------------------------------


def _breakdown(state: TortugaState, seat: int) -> list[tuple[str, float]]:
    """A seat's score is its nation's: every member's treasure, and 2 per map (TOR-703)."""
    items: list[tuple[str, float]] = []
    nation = state.nation[seat]
    for p in [seat, *(q for q in range(state.game.num_players) if q != seat)]:
        if state.nation[p] != nation:
            continue
        who = "own" if p == seat else f"{player_possessive(p, capital=False)}"
        items.append((f"{who} treasure", state.hoard[p]))
        if state.maps[p]:
            items.append((f"{who} maps ({state.maps[p]} x 2)", 2 * state.maps[p]))
    return items


def _verdict(state: TortugaState, seat: int) -> tuple[str, str]:
    nation = NATION_NAMES[state.nation[seat]]
    if state.nation[seat] in state.winning_nations():
        if state.exiled[seat]:
            return "exiled", f"{nation} won, but an exiled player never shares the win"
        return "won", f"loyal to {nation}, the winning nation"
    return "lost", f"loyal to {nation}"


def _ending(state: TortugaState) -> dict:
    if not state.is_terminal():
        return {}
    reason = state.end_reason or "rounds"
    return ending_of(
        state,
        reason=reason,
        why=END_REASONS[reason],
        score_name="treasure",
        breakdown=lambda seat: _breakdown(state, seat),
        verdict=lambda seat: _verdict(state, seat),
        headline="" if state.is_truncated() else result_text(state),
    )


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY, scores_title="treasure")


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
            note = f"{state.supply} treasure in the supply"
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
        Zone(
            title="Event",
            cards=event_cards or (Card.face_down("event"),),
            note=f"{count_of(len(state.deck), 'card')} in the event deck",
        )
    )
    if state.loot is not None:
        loot = state.loot
        zones.append(
            Zone(
                title=f"Loot shared by {player_name(loot['captain'])}",
                cards=tuple(
                    Card(label=f"{player_name(p)} +{loot['assigned'][p]}", kind="treasure")
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
                cards=tuple(Card(label=log_text(state, e, viewer), kind="log") for e in state.log[-6:]),
            )
        )
    title = f"Tortuga 1667 - round {state.round} of {game.options['max_rounds']}, {whose_turn(state, state.active)}"
    if state.game_over:
        title = f"Tortuga 1667 - the end, round {state.round}"
    board = partial(_board, state, viewer)
    return WORDING.table_view(state, viewer, title, zones, board=board, ending=_ending(state))
