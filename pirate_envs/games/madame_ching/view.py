"""The drawn table of Madame Ching for one viewer (a :class:`~pirate_envs.drawing.table.TableView`).

Visibility mirrors ``observation.py`` (Section 9): the junks on the sea grid, the expeditions, the
display slots 1-3, the mission tiles, skills, gold, gems, supplies and the discard piles are open
to all (MCH-905..907, MCH-914, MCH-916); a navigation hand and an encounter hand are face down
except to their owner (counts public; the viewer sees the cards it knows in others' hands,
MCH-917); a card picked in Select is face down until the reveal (MCH-904); display slot 0 is face
down (MCH-906); the pending gift and Combat card are shown to the acting seat alone. Scores shown
to others leave out the Sacred Treasures in hand (they are secret until the end).
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
    player_object,
    player_possessive,
    viewer_acts,
)
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import (
    COLOUR,
    COLOUR_NAMES,
    ENC_NAMES,
    HONG_KONG_SPACES,
    ICON,
    ICON_NAMES,
    LAST_COLUMN,
    LAST_ROW,
    LINE_DRAWS,
    MISSION_NUMBER,
    MISSION_REWARD,
    NUM_ENC_KINDS,
    SKILL_NAMES,
    SKILL_VP,
    TOKEN_NAMES,
    TOKEN_VP,
    TREASURE_VP,
)

if TYPE_CHECKING:
    from pirate_envs.games.madame_ching.game import MadameChingState

JUNK_COLOURS = ("red", "yellow", "blue", "white")
SKILL_TEXT = (  # MCH-601..605
    "Cartography: draw the top navigation card into your hand.",
    "Night Sailing: add a higher hand card to this expedition as a Continue.",
    "Combat: take a random hand card from an opponent, then give them one of yours.",
    "Weather: a move to the right goes down-right instead.",
    "Elite: one use of any of the four skills.",
)
ENC_WORDS = (
    "Sacred Treasure (1 point)",
    "Sacred Treasure (2 points)",
    "Sacred Treasure (3 points)",
    "Thief",
    "Spy",
    "Negotiator",
    "Salvager",
    "Oracle",
    "Siren",
    "Madame Ching",
)
ENC_TEXT = (  # MCH-610..617
    "Sacred Treasure: 1 point if still in hand at the end.",
    "Sacred Treasure: 2 points if still in hand at the end.",
    "Sacred Treasure: 3 points if still in hand at the end.",
    "Thief: take one gem of a colour an opponent owns.",
    "Spy: take a random encounter card from an opponent.",
    "Negotiator: take 2 gold from the supply.",
    "Salvager: take any card of the navigation discard pile into your hand.",
    "Oracle: draw the top navigation card into your hand.",
    "Siren: undo the last move of an opponent's junk.",
    "Madame Ching: take the top card of a skill stack.",
)
PHASE_HELP = {
    act.SELECT: "Pick the navigation card for your junk face down (revealed together, highest sails first).",
    act.WEATHER_PHASE: "Use Weather to turn this move down-right, or not.",
    act.NIGHT_SAIL: "Night Sailing: add a higher hand card to the expedition, or stop.",
    act.MISSION_CHOOSE: "Choose which mission tile of the reached number to take.",
    act.SKILL_CLAIM: "Claim a skill card with the icons of the ended expedition.",
    act.ENC_GIFT: "Keep the encounter card you gained or give it to your partner.",
    act.ACTION: "Play an encounter card, use Combat, or pass.",
    act.THIEF_TARGET: "Thief: choose the opponent to rob.",
    act.THIEF_GEM: "Thief: choose the gem colour to take.",
    act.SPY_TARGET: "Spy: choose the opponent whose encounter card you take.",
    act.SALVAGE_CHOOSE: "Salvager: choose a card of the discard pile.",
    act.SIREN_TARGET: "Siren: choose the junk whose last move is undone.",
    act.MC_SKILL: "Madame Ching: choose the skill stack to take from.",
    act.COMBAT_TARGET: "Combat: choose the opponent to raid.",
    act.COMBAT_GIVE: "Combat: choose the card you give back.",
    act.TAKE: "Take a card from the display.",
    act.CARTO: "Use Cartography to draw a card, or not.",
    act.TEAM_RETURN: "Return a navigation card to your partner.",
    act.TEAM_GIVE: "Give a navigation card to your partner, or pass.",
}
PHASE_DECISION = {
    act.SELECT: "pick your navigation card for this round",
    act.WEATHER_PHASE: "use Weather or not",
    act.NIGHT_SAIL: "sail on by night or stop",
    act.MISSION_CHOOSE: "choose a mission tile",
    act.SKILL_CLAIM: "claim a skill card",
    act.ENC_GIFT: "keep or give the encounter card",
    act.ACTION: "play an encounter card, use Combat, or pass",
    act.THIEF_TARGET: "Thief: choose whom to rob",
    act.THIEF_GEM: "Thief: choose the gem",
    act.SPY_TARGET: "Spy: choose whom to spy on",
    act.SALVAGE_CHOOSE: "Salvager: choose a discarded card",
    act.SIREN_TARGET: "Siren: choose the junk",
    act.MC_SKILL: "Madame Ching: choose a skill stack",
    act.COMBAT_TARGET: "Combat: choose whom to raid",
    act.COMBAT_GIVE: "Combat: choose the card to give back",
    act.TAKE: "take a card from the display",
    act.CARTO: "use Cartography or not",
    act.TEAM_RETURN: "return a card to your partner",
    act.TEAM_GIVE: "give your partner a card, or pass",
}
CARD_VERB = {
    act.SELECT: "Pick",
    act.NIGHT_SAIL: "Sail on by night with",
    act.SALVAGE_CHOOSE: "Salvage",
    act.COMBAT_GIVE: "Give back",
    act.TEAM_RETURN: "Return",
    act.TEAM_GIVE: "Give your partner",
}
CARD_PAST = {
    act.SELECT: "picked",
    act.NIGHT_SAIL: "sailed on by night with",
    act.SALVAGE_CHOOSE: "salvaged",
    act.COMBAT_GIVE: "gave back",
    act.TEAM_RETURN: "returned",
    act.TEAM_GIVE: "gave their partner",
}
GLOSSARY = (
    ("navigation card", "a number 1-55 with a colour and maybe an icon (Map, Lantern, Swords, Kite)"),
    ("sea space", "column c, row r; its number is c x r; Hong Kong is 49 and 56"),
    ("lines", "L1 between columns 4 and 5 (1 encounter card), L2 between 6 and 7 (2 encounter cards)"),
    ("mission", "a tile taken by ending a voyage on a space numbered at least its number"),
)
END_REASONS = {
    "missions_out": "The last mission tile was taken; the round was played out.",
    "china_pearl": "A player won the China Pearl; the round was played out.",
    "rounds": "The last round was played.",
}


def nav_name(card: int) -> str:
    """A navigation card as a player says it: "34 Green (Map)", "9 Blue"."""
    icon = ICON[card]
    return f"{card} {COLOUR_NAMES[COLOUR[card]]}" + (f" ({ICON_NAMES[icon]})" if icon >= 0 else "")


def _nav(card: int, highlight: bool = False) -> Card:
    icon = ICON[card]
    detail = f"Navigation card {card}: {COLOUR_NAMES[COLOUR[card]]}, icon {ICON_NAMES[icon] if icon >= 0 else 'none'}."
    return Card(label=nav_name(card), kind=COLOUR_NAMES[COLOUR[card]], detail=detail, highlight=highlight)


def _enc(kind: int) -> Card:
    return Card(label=ENC_WORDS[kind], kind="encounter", detail=ENC_TEXT[kind])


def mission_reward(tile: int) -> str:
    """What a mission tile gives, in words: "1 gold and an encounter card"."""
    reward = MISSION_REWARD[tile]
    parts = [f"{reward[0]} gold"] if reward[0] else []
    parts += [f"{count_of(reward[t], TOKEN_NAMES[t] + ' gem')}" for t in (1, 2, 3) if reward[t]]
    parts += ["an encounter card"] * reward[4]
    return names_list(parts)


def mission_name(tile: int) -> str:
    return f"mission {MISSION_NUMBER[tile]} ({mission_reward(tile)})"


def boat_name(state: MadameChingState, boat: int, capital: bool = True) -> str:
    """A junk as a player says it: "Your red junk", "Heuristic bot 2's yellow junk"."""
    return f"{player_possessive(state.game.boat_owner[boat], capital)} {JUNK_COLOURS[boat]} junk"


def _public_score(state: MadameChingState, seat: int) -> int:
    treasure = sum(state.enc_hands[seat][k] * TREASURE_VP[k] for k in range(3))
    return state.seat_score(seat) - treasure


def _score_shown(state: MadameChingState, seat: int, viewer: int | None) -> tuple[int, bool]:
    """The seat's score as ``viewer`` may know it, and whether secret Sacred Treasures are left out."""
    if seat == viewer or state.is_terminal():
        return state.seat_score(seat), False
    return _public_score(state, seat), True


def _label(state: MadameChingState, actor: int, action: int) -> tuple[str, str, str, str]:
    """(label, help, the board key it belongs to, its short name there)."""
    phase = state.phase
    help_text = PHASE_HELP.get(phase, "")
    if action < act.SLOT_BASE:
        card = action + 1
        verb = CARD_VERB.get(phase, "Play")
        return f"{verb} {nav_name(card)}", _nav(card).detail, f"card:{action}", verb
    if action < act.MISSION_BASE:
        slot = action - act.SLOT_BASE
        card = state.display[slot]
        what = "the face-down card" if slot == 0 else (nav_name(card) if card else "an empty slot")
        return f"Take {what} from the display", help_text, f"slot:{slot}", "Take it"
    if action < act.SKILL_BASE:
        tile = action - act.MISSION_BASE
        return f"Take {mission_name(tile)}", help_text, f"mission:{tile}", "Take this mission"
    if action < act.TARGET_BASE + 1:
        skill = action - act.SKILL_BASE
        return f"Take a {SKILL_NAMES[skill]} skill card", SKILL_TEXT[skill], f"skill:{skill}", "Take one"
    if action < act.GEM_BASE + 1:
        offset = action - act.TARGET_BASE
        if phase == act.SIREN_TARGET:
            boat = dict(state.target_boats(actor))[offset]
            return f"Undo the last move of {boat_name(state, boat, False)}", help_text, f"junk:{boat}", "Undo its move"
        seat = (actor + offset) % state.game.num_players
        short = {
            act.THIEF_TARGET: "Rob them",
            act.SPY_TARGET: "Spy on them",
            act.COMBAT_TARGET: "Raid them",
        }.get(phase, "Choose them")
        return short.replace("them", player_object(seat)), help_text, f"seat:{seat}", short
    if action < act.PLAY_ENC_BASE + 3:
        gem = TOKEN_NAMES[action - act.GEM_BASE]
        return f"Take a {gem} gem", help_text, "", f"Take a {gem} gem"
    if action < act.USE_COMBAT:
        kind = action - act.PLAY_ENC_BASE
        return f"Play {ENC_WORDS[kind]}", ENC_TEXT[kind], f"encounter:{kind}", "Play it"
    names = {
        act.USE_COMBAT: ("Use Combat", SKILL_TEXT[2]),
        act.USE_WEATHER: ("Use Weather", SKILL_TEXT[3]),
        act.USE_CARTOGRAPHY: ("Use Cartography", SKILL_TEXT[0]),
        act.GIVE_TO_PARTNER: ("Give it to your partner", help_text),
        act.PASS: (
            {act.WEATHER_PHASE: "No Weather", act.CARTO: "No Cartography", act.NIGHT_SAIL: "Stop"}.get(phase, "Pass"),
            help_text,
        ),
    }
    label, detail = names[action]
    return label, detail, "", label


def _standing(state: MadameChingState, seat: int, viewer: int | None) -> str:
    """The seat's points as ``viewer`` may know them (the Sacred Treasures in hand are secret until the end)."""
    score, secret = _score_shown(state, seat, viewer)
    text = f"{score} points" + (" + secret treasures" if secret else "")
    team = f", team {state.game.side_of(seat) + 1}" if state.game.team_mode else ""
    return text + team


def _decision(state: MadameChingState) -> tuple[str, str]:
    return PHASE_DECISION[state.phase], PHASE_HELP[state.phase]


def _told(state: MadameChingState, seat: int, action: int) -> str:
    """``seat``'s move in the past tense (the card picked in Select is secret: see :func:`describe_action`)."""
    phase = state.phase
    if action < act.SLOT_BASE:
        return f"{CARD_PAST.get(phase, 'played')} {nav_name(action + 1)}"
    if action < act.MISSION_BASE:
        slot = action - act.SLOT_BASE
        card = state.display[slot]
        return "took the face-down card of the display" if slot == 0 else f"took {nav_name(card)} from the display"
    if action < act.SKILL_BASE:
        return f"took {mission_name(action - act.MISSION_BASE)}"
    if action < act.TARGET_BASE + 1:
        return f"took a {SKILL_NAMES[action - act.SKILL_BASE]} skill card"
    if action < act.GEM_BASE + 1:
        offset = action - act.TARGET_BASE
        if phase == act.SIREN_TARGET:
            return f"undid the last move of {boat_name(state, dict(state.target_boats(seat))[offset], False)}"
        target = player_object((seat + offset) % state.game.num_players)
        return {
            act.THIEF_TARGET: f"chose to rob {target}",
            act.SPY_TARGET: f"spied on {target}",
            act.COMBAT_TARGET: f"raided {target}",
        }.get(phase, f"chose {target}")
    if action < act.PLAY_ENC_BASE + 3:
        return f"took a {TOKEN_NAMES[action - act.GEM_BASE]} gem"
    if action < act.USE_COMBAT:
        return f"played {ENC_WORDS[action - act.PLAY_ENC_BASE]}"
    return {
        act.USE_COMBAT: "used Combat",
        act.USE_WEATHER: "used Weather",
        act.USE_CARTOGRAPHY: "used Cartography",
        act.GIVE_TO_PARTNER: "gave the encounter card to their partner",
    }.get(
        action,
        {act.WEATHER_PHASE: "used no Weather", act.CARTO: "used no Cartography", act.NIGHT_SAIL: "stopped"}.get(
            phase, "passed"
        ),
    )


def describe_action(state: MadameChingState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` (``state`` is the state before it).

    Secret: the card picked in Select (MCH-904), the card given back in Combat (actor and victim
    know it, MCH-911) and the cards passed between partners (MCH-913); the rest is played openly.
    """
    phase = state.phase
    who = player_name(seat)
    if viewer != seat:
        if phase == act.SELECT:
            return f"{who} picked a navigation card face down"
        if phase == act.COMBAT_GIVE and viewer != state.pending_target:
            return f"{who} gave a card back to {player_object(state.pending_target)}"
        team_pass = phase in (act.TEAM_RETURN, act.TEAM_GIVE) and action != act.PASS
        if team_pass and viewer != state.game.partner(seat):
            return f"{who} passed a card to their partner"
    return f"{who} {_told(state, seat, action)}"


def _boat_zone(state: MadameChingState, boat: int, viewer: int | None) -> Zone:
    owner = state.game.boat_owner[boat]
    cards = [_nav(x) for x in state.expeditions[boat]]
    pick = _pick(state, boat, viewer)
    if pick is not None:
        cards.append(_nav(pick, highlight=True) if pick else Card.face_down("pick"))
    flag = ", sailing now" if state.active_boat == boat else (", done this round" if state.acted[boat] else "")
    title = f"{boat_name(state, boat)} {_junk_where(state, boat)}{flag}"
    return Zone(title=title, cards=tuple(cards), owner=owner, note="expedition (the last card is the newest)")


def _pick(state: MadameChingState, boat: int, viewer: int | None) -> int | None:
    """The card picked this round for ``boat`` as ``viewer`` sees it: the card, 0 (face down), None (none)."""
    if state.revealed and state.shown_picks[boat] and state.picks[boat] == state.shown_picks[boat]:
        return state.shown_picks[boat]  # revealed, not placed yet (once placed it ends the expedition)
    if not state.revealed and state.picks[boat]:
        return state.picks[boat] if viewer == state.game.boat_owner[boat] else 0
    return None


def _junk_where(state: MadameChingState, boat: int) -> str:
    c, r = state.positions[boat]
    return f"on space {c * r} (column {c}, row {r})" if c else "in the start box"


def _junk(state: MadameChingState, boat: int) -> Card:
    c, r = state.positions[boat]
    return Card(
        label=f"{boat_name(state, boat)}: " + (f"space {c * r}" if c else "start box"),
        kind=f"junk {JUNK_COLOURS[boat]}",
        detail=f"{boat_name(state, boat)} {_junk_where(state, boat)}",
        highlight=state.active_boat == boat,
    )


def _hand_zone(state: MadameChingState, seat: int, viewer: int | None) -> Zone:
    hand = state.hands[seat]
    enc = state.enc_hands[seat]
    if viewer == seat:  # MCH-903: the end reveals scores, not hands
        cards = [_nav(x) for x in hand] + [_enc(k) for k in range(NUM_ENC_KINDS) for _ in range(enc[k])]
    else:
        known = sorted(state.known[viewer][seat]) if viewer is not None else []
        cards = [
            Card(label=f"{nav_name(x)} (you know it)", kind=COLOUR_NAMES[COLOUR[x]], detail=_nav(x).detail)
            for x in known
        ]
        cards += [Card.face_down("navigation") for _ in range(max(0, len(hand) - len(known)))]
        cards += [Card.face_down("encounter") for _ in range(sum(enc))]
    skills = state.skills[seat]
    for k in range(5):
        cards += [Card(label=SKILL_NAMES[k], kind="skill", detail=SKILL_TEXT[k]) for _ in range(skills[k])]
        cards += [
            Card(label=f"{SKILL_NAMES[k]} (used)", kind="used skill", detail=SKILL_TEXT[k])
            for _ in range(skills[5 + k])
        ]
    t = state.tokens[seat]
    note = (
        f"{count_of(len(hand), 'navigation card')}, {count_of(sum(enc), 'encounter card')}; {t[0]} gold, "
        f"gems: {t[1]} blue, {t[2]} red, {t[3]} white"
    )
    extras = [
        name for name, owner in (("China Pearl", state.pearl_owner), ("Hong Kong", state.hk_owner)) if owner == seat
    ]
    if extras:
        note += "; " + ", ".join(extras)
    return Zone(title=f"{player_possessive(seat)} hand and skills", cards=tuple(cards), owner=seat, note=note)


# --- the board (docs/arena-board.md) ----------------------------------------------------------------------


def _nav_data(card: int, keys: set[str] = frozenset()) -> dict:
    icon = ICON[card]
    data = {
        "name": nav_name(card),
        "number": card,
        "colour": COLOUR_NAMES[COLOUR[card]],
        "icon": ICON_NAMES[icon] if icon >= 0 else None,
        "detail": _nav(card).detail,
    }
    return keyed(data, f"card:{card - 1}", keys)


def _enc_data(kind: int, keys: set[str]) -> dict:
    data = {
        "name": ENC_WORDS[kind],
        "encounter": ENC_NAMES[kind],
        "points": TREASURE_VP[kind],
        "detail": ENC_TEXT[kind],
    }
    return keyed(data, f"encounter:{kind}", keys)


HIDDEN_NAV = {"hidden": True, "back": "navigation"}


# long: the board's parts (junks, sea, display, missions, skills, hands) in the order of docs/arena-board.md's schema
def _board(state: MadameChingState, viewer: int | None, keys: set[str]) -> dict:
    g = state.game
    n = g.num_players
    junks = []
    for boat in range(g.num_boats):
        c, r = state.positions[boat]
        pick = _pick(state, boat, viewer)
        junk = {
            "boat": boat,
            "seat": g.boat_owner[boat],
            "colour": JUNK_COLOURS[boat],
            "name": boat_name(state, boat),
            "column": c,
            "row": r,
            "number": c * r if c else None,
            "in_start_box": not c,
            "active": state.active_boat == boat,
            "done": bool(state.acted[boat]),
            "expedition": [_nav_data(x) for x in state.expeditions[boat]],
            "pick": None if pick is None else (_nav_data(pick) if pick else dict(HIDDEN_NAV)),
            "revealed_pick": _nav_data(state.shown_picks[boat]) if state.revealed and state.shown_picks[boat] else None,
        }
        junks.append(keyed(junk, f"junk:{boat}", keys))
    display = []
    for slot, card in enumerate(state.display):
        shown = None if not card else (dict(HIDDEN_NAV) if slot == 0 else _nav_data(card))
        display.append(keyed({"slot": slot, "card": shown}, f"slot:{slot}", keys))
    players = []
    for seat in range(n):
        hand = state.hands[seat]
        enc = state.enc_hands[seat]
        if viewer == seat:
            hand_cards = [_nav_data(x, keys) for x in sorted(hand)]
            enc_cards = [_enc_data(k, keys) for k in range(NUM_ENC_KINDS) for _ in range(enc[k])]
        else:
            known = sorted(state.known[viewer][seat]) if viewer is not None else []
            hand_cards = [{**_nav_data(x), "known": True} for x in known]
            hand_cards += [dict(HIDDEN_NAV) for _ in range(max(0, len(hand) - len(known)))]
            enc_cards = [{"hidden": True, "back": "encounter"} for _ in range(sum(enc))]
        skills = [
            {"skill": SKILL_NAMES[k], "used": used, "detail": SKILL_TEXT[k]}
            for k in range(5)
            for used in (False, True)
            for _ in range(state.skills[seat][k + 5 * used])
        ]
        t = state.tokens[seat]
        score, secret = _score_shown(state, seat, viewer)
        player = {
            "seat": seat,
            "team": g.side_of(seat) + 1 if g.team_mode else None,
            "hand_count": len(hand),
            "encounter_count": sum(enc),
            "hand": hand_cards,
            "encounters": enc_cards,
            "skills": skills,
            "gold": t[0],
            "gems": {"blue": t[1], "red": t[2], "white": t[3]},
            "china_pearl": state.pearl_owner == seat,
            "hong_kong": state.hk_owner == seat,
            "score": score,
            "score_secret_part": secret,
            "owes": state.owes[seat] if g.team_mode else 0,
        }
        players.append(keyed(player, f"seat:{seat}", keys))
    pending = []
    if viewer_acts(state, viewer) and state.phase != act.SELECT:
        if state.gift_queue:
            pending.append(_enc_data(state.gift_queue[0], set()))
        if state.combat_card:
            pending.append(_nav_data(state.combat_card))
    missions = sorted(state.board, key=lambda t: (MISSION_NUMBER[t], t))
    return {
        "kind": "madame_ching",
        "round": state.round,
        "round_limit": g.round_limit,
        "end_triggered": bool(state.end_triggered),
        "team_mode": bool(g.team_mode),
        "columns": LAST_COLUMN,
        "rows": LAST_ROW,
        "spaces": [
            {
                "column": c,
                "row": r,
                "number": c * r,
                "hong_kong": (c, r) in HONG_KONG_SPACES,
                "world_end": c == LAST_COLUMN,
            }
            for r in range(1, LAST_ROW + 1)
            for c in range(r, LAST_COLUMN + 1)
        ],
        "lines": [
            {"name": f"L{i + 1}", "after_column": column - 1, "encounters": draws}
            for i, (column, draws) in enumerate(sorted(LINE_DRAWS.items()))
        ],
        "hong_kong": {"spaces": [list(space) for space in HONG_KONG_SPACES], "owner": _owner(state.hk_owner)},
        "china_pearl": {"owner": _owner(state.pearl_owner)},
        "junks": junks,
        "display": display,
        "decks": {
            "navigation": len(state.nav_deck),
            "navigation_discard": len(state.nav_discard),
            "encounter": len(state.enc_deck),
        },
        "discard": [_nav_data(x, keys) for x in state.nav_discard],
        "missions": [
            keyed(
                {
                    "tile": t,
                    "number": MISSION_NUMBER[t],
                    "reward": mission_reward(t),
                    "detail": f"End a voyage on a space numbered {MISSION_NUMBER[t]} or more to take it.",
                },
                f"mission:{t}",
                keys,
            )
            for t in missions
        ],
        "missions_set_aside": [{"number": MISSION_NUMBER[t], "reward": mission_reward(t)} for t in state.set_aside],
        "skill_stacks": [
            keyed({"skill": SKILL_NAMES[k], "count": state.stacks[k], "detail": SKILL_TEXT[k]}, f"skill:{k}", keys)
            for k in range(5)
        ],
        "supply": {
            "gold": state.supply[0],
            "blue gems": state.supply[1],
            "red gems": state.supply[2],
            "white gems": state.supply[3],
        },
        "players": players,
        "pending": pending,
    }


def _owner(seat: int) -> int | None:
    return seat if seat >= 0 else None


# --- the end (Section 7) ----------------------------------------------------------------------------------


def end_reason(state: MadameChingState) -> str:
    """Why a finished game ended: the last mission taken, the China Pearl won, or the last round."""
    if not state.end_triggered:
        return "rounds"
    return "missions_out" if not state.board else "china_pearl"


def _breakdown(state: MadameChingState, seat: int) -> list[tuple[str, float]]:
    """MCH-704: tokens, skill cards, Sacred Treasures in hand, China Pearl, Hong Kong."""
    items: list[tuple[str, float]] = []
    t = state.tokens[seat]
    names = ("gold", "blue gems (2 each)", "red gems (3 each)", "white gems (4 each)")
    for i in range(4):
        if t[i]:
            items.append((f"{t[i]} {names[i]}" if i else f"{t[i]} gold", t[i] * TOKEN_VP[i]))
    s = state.skills[seat]
    for k in range(5):
        count = s[k] + s[5 + k]
        if count:
            items.append((f"{count} {SKILL_NAMES[k]} skill card{'s' if count > 1 else ''}", count * SKILL_VP[k]))
    for k in range(3):
        if state.enc_hands[seat][k]:
            items.append((f"{state.enc_hands[seat][k]} x {ENC_WORDS[k]}", state.enc_hands[seat][k] * TREASURE_VP[k]))
    specials = (("China Pearl", state.pearl_owner), ("Hong Kong Port", state.hk_owner))
    owned = [name for name, owner in specials if owner == seat]
    if owned:  # the rest of the score (MCH-704)
        items.append((" and ".join(owned), state.seat_score(seat) - sum(points for _item, points in items)))
    return items


def _ending(state: MadameChingState) -> dict:
    if not state.is_terminal():
        return {}
    reason = end_reason(state)
    headline = ""
    g = state.game
    winners = list(state.winners())
    if g.team_mode and winners and not state.is_truncated():
        side = g.side_of(winners[0])
        total = sum(state.seat_score(s) for s in range(g.num_players) if g.side_of(s) == side)
        headline = f"Team {side + 1} ({names_list([player_name(w) for w in winners])}) wins with {total} points."
    elif len(winners) > 1 and not state.is_truncated():
        headline = f"{names_list([player_name(w) for w in winners])} tie on points and gems and share the win."
    return ending_of(
        state,
        reason=reason,
        why=END_REASONS[reason],
        score_name="points",
        breakdown=lambda seat: _breakdown(state, seat),
        headline=headline,
    )


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY, scores_title="points")


def table_view(state: MadameChingState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    g = state.game
    n = g.num_players
    zones = [
        Zone(
            title="The sea (junks)",
            cards=tuple(_junk(state, b) for b in range(g.num_boats)),
            note="line L1 between columns 4 and 5, L2 between 6 and 7; Hong Kong is spaces 49 and 56",
        )
    ]
    zones += [_boat_zone(state, b, viewer) for b in range(g.num_boats)]
    display = []
    for slot, card in enumerate(state.display):
        if card:
            display.append(Card.face_down("navigation") if slot == 0 else _nav(card))
    zones.append(
        Zone(
            title="Display (the first card face down)",
            cards=tuple(display),
            note=f"{count_of(len(state.nav_deck), 'navigation card')} in the deck, "
            f"{len(state.nav_discard)} discarded; {count_of(len(state.enc_deck), 'encounter card')} in the deck",
        )
    )
    aside = names_list([f"{MISSION_NUMBER[t]}" for t in state.set_aside]) or "none"
    zones.append(
        Zone(
            title="Missions",
            cards=tuple(
                Card(
                    label=f"Mission {MISSION_NUMBER[t]}: {mission_reward(t)}",
                    kind="mission",
                    detail=f"Reach a space numbered {MISSION_NUMBER[t]} or more to take it.",
                )
                for t in sorted(state.board, key=lambda t: (MISSION_NUMBER[t], t))
            ),
            note=f"{len(state.board)} left; set aside (out of play): {aside}",
        )
    )
    zones.append(
        Zone(
            title="Skill stacks",
            cards=tuple(
                Card(label=f"{SKILL_NAMES[k]} x{state.stacks[k]}", kind="skill", detail=SKILL_TEXT[k]) for k in range(5)
            ),
            note=f"supply: {state.supply[0]} gold, gems: {state.supply[1]} blue, {state.supply[2]} red, "
            f"{state.supply[3]} white",
        )
    )
    zones += [_hand_zone(state, s, viewer) for s in range(n)]
    if viewer_acts(state, viewer) and state.phase != act.SELECT:
        pending = []
        if state.gift_queue:
            pending.append(_enc(state.gift_queue[0]))
        if state.combat_card:
            pending.append(_nav(state.combat_card, highlight=True))
        if pending:
            zones.append(Zone(title="Pending (you alone see it)", cards=tuple(pending), owner=viewer))
    mode = " (teams: seats 1+3 against 2+4)" if g.team_mode else ""
    trigger = ", the last round" if state.end_triggered and not state.is_terminal() else ""
    title = f"Madame Ching{mode} - round {state.round} of {g.round_limit}{trigger}"
    board = partial(_board, state, viewer)
    return WORDING.table_view(state, viewer, title, zones, board=board, ending=_ending(state))
