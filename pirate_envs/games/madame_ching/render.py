"""Text rendering of a Madame Ching position.

The sea grid with the junks, each expedition line, the display, missions left, skills and scores.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import (
    ENC_NAMES,
    LAST_COLUMN,
    LAST_ROW,
    NUM_ENC_KINDS,
    SKILL_NAMES,
    TREASURE_VP,
    card_label,
    mission_label,
)

if TYPE_CHECKING:
    from pirate_envs.games.madame_ching.game import MadameChingState

JUNK_COLOURS = ("red", "yellow", "blue", "white")


def boat_name(state: MadameChingState, boat: int) -> str:
    g = state.game
    seat = g.boat_owner[boat]
    if g.dual_boats:
        return f"player_{seat}{'AB'[boat % 2]}"
    return f"player_{seat}"


def _boat_letter(state: MadameChingState, boat: int) -> str:
    g = state.game
    if g.dual_boats:
        return "rybw"[boat]
    return "rybw"[boat]


def render_state(state: MadameChingState, viewer: int | None = None) -> str:
    """Public view; a seat ``viewer`` adds its own hand, picks, encounter cards and the face-down card it knows."""
    g = state.game
    lines = []
    mode = " (teams 0+2 v 1+3)" if g.team_mode else ""
    status = "GAME OVER" if state.over else f"{state.phase_name()} (player_{state.current_player()} to act)"
    trig = " — end triggered" if state.end_triggered else ""
    lines.append(f"Madame Ching, {g.num_players} players{mode} — round {state.round}/{g.round_limit}: {status}{trig}")
    # The sea grid: space numbers, junk letters on occupied spaces.
    occupants: dict[tuple[int, int], str] = {}
    for b in range(g.num_boats):
        c, r = state.positions[b]
        occupants[(c, r)] = occupants.get((c, r), "") + _boat_letter(state, b)
    start = "".join(_boat_letter(state, b) for b in range(g.num_boats) if state.positions[b][0] == 0)
    lines.append(f"  start box: {start or '-'}   (L1 between columns 4|5, L2 between 6|7; HK = 49, 56)")
    for r in range(1, LAST_ROW + 1):
        cells = []
        for c in range(1, LAST_COLUMN + 1):
            cell = "" if r > c else occupants.get((c, r), "") or str(c * r)
            cells.append(f"{cell:>4}")
            if c in (4, 6):
                cells.append(" |")
        lines.append("  " + "".join(cells))
    lines.append("  junks: " + ", ".join(f"{_boat_letter(state, b)}={boat_name(state, b)}" for b in range(g.num_boats)))
    for b in range(g.num_boats):
        c, r = state.positions[b]
        exp = " ".join(card_label(x) for x in state.expeditions[b]) or "(empty)"
        where = f"({c},{r})={c * r}" if c else "start"
        pick = f"  pick {card_label(state.shown_picks[b])}" if state.revealed and state.shown_picks[b] else ""
        flag = " *active*" if state.active_boat == b else (" acted" if state.acted[b] else "")
        lines.append(f"  {boat_name(state, b):<10} {where:<9} {exp}{pick}{flag}")
    slots = []
    for s, card in enumerate(state.display):
        slots.append("--" if not card else ("[face down]" if s == 0 else card_label(card)))
    lines.append(
        f"  display: {' | '.join(slots)}   nav deck {len(state.nav_deck)}, discard {len(state.nav_discard)}; "
        f"encounter deck {len(state.enc_deck)}"
    )
    lines.append("  missions: " + (", ".join(mission_label(t) for t in state.board) or "none"))
    stacks = ", ".join(f"{SKILL_NAMES[k]} {state.stacks[k]}" for k in range(5))
    lines.append(
        f"  skill stacks: {stacks}; supply gold {state.supply[0]}, "
        f"gems b/r/w {state.supply[1]}/{state.supply[2]}/{state.supply[3]}"
    )
    for seat in range(g.num_players):
        t = state.tokens[seat]
        sk = state.skills[seat]
        owned = [SKILL_NAMES[k] for k in range(5) for _ in range(sk[k])]
        owned += [f"{SKILL_NAMES[k]}(used)" for k in range(5) for _ in range(sk[5 + k])]
        extras = []
        if state.pearl_owner == seat:
            extras.append("China Pearl")
        if state.hk_owner == seat:
            extras.append("Hong Kong")
        score = f"{state.seat_score(seat)}"
        if seat != viewer and not state.is_terminal():  # MCH-908: Sacred Treasures in hand are secret until the end
            score = f"{state.seat_score(seat) - sum(state.enc_hands[seat][k] * TREASURE_VP[k] for k in range(3))}+?"
        lines.append(
            f"  player_{seat}: score {score}, gold {t[0]}, gems b/r/w {t[1]}/{t[2]}/{t[3]}, "
            f"hand {len(state.hands[seat])}, encounters {sum(state.enc_hands[seat])}, "
            f"skills [{', '.join(owned) or '-'}]{', ' + ', '.join(extras) if extras else ''}"
            + (f", owes {state.owes[seat]}" if g.team_mode and state.owes[seat] else "")
        )
    if viewer is not None:
        hand = " ".join(card_label(c) for c in state.hands[viewer]) or "(empty)"
        lines.append(f"  [player_{viewer} only] hand: {hand}")
        if not state.revealed:
            own = [card_label(state.picks[b]) for b in g.boats_of[viewer] if state.picks[b]]
            if own:
                lines.append(f"  [player_{viewer} only] picked: {' '.join(own)}")
        enc = ", ".join(
            f"{ENC_NAMES[k]} x{state.enc_hands[viewer][k]}" for k in range(NUM_ENC_KINDS) if state.enc_hands[viewer][k]
        )
        lines.append(f"  [player_{viewer} only] encounter cards: {enc or 'none'}")
        if not state.over and state._current_player() == viewer and state.phase != act.SELECT:
            if state.gift_queue:
                lines.append(f"  [player_{viewer} only] gift offer: {ENC_NAMES[state.gift_queue[0]]}")
            if state.combat_card:
                lines.append(f"  [player_{viewer} only] Combat took: {card_label(state.combat_card)}")
    return "\n".join(lines)
