"""Pirates of the Spanish Main told as it happens: how the line moved, whether an accusation was right, what the
adventure did, and the next adventure.

Built from two table views of one viewer (``view.py``, their ``board`` data): the line, the fame, the damage,
the revealed pirates, the turn records (PSM-560) and the adventure row are open to all, so this tells nothing
a viewer may not see.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.drawing.table import TableView, names_list, player_name, player_verb

if TYPE_CHECKING:
    from pirate_envs.games.potsm.game import PotsmState


def _ships(board: dict) -> dict[str, dict]:
    return {entry["ship"]: entry for entry in board["line"]}


def _line_moves(old: dict, new: dict) -> list[str]:
    before = _ships(old)
    moved = []
    for entry in new["line"]:
        start = before[entry["ship"]]["position"]
        if start != entry["position"]:
            moved.append(f"{entry['ship']} {start} -> {entry['position']}")
    return ["The line moved: " + ", ".join(moved) + "."] if moved else []


def _reveals(old: dict, new: dict) -> list[str]:
    before = _ships(old)
    lines = []
    for entry in new["line"]:
        was = before[entry["ship"]]
        if entry["owner_known"] == "revealed" and was["owner_known"] != "revealed" and entry["owner"] is not None:
            owner = entry["owner"]
            lines.append(
                f"{player_name(owner)} {player_verb(owner, 'is')} revealed as {entry['pirate']} ({entry['ship']})."
            )
    return lines


def _claims(old: dict, new: dict) -> dict[str, int]:
    """The ships a right accusation took fame from this turn, with the fame taken (the accused pirate's ship)."""
    taken = sum(b["claimed"] - a["claimed"] for a, b in zip(old["pirates"], new["pirates"], strict=True))
    if not taken:
        return {}
    before = _ships(old)
    revealed = [
        e["ship"]
        for e in new["line"]
        if e["owner_known"] == "revealed" and before[e["ship"]]["owner_known"] != "revealed"
    ]
    return {revealed[0]: taken} if len(revealed) == 1 else {}


def _accusation(old: dict, new: dict) -> list[str]:
    """A right accusation reveals the pirate and moves fame to the accuser; a wrong one clears the accused."""
    lines = []
    claims = _claims(old, new)
    for seat, (a, b) in enumerate(zip(old["pirates"], new["pirates"], strict=True)):
        if b["claimed"] > a["claimed"]:
            source = f" from {next(iter(claims))}" if claims else ""
            lines.append(
                f"The accusation was right: {player_name(seat)} took {b['claimed'] - a['claimed']} fame{source}."
            )
    before = _ships(old)
    for entry in new["line"]:
        cleared = sorted(set(entry["not_owners"]) - set(before[entry["ship"]]["not_owners"]))
        if cleared and entry["owner_known"] != "revealed":
            who = names_list([player_name(s) for s in cleared])
            verb = player_verb(cleared[0], "is") if len(cleared) == 1 else "are"
            lines.append(f"Wrong: now everyone knows {who} {verb} not {entry['pirate']}.")
    record = new["record"][0] if new["turn"] > old["turn"] and new["record"] else ""
    if " accused " in record and not lines:  # nothing changed hands and nothing new became known
        right = "(right" in record
        lines.append(
            "The accusation was right, but the ship had no fame to take."
            if right
            else "The accusation was wrong (which was known already)."
        )
    return lines


def _adventure(old: dict, new: dict) -> list[str]:
    """The effect of the adventure resolved this turn (fame won or lost, damage), if one was resolved."""
    resolved = new["adventure_deck"] < old["adventure_deck"] or len(new["adventures"]) < len(old["adventures"])
    if not resolved or not old["adventures"]:
        return []
    name = old["adventures"][0]["name"]
    before = _ships(old)
    claims = _claims(old, new)
    effects = []
    for entry in new["line"]:
        was = before[entry["ship"]]
        change = entry["fame"] - was["fame"] + claims.get(entry["ship"], 0)
        parts = []
        if change:
            parts.append(f"{'+' if change > 0 else ''}{change} fame")
        if entry["damaged"] and not was["damaged"]:
            parts.append("damaged")
        if was["damaged"] and not entry["damaged"]:
            parts.append("repaired")
        if parts:
            effects.append(f"{entry['ship']} {' and '.join(parts)}")
    return [f"Adventure {name}: " + ("; ".join(effects) if effects else "no effect") + "."]


def describe_outcome(before: TableView, after: TableView) -> list[str]:
    """The turn's consequences as the viewer saw them, then the new current adventure when it changes."""
    old, new = before.board, after.board
    if not old or not new:
        return []
    lines = _line_moves(old, new) + _reveals(old, new) + _accusation(old, new) + _adventure(old, new)
    if new["adventures"] and new["adventures"][:1] != old["adventures"][:1]:
        lines.append(f"Next adventure: {new['adventures'][0]['name']} ({new['adventures'][0]['detail']}).")
    return lines


def round_number(state: PotsmState) -> int:
    """Full rounds played: every seat's turn counts once (public)."""
    return state.turn_index // state.game.num_players
