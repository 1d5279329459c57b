"""The rules engine of Dead Man's Draw (``dead_mans_draw_v0``): setup, turns, chained effects, scoring.

Reads in the order of ``docs/rules/dead_mans_draw.md``: options (Section 8) -> setup (Section 3)
-> turn and task stack (Sections 4, 5.3) -> placing a card (5.2) -> suit abilities (6.1) ->
bust / stop (5.4, 5.5) -> gain events, Sudden Death and Undertow (7, 8) -> scoring (7).

Every procedure returns one of three codes: ``ASK`` (a decision is now asked), ``CONT`` (this piece
of resolution finished; pop the task stack) or ``END`` (the turn is over). :meth:`DmdState._run`
drives the codes until the next decision or the end of the game, so chains resolve depth first
(DMD-509, DMD-510) without recursion across turns.
"""

from __future__ import annotations

from bisect import insort
from typing import Any, ClassVar

import numpy as np

from pirate_envs.core.errors import InvalidOptionError
from pirate_envs.core.game import Game, State, assert_in_range
from pirate_envs.core.options import Option
from pirate_envs.core.rewards import clipped_margin, reward_options, team_win_loss_returns
from pirate_envs.core.rng import Rng
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.actions import (
    ABILITY_CHOICE,
    CANNON_TARGET,
    DRAW_OR_STOP,
    GAME_OVER,
    HOOK_SUIT,
    LOCKER_ACCEPT,
    LOCKER_TARGET,
    MAP_PICK,
    MERMAID_PICK,
    NAVIGATOR_SELF,
    PHASE_NAMES,
    PLUNDER_PICK,
    RAKE_PICK,
    SWORD_TARGET,
)
from pirate_envs.games.dead_mans_draw.cards import (
    ANCHOR,
    BOUNTY_HUNTER,
    CANNON,
    CAPTAIN_HOOK,
    CARD_SUIT,
    CARD_VALUE,
    CHEST,
    FISHERMAN,
    GOLDEN_MERMAID,
    GRAND_SLAM,
    HOOK,
    KEY,
    KRAKEN,
    KRAKEN_KING,
    LOCKER,
    MAP,
    MARKER,
    MASTER_GUNNER,
    MERMAID,
    MISER,
    MISFIRE,
    MYSTIC,
    NAVIGATOR,
    NUM_ABILITIES,
    NUM_CARDS,
    NUM_SUITS,
    ORACLE,
    PARRY,
    PIRI_REIS,
    PLUNDERER,
    RAKE,
    SAFE_HARBOR,
    SCAVENGER,
    SIREN,
    SUDDEN_DEATH,
    SUDDEN_DEATH_TARGET,
    SWORD,
    SWORDSMAN,
    THIEVES_ISLAND,
    UNCHARTED_WATERS,
    UNDERTOW,
    UNDERTOW_LIMIT,
    VARIANT_CARDS,
    VARIANT_OPTIONS,
    VARIANTS,
    ability_pool,
    deck_cards,
    starting_discard_cards,
)

ASK, CONT, END = 1, 0, 2
FORCED_DRAW, SECOND_HOOK = 0, 1  # DMD-507 task kinds


class DmdGame(Game):
    """Dead Man's Draw for 2-4 players (DMD-101, DMD-801..811, DMD-1001)."""

    game_id = "dead_mans_draw_v0"
    display_name = "Dead Man's Draw"
    player_counts = (2, 3, 4)
    default_num_players = 2  # DMD-101 (D1)
    option_specs = (
        Option("characters", True, bool, "DMD-802: deal two ability cards, each player keeps one"),
        Option("starting_discard", True, bool, "DMD-302: the lowest card of each suit starts in the discard pile"),
        Option("variant", "none", str, "DMD-804: the variant rule card in play", choices=VARIANT_OPTIONS),
        Option("mermaid_variant", False, bool, "DMD-810: Mermaids move a card of the row; Siren joins the pool"),
        *reward_options("DMD-1020", default_scale=50.0),
        Option("max_decisions", 8000, int, "DMD-1032: truncate after this many decisions", minimum=1),
    )
    # Rule variants the shared conformance suite exercises (tests/conftest.py).
    variants: ClassVar[dict[str, dict[str, Any]]] = {
        "base": {},
        "plain": {"characters": False, "starting_discard": False},
        "grand_slam": {"variant": "grand_slam", "mermaid_variant": True},
        "sudden_death": {"variant": "sudden_death"},
        "thieves_island": {"variant": "thieves_island", "mermaid_variant": True},
        "uncharted_waters": {"variant": "uncharted_waters", "mermaid_variant": True},
        "piri_reis": {"variant": "piri_reis"},
        "undertow": {"variant": "undertow", "mermaid_variant": True},
    }
    observation_low = -1.0  # Grand Slam scores go down to -50 (S/100)
    observation_high = 3.0  # Piri Reis scores reach 282 (S/100)
    action_feature_low = -40.0  # S/10: a score change is at most 282 + 100 (Sudden Death) points
    action_feature_high = 40.0

    def _setup(self) -> None:
        from pirate_envs.games.dead_mans_draw.observation import ObservationEncoder, observation_size

        n = self.num_players
        self.characters: bool = self.options["characters"]
        self.starting_discard: bool = self.options["starting_discard"]
        self.variant_option: str = self.options["variant"]
        self.mermaid_variant: bool = self.options["mermaid_variant"]
        if 2 * n > len(ability_pool(self.mermaid_variant)):  # pragma: no cover - DMD-308 holds for n <= 4
            raise InvalidOptionError("not enough ability cards")
        self.num_actions = act.num_actions(n)
        self.target_base = act.target_base(n)
        self.observation_size = observation_size(n)
        from pirate_envs.games.dead_mans_draw.action_features import CHANNELS  # it imports the heuristic bot

        self.action_feature_size = CHANNELS
        self._feature_reader = None
        self.deck = deck_cards(self.mermaid_variant)
        self.lowest = starting_discard_cards(self.mermaid_variant)
        self.encoder = ObservationEncoder(self)

    def action_to_string(self, action: int) -> str:
        return act.action_to_string(action, self.num_players)

    def _action_features(self, observation: np.ndarray, action_mask: np.ndarray) -> np.ndarray:
        if self._feature_reader is None:  # imported once: an import statement per call costs a few us
            from pirate_envs.games.dead_mans_draw.action_features import action_features
            from pirate_envs.games.dead_mans_draw.heuristic import HeuristicPolicy

            self._feature_reader = HeuristicPolicy(self)
            self._features_of = action_features
        return self._features_of(observation, action_mask, self._feature_reader)


class DmdState(State):
    """One position; every field is plain JSON data (see ``docs/dead_mans_draw.md``)."""

    fields = (
        "variant",  # index into VARIANTS: the variant card in effect (DMD-303)
        "phase",  # DMD-1002 phase of the decision asked (GAME_OVER at the end)
        "decider",  # seat asked
        "active",  # the active player (DMD-104)
        "first_player",  # DMD-307
        "choices",  # the sorted legal actions of the decision asked
        "draw_pile",  # DMD-901: top of the pile = last element
        "discard",  # DMD-904 (order is not information)
        "collections",  # [seat][suit] -> ascending card ids; top card = last (DMD-501)
        "removed",  # collections of eliminated players (DMD-809), out of the game
        "row",  # DMD-502: card ids and at most one MARKER
        "hook_protected",  # DMD-514c: resolved Hooks and what they placed (Captain Hook only)
        "tasks",  # DMD-507: [kind, arg] stack, top = last
        "offer",  # Map's offered cards (out of the discard) / the Locker's cards on offer
        "hook_s1",  # DMD-617: first suit during a Miser's second HOOK_SUIT, else -1
        "plunder_target",  # DMD-520: seat fixed after the first pick, else -1
        "plunder_remaining",  # picks left, the one being decided included
        "dealt",  # DMD-304: two ability ids per seat
        "kept",  # kept ability per seat, -1 before the choice / characters off
        "revealed",  # DMD-304: kept abilities public
        "holder",  # per ability: the non-eliminated seat using it, else -1 (set at the reveal)
        "locker_target",  # DMD-305: seat designated by the Locker holder, else -1
        "known",  # DMD-903: per seat, peeked cards still in the draw pile
        "eliminated",  # DMD-809
        "turns_taken",  # DMD-1083
        "busts",
        "turn_cards",  # cards appended to the current turn's row (DMD-1012 i)
        "turn_busted",
        "last_turn_player",
        "last_turn_cards",
        "last_turn_busted",
        "winner_seats",
    )

    # --- setup (Section 3) ------------------------------------------------------------------------------

    def _setup_game(self) -> None:
        game: DmdGame = self.game  # type: ignore[assignment]
        n = game.num_players
        rng = self.rng
        if game.variant_option == "random":  # DMD-303: one of the six variant cards, uniformly
            self.variant = rng.choice(VARIANT_CARDS)
        else:
            self.variant = VARIANTS.index(game.variant_option)
        deck = list(game.deck)
        if game.starting_discard:  # DMD-302
            lowest = set(game.lowest)
            self.discard = [c for c in game.lowest]
            rng.shuffle(self.discard)
            deck = [c for c in deck if c not in lowest]
        else:
            self.discard = []
        rng.shuffle(deck)
        self.draw_pile = deck
        self.collections = [[[] for _ in range(NUM_SUITS)] for _ in range(n)]
        self.removed = []
        self._clear_turn_state()
        self.kept = [-1] * n
        self.holder = [-1] * NUM_ABILITIES
        self.locker_target = -1
        self.known = [[] for _ in range(n)]
        self.eliminated = [False] * n
        self.turns_taken = [0] * n
        self.busts = [0] * n
        self.turn_cards = []
        self.turn_busted = False
        self.last_turn_player = -1
        self.last_turn_cards = []
        self.last_turn_busted = False
        self.winner_seats = []
        if game.characters:  # DMD-304
            pool = ability_pool(game.mermaid_variant)
            rng.shuffle(pool)
            self.dealt = [sorted(pool[2 * s : 2 * s + 2]) for s in range(n)]
        else:
            self.dealt = [[] for _ in range(n)]
        self.first_player = rng.randrange(n)  # DMD-307
        self.active = self.first_player
        if game.characters:
            self.revealed = False
            self._ask(ABILITY_CHOICE, 0, [act.ABILITY_BASE + a for a in self.dealt[0]])
        else:
            self.revealed = True
            self._run(self._begin_turn())

    # --- queries ------------------------------------------------------------------------------------------

    def _current_player(self) -> int:
        return self.decider

    def _phase_name(self) -> str:
        return PHASE_NAMES[self.phase]

    def _is_terminal(self) -> bool:
        return self.phase == GAME_OVER

    def _legal_actions(self) -> list[int]:
        return self.choices

    def live_score(self, seat: int) -> int:
        """DMD-701: S without the Golden Mermaid bonus (what DMD-805/809 and the observation use)."""
        coll = self.collections[seat]
        if self.variant == PIRI_REIS:
            return sum([CARD_VALUE[c] for stack in coll for c in stack])
        tops = [CARD_VALUE[stack[-1]] for stack in coll if stack]
        if self.variant == GRAND_SLAM:
            return sum(tops) - 5 * (NUM_SUITS - len(tops))
        return sum(tops)

    def final_score(self, seat: int) -> int:
        """DMD-701: S plus Golden Mermaid's +5 with at least one Mermaid (D31)."""
        score = self.live_score(seat)
        if self.kept[seat] == GOLDEN_MERMAID and not self.eliminated[seat] and self.collections[seat][MERMAID]:
            score += 5
        return score

    def others(self, seat: int) -> list[int]:
        """The non-eliminated opponents of ``seat`` by increasing offset (DMD-104)."""
        n = self.game.num_players
        return [(seat + k) % n for k in range(1, n) if not self.eliminated[(seat + k) % n]]

    def right_neighbour(self, seat: int) -> int:
        """DMD-104 (D6): the previous non-eliminated player in turn order."""
        n = self.game.num_players
        for k in range(1, n):
            t = (seat - k) % n
            if not self.eliminated[t]:
                return t
        return seat

    # --- the driver (DMD-401, DMD-510) --------------------------------------------------------------------

    def _ask(self, phase: int, decider: int, choices: list[int]) -> int:
        self.phase = phase
        self.decider = decider
        self.choices = choices
        return ASK

    def _run(self, code: int) -> None:
        """Resolve automatically until a decision is asked or the game ends."""
        while True:
            if self.phase == GAME_OVER:
                return
            if code == ASK:
                return
            if code == END:
                self._end_turn()
                if self.phase == GAME_OVER:
                    return
                code = self._begin_turn()
                continue
            if self.tasks:  # DMD-510
                code = self._run_task()
                continue
            if not self.draw_pile:  # DMD-523: automatic stop, then the game ends
                code = self._stop()
                continue
            self._ask(DRAW_OR_STOP, self.active, [act.STOP, act.DRAW])
            return

    def _begin_turn(self) -> int:
        """DMD-401 step 1: the opening draw."""
        self._open_turn()
        return self._place(self._draw(), True)

    def _open_turn(self) -> None:
        """The active player's turn before its opening draw: an empty row, nothing pending (DMD-401)."""
        self.row = []
        self.hook_protected = []
        self.tasks = []
        self.turn_cards = []
        self.turn_busted = False
        self.phase = DRAW_OR_STOP
        self.decider = self.active

    def _record_finished_turn(self) -> None:
        """Count the active player's turn and make it the public "last turn" (DMD-1084)."""
        a = self.active
        self.turns_taken[a] += 1
        if self.turn_busted:
            self.busts[a] += 1
        self.last_turn_player = a
        self.last_turn_cards = self.turn_cards
        self.last_turn_busted = self.turn_busted
        self.turn_cards = []
        self.turn_busted = False

    def _clear_turn_state(self) -> None:
        """Empty the row and every pending effect of a turn (set-up, turn end, game end)."""
        self.row = []
        self.hook_protected = []
        self.tasks = []
        self.offer = []
        self.hook_s1 = -1
        self.plunder_target = -1
        self.plunder_remaining = 0

    def _end_turn(self) -> None:
        """DMD-401 step 4; DMD-523: an empty draw pile ends the game."""
        a = self.active
        self._record_finished_turn()
        self._clear_turn_state()
        if self.phase == GAME_OVER:
            return
        if not self.draw_pile:
            self._finish_by_score()
            return
        n = self.game.num_players
        for k in range(1, n + 1):
            t = (a + k) % n
            if not self.eliminated[t]:
                self.active = t
                return

    def _draw(self) -> int:
        card = self.draw_pile.pop()
        for seen in self.known:
            if card in seen:
                seen.remove(card)
        return card

    def _run_task(self) -> int:
        kind, arg = self.tasks.pop()
        if kind == FORCED_DRAW:  # DMD-510
            if not self.draw_pile:
                return CONT
            if arg > 1:
                self.tasks.append([FORCED_DRAW, arg - 1])
            return self._place(self._draw(), True)
        # SECOND_HOOK(s1), DMD-617
        coll = self.collections[self.active]
        suits = [act.OWN_SUIT_BASE + s for s in range(NUM_SUITS) if coll[s] and s != arg]
        if not suits:
            return CONT
        self.hook_s1 = arg
        return self._ask(HOOK_SUIT, self.active, suits)

    # --- acting -------------------------------------------------------------------------------------------

    def _apply_action(self, action: int) -> None:
        phase = self.phase
        if phase == DRAW_OR_STOP:
            code = self._place(self._draw(), True) if action == act.DRAW else self._stop()
        elif phase == ABILITY_CHOICE:
            code = self._choose_ability(action - act.ABILITY_BASE)
        elif phase == LOCKER_TARGET:
            self.locker_target = (self.decider + action - act.LOCKER_TARGET_BASE) % self.game.num_players
            code = self._begin_turn()
        elif phase == CANNON_TARGET:
            code = self._fire_cannon(*self._target(action))
        elif phase == NAVIGATOR_SELF:  # DMD-623
            stack = self.collections[self.active][action - act.OWN_SUIT_BASE]
            self.discard.append(stack.pop())
            code = CONT
        elif phase == SWORD_TARGET:  # DMD-610
            seat, suit = self._target(action)
            code = self._place(self.collections[seat][suit].pop(), False)
        elif phase == HOOK_SUIT:
            code = self._hook(action - act.OWN_SUIT_BASE)
        elif phase == MAP_PICK:  # DMD-607
            card = action - act.CARD_BASE
            self.offer.remove(card)
            self.discard.extend(self.offer)
            self.offer = []
            code = self._place(card, False)
        elif phase == MERMAID_PICK:
            code = self._mermaid_move(action - act.CARD_BASE)
        elif phase == RAKE_PICK:
            code = self._rake_pick(action - act.CARD_BASE)
        elif phase == PLUNDER_PICK:
            code = self._plunder(*self._target(action))
        else:  # LOCKER_ACCEPT, DMD-516
            code = self._locker_accept(action == act.ACCEPT)
        self._run(code)

    def _target(self, action: int) -> tuple[int, int]:
        k, suit = divmod(action - self.game.target_base, NUM_SUITS)
        return (self.decider + k + 1) % self.game.num_players, suit

    def _choose_ability(self, ability: int) -> int:
        """DMD-304, DMD-305: keep one dealt ability; reveal after the last choice; the Locker designates."""
        seat = self.decider
        self.kept[seat] = ability
        n = self.game.num_players
        if seat + 1 < n:
            return self._ask(ABILITY_CHOICE, seat + 1, [act.ABILITY_BASE + a for a in self.dealt[seat + 1]])
        self.revealed = True
        for s, a in enumerate(self.kept):
            self.holder[a] = s
        locker = self.holder[LOCKER]
        if locker >= 0:
            return self._ask(LOCKER_TARGET, locker, [act.LOCKER_TARGET_BASE + k for k in range(1, n)])
        return self._begin_turn()

    # --- DMD-505: placing a card ------------------------------------------------------------------------

    def _place(self, card: int, from_draw: bool) -> int:
        a = self.active
        suit = CARD_SUIT[card]
        holder = self.holder
        if suit == KRAKEN and holder[FISHERMAN] == a:  # (a)
            return END if self._gain(a, [card]) else CONT
        if suit == MERMAID and from_draw and holder[RAKE] == a and not self.game.mermaid_variant:  # (b)
            return END if self._gain(a, [card]) else CONT
        row = self.row
        if self.variant == UNCHARTED_WATERS:  # (c), DMD-808
            value = CARD_VALUE[card]
            busts = any(e != MARKER and CARD_VALUE[e] == value for e in row)
        else:
            busts = any(e != MARKER and CARD_SUIT[e] == suit for e in row)
        row.append(card)  # (d)
        self.turn_cards.append(card)
        if busts:
            return self._bust()  # (e)
        if suit == MERMAID and from_draw and holder[RAKE] == a and self.game.mermaid_variant:  # DMD-811
            return self._ask(RAKE_PICK, a, sorted(act.CARD_BASE + e for e in row if e != MARKER))
        return self._resolve(card)  # (f)

    # --- 6.1: suit abilities ----------------------------------------------------------------------------

    def _resolve(self, card: int) -> int:
        suit = CARD_SUIT[card]
        a = self.active
        if suit == CANNON:
            targets = self._cannon_targets()
            if targets:
                return self._ask(CANNON_TARGET, a, targets)
            return self._navigator()
        if suit == SWORD:
            targets = self._sword_targets()
            return self._ask(SWORD_TARGET, a, targets) if targets else CONT
        if suit == HOOK:  # DMD-605
            if self.holder[CAPTAIN_HOOK] == a and card not in self.hook_protected:
                self.hook_protected.append(card)
            coll = self.collections[a]
            suits = [act.OWN_SUIT_BASE + s for s in range(NUM_SUITS) if coll[s]]
            if not suits:
                return CONT
            self.hook_s1 = -1
            return self._ask(HOOK_SUIT, a, suits)
        if suit == KRAKEN:  # DMD-606, DMD-614
            king = self.holder[KRAKEN_KING]
            self.tasks.append([FORCED_DRAW, 4 if king >= 0 and king != a else 2])
            return CONT
        if suit == MAP:  # DMD-607, DMD-622
            discard = self.discard
            if not discard:
                return CONT
            if self.holder[MISFIRE] == a:
                self.offer = discard[:]
                discard.clear()
            else:
                offer = []
                for _ in range(min(3, len(discard))):
                    offer.append(discard.pop(self.rng.randrange(len(discard))))
                self.offer = offer
            return self._ask(MAP_PICK, a, sorted(act.CARD_BASE + c for c in self.offer))
        if suit == ORACLE:  # DMD-609, DMD-626
            depth = 3 if self.holder[MYSTIC] == a else 1
            seen = self.known[a]
            for c in self.draw_pile[-depth:]:
                if c not in seen:
                    seen.append(c)
            return CONT
        if suit == MERMAID and self.game.mermaid_variant:  # DMD-810
            eligible = [act.CARD_BASE + e for e in self.row if e != MARKER and CARD_SUIT[e] != MERMAID]
            return self._ask(MERMAID_PICK, a, sorted(eligible)) if eligible else CONT
        return CONT  # Anchor, Chest, Key, base Mermaid

    def _cannon_targets(self) -> list[int]:
        """DMD-602 (D22): an opponent's suit they hold."""
        a = self.active
        base = self.game.target_base
        n = self.game.num_players
        out = []
        for seat in self.others(a):
            coll = self.collections[seat]
            off = base + NUM_SUITS * ((seat - a) % n - 1)
            out += [off + s for s in range(NUM_SUITS) if coll[s]]
        return out

    def _sword_targets(self) -> list[int]:
        """DMD-610, DMD-624, DMD-625."""
        a = self.active
        base = self.game.target_base
        n = self.game.num_players
        own = self.collections[a]
        free = self.holder[SWORDSMAN] == a
        parry = self.holder[PARRY]
        out = []
        for seat in self.others(a):
            coll = self.collections[seat]
            off = base + NUM_SUITS * ((seat - a) % n - 1)
            for s in range(NUM_SUITS):
                if coll[s] and (free or not own[s]) and (seat != parry or s == KRAKEN):
                    out.append(off + s)
        return out

    def _fire_cannon(self, seat: int, suit: int) -> int:
        """DMD-602, DMD-611, DMD-612."""
        a = self.active
        stack = self.collections[seat][suit]
        if self.holder[MASTER_GUNNER] == a:
            self.discard.extend(stack)
            stack.clear()
        elif self.holder[SCAVENGER] == a:
            if self._gain(a, [stack.pop()]):
                return END
        else:
            self.discard.append(stack.pop())
        return self._navigator()

    def _navigator(self) -> int:
        """DMD-623 (D23): after another player's Cannon, discard one of your own top cards."""
        a = self.active
        nav = self.holder[NAVIGATOR]
        if nav < 0 or nav == a:
            return CONT
        coll = self.collections[a]
        suits = [act.OWN_SUIT_BASE + s for s in range(NUM_SUITS) if coll[s]]
        return self._ask(NAVIGATOR_SELF, a, suits) if suits else CONT

    def _hook(self, suit: int) -> int:
        """DMD-605, DMD-617, DMD-619: the top card of ``suit`` leaves the collection and is placed."""
        a = self.active
        card = self.collections[a][suit].pop()
        if self.hook_s1 < 0 and self.holder[MISER] == a:
            self.tasks.append([SECOND_HOOK, suit])
        self.hook_s1 = -1
        if self.holder[CAPTAIN_HOOK] == a and card not in self.hook_protected:
            self.hook_protected.append(card)
        return self._place(card, False)

    def _mermaid_move(self, card: int) -> int:
        """DMD-810, DMD-629: the picked card moves to the right end and resolves again, or Siren takes it."""
        self.row.remove(card)
        siren = self.holder[SIREN]
        if siren >= 0 and siren != self.active:
            return END if self._gain(siren, [card]) else CONT
        self.row.append(card)
        return self._resolve(card)

    def _rake_pick(self, card: int) -> int:
        """DMD-811: a row card to the collection; an Anchor leaves the anchor marker at the right end."""
        row = self.row
        row.remove(card)
        if CARD_SUIT[card] == ANCHOR:
            if MARKER in row:
                row.remove(MARKER)
            row.append(MARKER)
        return END if self._gain(self.active, [card]) else CONT

    # --- 5.4: bust ----------------------------------------------------------------------------------------

    def _bust(self) -> int:
        a = self.active
        row = self.row
        last = len(row) - 1
        self.turn_busted = True
        self.tasks = []  # DMD-511
        p = -1
        for i in range(last - 1, -1, -1):  # DMD-514a (D36): the rightmost resolved Anchor or the marker
            e = row[i]
            if e == MARKER or CARD_SUIT[e] == ANCHOR:
                p = i
                break
        safe = set(range(p)) if p > 0 else set()
        if p >= 0 and self.holder[SAFE_HARBOR] == a:  # DMD-514b (D16)
            if row[p] != MARKER:
                safe.add(p)
            safe.update(i for i in (p + 1, p + 2) if i <= last)
        hooked = self.hook_protected if self.holder[CAPTAIN_HOOK] == a else ()  # DMD-514c
        protected = [e for i, e in enumerate(row) if e != MARKER and (i in safe or e in hooked)]
        lost = [e for e in row if e != MARKER and e not in protected]
        if protected:  # DMD-515, DMD-618
            if self.holder[LOCKER] == a:
                self.discard.extend(protected)
            elif self._gain(a, protected):
                return END
        if not lost:
            return END
        locker = self.holder[LOCKER]
        if locker >= 0 and self.locker_target == a:  # DMD-516.1
            self.offer = lost
            return self._ask(LOCKER_ACCEPT, locker, [act.ACCEPT, act.DECLINE])
        return self._lose(lost)

    def _lose(self, cards: list[int]) -> int:
        """DMD-516.2-3: Thieves' Island neighbour (not the Locker holder), else the discard pile."""
        if self.variant == THIEVES_ISLAND:
            neighbour = self.right_neighbour(self.active)
            if neighbour != self.holder[LOCKER]:
                self._gain(neighbour, cards)
                return END
        self.discard.extend(cards)
        return END

    def _locker_accept(self, accept: bool) -> int:
        cards = self.offer
        self.offer = []
        if accept:
            self._gain(self.decider, cards)
            return END
        return self._lose(cards)

    # --- 5.5: stop ----------------------------------------------------------------------------------------

    def _stop(self) -> int:
        a = self.active
        cards = [e for e in self.row if e != MARKER]
        due = any(CARD_SUIT[c] == KEY for c in cards) and any(CARD_SUIT[c] == CHEST for c in cards)  # DMD-518
        self.row = []
        if self.holder[LOCKER] == a:  # DMD-519, DMD-618
            self.discard.extend(cards)
            return END
        if cards and self._gain(a, cards):
            return END
        if not due:
            return END
        count = len(cards)
        if self.holder[PLUNDERER] == a:  # DMD-520 (D19)
            self.plunder_target = -1
            self.plunder_remaining = count
            return self._plunder_next()
        return self._bonus(2 * count if self.holder[BOUNTY_HUNTER] == a else count)

    def _bonus(self, count: int) -> int:
        """DMD-520 (D18): random discard cards, as many as the pile has; one gain event."""
        discard = self.discard
        cards = [discard.pop(self.rng.randrange(len(discard))) for _ in range(min(count, len(discard)))]
        self._gain(self.active, cards)
        return END

    def _plunder_next(self) -> int:
        if self.plunder_remaining <= 0:
            return END
        a = self.active
        if self.plunder_target < 0:
            seats = [t for t in self.others(a) if any(self.collections[t])]
        else:
            t = self.plunder_target
            seats = [t] if not self.eliminated[t] and any(self.collections[t]) else []
        if not seats:
            remaining = self.plunder_remaining
            self.plunder_remaining = 0
            return self._bonus(remaining)
        base = self.game.target_base
        n = self.game.num_players
        choices = []
        for seat in seats:
            off = base + NUM_SUITS * ((seat - a) % n - 1)
            choices += [off + s for s, stack in enumerate(self.collections[seat]) if stack]
        return self._ask(PLUNDER_PICK, a, choices)

    def _plunder(self, seat: int, suit: int) -> int:
        self.plunder_target = seat
        self.plunder_remaining -= 1
        if self._gain(self.active, [self.collections[seat][suit].pop()]):
            return END
        return self._plunder_next()

    # --- gain events, Sudden Death, Undertow (DMD-704, DMD-805, DMD-809) ----------------------------------

    def _gain(self, seat: int, cards: list[int]) -> bool:
        """Cards join ``seat``'s collection (one gain event). True if the procedure must stop:
        the game ended, or the active player was eliminated (its turn ends)."""
        if not cards:
            return False
        coll = self.collections[seat]
        for c in cards:
            insort(coll[CARD_SUIT[c]], c)
        if self.variant == SUDDEN_DEATH:
            if self.live_score(seat) >= SUDDEN_DEATH_TARGET:
                self._finish([seat])
                return True
        elif self.variant == UNDERTOW and self.live_score(seat) > UNDERTOW_LIMIT:
            self._eliminate(seat)
            return self.phase == GAME_OVER or seat == self.active
        return False

    def _eliminate(self, seat: int) -> None:
        """DMD-809 (D28, D38): the collection leaves the game, the ability stops working."""
        self.eliminated[seat] = True
        for stack in self.collections[seat]:
            self.removed.extend(stack)
            stack.clear()
        for a, h in enumerate(self.holder):
            if h == seat:
                self.holder[a] = -1
        if seat == self.active:  # DMD-1013: the rest of the row goes to the discard pile
            gone = set(self.removed)  # a bust's protected cards are still shown in the row (DMD-1012 d)
            self.discard.extend(e for e in self.row if e != MARKER and e not in gone)
            self.row = []
            self.tasks = []
        alive = [t for t in range(self.game.num_players) if not self.eliminated[t]]
        if len(alive) == 1:
            self._finish(alive)

    def _finish(self, winners: list[int], mid_turn: bool = True) -> None:
        if mid_turn:
            # The game ended inside a turn (DMD-805, DMD-809): the turn counts as finished; the unbanked
            # row and any offer go to the discard pile (out of play either way).
            held = {c for coll in self.collections for stack in coll for c in stack}
            held.update(self.removed)
            self.discard.extend(e for e in self.row + self.offer if e != MARKER and e not in held)
            self._record_finished_turn()
        self._clear_turn_state()
        self.winner_seats = winners
        self.phase = GAME_OVER
        self.decider = -1
        self.choices = []

    def _finish_by_score(self) -> None:
        """DMD-702 (D25): the highest S among non-eliminated players; ties share the win."""
        alive = [t for t in range(self.game.num_players) if not self.eliminated[t]]
        scores = {t: self.final_score(t) for t in alive}
        best = max(scores.values())
        self._finish([t for t in alive if scores[t] == best], mid_turn=False)

    # --- Section 7 / DMD-1020: scores and rewards --------------------------------------------------------

    def _scores(self) -> list[float]:
        if self.phase == GAME_OVER:
            return [float(self.final_score(t)) for t in range(self.game.num_players)]
        return [float(self.live_score(t)) for t in range(self.game.num_players)]

    def _winners(self) -> list[int]:
        return list(self.winner_seats)

    def _returns(self) -> list[float]:
        n = self.game.num_players
        if self.game.reward_mode == "win":
            return team_win_loss_returns(self.winner_seats, n)
        scale = self.game.score_scale
        # DMD-1141 (D41): after a Sudden Death win the margins are of the live scores the win was decided on
        sudden_death_win = self.variant == SUDDEN_DEATH and any(
            self.live_score(t) >= SUDDEN_DEATH_TARGET for t in self.winner_seats
        )
        score = self.live_score if sudden_death_win else self.final_score
        out = []
        for t in range(n):
            if self.eliminated[t]:
                out.append(-1.0)
                continue
            rivals = [score(u) for u in range(n) if u != t and not self.eliminated[u]]
            if not rivals:
                out.append(1.0)
                continue
            out.append(clipped_margin(score(t), max(rivals), scale))
        return out

    # --- observation, rendering ---------------------------------------------------------------------------

    def render(self, viewer: int | None = None) -> str:
        from pirate_envs.games.dead_mans_draw.render import render

        return render(self, self.check_viewer(viewer))

    # --- Section 9: determinisation -----------------------------------------------------------------------

    def _resample_hidden(self, seat: int, rng: Rng) -> None:
        """Redraw the draw pile order (keeping ``seat``'s peeks), the discard order and the ability cards
        ``seat`` has not seen (DMD-901..912)."""
        pile = self.draw_pile
        size = len(pile)
        mine = set(self.known[seat])
        fixed = {i for i, c in enumerate(pile) if c in mine}
        other_positions = [[pile.index(c) for c in self.known[t]] for t in range(self.game.num_players)]
        loose = sorted(c for i, c in enumerate(pile) if i not in fixed)  # canonical: a function of what seat saw
        rng.shuffle(loose)
        new_pile = []
        it = iter(loose)
        for i in range(size):
            new_pile.append(pile[i] if i in fixed else next(it))
        self.draw_pile = new_pile
        for t in range(self.game.num_players):
            if t != seat:
                self.known[t] = [new_pile[i] for i in other_positions[t]]
        self.discard.sort()
        rng.shuffle(self.discard)
        if not self.game.characters:
            return
        n = self.game.num_players
        seen = set(self.dealt[seat])
        if self.revealed:
            seen.update(self.kept)
        unseen = [a for a in ability_pool(self.game.mermaid_variant) if a not in seen]
        rng.shuffle(unseen)
        for t in range(n):
            if t == seat:
                continue
            if self.revealed:
                self.dealt[t] = sorted([self.kept[t], unseen.pop()])
            else:
                pair = sorted([unseen.pop(), unseen.pop()])
                self.dealt[t] = pair
                if self.kept[t] >= 0:
                    self.kept[t] = pair[rng.randrange(2)]
        if self.phase == ABILITY_CHOICE and self.decider != seat:
            # the decider picks from its redrawn pair, not from its real one (DMD-910: hidden from seat)
            self.choices = [act.ABILITY_BASE + a for a in self.dealt[self.decider]]

    # --- invariants ---------------------------------------------------------------------------------------

    def check_invariants(self) -> None:
        game: DmdGame = self.game  # type: ignore[assignment]
        self._check_ranges()
        cards = list(self.draw_pile) + list(self.discard) + list(self.removed)
        for coll in self.collections:
            assert len(coll) == NUM_SUITS, "collections: one stack per suit"
            for s, stack in enumerate(coll):
                assert stack == sorted(stack), "stacks are kept sorted"
                assert all(CARD_SUIT[c] == s for c in stack), "a card in the wrong stack"
                cards += stack
        if self.phase in (MAP_PICK, LOCKER_ACCEPT):
            cards += self.offer
        else:
            assert not self.offer or self.phase == GAME_OVER
        if self.phase != LOCKER_ACCEPT:
            cards += [e for e in self.row if e != MARKER]
        assert sorted(cards) == sorted(game.deck), "card conservation (DMD-301)"
        assert self.row.count(MARKER) <= 1
        for t, seen in enumerate(self.known):
            assert all(c in self.draw_pile for c in seen), f"seat {t} knows a card that left the draw pile"
        if self.phase != GAME_OVER:
            assert self.choices and self.choices == sorted(set(self.choices))
            assert 0 <= self.decider < game.num_players and not self.eliminated[self.decider]
            assert not self.eliminated[self.active]
            row_cards = [e for e in self.row if e != MARKER]
            if self.phase not in (LOCKER_ACCEPT,):
                keys = (
                    [CARD_VALUE[c] for c in row_cards]
                    if self.variant == UNCHARTED_WATERS
                    else [CARD_SUIT[c] for c in row_cards]
                )
                assert len(keys) == len(set(keys)), "an unbusted row repeats a suit (value)"
        if self.revealed and game.characters:
            for t, a in enumerate(self.kept):
                assert a < 0 or a in self.dealt[t]  # (-1 only in hand-built scenarios)

    def _check_ranges(self) -> None:
        """Every index and count in its range (what ``state_from_dict`` relies on before the rules run)."""
        game: DmdGame = self.game  # type: ignore[assignment]
        n = game.num_players
        last_card, last_seat = NUM_CARDS - 1, n - 1
        if game.variant_option == "random":
            assert self.variant in VARIANT_CARDS, f"variant {self.variant!r} is not a variant card (DMD-303)"
        else:
            assert self.variant == VARIANTS.index(game.variant_option), "variant differs from the variant option"
        assert_in_range("phase", self.phase, 0, GAME_OVER)
        assert_in_range("decider", self.decider, -1 if self.phase == GAME_OVER else 0, last_seat)
        assert_in_range("active", self.active, 0, last_seat)
        assert_in_range("first_player", self.first_player, 0, last_seat)
        assert_in_range("choices", self.choices, 0, game.num_actions - 1)
        for name in ("draw_pile", "discard", "removed", "offer", "hook_protected", "turn_cards", "last_turn_cards"):
            assert_in_range(name, getattr(self, name), 0, last_card)
        assert_in_range("row", self.row, MARKER, last_card)
        for kind, arg in self.tasks:
            assert kind in (FORCED_DRAW, SECOND_HOOK), f"tasks holds an unknown task kind {kind!r}"
            low, high = (1, NUM_CARDS) if kind == FORCED_DRAW else (0, NUM_SUITS - 1)
            assert_in_range("tasks", arg, low, high)
        assert_in_range("hook_s1", self.hook_s1, -1, NUM_SUITS - 1)
        assert_in_range("plunder_target", self.plunder_target, -1, last_seat)
        assert_in_range("plunder_remaining", self.plunder_remaining, 0, NUM_CARDS)
        for dealt in self.dealt:  # two cards (DMD-304); scenarios without characters may give one
            assert_in_range("dealt", dealt, 0, NUM_ABILITIES - 1)
            assert len(dealt) <= 2, f"dealt holds {dealt}: more than two ability cards"
        assert_in_range("kept", self.kept, -1, NUM_ABILITIES - 1)
        assert_in_range("holder", self.holder, -1, last_seat, length=NUM_ABILITIES)
        assert_in_range("locker_target", self.locker_target, -1, last_seat)
        for seen in self.known:
            assert_in_range("known", seen, 0, last_card)
            assert len(set(seen)) == len(seen), "known repeats a card"
        assert_in_range("turns_taken", self.turns_taken, 0, game.max_decisions)
        assert_in_range("busts", self.busts, 0, game.max_decisions)
        assert all(b <= t for b, t in zip(self.busts, self.turns_taken, strict=True)), "busts exceed turns_taken"
        assert_in_range("last_turn_player", self.last_turn_player, -1, last_seat)
        assert_in_range("winner_seats", self.winner_seats, 0, last_seat)
        dealt = [a for pair in self.dealt for a in pair]
        assert len(dealt) == len(set(dealt)), "dealt: an ability card dealt twice"
        for t, a in enumerate(self.kept):
            assert a < 0 or a in self.dealt[t] or not game.characters, f"kept: seat {t} keeps {a}, not dealt to it"
        if self.phase != GAME_OVER:
            self._check_decision()

    def _check_decision(self) -> None:
        """``choices`` are the decision ``phase`` asks of ``decider`` (the ``_ask`` calls above)."""
        game: DmdGame = self.game  # type: ignore[assignment]
        n, phase, choices, decider = game.num_players, self.phase, self.choices, self.decider
        cards = {act.CARD_BASE + e for e in self.row if e != MARKER}
        if phase == ABILITY_CHOICE:
            abilities = [c - act.ABILITY_BASE for c in choices]
            assert abilities == sorted(self.dealt[decider]), "choices: not the decider's dealt abilities"
            return
        if phase == LOCKER_TARGET:
            assert choices == [act.LOCKER_TARGET_BASE + k for k in range(1, n)], "choices: not the Locker targets"
            return
        if phase == LOCKER_ACCEPT:
            assert choices == [act.ACCEPT, act.DECLINE], "choices: not ACCEPT / DECLINE"
            return
        assert decider == self.active, f"decider {decider} is not the active player in {PHASE_NAMES[phase]}"
        if phase == DRAW_OR_STOP:
            assert choices == [act.STOP, act.DRAW], "choices: not STOP / DRAW"
        elif phase in (HOOK_SUIT, NAVIGATOR_SELF):
            own = self.collections[decider]
            suits = [c - act.OWN_SUIT_BASE for c in choices]
            assert all(0 <= s < NUM_SUITS and own[s] for s in suits), "choices: not suits of the active player"
        elif phase == MAP_PICK:
            assert choices == sorted(act.CARD_BASE + c for c in self.offer), "choices: not the Map's offer"
        elif phase in (MERMAID_PICK, RAKE_PICK):
            assert set(choices) <= cards, "choices: cards that are not in the row"
        else:  # CANNON_TARGET, SWORD_TARGET, PLUNDER_PICK: (offset from the decider, suit) of a non-empty stack
            for choice in choices:
                k, suit = divmod(choice - game.target_base, NUM_SUITS)
                assert 0 <= k < n - 1, f"choices: {choice} is not a target"
                assert self.collections[(decider + k + 1) % n][suit], f"choices: {choice} targets an empty stack"


DmdGame.state_class = DmdState
