"""The rules engine of Tortuga 1667 (``docs/rules/tortuga.md``).

Reads in the order of the rules file: facts and options (Sections 8 and 10), setup (Section 3),
the turn (Section 4), movement (5.1), main actions (5.2), secret voting (5.3) and what a vote
decides (attack 5.4, mutiny/exile/succession 5.5, dispute 5.7), stealing (5.6), the event cards
(Section 6), the map step (5.9), the end and scoring (Section 7), and determinisation (Section 9).

Conventions: seats are absolute inside the engine (offsets appear only in actions and the
observation); ``deck`` has its top card last; ``vote``/``loot``/``event`` are dicts while in
progress and None otherwise. Every change of a hoard or a map holding is also appended to
``ledger`` so that ``_resample_hidden`` can redraw the secret steals and map gifts and replay
them against every public fact (TOR-905..911).
"""

from __future__ import annotations

from typing import Any, ClassVar

from pirate_envs.core.game import Game, State, assert_in_range
from pirate_envs.core.options import Option
from pirate_envs.core.rewards import clipped_margin, reward_options, team_win_loss_returns
from pirate_envs.core.rng import Rng
from pirate_envs.games.tortuga import actions as act
from pirate_envs.games.tortuga.board import (
    AREA_NODES,
    ARMADA,
    ARMADA_PACKET,
    BURIED_CHEST,
    C_ENG,
    CAPACITY,
    CARD_COUNTS,
    CARD_NO,
    CARD_WILD,
    CARD_YES,
    COUNTERATTACK,
    FAIR_WINDS,
    FLOATING_CARGO,
    FM_ENG,
    GAL,
    GOVERNOR,
    LOG_ATTACK_FAILED,
    LOG_ATTACK_PASSED,
    LOG_DISPUTE_FAILED,
    LOG_DISPUTE_PASSED,
    LOG_DRAW_DECLINED,
    LOG_EVENT_DRAWN,
    LOG_EXILED,
    LOG_LENGTH,
    LOG_LOOT_GIVEN,
    LOG_MAP_GIFTED,
    LOG_MUTINY_FAILED,
    LOG_PAWN_MOVED,
    LOG_PROMOTED,
    LOG_SPYGLASS,
    LOG_STEAL_GALLEON,
    LOG_STEAL_PLAYER,
    LOG_TREASURE_EVENT,
    MUTINY_BREWS,
    NATION_TABLE,
    NUM_CARD_TYPES,
    NUM_LOG_TYPES,
    REACH,
    ROLE_TABLE,
    SAILOR,
    SCURVY,
    SHIP_NODE,
    SHIPWRECK,
    SPYGLASS,
    STRONG_CURRENT,
    TAVERN_BRAWL,
    TOR,
    TOTAL_TREASURE,
    TREASURE_MAP,
    V_ATTACK,
    V_BRAWL,
    V_DISPUTE,
    V_MUTINY,
    galleon_start,
    is_captain,
    is_first_mate,
)
from pirate_envs.games.tortuga.observation import OBSERVATION_HIGH, OBSERVATION_LOW, ObservationEncoder

# Phases (TOR-1004 (b)).
MOVE, ACTION, VOTE, DECLARE, LOOT, DRAW, MAP_RECIPIENT, EXTRA_MOVE = range(8)
CURRENT_TARGET, CURRENT_DEST, MUTINY_SHIP, BRAWL_TARGET, SPY_TARGET, MAP_GIVE = range(8, 14)
GAME_OVER = 14
PHASE_NAMES = (
    "MOVE",
    "ACTION",
    "VOTE",
    "DECLARE",
    "LOOT",
    "DRAW",
    "MAP_RECIPIENT",
    "EXTRA_MOVE",
    "CURRENT_TARGET",
    "CURRENT_DEST",
    "MUTINY_SHIP",
    "BRAWL_TARGET",
    "SPY_TARGET",
    "MAP_GIVE",
    "GAME_OVER",
)
NUM_PHASES = 14

# Ledger entries (for determinisation): what changed a hoard or a map holding, in order.
L_GAIN, L_LOSS, L_STEAL, L_MAP_PUBLIC, L_MAP_GIVE = range(5)
RESAMPLE_TRIES = 100

# Log entry layout: [type, actor, target, node, card, value, ledger index of a secret steal or -1].
NOBODY = -1


class TortugaGame(Game):
    """Tortuga 1667 for 2-9 players (TOR-101)."""

    game_id = "tortuga_v0"
    display_name = "Tortuga 1667"
    player_counts = (2, 3, 4, 5, 6, 7, 8, 9)
    default_num_players = 6  # TOR-101
    may_end_without_winner = True  # TOR-705: every member of the winning nation may be exiled
    option_specs = (
        Option("max_rounds", 12, int, "TOR-801: round limit", choices=(8, 12, 16)),
        Option(
            "neutral_vote", "two_player", str, "TOR-802: neutral die vote", choices=("two_player", "always", "never")
        ),
        Option("wild_cooldown", False, bool, "TOR-803: a Wild card is locked for the next vote"),
        Option("secret_exile", False, bool, "TOR-804: an exiled Captain's nation stays secret"),
        Option("public_steal", False, bool, "TOR-805: the victim and result of a steal are public"),
        Option("armada_depth", "bottom5", str, "TOR-806: Armada packet", choices=("bottom5", "bottom10", "last")),
        # Default on (TOR-807): with it off, heuristic tables at 9 players end after a median of 3 rounds
        # (docs/tortuga.md "Game length").
        Option("draw_replaces_action", True, bool, "TOR-807: DRAW only after an ACTION pass"),
        *reward_options("TOR-808/TOR-1005", modes="team win/lose or score margin"),
        Option("max_decisions", 0, int, "TOR-1006: truncate after this many decisions (0 = the bound B)", minimum=0),
    )
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "base": {},
        "options": {
            "wild_cooldown": True,
            "secret_exile": True,
            "public_steal": True,
            "neutral_vote": "always",
            "draw_replaces_action": False,
            "armada_depth": "last",
            "max_rounds": 8,
            "reward_mode": "score",
        },
    }
    observation_low = OBSERVATION_LOW
    observation_high = OBSERVATION_HIGH

    def _setup(self) -> None:
        n = self.num_players
        self.idx = act.ActionIndex(n)
        self.num_actions = self.idx.num_actions
        if self.max_decisions == 0:
            self.max_decisions = self.options["max_rounds"] * n * (11 + 4 * n)  # TOR-1006 bound B
        self.encoder = ObservationEncoder(n)
        self.observation_size = self.encoder.size
        self.neutral = self.options["neutral_vote"] == "always" or (
            self.options["neutral_vote"] == "two_player" and n == 2
        )
        self.nations_in_play = tuple(nat for nat in range(3) if NATION_TABLE[n][nat] > 0)

    @property
    def num_sides(self) -> int:
        """The nations in play (2 at 2 players, else 3): each wins or loses as a team (TOR-705)."""
        return len(self.nations_in_play)

    def action_to_string(self, action: int) -> str:
        return self.idx.to_string(action)


class TortugaState(State):
    """One position of Tortuga 1667."""

    fields = (
        "nation",
        "role",
        "pos",
        "exiled",
        "revealed",
        "hoard",
        "maps",
        "galleon",
        "supply",
        "deck",
        "drawn",
        "start",
        "active",
        "round",
        "phase",
        "acted",
        "vote",
        "wild_lock",
        "last_vote",
        "loot",
        "event",
        "spied",
        "pub_treasure",
        "steals_made",
        "steal_delta",
        "pub_maps",
        "map_delta",
        "yes_by",
        "yes_vs",
        "votes_initiated",
        "votes_targeting",
        "log",
        "ledger",
        "end_reason",
    )

    game: TortugaGame

    # --- Section 3: setup ------------------------------------------------------------------------------
    def _setup_game(self) -> None:
        game = self.game
        n = game.num_players
        rng = self.rng
        nations = [nat for nat in range(3) for _ in range(NATION_TABLE[n][nat])]
        rng.shuffle(nations)  # TOR-303
        self.nation = nations
        roles = list(ROLE_TABLE[n])
        rng.shuffle(roles)  # TOR-304
        self.role = roles
        self.pos = [0] * n
        for seat, role in enumerate(roles):  # TOR-305
            if is_captain(role):
                self.pos[seat] = SHIP_NODE[role - C_ENG]
            elif is_first_mate(role):
                self.pos[seat] = SHIP_NODE[role - FM_ENG]
            else:
                self.pos[seat] = TOR
        for seat, role in enumerate(roles):
            if role == SAILOR:
                counts = [sum(1 for q in range(n) if q != seat and self.pos[q] == SHIP_NODE[s]) for s in range(3)]
                self.pos[seat] = SHIP_NODE[counts.index(min(counts))]
        self.exiled = [False] * n
        self.revealed = [False] * n
        self.hoard = [0] * n
        self.maps = [0] * n
        self.galleon = galleon_start(n)  # TOR-302
        self.supply = TOTAL_TREASURE - self.galleon
        # TOR-307: shuffle the 18 others; the Armada is uniform in the bottom packet.
        others = [c for c in range(NUM_CARD_TYPES) if c != ARMADA for _ in range(CARD_COUNTS[c])]
        rng.shuffle(others)
        packet = ARMADA_PACKET[game.options["armada_depth"]]
        deck = [*others[: packet - 1], ARMADA]
        rng.shuffle(deck)
        self.deck = deck + others[packet - 1 :]  # bottom (index 0) .. top (last)
        self.drawn = [0] * NUM_CARD_TYPES
        self.start = rng.randrange(n)  # TOR-308
        self.active = self.start
        self.round = 1
        self.phase = MOVE
        self.acted = False
        self.vote = None
        self.wild_lock = [False] * n
        self.last_vote = None
        self.loot = None
        self.event = None
        self.spied = [[False] * n for _ in range(n)]
        self.pub_treasure = [0] * n
        self.steals_made = [0] * n
        self.steal_delta = [[0] * n for _ in range(n)]
        self.pub_maps = [0] * n
        self.map_delta = [[0] * n for _ in range(n)]
        self.yes_by = [[0] * n for _ in range(n)]
        self.yes_vs = [[0] * n for _ in range(n)]
        self.votes_initiated = [0] * n
        self.votes_targeting = [0] * n
        self.log = []
        self.ledger = []
        self.end_reason = ""

    # --- queries -----------------------------------------------------------------------------------------
    def _is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _current_player(self) -> int:
        phase = self.phase
        if phase == VOTE:
            return self.vote["order"][self.vote["idx"]]
        if phase == DECLARE:
            return self.vote["declarers"][self.vote["didx"]]
        if phase == LOOT:
            return self.loot["captain"]
        return self.active

    def _phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def holder(self, role: int) -> int:
        """The seat holding ``role`` (Captain/First Mate/Governor slot), or -1 if vacant/unused."""
        try:
            return self.role.index(role)
        except ValueError:
            return NOBODY

    def occupancy(self, node: int) -> int:
        return self.pos.count(node)

    @property
    def game_over(self) -> bool:
        """The game ended by its rules (TOR-701/702), as opposed to running or cut at ``max_decisions``."""
        return self.phase == GAME_OVER

    def nation_known(self, viewer: int | None, p: int) -> bool:
        """TOR-901: ``viewer`` (None: the public) knows ``p``'s nation card: revealed at exile, its own, spied
        with a Spyglass, or any card once the game has ended by the rules (TOR-703; not after truncation)."""
        if self.revealed[p] or self.game_over:
            return True
        return viewer is not None and (viewer == p or self.spied[viewer][p])

    def move_targets(self, seat: int) -> list[int]:
        """TOR-501: nodes within 2 with room (the mover not counted); staying always legal."""
        here = self.pos[seat]
        pos = self.pos
        return [m for m in REACH[here] if m == here or pos.count(m) < CAPACITY[m]]

    def _offset(self, actor: int, seat: int) -> int:
        return (seat - actor) % self.game.num_players

    def _legal_actions(self) -> list[int]:
        game = self.game
        idx = game.idx
        n = game.num_players
        phase = self.phase
        a = self._current_player()
        if phase in (MOVE, EXTRA_MOVE):
            return self.move_targets(a)
        if phase == CURRENT_DEST:
            return self.move_targets(self.event["target"])
        if phase == ACTION:
            return self._action_phase_legal(a)
        if phase == VOTE:
            if game.options["wild_cooldown"] and self.wild_lock[a]:
                return [idx.vote + CARD_YES, idx.vote + CARD_NO]
            return [idx.vote, idx.vote + 1, idx.vote + 2]
        if phase == DECLARE:
            return [idx.declare, idx.declare + 1]
        if phase == LOOT:
            return sorted(idx.select + self._offset(a, p) for p in self.loot["participants"])
        if phase == DRAW:
            return [act.PASS, idx.draw] if self.deck else [act.PASS]
        if phase == MAP_RECIPIENT:
            return list(range(idx.select, idx.select + n))
        if phase in (CURRENT_TARGET, BRAWL_TARGET, SPY_TARGET):
            return list(range(idx.select + 1, idx.select + n))
        if phase == MUTINY_SHIP:
            return [idx.ship + s for s in self._mutiny_ships(a)]
        if phase == MAP_GIVE:
            return [act.PASS, *sorted(idx.select + self._offset(a, p) for p in self._map_candidates(a))]
        raise AssertionError(f"no decision in phase {phase}")

    def _action_phase_legal(self, a: int) -> list[int]:
        """TOR-504."""
        idx = self.game.idx
        role = self.role[a]
        here = self.pos[a]
        legal = [act.PASS]
        if is_captain(role):
            if here == GAL and self.galleon >= 1:
                legal.append(act.ATTACK)
        elif is_first_mate(role):
            if here in SHIP_NODE and self.holder(C_ENG + SHIP_NODE.index(here)) != NOBODY:
                legal.append(act.MUTINY)
        elif role == SAILOR:
            if here == GAL and self.galleon >= 1:
                legal.append(act.STEAL_GALLEON)
            if here in AREA_NODES:
                legal.extend(
                    sorted(
                        idx.steal + self._offset(a, p) for p in range(len(self.pos)) if p != a and self.pos[p] == here
                    )
                )
        elif role == GOVERNOR and here == TOR:
            legal.extend(range(idx.dispute + 1, idx.dispute + self.game.num_players))
        return legal

    def _mutiny_ships(self, drawer: int) -> list[int]:
        """TOR-605: ships whose Captain slot is held by another player."""
        out = []
        for s in range(3):
            cap = self.holder(C_ENG + s)
            if cap != NOBODY and cap != drawer:
                out.append(s)
        return out

    def _map_candidates(self, a: int) -> list[int]:
        """TOR-544: other players on the giver's area node."""
        here = self.pos[a]
        if here not in AREA_NODES:
            return []
        return [p for p in range(len(self.pos)) if p != a and self.pos[p] == here]

    # --- acting --------------------------------------------------------------------------------------------
    def _apply_action(self, action: int) -> None:
        phase = self.phase
        game = self.game
        idx = game.idx
        n = game.num_players
        a = self._current_player()
        if phase == MOVE:
            self.pos[a] = action
            self.phase = ACTION
        elif phase == ACTION:
            self._apply_main_action(a, action)
        elif phase == VOTE:
            vote = self.vote
            vote["cards"][a] = action - idx.vote
            vote["idx"] += 1
            if vote["idx"] == len(vote["order"]):
                self._reveal()
        elif phase == DECLARE:
            vote = self.vote
            vote["decl"][a] = action - idx.declare
            vote["didx"] += 1
            if vote["didx"] == len(vote["declarers"]):
                self._finish_vote()
        elif phase == LOOT:
            target = (a + action - idx.select) % n
            self._gain(target, 1)
            loot = self.loot
            loot["left"] -= 1
            loot["assigned"][target] += 1
            self._log(LOG_LOOT_GIVEN, a, target, GAL, -1, 1)
            if loot["left"] == 0:
                self.loot = None
                self._after_attack()
        elif phase == DRAW:
            if action == act.PASS:
                self._log(LOG_DRAW_DECLINED, a)
                self._map_step()
            else:
                self._draw_event(a)
        elif phase == EXTRA_MOVE:
            self.pos[a] = action
            self._end_event()
        elif phase == CURRENT_TARGET:
            self.event["target"] = (a + action - idx.select) % n
            self.phase = CURRENT_DEST
        elif phase == CURRENT_DEST:
            target = self.event["target"]
            self.pos[target] = action
            self._log(LOG_PAWN_MOVED, a, target, action, STRONG_CURRENT)
            self._end_event()
        elif phase == MUTINY_SHIP:
            ship = action - idx.ship
            self._open_vote(V_MUTINY, a, self.holder(C_ENG + ship), "event", ship)
        elif phase == BRAWL_TARGET:
            self._open_vote(V_BRAWL, a, (a + action - idx.select) % n, "event")
        elif phase == SPY_TARGET:
            target = (a + action - idx.select) % n
            self.spied[a][target] = True
            self._log(LOG_SPYGLASS, a, target, -1, SPYGLASS)
            self._end_event()
        elif phase == MAP_RECIPIENT:
            target = (a + action - idx.select) % n
            self.maps[target] += 1
            self.pub_maps[target] += 1
            self.ledger.append([L_MAP_PUBLIC, target])
            self._log(LOG_MAP_GIFTED, a, target, -1, TREASURE_MAP)
            self._end_event()
        elif phase == MAP_GIVE:
            cands = self._map_candidates(a)
            receiver = NOBODY
            if action != act.PASS:
                receiver = (a + action - idx.select) % n
                self.maps[a] -= 1
                self.maps[receiver] += 1
                self.map_delta[receiver][a] += 1
                self.map_delta[a][receiver] -= 1
            self.ledger.append([L_MAP_GIVE, a, cands, receiver])
            self._end_turn()

    def _log(self, kind: int, actor: int, target: int = NOBODY, node: int = -1, card: int = -1, value: int = 0) -> None:
        log = self.log
        log.append([kind, actor, target, node, card, value, -1])
        if len(log) > LOG_LENGTH:
            del log[0]

    def _gain(self, seat: int, amount: int) -> None:
        """A public gain already taken from the galleon or the supply (TOR-906)."""
        self.hoard[seat] += amount
        self.pub_treasure[seat] += amount
        self.ledger.append([L_GAIN, seat, amount])

    def _lose(self, seat: int) -> int:
        """A public loss of 1 if the hoard allows (TOR-546); returns the tokens lost (0 or 1)."""
        lost = 1 if self.hoard[seat] >= 1 else 0
        self.hoard[seat] -= lost
        self.pub_treasure[seat] -= lost
        self.ledger.append([L_LOSS, seat, -lost])
        return lost

    # --- 5.2 main actions ------------------------------------------------------------------------------------
    def _apply_main_action(self, a: int, action: int) -> None:
        idx = self.game.idx
        n = self.game.num_players
        if action == act.PASS:
            self._after_action(False)
        elif action == act.ATTACK:  # TOR-520
            participants = [a] + [(a + k) % n for k in range(1, n) if self.pos[(a + k) % n] == GAL]
            self._open_vote(V_ATTACK, a, NOBODY, "action", -1, participants)
        elif action == act.MUTINY:  # TOR-505
            ship = SHIP_NODE.index(self.pos[a])
            self._open_vote(V_MUTINY, a, self.holder(C_ENG + ship), "action", ship)
        elif action == act.STEAL_GALLEON:  # TOR-537
            self.galleon -= 1
            self._gain(a, 1)
            self._log(LOG_STEAL_GALLEON, a, NOBODY, GAL, -1, 1)
            if self.galleon == 0:
                self._game_over("galleon")
            else:
                self._after_action(True)
        elif idx.steal <= action < idx.steal + n:  # TOR-535/536
            victim = (a + action - idx.steal) % n
            here = self.pos[a]
            moved = 1 if self.hoard[victim] >= 1 else 0
            self.steals_made[a] += 1
            if self.game.options["public_steal"]:  # TOR-805
                self._lose(victim)
                if moved:
                    self._gain(a, 1)
                self._log(LOG_STEAL_PLAYER, a, victim, here, -1, moved)
            else:
                cands = [p for p in range(n) if p != a and self.pos[p] == here]
                self.hoard[victim] -= moved
                self.hoard[a] += moved
                self.steal_delta[a][victim] += moved
                self.steal_delta[victim][a] -= moved
                self.ledger.append([L_STEAL, a, cands, victim, moved])
                self._log(LOG_STEAL_PLAYER, a, victim, here, -1, moved)
                self.log[-1][6] = len(self.ledger) - 1
            self._after_action(True)
        else:  # DISPUTE (TOR-539)
            self._open_vote(V_DISPUTE, a, (a + action - idx.dispute) % n, "action")

    def _after_action(self, acted: bool) -> None:
        """End of the Action phase: the Event phase's DRAW, or straight to the map step (TOR-807)."""
        self.acted = acted
        if acted and self.game.options["draw_replaces_action"]:
            self._map_step()
        else:
            self.phase = DRAW

    # --- 5.3 voting ---------------------------------------------------------------------------------------------
    def _open_vote(
        self, kind: int, initiator: int, target: int, ctx: str, ship: int = -1, participants: list | None = None
    ) -> None:
        n = self.game.num_players
        self.vote = {
            "type": kind,
            "initiator": initiator,
            "target": target,
            "ship": ship,
            "ctx": ctx,
            "participants": participants or [],
            "order": [(initiator + k) % n for k in range(n)],  # TOR-507
            "idx": 0,
            "cards": [-1] * n,
            "revealed": False,
            "declarers": [],
            "didx": 0,
            "decl": [-1] * n,
            "die": -1,
        }
        self.phase = VOTE

    def _reveal(self) -> None:
        """TOR-508/509: all cards public at once; Wild voters declare in order from the initiator."""
        vote = self.vote
        vote["revealed"] = True
        vote["declarers"] = [p for p in vote["order"] if vote["cards"][p] == CARD_WILD]
        if vote["declarers"]:
            self.phase = DECLARE
        else:
            self._finish_vote()

    def _finish_vote(self) -> None:
        """TOR-510..513: count, neutral die, public record, then the voted effect."""
        vote = self.vote
        n = self.game.num_players
        cards, decl = vote["cards"], vote["decl"]
        final = [cards[p] if cards[p] != CARD_WILD else decl[p] for p in range(n)]
        yes = final.count(CARD_YES)
        no = n - yes
        if self.game.neutral:  # TOR-512
            die = 1 + self.rng.randrange(6)
            vote["die"] = CARD_YES if die >= 4 else CARD_NO
            if die >= 4:
                yes += 1
            else:
                no += 1
        passed = yes > no  # TOR-511
        init, target = vote["initiator"], vote["target"]
        for p in range(n):
            if final[p] == CARD_YES:
                self.yes_by[p][init] += 1
                if target >= 0:
                    self.yes_vs[p][target] += 1
        self.votes_initiated[init] += 1
        if target >= 0:
            self.votes_targeting[target] += 1
        if self.game.options["wild_cooldown"]:  # TOR-803
            self.wild_lock = [c == CARD_WILD for c in cards]
        self.last_vote = {
            "type": vote["type"],
            "initiator": init,
            "target": target,
            "cards": list(cards),
            "final": final,
            "passed": passed,
            "die": vote["die"],
        }
        self.vote = None
        kind = vote["type"]
        if kind == V_ATTACK:
            self._resolve_attack(init, vote["participants"], passed)
        elif kind == V_MUTINY:
            if passed:
                self._exile(target, vote["ship"], init)
            else:
                self._log(
                    LOG_MUTINY_FAILED,
                    init,
                    target,
                    SHIP_NODE[vote["ship"]],
                    MUTINY_BREWS if vote["ctx"] == "event" else -1,
                )
            self._after_vote(vote["ctx"])
        else:  # DISPUTE or BRAWL (TOR-539, TOR-606)
            card = TAVERN_BRAWL if kind == V_BRAWL else -1
            if passed:
                moved = self._lose(target)
                if moved:
                    self._gain(init, 1)
                self._log(LOG_DISPUTE_PASSED, init, target, -1, card, moved)
            else:
                self._log(LOG_DISPUTE_FAILED, init, target, -1, card)
            self._after_vote(vote["ctx"])

    def _after_vote(self, ctx: str) -> None:
        if ctx == "action":
            self._after_action(True)
        else:
            self._end_event()

    # --- 5.4 attack ------------------------------------------------------------------------------------------------
    def _resolve_attack(self, captain: int, participants: list, passed: bool) -> None:
        if not passed:
            self._log(LOG_ATTACK_FAILED, captain, NOBODY, GAL)
            self._after_action(True)
            return
        dice = min(6, 1 + len(participants))  # TOR-521
        successes = sum(1 for _ in range(dice) if self.rng.randrange(6) >= 3)
        loot = min(successes, self.galleon)
        self.galleon -= loot
        self._log(LOG_ATTACK_PASSED, captain, NOBODY, GAL, -1, loot)
        if loot == 0:
            self._after_attack()
        elif len(participants) == 1:  # TOR-522 / TOR-402: no decision
            self._gain(captain, loot)
            self._log(LOG_LOOT_GIVEN, captain, captain, GAL, -1, loot)
            self._after_attack()
        else:
            self.loot = {
                "captain": captain,
                "participants": list(participants),
                "left": loot,
                "dice": dice,
                "successes": successes,
                "assigned": [0] * self.game.num_players,
            }
            self.phase = LOOT

    def _after_attack(self) -> None:
        if self.galleon == 0:  # TOR-523, TOR-702
            self._game_over("galleon")
        else:
            self._after_action(True)

    # --- 5.5 exile and succession -------------------------------------------------------------------------------------
    def _exile(self, captain: int, ship: int, initiator: int) -> None:
        """TOR-526/527."""
        n = self.game.num_players
        node = SHIP_NODE[ship]
        self.role[captain] = SAILOR
        self.exiled[captain] = True
        self.pos[captain] = TOR
        if not self.game.options["secret_exile"]:
            self.revealed[captain] = True
        self._log(LOG_EXILED, initiator, captain, node)
        candidates = [
            p
            for p in ((captain + k) % n for k in range(1, n))
            if self.role[p] == SAILOR and not self.exiled[p] and self.pos[p] == node
        ]
        mate = self.holder(FM_ENG + ship)
        if mate != NOBODY:
            self.role[mate] = C_ENG + ship
            self._log(LOG_PROMOTED, mate, NOBODY, node, -1, 1)
            if candidates:
                self.role[candidates[0]] = FM_ENG + ship
                self._log(LOG_PROMOTED, candidates[0], NOBODY, node, -1, 2)
        elif candidates:
            self.role[candidates[0]] = C_ENG + ship
            self._log(LOG_PROMOTED, candidates[0], NOBODY, node, -1, 1)

    # --- Section 6: events ------------------------------------------------------------------------------------------
    def _draw_event(self, a: int) -> None:
        card = self.deck.pop()
        self.drawn[card] += 1
        self._log(LOG_EVENT_DRAWN, a, NOBODY, -1, card)
        if card == ARMADA:  # TOR-612
            self._game_over("armada")
            return
        self.event = {"card": card, "target": NOBODY}
        if card == FLOATING_CARGO:  # TOR-601
            self._supply_gain(a, 1, card)
        elif card == BURIED_CHEST:  # TOR-602
            self._supply_gain(a, 1 + self.rng.randrange(6) // 2, card)
        elif card == FAIR_WINDS:
            self.phase = EXTRA_MOVE
            return
        elif card == STRONG_CURRENT:
            self.phase = CURRENT_TARGET
            return
        elif card == MUTINY_BREWS:
            if self._mutiny_ships(a):
                self.phase = MUTINY_SHIP
                return
        elif card == TAVERN_BRAWL:
            self.phase = BRAWL_TARGET
            return
        elif card == SCURVY:  # TOR-607
            lost = self._lose(a)
            self.supply += lost
            self._log(LOG_TREASURE_EVENT, a, a, -1, card, -lost)
        elif card == SHIPWRECK:  # TOR-608
            if self.pos[a] != TOR:
                self.pos[a] = TOR
                self._log(LOG_PAWN_MOVED, a, a, TOR, card)
        elif card == COUNTERATTACK:  # TOR-609
            n = self.game.num_players
            for p in ((a + k) % n for k in range(n)):
                if self.pos[p] == GAL:
                    lost = self._lose(p)
                    self.galleon += lost
                    self._log(LOG_TREASURE_EVENT, a, p, GAL, card, -lost)
        elif card == SPYGLASS:
            self.phase = SPY_TARGET
            return
        elif card == TREASURE_MAP:
            self.phase = MAP_RECIPIENT
            return
        self._end_event()

    def _supply_gain(self, seat: int, amount: int, card: int) -> None:
        amount = min(amount, self.supply)  # TOR-546
        self.supply -= amount
        self._gain(seat, amount)
        self._log(LOG_TREASURE_EVENT, seat, seat, -1, card, amount)

    def _end_event(self) -> None:
        self.event = None
        self._map_step()

    # --- 5.9 map step and the end of the turn ------------------------------------------------------------------------
    def _map_step(self) -> None:
        a = self.active
        cands = self._map_candidates(a)
        if cands and self.maps[a] >= 1:
            self.phase = MAP_GIVE
            return
        if cands:
            self.ledger.append([L_MAP_GIVE, a, cands, NOBODY])
        self._end_turn()

    def _end_turn(self) -> None:
        n = self.game.num_players
        a = self.active
        if (a + 1) % n == self.start:
            if self.round == self.game.options["max_rounds"]:  # TOR-701(c)
                self._game_over("rounds")
                return
            self.round += 1
        self.active = (a + 1) % n
        self.phase = MOVE
        self.acted = False

    def _game_over(self, reason: str) -> None:
        self.phase = GAME_OVER
        self.end_reason = reason
        self.event = None
        self.loot = None

    # --- Section 7: scoring ------------------------------------------------------------------------------------------
    def nation_scores(self) -> list[int]:
        """TOR-703 Score(N) for England, France, Spain (0 for a nation without players)."""
        scores = [0, 0, 0]
        for p, nat in enumerate(self.nation):
            scores[nat] += self.hoard[p] + 2 * self.maps[p]
        return scores

    def winning_nations(self) -> list[int]:
        """TOR-704: highest score, then more alive players, then more maps; the rest share."""
        scores = self.nation_scores()
        alive = [0, 0, 0]
        maps = [0, 0, 0]
        for p, nat in enumerate(self.nation):
            alive[nat] += not self.exiled[p]
            maps[nat] += self.maps[p]
        keys = {nat: (scores[nat], alive[nat], maps[nat]) for nat in self.game.nations_in_play}
        best = max(keys.values())
        return [nat for nat, key in keys.items() if key == best]

    def _winners(self) -> list[int]:
        """TOR-705: the alive players of the winning nation(s)."""
        nations = self.winning_nations()
        return [p for p, nat in enumerate(self.nation) if nat in nations and not self.exiled[p]]

    def final_info(self) -> dict[str, list[int]]:
        """TOR-1005: what every agent's ``infos`` carry at the end (all cards revealed, TOR-703).

        Only integers, in lists whose lengths depend on the player count alone (on any state, so the
        adapter can show zeros of the same shape before the end): per seat ``nations`` (0 England,
        1 France, 2 Spain), ``hoards``, ``maps``, ``exiled`` (0/1); per nation (England, France, Spain)
        ``nation_scores`` (0 for a nation not in play) and ``nation_won`` (0/1)."""
        won = self.winning_nations()
        return {
            "nations": list(self.nation),
            "hoards": list(self.hoard),
            "maps": list(self.maps),
            "nation_scores": self.nation_scores(),
            "nation_won": [int(nat in won) for nat in range(3)],
            "exiled": [int(x) for x in self.exiled],
        }

    def _scores(self) -> list[float]:
        scores = self.nation_scores()
        return [float(scores[nat]) for nat in self.nation]

    def _returns(self) -> list[float]:
        n = self.game.num_players
        if self.game.reward_mode == "win":
            return team_win_loss_returns(self._winners(), n)
        scores = self.nation_scores()
        out = []
        for p in range(n):  # TOR-1005 score mode
            own = self.nation[p]
            best_other = max(scores[nat] for nat in self.game.nations_in_play if nat != own)
            r = clipped_margin(scores[own], best_other, 10.0)
            if self.exiled[p]:
                r = min(r, 0.0)
            out.append(r)
        return out

    # --- observation and rendering ------------------------------------------------------------------------------------
    def render(self, viewer: int | None = None) -> str:
        from pirate_envs.games.tortuga.render import render_state

        return render_state(self, self.check_viewer(viewer))

    # --- invariants ------------------------------------------------------------------------------------------------
    def check_invariants(self) -> None:
        n = self.game.num_players
        self._check_ranges()
        in_transit = self.loot["left"] if self.loot is not None else 0  # loot being assigned (TOR-522)
        assert self.galleon + self.supply + sum(self.hoard) + in_transit == TOTAL_TREASURE, "TOR-545 conservation"
        assert min(self.hoard) >= 0 and self.galleon >= 0 and self.supply >= 0, "negative treasure"
        assert min(self.maps) >= 0
        pending = 1 if self.phase == MAP_RECIPIENT else 0
        assert sum(self.maps) == sum(self.pub_maps) == self.drawn[TREASURE_MAP] - pending, "map conservation"
        assert len(self.deck) + sum(self.drawn) == sum(CARD_COUNTS), "event deck conservation"
        for node in range(8):
            assert self.pos.count(node) <= CAPACITY[node], f"node {node} over capacity"
        for r in range(GOVERNOR + 1):
            assert self.role.count(r) <= 1, f"role {r} held twice"
        for s in range(3):  # TOR-528
            if self.holder(C_ENG + s) == NOBODY:
                assert self.holder(FM_ENG + s) == NOBODY, "a First Mate without a Captain"
        for p in range(n):
            if self.exiled[p]:
                assert self.role[p] == SAILOR
            own = self.pub_treasure[p] + sum(self.steal_delta[p])
            assert own == self.hoard[p], "TOR-1004 own_hoard invariant"
            assert self.pub_maps[p] + sum(self.map_delta[p]) == self.maps[p], "TOR-1004 own_maps invariant"
        for nat in range(3):
            assert self.nation.count(nat) == NATION_TABLE[n][nat]

    def _check_ranges(self) -> None:
        """Every index, count and pending vote/loot/event in its range and agreeing with the phase, and the
        ledger replaying to the hoards and maps (what ``state_from_dict`` relies on before the rules run)."""
        game = self.game
        n, last = game.num_players, game.num_players - 1
        most = game.max_decisions
        assert_in_range("nation", self.nation, 0, 2, length=n)
        assert_in_range("role", self.role, C_ENG, SAILOR, length=n)
        assert_in_range("pos", self.pos, 0, len(CAPACITY) - 1, length=n)
        for name in ("hoard", "maps"):
            assert_in_range(name, getattr(self, name), 0, TOTAL_TREASURE, length=n)
        for name in ("pub_treasure", "pub_maps"):  # public view: a secret steal can take it below 0
            assert_in_range(name, getattr(self, name), -TOTAL_TREASURE, TOTAL_TREASURE, length=n)
        assert_in_range("galleon", self.galleon, 0, TOTAL_TREASURE)
        assert_in_range("supply", self.supply, 0, TOTAL_TREASURE)
        assert_in_range("deck", self.deck, 0, NUM_CARD_TYPES - 1)
        assert_in_range("drawn", self.drawn, 0, max(CARD_COUNTS), length=NUM_CARD_TYPES)
        for card in range(NUM_CARD_TYPES):
            assert self.deck.count(card) + self.drawn[card] == CARD_COUNTS[card], f"deck/drawn: card {card} lost"
        assert_in_range("start", self.start, 0, last)
        assert_in_range("active", self.active, 0, last)
        assert_in_range("round", self.round, 1, game.options["max_rounds"])
        assert_in_range("phase", self.phase, MOVE, GAME_OVER)
        for name in ("steals_made", "votes_initiated", "votes_targeting"):
            assert_in_range(name, getattr(self, name), 0, most, length=n)
        for name in ("yes_by", "yes_vs"):
            for row in getattr(self, name):
                assert_in_range(name, row, 0, most, length=n)
        assert self.end_reason in ("", "galleon", "armada", "rounds"), f"end_reason {self.end_reason!r}"
        assert (self.phase == GAME_OVER) == (self.end_reason != ""), "end_reason disagrees with phase"
        self._check_pending()
        self._check_ledger()

    def _check_pending(self) -> None:
        """The open vote, the loot being shared and the event being resolved exist exactly in their phases."""
        n, last, phase = self.game.num_players, self.game.num_players - 1, self.phase
        vote = self.vote
        assert (vote is not None) == (phase in (VOTE, DECLARE)), "vote is open outside VOTE/DECLARE (or missing)"
        if vote is not None:
            assert_in_range("vote.type", vote["type"], V_ATTACK, V_BRAWL)
            assert_in_range("vote.initiator", vote["initiator"], 0, last)
            assert_in_range("vote.target", vote["target"], NOBODY, last)
            assert_in_range("vote.ship", vote["ship"], -1, 2)
            assert vote["ctx"] in ("action", "event"), f"vote.ctx {vote['ctx']!r}"
            if vote["type"] == V_ATTACK:  # TOR-520: the Galleon is attacked, no seat is the target
                assert vote["target"] == NOBODY and vote["ship"] == -1, "vote.target/ship of an attack"
            else:
                assert vote["target"] not in (NOBODY, vote["initiator"]), "vote.target: no other seat"
                assert (vote["ship"] >= 0) == (vote["type"] == V_MUTINY), "vote.ship: only a mutiny names a ship"
            assert_in_range("vote.participants", vote["participants"], 0, last)
            assert vote["order"] == [(vote["initiator"] + k) % n for k in range(n)], "vote.order (TOR-507)"
            assert_in_range("vote.idx", vote["idx"], 0, n - 1 if phase == VOTE else n)
            assert_in_range("vote.cards", vote["cards"], -1, CARD_WILD, length=n)
            voted = set(vote["order"][: vote["idx"]])
            assert all((vote["cards"][p] >= 0) == (p in voted) for p in range(n)), "vote.cards vs vote.idx"
            assert vote["revealed"] is (phase == DECLARE), "vote.revealed disagrees with the phase"
            if phase == DECLARE:
                wild = [p for p in vote["order"] if vote["cards"][p] == CARD_WILD]
                assert vote["declarers"] == wild, "vote.declarers are not the Wild voters (TOR-509)"
                assert_in_range("vote.didx", vote["didx"], 0, len(wild) - 1)
            else:
                assert vote["declarers"] == [] and vote["didx"] == 0, "vote.declarers before the reveal"
            assert_in_range("vote.decl", vote["decl"], -1, CARD_NO, length=n)
            declared = set(vote["declarers"][: vote["didx"]])
            assert all((vote["decl"][p] >= 0) == (p in declared) for p in range(n)), "vote.decl vs vote.didx"
            assert_in_range("vote.die", vote["die"], -1, CARD_NO)
        last_vote = self.last_vote
        if last_vote is not None:
            assert_in_range("last_vote.type", last_vote["type"], V_ATTACK, V_BRAWL)
            assert_in_range("last_vote.initiator", last_vote["initiator"], 0, last)
            assert_in_range("last_vote.target", last_vote["target"], NOBODY, last)
            assert_in_range("last_vote.cards", last_vote["cards"], CARD_YES, CARD_WILD, length=n)
            assert_in_range("last_vote.final", last_vote["final"], CARD_YES, CARD_NO, length=n)
            assert type(last_vote["passed"]) is bool, "last_vote.passed"
            assert_in_range("last_vote.die", last_vote["die"], -1, CARD_NO)
        loot = self.loot
        assert (loot is not None) == (phase == LOOT), "loot is shared outside LOOT (or missing)"
        if loot is not None:
            assert_in_range("loot.captain", loot["captain"], 0, last)
            assert_in_range("loot.participants", loot["participants"], 0, last)
            assert_in_range("loot.dice", loot["dice"], 1, 6)
            assert_in_range("loot.successes", loot["successes"], 0, loot["dice"])
            assert_in_range("loot.left", loot["left"], 1, loot["successes"])
            assert_in_range("loot.assigned", loot["assigned"], 0, TOTAL_TREASURE, length=n)
        event = self.event
        if event is not None:
            assert_in_range("event.card", event["card"], 0, NUM_CARD_TYPES - 1)
            assert_in_range("event.target", event["target"], NOBODY, last)
        if phase in (EXTRA_MOVE, CURRENT_TARGET, CURRENT_DEST, MUTINY_SHIP, BRAWL_TARGET, SPY_TARGET, MAP_RECIPIENT):
            assert event is not None, f"event missing in phase {PHASE_NAMES[phase]}"
        if phase == CURRENT_DEST:
            assert event["target"] != NOBODY, "event.target missing in CURRENT_DEST"
        for row in self.spied:
            assert len(row) == n, "spied holds one flag per seat and seat"

    def _check_ledger(self) -> None:
        """The ledger replays to the hoards, maps and per-pair deltas; the log points at its secret steals."""
        n, last = self.game.num_players, self.game.num_players - 1
        hoard, maps = [0] * n, [0] * n
        steal_delta = [[0] * n for _ in range(n)]
        map_delta = [[0] * n for _ in range(n)]
        for entry in self.ledger:
            assert entry and entry[0] in (L_GAIN, L_LOSS, L_STEAL, L_MAP_PUBLIC, L_MAP_GIVE), f"ledger entry {entry}"
            kind = entry[0]
            if kind == L_GAIN:
                _, seat, amount = entry
                assert_in_range("ledger (gain)", [seat, amount], 0, TOTAL_TREASURE)
                assert seat <= last, f"ledger entry {entry}"
                hoard[seat] += amount
            elif kind == L_LOSS:
                _, seat, amount = entry
                assert_in_range("ledger (loss seat)", seat, 0, last)
                assert_in_range("ledger (loss)", amount, -1, 0)
                hoard[seat] += amount
            elif kind == L_STEAL:
                _, thief, cands, victim, moved = entry
                assert_in_range("ledger (steal)", [thief, victim, *cands], 0, last)
                assert victim in cands and thief not in cands, f"ledger entry {entry}"
                assert_in_range("ledger (steal moved)", moved, 0, 1)
                hoard[victim] -= moved
                hoard[thief] += moved
                steal_delta[thief][victim] += moved
                steal_delta[victim][thief] -= moved
            elif kind == L_MAP_PUBLIC:
                _, seat = entry
                assert_in_range("ledger (map)", seat, 0, last)
                maps[seat] += 1
            else:
                _, giver, cands, receiver = entry
                assert_in_range("ledger (map gift)", [giver, *cands], 0, last)
                assert_in_range("ledger (map receiver)", receiver, NOBODY, last)
                assert receiver == NOBODY or receiver in cands, f"ledger entry {entry}"
                if receiver != NOBODY:
                    maps[giver] -= 1
                    maps[receiver] += 1
                    map_delta[receiver][giver] += 1
                    map_delta[giver][receiver] -= 1
            assert min(hoard) >= 0 and min(maps) >= 0, f"ledger entry {entry} spends what its seat lacks"
        assert hoard == self.hoard and maps == self.maps, "hoard / maps disagree with the ledger"
        assert steal_delta == self.steal_delta and map_delta == self.map_delta, "steal_delta / map_delta vs ledger"
        assert len(self.log) <= LOG_LENGTH, "log is longer than LOG_LENGTH"
        for item in self.log:
            assert len(item) == 7, f"log entry {item}"
            kind, actor, target, node, card, _value, secret = item
            assert_in_range("log (kind)", kind, 0, NUM_LOG_TYPES - 1)
            assert_in_range("log (actor)", actor, 0, last)
            assert_in_range("log (target)", target, NOBODY, last)
            assert_in_range("log (node)", node, -1, len(CAPACITY) - 1)
            assert_in_range("log (card)", card, -1, NUM_CARD_TYPES - 1)
            assert_in_range("log (ledger index)", secret, -1, len(self.ledger) - 1)
            if secret >= 0:
                steal = self.ledger[secret]
                assert steal[0] == L_STEAL and item[2] == steal[3] and item[5] == steal[4], f"log entry {item}"

    # --- Section 9: determinisation ----------------------------------------------------------------------------------
    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        """Redraw what ``seat`` cannot see: nations, deck order, secret steals and map gifts, pending votes."""
        n = self.game.num_players
        packet = ARMADA_PACKET[self.game.options["armada_depth"]]
        deck = sorted(c for c in self.deck if c != ARMADA)  # canonical order: only the counts are known
        rng.shuffle(deck)
        if len(deck) < len(self.deck):
            deck.insert(rng.randrange(min(packet, len(self.deck))), ARMADA)
        self.deck = deck
        unknown = [p for p in range(n) if not self.nation_known(seat, p)]
        pool = sorted(self.nation[p] for p in unknown)
        rng.shuffle(pool)
        for p, nat in zip(unknown, pool, strict=True):
            self.nation[p] = nat
        vote = self.vote
        if vote is not None and not vote["revealed"]:
            for p in vote["order"][: vote["idx"]]:
                if p != seat:
                    locked = self.game.options["wild_cooldown"] and self.wild_lock[p]
                    vote["cards"][p] = rng.randrange(2 if locked else 3)
        self._resample_ledger(seat, rng)

    def _resample_ledger(self, seat: int, rng: Rng) -> None:
        n = self.game.num_players
        pending_give = self.phase == MAP_GIVE and self.active != seat
        for _ in range(RESAMPLE_TRIES):
            hoard = [0] * n
            maps = [0] * n
            ledger = []
            ok = True
            for entry in self.ledger:
                kind = entry[0]
                if kind == L_GAIN:
                    hoard[entry[1]] += entry[2]
                elif kind == L_LOSS:
                    if (hoard[entry[1]] >= 1) != (entry[2] == -1):
                        ok = False
                        break
                    hoard[entry[1]] += entry[2]
                elif kind == L_STEAL:
                    _, thief, cands, victim, moved = entry
                    involved = seat in (thief, victim)
                    if not involved:
                        victim = rng.choice([c for c in cands if c != seat])
                    now = 1 if hoard[victim] >= 1 else 0
                    if involved and now != moved:
                        ok = False
                        break
                    hoard[victim] -= now
                    hoard[thief] += now
                    entry = [kind, thief, cands, victim, now]
                elif kind == L_MAP_PUBLIC:
                    maps[entry[1]] += 1
                else:
                    _, giver, cands, receiver = entry
                    if seat not in (giver, receiver):
                        choices = [c for c in cands if c != seat]
                        receiver = rng.choice([NOBODY, *choices]) if maps[giver] >= 1 and choices else NOBODY
                    if receiver != NOBODY:
                        if maps[giver] < 1:
                            ok = False
                            break
                        maps[giver] -= 1
                        maps[receiver] += 1
                    entry = [kind, giver, cands, receiver]
                ledger.append(entry)
            if ok and pending_give and maps[self.active] < 1:
                ok = False
            if ok:
                self._commit_ledger(ledger, hoard, maps)
                return

    def _commit_ledger(self, ledger: list, hoard: list, maps: list) -> None:
        n = self.game.num_players
        self.ledger = ledger
        self.hoard = hoard
        self.maps = maps
        self.steal_delta = [[0] * n for _ in range(n)]
        self.map_delta = [[0] * n for _ in range(n)]
        for entry in ledger:
            if entry[0] == L_STEAL:
                _, thief, _, victim, moved = entry
                self.steal_delta[thief][victim] += moved
                self.steal_delta[victim][thief] -= moved
            elif entry[0] == L_MAP_GIVE and entry[3] != NOBODY:
                self.map_delta[entry[3]][entry[1]] += 1
                self.map_delta[entry[1]][entry[3]] -= 1
        for item in self.log:
            if item[6] >= 0:
                _, _, _, victim, moved = ledger[item[6]]
                item[2] = victim
                item[5] = moved


TortugaGame.state_class = TortugaState
