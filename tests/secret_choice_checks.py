"""Shared check for simultaneous secret choices played as sequential AEC decisions.

Games such as Tortuga 1667 (votes) and Madame Ching (card choice) ask every seat for a secret
choice one seat at a time. Whatever an earlier chooser picked must not show in what the next
seat sees before the reveal: neither its observation, nor its action mask, nor the public or
its own rendering.
"""

from __future__ import annotations

from collections.abc import Callable

import numpy as np

from pirate_envs.core.game import State


def assert_choice_hidden_from_next(state: State, still_secret: Callable[[State], bool]) -> int:
    """Apply every legal action of the seat to act; the next seat must see the same thing after each.

    ``still_secret(successor)`` says whether the successor is still before the reveal (only
    those successors are compared). Returns how many successors were compared, so a caller can
    assert the check was not vacuous.
    """
    chooser = state.current_player()
    views = []
    for action in state.legal_actions():
        nxt = state.clone()
        nxt.apply_action(action)
        if nxt.is_terminal() or not still_secret(nxt):
            continue
        seat = nxt.current_player()
        assert seat != chooser, "a secret choice phase asked the same seat twice in a row"
        views.append((seat, nxt.observation(seat), nxt.legal_action_mask(), nxt.render(seat), nxt.render(None)))
    for seat, obs, mask, own_text, public_text in views[1:]:
        first = views[0]
        assert seat == first[0], "the next chooser depends on an earlier secret choice"
        assert np.array_equal(obs, first[1]), f"seat {seat}'s observation reveals seat {chooser}'s secret choice"
        assert np.array_equal(mask, first[2]), f"seat {seat}'s action mask reveals seat {chooser}'s secret choice"
        assert own_text == first[3], f"seat {seat}'s rendering reveals seat {chooser}'s secret choice"
        assert public_text == first[4], f"the public rendering reveals seat {chooser}'s secret choice"
    return len(views)
