"""The rules engine of Pirates of the Spanish Main: The Card Game (``docs/rules/potsm.md``).

The module reads in the order of the rules file: the game's facts and options (Section 10),
setup (Section 3), the turn (Section 4), the line movements (5.1), the actions (5.2), the
adventure cards (5.3, Section 6), advancing the adventure and the game end (5.5), the move deck
(5.6), scoring (Section 7), and determinisation (PSM-902).

Conventions inside the engine: positions are 0-based (rules position 1 = index 0); ``line[p]``
is the ship at position ``p``; ships and pirates share ids 0-8; per-ship data (``damaged``,
``fame``, ``pirate_owner`` ...) is indexed by ship id; card piles whose order nobody sees are
per-type count lists, decks whose order matters are lists of types with the top card last.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from pirate_envs.core.game import ByteCounts, Game, State, assert_in_range
from pirate_envs.core.options import Option
from pirate_envs.core.rewards import reward_options, score_margin_returns, win_loss_returns
from pirate_envs.core.rng import Rng
from pirate_envs.games.potsm import actions as act
from pirate_envs.games.potsm.cards import (
    ADVENTURE_COUNTS,
    ALLIANCE_DISTANCE,
    CURSED_SHIP,
    CURSED_SHIP_POSITIONS,
    CURSED_TREASURE,
    ENGLISH_ATTACK,
    ENGLISH_LOOT,
    FOG,
    FRONT_AWARDS,
    FULL_SPEED_AHEAD,
    FULL_SPEED_DISTANCE,
    GHOST_SHIP,
    LOST_AT_SEA,
    LOST_AT_SEA_DISTANCE,
    MAELSTROM,
    MOVE_COUNTS,
    MOVE_ROW_SIZE,
    MOVE_TALLY_COLUMN,
    MUTINY,
    NATION_MOVE_DISTANCE,
    NATION_OF_SHIP,
    NUM_ADVENTURE_CARDS,
    NUM_ADVENTURE_TYPES,
    NUM_MOVE_CARDS,
    NUM_MOVE_TYPES,
    POSITION_AWARDS,
    POSITION_DAMAGE,
    RIP_DISTANCE,
    SABOTAGE,
    SHIPS_OF_NATION,
    STORM_AHEAD,
    TEMPORARY_ALLIANCE,
    VOLCANO,
    hand_size,
    pirates_per_player,
)
from pirate_envs.games.potsm.observation import (
    OBSERVATION_HIGH,
    OBSERVATION_LOW,
    ObservationEncoder,
    observation_size,
)

MAIN, ACCUSE_DISCARD = 0, 1  # PSM-1002
PHASE_NAMES = ("MAIN", "ACCUSE_DISCARD")
UNUSED = -1  # pirate_owner of a pirate card set aside (PSM-303)
NO_SEAT = -1
NO_CARD = -1
REJECTION_TRIES = 200  # PSM-902 pirate resampling: draws before enumerating every consistent deal

_AWARD_CARDS_END = 10  # adventure types 0-9 award fame (PSM-610..617)


# --- 5.1 line and movement (pure functions on a line list) ----------------------------------------------


def move_ship(line: list[int], position: int, delta: int) -> None:
    """PSM-502: the ship at ``position`` moves ``delta`` places (negative = forward), clamped to the line."""
    target = min(max(position + delta, 0), 8)
    if target != position:
        line.insert(target, line.pop(position))


def move_pair(line: list[int], position: int, delta: int) -> None:
    """PSM-503: the ships at ``position`` and ``position + 1`` move as a block by ``delta`` places."""
    target = min(max(position + delta, 0), 7)  # 7: the back ship of the block is then last in the line
    if target != position:
        block = line[position : position + 2]
        del line[position : position + 2]
        line[target:target] = block


def nation_advance(line: list[int], nation: int) -> None:
    """PSM-505: the nation's ships, front one first, each move forward 2 from where they are then."""
    for ship in [s for s in line if NATION_OF_SHIP[s] == nation]:
        move_ship(line, line.index(ship), -NATION_MOVE_DISTANCE)


def nation_retreat(line: list[int], nation: int) -> None:
    """PSM-506: the nation's ships, back one first, each move backward 2."""
    for ship in [s for s in reversed(line) if NATION_OF_SHIP[s] == nation]:
        move_ship(line, line.index(ship), NATION_MOVE_DISTANCE)


# --- the game -------------------------------------------------------------------------------------------


class PotsmGame(Game):
    """Pirates of the Spanish Main: The Card Game, for 2-4 players (PSM-101, PSM-1001)."""

    game_id = "potsm_v0"
    display_name = "Pirates of the Spanish Main: The Card Game"
    player_counts = (2, 3, 4)
    default_num_players = 4  # PSM-1101
    option_specs = (
        Option("upcoming_adventures", False, bool, "PSM-802: n adventure cards face up (current + upcoming)"),
        Option("move_cards_in_hand", False, bool, "PSM-803: private move-card hands instead of the move row"),
        *reward_options("PSM-1020", default_scale=10.0),
        Option("max_decisions", 100, int, "PSM-1031: truncate after this many decisions", minimum=1),
    )
    # Rule variants the shared conformance suite exercises (tests/conftest.py).
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "base": {},
        "upcoming": {"upcoming_adventures": True},
        "hand": {"move_cards_in_hand": True},
        "both": {"upcoming_adventures": True, "move_cards_in_hand": True},
    }
    observation_low = OBSERVATION_LOW
    observation_high = OBSERVATION_HIGH
    action_feature_low = -OBSERVATION_HIGH  # fame changes are at most half the fame a ship holds
    action_feature_high = OBSERVATION_HIGH
    CACHE_LIMIT = 1 << 16

    def _setup(self) -> None:
        n = self.num_players
        self.upcoming_adventures: bool = self.options["upcoming_adventures"]
        self.move_cards_in_hand: bool = self.options["move_cards_in_hand"]
        self.num_actions = act.num_actions(n)
        self.observation_size = observation_size(n)
        from pirate_envs.games.potsm.action_features import feature_size  # it imports the heuristic, which imports us

        self.action_feature_size = feature_size(n)
        self.pirates_per_player = pirates_per_player(n)  # PSM-303
        self.unused_pirates = 9 - n * self.pirates_per_player
        self.hand_size = hand_size(n)  # PSM-803
        self.adventure_row_size = n if self.upcoming_adventures else 1  # PSM-302, PSM-802
        self.action_table = [act.decode_action(a, n) for a in range(self.num_actions)]
        self.encoder = ObservationEncoder(n, self.move_cards_in_hand)
        self.main_actions_cache: dict[bytes, list[int]] = {}  # content-keyed, see PotsmState._legal_actions
        self._accuse_actions: dict[bytes, list[int]] = {}

    def _action_features(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        from pirate_envs.games.potsm.action_features import action_features

        return action_features(observation, action_mask, self.num_players)

    def legal_action_features(self, observations: np.ndarray, action_masks: np.ndarray) -> np.ndarray:
        from pirate_envs.games.potsm.action_features import legal_action_features

        features = legal_action_features(observations, action_masks, self.num_players)
        return super().legal_action_features(observations, action_masks) if features is None else features

    def main_actions(self, available: list[int], revealed: list[int], damaged_by_position: list[int]) -> list[int]:
        """PSM-1040..1050, 1052: the sorted MAIN actions for these move cards, reveals and damage."""
        legal: list[int] = []
        discards = []
        for t in range(NUM_MOVE_TYPES):
            if available[t]:
                if t == SABOTAGE:  # PSM-511: only an undamaged ship
                    legal += [act.SABOTAGE_BASE + p for p in range(9) if not damaged_by_position[p]]
                else:  # PSM-512: plays that move nothing are legal too
                    legal += act.MOVE_TYPE_ACTIONS[t]
                discards.append(act.PASS_DISCARD_BASE + t)
        legal.append(act.REPAIR_ACTION)  # PSM-513
        legal.append(act.PASS_ACTION)  # PSM-518
        legal += discards
        if not self.move_cards_in_hand or sum(available) >= 2:  # PSM-514, PSM-803
            legal += self.accuse_actions(revealed)
        return legal

    def accuse_actions(self, revealed: list[int]) -> list[int]:
        """PSM-1052: the accusation indices naming a pirate that is not revealed (sorted, cached)."""
        key = bytes(revealed)
        legal = self._accuse_actions.get(key)
        if legal is None:
            legal = [
                act.accuse_action(offset, pirate)
                for offset in range(1, self.num_players)
                for pirate in range(9)
                if not revealed[pirate]
            ]
            self._accuse_actions[key] = legal  # at most 2**9 keys
        return legal

    def action_to_string(self, action: int) -> str:
        return act.action_to_string(action, self.num_players)


class PotsmState(State):
    """One position. Every field is plain JSON data; see ``docs/potsm.md`` for the field list."""

    fields = (
        # the line (PSM-501), by position / by ship id
        "line",
        "damaged",
        "fame",
        # pirates (PSM-303, PSM-515, PSM-561), by pirate id; not_owner is flat [pirate * n + seat]
        "pirate_owner",
        "revealed",
        "not_owner",
        "claimed",
        # adventures (PSM-302, PSM-526, PSM-802): deck top last; per-type counts otherwise
        "adventure_deck",
        "adventure_row",
        "adventure_seen",
        "adventure_discard",
        "blind_fame_cards",
        # move cards (PSM-304, PSM-550, PSM-803): per-type counts; deck top last
        "move_row",
        "hands",
        "move_deck",
        "move_discard",
        # turn (PSM-306, PSM-401)
        "start_seat",
        "current_seat",
        "phase",
        "pending_accusation",
        "turn_index",
        "game_over",
        # public history (PSM-560, PSM-1079..1082); tallies are flat, indexed by absolute seat
        "move_tally",
        "repair_tally",
        "accusation_tally",
        "recent_turns",
    )
    not_per_seat = ("adventure_row",)  # n cards with PSM-802, fewer as the deck runs out

    # The counts the observation shows as they are live in bytearrays (see ByteCounts): the
    # encoder joins them into its buffer without converting element by element.
    damaged = ByteCounts()
    fame = ByteCounts()  # at most 232 (58 cards x 4 fame), like claimed
    not_owner = ByteCounts()
    claimed = ByteCounts()
    adventure_seen = ByteCounts()
    move_row = ByteCounts()
    move_discard = ByteCounts()
    move_tally = ByteCounts()  # each count at most the number of turns (<= 71)
    repair_tally = ByteCounts()
    accusation_tally = ByteCounts()

    game: PotsmGame
    line: list[int]
    pirate_owner: list[int]
    revealed: list[int]
    adventure_deck: list[int]
    adventure_row: list[int]
    adventure_discard: list[int]
    blind_fame_cards: list[int]
    hands: list[list[int]]
    move_deck: list[int]
    start_seat: int
    current_seat: int
    phase: int
    pending_accusation: list[int]
    turn_index: int
    game_over: bool
    recent_turns: list[list[int]]

    # --- Section 3: setup ----------------------------------------------------------------------------

    def _setup_game(self) -> None:
        game = self.game
        rng = self.rng
        n = game.num_players
        # PSM-301: the nine ships, shuffled, undamaged, no fame (CE1).
        self.line = list(range(9))
        rng.shuffle(self.line)
        self.damaged = bytearray(9)
        self.fame = bytearray(9)
        # PSM-302 / PSM-802: the adventure deck (CE2) and the face-up current adventure (or row).
        deck = [card for card, count in enumerate(ADVENTURE_COUNTS) for _ in range(count)]
        rng.shuffle(deck)
        self.adventure_deck = deck
        self.adventure_row = []
        self.adventure_seen = bytearray(NUM_ADVENTURE_TYPES)
        for _ in range(game.adventure_row_size):
            self._reveal_adventure()
        self.adventure_discard = [0] * NUM_ADVENTURE_TYPES
        self.blind_fame_cards = [0] * NUM_ADVENTURE_TYPES
        # PSM-303: deal the pirates face down (CE3); the rest are set aside unused.
        pirates = list(range(9))
        rng.shuffle(pirates)
        self.pirate_owner = [UNUSED] * 9
        per_player = game.pirates_per_player
        for i in range(n * per_player):
            self.pirate_owner[pirates[i]] = i // per_player
        self.revealed = [0] * 9
        self.not_owner = bytearray(9 * n)
        # PSM-304 / PSM-803: the move row (or the hands) and the move deck.
        moves = [card for card, count in enumerate(MOVE_COUNTS) for _ in range(count)]
        rng.shuffle(moves)
        self.move_deck = moves
        self.move_row = bytearray(NUM_MOVE_TYPES)
        self.hands = []
        if game.move_cards_in_hand:
            for _ in range(n):
                hand = [0] * NUM_MOVE_TYPES
                for _ in range(game.hand_size):
                    hand[moves.pop()] += 1
                self.hands.append(hand)
        else:
            for _ in range(MOVE_ROW_SIZE):
                self.move_row[moves.pop()] += 1
        self.move_discard = bytearray(NUM_MOVE_TYPES)
        # PSM-305
        self.claimed = bytearray(n)
        # PSM-306: random start seat, then clockwise.
        self.start_seat = rng.randrange(n)
        self.current_seat = self.start_seat
        self.phase = MAIN
        self.pending_accusation = []
        self.turn_index = 0
        self.game_over = False
        self.move_tally = bytearray(n * 27)
        self.repair_tally = bytearray(n)
        self.accusation_tally = bytearray(n * 9)
        self.recent_turns = []

    # --- copies ------------------------------------------------------------------------------------------

    _FLAT_LIST_FIELDS = tuple(
        name
        for name in fields
        if name not in ("hands", "recent_turns", "start_seat", "current_seat", "phase", "turn_index", "game_over")
    )

    def clone(self) -> PotsmState:
        """Independent copy (same result as the generic base clone, specialised for speed)."""
        new = object.__new__(PotsmState)
        d = new.__dict__
        src = self.__dict__
        d["game"] = self.game
        d["rng"] = self.rng.clone()
        d["decisions"] = self.decisions
        d["truncated"] = self.truncated
        d["_legal"] = self._legal
        for name in self._FLAT_LIST_FIELDS:
            d[name] = src[name][:]
        d["hands"] = [hand[:] for hand in self.hands]
        d["recent_turns"] = [record[:] for record in self.recent_turns]
        d["start_seat"] = self.start_seat
        d["current_seat"] = self.current_seat
        d["phase"] = self.phase
        d["turn_index"] = self.turn_index
        d["game_over"] = self.game_over
        return new

    # --- public helpers ---------------------------------------------------------------------------------

    @property
    def current_adventure(self) -> int | None:
        """The adventure card type that resolves after this turn (PSM-302), or None after the end."""
        return self.adventure_row[0] if self.adventure_row else None

    def position_of(self, ship: int) -> int:
        """0-based position of ``ship`` in the line (rules position = this + 1)."""
        return self.line.index(ship)

    def available_moves(self, seat: int) -> list[int]:
        """Per move type, the cards ``seat`` may play: the move row (base) or its own hand (PSM-803)."""
        return list(self.hands[seat] if self.game.move_cards_in_hand else self.move_row)

    def owned_ships(self, seat: int) -> list[int]:
        """Ships whose pirate ``seat`` holds (hidden information: for tests, bots' own seat, scoring)."""
        return [j for j in range(9) if self.pirate_owner[j] == seat]

    def winner(self) -> int | None:
        """PSM-703: the winning seat once the game has ended by its rules; None before or if truncated."""
        if not self.game_over or self.truncated:
            return None
        return self._ranking()[0]

    def _winners(self) -> list[int]:
        return [self._ranking()[0]]

    def _ranking(self) -> list[int]:
        """Seats best first by (score, undamaged owned ships, frontmost owned position) (PSM-703)."""
        scores = self._scores()
        position = [0] * 9
        for p, ship in enumerate(self.line):
            position[ship] = p

        def key(seat: int) -> tuple[float, int, int]:
            owned = self.owned_ships(seat)
            undamaged = sum(1 for j in owned if not self.damaged[j])
            front = min((position[j] for j in owned), default=9)
            return (scores[seat], undamaged, -front)

        return sorted(range(self.game.num_players), key=key, reverse=True)

    # --- Section 4: turn structure ----------------------------------------------------------------------

    def _current_player(self) -> int:
        return self.current_seat

    def _phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def _is_terminal(self) -> bool:
        return self.game_over

    def _legal_actions(self) -> list[int]:
        """PSM-1040..1052 (sorted): move plays, Repair, Pass, Pass-discard, accusations; or DP2 discards."""
        seat = self.current_seat
        if self.phase == ACCUSE_DISCARD:  # PSM-1051
            hand = self.hands[seat]
            return [act.ACCUSE_DISCARD_BASE + t for t in range(NUM_MOVE_TYPES) if hand[t]]
        game = self.game
        available = self.hands[seat] if game.move_cards_in_hand else self.move_row
        # The MAIN list depends only on these facts; the game caches it by their content.
        key = bytes(available) + bytes(self.revealed)
        if available[SABOTAGE]:
            damaged = self.damaged
            key += bytes([damaged[ship] for ship in self.line])
        legal = game.main_actions_cache.get(key)
        if legal is None:
            legal = game.main_actions(available, self.revealed, [self.damaged[ship] for ship in self.line])
            if len(game.main_actions_cache) >= game.CACHE_LIMIT:
                game.main_actions_cache.clear()
            game.main_actions_cache[key] = legal
        return legal  # shared with the cache: the base class only reads it and hands out copies

    def _apply_action(self, action: int) -> None:
        """PSM-401: resolve the action, then (unless Fog) the adventure, then advance the adventure."""
        game = self.game
        seat = self.current_seat
        kind, move_type, parameter = game.action_table[action]
        fog = False
        if kind == act.KIND_MOVE:
            record = self._play_move_card(seat, move_type, parameter)
            fog = move_type == FOG
        elif kind == act.KIND_ACCUSE:
            offset, pirate = parameter
            target = (seat + offset) % game.num_players
            if game.move_cards_in_hand:  # PSM-803: pay with a hand card first (DP2)
                self.phase = ACCUSE_DISCARD
                self.pending_accusation = [target, pirate]
                return
            record = self._accuse(seat, target, pirate)
        elif kind == act.KIND_ACCUSE_DISCARD:  # PSM-803: discard, no replacement, then the accusation
            self.hands[seat][parameter] -= 1
            self.move_discard[parameter] += 1
            target, pirate = self.pending_accusation
            self.phase = MAIN
            self.pending_accusation = []
            record = self._accuse(seat, target, pirate)
            record[act.RECORD_CARD] = parameter
        elif kind == act.KIND_REPAIR:  # PSM-513
            self.damaged = bytearray(9)
            self.repair_tally[seat] += 1
            record = [seat, act.TURN_KIND_REPAIR, NO_SEAT, 0, 0, 0, 0, 0, 0, 0, 0, 0, NO_CARD]
        elif kind == act.KIND_PASS:  # PSM-518
            record = [seat, act.TURN_KIND_PASS, NO_SEAT, 0, 0, 0, 0, 0, 0, 0, 0, 0, NO_CARD]
        else:  # PSM-518: pass and discard one card, then draw a replacement
            self._discard_and_replace(seat, parameter)
            record = [seat, act.TURN_KIND_PASS_DISCARD, NO_SEAT, 0, 0, 0, 0, 0, 0, 0, 0, 0, parameter]
        self._finish_turn(seat, record, fog)

    def _finish_turn(self, seat: int, record: list[int], fog: bool) -> None:
        """PSM-401 steps 4-6: adventure (not after Fog, PSM-542), advance, record, next seat."""
        if not fog:
            self._resolve_adventure()
            self._advance_adventure()
        self.turn_index += 1
        recent = self.recent_turns
        recent.insert(0, record)
        n = self.game.num_players
        if len(recent) > n:
            del recent[n:]
        if self.game_over:
            for pirate in range(9):  # PSM-701: every pirate card is revealed
                if not self.revealed[pirate]:
                    self._reveal_pirate(pirate)
        else:
            self.current_seat = (seat + 1) % n

    # --- 5.2 actions ------------------------------------------------------------------------------------

    def _play_move_card(self, seat: int, move_type: int, parameter: Any) -> list[int]:
        """PSM-510: play a card from the row (or hand), apply it (PSM-630..637), discard it, draw one."""
        line = self.line
        record = [seat, move_type, NO_SEAT, 0, 0, 0, 0, 0, 0, 0, 0, 0, NO_CARD]
        if move_type == SABOTAGE:  # PSM-636
            ship = line[parameter]
            self.damaged[ship] = 1
            record[3 + ship] = 1
            targets: tuple[int, ...] | list[int] = (ship,)
        elif move_type == FOG:  # PSM-637
            targets = ()
        else:
            before = line[:]
            if move_type == FULL_SPEED_AHEAD:  # PSM-630
                targets = (line[parameter],)
                move_ship(line, parameter, -FULL_SPEED_DISTANCE)
            elif move_type == LOST_AT_SEA:  # PSM-631
                targets = (line[parameter],)
                move_ship(line, parameter, LOST_AT_SEA_DISTANCE)
            elif move_type == TEMPORARY_ALLIANCE:  # PSM-632
                targets = line[parameter : parameter + 2]
                move_pair(line, parameter, -ALLIANCE_DISTANCE)
            elif move_type < 4:  # PSM-633 Caught in a Rip
                targets = line[parameter : parameter + 2]
                move_pair(line, parameter, RIP_DISTANCE)
            elif move_type < 7:  # PSM-634
                targets = SHIPS_OF_NATION[move_type - 4]
                nation_advance(line, move_type - 4)
            else:  # PSM-635
                targets = SHIPS_OF_NATION[move_type - 7]
                nation_retreat(line, move_type - 7)
            # PSM-1082: signed forward displacement = old position - new position
            for p in range(9):
                record[3 + before[p]] += p
                record[3 + line[p]] -= p
        column = MOVE_TALLY_COLUMN[move_type]  # PSM-1079
        if column >= 0:
            tally = self.move_tally
            base = seat * 27 + column
            for ship in targets:
                tally[base + ship * 3] += 1
        self._discard_and_replace(seat, move_type)
        return record

    def _discard_and_replace(self, seat: int, move_type: int) -> None:
        """PSM-510 / PSM-518: the card goes face up to the move discard pile; draw 1 into the row / hand."""
        available = self.hands[seat] if self.game.move_cards_in_hand else self.move_row
        available[move_type] -= 1
        self.move_discard[move_type] += 1
        available[self._draw_move_card()] += 1

    def _accuse(self, seat: int, target: int, pirate: int) -> list[int]:
        """PSM-515 / PSM-516: a correct guess reveals the pirate and steals ceil(f/2) fame; a wrong one is public."""
        self.accusation_tally[seat * 9 + pirate] += 1
        record = [seat, act.TURN_KIND_ACCUSE_WRONG, target, 0, 0, 0, 0, 0, 0, 0, 0, 0, NO_CARD]
        record[3 + pirate] = 1
        if self.pirate_owner[pirate] == target:
            self._reveal_pirate(pirate)
            stolen = (self.fame[pirate] + 1) // 2
            self.fame[pirate] -= stolen
            self.claimed[seat] += stolen
            record[1] = act.TURN_KIND_ACCUSE_CORRECT
        else:
            self.not_owner[pirate * self.game.num_players + target] = 1  # PSM-561
        return record

    def _reveal_pirate(self, pirate: int) -> None:
        """PSM-515 / PSM-625 / PSM-701: the owner becomes public, so every other seat is publicly not it."""
        self.revealed[pirate] = 1
        owner = self.pirate_owner[pirate]
        n = self.game.num_players
        for seat in range(n):
            if seat != owner:
                self.not_owner[pirate * n + seat] = 1

    # --- 5.3 / Section 6: adventure resolution ------------------------------------------------------------

    def _resolve_adventure(self) -> None:
        """PSM-520, PSM-526: apply the current card; F = 0 -> discard; else it and F-1 blind cards become fame."""
        card = self.adventure_row[0]
        awarded = self._adventure_effect(card)
        if awarded == 0:
            self.adventure_discard[card] += 1
            return
        deck = self.adventure_deck
        blind = self.blind_fame_cards
        for _ in range(min(awarded - 1, len(deck))):  # CE6; the shortfall is virtual fame
            blind[deck.pop()] += 1

    def _adventure_effect(self, card: int) -> int:
        """Section 6 (PSM-610..627): apply the effect of ``card``; returns the fame awarded F."""
        line = self.line
        damaged = self.damaged
        fame = self.fame
        if card < _AWARD_CARDS_END:
            awarded = 0
            if card in FRONT_AWARDS:  # PSM-613, 614, 616, 617 (front k undamaged ships, PSM-522)
                count, amount = FRONT_AWARDS[card]
                recipients = [ship for ship in line if not damaged[ship]][:count]
                for ship in recipients:
                    fame[ship] += amount
                    awarded += amount
                    if card == CURSED_TREASURE:
                        damaged[ship] = 1
            else:  # PSM-610, 611, 612, 615 (listed positions, PSM-523)
                for p in POSITION_AWARDS[card]:
                    ship = line[p]
                    if not damaged[ship]:
                        fame[ship] += 1
                        awarded += 1
            return awarded
        if card in (STORM_AHEAD, MAELSTROM):  # PSM-618, PSM-619: last undamaged ships (PSM-522)
            count = 2 if card == STORM_AHEAD else 1
            for ship in [s for s in reversed(line) if not damaged[s]][:count]:
                damaged[ship] = 1
        elif card == VOLCANO:  # PSM-621
            for ship in line:
                if not damaged[ship]:
                    damaged[ship] = 1
                    break
        elif card in POSITION_DAMAGE:  # PSM-620, 622, 623
            for p in POSITION_DAMAGE[card]:
                ship = line[p]
                damaged[ship] = 1
                if card == GHOST_SHIP and fame[ship] > 0:  # PSM-620, PSM-1117
                    fame[ship] -= 1
        elif card == CURSED_SHIP:  # PSM-624
            for p in CURSED_SHIP_POSITIONS:
                ship = line[p]
                if fame[ship] > 0:
                    fame[ship] -= 1
        elif card == MUTINY:  # PSM-625
            self._mutiny()
        elif card < ENGLISH_LOOT:  # PSM-626 X Attack
            nation = card - ENGLISH_ATTACK
            # X ships are never hit, so the backmost undamaged X ship decides who is hit.
            last_attacker = -1
            for p, ship in enumerate(line):
                if NATION_OF_SHIP[ship] == nation and not damaged[ship]:
                    last_attacker = p
            for p in range(last_attacker):
                ship = line[p]
                if NATION_OF_SHIP[ship] != nation:
                    damaged[ship] = 1
        else:  # PSM-627 X Loot
            nation = card - ENGLISH_LOOT
            for p in range(9):
                looter = line[p]
                if NATION_OF_SHIP[looter] != nation or damaged[looter]:
                    continue
                for q in range(p + 1, 9):
                    victim = line[q]
                    if NATION_OF_SHIP[victim] != nation and fame[victim] > 0:
                        fame[victim] -= 1
                        fame[looter] += 1
        return 0  # PSM-527: only the award cards turn into fame

    def _mutiny(self) -> None:
        """PSM-625: the frontmost ship whose pirate is unrevealed; reveal its owner and halve its fame (up)."""
        for ship in self.line:
            if not self.revealed[ship]:
                break
        else:
            return
        owner = self.pirate_owner[ship]
        if owner == UNUSED:  # publicly unowned (PSM-561)
            n = self.game.num_players
            for seat in range(n):
                self.not_owner[ship * n + seat] = 1
            return
        self._reveal_pirate(ship)
        self.fame[ship] -= (self.fame[ship] + 1) // 2  # PSM-1119

    # --- 5.5 advancing the adventure; game end -----------------------------------------------------------

    def _reveal_adventure(self) -> None:
        """CE7: the top adventure card goes face up into the first empty row slot."""
        card = self.adventure_deck.pop()
        self.adventure_row.append(card)
        self.adventure_seen[card] += 1

    def _advance_adventure(self) -> None:
        """PSM-540 / PSM-802: drop the resolved card, shift the row, reveal one; an empty row ends the game."""
        row = self.adventure_row
        del row[0]
        deck = self.adventure_deck
        if deck:  # CE7
            card = deck.pop()
            row.append(card)
            self.adventure_seen[card] += 1
        elif not row:
            self.game_over = True

    # --- 5.6 move deck ----------------------------------------------------------------------------------

    def _draw_move_card(self) -> int:
        """PSM-550: an empty move deck is first rebuilt from the whole discard pile, shuffled (CE5)."""
        deck = self.move_deck
        if not deck:
            discard = self.move_discard
            for card in range(NUM_MOVE_TYPES):
                deck += [card] * discard[card]
            self.move_discard = bytearray(NUM_MOVE_TYPES)
            self.rng.shuffle(deck)
        return deck.pop()

    # --- Section 7: scoring -----------------------------------------------------------------------------

    def _scores(self) -> list[float]:
        """PSM-702: fame under the seat's ships (revealed or not) plus its claimed fame."""
        totals = [float(c) for c in self.claimed]
        fame = self.fame
        for ship, owner in enumerate(self.pirate_owner):
            if owner >= 0:
                totals[owner] += fame[ship]
        return totals

    def _returns(self) -> list[float]:
        """PSM-1020: win (+1 / -1 by PSM-703) or the score margin over the best other seat."""
        if self.game.reward_mode == "score":
            return score_margin_returns(self._scores(), self.game.score_scale)
        return win_loss_returns(self._ranking()[0], self.game.num_players)

    # --- observation, rendering ----------------------------------------------------------------------------

    def render(self, viewer: int | None = None) -> str:
        from pirate_envs.games.potsm.render import render

        return render(self, self.check_viewer(viewer))

    # --- PSM-902: determinisation -------------------------------------------------------------------------

    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        """Redraw what ``seat`` cannot see: others' unrevealed pirates, the adventure deck, the move deck/hands."""
        self._resample_pirates(seat, rng)
        # The adventure deck: a random subset of the cards never seen face up; the rest were taken blind.
        pool = [card for card, count in enumerate(ADVENTURE_COUNTS) for _ in range(count - self.adventure_seen[card])]
        rng.shuffle(pool)
        size = len(self.adventure_deck)
        self.adventure_deck = pool[:size]
        self.blind_fame_cards = [0] * NUM_ADVENTURE_TYPES
        for card in pool[size:]:
            self.blind_fame_cards[card] += 1
        # The move cards: the deck order (base), or the unseen cards split among other hands and the deck.
        # Every pool is put in a canonical (sorted) order before shuffling, so the redraw depends only
        # on what ``seat`` saw and on ``rng``, never on the real hidden order (a search bot relies on it).
        if self.game.move_cards_in_hand:
            unseen = sorted(self.move_deck)
            others = [t for t in range(self.game.num_players) if t != seat]
            sizes = {}
            for other in others:
                hand = self.hands[other]
                sizes[other] = sum(hand)
                unseen += [card for card in range(NUM_MOVE_TYPES) for _ in range(hand[card])]
            unseen.sort()
            rng.shuffle(unseen)
            for other in others:
                hand = [0] * NUM_MOVE_TYPES
                for _ in range(sizes[other]):
                    hand[unseen.pop()] += 1
                self.hands[other] = hand
            self.move_deck = unseen
        else:
            self.move_deck.sort()
            rng.shuffle(self.move_deck)

    def _resample_pirates(self, seat: int, rng: Rng) -> None:
        """Reassign the pirates ``seat`` cannot place, uniformly among deals consistent with PSM-561.

        Rejection sampling first (uniform given acceptance); if it keeps failing, all consistent
        deals are enumerated (at most 7!/(2!2!2!1!) = 630) and one is drawn uniformly, so the
        result is uniform either way.
        """
        n = self.game.num_players
        owner = self.pirate_owner
        unknown = [j for j in range(9) if not self.revealed[j] and owner[j] != seat]
        if not unknown:
            return
        slots = sorted(owner[j] for j in unknown)  # the same seats and unused slots, to be refilled
        not_owner = self.not_owner

        def fits(pirates: list[int]) -> bool:
            return all(t == UNUSED or not not_owner[j * n + t] for j, t in zip(pirates, slots, strict=True))

        pirates = list(unknown)
        for _ in range(REJECTION_TRIES):
            rng.shuffle(pirates)
            if fits(pirates):
                break
        else:
            deals = self._consistent_deals(unknown, slots)
            assignment = deals[rng.randrange(len(deals))]
            for j, t in zip(unknown, assignment, strict=True):
                owner[j] = t
            return
        for j, t in zip(pirates, slots, strict=True):
            owner[j] = t

    def _consistent_deals(self, unknown: list[int], slots: list[int]) -> list[tuple[int, ...]]:
        """Every distinct owner assignment of ``unknown`` (seat or UNUSED each) fitting slot counts and PSM-561."""
        n = self.game.num_players
        not_owner = self.not_owner
        capacity: dict[int, int] = {}
        for t in slots:
            capacity[t] = capacity.get(t, 0) + 1
        deals: list[tuple[int, ...]] = []
        chosen: list[int] = []

        def place(i: int) -> None:
            if i == len(unknown):
                deals.append(tuple(chosen))
                return
            j = unknown[i]
            for t in capacity:
                if capacity[t] and (t == UNUSED or not not_owner[j * n + t]):
                    capacity[t] -= 1
                    chosen.append(t)
                    place(i + 1)
                    chosen.pop()
                    capacity[t] += 1

        place(0)
        if not deals:
            raise AssertionError("no pirate deal is consistent with the public facts")
        return deals

    # --- invariants --------------------------------------------------------------------------------------

    def check_invariants(self) -> None:
        """Raise AssertionError if card conservation or any structural invariant fails."""
        game = self.game
        n = game.num_players
        self._check_ranges()
        assert sorted(self.line) == list(range(9)), f"line is not a permutation: {self.line}"
        assert all(d in (0, 1) for d in self.damaged) and len(self.damaged) == 9
        assert len(self.fame) == 9 and all(f >= 0 for f in self.fame), f"fame {self.fame}"
        assert len(self.claimed) == n and all(c >= 0 for c in self.claimed)
        # pirates: 9 cards across hands and the unused pile (PSM-303)
        for seat in range(n):
            assert self.pirate_owner.count(seat) == game.pirates_per_player, f"seat {seat} pirates"
        assert self.pirate_owner.count(UNUSED) == game.unused_pirates
        assert all(r in (0, 1) for r in self.revealed)
        for j in range(9):
            for seat in range(n):
                if self.not_owner[j * n + seat]:
                    assert self.pirate_owner[j] != seat, f"public fact 'seat {seat} does not own {j}' is false"
            if self.revealed[j]:
                assert all(self.not_owner[j * n + t] for t in range(n) if t != self.pirate_owner[j])
            if self.revealed[j] and not self.game_over:
                assert self.pirate_owner[j] != UNUSED, "an unused pirate is revealed before the end"
        if self.game_over:
            assert all(self.revealed), "PSM-701: every pirate is revealed at the end"
        # adventures: 58 cards = seen (row, discard, seen fame) + deck + blind fame (PSM-526)
        assert len(self.adventure_seen) == len(self.blind_fame_cards) == NUM_ADVENTURE_TYPES
        assert sum(self.adventure_seen) + len(self.adventure_deck) + sum(self.blind_fame_cards) == NUM_ADVENTURE_CARDS
        for card in range(NUM_ADVENTURE_TYPES):
            in_deck = self.adventure_deck.count(card)
            assert self.adventure_seen[card] + in_deck + self.blind_fame_cards[card] == ADVENTURE_COUNTS[card], (
                f"adventure card type {card} not conserved"
            )
            assert self.adventure_discard[card] + self.adventure_row.count(card) <= self.adventure_seen[card]
        assert len(self.adventure_row) <= game.adventure_row_size
        if self.game_over:
            assert not self.adventure_row and not self.adventure_deck
        else:
            assert self.adventure_row, "a running game has a current adventure"
            if self.adventure_deck:
                assert len(self.adventure_row) == game.adventure_row_size
        # move cards: 24 across row, hands, deck and discard pile (PSM-204)
        totals = list(self.move_row)
        for hand in self.hands:
            for card in range(NUM_MOVE_TYPES):
                totals[card] += hand[card]
        for card in self.move_deck:
            totals[card] += 1
        for card in range(NUM_MOVE_TYPES):
            totals[card] += self.move_discard[card]
            assert all(x >= 0 for x in (self.move_row[card], self.move_discard[card]))
        assert totals == list(MOVE_COUNTS), f"move cards not conserved: {totals}"
        assert sum(totals) == NUM_MOVE_CARDS
        if game.move_cards_in_hand:
            assert len(self.hands) == n and sum(self.move_row) == 0
            for hand in self.hands:
                assert min(hand) >= 0 and 1 <= sum(hand) <= game.hand_size, f"hand {hand}"
        else:
            assert not self.hands and sum(self.move_row) == MOVE_ROW_SIZE
        # turn
        assert 0 <= self.current_seat < n and 0 <= self.start_seat < n
        assert self.phase in (MAIN, ACCUSE_DISCARD)
        if self.phase == ACCUSE_DISCARD:
            assert game.move_cards_in_hand and len(self.pending_accusation) == 2
            target, pirate = self.pending_accusation
            assert target != self.current_seat and 0 <= target < n and not self.revealed[pirate]
            assert sum(self.hands[self.current_seat]) >= 2
        else:
            assert self.pending_accusation == []
        assert len(self.recent_turns) == min(n, self.turn_index)
        assert all(len(record) == act.RECORD_LENGTH for record in self.recent_turns)
        assert sum(self.repair_tally) <= self.turn_index
        assert len(self.move_tally) == 27 * n and len(self.accusation_tally) == 9 * n

    def _check_ranges(self) -> None:
        """Every index and count in its range (what ``state_from_dict`` relies on before the rules run)."""
        n = self.game.num_players
        assert_in_range("line", self.line, 0, 8, length=9)
        assert_in_range("pirate_owner", self.pirate_owner, UNUSED, n - 1, length=9)
        assert_in_range("revealed", self.revealed, 0, 1, length=9)
        assert len(self.damaged) == 9 and len(self.not_owner) == 9 * n, "damaged / not_owner length"
        assert_in_range("adventure_deck", self.adventure_deck, 0, NUM_ADVENTURE_TYPES - 1)
        assert_in_range("adventure_row", self.adventure_row, 0, NUM_ADVENTURE_TYPES - 1)
        assert_in_range("adventure_discard", self.adventure_discard, 0, NUM_ADVENTURE_CARDS, NUM_ADVENTURE_TYPES)
        assert_in_range("blind_fame_cards", self.blind_fame_cards, 0, NUM_ADVENTURE_CARDS, NUM_ADVENTURE_TYPES)
        assert len(self.move_row) == len(self.move_discard) == NUM_MOVE_TYPES, "move_row / move_discard length"
        for hand in self.hands:
            assert_in_range("hands", hand, 0, NUM_MOVE_CARDS, NUM_MOVE_TYPES)
        assert_in_range("move_deck", self.move_deck, 0, NUM_MOVE_TYPES - 1)
        assert_in_range("start_seat", self.start_seat, 0, n - 1)
        assert_in_range("current_seat", self.current_seat, 0, n - 1)
        assert_in_range("phase", self.phase, MAIN, ACCUSE_DISCARD)
        assert_in_range("pending_accusation", self.pending_accusation, 0, 8)
        assert_in_range("turn_index", self.turn_index, 0, self.game.max_decisions)  # one decision or more a turn
        for record in self.recent_turns:
            assert len(record) == act.RECORD_LENGTH, "recent_turns record length"
            assert_in_range("recent_turns (actor)", record[act.RECORD_ACTOR], 0, n - 1)
            assert_in_range("recent_turns (kind)", record[act.RECORD_KIND], 0, act.NUM_TURN_KINDS - 1)
            assert_in_range("recent_turns (accused)", record[act.RECORD_ACCUSED], NO_SEAT, n - 1)
            assert_in_range("recent_turns (card)", record[act.RECORD_CARD], NO_CARD, NUM_MOVE_TYPES - 1)


PotsmGame.state_class = PotsmState
