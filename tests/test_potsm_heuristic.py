"""The potsm_v0 heuristic bot: its line simulation (the rules' examples), legality, strength, situations.

Situations are built as observation vectors through ``field_slices`` (the bot reads nothing else), so
each one states exactly what the bot sees.
"""

from __future__ import annotations

import hashlib

import numpy as np
import pytest

from pirate_envs.games.potsm.actions import ACCUSE_BASE, accuse_action, num_actions
from pirate_envs.games.potsm.cards import (
    ANCIENT_RELICS,
    DUTCH_ATTACK,
    DUTCH_RETREAT,
    ENGLISH_RETREAT,
    FOG,
    FULL_SPEED_AHEAD,
    GHOST_SHIP,
    KRAKEN,
    LEGENDARY_TREASURE,
    MUTINY,
    SABOTAGE,
    SPANISH_LOOT,
    SPANISH_RETREAT,
    TREASURE_MAP,
)
from pirate_envs.games.potsm.game import PotsmGame
from pirate_envs.games.potsm.heuristic import HeuristicPolicy, line_after_move, resolve_adventure
from pirate_envs.games.potsm.observation import field_slices, observation_size
from pirate_envs.policies.base import RandomPolicy

VARIANTS = {
    "base": {},
    "upcoming": {"upcoming_adventures": True},
    "hand": {"move_cards_in_hand": True},
    "both": {"upcoming_adventures": True, "move_cards_in_hand": True},
}
DEFAULT_LINE = [0, 3, 6, 1, 4, 7, 2, 5, 8]


def potsm_game(n: int, **options) -> PotsmGame:
    return PotsmGame(num_players=n, **options)


# --- the line simulation: the rules' worked examples (PSM-12NN) ------------------------------------------


@pytest.mark.parametrize(
    ("rule", "action", "line", "expected"),
    [
        ("PSM-1201", 6, DEFAULT_LINE, [2, 0, 3, 6, 1, 4, 7, 5, 8]),  # Full Speed Ahead, position 7
        ("PSM-1202", 19, DEFAULT_LINE, [3, 6, 0, 1, 4, 7, 2, 5, 8]),  # Temporary Alliance, pair 2
        ("PSM-1203", 32, DEFAULT_LINE, [0, 3, 6, 1, 4, 7, 8, 2, 5]),  # Caught in a Rip, pair 7
        ("PSM-1204", 34, [0, 1, 3, 6, 4, 2, 7, 5, 8], [1, 0, 3, 2, 6, 4, 7, 5, 8]),  # English Advance
        ("PSM-1205", 39, [0, 3, 1, 6, 4, 2, 5, 7, 8], [0, 3, 1, 4, 2, 6, 5, 8, 7]),  # Dutch Retreat
    ],
)
def test_line_after_move_worked_examples(rule, action, line, expected):
    """The bot's prediction of a move card's effect decodes the action as the rules' examples do."""
    new_line, damaged = line_after_move(action, line, [0] * 9)
    assert new_line == expected, rule
    assert damaged == [0] * 9


def _by_ship(line, values):
    out = [0] * 9
    for p, ship in enumerate(line):
        out[ship] = values[p]
    return out


def test_psm_1207_treasure_map_skips_damaged():
    line = DEFAULT_LINE
    damaged = _by_ship(line, [1, 0, 1, 0, 0, 0, 0, 0, 0])
    delta, _ = resolve_adventure(TREASURE_MAP, line, damaged, [0.0] * 9, [True] * 9)
    assert _by_ship(line, [0, 1, 0, 1, 1, 0, 0, 0, 0]) == delta


def test_psm_1210_spanish_loot():
    line = [3, 0, 4, 6, 5, 1, 7, 2, 8]
    damaged = _by_ship(line, [0, 1, 1, 0, 0, 0, 0, 0, 0])
    fame = [float(f) for f in _by_ship(line, [0, 1, 3, 2, 0, 0, 1, 0, 0])]
    delta, _ = resolve_adventure(SPANISH_LOOT, line, damaged, fame, [True] * 9)
    after = [fame[j] + delta[j] for j in range(9)]
    assert after[3] == 3 and after[0] == 0 and after[6] == 1 and after[7] == 0 and after[4] == 3


def test_psm_1211_dutch_attack():
    line = [0, 3, 6, 1, 7, 4, 8, 2, 5]
    damaged = [0] * 9
    damaged[7] = 1
    _, after = resolve_adventure(DUTCH_ATTACK, line, damaged, [0.0] * 9, [True] * 9)
    assert [j for j in range(9) if after[j]] == [0, 1, 3, 4, 7]


def test_psm_1212_ghost_ship():
    line = DEFAULT_LINE
    damaged = _by_ship(line, [0, 0, 0, 0, 0, 0, 0, 1, 0])
    fame = [float(f) for f in _by_ship(line, [0, 0, 0, 0, 0, 0, 2, 0, 1])]
    delta, after = resolve_adventure(GHOST_SHIP, line, damaged, fame, [True] * 9)
    assert [after[s] for s in line[6:]] == [1, 1, 1]
    assert [fame[s] + delta[s] for s in line[6:]] == [1, 0, 0]


# --- the lookahead agrees with the engine --------------------------------------------------------------


def _public_line(obs, sl):
    line = [0] * 9
    position = obs[sl["ship_position"]].reshape(9, 9)
    for j in range(9):
        line[int(np.argmax(position[j]))] = j
    return line


@pytest.mark.parametrize("n", [2, 3, 4])
def test_lookahead_matches_engine(n):
    """For every move card, Repair and Pass, the predicted line, damage and fame are the engine's."""
    game = potsm_game(n)
    sl = field_slices(n)
    policy = HeuristicPolicy(game)
    rng = np.random.default_rng(n)
    checked = 0
    for seed in range(15):
        state = game.new_initial_state(seed)
        while not state.is_terminal():
            seat = state.current_player()
            obs = state.observation(seat)
            action = int(rng.choice(state.legal_actions()))
            line = _public_line(obs, sl)
            damaged = [int(x) for x in obs[sl["ship_damaged"]]]
            fame = [float(x) for x in obs[sl["ship_fame"]]]
            card = int(np.argmax(obs[sl["current_adventure"]]))
            unrevealed = [not obs[sl["ship_revealed_owner"]][j * n : j * n + n].any() for j in range(9)]
            predicted = policy.predict_turn(action, line, damaged, fame, card, unrevealed)
            state.apply_action(action)
            if predicted is None or card == MUTINY:
                continue
            after = state.observation(seat)
            new_line, new_damaged, new_fame = predicted
            assert _public_line(after, sl) == new_line
            assert [int(x) for x in after[sl["ship_damaged"]]] == new_damaged
            assert [float(x) for x in after[sl["ship_fame"]]] == new_fame
            checked += 1
    assert checked > 100


# --- legality ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", sorted(VARIANTS))
@pytest.mark.parametrize("n", [2, 3, 4])
def test_only_legal_actions(n, variant):
    game = potsm_game(n, **VARIANTS[variant])
    heuristic = HeuristicPolicy(game)
    rand = RandomPolicy()
    rng = np.random.default_rng(100 + n)
    calls = 0
    for seed in range(6):
        state = game.new_initial_state(1000 * n + seed)
        heuristic_seats = {seed % n, (seed + 1) % n}
        while not state.is_terminal():
            seat = state.current_player()
            mask = state.legal_action_mask()
            obs = state.observation(seat)
            if seat in heuristic_seats:
                action = heuristic.act(obs, mask, rng)
                calls += 1
                assert isinstance(action, int)
                assert mask[action] == 1, f"illegal action {action}"
            else:
                action = rand.act(obs, mask, rng)
            state.apply_action(action)
        assert not state.is_truncated()
    assert calls > 50


def test_decisions_are_pinned():
    """Every choice of the bot in 12 seeded self-play games (2-4 players, both variants), as one fingerprint.

    A speed-up of the bot must not change a single decision; a deliberate change of its play (weights,
    rules) updates the fingerprint here and says so.
    """
    digest = hashlib.sha256()
    for n, variant in [(2, "base"), (3, "upcoming"), (4, "base"), (4, "hand")]:
        game = potsm_game(n, **VARIANTS[variant])
        bot = HeuristicPolicy(game)
        for seed in range(3):
            state = game.new_initial_state(seed)
            rng = np.random.default_rng(seed)
            while not state.is_terminal():
                seat = state.current_player()
                action = bot.act(state.observation(seat), state.legal_action_mask(), rng)
                digest.update(f"{action},".encode())
                state.apply_action(action)
    assert digest.hexdigest()[:16] == "44947153fbad910d"


def test_public_entry_points():
    """``potsm_v0.HeuristicPolicy`` and ``make_heuristic`` give this bot, which follows the Policy protocol."""
    from pirate_envs import Policy, make_heuristic, potsm_v0

    bot = make_heuristic("potsm_v0", 3, move_cards_in_hand=True)
    assert isinstance(bot, HeuristicPolicy) and isinstance(bot, Policy)
    assert bot.num_players == 3 and bot.hand_variant
    assert potsm_v0.HeuristicPolicy is HeuristicPolicy


def test_rejects_an_empty_mask():
    game = potsm_game(4)
    policy = HeuristicPolicy(game)
    with pytest.raises(ValueError):
        policy.act(np.zeros(observation_size(4), dtype=np.float32), np.zeros(num_actions(4), dtype=np.int8), None)


def test_unknown_parameter_is_rejected():
    with pytest.raises(ValueError, match="unknown parameters"):
        HeuristicPolicy(potsm_game(4), horizn=2.0)


# --- strength ------------------------------------------------------------------------------------------


def play_match(game, policies, seed, rng):
    state = game.new_initial_state(seed)
    while not state.is_terminal():
        seat = state.current_player()
        action = policies[seat].act(state.observation(seat), state.legal_action_mask(), rng)
        state.apply_action(action)
    return state.returns()


def test_beats_random_at_four_players():
    """200 games, heuristic in a rotating seat vs 3 random: win rate far above 1/4.

    Under the null (win rate 1/4) the standard deviation of 200 games is 0.031; the bar of 0.45 is more
    than 6 of them above it, and the bot wins far more than that.
    """
    game = potsm_game(4)
    heuristic = HeuristicPolicy(game)
    rand = RandomPolicy()
    rng = np.random.default_rng(7)
    wins = 0
    games = 200
    for g in range(games):
        seat = g % 4
        policies = [heuristic if s == seat else rand for s in range(4)]
        wins += play_match(game, policies, 50_000 + g, rng)[seat] > 0
    assert wins / games > 0.45, f"heuristic won {wins}/{games}"


# --- situations ----------------------------------------------------------------------------------------


def situation(
    n: int,
    line: list[int],
    mine: list[int],
    card: int,
    available: dict[int, int],
    *,
    damaged: tuple[int, ...] = (),
    fame: dict[int, int] | None = None,
    revealed: dict[int, int] | None = None,
    not_owner: tuple[tuple[int, int], ...] = (),
    deck: int = 30,
) -> np.ndarray:
    """An observation for the acting seat in MAIN: ``line`` front first, ``revealed`` ship -> owner offset."""
    sl = field_slices(n)
    obs = np.zeros(observation_size(n), dtype=np.float32)
    for j in mine:
        obs[sl["my_pirates"].start + j] = 1
    for p, ship in enumerate(line):
        obs[sl["ship_position"].start + 9 * ship + p] = 1
    for j in damaged:
        obs[sl["ship_damaged"].start + j] = 1
    for j, f in (fame or {}).items():
        obs[sl["ship_fame"].start + j] = f
    for j, k in (revealed or {}).items():
        obs[sl["ship_revealed_owner"].start + j * n + k] = 1
    for j, k in not_owner:
        obs[sl["ship_not_owner"].start + j * n + k] = 1
    obs[sl["current_adventure"].start + card] = 1
    obs[sl["adventure_deck_size"].start] = deck
    for t, count in available.items():
        obs[sl["move_available"].start + t] = count
    obs[sl["phase"].start] = 1
    return obs


def base_mask(n: int, available: dict[int, int], line_damaged: tuple[int, ...] = (), revealed=()) -> np.ndarray:
    """The MAIN mask of the base game for the given move row (PSM-1040..1052)."""
    mask = np.zeros(num_actions(n), dtype=np.int8)
    blocks = {0: range(0, 9), 1: range(9, 18), 2: range(18, 26), 3: range(26, 34)}
    for t in available:
        if t in blocks:
            mask[list(blocks[t])] = 1
        elif 4 <= t <= 9:
            mask[34 + t - 4] = 1
        elif t == SABOTAGE:
            mask[[40 + p for p in range(9) if p not in line_damaged]] = 1
        elif t == FOG:
            mask[49] = 1
        mask[52 + t] = 1
    mask[50] = mask[51] = 1
    for a in range(ACCUSE_BASE, num_actions(n)):
        mask[a] = (a - ACCUSE_BASE) % 9 not in revealed
    return mask


def test_full_speed_ahead_moves_an_own_ship_to_the_front():
    """Ancient Relics (+1 at 1-3): Full Speed Ahead goes to one of its own ships, never an opponent's."""
    n = 4
    line = [0, 3, 6, 1, 4, 7, 2, 5, 8]  # own ships 4 (position 5) and 8 (position 9)
    available = {FULL_SPEED_AHEAD: 1, ENGLISH_RETREAT: 1, SPANISH_RETREAT: 1}
    obs = situation(n, line, [4, 8], ANCIENT_RELICS, available)
    action = HeuristicPolicy(potsm_game(n)).act(obs, base_mask(n, available), np.random.default_rng(0))
    assert action in (4, 8)  # Full Speed Ahead on position 5 or 9


def test_repairs_own_damaged_ships_before_an_award():
    """Treasure Map with its own front ships damaged and only Retreats on offer: Repair (PSM-513)."""
    n = 4
    line = [0, 3, 6, 1, 4, 7, 2, 5, 8]  # own ships 0 and 3 at positions 1 and 2, both damaged
    available = {ENGLISH_RETREAT: 1, SPANISH_RETREAT: 1, DUTCH_RETREAT: 1}
    obs = situation(n, line, [0, 3], TREASURE_MAP, available, damaged=(0, 3))
    action = HeuristicPolicy(potsm_game(n)).act(obs, base_mask(n, available, (0, 1)), np.random.default_rng(0))
    assert action == 50


def test_fog_when_the_adventure_hurts_its_ships():
    """Kraken (damage at 4, 6, 8) on both own ships, nothing else helps: There Be Fog Ahead! (PSM-637)."""
    n = 4
    line = [0, 3, 6, 1, 4, 7, 2, 5, 8]  # own ships 1 (position 4) and 7 (position 6)
    available = {FOG: 1, SABOTAGE: 2}
    obs = situation(n, line, [1, 7], KRAKEN, available, fame={1: 3, 7: 2})
    action = HeuristicPolicy(potsm_game(n)).act(obs, base_mask(n, available), np.random.default_rng(0))
    assert action == 49


def test_sabotage_clears_the_way_for_its_ship():
    """Legendary Treasure (front 2 undamaged +2): Sabotage the opponent's front ship so its own ship is 2nd."""
    n = 4
    line = [0, 3, 6, 1, 4, 7, 2, 5, 8]  # ship 0 revealed as offset 1's; own ship 6 at position 3
    available = {SABOTAGE: 1, ENGLISH_RETREAT: 1, SPANISH_RETREAT: 1}
    obs = situation(n, line, [6, 8], LEGENDARY_TREASURE, available, revealed={0: 1})
    mask = base_mask(n, available, revealed=(0,))
    action = HeuristicPolicy(potsm_game(n)).act(obs, mask, np.random.default_rng(0))
    assert action == 40


def test_accuses_a_deduced_owner_at_the_end():
    """Last adventure: ship 7 (fame 8) must be offset 1's, so accusing it steals 4 (PSM-515)."""
    n = 4
    line = [0, 3, 6, 1, 4, 7, 2, 5, 8]
    revealed = {2: 2, 3: 2, 4: 3, 5: 3, 6: 1}  # ship 6 is offset 1's; ships 7, 8: offset 1 or unused
    available = {ENGLISH_RETREAT: 1, SPANISH_RETREAT: 1, DUTCH_RETREAT: 1}
    obs = situation(
        n, line, [0, 1], TREASURE_MAP, available, fame={7: 8}, revealed=revealed, not_owner=((8, 1),), deck=0
    )
    mask = base_mask(n, available, revealed=tuple(revealed))
    action = HeuristicPolicy(potsm_game(n)).act(obs, mask, np.random.default_rng(0))
    assert action == accuse_action(1, 7)


def test_never_accuses_its_own_pirate():
    n = 3
    line = [0, 3, 6, 1, 4, 7, 2, 5, 8]
    obs = situation(n, line, [0, 1], TREASURE_MAP, {}, fame={0: 9, 1: 9}, deck=0)
    mask = np.zeros(num_actions(n), dtype=np.int8)
    mask[[accuse_action(1, 0), accuse_action(2, 1), 51]] = 1
    assert HeuristicPolicy(potsm_game(n)).act(obs, mask, np.random.default_rng(0)) == 51


def test_accusation_discard_throws_the_weakest_card():
    """Hand variant, DP2 (PSM-1051): with Full Speed Ahead and English Retreat it throws the Retreat."""
    n = 4
    sl = field_slices(n)
    obs = np.zeros(observation_size(n), dtype=np.float32)
    obs[sl["my_pirates"].start + 0] = 1  # own English ships 0 and 1
    obs[sl["my_pirates"].start + 1] = 1
    obs[sl["move_available"].start + FULL_SPEED_AHEAD] = 1
    obs[sl["move_available"].start + ENGLISH_RETREAT] = 1
    obs[sl["phase"].start + 1] = 1
    mask = np.zeros(num_actions(n), dtype=np.int8)
    mask[[64 + FULL_SPEED_AHEAD, 64 + ENGLISH_RETREAT]] = 1
    policy = HeuristicPolicy(potsm_game(n, move_cards_in_hand=True))
    assert policy.act(obs, mask, np.random.default_rng(0)) == 64 + ENGLISH_RETREAT
