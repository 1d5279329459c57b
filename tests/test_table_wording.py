"""The table helpers every game's view shares (``pirate_envs.drawing.table``): target seats named by offset,
the players' lines, who may act; and potsm's owner knowledge (PSM-561), which its text and its table word alike."""

from __future__ import annotations

import random

import pytest

from pirate_envs.drawing.table import player_title, seat_name_at, viewer_acts
from pirate_envs.games.potsm import PotsmGame
from pirate_envs.games.potsm.cards import SHIP_NAMES
from pirate_envs.games.tortuga import TortugaGame
from pirate_envs.games.tortuga import actions as tortuga_actions


def test_seat_name_at_counts_the_offset_after_the_actor():
    assert seat_name_at(1, 2, 5) == "player_3"
    assert seat_name_at(3, 1, 4) == "player_0"  # past the last seat: around the table


def test_player_title_marks_the_viewer_only():
    assert player_title(2, 2) == "player_2 (you)"
    assert player_title(2, 0) == "player_2"
    assert player_title(2, None) == "player_2"


def test_viewer_acts_only_for_the_seat_to_act_of_a_running_game():
    state = TortugaGame(num_players=5).new_initial_state(3)
    actor = state.current_player()
    assert viewer_acts(state, actor)
    assert not viewer_acts(state, (actor + 1) % 5)
    assert not viewer_acts(state, None)
    rng = random.Random(0)
    while not state.is_terminal():
        state.apply_action(rng.choice(state.legal_actions()))
    assert not any(viewer_acts(state, seat) for seat in range(5))


def test_tortuga_target_labels_name_the_seat_at_the_offset():
    """TOR-1002: a target offset k names the seat (self + k) mod n, in the labels of the actor's legal actions and
    in the board element they belong to."""
    n = 5
    idx = tortuga_actions.ActionIndex(n)
    spans = {idx.steal: "Steal from", idx.dispute: "Dispute with", idx.select: ""}
    rng = random.Random(1)
    checked = 0
    for seed in range(6):
        state = TortugaGame(num_players=n).new_initial_state(seed)
        while not state.is_terminal():
            actor = state.current_player()
            for legal in state.table_view(actor).legal:
                for base, verb in spans.items():
                    if base <= legal.action < base + n:
                        target = (actor + legal.action - base) % n
                        assert legal.label.startswith(verb) and f"player_{target}" in legal.label, legal.label
                        assert legal.target == f"seat:{target}"
                        checked += 1
            state.apply_action(rng.choice(state.legal_actions()))
    assert checked > 20


def _ship_line(text: str, ship_name: str) -> str:
    return next(line for line in text.splitlines() if f" {ship_name} " in line)


@pytest.mark.parametrize(
    ("excluded", "told", "shown"),
    [
        ((), "owner ?", "owner secret."),
        ((1,), "owner ? (not player_1)", "owner secret; known not to be player_1."),
        ((0, 1, 2), "owner unowned (public)", "nobody owns this ship's pirate (public)."),
    ],
)
def test_potsm_unused_pirate_owner_as_the_text_and_the_table_tell_it(excluded, told, shown):
    """PSM-561: what a spectator may know of an unused pirate's owner, once some or all seats are known not
    to own it; the text render and the drawn table say the same thing in their own words."""
    state = PotsmGame(num_players=3).new_initial_state(0)
    ship = state.pirate_owner.index(-1)  # 3 players own 6 of the 9 pirates
    for seat in excluded:
        state.not_owner[ship * 3 + seat] = 1
    position = state.line.index(ship)
    assert _ship_line(state.render(None), SHIP_NAMES[ship]).endswith(told)
    assert state.table_view(None).zones[0].cards[position].detail.endswith(shown)
