"""Dead Man's Draw rules: every worked example (DMD-1201..1224), then edge cases citing rule ids."""

from __future__ import annotations

import numpy as np
import pytest

from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.cards import (
    ABILITY_KEYS,
    CARD_SUIT,
    HOOK,
    KEY,
    LOCKER,
    MARKER,
    ORACLE,
    SWORD,
    deck_cards,
    parse_card,
)
from pirate_envs.games.dead_mans_draw.game import DmdGame
from pirate_envs.games.dead_mans_draw.observation import field_slices
from pirate_envs.games.dead_mans_draw.scenario import cards, scenario

C = parse_card


def held(state, seat) -> list[int]:
    return sorted(c for stack in state.collections[seat] for c in stack)


def game(n=2, **options) -> DmdGame:
    return DmdGame(num_players=n, characters=options.pop("characters", False), **options)


def obs_field(state, seat, name):
    return state.observation(seat)[field_slices(state.game.num_players)[name]]


# --- facts (DMD-201, DMD-212, DMD-1003, DMD-1010) --------------------------------------------------------


def test_dmd_212_deck_totals():
    assert len(deck_cards(False)) == 60 and len(deck_cards(True)) == 60
    from pirate_envs.games.dead_mans_draw.cards import CARD_VALUE

    assert sum(CARD_VALUE[c] for c in deck_cards(False)) == 282
    assert sum(CARD_VALUE[c] for c in deck_cards(True)) == 270
    assert C("Mermaid 9") == 49 and C("Oracle 2") == 50 and C("Sword 7") == 61


@pytest.mark.parametrize("n, actions, size", [(2, 105, 851), (3, 116, 939), (4, 127, 1027)])
def test_dmd_1003_1010_sizes(n, actions, size):
    g = DmdGame(num_players=n)
    assert g.num_actions == actions and g.observation_size == size
    assert act.target_action(n, 1, 0) == 93 + n + 0


def test_dmd_302_starting_discard():
    s = DmdGame(num_players=2).new_initial_state(3)
    assert sorted(s.discard) == sorted(
        C(x)
        for x in [
            "Anchor 2",
            "Cannon 2",
            "Chest 2",
            "Key 2",
            "Hook 2",
            "Kraken 2",
            "Map 2",
            "Mermaid 4",
            "Oracle 2",
            "Sword 2",
        ]
    )
    assert s.phase == act.ABILITY_CHOICE and len(s.draw_pile) == 50 and s.row == []
    t = DmdGame(num_players=2, starting_discard=False, characters=False).new_initial_state(3)
    assert len(t.draw_pile) + len(t.row) + len(t.discard) + len(held(t, t.active)) == 60
    assert len(t.discard) <= len(t.turn_cards) + len(t.last_turn_cards)  # only what this game's play discarded


# --- worked examples --------------------------------------------------------------------------------------


def scoring_state(variant="none", golden=False):
    g = game(variant=variant)
    coll = "Kraken 4, Mermaid 8, Mermaid 5, Map 3, Chest 7, Chest 2, Oracle 7, Key 6, Key 4, Cannon 6"
    return scenario(g, collections={0: coll}, abilities={0: "golden_mermaid"} if golden else None)


def test_dmd_1201_scoring():
    assert scoring_state().live_score(0) == 41
    assert scoring_state("grand_slam").live_score(0) == 26
    assert scoring_state("piri_reis").live_score(0) == 52
    s = scoring_state(golden=True)
    assert s.live_score(0) == 41 and s.final_score(0) == 46
    assert obs_field(s, 0, "scores")[0] == pytest.approx(0.41)


def test_dmd_1202_bust_discards_row():
    s = scenario(game(), row="Key 5, Oracle 3", draw="Key 7")
    s.apply_action(act.DRAW)
    assert {C("Key 5"), C("Oracle 3"), C("Key 7")} <= set(s.discard)
    assert held(s, 0) == [] and s.active == 1 and len(s.turn_cards) >= 1
    assert s.last_turn_busted and s.busts[0] == 1


def test_dmd_1203_anchor_protects_left_cards():
    s = scenario(game(), row="Chest 4, Sword 3, Anchor 5, Hook 6", draw="Sword 7")
    s.apply_action(act.DRAW)
    assert held(s, 0) == cards("Sword 3, Chest 4") or held(s, 0) == sorted(cards("Chest 4, Sword 3"))
    assert {C("Anchor 5"), C("Hook 6"), C("Sword 7")} <= set(s.discard)


@pytest.mark.parametrize("harbor", [True, False])
def test_dmd_1204_safe_harbor(harbor):
    s = scenario(
        game(), row="Chest 4, Anchor 5, Oracle 3", draw="Chest 6", abilities={0: "safe_harbor"} if harbor else None
    )
    discard_before = len(s.discard)
    s.apply_action(act.DRAW)
    if harbor:  # DMD-514b, DMD-517: all four kept, no Key+Chest bonus
        assert held(s, 0) == sorted(cards("Chest 4, Anchor 5, Oracle 3, Chest 6"))
        assert len(s.discard) == discard_before
    else:
        assert held(s, 0) == [C("Chest 4")]


def test_dmd_1205_kraken_forced_draws_bust_without_a_decision():
    s = scenario(game(), active=1, draw="Kraken 4, Key 3, Key 6, Anchor 7")
    s.apply_action(act.STOP)  # P1 stops with an empty row (DMD-521)
    assert s.active == 1 and s.turns_taken[0] == 1  # P0's turn busted at once; P1 to act again
    assert s.last_turn_player == 0 and s.last_turn_busted
    assert s.last_turn_cards == cards("Kraken 4, Key 3, Key 6")
    assert {C("Kraken 4"), C("Key 3"), C("Key 6")} <= set(s.discard)
    assert s.decisions == 1


def test_dmd_1206_kraken_king_at_the_end_of_the_pile():
    g = game()
    s = scenario(
        g,
        row="Key 3",
        draw="Kraken 5, Oracle 4, Chest 5",
        exact_draw=True,
        discard="Anchor 2, Cannon 2, Hook 2, Map 2, Sword 2, Oracle 2",
        abilities={1: "kraken_king"},
    )
    s.apply_action(act.DRAW)
    assert s.is_terminal()
    mine = held(s, 0)
    assert set(cards("Key 3, Kraken 5, Oracle 4, Chest 5")) <= set(mine)
    assert len(mine) == 4 + 4 and len(s.discard) == 2  # 4 bonus cards from the discard pile
    s.check_invariants()


def test_dmd_1206_kraken_king_pushes_four():
    # the first forced draw is a Map: its MAP_PICK pauses the chain with 3 forced draws still pending
    s = scenario(game(), row="Key 3", draw="Kraken 5, Map 4", discard="Anchor 2", abilities={1: "kraken_king"})
    s.apply_action(act.DRAW)
    assert s.phase == act.MAP_PICK and s.tasks == [[0, 3]]
    assert obs_field(s, 0, "forced_draws")[0] == pytest.approx(3 / 8)


def sword_1207(abilities=None):
    return scenario(
        game(),
        row="Chest 3",
        draw="Sword 4",
        collections={0: "Oracle 7, Map 3, Mermaid 8, Key 6", 1: "Anchor 5, Key 4, Oracle 6, Oracle 3"},
        abilities=abilities,
    )


def test_dmd_1207_sword_restriction():
    s = sword_1207()
    s.apply_action(act.DRAW)
    assert s.phase == act.SWORD_TARGET and s.legal_actions() == [95]
    s.apply_action(95)
    assert s.row == cards("Chest 3, Sword 4, Anchor 5")
    assert held(s, 1) == sorted(cards("Key 4, Oracle 6, Oracle 3"))
    s = sword_1207({0: "swordsman"})
    s.apply_action(act.DRAW)
    assert s.legal_actions() == [95, 98, 103]
    s = sword_1207({1: "parry"})
    s.apply_action(act.DRAW)
    assert s.phase == act.DRAW_OR_STOP and s.row == cards("Chest 3, Sword 4")


def test_dmd_1208_map_short_discard_forced_bust():
    s = scenario(game(), row="Key 3, Cannon 5", draw="Map 4", discard="Key 2, Cannon 2")
    s.apply_action(act.DRAW)
    assert s.phase == act.MAP_PICK and s.legal_actions() == [18, 30]
    assert s.discard == [] and sorted(s.offer) == cards("Cannon 2, Key 2")
    offer = obs_field(s, 0, "offer_cards")
    assert offer[C("Key 2")] == 1 and offer[C("Cannon 2")] == 1
    s.apply_action(18)
    assert sorted(s.discard) == sorted(cards("Key 2, Key 3, Cannon 5, Map 4, Cannon 2"))
    assert s.active == 1


@pytest.mark.parametrize("ability", [None, "bounty_hunter"])
def test_dmd_1209_key_chest_short_pile(ability):
    s = scenario(
        game(), row="Key 5, Chest 6, Oracle 4", discard="Anchor 2, Sword 2", abilities={0: ability} if ability else None
    )
    s.apply_action(act.STOP)
    assert held(s, 0) == sorted(cards("Key 5, Chest 6, Oracle 4, Anchor 2, Sword 2"))
    assert s.discard == []


def test_dmd_1209_plunderer():
    s = scenario(
        game(),
        row="Key 5, Chest 6, Oracle 4",
        discard="Anchor 2, Sword 2",
        collections={1: "Hook 7"},
        abilities={0: "plunderer"},
    )
    s.apply_action(act.STOP)
    assert s.phase == act.PLUNDER_PICK and s.legal_actions() == [99]
    assert obs_field(s, 0, "plunder_remaining")[0] == pytest.approx(3 / 20)
    s.apply_action(99)
    assert held(s, 0) == sorted(cards("Key 5, Chest 6, Oracle 4, Hook 7, Anchor 2, Sword 2"))
    assert held(s, 1) == [] and s.discard == []


def test_dmd_1210_nothing_to_target():
    s = scenario(game(), active=1, draw="Hook 5, Cannon 3, Anchor 4")
    s.apply_action(act.STOP)
    assert s.active == 0 and s.phase == act.DRAW_OR_STOP and s.row == [C("Hook 5")]
    s.apply_action(act.DRAW)
    assert s.phase == act.DRAW_OR_STOP and s.row == cards("Hook 5, Cannon 3")


def cannon_1211(abilities=None):
    abilities = abilities or {}
    coll = {1: "Sword 7, Sword 4, Sword 3, Map 5"}
    if abilities.get(1) == "navigator":
        coll[0] = "Key 6, Key 3"
    return scenario(game(), draw="Cannon 3", collections=coll, abilities=abilities)


def test_dmd_1211_cannon_and_modifiers():
    s = cannon_1211()
    s.apply_action(act.DRAW)
    assert s.phase == act.CANNON_TARGET and s.legal_actions() == [101, 104]
    s.apply_action(104)
    assert held(s, 1) == sorted(cards("Sword 4, Sword 3, Map 5")) and C("Sword 7") in s.discard
    s = cannon_1211({0: "master_gunner"})
    s.apply_action(act.DRAW)
    s.apply_action(104)
    assert held(s, 1) == [C("Map 5")]
    s = cannon_1211({0: "scavenger"})
    s.apply_action(act.DRAW)
    s.apply_action(104)
    assert held(s, 0) == [C("Sword 7")] and s.row == [C("Cannon 3")]
    s = cannon_1211({1: "navigator"})
    s.apply_action(act.DRAW)
    s.apply_action(104)
    assert s.phase == act.NAVIGATOR_SELF and s.legal_actions() == [5]
    s.apply_action(5)
    assert held(s, 0) == [C("Key 3")] and C("Key 6") in s.discard and s.phase == act.DRAW_OR_STOP


def test_dmd_1212_chain_order():
    s = scenario(
        game(),
        row="Key 4",
        draw="Hook 5, Anchor 7, Mermaid 9",
        collections={0: "Sword 7, Chest 5", 1: "Map 6, Anchor 4"},
        discard="Hook 2, Oracle 2, Kraken 2",
    )
    s.apply_action(act.DRAW)
    assert s.phase == act.HOOK_SUIT and s.legal_actions() == [4, 11]
    s.apply_action(11)
    assert s.phase == act.SWORD_TARGET and s.legal_actions() == [95, 101]
    s.apply_action(101)
    assert s.row == cards("Key 4, Hook 5, Sword 7, Map 6")
    assert s.phase == act.MAP_PICK and s.legal_actions() == [36, 42, 62]
    s.apply_action(42)
    assert s.row == cards("Key 4, Hook 5, Sword 7, Map 6, Kraken 2, Anchor 7, Mermaid 9")
    assert sorted(s.discard) == sorted(cards("Hook 2, Oracle 2")) and s.phase == act.DRAW_OR_STOP


def test_dmd_1213_miser():
    s = scenario(
        game(),
        row="Key 3",
        draw="Hook 4, Anchor 7",
        collections={0: "Oracle 4, Oracle 3, Sword 5", 1: "Chest 6"},
        abilities={0: "miser"},
    )
    s.apply_action(act.DRAW)
    assert s.legal_actions() == [10, 11]
    s.apply_action(10)
    assert s.phase == act.HOOK_SUIT and s.legal_actions() == [11]  # Oracle 3 excluded
    assert s.known[0] == [C("Anchor 7")]  # the hooked Oracle 4 peeked (DMD-504)
    assert obs_field(s, 0, "miser_first_suit")[ORACLE] == 1
    s.apply_action(11)
    assert s.row == cards("Key 3, Hook 4, Oracle 4, Sword 5")
    assert s.phase == act.SWORD_TARGET and s.legal_actions() == [97]


def test_dmd_1214_captain_hook():
    s = scenario(
        game(), row="Key 3", draw="Hook 5", collections={0: "Map 6"}, discard="Key 2", abilities={0: "captain_hook"}
    )
    s.apply_action(act.DRAW)
    s.apply_action(2 + 6)
    assert s.phase == act.MAP_PICK and s.legal_actions() == [30]
    flags = obs_field(s, 0, "row_hook_protected")
    assert flags[C("Hook 5")] == 1 and flags[C("Map 6")] == 1 and flags.sum() == 2
    s.apply_action(30)
    assert held(s, 0) == sorted(cards("Hook 5, Map 6"))
    assert {C("Key 3"), C("Key 2")} <= set(s.discard)


def test_dmd_1215_rake_diverts_a_forced_draw():
    s = scenario(game(), draw="Kraken 3, Mermaid 7, Map 5, Anchor 7", discard="Anchor 2", abilities={0: "rake"})
    s.apply_action(act.DRAW)
    assert held(s, 0) == [C("Mermaid 7")]
    assert s.phase == act.MAP_PICK and s.row == cards("Kraken 3, Map 5")
    s.apply_action(12 + C("Anchor 2"))
    assert s.phase == act.DRAW_OR_STOP and s.draw_pile[-1] == C("Anchor 7")  # two forced draws used


def test_dmd_1215_fisherman():
    s = scenario(game(), active=1, draw="Kraken 6, Anchor 7", abilities={0: "fisherman"})
    s.apply_action(act.STOP)
    assert s.active == 0 and held(s, 0) == [C("Kraken 6")] and s.row == [] and s.phase == act.DRAW_OR_STOP
    s.apply_action(act.STOP)
    assert held(s, 0) == [C("Kraken 6")] and s.active == 1


def locker_game_state():
    """A real setup where player_0 keeps Davy Jones' Locker (DMD-304, DMD-305)."""
    g = DmdGame(num_players=2)
    for seed in range(500):
        s = g.new_initial_state(seed)
        if LOCKER in s.dealt[0]:
            return s
    raise AssertionError("no seed deals the Locker to player_0")


def test_dmd_1216_locker_designation():
    s = locker_game_state()
    s.apply_action(act.ABILITY_BASE + LOCKER)
    assert s.phase == act.ABILITY_CHOICE and s.decider == 1
    s.apply_action(s.legal_actions()[0])
    assert s.phase == act.LOCKER_TARGET and s.decider == 0 and s.legal_actions() == [94]
    s.apply_action(94)
    assert s.locker_target == 1 and obs_field(s, 1, "locker_target")[0] == 1


@pytest.mark.parametrize("accept", [True, False])
def test_dmd_1216_locker_accept(accept):
    s = scenario(
        game(),
        active=1,
        row="Key 3, Anchor 4, Map 5",
        draw="Key 6, Anchor 7",
        abilities={0: "davy_jones_locker"},
        locker_target=1,
    )
    s.apply_action(act.DRAW)
    assert held(s, 1) == [C("Key 3")]
    assert s.phase == act.LOCKER_ACCEPT and s.current_player() == 0 and s.legal_actions() == [92, 93]
    offer = obs_field(s, 0, "offer_cards")
    assert offer.sum() == 3 and obs_field(s, 0, "row_cards").sum() == 4  # DMD-1012 d
    s.check_invariants()
    s.apply_action(92 if accept else 93)
    lost = sorted(cards("Anchor 4, Map 5, Key 6"))
    if accept:
        assert held(s, 0) == lost
    else:
        assert held(s, 0) == [] and set(lost) <= set(s.discard)
    assert s.active == 0


def test_dmd_1216_locker_holder_banks_nothing():
    s = scenario(game(), row="Sword 5, Chest 3", draw="Anchor 7", abilities={0: "davy_jones_locker"}, locker_target=1)
    s.apply_action(act.STOP)
    assert held(s, 0) == [] and {C("Sword 5"), C("Chest 3")} <= set(s.discard)


@pytest.mark.parametrize("locker", [False, True])
def test_dmd_1217_thieves_island(locker):
    g = game(3, variant="thieves_island")
    s = scenario(
        g,
        active=1,
        row="Oracle 3, Key 5",
        draw="Oracle 6, Anchor 7",
        abilities={0: "davy_jones_locker"} if locker else None,
        locker_target=2 if locker else -1,
    )
    s.apply_action(act.DRAW)
    lost = sorted(cards("Oracle 3, Key 5, Oracle 6"))
    if locker:
        assert held(s, 0) == [] and set(lost) <= set(s.discard)
    else:
        assert held(s, 0) == lost


@pytest.mark.parametrize("siren", [False, True])
def test_dmd_1218_mermaid_variant_and_siren(siren):
    g = game(mermaid_variant=True)
    s = scenario(
        g,
        row="Cannon 5, Key 3",
        draw="Mermaid 6, Anchor 7",
        collections={1: "Chest 4"},
        abilities={1: "siren"} if siren else None,
    )
    s.apply_action(act.DRAW)
    assert s.phase == act.MERMAID_PICK and s.legal_actions() == [21, 31]
    s.apply_action(21)
    if siren:
        assert s.row == cards("Key 3, Mermaid 6") and held(s, 1) == sorted(cards("Cannon 5, Chest 4"))
        assert s.phase == act.DRAW_OR_STOP
    else:
        assert s.row == cards("Key 3, Mermaid 6, Cannon 5") and s.phase == act.CANNON_TARGET


def test_dmd_1219_rake_in_the_mermaid_variant():
    g = game(mermaid_variant=True)
    s = scenario(g, row="Chest 4, Anchor 3, Sword 6", draw="Mermaid 5, Sword 7", abilities={0: "rake"})
    s.apply_action(act.DRAW)
    assert s.phase == act.RAKE_PICK and s.legal_actions() == sorted([26, 13, 72, 57])
    s.apply_action(13)
    assert held(s, 0) == [C("Anchor 3")]
    assert s.row == [*cards("Chest 4, Sword 6, Mermaid 5"), MARKER]
    assert obs_field(s, 0, "marker_position")[0] == pytest.approx(4 / 12)
    s.apply_action(act.DRAW)
    assert held(s, 0) == sorted(cards("Anchor 3, Chest 4, Sword 6, Mermaid 5"))
    assert C("Sword 7") in s.discard


def test_dmd_1220_uncharted_waters():
    s = scenario(game(variant="uncharted_waters"), row="Key 3, Key 5", draw="Map 5")
    s.check_invariants()
    s.apply_action(act.DRAW)
    assert s.last_turn_busted and {C("Key 3"), C("Key 5"), C("Map 5")} <= set(s.discard)


def test_dmd_1221_undertow_elimination():
    g = game(variant="undertow")
    coll = "Anchor 7, Cannon 7, Chest 7, Key 7, Hook 7, Kraken 7, Map 7, Mermaid 4, Oracle 4"
    s = scenario(g, row="Mermaid 9", collections={0: coll})
    assert s.live_score(0) == 57
    s.apply_action(act.STOP)
    assert s.is_terminal() and s.eliminated[0] and s.winners() == [1]
    assert s.returns() == [-1.0, 1.0]
    assert held(s, 0) == [] and len(s.removed) == 10
    s.check_invariants()


def test_dmd_1222_sudden_death_skips_the_bonus():
    g = game(variant="sudden_death")
    s = scenario(
        g,
        row="Sword 7, Key 4, Chest 3",
        collections={0: "Anchor 7, Cannon 7, Hook 7, Kraken 7, Map 7, Mermaid 9"},
        discard="Anchor 2, Oracle 2, Map 2",
    )
    assert s.live_score(0) == 44
    s.apply_action(act.STOP)
    assert s.is_terminal() and s.winners() == [0] and s.live_score(0) == 58
    assert len(s.discard) == 3  # no bonus (DMD-805)


def test_dmd_1223_end_with_bonus():
    s = scenario(
        game(), row="Chest 3, Key 4", draw="Oracle 5", exact_draw=True, discard="Anchor 2, Oracle 2, Map 2, Sword 2"
    )
    s.apply_action(act.DRAW)
    assert s.is_terminal() and len(held(s, 0)) == 6 and len(s.discard) == 1
    assert s.winners() == [0]


def test_dmd_1224_private_peek():
    s = scenario(game(), draw="Oracle 4, Hook 6, Map 3, Sword 5, Anchor 7", abilities={0: "mystic"})
    s.apply_action(act.DRAW)
    top0 = obs_field(s, 0, "known_top").reshape(3, 62)
    assert [int(np.argmax(r)) for r in top0] == cards("Hook 6, Map 3, Sword 5")
    assert not obs_field(s, 1, "known_top").any()
    s.apply_action(act.DRAW)
    top0 = obs_field(s, 0, "known_top").reshape(3, 62)
    assert top0[0, C("Map 3")] == 1 and top0[1, C("Sword 5")] == 1 and not top0[2].any()
    s.apply_action(act.STOP)  # P1's opening draw takes Map 3
    top0 = obs_field(s, 0, "known_top").reshape(3, 62)
    assert top0[0, C("Sword 5")] == 1 and top0.sum() == 1
    assert not obs_field(s, 1, "known_top").any()
    # No leak: resampling for P1 may move Sword 5; for P0 it must stay.
    for k in range(5):
        assert s.resample_hidden(0, k).draw_pile[-1] == C("Sword 5")


# --- edge cases -------------------------------------------------------------------------------------------


def test_dmd_523_empty_deck_mid_kraken_drops_forced_draws():
    s = scenario(game(), row="Key 3", draw="Kraken 5, Anchor 4", exact_draw=True)
    s.apply_action(act.DRAW)
    assert s.is_terminal() and held(s, 0) == sorted(cards("Key 3, Kraken 5, Anchor 4"))


def test_dmd_527_map_with_empty_discard_does_nothing():
    s = scenario(game(), draw="Map 4, Anchor 7")
    s.apply_action(act.DRAW)
    assert s.phase == act.DRAW_OR_STOP and s.row == [C("Map 4")]


def test_dmd_622_misfire_offers_the_whole_discard():
    s = scenario(game(), draw="Map 4, Anchor 7", discard="Anchor 2, Cannon 2, Chest 2, Key 2", abilities={0: "misfire"})
    s.apply_action(act.DRAW)
    assert s.phase == act.MAP_PICK and len(s.legal_actions()) == 4


def test_dmd_520_plunderer_same_opponent_then_discard():
    g = game(3)
    s = scenario(
        g,
        row="Key 5, Chest 6, Oracle 4",
        discard="Anchor 2",
        collections={1: "Hook 7", 2: "Sword 6, Sword 5"},
        abilities={0: "plunderer"},
    )
    s.apply_action(act.STOP)
    base = act.target_base(3)
    assert s.legal_actions() == [base + HOOK, base + 10 + SWORD]
    s.apply_action(base + 10 + SWORD)
    assert s.legal_actions() == [base + 10 + SWORD] and s.plunder_target == 2
    assert obs_field(s, 0, "plunder_target")[1] == 1
    s.apply_action(base + 10 + SWORD)
    assert held(s, 2) == [] and held(s, 0) == sorted(cards("Key 5, Chest 6, Oracle 4, Sword 6, Sword 5, Anchor 2"))


def test_dmd_526_sword_with_nothing_stealable():
    s = scenario(game(), draw="Sword 4, Anchor 7", collections={0: "Key 6", 1: "Key 4"})
    s.apply_action(act.DRAW)
    assert s.phase == act.DRAW_OR_STOP


def test_dmd_528_sword_may_bring_a_busting_card():
    s = scenario(game(), row="Key 3", draw="Sword 4", collections={1: "Key 5"}, abilities={0: "swordsman"})
    s.apply_action(act.DRAW)
    s.apply_action(95 + KEY)
    assert s.last_turn_busted and C("Key 5") in s.discard


def test_dmd_613_fisherman_hooks_own_kraken_back():
    s = scenario(game(), draw="Hook 4, Anchor 7", collections={0: "Kraken 5"}, abilities={0: "fisherman"})
    s.apply_action(act.DRAW)
    s.apply_action(2 + 5)
    assert held(s, 0) == [C("Kraken 5")] and s.row == [C("Hook 4")] and not s.tasks


def test_dmd_1013_undertow_elimination_by_own_bust():
    g = game(3, variant="undertow")
    coll = "Anchor 7, Cannon 7, Chest 7, Key 7, Hook 7, Kraken 7, Map 7, Mermaid 4, Oracle 4"
    s = scenario(g, row="Mermaid 9, Anchor 5, Sword 3", draw="Sword 4, Oracle 7", collections={0: coll})
    s.apply_action(act.DRAW)  # protected Mermaid 9 -> S 62 -> out; the rest of the row is discarded
    assert s.eliminated[0] and not s.is_terminal() and s.active == 1
    assert {C("Anchor 5"), C("Sword 3"), C("Sword 4")} <= set(s.discard)
    s.check_invariants()
    assert all(t != 0 for t in s._cannon_targets())


def test_dmd_1013_navigator_skipped_when_the_cannon_ended_the_game():
    g = game(variant="sudden_death")
    s = scenario(
        g,
        draw="Cannon 3, Anchor 6",
        collections={0: "Anchor 7, Cannon 7, Hook 7, Kraken 7, Map 7, Mermaid 9", 1: "Sword 7"},
        abilities={0: "scavenger", 1: "navigator"},
    )
    s.apply_action(act.DRAW)
    s.apply_action(95 + SWORD)
    assert s.is_terminal() and s.winners() == [0]


def test_dmd_805_sudden_death_mid_plunder():
    g = game(variant="sudden_death")
    s = scenario(
        g,
        row="Key 5, Chest 6",
        collections={0: "Anchor 7, Cannon 7, Hook 7, Kraken 7, Map 7", 1: "Mermaid 9, Sword 7"},
        abilities={0: "plunderer"},
    )
    s.apply_action(act.STOP)  # 35 + 5 + 6 = 46
    assert s.phase == act.PLUNDER_PICK
    s.apply_action(95 + 7)  # Mermaid 9 -> 55 >= 50: wins at once, second pick never asked
    assert s.is_terminal() and s.winners() == [0] and held(s, 1) == [C("Sword 7")]


def test_dmd_702_tie_is_a_shared_win():
    s = scenario(game(), row="Key 5", draw="Anchor 7", exact_draw=True, collections={1: "Chest 5"})
    s.apply_action(act.DRAW)
    assert s.is_terminal() and s.winners() == [0] and s.returns() == [1.0, -1.0]
    t = scenario(game(), row="Chest 5", draw="Anchor 2", exact_draw=True, collections={1: "Key 7"})
    t.apply_action(act.DRAW)
    assert t.winners() == [0, 1] and t.returns() == [1.0, 1.0]


def test_dmd_1020_score_mode():
    s = scenario(game(reward_mode="score"), row="Chest 5", draw="Anchor 7", exact_draw=True, collections={1: "Key 2"})
    s.apply_action(act.DRAW)
    assert s.returns() == pytest.approx([(12 - 2) / 50, (2 - 12) / 50])


def test_dmd_304_ability_choice_is_hidden_until_the_reveal():
    g = DmdGame(num_players=3)
    s = g.new_initial_state(4)
    assert s.phase == act.ABILITY_CHOICE and s.legal_actions() == [74 + a for a in s.dealt[0]]
    first = s.dealt[0][1]
    s.apply_action(74 + first)
    ab = field_slices(3)["abilities"]
    assert s.observation(0)[ab][first] == 1  # own kept shows at once
    assert not s.observation(1)[ab].any()
    s.apply_action(s.legal_actions()[0])
    s.apply_action(s.legal_actions()[0])
    assert s.revealed and s.observation(1)[ab][18 * 2 + first] == 1  # seat 0 is offset 2 from seat 1
    dealt = field_slices(3)["my_dealt_abilities"]
    assert s.observation(1)[dealt].sum() == 2


def test_dmd_231_siren_only_with_the_mermaid_variant():
    pools = set()
    for seed in range(200):
        s = DmdGame(num_players=4).new_initial_state(seed)
        pools.update(a for d in s.dealt for a in d)
    assert ABILITY_KEYS.index("siren") not in pools


def test_dmd_521_stop_with_empty_row_is_legal():
    s = scenario(game(), draw="Anchor 7, Anchor 6", abilities={0: "fisherman"})
    assert act.STOP in s.legal_actions()


def test_dmd_701_golden_mermaid_only_in_final_scoring():
    s = scenario(
        game(),
        row="Mermaid 5",
        draw="Anchor 2",
        exact_draw=True,
        abilities={0: "golden_mermaid"},
        collections={1: "Key 7, Chest 3"},
    )
    s.apply_action(act.DRAW)
    assert s.is_terminal() and s.scores() == [12.0, 10.0] and s.winners() == [0]


def test_dmd_810_moved_kraken_pushes_again():
    g = game(mermaid_variant=True)
    s = scenario(g, row="Kraken 4", draw="Anchor 3, Chest 3, Mermaid 5, Hook 2, Map 3, Oracle 3", discard="")
    s.apply_action(act.DRAW)  # the Kraken in the row resolved earlier: no forced draws now
    assert s.phase == act.DRAW_OR_STOP
    s.apply_action(act.DRAW)
    s.apply_action(act.DRAW)
    assert s.phase == act.MERMAID_PICK
    s.apply_action(12 + C("Kraken 4"))
    assert s.row == cards("Anchor 3, Chest 3, Mermaid 5, Kraken 4, Hook 2, Map 3")
    assert s.phase == act.DRAW_OR_STOP and CARD_SUIT[s.draw_pile[-1]] == ORACLE


def test_dmd_614_kraken_king_own_kraken_draws_two():
    s = scenario(game(), draw="Kraken 5, Map 4", discard="Anchor 2", abilities={0: "kraken_king"})
    s.apply_action(act.DRAW)
    assert s.phase == act.MAP_PICK and s.tasks == [[0, 1]]


def test_dmd_624_parry_still_loses_a_kraken():
    s = scenario(game(), draw="Sword 4, Anchor 7", collections={1: "Kraken 6, Key 4"}, abilities={1: "parry"})
    s.apply_action(act.DRAW)
    assert s.phase == act.SWORD_TARGET and s.legal_actions() == [95 + 5]


def test_dmd_808_uncharted_waters_krakens_stack_and_rightmost_anchor_governs():
    g = game(variant="uncharted_waters")
    s = scenario(g, row="Kraken 3, Anchor 4, Anchor 6, Chest 5", draw="Kraken 2, Map 7", discard="Oracle 2")
    s.apply_action(act.DRAW)  # Kraken 2: no bust (suits may repeat), pushes its own forced draws
    assert s.phase == act.MAP_PICK and s.tasks == [[0, 1]]
    s.apply_action(12 + C("Oracle 2"))  # Oracle 2 busts on value 2 (Kraken 2)
    assert s.last_turn_busted and s.active == 1
    assert held(s, 0) == sorted(cards("Kraken 3, Anchor 4"))  # left of the rightmost Anchor (index 2)


def test_dmd_629_siren_does_not_react_to_a_rake_pick():
    g = game(mermaid_variant=True)
    s = scenario(g, row="Chest 4", draw="Mermaid 5, Anchor 7", abilities={0: "rake", 1: "siren"})
    s.apply_action(act.DRAW)
    assert s.phase == act.RAKE_PICK
    s.apply_action(12 + C("Chest 4"))
    assert held(s, 0) == [C("Chest 4")] and held(s, 1) == [] and s.row == [C("Mermaid 5")]


def test_dmd_618_locker_holder_protected_cards_go_to_the_discard():
    s = scenario(game(), row="Chest 4, Anchor 5", draw="Chest 6", abilities={0: "davy_jones_locker"}, locker_target=1)
    s.apply_action(act.DRAW)
    assert held(s, 0) == [] and {C("Chest 4"), C("Anchor 5"), C("Chest 6")} <= set(s.discard)


def test_dmd_809_eliminated_kraken_king_stops_working():
    g = game(3, variant="undertow")
    s = scenario(g, draw="Kraken 5, Map 4", discard="Anchor 2", abilities={1: "kraken_king"})
    s.eliminated[1] = True
    s.holder[3] = -1  # what elimination does (DMD-809, D38)
    s.apply_action(act.DRAW)
    assert s.tasks == [[0, 1]]


def test_dmd_807_thieves_island_skips_an_eliminated_neighbour():
    g = game(3, variant="thieves_island")
    s = scenario(g, active=2, row="Key 3", draw="Key 5, Anchor 7")
    s.eliminated[1] = True
    s.apply_action(act.DRAW)
    assert held(s, 0) == sorted(cards("Key 3, Key 5"))


def test_dmd_1012b_map_offer_is_out_of_the_discard_pile():
    s = scenario(game(), draw="Map 4, Anchor 7", discard="Anchor 2, Cannon 2, Chest 2, Key 2, Hook 2")
    s.apply_action(act.DRAW)
    obs = s.observation(1)
    sl = field_slices(2)
    assert obs[sl["discard_pile"]].sum() == 2 and obs[sl["offer_cards"]].sum() == 3
    assert not obs[sl["phase"]].any() and s.observation(0)[sl["phase"]][act.MAP_PICK] == 1


@pytest.mark.parametrize("num_players", [2, 3, 4])
def test_dmd_910_resampled_ability_choice_offers_the_redrawn_pair(num_players):
    """DMD-910: another seat's dealt pair is hidden, so in a determinisation the seat choosing picks
    from its redrawn pair; offering its real pair would hand a search bot that seat's secret."""
    game = DmdGame(num_players=num_players)
    for seed in range(40):
        state = game.new_initial_state(seed)
        if state.current_player() == 0:
            state.apply_action(state.legal_actions()[0])  # seat 0 keeps one: seat 1 now chooses
        decider = state.current_player()
        assert decider != 0 and state.phase_name() == "ABILITY_CHOICE"
        copy = state.resample_hidden(0, seed)
        assert copy.legal_actions() == [act.ABILITY_BASE + a for a in copy.dealt[decider]]
        copy.check_invariants()
        if copy.dealt[decider] != state.dealt[decider]:
            assert copy.legal_actions() != state.legal_actions()
