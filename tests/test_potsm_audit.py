"""potsm_v0 rule audit: the parts not covered by the worked examples or the heuristic cross-check.

Accusations (PSM-514..517), Mutiny (PSM-625), the game end and the adventure advance (PSM-526,
PSM-540..543), Fog (PSM-637, PSM-1030), the move deck (PSM-550, 551), the two variants (PSM-802,
PSM-803), scoring and rewards (PSM-702, 703, 1020), truncation (PSM-1031), the action table
(PSM-1040..1052), the observation (PSM-1012, PSM-1060..1082) and hidden information (PSM-901, 902).

Positions are built by overwriting the fields of ``PotsmGame(num_players=n, **options).new_initial_state(seed)``
with helpers that keep card conservation intact, then real actions are applied.
"""

from __future__ import annotations

import numpy as np
import pytest
from potsm_setup import (
    DEFAULT_LINE,
    QUIET,
    arranged,
    play,
    pull_move_card,
    refresh,
    set_adventures,
    set_hand,
    set_line,
    set_move_row,
    to_act,
)

from pirate_envs.core.game import TERMINAL
from pirate_envs.games.potsm import PotsmGame, PotsmState
from pirate_envs.games.potsm import actions as act
from pirate_envs.games.potsm.cards import (
    ANCIENT_RELICS,
    CAUGHT_IN_A_RIP,
    CURSED_SHIP,
    DUTCH_ADVANCE,
    DUTCH_RETREAT,
    ENGLISH_ADVANCE,
    ENGLISH_RETREAT,
    FOG,
    FULL_SPEED_AHEAD,
    ISLAND_DISCOVERY,
    KRAKEN,
    LEGENDARY_TREASURE,
    LOST_AT_SEA,
    MAELSTROM,
    MUTINY,
    SABOTAGE,
    SPANISH_ADVANCE,
    SPANISH_RETREAT,
    TEMPORARY_ALLIANCE,
    TREASURE_MAP,
    VOLCANO,
)
from pirate_envs.games.potsm.observation import field_slices

# Full deals (pirate id -> seat, -1 = unused), PSM-303.
OWNERS = {
    2: [0, 0, 0, 1, 1, 1, -1, -1, -1],
    3: [0, 0, -1, 1, 1, 2, 2, -1, -1],
    4: [0, 0, 1, 1, 2, 2, 3, 3, -1],
}


# --- helpers --------------------------------------------------------------------------------------------


def set_deck_top(state: PotsmState, cards) -> None:
    """Put adventure ``cards`` on top of the deck, the last one on top, keeping the deck size.

    A card not in the deck is taken back from the discard pile and the deck's bottom card goes there instead.
    """
    for card in cards:
        if card in state.adventure_deck:
            state.adventure_deck.remove(card)
        else:
            state.adventure_discard[card] -= 1
            state.adventure_seen[card] -= 1
            bottom = state.adventure_deck.pop(0)
            state.adventure_discard[bottom] += 1
            state.adventure_seen[bottom] += 1
        state.adventure_deck.append(card)


def make(n=4, row=(QUIET,), deck_size=30, moves=None, seat=0, line=DEFAULT_LINE, seed=0, **options) -> PotsmState:
    state = PotsmGame(num_players=n, **options).new_initial_state(seed)
    state.pirate_owner = list(OWNERS[n])
    return arranged(state, row, deck_size, moves, seat, line)


def field(state: PotsmState, seat: int, name: str) -> list[float]:
    return state.observation(seat)[field_slices(state.game.num_players)[name]].tolist()


def ship_rows(state: PotsmState, seat: int, name: str, ship: int) -> list[float]:
    n = state.game.num_players
    return field(state, seat, name)[ship * n : ship * n + n]


# --- accusations: PSM-514..517, PSM-561, PSM-1052 --------------------------------------------------------


@pytest.mark.parametrize(("fame", "stolen"), [(0, 0), (1, 1), (2, 1), (3, 2), (6, 3), (7, 4)])
def test_psm_515_correct_accusation_steals_ceil_half(fame, stolen):
    """PSM-515: ceil(f/2) moves to the accuser's claimed fame; offsets relative to the accuser (n = 3)."""
    state = make(n=3, seat=2)
    set_line(state, DEFAULT_LINE, fame={4: fame})
    state.claimed = [0, 0, 5]
    play(state, act.accuse_action(2, 4))  # seat 2 + offset 2 = seat 1, who holds pirate 4
    assert act.accuse_action(2, 4) == 89
    assert state.fame[4] == fame - stolen and list(state.claimed) == [0, 0, 5 + stolen]
    assert state.revealed[4] == 1
    assert list(state.not_owner[4 * 3 : 4 * 3 + 3]) == [1, 0, 1]  # PSM-561: revealed as seat 1's
    assert ship_rows(state, 0, "ship_revealed_owner", 4) == [0, 1, 0]
    assert ship_rows(state, 1, "ship_revealed_owner", 4) == [1, 0, 0]
    assert ship_rows(state, 2, "ship_revealed_owner", 4) == [0, 0, 1]
    assert field(state, 0, "claimed_fame") == [0, 0, 5 + stolen]
    assert field(state, 1, "claimed_fame") == [0, 5 + stolen, 0]
    assert state.recent_turns[0][: act.RECORD_SHIPS] == [2, act.TURN_KIND_ACCUSE_CORRECT, 1]
    assert state.winner() is None and not state.is_terminal()


def test_psm_514_accusation_legality_revealed_pirates_cannot_be_named():
    """PSM-514 / PSM-1052 / PSM-1110: every unrevealed pirate at every offset, own and unused ones included."""
    state = make(n=3, moves=[SABOTAGE, SABOTAGE, FOG])
    state.revealed[5] = 1  # seat 2's pirate
    for seat in (0, 1):
        state.not_owner[5 * 3 + seat] = 1
    refresh(state)
    accusations = [a for a in state.legal_actions() if a >= act.ACCUSE_BASE]
    assert accusations == [76 + 9 * (k - 1) + j for k in (1, 2) for j in range(9) if j != 5]
    assert max(state.legal_actions()) == 93 == state.game.num_actions - 1
    # naming one's own pirate (0) or an unused one (7) is legal and always wrong
    play(state, act.accuse_action(1, 0))
    assert state.not_owner[0 * 3 + 1] == 1 and not state.revealed[0]
    to_act(state, 0)
    play(state, act.accuse_action(2, 7))
    assert state.not_owner[7 * 3 + 2] == 1 and not state.revealed[7]
    assert list(state.accusation_tally[0:9]) == [1, 0, 0, 0, 0, 0, 0, 1, 0]


def test_psm_514_two_players_have_only_offset_1():
    """PSM-1003 / PSM-1052: n = 2 -> 85 actions, accusations 76..84 (offset 1)."""
    state = make(n=2, moves=[SABOTAGE, SABOTAGE, FOG])
    state.revealed[3] = 1
    state.not_owner[3 * 2 + 0] = 1
    refresh(state)
    assert state.game.num_actions == 85
    assert [a for a in state.legal_actions() if a >= 76] == [76 + j for j in range(9) if j != 3]


def test_psm_516_wrong_accusation_public_fact_at_the_right_offsets():
    """PSM-516 / PSM-561 / PSM-1065: seat 2 wrongly accuses seat 0 (offset 1) of pirate 4 (n = 3)."""
    state = make(n=3, seat=2)
    set_line(state, DEFAULT_LINE, fame={4: 5})
    play(state, act.accuse_action(1, 4))
    assert state.fame[4] == 5 and list(state.claimed) == [0, 0, 0] and not any(state.revealed)
    assert list(state.not_owner) == [1 if i == 4 * 3 + 0 else 0 for i in range(27)]
    assert ship_rows(state, 0, "ship_not_owner", 4) == [1, 0, 0]  # seat 0 is offset 0 for itself
    assert ship_rows(state, 1, "ship_not_owner", 4) == [0, 0, 1]  # seat 0 is offset 2 from seat 1
    assert ship_rows(state, 2, "ship_not_owner", 4) == [0, 1, 0]  # seat 0 is offset 1 from seat 2
    for seat in range(3):
        assert not any(field(state, seat, "ship_revealed_owner"))
    assert state.recent_turns[0][: act.RECORD_SHIPS] == [2, act.TURN_KIND_ACCUSE_WRONG, 0]
    to_act(state, 2)
    assert act.accuse_action(1, 4) in state.legal_actions()  # still legal (PSM-1110)


def test_psm_517_revealed_ship_is_still_hit_and_still_scores():
    """PSM-517: a revealed ship still gains and loses fame by adventures and scores for its owner."""
    state = make(n=4, row=[CURSED_SHIP], deck_size=0)
    set_line(state, DEFAULT_LINE, fame={0: 4, 3: 2})
    play(state, act.accuse_action(1, 3))  # seat 1 holds pirate 3 at position 2: steal 1, ship keeps 1
    assert state.claimed[0] == 1 and state.fame[3] == 0  # then Cursed Ship took 1 from it
    assert state.fame[0] == 3 and state.is_terminal()
    assert state.scores() == [4.0, 0.0, 0.0, 0.0]


# --- Mutiny: PSM-625, PSM-1213, PSM-1214 ------------------------------------------------------------------


def test_psm_625_mutiny_owner_may_be_the_active_seat():
    """PSM-625: frontmost unrevealed ship is the active seat's own, damaged -> revealed, loses ceil(3/2) = 2."""
    state = make(n=4, row=[MUTINY], deck_size=10)
    set_line(state, DEFAULT_LINE, damaged=[0], fame={0: 3})
    deck_before = len(state.adventure_deck)
    play(state, act.PASS_ACTION)
    assert state.revealed == [1, 0, 0, 0, 0, 0, 0, 0, 0] and state.fame[0] == 1 and state.damaged[0] == 1
    assert list(state.not_owner[0:4]) == [0, 1, 1, 1]
    assert list(state.claimed) == [0, 0, 0, 0]  # the lost fame leaves the game
    assert ship_rows(state, 0, "ship_revealed_owner", 0) == [1, 0, 0, 0]
    assert ship_rows(state, 3, "ship_revealed_owner", 0) == [0, 1, 0, 0]
    # PSM-527: Mutiny awards nothing: discarded, no blind card taken
    assert state.adventure_discard[MUTINY] == 1 and sum(state.blind_fame_cards) == 0
    assert len(state.adventure_deck) == deck_before - 1
    to_act(state, 1)
    assert not {act.accuse_action(k, 0) for k in (1, 2, 3)} & set(state.legal_actions())


def test_psm_625_mutiny_skips_revealed_ships_and_zero_fame_only_reveals():
    """PSM-625 / PSM-517: ships 0, 3, 6 (positions 1-3) revealed -> ship 1 at position 4 (fame 0) is hit."""
    state = make(n=4, row=[MUTINY], deck_size=10)
    set_line(state, DEFAULT_LINE, fame={0: 5, 3: 5, 6: 5, 4: 8})
    for ship in (0, 3, 6):
        state._reveal_pirate(ship)
    play(state, act.PASS_ACTION)
    assert state.revealed == [1, 1, 0, 1, 0, 0, 1, 0, 0]
    assert list(state.fame) == [5, 0, 0, 5, 8, 0, 5, 0, 0]
    assert ship_rows(state, 2, "ship_revealed_owner", 1) == [0, 0, 1, 0]  # seat 0 is offset 2 from seat 2


def test_psm_1214_mutiny_on_unowned_ship_makes_it_public_for_all_seats():
    """PSM-625 / PSM-1214 / PSM-561: unowned target -> no change but every seat's not-owner row is all ones."""
    state = make(n=3, row=[MUTINY], deck_size=10, line=[7, 0, 3, 6, 1, 4, 2, 5, 8])
    set_line(state, [7, 0, 3, 6, 1, 4, 2, 5, 8], fame={7: 5}, damaged=[7])
    state.not_owner[7 * 3 + 1] = 1  # an earlier wrong accusation
    play(state, act.PASS_ACTION)
    assert state.fame[7] == 5 and not any(state.revealed) and list(state.claimed) == [0, 0, 0]
    assert list(state.not_owner[7 * 3 : 7 * 3 + 3]) == [1, 1, 1]
    for seat in range(3):
        assert ship_rows(state, seat, "ship_not_owner", 7) == [1, 1, 1]
        assert not any(field(state, seat, "ship_revealed_owner"))
    assert state.adventure_discard[MUTINY] == 1
    # every determinisation keeps ship 7 unowned
    for seed in range(20):
        assert state.resample_hidden(1, seed).pirate_owner[7] == -1


# --- adventure advance and game end: PSM-526, PSM-540..543, PSM-701 ---------------------------------------


def test_psm_526_blind_fame_from_the_deck_top_and_adventure_seen():
    """PSM-526: Island Discovery, 4 undamaged recipients -> card + 3 blind cards; the 4th card becomes current."""
    state = make(n=4, row=[ISLAND_DISCOVERY], deck_size=10)
    set_deck_top(state, [VOLCANO, ANCIENT_RELICS, MAELSTROM, LEGENDARY_TREASURE])  # LEGENDARY on top
    seen_before = list(state.adventure_seen)
    discard_before = list(state.adventure_discard)
    play(state, act.PASS_ACTION)
    assert [state.fame[j] for j in DEFAULT_LINE[:4]] == [1, 1, 1, 1] and sum(state.fame) == 4
    assert state.adventure_row == [VOLCANO] and len(state.adventure_deck) == 6
    blind = [0] * 24
    for card in (ANCIENT_RELICS, MAELSTROM, LEGENDARY_TREASURE):
        blind[card] += 1
    assert state.blind_fame_cards == blind
    assert state.adventure_discard == discard_before  # the card became fame, nothing was discarded
    expected_seen = list(seen_before)
    expected_seen[VOLCANO] += 1  # only the card turned face up is seen
    assert list(state.adventure_seen) == expected_seen
    assert field(state, 2, "adventure_seen") == expected_seen
    assert field(state, 2, "adventure_deck_size") == [6]


def test_psm_541_virtual_fame_and_end_in_the_same_turn():
    """PSM-526 / PSM-541: Legendary Treasure, deck 2 -> 2 blind + 1 virtual; the game ends this turn."""
    state = make(n=4, row=[LEGENDARY_TREASURE], deck_size=2)
    play(state, act.PASS_ACTION)
    assert state.fame[0] == 2 and state.fame[3] == 2 and sum(state.fame) == 4
    assert sum(state.blind_fame_cards) == 2 and state.adventure_deck == [] and state.adventure_row == []
    assert state.is_terminal() and not state.is_truncated()
    assert state.scores() == [2.0, 2.0, 0.0, 0.0]  # ship 0 -> seat 0, ship 3 -> seat 1 (OWNERS[4])


def test_psm_540_base_game_ends_only_when_a_card_must_be_drawn():
    """PSM-540 / PSM-543: deck 1 -> the next turn still plays; then the deck is empty and the game ends."""
    state = make(n=3, row=[QUIET], deck_size=1, seat=1)
    last = state.adventure_deck[-1]
    play(state, act.PASS_ACTION)
    assert not state.is_terminal() and state.adventure_row == [last] and state.adventure_deck == []
    assert state.current_player() == 2
    play(state, act.REPAIR_ACTION)
    assert state.is_terminal() and state.current_player() == TERMINAL and state.legal_actions() == []
    assert state.phase_name() == "GAME_OVER" and state.adventure_row == []
    assert state.turn_index == 2 and state.decisions == 2


def test_psm_701_terminal_observation():
    """PSM-701 / PSM-1012: at the end every owner is shown, unused ships are nobody's, no phase or adventure."""
    state = make(n=3, row=[QUIET], deck_size=0, seat=1)
    state.start_seat = 2
    play(state, act.PASS_ACTION)
    assert state.is_terminal() and state.revealed == [1] * 9
    for seat in range(3):
        revealed = np.array(field(state, seat, "ship_revealed_owner")).reshape(9, 3)
        not_owner = np.array(field(state, seat, "ship_not_owner")).reshape(9, 3)
        for j in range(9):
            owner = OWNERS[3][j]
            if owner < 0:
                assert not revealed[j].any() and not_owner[j].tolist() == [1, 1, 1]
            else:
                k = (owner - seat) % 3
                assert revealed[j].tolist() == [1 if i == k else 0 for i in range(3)]
                assert not_owner[j].tolist() == [0 if i == k else 1 for i in range(3)]
        assert field(state, seat, "my_pirates") == [1 if o == seat else 0 for o in OWNERS[3]]
        assert not any(field(state, seat, "phase")) and not any(field(state, seat, "pending_accusation"))
        assert not any(field(state, seat, "current_adventure")) and not any(field(state, seat, "upcoming_adventures"))
        assert field(state, seat, "turn_index") == [1]
        assert field(state, seat, "start_seat") == [1 if k == (2 - seat) % 3 else 0 for k in range(3)]
        assert field(state, seat, "recent_turns")[:3] == [1 if k == (1 - seat) % 3 else 0 for k in range(3)]


# --- Fog: PSM-637, PSM-542, PSM-1030 ---------------------------------------------------------------------


def test_psm_542_fog_keeps_the_upcoming_row_and_the_last_card():
    """PSM-542 / PSM-637: with deck 0 and the row full, Fog changes no adventure state and does not end the game."""
    state = make(
        n=3, row=[KRAKEN, VOLCANO, MAELSTROM], deck_size=0, moves=[FOG, SABOTAGE, SABOTAGE], upcoming_adventures=True
    )
    state.fame[3] = 2
    seen = list(state.adventure_seen)
    play(state, act.FOG_ACTION)
    assert state.adventure_row == [KRAKEN, VOLCANO, MAELSTROM] and list(state.adventure_seen) == seen
    assert not any(state.damaged) and state.fame[3] == 2 and not state.is_terminal()
    assert state.current_player() == 1 and state.turn_index == 1
    assert state.move_discard[FOG] == 1 and sum(state.move_row) == 3
    assert state.recent_turns[0] == [0, FOG, -1, 0, 0, 0, 0, 0, 0, 0, 0, 0, -1]
    assert not any(state.move_tally)  # Fog targets no ship
    assert field(state, 1, "turn_index") == [1]


def test_psm_542_fog_on_the_last_card_of_the_base_game():
    """PSM-542 / PSM-540: deck 0; Fog leaves the last card current, so the game goes on to the next seat."""
    state = make(n=2, row=[CURSED_SHIP], deck_size=0, moves=[FOG, SABOTAGE, SABOTAGE], seat=1)
    set_line(state, DEFAULT_LINE, fame={0: 1})
    play(state, act.FOG_ACTION)
    assert not state.is_terminal() and state.adventure_row == [CURSED_SHIP] and state.fame[0] == 1
    assert state.current_player() == 0 and state.turn_index == 1
    play(state, act.PASS_ACTION)
    assert state.is_terminal() and state.fame[0] == 0 and state.turn_index == 2


def _longest_game(n: int, seed: int, **options) -> tuple[int, int]:
    """Play to stretch the game: Fog whenever possible, else cycle the move cards (PSM-1030)."""
    state = PotsmGame(num_players=n, **options).new_initial_state(seed)
    fogs = 0
    while not state.is_terminal():
        legal = state.legal_actions()
        if act.FOG_ACTION in legal:
            action = act.FOG_ACTION
            fogs += 1
        elif state.phase == 1:
            action = legal[0]
        elif options.get("move_cards_in_hand") and legal[-1] >= act.ACCUSE_BASE:
            action = legal[-1]
        else:
            discards = [a for a in legal if act.PASS_DISCARD_BASE <= a < act.ACCUSE_DISCARD_BASE]
            action = discards[0] if discards else act.PASS_ACTION
        state.apply_action(action)
    assert not state.is_truncated()
    return state.decisions, fogs


@pytest.mark.parametrize("n", [2, 3, 4])
def test_psm_1030_fog_bound(n):
    """PSM-1030: Fog-greedy play stays within <= 3 Fogs / 61 decisions (base) and <= 5 / 71 (hand)."""
    for seed in range(3):
        decisions, fogs = _longest_game(n, seed)
        assert fogs <= 3 and decisions <= 58 + fogs <= 61
        decisions, fogs = _longest_game(n, seed, move_cards_in_hand=True)
        assert fogs <= 5 and decisions <= 71


# --- move deck: PSM-550, PSM-551 --------------------------------------------------------------------------


def test_psm_550_draw_takes_the_top_card_and_reshuffles_only_when_empty():
    """PSM-550 / PSM-551: deck 1 -> its card is drawn, no reshuffle; next draw reshuffles the whole pile."""
    state = make(n=4, moves=[SABOTAGE, SABOTAGE, FOG])
    top = state.move_deck[-1]
    while len(state.move_deck) > 1:
        card = state.move_deck.pop(0)
        state.move_discard[card] += 1
    assert state.move_deck == [top] and sum(state.move_discard) == 20
    play(state, act.PASS_DISCARD_BASE + FOG)
    assert state.move_deck == [] and sum(state.move_discard) == 21 and state.move_discard[FOG] >= 1
    assert sum(state.move_row) == 3 and state.move_row[top] >= 1 + (top == SABOTAGE) * 2
    to_act(state, 0)
    play(state, act.SABOTAGE_BASE + 0)
    assert len(state.move_deck) == 21 and sum(state.move_discard) == 0 and sum(state.move_row) == 3


# --- upcoming_adventures: PSM-802 -------------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_psm_802_setup_row_and_observation_slots(n):
    """PSM-802 / PSM-1068: n cards face up (slots 2..n upcoming), deck 58 - n; unused slots are zeros."""
    state = PotsmGame(num_players=n, upcoming_adventures=True).new_initial_state(3)
    assert len(state.adventure_row) == n and len(state.adventure_deck) == 58 - n
    obs = state.observation(0)
    s = field_slices(n)
    assert obs[s["current_adventure"]].tolist() == [1 if t == state.adventure_row[0] else 0 for t in range(24)]
    upcoming = obs[s["upcoming_adventures"]].reshape(3, 24)
    for slot in range(3):
        if slot + 1 < n:
            assert upcoming[slot].tolist() == [1 if t == state.adventure_row[slot + 1] else 0 for t in range(24)]
        else:
            assert not upcoming[slot].any()
    assert obs[s["adventure_seen"]].sum() == n and obs[s["adventure_deck_size"]][0] == 58 - n


def test_psm_802_row_shifts_and_refills_from_the_deck_top():
    """PSM-802: row [Kraken, Volcano, Maelstrom] -> [Volcano, Maelstrom, top of deck]."""
    state = make(n=3, row=[KRAKEN, VOLCANO, MAELSTROM], deck_size=10, upcoming_adventures=True)
    set_deck_top(state, [CURSED_SHIP])
    seen = list(state.adventure_seen)
    play(state, act.PASS_ACTION)
    assert state.adventure_row == [VOLCANO, MAELSTROM, CURSED_SHIP] and len(state.adventure_deck) == 9
    seen[CURSED_SHIP] += 1
    assert list(state.adventure_seen) == seen


def test_psm_802_blind_fame_never_from_the_row_and_end_when_row_empty():
    """PSM-802 / PSM-1122 / PSM-1123: deck 0 -> Treasure Map's extra fame is all virtual; end when the row is empty."""
    state = make(n=3, row=[TREASURE_MAP, VOLCANO], deck_size=0, upcoming_adventures=True)
    play(state, act.PASS_ACTION)
    assert [state.fame[j] for j in DEFAULT_LINE[:3]] == [1, 1, 1] and sum(state.blind_fame_cards) == 0
    assert state.adventure_row == [VOLCANO] and not state.is_terminal()
    play(state, act.PASS_ACTION)
    assert state.damaged[0] == 1 and state.adventure_row == [] and state.is_terminal()
    assert state.revealed == [1] * 9  # PSM-701
    # ship 0 -> seat 0 (now damaged), ship 3 -> seat 1, ship 6 -> seat 2 (OWNERS[3])
    assert state.scores() == [1.0, 1.0, 1.0]
    assert state.winner() == 1  # 2 undamaged ships each for seats 1 and 2; ship 3 (position 2) is ahead of 6


# --- move_cards_in_hand: PSM-803 --------------------------------------------------------------------------


@pytest.mark.parametrize(("n", "h"), [(2, 4), (3, 3), (4, 3)])
def test_psm_803_setup_deals_hands_and_no_row(n, h):
    """PSM-803: h cards each, no move row, the rest is the deck; the own hand is visible, sizes are public."""
    state = PotsmGame(num_players=n, move_cards_in_hand=True).new_initial_state(5)
    assert [sum(hand) for hand in state.hands] == [h] * n and sum(state.move_row) == 0
    assert len(state.move_deck) == 24 - n * h
    for seat in range(n):
        assert field(state, seat, "move_available") == state.hands[seat]
        assert field(state, seat, "hand_sizes") == [h] * n
        assert field(state, seat, "move_deck_size") == [24 - n * h]


def test_psm_803_accuse_discard_phase_and_hand_shrinks_permanently():
    """PSM-803 / PSM-1051: DP2 legal set = hand types only; the hand loses a card for good; accusations need 2."""
    state = make(n=4, row=[QUIET], move_cards_in_hand=True)
    set_hand(state, 0, [SABOTAGE, SABOTAGE, LOST_AT_SEA])
    set_line(state, DEFAULT_LINE, fame={2: 4})
    play(state, act.accuse_action(1, 2))  # seat 1 holds pirate 2 (OWNERS[4])
    assert state.legal_actions() == [act.ACCUSE_DISCARD_BASE + LOST_AT_SEA, act.ACCUSE_DISCARD_BASE + SABOTAGE]
    assert state.turn_index == 0 and state.decisions == 1 and state.fame[2] == 4  # not resolved yet
    play(state, act.ACCUSE_DISCARD_BASE + SABOTAGE)
    assert state.hands[0][SABOTAGE] == 1 and sum(state.hands[0]) == 2 and state.move_discard[SABOTAGE] == 1
    assert state.fame[2] == 2 and state.claimed[0] == 2 and state.revealed[2] == 1
    assert field(state, 1, "hand_sizes") == [3, 3, 3, 2]  # seat 0 is offset 3 from seat 1
    # a play draws one: the hand stays at 2
    to_act(state, 0)
    play(state, act.LOST_AT_SEA_BASE + 0)
    assert sum(state.hands[0]) == 2
    # the second accusation leaves 1 card; then no accusation is legal and the hand stays at 1
    to_act(state, 0)
    play(state, act.accuse_action(2, 8))
    play(state, state.legal_actions()[0])
    assert sum(state.hands[0]) == 1
    to_act(state, 0)
    card = state.hands[0].index(1)
    assert max(state.legal_actions()) == act.PASS_DISCARD_BASE + card
    play(state, act.PASS_DISCARD_BASE + card)
    assert sum(state.hands[0]) == 1


def test_psm_803_pass_discard_and_draw_go_through_the_hand():
    """PSM-803 / PSM-518: discarded from the hand face up; the deck's top card is drawn into the hand."""
    state = make(n=3, row=[QUIET], move_cards_in_hand=True)
    set_hand(state, 0, [FOG, LOST_AT_SEA, LOST_AT_SEA])
    pull_move_card(state, DUTCH_ADVANCE, 0)
    state.move_deck.append(DUTCH_ADVANCE)  # on top
    deck = len(state.move_deck)
    play(state, act.PASS_DISCARD_BASE + LOST_AT_SEA)
    assert state.hands[0][LOST_AT_SEA] == 1 and state.hands[0][DUTCH_ADVANCE] == 1 and state.hands[0][FOG] == 1
    assert state.move_discard[LOST_AT_SEA] == 1 and len(state.move_deck) == deck - 1 and sum(state.move_row) == 0
    assert state.recent_turns[0][act.RECORD_CARD] == LOST_AT_SEA


def test_psm_803_main_actions_are_illegal_during_accuse_discard():
    """PSM-1002 / PSM-1004: in ACCUSE_DISCARD only 64..75 of held types are legal."""
    state = make(n=2, row=[QUIET], move_cards_in_hand=True)
    set_hand(state, 0, [FOG, SABOTAGE, SABOTAGE, LOST_AT_SEA])
    play(state, act.accuse_action(1, 0))
    legal = state.legal_actions()
    assert legal == [65, 74, 75]
    assert all(act.ACCUSE_DISCARD_BASE <= a < act.ACCUSE_BASE for a in legal)
    obs = state.observation(0)
    s = field_slices(2)
    assert obs[s["phase"]].tolist() == [0, 1]
    assert obs[s["pending_accusation"]].tolist() == [1] + [1 if j == 0 else 0 for j in range(9)]
    assert not state.observation(1)[s["pending_accusation"]].any()
    assert not state.observation(1)[s["phase"]].any()


# --- scoring and rewards: PSM-702, PSM-703, PSM-1020 -----------------------------------------------------


def finish(state: PotsmState) -> PotsmState:
    """Resolve Maelstrom as the last card (damages the last undamaged ship), ending the game."""
    set_adventures(state, [MAELSTROM], deck_size=0)
    to_act(state, 0)
    play(state, act.PASS_ACTION)
    assert state.is_terminal()
    return state


def test_psm_703_frontmost_ship_only_among_the_tied_seats():
    """PSM-703: seats 0, 1, 2 tie on score and undamaged ships; seat 3 owns position 1 but scored less."""
    state = make(n=4)
    # OWNERS[4]: 0,1 -> seat 0; 2,3 -> seat 1; 4,5 -> seat 2; 6,7 -> seat 3; 8 unused (position 9, Maelstrom target)
    line = [6, 4, 0, 2, 1, 3, 5, 7, 8]
    set_line(state, line, fame={0: 3, 2: 3, 4: 3, 6: 2, 8: 30})
    finish(state)
    assert state.scores() == [3.0, 3.0, 3.0, 2.0]
    assert state.winner() == 2 and state.winners() == [2]  # ship 4 at position 2 beats 0 (3) and 2 (4)
    assert state.returns() == [-1.0, -1.0, 1.0, -1.0]


def test_psm_703_undamaged_count_before_position():
    """PSM-703: equal scores; seat 1 has 2 undamaged owned ships, seat 0 owns the frontmost ship but has 1."""
    state = make(n=4)
    line = [0, 6, 2, 4, 1, 3, 5, 7, 8]
    set_line(state, line, fame={0: 5, 2: 5}, damaged=[1])
    state.claimed = [0, 0, 0, 4]
    finish(state)
    assert state.scores() == [5.0, 5.0, 0.0, 4.0]
    assert state.winner() == 1 and state.returns() == [-1.0, 1.0, -1.0, -1.0]


def test_psm_702_score_includes_claimed_and_ignores_unowned_and_revealed_status():
    """PSM-702 / PSM-1020 score mode: r_s = (S_s - max_{t != s} S_t) / score_scale (default 10)."""
    state = make(n=4, reward_mode="score")
    set_line(state, DEFAULT_LINE, fame={0: 2, 1: 1, 2: 4, 4: 1, 6: 0, 8: 50})
    state._reveal_pirate(2)
    state.claimed = [3, 0, 2, 8]
    assert state.returns() == [0.0] * 4  # PSM-1020: zero until the end
    finish(state)
    assert state.scores() == [6.0, 4.0, 3.0, 8.0]
    assert state.returns() == pytest.approx([-0.2, -0.4, -0.5, 0.2])


# --- truncation: PSM-1031 ---------------------------------------------------------------------------------


def test_psm_1031_truncation_counts_accuse_discard_decisions():
    """PSM-1031: max_decisions = 1 and an accusation in the hand variant -> truncated in ACCUSE_DISCARD."""
    state = make(n=3, row=[QUIET], move_cards_in_hand=True, max_decisions=1)
    play(state, act.accuse_action(1, 2))
    assert state.is_truncated() and state.is_terminal() and state.phase_name() == "TRUNCATED"
    assert state.legal_actions() == [] and state.returns() == [0.0] * 3
    assert state.winner() is None and state.winners() == []
    assert not any(field(state, 0, "phase")) and not any(field(state, 0, "pending_accusation"))


def test_psm_1031_a_game_ending_on_the_last_allowed_decision_is_not_truncated():
    """PSM-1031: truncation only applies when the game is not over."""
    state = make(n=3, row=[QUIET], deck_size=0, max_decisions=1)
    play(state, act.PASS_ACTION)
    assert state.is_terminal() and not state.is_truncated() and state.winner() is not None
    assert sorted(state.returns()) == [-1.0, -1.0, 1.0]


# --- the action table: PSM-1040..1052 ---------------------------------------------------------------------


@pytest.mark.parametrize("n", [2, 3, 4])
def test_action_table_decodes_every_index(n):
    """PSM-1003 / PSM-1040..1052: every index of Discrete(76 + 9(n-1)) decodes as the table says."""
    assert act.num_actions(n) == 76 + 9 * (n - 1)
    for a in range(act.num_actions(n)):
        kind, move_type, param = act.decode_action(a, n)
        if a <= 8:
            assert (kind, move_type, param) == (act.KIND_MOVE, 0, a)
        elif a <= 17:
            assert (kind, move_type, param) == (act.KIND_MOVE, 1, a - 9)
        elif a <= 25:
            assert (kind, move_type, param) == (act.KIND_MOVE, 2, a - 18)
        elif a <= 33:
            assert (kind, move_type, param) == (act.KIND_MOVE, 3, a - 26)
        elif a <= 39:
            assert (kind, move_type, param) == (act.KIND_MOVE, a - 30, None)
        elif a <= 48:
            assert (kind, move_type, param) == (act.KIND_MOVE, 10, a - 40)
        elif a == 49:
            assert (kind, move_type) == (act.KIND_MOVE, 11)
        elif a == 50:
            assert kind == act.KIND_REPAIR
        elif a == 51:
            assert kind == act.KIND_PASS
        elif a <= 63:
            assert (kind, param) == (act.KIND_PASS_DISCARD, a - 52)
        elif a <= 75:
            assert (kind, param) == (act.KIND_ACCUSE_DISCARD, a - 64)
        else:
            assert (kind, param) == (act.KIND_ACCUSE, ((a - 76) // 9 + 1, (a - 76) % 9))
            assert act.accuse_action(*param) == a


@pytest.mark.parametrize(
    ("row", "moves"),
    [
        ((FULL_SPEED_AHEAD, LOST_AT_SEA, TEMPORARY_ALLIANCE), [*range(0, 9), *range(9, 18), *range(18, 26)]),
        ((CAUGHT_IN_A_RIP, ENGLISH_ADVANCE, DUTCH_RETREAT), [*range(26, 34), 34, 39]),
        ((SPANISH_ADVANCE, SPANISH_RETREAT, DUTCH_ADVANCE), [35, 36, 38]),
        ((ENGLISH_RETREAT, FOG, SABOTAGE), [37, 40, *range(42, 49), 49]),
    ],
)
def test_action_legality_base_game(row, moves):
    """PSM-1040..1050, 1052 / PSM-511: the exact MAIN legal set; Sabotage excludes damaged positions (2)."""
    state = make(n=3, moves=list(row))
    set_line(state, DEFAULT_LINE, damaged=[3])  # ship 3 is at position 2
    discards = [act.PASS_DISCARD_BASE + t for t in sorted(row)]
    accusations = list(range(76, 94))
    assert state.legal_actions() == [*sorted(moves), 50, 51, *discards, *accusations]


@pytest.mark.parametrize(
    ("action", "line"),
    [
        (35, [3, 0, 4, 6, 1, 5, 7, 2, 8]),  # Spanish Advance
        (36, [6, 0, 3, 7, 1, 4, 8, 2, 5]),  # Dutch Advance
        (37, [3, 6, 0, 4, 7, 1, 5, 8, 2]),  # English Retreat
        (38, [0, 6, 1, 3, 7, 2, 4, 8, 5]),  # Spanish Retreat
    ],
)
def test_nation_card_indices_move_their_nation(action, line):
    """PSM-1044 / PSM-1045 / PSM-505 / PSM-506 on the default line."""
    move_type = action - 30
    state = make(n=4, moves=[move_type, SABOTAGE, SABOTAGE])
    play(state, action)
    assert state.line == line
    # PSM-1079: the tally counts the nation's three ships in its column, whether or not they moved
    column = 0 if move_type < 7 else 1
    nation = (move_type - 4) % 3
    expected = [0] * 27 * 4
    for ship in range(3 * nation, 3 * nation + 3):
        expected[ship * 3 + column] = 1
    assert list(state.move_tally) == expected


# --- observation: PSM-1012, PSM-1060..1082 ----------------------------------------------------------------


def test_observation_offsets_tallies_and_recent_turns():
    """PSM-1012 / PSM-1079..1082: tallies and turn blocks per offset, newest first, the oldest dropped."""
    state = make(n=3, moves=[SABOTAGE, LOST_AT_SEA, FOG], deck_size=20)
    set_deck_top(state, [MAELSTROM] * 4)  # no Mutiny, no fame in between
    n = 3
    block = 2 * n + 26
    play(state, act.SABOTAGE_BASE + 4)  # seat 0 sabotages ship 4 (position 5)
    play(state, act.REPAIR_ACTION)  # seat 1
    play(state, act.accuse_action(2, 3))  # seat 2 accuses seat 1 of pirate 3: correct (OWNERS[3])
    # seat 0's view: offsets 0, 1, 2 = seats 0, 1, 2
    turns = np.array(field(state, 0, "recent_turns")).reshape(n, block)
    assert turns[0, :n].tolist() == [0, 0, 1] and turns[0, n + act.TURN_KIND_ACCUSE_CORRECT] == 1
    assert turns[0, n + 17 : n + 26].tolist() == [0, 0, 0, 1, 0, 0, 0, 0, 0]
    assert turns[0, n + 26 :].tolist() == [0, 1, 0]  # seat 1 accused
    assert turns[1, :n].tolist() == [0, 1, 0] and turns[1, n + act.TURN_KIND_REPAIR] == 1
    assert not turns[1, n + 17 :].any()
    assert turns[2, :n].tolist() == [1, 0, 0] and turns[2, n + SABOTAGE] == 1
    assert turns[2, n + 17 : n + 26].tolist() == [0, 0, 0, 0, 1, 0, 0, 0, 0]
    # seat 1's view of the same turns
    turns = np.array(field(state, 1, "recent_turns")).reshape(n, block)
    assert turns[0, :n].tolist() == [0, 1, 0] and turns[0, n + 26 :].tolist() == [1, 0, 0]
    assert turns[2, :n].tolist() == [0, 0, 1]
    assert field(state, 1, "repair_tally") == [1, 0, 0]
    assert field(state, 2, "repair_tally") == [0, 0, 1]
    tally = np.array(field(state, 1, "accusation_tally")).reshape(n, 9)
    assert tally[1, 3] == 1 and tally.sum() == 1
    move_tally = np.array(field(state, 2, "move_tally")).reshape(n, 9, 3)
    assert move_tally[1, 4].tolist() == [0, 0, 1] and move_tally.sum() == 1
    # a fourth turn pushes the oldest out
    play(state, act.LOST_AT_SEA_BASE + 0)  # seat 0: ship 0 from position 1 to 7
    turns = np.array(field(state, 0, "recent_turns")).reshape(n, block)
    assert turns[0, :n].tolist() == [1, 0, 0] and turns[0, n + LOST_AT_SEA] == 1
    assert turns[0, n + 17 : n + 26].tolist() == [-6, 1, 1, 1, 1, 0, 1, 1, 0]
    assert turns[2, n + act.TURN_KIND_REPAIR] == 1
    assert field(state, 0, "turn_index") == [4]


def test_observation_missing_turns_are_zero_and_kinds_pass():
    """PSM-1082: Pass / Pass-discard kinds; missing turn blocks are zeros."""
    state = make(n=4, moves=[SABOTAGE, SABOTAGE, FOG])
    play(state, act.PASS_DISCARD_BASE + FOG)
    play(state, act.PASS_ACTION)
    turns = np.array(field(state, 3, "recent_turns")).reshape(4, 34)
    assert turns[0, :4].tolist() == [0, 0, 1, 0] and turns[0, 4 + act.TURN_KIND_PASS] == 1
    assert turns[1, :4].tolist() == [0, 1, 0, 0] and turns[1, 4 + act.TURN_KIND_PASS_DISCARD] == 1
    assert turns[0, 4:21].sum() == 1 and turns[1, 4:21].sum() == 1 and not turns[:2, 21:].any()
    assert not turns[2:].any()


def test_observation_signed_displacement_psm_1205():
    """PSM-1082: the ship vector of Dutch Retreat on the PSM-1205 line is old position - new position."""
    line = [0, 3, 1, 6, 4, 2, 5, 7, 8]
    state = make(n=2, moves=[DUTCH_RETREAT, SABOTAGE, SABOTAGE], line=line)
    play(state, act.RETREAT_BASE + 2)
    assert state.line == [0, 3, 1, 4, 2, 6, 5, 8, 7]
    turns = np.array(field(state, 1, "recent_turns")).reshape(2, 30)
    assert turns[0, :2].tolist() == [0, 1] and turns[0, 2 + DUTCH_RETREAT] == 1
    assert turns[0, 19:28].tolist() == [0, 0, 1, 0, 1, 0, -2, -1, 1]
    tally = np.array(field(state, 1, "move_tally")).reshape(2, 9, 3)
    assert tally[1, 6:9, 1].tolist() == [1, 1, 1] and tally.sum() == 3


def test_observation_move_tally_targets_pairs_and_no_op_plays():
    """PSM-1079: a no-op Full Speed Ahead on position 1 counts; a pair counts both ships; pushed ships never."""
    state = make(n=4, moves=[FULL_SPEED_AHEAD, TEMPORARY_ALLIANCE, CAUGHT_IN_A_RIP])
    play(state, act.FULL_SPEED_BASE + 0)  # ship 0 at position 1: nothing moves
    assert state.line == DEFAULT_LINE
    to_act(state, 0)
    set_move_row(state, [TEMPORARY_ALLIANCE, CAUGHT_IN_A_RIP, SABOTAGE])
    play(state, act.ALLIANCE_BASE + 4)  # ships 4, 7 (positions 5, 6) forward 3
    tally = np.array(field(state, 0, "move_tally")).reshape(4, 9, 3)
    assert tally[0, 0].tolist() == [1, 0, 0]
    assert tally[0, 4].tolist() == [1, 0, 0] and tally[0, 7].tolist() == [1, 0, 0]
    assert tally.sum() == 3


def test_observation_start_seat_and_hand_sizes_in_the_base_game():
    """PSM-1077 / PSM-1072: start seat one-hot by offset; hand_sizes zeros without hands."""
    state = make(n=4)
    state.start_seat = 1
    for seat in range(4):
        assert field(state, seat, "start_seat") == [1 if k == (1 - seat) % 4 else 0 for k in range(4)]
        assert field(state, seat, "hand_sizes") == [0, 0, 0, 0]


def test_observation_pending_accusation_offsets_n3():
    """PSM-1076 / PSM-1012: target offset block (offsets 1..n-1) then the pirate block; only for the actor."""
    state = make(n=3, row=[QUIET], move_cards_in_hand=True, seat=1)
    play(state, act.accuse_action(2, 6))  # seat 1 -> seat 0 at offset 2
    assert state.pending_accusation == [0, 6]
    assert field(state, 1, "pending_accusation") == [0, 1] + [1 if j == 6 else 0 for j in range(9)]
    for seat in (0, 2):
        assert not any(field(state, seat, "pending_accusation")) and not any(field(state, seat, "phase"))


# --- hidden information: PSM-901, PSM-902 -----------------------------------------------------------------


def test_psm_925_card_drawn_into_another_hand_is_invisible():
    """PSM-924 / PSM-925: two worlds differing only in the drawn card look the same to everybody else."""
    world = make(n=4, row=[QUIET], move_cards_in_hand=True)
    set_hand(world, 0, [FOG, SABOTAGE, LOST_AT_SEA])
    tops = sorted(set(world.move_deck))[:2]
    worlds = []
    for top in tops:
        state = world.clone()
        state.move_deck.remove(top)
        state.move_deck.append(top)
        play(state, act.PASS_DISCARD_BASE + FOG)
        assert state.hands[0][top] >= 1 and state.hands[0][FOG] == 0
        worlds.append(state)
    a, b = worlds
    assert a.hands[0] != b.hands[0]
    for seat in (1, 2, 3):
        np.testing.assert_array_equal(a.observation(seat), b.observation(seat))
        assert a.render(seat) == b.render(seat)
    assert a.render(None) == b.render(None)
    assert not np.array_equal(a.observation(0), b.observation(0))  # the drawer sees its own hand


def test_psm_919_blind_fame_faces_are_never_visible():
    """PSM-919 / PSM-1070: worlds differing only in the cards taken blind look the same to every seat."""
    world = make(n=3, row=[TREASURE_MAP], deck_size=20)
    set_deck_top(world, [VOLCANO])
    kinds = sorted(set(world.adventure_deck[:-1]))
    assert len(kinds) >= 4
    worlds = []
    for blind in (kinds[0:2], kinds[2:4]):
        state = world.clone()
        deck = state.adventure_deck
        for card in blind:  # reorder the deck only: these two go on top of Volcano
            deck.remove(card)
            deck.append(card)
        play(state, act.PASS_ACTION)
        assert state.adventure_row == [VOLCANO] and sum(state.blind_fame_cards) == 2
        worlds.append(state)
    a, b = worlds
    assert a.blind_fame_cards != b.blind_fame_cards
    for seat in range(3):
        np.testing.assert_array_equal(a.observation(seat), b.observation(seat))
    assert a.render(None) == b.render(None)


def test_psm_922_move_deck_composition_hidden_in_the_hand_variant():
    """PSM-922 / PSM-924: swapping a card between the deck and another hand changes nothing for the others."""
    state = make(n=3, row=[QUIET], move_cards_in_hand=True)
    other = state.clone()
    held = other.hands[1].index(max(other.hands[1]))
    swapped = next(c for c in other.move_deck if c != held)
    other.move_deck.remove(swapped)
    other.move_deck.append(held)
    other.hands[1][held] -= 1
    other.hands[1][swapped] += 1
    other.check_invariants()
    np.testing.assert_array_equal(state.observation(0), other.observation(0))
    np.testing.assert_array_equal(state.observation(2), other.observation(2))
    assert field(other, 1, "move_available") == other.hands[1]  # own hand visible though not acting
    assert field(other, 1, "move_available") != field(state, 1, "move_available")


def test_psm_902_resample_hidden_in_the_hand_variant():
    """PSM-902: own hand and pirates kept; other hands keep their sizes; the pool is the deck + other hands."""
    state = make(n=4, row=[QUIET], move_cards_in_hand=True)
    play(state, act.accuse_action(1, 5))  # seat 0 pays a card: hand sizes 2, 3, 3, 3
    play(state, state.legal_actions()[0])
    pool_before = [state.move_deck.count(t) + sum(state.hands[s][t] for s in (2, 3, 0)) for t in range(12)]
    changed = 0
    for seed in range(10):
        r = state.resample_hidden(1, seed)
        r.check_invariants()
        assert r.hands[1] == state.hands[1] and list(r.move_discard) == list(state.move_discard)
        assert [sum(h) for h in r.hands] == [2, 3, 3, 3] and len(r.move_deck) == len(state.move_deck)
        pool = [r.move_deck.count(t) + sum(r.hands[s][t] for s in (2, 3, 0)) for t in range(12)]
        assert pool == pool_before
        assert r.owned_ships(1) == state.owned_ships(1) and r.revealed == state.revealed
        np.testing.assert_array_equal(r.observation(1), state.observation(1))
        changed += r.hands != state.hands
    assert changed >= 5


def test_psm_902_resampled_adventure_deck_excludes_seen_cards():
    """PSM-902: the redrawn deck and blind fame come from the cards never face up (per type)."""
    state = make(n=3, row=[TREASURE_MAP], deck_size=40)
    play(state, act.PASS_ACTION)  # 2 blind cards
    for seed in range(10):
        r = state.resample_hidden(0, seed)
        assert len(r.adventure_deck) == len(state.adventure_deck) and sum(r.blind_fame_cards) == 2
        for t in range(24):
            unseen = r.adventure_deck.count(t) + r.blind_fame_cards[t]
            assert unseen == state.adventure_deck.count(t) + state.blind_fame_cards[t]
        assert r.adventure_row == state.adventure_row and list(r.adventure_seen) == list(state.adventure_seen)
