"""The rules engine of Madame Ching (``docs/rules/madame_ching.md``, prefix MCH).

The module follows the rules file: the game's facts and options (Section 8, 10), setup
(Section 3), the round (Section 4: deal, secret select, reveal, boat-turns), placing a card and
ending an expedition (5.2, 5.3), the action window with encounter cards and Combat (5.5, 6.2),
take / Cartography / team passes, running out (5.6), scoring (Section 7) and determinisation.

Conventions: navigation cards are their numbers 1..55 (0 = no card); boats are indexed
0..B-1 (one per seat with 3-4 players; with 2 players seat s owns boats 2s (A) and 2s+1 (B));
ship positions are ``[column, row]`` with column 0 = start box; encounter hands are per-kind
counts; token lists are ``[gold, blue, red, white]``; skill lists are 5 unused then 5 used counts.
A boat-turn is a small program: ``step`` names the next automatic step, ``phase`` the decision
being asked; :meth:`MadameChingState._advance` runs automatic steps until a decision is needed,
and forced single-choice decisions are applied there too (MCH-402).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pirate_envs.core.game import Game, State, assert_in_range
from pirate_envs.core.options import Option
from pirate_envs.core.rewards import clipped_margin, reward_options, team_win_loss_returns
from pirate_envs.core.rng import Rng
from pirate_envs.games.madame_ching import actions as act
from pirate_envs.games.madame_ching.cards import (
    CARTOGRAPHY,
    COLOUR,
    COMBAT,
    ELITE,
    ENC_COUNTS,
    HONG_KONG_SPACES,
    ICON,
    LAST_COLUMN,
    LAST_ROW,
    LINE_DRAWS,
    MISSION_NUMBER,
    MISSION_REWARD,
    NEGOTIATOR,
    NIGHT_SAILING,
    NUM_ENC_KINDS,
    NUM_MISSIONS,
    NUM_NAV_CARDS,
    ORACLE,
    PLAYABLE_KINDS,
    SALVAGER,
    SIREN,
    SKILL_STACK_SIZE,
    SKILL_VP,
    SLOT_CAPACITY,
    SPY,
    THIEF,
    TOKEN_SUPPLY,
    TOKEN_VP,
    TREASURE_VP,
    WEATHER,
    mission_count,
)

PEARL_VP = 5  # MCH-620
HONG_KONG_VP = 10
SCORE_SCALE = 50.0  # MCH-1007

# history codes (MCH-1005): 0 none, 1..7 encounter kinds Thief..Madame Ching, 8 Combat
HISTORY_COMBAT = 8


class MadameChingGame(Game):
    """Madame Ching for 2-4 players, with the two-boat 2-player rule and the 2v2 team variant (MCH-801..807)."""

    game_id = "madame_ching_v0"
    display_name = "Madame Ching"
    player_counts = (2, 3, 4)
    default_num_players = 4  # MCH-101
    option_specs = (
        Option(
            "two_player_dual_boats",
            True,
            bool,
            "MCH-802: the 2-player two-boat rule; forced true with 2 players, ignored otherwise",
        ),
        Option("team_mode", False, bool, "MCH-803: 2v2 teams {0,2} v {1,3}; only with 4 players (ignored otherwise)"),
        Option("elite_counts_for_china_pearl", False, bool, "MCH-804: Elite cards stand in for missing kinds"),
        Option("round_limit", 40, int, "MCH-805: the game ends after this round at the latest", minimum=1),
        Option("auto_resolve_forced", True, bool, "MCH-806: apply single-choice decisions automatically"),
        *reward_options("MCH-1007", modes="'win' (+1/-1) or 'score' (margin / 50)"),
        Option("max_decisions", 25000, int, "MCH-1008: truncate after this many decisions", minimum=1),
    )
    # Rule variants the shared conformance suite exercises (tests/conftest.py).
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "base": {},
        "team": {"team_mode": True, "round_limit": 15},  # shorter random games keep the suite fast
        "manual": {"auto_resolve_forced": False, "elite_counts_for_china_pearl": True, "round_limit": 12},
    }
    observation_low = 0.0
    observation_high = 10.0

    def _setup(self) -> None:
        from pirate_envs.games.madame_ching.observation import ObservationEncoder

        n = self.num_players
        self.team_mode: bool = bool(self.options["team_mode"]) and n == 4  # MCH-803
        self.dual_boats: bool = n == 2  # MCH-802
        self.num_boats: int = 4 if n == 2 else n
        self.boat_owner: list[int] = [b // 2 for b in range(4)] if n == 2 else list(range(n))
        self.boats_of: list[list[int]] = [[2 * s, 2 * s + 1] for s in range(2)] if n == 2 else [[s] for s in range(n)]
        self.hand_size: int = 5 if n == 2 else 4  # MCH-304
        self.mission_count: int = mission_count(n)  # MCH-303
        self.round_limit: int = self.options["round_limit"]
        self.auto_resolve: bool = self.options["auto_resolve_forced"]
        self.elite_pearl: bool = self.options["elite_counts_for_china_pearl"]
        self.num_actions = act.NUM_ACTIONS
        self.encoder = ObservationEncoder(n, self.num_boats)
        self.observation_size = self.encoder.size
        # Seats that are opponents of each seat (MCH-104, MCH-554: never the partner).
        self.opponents: list[list[int]] = [
            [q for q in range(n) if q != s and not (self.team_mode and q == (s + 2) % 4)] for s in range(n)
        ]

    def action_to_string(self, action: int) -> str:
        return act.action_to_string(action)

    def partner(self, seat: int) -> int:
        return (seat + 2) % 4

    def side_of(self, seat: int) -> int:
        """Scoring side: the team (seat mod 2) in team mode, else the seat (MCH-706)."""
        return seat % 2 if self.team_mode else seat

    @property
    def num_sides(self) -> int:
        """Two teams in the 2v2 variant (MCH-803), else one side per seat."""
        return 2 if self.team_mode else self.num_players


class MadameChingState(State):
    """One position of Madame Ching."""

    fields = (
        "round",
        "end_triggered",
        "over",
        "nav_deck",
        "nav_discard",
        "enc_deck",
        "enc_discard",
        "hands",
        "enc_hands",
        "picks",
        "shown_picks",
        "revealed",
        "order",
        "turn_index",
        "acted",
        "expeditions",
        "positions",
        "history",
        "display",
        "board",
        "set_aside",
        "taken_tiles",
        "tokens",
        "supply",
        "skills",
        "stacks",
        "pearl_owner",
        "hk_owner",
        "known",
        "phase",
        "step",
        "select_seat",
        "select_boat",
        "active_boat",
        "pending_card",
        "move_return",
        "end_gains",
        "claim_pool",
        "gift_queue",
        "enc_played",
        "pending_enc",
        "pending_target",
        "combat_card",
        "owes",
        "give_open",
        "last_action",
    )

    game: MadameChingGame

    # --- setup (Section 3) ---------------------------------------------------------------------------
    def _setup_game(self) -> None:
        g = self.game
        n, nb = g.num_players, g.num_boats
        rng = self.rng
        self.enc_deck = [k for k in range(NUM_ENC_KINDS) for _ in range(ENC_COUNTS[k])]  # MCH-301
        rng.shuffle(self.enc_deck)
        self.enc_discard: list[int] = []
        self.stacks = [SKILL_STACK_SIZE] * 5  # MCH-302
        tiles = list(range(NUM_MISSIONS))  # MCH-303
        rng.shuffle(tiles)
        self.board: list[int] = []
        self.set_aside: list[int] = []
        free = dict(SLOT_CAPACITY)
        for tile in tiles:
            if len(self.board) == g.mission_count:
                break
            number = MISSION_NUMBER[tile]
            if free.get(number, 0) > 0:
                free[number] -= 1
                self.board.append(tile)
            else:
                self.set_aside.append(tile)
        self.board.sort()
        self.set_aside.sort()
        self.nav_deck = list(range(1, NUM_NAV_CARDS + 1))  # MCH-304
        rng.shuffle(self.nav_deck)
        self.nav_discard: list[int] = []
        self.hands = [[self.nav_deck.pop() for _ in range(g.hand_size)] for _ in range(n)]
        for hand in self.hands:
            hand.sort()
        self.enc_hands = [[0] * NUM_ENC_KINDS for _ in range(n)]
        self.picks = [0] * nb
        self.shown_picks = [0] * nb
        self.revealed = False
        self.order: list[int] = []
        self.turn_index = 0
        self.acted = [False] * nb
        self.expeditions: list[list[int]] = [[] for _ in range(nb)]  # MCH-305
        self.positions = [[0, 0] for _ in range(nb)]
        self.history: list[list[list[int]]] = [[] for _ in range(nb)]
        self.display = [0, 0, 0, 0]
        self.taken_tiles: list[list[int]] = [[] for _ in range(n)]
        self.tokens = [[0, 0, 0, 0] for _ in range(n)]  # MCH-306
        self.supply = list(TOKEN_SUPPLY)
        self.skills = [[0] * 10 for _ in range(n)]
        self.pearl_owner = -1
        self.hk_owner = -1
        self.known: list[list[list[int]]] = [[[] for _ in range(n)] for _ in range(n)]
        self.round = 0
        self.end_triggered = False
        self.over = False
        self.phase = act.SELECT
        self.step = "new_round"
        self.select_seat = 0
        self.select_boat = 0
        self.active_boat = -1
        self.pending_card = 0
        self.move_return = ""
        self.end_gains = 0
        self.claim_pool = [0, 0, 0, 0]
        self.gift_queue: list[int] = []
        self.enc_played = False
        self.pending_enc = -1
        self.pending_target = -1
        self.combat_card = 0
        self.owes = [0] * n
        self.give_open = False
        self.last_action = [[0, 0] for _ in range(n)]
        self._run()

    # --- helpers ---------------------------------------------------------------------------------------
    def active_seat(self) -> int:
        return self.game.boat_owner[self.active_boat]

    def has_skill(self, seat: int, kind: int) -> bool:
        """An unused card of ``kind`` or an unused Elite (MCH-526)."""
        s = self.skills[seat]
        return s[kind] > 0 or s[ELITE] > 0

    def _spend_skill(self, seat: int, kind: int) -> None:
        """MCH-525/526: flip a basic card of that kind if owned, else an Elite."""
        s = self.skills[seat]
        if s[kind] == 0:
            kind = ELITE
        s[kind] -= 1
        s[5 + kind] += 1

    def _draw_nav(self) -> int:
        """MCH-540: top card of the navigation deck (reshuffling the discard pile); 0 if none."""
        if not self.nav_deck:
            if not self.nav_discard:
                return 0
            self.nav_deck = self.nav_discard
            self.nav_discard = []
            self.rng.shuffle(self.nav_deck)
        return self.nav_deck.pop()

    def _draw_nav_to_hand(self, seat: int) -> None:
        card = self._draw_nav()
        if card:
            self._to_hand(seat, card)

    def _draw_enc(self, seat: int) -> None:
        """MCH-541: draw an encounter card; in team mode it is offered as a gift (MCH-553)."""
        if not self.enc_deck:
            if not self.enc_discard:
                return
            self.enc_deck = self.enc_discard
            self.enc_discard = []
            self.rng.shuffle(self.enc_deck)
        self._gain_enc(seat, self.enc_deck.pop())

    def _gain_enc(self, seat: int, kind: int) -> None:
        self.enc_hands[seat][kind] += 1
        if self.game.team_mode:
            self.gift_queue.append(kind)

    def _pay(self, seat: int, token: int, amount: int) -> None:
        """MCH-542: as many as the supply holds."""
        paid = min(amount, self.supply[token])
        self.supply[token] -= paid
        self.tokens[seat][token] += paid

    def _forget(self, card: int) -> None:
        """MCH-917: a played or placed card leaves every 'known' list."""
        for row in self.known:
            for cards in row:
                if card in cards:
                    cards.remove(card)

    def _learn(self, knower: int, holder: int, card: int) -> None:
        """``knower`` now knows ``card`` is in ``holder``'s hand (and nowhere else)."""
        for other, cards in enumerate(self.known[knower]):
            if other != holder and card in cards:
                cards.remove(card)
        cards = self.known[knower][holder]
        if card not in cards:
            cards.append(card)

    def _to_hand(self, seat: int, card: int) -> None:
        """A card enters ``seat``'s hand; the seat's own stale knowledge of it is dropped."""
        hand = self.hands[seat]
        hand.append(card)
        hand.sort()
        for cards in self.known[seat]:
            if card in cards:
                cards.remove(card)

    def _give_nav(self, giver: int, receiver: int, card: int) -> None:
        """Hidden hand-to-hand transfer known to both (Combat give, team passes; MCH-911/913)."""
        self.hands[giver].remove(card)
        self._to_hand(receiver, card)
        self._learn(giver, receiver, card)

    def _check_pearl(self, seat: int) -> None:
        """MCH-531 / MCH-804."""
        if self.pearl_owner != -1:
            return
        s = self.skills[seat]
        missing = sum(1 for k in range(4) if s[k] + s[5 + k] == 0)
        if self.game.elite_pearl:
            missing -= s[ELITE] + s[5 + ELITE]
        if missing <= 0:
            self.pearl_owner = seat
            self.end_triggered = True  # MCH-701

    def target_boats(self, seat: int) -> list[tuple[int, int]]:
        """(offset action code 1..3, boat) of opponent boats a Siren may target (MCH-616, MCH-1003)."""
        g = self.game
        out = []
        if g.dual_boats:
            opp = 1 - seat
            for i, boat in enumerate(g.boats_of[opp]):
                out.append((i + 1, boat))
        else:
            for q in g.opponents[seat]:
                out.append(((q - seat) % g.num_players, q))
        return out

    # --- the round (Section 4) --------------------------------------------------------------------------
    def _new_round(self) -> None:
        """MCH-401 phase 1 (Deal) and the start of Select with the hand safeguard (MCH-502)."""
        g = self.game
        self.round += 1
        for s in range(4):
            if self.display[s]:
                self.nav_discard.append(self.display[s])
                self.display[s] = 0
        for s in range(g.num_boats):
            self.display[s] = self._draw_nav()
        self.picks = [0] * g.num_boats
        self.shown_picks = [0] * g.num_boats
        self.acted = [False] * g.num_boats
        self.revealed = False
        self.order = []
        self.turn_index = 0
        self.active_boat = -1
        for seat in range(g.num_players):
            while len(self.hands[seat]) < len(g.boats_of[seat]):
                card = self._draw_nav()
                if not card:
                    break
                self._to_hand(seat, card)
        self.select_seat = 0
        self.select_boat = 0
        self.step = "select"

    def _reveal(self) -> None:
        """MCH-401 phase 3: picks revealed, boats ordered highest card first."""
        self.revealed = True
        self.shown_picks = list(self.picks)
        for card in self.picks:
            if card:
                self._forget(card)
        self.order = sorted((b for b in range(self.game.num_boats) if self.picks[b]), key=lambda b: -self.picks[b])
        self.turn_index = 0
        self.step = "next_turn"

    def _advance(self) -> None:
        """Run automatic steps up to the next decision (or the end); sets ``phase``."""
        g = self.game
        while True:
            if self.gift_queue:
                self.phase = act.ENC_GIFT
                return
            step = self.step
            if step == "select":
                n = g.num_players
                while self.select_seat < n:
                    seat = self.select_seat
                    if self.select_boat < len(g.boats_of[seat]) and self.hands[seat]:
                        self.phase = act.SELECT
                        return
                    self.select_seat += 1
                    self.select_boat = 0
                self._reveal()
            elif step == "next_turn":
                if self.turn_index >= len(self.order):
                    self._end_round()
                    if self.over:
                        return
                    continue
                self.active_boat = self.order[self.turn_index]
                self.enc_played = False
                self.last_action[self.active_seat()] = [0, 0]
                self.step = "place"
            elif step == "place":
                self._place()
            elif step == "move":
                boat = self.active_boat
                _c, r = self.positions[boat]
                right_move = COLOUR[self.pending_card] == COLOUR[self.expeditions[boat][-1]]
                if right_move and r < LAST_ROW and self.has_skill(self.active_seat(), WEATHER):  # MCH-529
                    self.phase = act.WEATHER_PHASE
                    return
                self._move(False)
            elif step == "end_mission":
                candidates = self.mission_candidates()
                if len(candidates) > 1:
                    self.phase = act.MISSION_CHOOSE
                    return
                self.claim_pool = self._icon_pool(self.active_boat)
                self.step = "end_skills"
                if candidates:
                    self._take_mission(candidates[0])
            elif step == "end_skills":
                if self.possible_claims():
                    self.phase = act.SKILL_CLAIM
                    return
                self.step = "end_finish"
                if not self.end_gains:  # MCH-516
                    self._draw_enc(self.active_seat())
            elif step == "end_finish":
                self._finish_expedition()
            elif step == "night":
                if self.night_sail_cards():
                    self.phase = act.NIGHT_SAIL
                    return
                self.step = "action"
            elif step in _STEP_PHASES:
                self.phase = _STEP_PHASES[step]
                return
            elif step == "take":
                if any(self.display):
                    self.phase = act.TAKE
                    return
                self.step = "carto"
            elif step == "carto":
                if self.has_skill(self.active_seat(), CARTOGRAPHY) and (self.nav_deck or self.nav_discard):
                    self.phase = act.CARTO
                    return
                self.step = "team_return"
            elif step == "team_return":
                seat = self.active_seat()
                if g.team_mode and self.owes[seat] > 0:
                    if self.hands[seat]:
                        self.phase = act.TEAM_RETURN
                        return
                    self.owes[seat] = 0  # MCH-551: an empty hand clears the debt
                self.step = "team_give"
                self.give_open = g.team_mode and self.owes[seat] == 0 and self.owes[g.partner(seat)] == 0
            elif step == "team_give":
                if self.give_open:  # MCH-1004: PASS is always legal, so the window opens even below 2 cards
                    self.phase = act.TEAM_GIVE
                    return
                self.give_open = False
                self.acted[self.active_boat] = True
                self.turn_index += 1
                self.step = "next_turn"
            elif step == "new_round":
                self._new_round()
            else:  # pragma: no cover - programming error
                raise AssertionError(f"unknown step {step!r}")

    def _run(self) -> None:
        """Advance; apply forced single-choice decisions automatically (MCH-402)."""
        while True:
            self._advance()
            if self.over:
                self._legal = None
                return
            legal = self._legal_actions()
            if self.game.auto_resolve and len(legal) == 1:
                self._decide(legal[0])
                continue
            self._legal = legal
            return

    # --- step A: placing the card (5.2) -----------------------------------------------------------------
    def _place(self) -> None:
        boat = self.active_boat
        card = self.picks[boat]
        exp = self.expeditions[boat]
        self.pending_card = card
        if not exp:  # MCH-504
            self._start(boat, card)
            self.step = "night"
        elif self.positions[boat][0] == LAST_COLUMN or card < exp[-1]:  # MCH-505
            self.end_gains = 0
            self.step = "end_mission"
        else:  # MCH-506
            self.move_return = "night"
            self.step = "move"

    def _start(self, boat: int, card: int) -> None:
        self.picks[boat] = 0
        self.expeditions[boat] = [card]
        self.positions[boat] = [1, 1]
        self.history[boat] = [[0, 0]]

    def _move(self, use_weather: bool) -> None:
        """MCH-506..509: add ``pending_card`` as a Continue; lines, Hong Kong."""
        boat = self.active_boat
        seat = self.active_seat()
        card = self.pending_card
        exp = self.expeditions[boat]
        c, r = self.positions[boat]
        self.history[boat].append([c, r])
        down = use_weather or COLOUR[card] != COLOUR[exp[-1]]
        exp.append(card)
        self.picks[boat] = 0
        if down and r < LAST_ROW:
            r += 1
        c += 1
        self.positions[boat] = [c, r]
        self.step = self.move_return
        for _ in range(LINE_DRAWS.get(c, 0)):  # MCH-508
            self._draw_enc(seat)
        if self.hk_owner == -1 and (c, r) in HONG_KONG_SPACES:  # MCH-509
            self.hk_owner = seat

    # --- ending an expedition (5.3) -----------------------------------------------------------------------
    def mission_candidates(self) -> list[int]:
        """MCH-512: board tiles with the highest number <= v."""
        c, r = self.positions[self.active_boat]
        v = c * r
        best = max((MISSION_NUMBER[t] for t in self.board if MISSION_NUMBER[t] <= v), default=0)
        return [t for t in self.board if MISSION_NUMBER[t] == best] if best else []

    def _take_mission(self, tile: int) -> None:
        seat = self.active_seat()
        self.board.remove(tile)
        self.taken_tiles[seat].append(tile)
        self.end_gains += 1
        reward = MISSION_REWARD[tile]
        for token in range(4):
            if reward[token]:
                self._pay(seat, token, reward[token])
        for _ in range(reward[4]):
            self._draw_enc(seat)
        if not self.board:  # MCH-513
            self.end_triggered = True

    def _icon_pool(self, boat: int) -> list[int]:
        pool = [0, 0, 0, 0]
        for card in self.expeditions[boat]:
            icon = ICON[card]
            if icon >= 0:
                pool[icon] += 1
        return pool

    def possible_claims(self) -> list[int]:
        """MCH-514: skill kinds claimable from the remaining icon pool."""
        pool = self.claim_pool
        out = [k for k in range(4) if pool[k] >= 3 and self.stacks[k] > 0]
        if self.stacks[ELITE] > 0 and min(pool) >= 1:
            out.append(ELITE)
        return out

    def _claim(self, kind: int) -> None:
        seat = self.active_seat()
        if kind == ELITE:
            for k in range(4):
                self.claim_pool[k] -= 1
        else:
            self.claim_pool[kind] -= 3
        self.stacks[kind] -= 1
        self.skills[seat][kind] += 1
        self.end_gains += 1
        self._check_pearl(seat)  # MCH-515

    def _finish_expedition(self) -> None:
        """MCH-517: the old expedition's cards are discarded and the new one starts."""
        boat = self.active_boat
        self.nav_discard.extend(self.expeditions[boat])
        self._start(boat, self.pending_card)
        self.step = "night"

    # --- Night Sailing (MCH-527) ---------------------------------------------------------------------------
    def night_sail_cards(self) -> list[int]:
        boat = self.active_boat
        seat = self.active_seat()
        exp = self.expeditions[boat]
        if not exp or self.positions[boat][0] >= LAST_COLUMN or not self.has_skill(seat, NIGHT_SAILING):
            return []
        last = exp[-1]
        return [c for c in self.hands[seat] if c > last]

    # --- legal actions (MCH-1004) ---------------------------------------------------------------------------
    def playable_kinds(self, seat: int) -> list[int]:
        """MCH-523 / 6.2: encounter kinds ``seat`` may play now."""
        g = self.game
        held = self.enc_hands[seat]
        opps = g.opponents[seat]
        out = []
        for kind in PLAYABLE_KINDS:
            if not held[kind]:
                continue
            if kind == THIEF:
                ok = any(sum(self.tokens[q][1:]) for q in opps)
            elif kind == SPY:
                ok = any(sum(self.enc_hands[q]) for q in opps)
            elif kind == NEGOTIATOR:
                ok = self.supply[0] > 0
            elif kind == SALVAGER:
                ok = bool(self.nav_discard)
            elif kind == ORACLE:
                ok = bool(self.nav_deck or self.nav_discard)
            elif kind == SIREN:
                ok = any(len(self.expeditions[b]) >= 2 for _, b in self.target_boats(seat))
            else:  # MADAME_CHING
                ok = any(self.stacks[k] for k in range(4))
            if ok:
                out.append(kind)
        return out

    def combat_targets(self, seat: int) -> list[int]:
        return [q for q in self.game.opponents[seat] if self.hands[q]]

    def _legal_actions(self) -> list[int]:
        phase = self.phase
        g = self.game
        if phase == act.SELECT:
            return [c - 1 for c in self.hands[self.select_seat]]
        seat = self.active_seat()
        n = g.num_players
        if phase == act.ACTION:
            out = []
            if not self.enc_played:
                out = [act.PLAY_ENC_BASE + k for k in self.playable_kinds(seat)]
            if self.has_skill(seat, COMBAT) and self.combat_targets(seat):
                out.append(act.USE_COMBAT)
            out.append(act.PASS)
            return out
        if phase == act.TAKE:
            return [act.SLOT_BASE + s for s in range(4) if self.display[s]]
        if phase == act.ENC_GIFT:
            return [act.GIVE_TO_PARTNER, act.PASS]
        if phase == act.WEATHER_PHASE:
            return [act.USE_WEATHER, act.PASS]
        if phase == act.NIGHT_SAIL:
            return [c - 1 for c in self.night_sail_cards()] + [act.PASS]
        if phase == act.MISSION_CHOOSE:
            return [act.MISSION_BASE + t for t in self.mission_candidates()]
        if phase == act.SKILL_CLAIM:
            return [act.SKILL_BASE + k for k in self.possible_claims()]
        if phase == act.CARTO:
            return [act.USE_CARTOGRAPHY, act.PASS]
        if phase in (act.COMBAT_GIVE, act.TEAM_RETURN):
            return [c - 1 for c in self.hands[seat]]
        if phase == act.TEAM_GIVE:  # MCH-552: the giver keeps at least 1 card
            hand = self.hands[seat]
            return [c - 1 for c in hand] + [act.PASS] if len(hand) >= 2 else [act.PASS]
        if phase == act.THIEF_TARGET:
            return sorted(act.TARGET_BASE + (q - seat) % n for q in g.opponents[seat] if sum(self.tokens[q][1:]))
        if phase == act.THIEF_GEM:
            return [act.GEM_BASE + t for t in (1, 2, 3) if self.tokens[self.pending_target][t]]
        if phase == act.SPY_TARGET:
            return sorted(act.TARGET_BASE + (q - seat) % n for q in g.opponents[seat] if sum(self.enc_hands[q]))
        if phase == act.COMBAT_TARGET:
            return sorted(act.TARGET_BASE + (q - seat) % n for q in self.combat_targets(seat))
        if phase == act.SIREN_TARGET:
            return sorted(act.TARGET_BASE + o for o, b in self.target_boats(seat) if len(self.expeditions[b]) >= 2)
        if phase == act.SALVAGE_CHOOSE:
            return sorted(c - 1 for c in self.nav_discard)
        if phase == act.MC_SKILL:
            return [act.SKILL_BASE + k for k in range(4) if self.stacks[k]]
        raise AssertionError(f"no legal actions defined for phase {phase}")  # pragma: no cover

    # --- applying decisions ----------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        self._decide(action)
        self._run()

    def _decide(self, action: int) -> None:
        phase = self.phase
        g = self.game
        if phase == act.SELECT:
            seat = self.select_seat
            card = action + 1
            self.hands[seat].remove(card)
            self.picks[g.boats_of[seat][self.select_boat]] = card
            self.select_boat += 1
            return
        seat = self.active_seat()
        n = g.num_players
        if phase == act.ENC_GIFT:
            kind = self.gift_queue.pop(0)
            if action == act.GIVE_TO_PARTNER:
                self.enc_hands[seat][kind] -= 1
                self.enc_hands[g.partner(seat)][kind] += 1  # MCH-553: not offered again
        elif phase == act.WEATHER_PHASE:
            use = action == act.USE_WEATHER
            if use:
                self._spend_skill(seat, WEATHER)
            self._move(use)
        elif phase == act.NIGHT_SAIL:
            if action == act.PASS:
                self.step = "action"
            else:
                card = action + 1
                self._spend_skill(seat, NIGHT_SAILING)
                self.hands[seat].remove(card)
                self._forget(card)
                self.picks[self.active_boat] = card  # in transit to the expedition
                self.pending_card = card
                self.move_return = "night"
                self.step = "move"
        elif phase == act.MISSION_CHOOSE:
            self.claim_pool = self._icon_pool(self.active_boat)
            self.step = "end_skills"
            self._take_mission(action - act.MISSION_BASE)
        elif phase == act.SKILL_CLAIM:
            self._claim(action - act.SKILL_BASE)
        elif phase == act.ACTION:
            self._decide_action(seat, action)
        elif phase == act.TAKE:
            slot = action - act.SLOT_BASE
            card = self.display[slot]
            self.display[slot] = 0
            self._to_hand(seat, card)
            if slot:  # MCH-917: a face-up take is public
                for q in range(n):
                    if q != seat:
                        self._learn(q, seat, card)
            self.step = "carto"
        elif phase == act.CARTO:
            if action == act.PASS:
                self.step = "team_return"
            else:
                self._spend_skill(seat, CARTOGRAPHY)
                self._draw_nav_to_hand(seat)
        elif phase == act.TEAM_RETURN:
            self._give_nav(seat, g.partner(seat), action + 1)
            self.owes[seat] -= 1
            if not self.hands[seat]:
                self.owes[seat] = 0
        elif phase == act.TEAM_GIVE:
            if action == act.PASS:
                self.give_open = False
            else:
                partner = g.partner(seat)
                self._give_nav(seat, partner, action + 1)
                self.owes[partner] += 1  # MCH-552
        else:
            self._decide_effect(seat, action)

    def _decide_action(self, seat: int, action: int) -> None:
        """MCH-522: play one encounter card, use Combat, or pass."""
        if action == act.PASS:
            self.step = "take"
            return
        if action == act.USE_COMBAT:
            self._spend_skill(seat, COMBAT)
            self.last_action[seat] = [HISTORY_COMBAT, 0]
            self.step = "combat_target"
            return
        kind = action - act.PLAY_ENC_BASE
        self.enc_hands[seat][kind] -= 1
        self.enc_discard.append(kind)
        self.enc_played = True
        self.pending_enc = kind
        self.last_action[seat] = [kind - THIEF + 1, 0]
        if kind == THIEF:
            self.step = "thief_target"
        elif kind == SPY:
            self.step = "spy_target"
        elif kind == NEGOTIATOR:  # MCH-613
            self._pay(seat, 0, 2)
            self.pending_enc = -1
        elif kind == SALVAGER:
            self.step = "salvage"
        elif kind == ORACLE:  # MCH-615
            self._draw_nav_to_hand(seat)
            self.pending_enc = -1
        elif kind == SIREN:
            self.step = "siren_target"
        else:
            self.step = "mc_skill"

    def _decide_effect(self, seat: int, action: int) -> None:
        """Targets and choices of encounter cards and Combat (6.1, 6.2)."""
        g = self.game
        n = g.num_players
        phase = self.phase
        self.step = "action"
        if phase == act.THIEF_TARGET:
            self.pending_target = (seat + action - act.TARGET_BASE) % n
            self.last_action[seat][1] = action - act.TARGET_BASE
            self.step = "thief_gem"
            return
        if phase == act.THIEF_GEM:  # MCH-611
            token = action - act.GEM_BASE
            self.tokens[self.pending_target][token] -= 1
            self.tokens[seat][token] += 1
        elif phase == act.SPY_TARGET:  # MCH-612
            victim = (seat + action - act.TARGET_BASE) % n
            self.last_action[seat][1] = action - act.TARGET_BASE
            held = self.enc_hands[victim]
            pick = self.rng.randrange(sum(held))
            kind = 0
            while pick >= held[kind]:
                pick -= held[kind]
                kind += 1
            held[kind] -= 1
            self._gain_enc(seat, kind)
        elif phase == act.SALVAGE_CHOOSE:  # MCH-614
            card = action + 1
            self.nav_discard.remove(card)
            self._to_hand(seat, card)
            for q in range(n):
                if q != seat:
                    self._learn(q, seat, card)
        elif phase == act.SIREN_TARGET:  # MCH-616
            offset = action - act.TARGET_BASE
            boat = dict(self.target_boats(seat))[offset]
            self.last_action[seat][1] = 1 if g.dual_boats else offset
            card = self.expeditions[boat].pop()
            self.nav_discard.append(card)
            self.positions[boat] = self.history[boat].pop()
        elif phase == act.MC_SKILL:  # MCH-617
            kind = action - act.SKILL_BASE
            self.stacks[kind] -= 1
            self.skills[seat][kind] += 1
            self._check_pearl(seat)
        elif phase == act.COMBAT_TARGET:  # MCH-604
            victim = (seat + action - act.TARGET_BASE) % n
            self.pending_target = victim
            self.last_action[seat][1] = action - act.TARGET_BASE
            card = self.rng.choice(self.hands[victim])
            self.hands[victim].remove(card)
            self._to_hand(seat, card)
            self._learn(victim, seat, card)
            self.combat_card = card
            self.step = "combat_give"
            return
        elif phase == act.COMBAT_GIVE:
            self._give_nav(seat, self.pending_target, action + 1)
            self.combat_card = 0
        self.pending_enc = -1
        self.pending_target = -1

    # --- end of round and game (Section 7) --------------------------------------------------------------------
    def _end_round(self) -> None:
        self.active_boat = -1
        if self.end_triggered or self.round >= self.game.round_limit:  # MCH-701/702
            self._final_icon_gold()
            self.over = True
            self.phase = -1
            self.step = "over"
            return
        self.step = "new_round"

    def _final_icon_gold(self) -> None:
        """MCH-703: 1 gold per distinct icon kind of each unfinished expedition."""
        g = self.game
        for seat in range(g.num_players):
            for boat in g.boats_of[seat]:
                kinds = {ICON[c] for c in self.expeditions[boat] if ICON[c] >= 0}
                if kinds:
                    self._pay(seat, 0, len(kinds))

    def seat_score(self, seat: int) -> int:
        """MCH-704."""
        t = self.tokens[seat]
        s = self.skills[seat]
        score = sum(t[i] * TOKEN_VP[i] for i in range(4))
        score += sum((s[k] + s[5 + k]) * SKILL_VP[k] for k in range(5))
        score += sum(self.enc_hands[seat][k] * TREASURE_VP[k] for k in range(3))
        score += PEARL_VP * (self.pearl_owner == seat) + HONG_KONG_VP * (self.hk_owner == seat)
        return score

    def _side_keys(self) -> dict[int, tuple[int, int, int, int]]:
        """MCH-705/706: (score, white, red, blue) per side."""
        g = self.game
        keys: dict[int, list[int]] = {}
        for seat in range(g.num_players):
            k = keys.setdefault(g.side_of(seat), [0, 0, 0, 0])
            t = self.tokens[seat]
            k[0] += self.seat_score(seat)
            k[1] += t[3]
            k[2] += t[2]
            k[3] += t[1]
        return {side: tuple(k) for side, k in keys.items()}  # type: ignore[misc]

    def _is_terminal(self) -> bool:
        return self.over

    def _current_player(self) -> int:
        if self.phase == act.SELECT:
            return self.select_seat
        return self.game.boat_owner[self.active_boat]

    def _phase_name(self) -> str:
        return act.PHASES[self.phase]

    def _scores(self) -> list[float]:
        return [float(self.seat_score(s)) for s in range(self.game.num_players)]

    def _winners(self) -> list[int]:
        keys = self._side_keys()
        best = max(keys.values())
        return [s for s in range(self.game.num_players) if keys[self.game.side_of(s)] == best]

    def _returns(self) -> list[float]:
        g = self.game
        if g.reward_mode == "win":
            return team_win_loss_returns(self._winners(), g.num_players)
        keys = self._side_keys()
        out = []
        for s in range(g.num_players):
            side = g.side_of(s)
            best_other = max(k[0] for other, k in keys.items() if other != side)
            out.append(clipped_margin(keys[side][0], best_other, SCORE_SCALE))
        return out

    # --- observation, rendering ------------------------------------------------------------------------------
    def render(self, viewer: int | None = None) -> str:
        from pirate_envs.games.madame_ching.render import render_state

        return render_state(self, self.check_viewer(viewer))

    # --- determinisation (Section 9) ----------------------------------------------------------------------------
    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        """Redraw every navigation and encounter card ``seat`` cannot see, keeping all public counts.

        The redraw depends only on what ``seat`` saw: the hidden cards are pooled in sorted order,
        the cards ``seat`` knows in an opponent's hand (MCH-917) stay there, the rest is dealt at random.
        """
        g = self.game
        n = g.num_players
        hidden_picks = (
            [] if self.revealed else [b for b in range(g.num_boats) if self.picks[b] and g.boat_owner[b] != seat]
        )
        pool_set = set(self.nav_deck)
        for q in range(n):
            if q != seat:
                pool_set.update(self.hands[q])
        pool_set.update(self.picks[b] for b in hidden_picks)
        if self.display[0]:
            pool_set.add(self.display[0])
        kept: list[list[int]] = [[] for _ in range(n)]
        for q in range(n):
            if q != seat:
                known = sorted(c for c in self.known[seat][q] if c in pool_set)[: len(self.hands[q])]
                kept[q] = known
                pool_set.difference_update(known)
        pool = sorted(pool_set)
        rng.shuffle(pool)
        if self.display[0]:
            self.display[0] = pool.pop()
        for b in hidden_picks:
            self.picks[b] = pool.pop()
        for q in range(n):
            if q != seat:
                need = len(self.hands[q]) - len(kept[q])
                self.hands[q] = sorted(kept[q] + [pool.pop() for _ in range(need)])
        self.nav_deck = pool
        active = self.active_seat() if self.active_boat >= 0 else -1
        if self.combat_card and seat not in (active, self.pending_target):
            self.combat_card = rng.choice(self.hands[active])
        # Encounter cards: the deck and the other hands (per-player counts are public).
        enc_pool = list(self.enc_deck)
        for q in range(n):
            if q != seat:
                for kind in range(NUM_ENC_KINDS):
                    enc_pool.extend([kind] * self.enc_hands[q][kind])
        enc_pool.sort()
        rng.shuffle(enc_pool)
        for q in range(n):
            if q != seat:
                held = [0] * NUM_ENC_KINDS
                for _ in range(sum(self.enc_hands[q])):
                    held[enc_pool.pop()] += 1
                self.enc_hands[q] = held
        self.enc_deck = enc_pool
        if self.gift_queue and active != seat:  # the offered cards are some of the holder's cards
            cards = [k for k in range(NUM_ENC_KINDS) for _ in range(self.enc_hands[active][k])]
            rng.shuffle(cards)
            self.gift_queue = cards[: len(self.gift_queue)]
        self._legal = None

    # --- invariants ----------------------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        g = self.game
        self._check_ranges()
        cards = list(self.nav_deck) + list(self.nav_discard) + [c for c in self.display if c]
        cards += [c for c in self.picks if c]
        for hand in self.hands:
            cards += hand
        for exp in self.expeditions:
            cards += exp
        assert sorted(cards) == list(range(1, NUM_NAV_CARDS + 1)), "navigation cards not conserved"
        enc = [0] * NUM_ENC_KINDS
        for k in self.enc_deck + self.enc_discard:
            enc[k] += 1
        for held in self.enc_hands:
            assert min(held) >= 0
            for k in range(NUM_ENC_KINDS):
                enc[k] += held[k]
        assert enc == list(ENC_COUNTS), "encounter cards not conserved"
        for t in range(4):
            assert self.supply[t] >= 0
            assert self.supply[t] + sum(p[t] for p in self.tokens) == TOKEN_SUPPLY[t], "tokens not conserved"
        for k in range(5):
            owned = sum(s[k] + s[5 + k] for s in self.skills)
            assert self.stacks[k] >= 0 and self.stacks[k] + owned == SKILL_STACK_SIZE, "skills not conserved"
        tiles = self.board + self.set_aside + [t for ts in self.taken_tiles for t in ts]
        assert len(tiles) == len(set(tiles)) and len(self.board) + sum(map(len, self.taken_tiles)) <= g.mission_count
        for boat in range(g.num_boats):
            exp = self.expeditions[boat]
            c, r = self.positions[boat]
            assert exp == sorted(exp) and len(set(exp)) == len(exp)
            assert (c == 0) == (not exp) and len(self.history[boat]) == len(exp) and c == len(exp)
            assert 1 <= r <= min(c, LAST_ROW) or c == 0
        for hand in self.hands:
            assert hand == sorted(hand)

    def _check_ranges(self) -> None:
        """Every index, count and step in its range (what ``state_from_dict`` relies on before the rules run)."""
        g = self.game
        n, nb = g.num_players, g.num_boats
        cards = (0, NUM_NAV_CARDS)  # 0 = no card
        assert_in_range("round", self.round, 0, g.round_limit)
        for name in ("nav_deck", "nav_discard"):
            assert_in_range(name, getattr(self, name), 1, NUM_NAV_CARDS)
        for name in ("enc_deck", "enc_discard", "gift_queue"):
            assert_in_range(name, getattr(self, name), 0, NUM_ENC_KINDS - 1)
        for held in self.enc_hands:
            assert_in_range("enc_hands", held, 0, max(ENC_COUNTS), length=NUM_ENC_KINDS)
        for hand in self.hands:
            assert_in_range("hands", hand, 1, NUM_NAV_CARDS)
        assert_in_range("picks", self.picks, *cards, length=nb)
        assert_in_range("shown_picks", self.shown_picks, *cards, length=nb)
        assert_in_range("order", self.order, 0, nb - 1)
        shown = self.shown_picks
        if self.revealed:  # MCH-401 step 3: the boats with a revealed card act (by card, highest first)
            expected = {b for b in range(nb) if shown[b]}
            assert sorted(self.order) == sorted(expected), f"order {self.order} is not the boats of shown_picks {shown}"
        else:
            assert not self.order and not any(shown), "order / shown_picks set before the reveal"
        assert_in_range("turn_index", self.turn_index, 0, len(self.order))
        assert len(self.acted) == len(self.expeditions) == len(self.history) == nb, "acted/expeditions/history length"
        for exp in self.expeditions:
            assert_in_range("expeditions", exp, 1, NUM_NAV_CARDS)
        assert len(self.positions) == nb, "positions length"
        for column, row in self.positions:
            assert_in_range("positions", [column, row], 0, max(LAST_COLUMN, LAST_ROW))
            assert column <= LAST_COLUMN and row <= LAST_ROW, f"positions holds {[column, row]}, off the board"
        for steps in self.history:
            for column, row in steps:
                assert 0 <= column <= LAST_COLUMN and 0 <= row <= LAST_ROW, f"history holds {[column, row]}"
        assert_in_range("display", self.display, *cards, length=4)
        for name in ("board", "set_aside"):
            assert_in_range(name, getattr(self, name), 0, NUM_MISSIONS - 1)
        for tiles in self.taken_tiles:
            assert_in_range("taken_tiles", tiles, 0, NUM_MISSIONS - 1)
        for held in self.tokens:
            assert_in_range("tokens", held, 0, max(TOKEN_SUPPLY), length=4)
        assert_in_range("supply", self.supply, 0, max(TOKEN_SUPPLY), length=4)
        for held in self.skills:
            assert_in_range("skills", held, 0, SKILL_STACK_SIZE, length=10)
        assert_in_range("stacks", self.stacks, 0, SKILL_STACK_SIZE, length=5)
        assert_in_range("pearl_owner", self.pearl_owner, -1, n - 1)
        assert_in_range("hk_owner", self.hk_owner, -1, n - 1)
        for rows in self.known:
            assert len(rows) == n, "known holds one list per seat and seat"
            for seen in rows:
                assert_in_range("known", seen, 1, NUM_NAV_CARDS)
        assert_in_range("phase", self.phase, -1 if self.over else 0, act.NUM_PHASES - 1)  # -1 at the end
        assert self.step in _STEPS, f"step {self.step!r} is not one of {sorted(_STEPS)}"
        assert self.move_return in ("", "night"), f"move_return {self.move_return!r} is not '' or 'night'"
        assert_in_range("select_seat", self.select_seat, 0, n)
        assert_in_range("select_boat", self.select_boat, 0, 2)
        assert_in_range("active_boat", self.active_boat, -1, nb - 1)
        assert_in_range("pending_card", self.pending_card, *cards)
        assert_in_range("end_gains", self.end_gains, 0, NUM_MISSIONS + 10)
        assert_in_range("claim_pool", self.claim_pool, 0, NUM_NAV_CARDS, length=4)
        assert_in_range("pending_enc", self.pending_enc, -1, NUM_ENC_KINDS - 1)
        assert_in_range("pending_target", self.pending_target, -1, n - 1)
        assert_in_range("combat_card", self.combat_card, *cards)
        assert_in_range("owes", self.owes, 0, NUM_NAV_CARDS)
        if self.gift_queue:  # MCH-553: encounter cards just gained, each offered to the partner
            assert g.team_mode and self.phase == act.ENC_GIFT, "gift_queue outside a team game's ENC_GIFT"
            held = self.enc_hands[self.active_seat()]
            assert all(self.gift_queue.count(k) <= held[k] for k in self.gift_queue), "gift_queue: cards not held"
        else:  # at rest, ``step`` is the step that asked the decision in ``phase`` (see _advance)
            asked = _RESTING_PHASES.get(self.step)
            assert asked is not None and self.phase == asked, f"step {self.step!r} cannot ask phase {self.phase}"
        if self.phase == act.SELECT:
            assert self.select_seat < n and self.select_boat < len(g.boats_of[self.select_seat]), "select_seat/boat"
        elif self.phase >= act.WEATHER_PHASE:  # a boat-turn: the boat whose turn it is acts
            assert self.turn_index < len(self.order), "turn_index is past the order in a boat-turn"
            assert self.active_boat == self.order[self.turn_index], "active_boat is not order[turn_index]"
        for code, offset in self.last_action:
            assert 0 <= code <= HISTORY_COMBAT and 0 <= offset <= 3, f"last_action holds {[code, offset]}"


# MadameChingState.step: the automatic steps of a boat-turn (MadameChingState._advance)
_STEPS = frozenset(
    {
        *("select", "next_turn", "place", "move", "end_mission", "end_skills", "end_finish", "night", "take"),
        *("carto", "team_return", "team_give", "new_round", "over", "action", "thief_target", "thief_gem"),
        *("spy_target", "salvage", "siren_target", "mc_skill", "combat_target", "combat_give"),
    }
)

_STEP_PHASES = {
    "action": act.ACTION,
    "thief_target": act.THIEF_TARGET,
    "thief_gem": act.THIEF_GEM,
    "spy_target": act.SPY_TARGET,
    "salvage": act.SALVAGE_CHOOSE,
    "siren_target": act.SIREN_TARGET,
    "mc_skill": act.MC_SKILL,
    "combat_target": act.COMBAT_TARGET,
    "combat_give": act.COMBAT_GIVE,
}

# The decision each resting step asks (MadameChingState._advance); "over" rests with phase -1.
_RESTING_PHASES = {
    **_STEP_PHASES,
    "select": act.SELECT,
    "move": act.WEATHER_PHASE,
    "night": act.NIGHT_SAIL,
    "end_mission": act.MISSION_CHOOSE,
    "end_skills": act.SKILL_CLAIM,
    "take": act.TAKE,
    "carto": act.CARTO,
    "team_return": act.TEAM_RETURN,
    "team_give": act.TEAM_GIVE,
    "over": -1,
}

MadameChingGame.state_class = MadameChingState
