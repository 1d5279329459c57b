"""Text rendering of a Pirates of the Spanish Main position.

``render(state, None)`` shows public information only (Section 9); ``render(state, seat)`` adds
that seat's own pirates and, in the hand variant, its own hand. Other seats' unrevealed pirates,
hands and deck contents are never shown; at the end every pirate is revealed (PSM-701).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.games.potsm import actions as act
from pirate_envs.games.potsm.cards import (
    ADVENTURE_NAMES,
    ADVENTURE_TEXT,
    MOVE_NAMES,
    NATION_NAMES,
    NATION_OF_SHIP,
    NUM_MOVE_TYPES,
    PIRATE_NAMES,
    SABOTAGE,
    SHIP_NAMES,
)

if TYPE_CHECKING:
    from pirate_envs.games.potsm.game import PotsmState


def _player(seat: int) -> str:
    return f"player_{seat}"


def _cards(counts: list[int]) -> str:
    parts = []
    for card in range(NUM_MOVE_TYPES):
        if counts[card]:
            parts.append(MOVE_NAMES[card] + (f" x{counts[card]}" if counts[card] > 1 else ""))
    return ", ".join(parts) if parts else "(none)"


def owner_known(state: PotsmState, ship: int, viewer: int | None) -> tuple[str, list[int]]:
    """What ``viewer`` may know about the owner of ``ship``'s pirate (PSM-911..913, PSM-561), as (case, seats):
    ``("revealed", [owner])`` (no seat when nobody owns it), ``("yours", [viewer])``, ``("nobody", [])`` once
    every seat is known not to own it, else ``("secret", the seats known not to own it)``."""
    n = state.game.num_players
    owner = state.pirate_owner[ship]
    if state.revealed[ship]:
        return "revealed", [owner] if owner >= 0 else []
    if viewer is not None and owner == viewer:
        return "yours", [viewer]
    excluded = [t for t in range(n) if state.not_owner[ship * n + t]]
    return ("nobody", []) if len(excluded) == n else ("secret", excluded)


def _owner_text(state: PotsmState, ship: int, viewer: int | None) -> str:
    case, seats = owner_known(state, ship, viewer)
    names = ", ".join(_player(t) for t in seats)
    if case == "revealed":
        return names or "unowned"
    if case == "yours":
        return f"you ({names}, secret)"
    if case == "nobody":
        return "unowned (public)"
    return f"? (not {names})" if seats else "?"


def describe_turn(state: PotsmState, record: list[int]) -> str:
    """One public turn record (PSM-560) in words."""
    actor = _player(record[act.RECORD_ACTOR])
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
        result = "correct" if kind == act.TURN_KIND_ACCUSE_CORRECT else "wrong"
        paid = record[act.RECORD_CARD]
        cost = f", paying {MOVE_NAMES[paid]}" if paid >= 0 else ""
        return f"{actor} accused {_player(record[act.RECORD_ACCUSED])} of {PIRATE_NAMES[pirate]} ({result}{cost})"
    name = MOVE_NAMES[kind]
    if kind == SABOTAGE:
        return f"{actor} played {name} on {SHIP_NAMES[ships.index(1)]}"
    moved = [f"{SHIP_NAMES[j]} {'+' if d > 0 else ''}{d}" for j, d in enumerate(ships) if d]
    return f"{actor} played {name}" + (f" ({', '.join(moved)})" if moved else " (no ship moved)")


def render(state: PotsmState, viewer: int | None = None) -> str:
    game = state.game
    n = game.num_players
    lines = [f"{game.display_name} - {n} players, turn {state.turn_index}, start seat {_player(state.start_seat)}"]
    if state.truncated:
        lines.append(f"Truncated after {state.decisions} decisions (no winner).")
    elif state.game_over:
        scores = state.scores()
        winner = state.winner()
        lines.append(
            "Game over. Scores: "
            + ", ".join(f"{_player(s)} {scores[s]:g}" for s in range(n))
            + f". Winner: {_player(winner) if winner is not None else '-'}"
        )
    else:
        lines.append(f"To act: {_player(state.current_seat)} ({state.phase_name()})")
        if state.pending_accusation and viewer == state.current_seat:
            target, pirate = state.pending_accusation
            lines.append(f"  pending accusation: {_player(target)} owns {PIRATE_NAMES[pirate]}")
    lines.append("Line (front to back):")
    for p, ship in enumerate(state.line):
        status = "DAMAGED  " if state.damaged[ship] else "undamaged"
        lines.append(
            f"  {p + 1}. {SHIP_NAMES[ship]:<16} {NATION_NAMES[NATION_OF_SHIP[ship]]:<8} {status} "
            f"fame {state.fame[ship]:>2}  owner {_owner_text(state, ship, viewer)}"
        )
    row = state.adventure_row
    if row:
        lines.append(f"Current adventure: {ADVENTURE_NAMES[row[0]]} - {ADVENTURE_TEXT[row[0]]}")
        if len(row) > 1:
            lines.append("Upcoming: " + ", ".join(ADVENTURE_NAMES[c] for c in row[1:]))
    lines.append(
        f"Adventure deck: {len(state.adventure_deck)} cards; discarded: {sum(state.adventure_discard)}; "
        f"move deck: {len(state.move_deck)}; move discard: {_cards(state.move_discard)}"
    )
    if game.move_cards_in_hand:
        lines.append("Hand sizes: " + ", ".join(f"{_player(s)} {sum(state.hands[s])}" for s in range(n)))
        if viewer is not None:
            lines.append(f"Your hand ({_player(viewer)}): {_cards(state.hands[viewer])}")
    else:
        lines.append(f"Move row: {_cards(state.move_row)}")
    lines.append("Claimed fame: " + ", ".join(f"{_player(s)} {state.claimed[s]}" for s in range(n)))
    if viewer is not None:
        own = [j for j in range(9) if state.pirate_owner[j] == viewer]
        lines.append(
            f"Your pirates ({_player(viewer)}): "
            + ", ".join(f"{PIRATE_NAMES[j]} ({SHIP_NAMES[j]}, position {state.line.index(j) + 1})" for j in own)
        )
    if state.recent_turns:
        lines.append("Last turns (newest first):")
        lines += [f"  {describe_turn(state, record)}" for record in state.recent_turns]
    return "\n".join(lines)
