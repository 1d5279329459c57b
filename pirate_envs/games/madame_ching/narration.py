"""Madame Ching told as it happens: the picks revealed, the junks sailing (lines crossed, Hong Kong), missions and
skills taken, gold, gems and encounter cards won or lost, cards the viewer drew.

Built from two table views of one viewer (``view.py``, their ``board`` data): a card picked in Select is face
down until every seat has picked, then it is revealed on the seat's expedition (MCH-904); an encounter card
drawn by another seat is counted, never named; the rounds are public.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView, count_of, names_list, player_name

if TYPE_CHECKING:
    from pirate_envs.games.madame_ching.game import MadameChingState


def _junk_lines(old: dict, new: dict) -> tuple[list[str], list[int]]:
    """The picks revealed and how the junks sailed; and the seats whose junk ended a voyage."""
    lines = []
    if any(b["revealed_pick"] and not a["revealed_pick"] for a, b in zip(old["junks"], new["junks"], strict=True)):
        picks = [j for j in new["junks"] if j["revealed_pick"]]
        picks.sort(key=lambda j: -j["revealed_pick"]["number"])
        lines.append("Picks revealed: " + "; ".join(f"{j['name']}: {j['revealed_pick']['name']}" for j in picks) + ".")
    ended = []
    for a, b in zip(old["junks"], new["junks"], strict=True):
        if (a["column"], a["row"]) == (b["column"], b["row"]) and len(b["expedition"]) >= len(a["expedition"]):
            continue
        if a["expedition"] and len(b["expedition"]) <= len(a["expedition"]):
            ended.append(b["seat"])
            text = f"{b['name']} ended its voyage on space {a['number']}"
            text += (
                " and went back to the start box" if b["in_start_box"] else f" and set out again to space {b['number']}"
            )
            lines.append(text + ".")
            continue
        start = "the start box" if a["in_start_box"] else f"space {a['number']}"
        text = f"{b['name']} sailed from {start} to space {b['number']}"
        for line in new["lines"]:
            if a["column"] <= line["after_column"] < b["column"]:
                text += f", crossing {line['name']} ({count_of(line['encounters'], 'encounter card')})"
        lines.append(text + ".")
    return lines, ended


def _player_lines(old: dict, new: dict, viewer: int | None) -> list[str]:
    lines = []
    for a, b in zip(old["players"], new["players"], strict=True):
        who = player_name(b["seat"])
        gains = []
        if b["gold"] != a["gold"]:
            gains.append(f"{b['gold'] - a['gold']:+d} gold")
        for colour in ("blue", "red", "white"):
            change = b["gems"][colour] - a["gems"][colour]
            if change:
                gains.append(f"{change:+d} {colour} gem{'s' if abs(change) > 1 else ''}")
        skills_old = Counter(s["skill"] for s in a["skills"])
        skills_new = Counter(s["skill"] for s in b["skills"])
        gains += [f"a {skill} skill card" for skill in (skills_new - skills_old).elements()]
        if gains:
            lines.append(f"{who}: " + ", ".join(gains) + ".")
        change = b["encounter_count"] - a["encounter_count"]
        if change:
            verb = "gained" if change > 0 else "lost"
            lines.append(f"{who} {verb} {count_of(abs(change), 'encounter card')}.")
        if b["seat"] == viewer:
            shown = {slot["card"]["name"] for slot in old["display"] if slot["card"] and not slot["card"].get("hidden")}
            drawn = [card for card in _new_cards(a["hand"], b["hand"]) if card not in shown]
            if drawn:
                lines.append(f"New in your hand: {names_list(drawn)}.")
        if b["china_pearl"] and not a["china_pearl"]:
            lines.append(f"{who} won the China Pearl: the end of the game is near.")
        if b["hong_kong"] and not a["hong_kong"]:
            lines.append(f"{who} reached Hong Kong first and won the Hong Kong Port card.")
    return lines


def _new_cards(before: list[dict], after: list[dict]) -> list[str]:
    """The named cards of a hand that were not in it before (the viewer's own hand)."""
    old = {card["name"] for card in before if not card.get("hidden")}
    return [card["name"] for card in after if not card.get("hidden") and card["name"] not in old]


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """What the move turned up, as the viewer may know it."""
    old, new = before.board, after.board
    if not old or not new:
        return []
    lines, ended = _junk_lines(old, new)
    taken = Counter((m["number"], m["reward"]) for m in old["missions"]) - Counter(
        (m["number"], m["reward"]) for m in new["missions"]
    )
    taker = f"{player_name(ended[0])} took" if len(ended) == 1 else "Taken:"
    lines += [f"{taker} mission {number} ({reward})." for number, reward in taken.elements()]
    lines += _player_lines(old, new, after.viewer)
    if new["end_triggered"] and not old["end_triggered"]:
        lines.append("This is the last round.")
    return lines


def round_number(state: MadameChingState) -> int:
    """The round on the table."""
    return state.round
