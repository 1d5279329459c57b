"""Per-game facts OpenSpiel's ``GameInfo`` needs that the engine contract does not state.

- :func:`chance_outcome_bound`: every chance outcome id (:mod:`pirate_envs.core.chance`) is below it: a
  card's int value for shuffles and choices, ``0..n-1`` for ``randrange(n)`` (dice, seats, a pick from
  a pile). From each game's component tables; a state checks every node against it.
- :func:`utility_bounds`: the returns' range for the game's ``reward_mode``; :func:`is_zero_sum`.
"""

from __future__ import annotations

from pirate_envs.core.game import Game


def chance_outcome_bound(game: Game) -> int:
    """One more than the largest chance outcome id the game can produce."""
    gid = game.game_id
    seats = max(type(game).player_counts)
    if gid == "potsm_v0":
        from pirate_envs.games.potsm import cards

        # ships and pirates (0..8), adventure and move card types, the start seat
        return max(cards.NUM_SHIPS, cards.NUM_ADVENTURE_TYPES, cards.NUM_MOVE_TYPES, seats)
    if gid == "dead_mans_draw_v0":
        from pirate_envs.games.dead_mans_draw import cards

        # card ids; a random card of the discard pile (index < NUM_CARDS); abilities; variants; first seat
        return max(cards.NUM_CARDS, cards.NUM_ABILITIES, len(cards.VARIANTS), seats)
    if gid == "madame_ching_v0":
        from pirate_envs.games.madame_ching import cards

        # navigation cards 1..55, mission tiles, encounter kinds, a random encounter card of a hand
        return max(cards.NUM_NAV_CARDS + 1, cards.NUM_MISSIONS, cards.NUM_ENC_KINDS, sum(cards.ENC_COUNTS), seats)
    if gid == "tortuga_v0":
        from pirate_envs.games.tortuga import board

        # nations 0..2, roles 0..7, event card types, a die, the start seat
        return max(3, board.SAILOR + 1, board.NUM_CARD_TYPES, 6, seats)
    raise ValueError(f"no OpenSpiel chance bound for game {gid!r}")


def utility_bounds(game: Game) -> tuple[float, float]:
    """(min, max) of any seat's return. 'win' modes give +-1; the score modes of Dead Man's Draw,
    Madame Ching and Tortuga clip their margins to [-1, 1]; potsm's margin is unclipped, bounded by its
    counters' range (fame 0..255 on each of 9 ships plus claimed fame 0..255)."""
    if game.game_id == "potsm_v0" and game.options["reward_mode"] == "score":
        bound = (9 * 255 + 255) / game.options["score_scale"]
        return -bound, bound
    return -1.0, 1.0


def is_zero_sum(game: Game) -> bool:
    """True where two seats' returns always sum to 0: the score margins of potsm (PSM-1020) and Madame Ching
    (MCH-1007, clipped symmetrically). Not in 'win' modes (a truncated game gives 0 to both, Dead Man's Draw
    ties make two winners), nor Dead Man's Draw's score mode (two eliminated seats both get -1) or
    Tortuga's (an exiled seat's return is capped at 0, TOR-1005)."""
    return (
        game.num_players == 2
        and game.options.get("reward_mode") == "score"
        and game.game_id in ("potsm_v0", "madame_ching_v0")
    )
