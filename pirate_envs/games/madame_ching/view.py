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

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import Card, TableView, TableWording, Zone, seat_name, seat_name_at, viewer_acts
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import (
    COLOUR,
    COLOUR_NAMES,
    ENC_NAMES,
    ICON,
    ICON_NAMES,
    MISSION_NUMBER,
    NUM_ENC_KINDS,
    SKILL_NAMES,
    TOKEN_NAMES,
    TREASURE_VP,
    card_label,
    mission_label,
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
    act.SELECT: "Pick the navigation card for your junk face down (revealed together, lowest sails first).",
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
CARD_VERB = {
    act.SELECT: "Pick",
    act.NIGHT_SAIL: "Night-sail with",
    act.SALVAGE_CHOOSE: "Salvage",
    act.COMBAT_GIVE: "Give back",
    act.TEAM_RETURN: "Return",
    act.TEAM_GIVE: "Give partner",
}
GLOSSARY = (
    ("12B-L", "navigation card 12, colour B(lue), icon L(antern)"),
    ("colours", "W White, B Blue, G Green, Y Yellow, R Red, P Purple"),
    ("icons", "M Map, L Lantern, S Swords, K Kite, - none"),
    ("(c,r)=v", "sea space in column c, row r; its number v = c x r"),
    ("M08 #10", "mission tile 8, taken by reaching a space numbered 10"),
)


def _nav(card: int, highlight: bool = False) -> Card:
    icon = ICON[card]
    detail = f"Navigation card {card}: {COLOUR_NAMES[COLOUR[card]]}, icon {ICON_NAMES[icon] if icon >= 0 else 'none'}."
    return Card(label=card_label(card), kind=COLOUR_NAMES[COLOUR[card]], detail=detail, highlight=highlight)


def _enc(kind: int) -> Card:
    return Card(label=ENC_NAMES[kind], kind="encounter", detail=ENC_TEXT[kind])


def boat_name(state: MadameChingState, boat: int) -> str:
    g = state.game
    seat = g.boat_owner[boat]
    return f"{seat_name(seat)}{'AB'[boat % 2]}" if g.dual_boats else seat_name(seat)


def _public_score(state: MadameChingState, seat: int) -> int:
    treasure = sum(state.enc_hands[seat][k] * TREASURE_VP[k] for k in range(3))
    return state.seat_score(seat) - treasure


def _label(state: MadameChingState, actor: int, action: int) -> tuple[str, str]:
    n = state.game.num_players
    phase = state.phase
    help_text = PHASE_HELP.get(phase, "")
    if action < act.SLOT_BASE:
        card = action + 1
        return f"{CARD_VERB.get(phase, 'Play')} {card_label(card)}", _nav(card).detail
    if action < act.MISSION_BASE:
        slot = action - act.SLOT_BASE
        card = state.display[slot]
        what = "the face-down card" if slot == 0 else (card_label(card) if card else "an empty slot")
        return f"Take display slot {slot} ({what})", help_text
    if action < act.SKILL_BASE:
        tile = action - act.MISSION_BASE
        return f"Take mission {mission_label(tile)}", help_text
    if action < act.TARGET_BASE + 1:
        skill = action - act.SKILL_BASE
        return f"Take a {SKILL_NAMES[skill]} skill card", SKILL_TEXT[skill]
    if action < act.GEM_BASE + 1:
        offset = action - act.TARGET_BASE
        if phase == act.SIREN_TARGET and state.game.dual_boats:
            return f"Target {seat_name_at(actor, 1, n)}'s junk (offset {offset})", help_text
        return f"Target {seat_name_at(actor, offset, n)}", help_text
    if action < act.PLAY_ENC_BASE + 3:
        return f"Take a {TOKEN_NAMES[action - act.GEM_BASE]} gem", help_text
    if action < act.USE_COMBAT:
        kind = action - act.PLAY_ENC_BASE
        return f"Play {ENC_NAMES[kind]}", ENC_TEXT[kind]
    names = {
        act.USE_COMBAT: ("Use Combat", SKILL_TEXT[2]),
        act.USE_WEATHER: ("Use Weather", SKILL_TEXT[3]),
        act.USE_CARTOGRAPHY: ("Use Cartography", SKILL_TEXT[0]),
        act.GIVE_TO_PARTNER: ("Give it to your partner", help_text),
        act.PASS: ("Pass", help_text),
    }
    return names[action]


def _standing(state: MadameChingState, seat: int, viewer: int | None) -> str:
    """The seat's points as ``viewer`` may know them (the Sacred Treasures in hand are secret until the end)."""
    if seat == viewer or state.is_terminal():
        score = f"{state.seat_score(seat)} points"
    else:
        score = f"{_public_score(state, seat)} points + secret treasures"
    team = f", team {state.game.side_of(seat)}" if state.game.team_mode else ""
    return score + team


def _decision(state: MadameChingState) -> tuple[str, str]:
    return act.PHASES[state.phase].lower().replace("_", " "), PHASE_HELP[state.phase]


def describe_action(state: MadameChingState, seat: int, action: int, viewer: int | None) -> str:
    """What ``viewer`` may read of ``seat`` playing ``action`` (``state`` is the state before it).

    Secret: the card picked in Select (MCH-904), the card given back in Combat (actor and victim
    know it, MCH-911) and the cards passed between partners (MCH-913); the rest is played openly.
    """
    phase = state.phase
    if viewer != seat:
        if phase == act.SELECT:
            return f"{seat_name(seat)} picked a navigation card face down"
        if phase == act.COMBAT_GIVE and viewer != state.pending_target:
            return f"{seat_name(seat)} gave a card back to {seat_name(state.pending_target)}"
        team_pass = phase in (act.TEAM_RETURN, act.TEAM_GIVE) and action != act.PASS
        if team_pass and viewer != state.game.partner(seat):
            return f"{seat_name(seat)} passed a card to their partner"
    return f"{seat_name(seat)}: {_label(state, seat, action)[0]}"


def _boat_zone(state: MadameChingState, boat: int, viewer: int | None) -> Zone:
    g = state.game
    owner = g.boat_owner[boat]
    c, r = state.positions[boat]
    cards = [_nav(x) for x in state.expeditions[boat]]
    if state.revealed and state.shown_picks[boat] and state.picks[boat] == state.shown_picks[boat]:
        # revealed and not placed yet: once placed it is the expedition's last card (shown above)
        cards.append(_nav(state.shown_picks[boat], highlight=True))
    elif not state.revealed and state.picks[boat]:
        cards.append(_nav(state.picks[boat], highlight=True) if viewer == owner else Card.face_down("pick"))
    where = f"({c},{r})={c * r}" if c else "start box"
    flag = " - sailing" if state.active_boat == boat else (" - done" if state.acted[boat] else "")
    title = f"{boat_name(state, boat)} ({JUNK_COLOURS[boat]} junk) at {where}{flag}"
    return Zone(title=title, cards=tuple(cards), owner=owner, note="expedition (last = the picked card)")


def _junk(state: MadameChingState, boat: int) -> Card:
    c, r = state.positions[boat]
    where = f"{c * r}" if c else "start"
    return Card(
        label=f"{boat_name(state, boat)} {where}",
        kind=f"junk {JUNK_COLOURS[boat]}",
        detail=f"{JUNK_COLOURS[boat]} junk of {boat_name(state, boat)} at column {c}, row {r}",
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
            Card(label="known " + card_label(x), kind=COLOUR_NAMES[COLOUR[x]], detail=_nav(x).detail) for x in known
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
    note = f"{len(hand)} cards, {sum(enc)} encounters; gold {t[0]}, gems b/r/w {t[1]}/{t[2]}/{t[3]}"
    extras = [
        name for name, owner in (("China Pearl", state.pearl_owner), ("Hong Kong", state.hk_owner)) if owner == seat
    ]
    if extras:
        note += "; " + ", ".join(extras)
    return Zone(title=f"{seat_name(seat)}: hand and skills", cards=tuple(cards), owner=seat, note=note)


WORDING = TableWording(standing=_standing, label=_label, decision=_decision, glossary=GLOSSARY, scores_title="points")


def table_view(state: MadameChingState, viewer: int | None) -> TableView:
    """The table as ``viewer`` (a seat, or None for a spectator) sees it."""
    g = state.game
    n = g.num_players
    zones = [
        Zone(
            title="The sea (junks)",
            cards=tuple(_junk(state, b) for b in range(g.num_boats)),
            note="lines L1 before column 5, L2 before column 7; Hong Kong = spaces 49 and 56",
        )
    ]
    zones += [_boat_zone(state, b, viewer) for b in range(g.num_boats)]
    display = []
    for slot, card in enumerate(state.display):
        if card:
            display.append(Card.face_down("navigation") if slot == 0 else _nav(card))
    zones.append(
        Zone(
            title="Display (slot 0 face down)",
            cards=tuple(display),
            note=f"nav deck {len(state.nav_deck)}, discard {len(state.nav_discard)}; "
            f"encounter deck {len(state.enc_deck)}",
        )
    )
    zones.append(
        Zone(
            title="Mission slots",
            cards=tuple(
                Card(
                    label=mission_label(t),
                    kind="mission",
                    detail=f"Reach a space numbered {MISSION_NUMBER[t]} to take it.",
                )
                for t in sorted(state.board, key=lambda t: (MISSION_NUMBER[t], t))
            ),
            note=f"{len(state.board)} left; set aside: "
            + (", ".join(f"M{t + 1:02d}" for t in state.set_aside) or "none"),
        )
    )
    zones.append(
        Zone(
            title="Skill stacks",
            cards=tuple(
                Card(label=f"{SKILL_NAMES[k]} x{state.stacks[k]}", kind="skill", detail=SKILL_TEXT[k]) for k in range(5)
            ),
            note=f"supply gold {state.supply[0]}, gems b/r/w {state.supply[1]}/{state.supply[2]}/{state.supply[3]}",
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
    mode = " (teams 0+2 v 1+3)" if g.team_mode else ""
    trigger = ", end triggered" if state.end_triggered else ""
    title = f"Madame Ching{mode} - round {state.round}/{g.round_limit}{trigger}"
    return WORDING.table_view(state, viewer, title, zones)
