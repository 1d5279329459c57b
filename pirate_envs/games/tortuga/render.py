"""Text rendering of a Tortuga 1667 position (``ansi``): the map with pawns, roles, galleon, the vote.

``viewer=None`` shows public information only; a seat adds what that seat may see (its nation,
hoard and maps, the nations it spied, its own vote card, the victims of its own steals).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.games.tortuga.board import (
    CARD_NAMES,
    LOG_NAMES,
    NATION_NAMES,
    NODE_NAMES,
    ROLE_SHORT,
    VOTE_CARD_NAMES,
    VOTE_TYPE_NAMES,
)

if TYPE_CHECKING:
    from pirate_envs.games.tortuga.game import TortugaState


def draw_map(pawns: list[str]) -> list[str]:
    """The 8-node map (TOR-204): TOR - three lanes - three ship berths - the galleon, pawns in each cell."""
    cell = [f"[{NODE_NAMES[m]} {pawns[m]}]" for m in range(8)]
    wa = len(cell[0])
    wb = max(len(cell[m]) for m in (5, 6, 7))
    wc = max(len(cell[m]) for m in (1, 2, 3))
    pad = " " * wa

    def row(lane: int, ship: int) -> str:
        return f"+--{cell[lane].ljust(wb, '-')}--{cell[ship].ljust(wc, '-')}--+"

    return [
        f"{pad}{row(5, 1)}",
        f"{pad}|{' ' * (wb + wc + 6)}|",
        f"{cell[0]}{row(6, 2)}--{cell[4]}",
        f"{pad}|{' ' * (wb + wc + 6)}|",
        f"{pad}{row(7, 3)}",
    ]


def render_state(state: TortugaState, viewer: int | None) -> str:
    n = state.game.num_players
    pawns = []
    for node in range(8):
        here = [f"p{p}" for p in range(n) if state.pos[p] == node]
        pawns.append(",".join(here) if here else "-")
    lines = [
        f"Tortuga 1667 - round {state.round}/{state.game.options['max_rounds']}, active p{state.active}, "
        f"phase {state.phase_name()}" + (f" (ended: {state.end_reason})" if state.end_reason else ""),
        f"galleon {state.galleon}  supply {state.supply}  event deck {len(state.deck)}",
        *draw_map(pawns),
        "players:",
    ]
    for p in range(n):
        nation = NATION_NAMES[state.nation[p]] if state.nation_known(viewer, p) else "?"
        extra = ""
        if viewer == p or state.game_over:
            extra = f" hoard {state.hoard[p]} maps {state.maps[p]}"
        lines.append(
            f"  p{p}{'*' if viewer == p else ' '} {ROLE_SHORT[state.role[p]]:<6} at {NODE_NAMES[state.pos[p]]:<6} "
            f"nation {nation:<7}{' EXILED' if state.exiled[p] else ''} public treasure {state.pub_treasure[p]:+d} "
            f"public maps {state.pub_maps[p]} steals {state.steals_made[p]}{extra}"
        )
    vote = state.vote
    if vote is not None:
        target = f" vs p{vote['target']}" if vote["target"] >= 0 else ""
        lines.append(f"vote: {VOTE_TYPE_NAMES[vote['type']]} by p{vote['initiator']}{target}")
        for p in vote["order"]:
            card = vote["cards"][p]
            if card < 0:
                shown = "waiting"
            elif vote["revealed"] or viewer == p:
                shown = VOTE_CARD_NAMES[card]
                if vote["decl"][p] >= 0:
                    shown += f" -> {VOTE_CARD_NAMES[vote['decl'][p]]}"
            else:
                shown = "waiting"  # an unrevealed choice looks the same as no choice (TOR-916)
            lines.append(f"  p{p}: {shown}")
    if state.loot is not None:
        lines.append(f"loot: {state.loot['left']} left to assign by p{state.loot['captain']}")
    if state.event is not None:
        lines.append(f"event: {CARD_NAMES[state.event['card']]}")
    if state.log:
        lines.append("log (newest last):")
        lines += ["  " + log_entry_text(state, entry, viewer) for entry in state.log[-6:]]
    if state.game_over:
        scores = state.nation_scores()
        shown = ", ".join(f"{NATION_NAMES[nat]} {scores[nat]}" for nat in state.game.nations_in_play)
        lines.append(f"final: {shown}; winners {[f'p{p}' for p in state.winners()]}")
    return "\n".join(lines)


def log_entry_text(state: TortugaState, entry: list[int], viewer: int | None, name=lambda seat: f"p{seat}") -> str:
    """One log entry as ``viewer`` may read it: a secret steal's victim and amount only for the thief
    and the victim, unless ``public_steal`` (TOR-908). ``name`` writes a seat."""
    kind, actor, target, node, card, value, secret = entry
    visible = secret < 0 or state.game.options["public_steal"] or viewer in (actor, target)
    text = f"{LOG_NAMES[kind]}: {name(actor)}"
    if target >= 0 and visible:
        text += f" -> {name(target)}"
    if node >= 0:
        text += f" at {NODE_NAMES[node]}"
    if card >= 0:
        text += f" [{CARD_NAMES[card]}]"
    if value and visible:
        text += f" ({value:+d})"
    return text
