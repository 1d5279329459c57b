"""Text rendering of a Dead Man's Draw position (the ``ansi`` mode of the AEC env).

``viewer=None`` shows public information only; a seat adds its own secrets (its dealt abilities,
its kept ability before the reveal, its Oracle/Mystic peeks).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pirate_envs.games.dead_mans_draw.actions import GAME_OVER, LOCKER_ACCEPT, MAP_PICK, PHASE_NAMES
from pirate_envs.games.dead_mans_draw.cards import (
    ABILITY_NAMES,
    NUM_SUITS,
    SUIT_NAMES,
    SUIT_SHORT,
    VARIANTS,
    card_name,
    card_short,
)

if TYPE_CHECKING:
    from pirate_envs.games.dead_mans_draw.game import DmdState


def render(state: DmdState, viewer: int | None = None) -> str:
    game = state.game
    n = game.num_players
    lines = []
    opts = [f"variant={VARIANTS[state.variant]}"]
    if game.mermaid_variant:
        opts.append("mermaid variant")
    if not game.characters:
        opts.append("no characters")
    lines.append(f"Dead Man's Draw — {n} players — {', '.join(opts)}")
    if state.phase == GAME_OVER:
        who = ", ".join(f"player_{t}" for t in state.winner_seats) or "nobody (truncated)"
        lines.append(f"GAME OVER — winner(s): {who}")
    else:
        lines.append(
            f"Turn of player_{state.active}; decision {PHASE_NAMES[state.phase]} by player_{state.decider}"
            f" (decision {state.decisions})"
        )
    pending = sum(arg for kind, arg in state.tasks if kind == 0)
    lines.append(
        f"Draw pile: {len(state.draw_pile)} cards   Discard pile: {len(state.discard)} cards"
        + (f"   forced draws pending: {pending}" if pending else "")
    )
    row = (
        ", ".join(card_name(e) + (" (hook-safe)" if e in state.hook_protected else "") for e in state.row) or "(empty)"
    )
    lines.append(f"Row: {row}")
    if state.phase in (MAP_PICK, LOCKER_ACCEPT) and state.offer:
        label = "Map offers" if state.phase == MAP_PICK else "Locker offer"
        lines.append(f"{label}: {' '.join(card_short(c) for c in sorted(state.offer))}")
    for t in range(n):
        coll = state.collections[t]
        stacks = []
        for s in range(NUM_SUITS):
            if coll[s]:
                extra = f"+{len(coll[s]) - 1}" if len(coll[s]) > 1 else ""
                stacks.append(f"{card_short(coll[s][-1])}{extra}")
        ability = ""
        if state.revealed and state.kept[t] >= 0:
            ability = f" [{ABILITY_NAMES[state.kept[t]]}]"
        elif viewer == t and state.kept[t] >= 0:
            ability = f" [{ABILITY_NAMES[state.kept[t]]}, hidden]"
        marks = []
        if state.eliminated[t]:
            marks.append("ELIMINATED")
        if state.locker_target == t:
            marks.append("Locker's target")
        if t == state.active and state.phase != GAME_OVER:
            marks.append("to play")
        tail = f" ({', '.join(marks)})" if marks else ""
        lines.append(f"  player_{t}{ability}: S={state.live_score(t):>3}  {' '.join(stacks) or '-'}{tail}")
    if viewer is not None:
        if state.dealt[viewer]:
            lines.append(
                f"You (player_{viewer}) were dealt: {', '.join(ABILITY_NAMES[a] for a in state.dealt[viewer])}"
            )
        pile = state.draw_pile
        peeks = [f"depth {len(pile) - 1 - pile.index(c)}: {card_short(c)}" for c in state.known[viewer]]
        if peeks:
            lines.append(f"You have seen in the draw pile: {', '.join(sorted(peeks))}")
    if state.last_turn_player >= 0:
        cards = " ".join(card_short(c) for c in state.last_turn_cards)
        lines.append(
            f"Last turn: player_{state.last_turn_player} {'BUSTED' if state.last_turn_busted else 'stopped'}: {cards}"
        )
    lines.append(
        "Stacks show the top card (+ cards under it): "
        + " ".join(f"{a}={b}" for a, b in zip(SUIT_SHORT, SUIT_NAMES, strict=True))
    )
    return "\n".join(lines)
