"""Dead Man's Draw told as it happens: what a viewer saw after a move (cards drawn into the row, busts, banks).

Built from two table views of one viewer (``view.py``, their ``board`` data), so it tells only what that
viewer may see: every card drawn is turned face up into the row for all to see (DMD-401), a bust or a
stop shows the turn's cards (the last turn), and the banks are public.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView, names_list, player_name, player_possessive, player_verb

if TYPE_CHECKING:
    from pirate_envs.games.dead_mans_draw.game import DmdState


def _names(cards: list[dict]) -> list[str]:
    return [card["name"] for card in cards]


def _bank(board: dict, seat: int) -> Counter[str]:
    return Counter(card["name"] for stack in board["banks"][seat]["stacks"] for card in stack["cards"])


def _minus(a: Counter[str], b: Counter[str]) -> list[str]:
    return sorted((a - b).elements())


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """What the move turned up: the cards that came into the row, a bust (what was lost and what was kept) or
    a bank (the cards banked), cards taken from or added to the banks, and a peek at the draw pile."""
    old, new = before.board, after.board
    if not old or not new:
        return []
    lines = []
    turn_over = new["last_turn"] is not None and new["last_turn"] != old["last_turn"]
    row_old, row_new = _names(old["row"]["cards"]), _names(new["row"]["cards"])
    if not turn_over and row_new != row_old:
        if row_new[: len(row_old)] == row_old:
            lines.append("Into the row: " + ", ".join(row_new[len(row_old) :]) + ".")
        else:
            lines.append("The row is now: " + (", ".join(row_new) if row_new else "empty") + ".")
    changed_banks = range(len(new["banks"]))
    if turn_over:
        last = new["last_turn"]
        seat = last["seat"]
        cards = _names(last["cards"])
        kept = _minus(_bank(new, seat), _bank(old, seat))
        drawn = [c for c in cards if c not in row_old]
        who = player_name(seat)
        if last["busted"]:
            busting = f" with {drawn[-1]}" if drawn else ""
            lost = list((Counter(cards) - Counter(kept)).elements())
            text = f"{who} busted{busting}: lost " + (names_list(lost) or "nothing")
            text += f"; kept {names_list(kept)} (safe)." if kept else "."
        else:
            text = f"{who} banked {names_list(kept) or 'nothing'}."
            if drawn:
                text = f"Drew {names_list(drawn)}. " + text
        earlier = old["active"]
        if earlier is not None and earlier != seat and not _minus(_bank(new, earlier), _bank(old, earlier)):
            lines.append(f"{player_possessive(earlier)} turn ended; the row was lost.")
        lines.append(text)
        changed_banks = [s for s in changed_banks if s != seat]
    for seat in changed_banks:
        before_bank, after_bank = _bank(old, seat), _bank(new, seat)
        lost, gained = _minus(before_bank, after_bank), _minus(after_bank, before_bank)
        if lost:
            lines.append(f"{player_possessive(seat)} bank lost {names_list(lost)}.")
        if gained:
            lines.append(f"{player_possessive(seat)} bank gained {names_list(gained)}.")
    peeks_old = {p["depth"]: p["card"]["name"] for p in old["deck"]["peeks"]}
    for peek in new["deck"]["peeks"]:
        if peeks_old.get(peek["depth"]) != peek["card"]["name"] and after.viewer is not None:
            where = "on top of" if peek["depth"] == 1 else f"{peek['depth']} from the top of"
            lines.append(f"You saw {peek['card']['name']} {where} the draw pile.")
    for seat, (a, b) in enumerate(zip(old["banks"], new["banks"], strict=True)):
        shown_now = b["ability"] and not b["ability"].get("hidden") and not b["ability"]["secret"]
        if shown_now and (not a["ability"] or a["ability"].get("hidden") or a["ability"]["secret"]):
            lines.append(f"{player_name(seat)} {player_verb(seat, 'has')} {b['ability']['name']}.")
        if b["eliminated"] and not a["eliminated"]:
            lines.append(f"{player_name(seat)} {player_verb(seat, 'is')} eliminated.")
    return lines


def round_number(state: DmdState) -> int:
    """Full rounds played: every seat's turn counts once (public)."""
    return sum(state.turns_taken) // state.game.num_players
