"""The rules engine of Pieces of Eight (``rules.md``, prefix P8).

The module follows the rules file: the game's facts and options, setup (P8-201..203), the turn and its
one action (P8-301..401), scoring (P8-501..503), then what the engine contract adds: determinisation
(``_resample_hidden``), the invariants a loaded state must keep, and the text view.

State fields: ``purse`` (the coins never dealt, sorted), ``hands`` (each seat's coins, sorted), ``trick``
(the coins of the current trick in play order: the i-th was played by seat ``leader + i``), ``piles``
(each seat's taken coins, sorted), ``leader`` and ``tricks_played``.
"""

from __future__ import annotations

from typing import Any, ClassVar

from pirate_envs.core.game import Game, State, assert_in_range
from pirate_envs.core.options import Option
from pirate_envs.core.rewards import reward_options, score_margin_returns, team_win_loss_returns
from pirate_envs.core.rng import Rng
from pirate_envs.drawing.text import table_lines

from .coins import COINS, HAND_SIZE, NUM_ACTIONS, NUM_COINS, PURSE_VALUE, action_of, action_to_string, coin_of
from .observation import ObservationEncoder


class PiecesOfEightGame(Game):
    """Pieces of Eight for 2 or 3 players."""

    game_id = "pieces_of_eight_v0"
    display_name = "Pieces of Eight"
    player_counts = (2, 3)  # P8-102
    default_num_players = 2
    option_specs = (
        *reward_options("P8-503", modes="'win' (+1 every winner, -1 the others) or 'score' (margin / 45)"),
        Option("max_decisions", 100, int, "truncate after this many decisions (a game has 3 per player)", minimum=1),
    )
    # Rule variants the shared conformance suite exercises (tests/conftest.py).
    variants: ClassVar[dict[str, dict[str, Any]]] = {"base": {}, "score": {"reward_mode": "score"}}
    observation_low = 0.0
    observation_high = 1.0

    def _setup(self) -> None:
        self.num_actions = NUM_ACTIONS
        self.encoder = ObservationEncoder(self.num_players)
        self.observation_size = self.encoder.size

    def action_to_string(self, action: int) -> str:
        if not 0 <= action < NUM_ACTIONS:
            raise ValueError(f"{self.game_id}: action must be in [0, {NUM_ACTIONS}), got {action!r}")
        return action_to_string(action)


class PiecesOfEightState(State):
    """One position of Pieces of Eight."""

    fields = ("purse", "hands", "trick", "piles", "leader", "tricks_played")
    game: PiecesOfEightGame

    # --- setup (P8-201..203) -------------------------------------------------------------------------
    def _setup_game(self) -> None:
        n = self.game.num_players
        purse = list(COINS)
        self.rng.shuffle(purse)  # P8-201: every chance event comes from the state's own RNG
        self.hands = [sorted(purse.pop() for _ in range(HAND_SIZE)) for _ in range(n)]  # P8-202
        self.purse = sorted(purse)
        self.trick: list[int] = []
        self.piles: list[list[int]] = [[] for _ in range(n)]
        self.leader = 0  # P8-203
        self.tricks_played = 0

    # --- the turn (P8-301..303) and its action (P8-401) -----------------------------------------------
    def _current_player(self) -> int:
        return (self.leader + len(self.trick)) % self.game.num_players

    def _legal_actions(self) -> list[int]:
        return [action_of(coin) for coin in self.hands[self._current_player()]]

    def _apply_action(self, action: int) -> None:
        coin = coin_of(action)
        self.hands[self._current_player()].remove(coin)
        self.trick.append(coin)
        if len(self.trick) == self.game.num_players:
            self._take_trick()

    def _take_trick(self) -> None:
        """P8-302: the highest coin takes the trick, and its player leads the next one."""
        taker = (self.leader + self.trick.index(max(self.trick))) % self.game.num_players
        self.piles[taker] = sorted(self.piles[taker] + self.trick)
        self.trick = []
        self.leader = taker
        self.tricks_played += 1

    def _is_terminal(self) -> bool:
        return self.tricks_played == HAND_SIZE  # P8-303

    def _phase_name(self) -> str:
        return "PLAY"

    # --- scoring (P8-501..503) -------------------------------------------------------------------------
    def _scores(self) -> list[float]:
        return [float(sum(pile)) for pile in self.piles]

    def _winners(self) -> list[int]:
        scores = self._scores()
        return [seat for seat, score in enumerate(scores) if score == max(scores)]

    def _returns(self) -> list[float]:
        if self.game.reward_mode == "score":
            return score_margin_returns(self._scores(), PURSE_VALUE)
        return team_win_loss_returns(self._winners(), self.game.num_players)

    # --- determinisation --------------------------------------------------------------------------------
    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        """Deal the coins ``seat`` has not seen (the other hands and the purse, P8-601) again, keeping every
        hand's size. The coins are sorted before the shuffle, so the redraw depends on what ``seat`` saw
        and on ``rng`` alone, never on where the coins really are."""
        others = [other for other in range(self.game.num_players) if other != seat]
        unseen = sorted(self.purse + [coin for other in others for coin in self.hands[other]])
        rng.shuffle(unseen)
        for other in others:
            size = len(self.hands[other])
            self.hands[other], unseen = sorted(unseen[:size]), unseen[size:]
        self.purse = sorted(unseen)

    # --- invariants, checked on every state_from_dict ------------------------------------------------------
    def check_invariants(self) -> None:
        n = self.game.num_players
        assert_in_range("leader", self.leader, 0, n - 1)
        assert_in_range("tricks_played", self.tricks_played, 0, HAND_SIZE)
        assert len(self.trick) < n, "a trick is taken as soon as every seat has played to it"
        assert_in_range("purse", self.purse, 1, NUM_COINS, length=NUM_COINS - n * HAND_SIZE)
        assert_in_range("trick", self.trick, 1, NUM_COINS)
        assert self.purse == sorted(self.purse), "purse must be sorted"
        for seat in range(n):
            played = int((seat - self.leader) % n < len(self.trick))  # seat has played to the current trick
            hand, pile = self.hands[seat], self.piles[seat]
            assert_in_range(f"hands[{seat}]", hand, 1, NUM_COINS, length=HAND_SIZE - self.tricks_played - played)
            assert_in_range(f"piles[{seat}]", pile, 1, NUM_COINS)
            assert hand == sorted(hand) and pile == sorted(pile), f"hands[{seat}] and piles[{seat}] must be sorted"
            assert len(pile) % n == 0, f"piles[{seat}] holds part of a trick"
        assert sum(map(len, self.piles)) == n * self.tricks_played, "the piles must hold every trick played"
        every_coin = (
            self.purse + self.trick + [coin for seat in range(n) for coin in self.hands[seat] + self.piles[seat]]
        )
        assert sorted(every_coin) == list(COINS), "every coin of the purse must be in exactly one place (P8-101)"

    # --- text --------------------------------------------------------------------------------------------
    def render(self, viewer: int | None = None) -> str:
        """The table view in words: the same lines the terminal prints (``viewer=None``: public only)."""
        return "\n".join(table_lines(self.table_view(viewer)))


PiecesOfEightGame.state_class = PiecesOfEightState
