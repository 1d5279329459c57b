"""The heuristic bot of ``dead_mans_draw_v0``: push-your-luck by expected value, from the observation alone.

The bot reads only its own observation vector (DMD-1010) and action mask, never the state.

* **Draw or stop.** The bust probability comes from public counting: the draw pile's composition
  (DMD-1069) minus the cards the bot has peeked deeper in the pile; a peeked top card (DMD-1071)
  makes the decision certain. Drawing is worth ``P(safe) * E[gain of a safe card] - P(bust) * (what the
  bust would cost)``, where the cost is the score the unprotected row cards (left of the rightmost
  Anchor are safe, DMD-514a) and a due Key+Chest bonus would have added. It draws while that is
  positive (and always with an empty row when nothing can bust). Sudden Death and Undertow bend the
  score scale (reaching 50 wins; passing 60 eliminates).
* **Targets.** Cannon hits the stack whose loss costs an opponent most (the leader counts double);
  Sword, Plunderer and Rake take the card worth most to the bot (plus the opponent's loss), avoiding a
  card that busts the row; Hook and Map bring in a card that does not bust, preferring useful abilities;
  a Mermaid moves an Anchor to the end (protecting the whole row) or replays a Sword/Cannon/Map;
  Navigator discards the cheapest own card; the Locker always accepts.
* **Abilities.** A fixed ranking of the 18 ability cards.

The bot has a compiled twin (``dmd_act`` in this game's ``native/bot.c``), which :meth:`HeuristicPolicy.act`
calls first; the Python methods below stay the reference (the twin tests compare the two) and the fallback.
"""

from __future__ import annotations

import math
from itertools import compress

import numpy as np

from pirate_envs.core.native import twin_decides
from pirate_envs.games.dead_mans_draw import actions as act
from pirate_envs.games.dead_mans_draw.actions import NUM_PHASES
from pirate_envs.games.dead_mans_draw.cards import (
    ANCHOR,
    CANNON,
    CARD_SUIT,
    CARD_VALUE,
    CHEST,
    GRAND_SLAM,
    HOOK,
    KEY,
    KRAKEN,
    MAP,
    MERMAID,
    NUM_ABILITIES,
    NUM_CARDS,
    NUM_SUITS,
    ORACLE,
    PIRI_REIS,
    SUDDEN_DEATH,
    SWORD,
    UNCHARTED_WATERS,
    UNDERTOW,
    VARIANTS,
)
from pirate_envs.games.dead_mans_draw.observation import field_slices

# Higher is better (DMD-214..231).
ABILITY_RANK = (
    6,  # master_gunner
    7,  # scavenger
    4,  # fisherman
    5,  # kraken_king
    2,  # davy_jones_locker
    9,  # safe_harbor
    6,  # miser
    7,  # captain_hook
    8,  # plunderer
    10,  # bounty_hunter
    6,  # misfire
    5,  # navigator
    5,  # parry
    6,  # swordsman
    8,  # mystic
    5,  # rake
    7,  # golden_mermaid
    6,  # siren
)
ABILITY_BONUS = {SWORD: 2.5, CANNON: 1.5, MAP: 1.5, ORACLE: 0.5, HOOK: 0.5, KRAKEN: -2.5}
_HALF_BONUS = tuple(ABILITY_BONUS.get(suit, 0.0) * 0.5 for suit in range(NUM_SUITS))  # a drawn card's pull
_NO_PULL = (0.0,) * NUM_SUITS


def _ids(on: bytes, start: int, size: int) -> list[int]:
    """The offsets of the nonzero entries of the field ``[start, start + size)``; ``on`` holds one 0/1 byte
    per observation entry. Found one by one (fast for the few cards of a row or a collection)."""
    stop = start + size
    found = []
    i = on.find(1, start, stop)
    while i >= 0:
        found.append(i - start)
        i = on.find(1, i + 1, stop)
    return found


def legal_actions(action_mask: np.ndarray) -> list[int]:
    """The indices of the nonzero entries of ``action_mask`` (``np.flatnonzero(action_mask).tolist()``)."""
    mask = np.asarray(action_mask)
    return _ids(mask.astype(np.bool_).tobytes(), 0, mask.size)


_OFFSETS = range(NUM_CARDS)


def _dense_ids(on: bytes, start: int, size: int) -> list[int]:
    """:func:`_ids` in one pass over the field (fast for fields that are often half full: the draw pile)."""
    return list(compress(_OFFSETS[:size], on[start : start + size]))


def _first(on: bytes, start: int, size: int, default: int) -> int:
    """The first offset of :func:`_ids` (the argmax of a one-hot field), else ``default``."""
    i = on.find(1, start, start + size)
    return i - start if i >= 0 else default


class HeuristicPolicy:
    """Expected-value push-your-luck bot (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game, margin: float = 0.0) -> None:
        self.game = game
        self.n = game.num_players
        self.sl = field_slices(self.n)
        self.margin = margin
        at = {name: sl.start for name, sl in self.sl.items()}
        self._at = at
        # opp_collections follows my_collection: seat offset k's collection starts NUM_CARDS * k further
        self._collection_at = [at["my_collection"] + NUM_CARDS * k for k in range(self.n)]
        self.native_spec = self._native_spec(game)

    def _native_spec(self, game) -> tuple:
        """The offsets, constants and tables of the compiled bot (the order of ``B_*`` in native/dmd.h)."""
        at = self._at
        return (
            game.observation_size,
            self.n,
            at["phase"],
            NUM_PHASES,
            at["config"],
            len(VARIANTS),
            at["my_collection"],
            at["row_cards"],
            at["row_position"],
            at["marker_position"],
            at["draw_pile_cards"],
            at["known_top"],
            at["scores"],
            at["eliminated"],
            NUM_CARDS,
            NUM_SUITS,
            *(ANCHOR, CHEST, KEY, MERMAID),
            *(GRAND_SLAM, SUDDEN_DEATH, UNCHARTED_WATERS, PIRI_REIS, UNDERTOW),
            *(act.ABILITY_CHOICE, act.LOCKER_TARGET, act.DRAW_OR_STOP, act.CANNON_TARGET, act.NAVIGATOR_SELF),
            *(act.SWORD_TARGET, act.HOOK_SUIT, act.MAP_PICK, act.MERMAID_PICK, act.RAKE_PICK, act.PLUNDER_PICK),
            act.LOCKER_ACCEPT,
            game.num_actions,
            act.STOP,
            act.DRAW,
            act.OWN_SUIT_BASE,
            act.CARD_BASE,
            act.ABILITY_BASE,
            NUM_ABILITIES,
            act.ACCEPT,
            act.LOCKER_TARGET_BASE,
            game.target_base,
            bytes(CARD_SUIT),
            bytes(CARD_VALUE),
            bytes(ABILITY_RANK),
            tuple(ABILITY_BONUS.get(suit, 0.0) for suit in range(NUM_SUITS)),
            _HALF_BONUS,
        )

    # --- reading the observation ------------------------------------------------------------------------

    def _read(self, obs: np.ndarray) -> None:
        """Decode the observation into card lists. Every field read here is 0/1 except the row positions,
        so the fields are cut from one byte string of the vector's nonzero flags; the fields that not every
        decision reads (the draw pile and the peeks, the opponents' collections, the scores, ...) are
        decoded on first use."""
        at = self._at
        on = obs.astype(np.bool_).tobytes()
        self._obs = obs
        self._on = on
        self._colls = self._pile = self._known = self._scores = self._eliminated = None
        self._mine = self._own_bent = self._row_table = None
        self._summaries = {}
        self._best_other = None
        self.phase = _first(on, at["phase"], NUM_PHASES, 0)
        self.variant = _first(on, at["config"], len(VARIANTS), 0)
        self._own = _ids(on, at["my_collection"], NUM_CARDS)
        position = at["row_position"]
        entries = [(obs.item(position + c), c) for c in _ids(on, at["row_cards"], NUM_CARDS)]
        marker = obs.item(at["marker_position"])
        if marker > 0:
            entries.append((marker, -1))
        entries.sort()
        self.row_entries = [c for _, c in entries]
        self.row = [c for c in self.row_entries if c >= 0]
        key_of = CARD_VALUE if self.variant == UNCHARTED_WATERS else CARD_SUIT
        self._key_of = key_of
        self._row_keys = {key_of[c] for c in self.row}  # what a card joining the row busts on (DMD-505c)

    @property
    def pile(self) -> list[int]:
        """The draw pile's cards, in card order (DMD-1069)."""
        if self._pile is None:
            self._pile = _dense_ids(self._on, self._at["draw_pile_cards"], NUM_CARDS)
        return self._pile

    @property
    def known(self) -> list[int]:
        """The peeked cards at depths 0..2 of the draw pile, -1 where not peeked (DMD-1071)."""
        if self._known is None:
            on, start = self._on, self._at["known_top"]
            if on.find(1, start, start + 3 * NUM_CARDS) < 0:  # no peeks: the usual case
                self._known = [-1, -1, -1]
            else:
                self._known = [_first(on, start + NUM_CARDS * depth, NUM_CARDS, -1) for depth in range(3)]
        return self._known

    @property
    def colls(self) -> list[list[int]]:
        """The collections' cards by seat offset (DMD-1062, DMD-1063)."""
        if self._colls is None:
            self._colls = [self._own] + [_ids(self._on, start, NUM_CARDS) for start in self._collection_at[1:]]
        return self._colls

    @property
    def scores(self) -> list[float]:
        """The seats' live scores in points, by offset (DMD-1075)."""
        if self._scores is None:
            self._scores = (self._obs[self.sl["scores"]] * 100).round().tolist()
        return self._scores

    @property
    def eliminated(self) -> list[float]:
        """1.0 for an eliminated seat, by offset (DMD-1076)."""
        if self._eliminated is None:
            self._eliminated = self._obs[self.sl["eliminated"]].tolist()
        return self._eliminated

    @property
    def discard(self) -> list[int]:
        """The discard pile's cards (DMD-1068)."""
        return _ids(self._on, self._at["discard_pile"], NUM_CARDS)

    @property
    def offer(self) -> list[int]:
        """The cards on offer (DMD-1079)."""
        return _ids(self._on, self._at["offer_cards"], NUM_CARDS)

    @property
    def my_ability(self) -> int:
        """The kept ability, else -1 (DMD-1073)."""
        return _first(self._on, self._at["abilities"], NUM_ABILITIES, -1)

    # --- scoring --------------------------------------------------------------------------------------

    def score(self, cards) -> float:
        """DMD-701 S of a card set, bent by Sudden Death / Undertow (values to the bot)."""
        if self.variant == PIRI_REIS:
            return self._bend(sum([CARD_VALUE[c] for c in cards]))
        top = [0] * NUM_SUITS
        for c in cards:
            v = CARD_VALUE[c]
            if v > top[CARD_SUIT[c]]:
                top[CARD_SUIT[c]] = v
        return self._bend_tops(top)

    def _bend_tops(self, top: list[int]) -> float:
        """:meth:`score` of a set whose top value per suit is ``top`` (0: no card of the suit)."""
        s = sum(top)
        if self.variant == GRAND_SLAM:
            s -= 5 * top.count(0)
        return self._bend(s)

    def _bend(self, s: int) -> float:
        if self.variant == SUDDEN_DEATH and s >= 50:
            s += 100
        elif self.variant == UNDERTOW and s > 60:
            s -= 100
        return float(s)

    def _my_base(self) -> int | list[int]:
        """The bot's collection, summarised once per observation: its total value (Piri Reis) or its top
        value per suit, the part of every :meth:`gain` that does not change."""
        mine = self._mine
        if mine is None:
            if self.variant == PIRI_REIS:
                mine = sum([CARD_VALUE[c] for c in self._own])
            else:
                mine = [0] * NUM_SUITS
                for c in self._own:
                    v = CARD_VALUE[c]
                    if v > mine[CARD_SUIT[c]]:
                        mine[CARD_SUIT[c]] = v
            self._mine = mine
        return mine

    def _score_mine(self, cards) -> float:
        """``score([*own collection, *cards])``."""
        mine = self._my_base()
        if self.variant == PIRI_REIS:
            return self._bend(mine + sum([CARD_VALUE[c] for c in cards]))
        top = mine.copy()
        for c in cards:
            v = CARD_VALUE[c]
            if v > top[CARD_SUIT[c]]:
                top[CARD_SUIT[c]] = v
        return self._bend_tops(top)

    def gain(self, cards, extra) -> float:
        if not extra:
            return self._score_mine(cards) - self._own_score()
        return self._score_mine([*extra, *cards]) - self._score_mine(extra)

    def row_gain(self, card: int) -> float:
        """``gain([card], self.row)``: what ``card`` adds to the bot's collection plus the row."""
        raw, top, fill, _, _ = self._row_summary()
        if top is None:  # Piri Reis: every card counts
            s = raw + CARD_VALUE[card]
        else:
            held, v = top[CARD_SUIT[card]], CARD_VALUE[card]
            s = raw + v - held + fill[CARD_SUIT[card]] if v > held else raw
        return self._bend(s) - self._bend(raw)

    def _own_score(self) -> float:
        """``score(own collection)``, once per observation."""
        own = self._own_bent
        if own is None:
            own = self._own_bent = self._score_mine(())
        return own

    def busts(self, card: int, row=None) -> bool:
        if row is None:
            return self._key_of[card] in self._row_keys
        if self.variant == UNCHARTED_WATERS:
            return any(CARD_VALUE[e] == CARD_VALUE[card] for e in row)
        return any(CARD_SUIT[e] == CARD_SUIT[card] for e in row)

    def leader_weight(self, k: int) -> float:
        best = self._best_other
        if best is None:
            others = [self.scores[j] for j in range(1, self.n) if not self.eliminated[j]]
            best = self._best_other = max(others) if others else math.inf  # no opponent left: nobody leads
        return 2.0 if self.scores[k] >= best else 1.0

    # --- decisions ----------------------------------------------------------------------------------------

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        action = twin_decides("dmd_act", observation, action_mask, self.native_spec, self.margin)
        return self.act_python(observation, action_mask, rng) if action is None else action

    def act_python(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        """:meth:`act` in Python alone: the reference of the compiled twin (and its random pick)."""
        legal = legal_actions(action_mask)
        if len(legal) == 1:
            return legal[0]
        self._read(observation)
        phase = self.phase
        if phase == act.DRAW_OR_STOP:
            return act.DRAW if self.should_draw() else act.STOP
        if phase == act.ABILITY_CHOICE:
            return max(legal, key=lambda a: ABILITY_RANK[a - act.ABILITY_BASE])
        if phase == act.LOCKER_TARGET:
            return max(legal, key=lambda a: self.scores[a - act.LOCKER_TARGET_BASE])
        if phase == act.LOCKER_ACCEPT:
            return act.ACCEPT
        if phase in (act.CANNON_TARGET, act.SWORD_TARGET, act.PLUNDER_PICK):
            return max(legal, key=lambda a: self.target_value(a, phase))
        if phase in (act.HOOK_SUIT, act.NAVIGATOR_SELF):
            return max(legal, key=lambda a: self.own_suit_value(a - act.OWN_SUIT_BASE, phase))
        if phase == act.MAP_PICK:
            return max(legal, key=lambda a: self.incoming_value(a - act.CARD_BASE))
        if phase == act.MERMAID_PICK:
            return max(legal, key=lambda a: self.mermaid_value(a - act.CARD_BASE))
        if phase == act.RAKE_PICK:
            return max(legal, key=lambda a: self.gain([a - act.CARD_BASE], []) + 2.0 * (CARD_SUIT[a - 12] == ANCHOR))
        return legal[int(rng.integers(len(legal)))]

    def unprotected(self) -> list[int]:
        entries = self.row_entries
        p = -1
        for i in range(len(entries) - 1, -1, -1):
            e = entries[i]
            if e < 0 or CARD_SUIT[e] == ANCHOR:
                p = i
                break
        return [e for e in entries[max(p, 0) :] if e >= 0] if p >= 0 else list(self.row)

    def bonus_due(self, row) -> bool:
        suits = {CARD_SUIT[c] for c in row}
        return KEY in suits and CHEST in suits

    def bank_value(self, row) -> float:
        """What stopping with ``row`` adds to the bot's score; a due Key+Chest bonus counts 1.2 a card."""
        return self.gain(row, []) + (1.2 * len(row) if self.bonus_due(row) else 0.0)

    def draw_total(
        self, pile: list[int], bank: float, lost_value: float, pull: tuple[float, ...] = _NO_PULL
    ) -> tuple[float, int]:
        """Over the cards the next draw may bring, in ``pile`` order: the sum of ``-lost_value`` for each card
        that busts the row and of ``bank_value([*row, c]) - bank + pull[suit of c]`` for each other one,
        added up one card at a time; and the number of cards that bust. Computed from the row's summary
        (:meth:`_row_summary`) rather than by scoring every extended row."""
        raw, top, fill, bonus, own_score = self._row_summary()
        bend = self._bend if self.variant in (SUDDEN_DEATH, UNDERTOW) else float  # float: what _bend does then
        key_of, row_keys = self._key_of, self._row_keys
        # a card no higher than its suit's top changes nothing but the bonus: one term per suit
        unchanged = bend(raw) - own_score
        flat = [unchanged + bonus[suit] - bank + pull[suit] for suit in range(NUM_SUITS)]
        total = 0.0
        busts = 0
        for c in pile:
            if key_of[c] in row_keys:
                busts += 1
                total -= lost_value
                continue
            suit, v = CARD_SUIT[c], CARD_VALUE[c]
            if top is None:  # Piri Reis: every card counts
                total += bend(raw + v) - own_score + bonus[suit] - bank + pull[suit]
            elif v > top[suit]:
                total += bend(raw + v - top[suit] + fill[suit]) - own_score + bonus[suit] - bank + pull[suit]
            else:
                total += flat[suit]
        return total, busts

    def _row_summary(self) -> tuple[int, list[int] | None, list[int], list[float], float]:
        """The bot's collection plus the row, once per observation: S before the bends, the top value per
        suit (None for Piri Reis), per suit what a first card of it takes back of Grand Slam's penalty
        (5 points), per suit the Key+Chest bonus a card of it would make due, and the bent score of the
        collection alone."""
        summary = self._row_table
        if summary is None:
            row = self.row
            mine = self._my_base()
            fill = [0] * NUM_SUITS
            if self.variant == PIRI_REIS:
                raw, top = mine + sum([CARD_VALUE[c] for c in row]), None
            else:
                top = mine.copy()
                for c in row:
                    v = CARD_VALUE[c]
                    if v > top[CARD_SUIT[c]]:
                        top[CARD_SUIT[c]] = v
                raw = sum(top)
                if self.variant == GRAND_SLAM:
                    raw -= 5 * top.count(0)
                    fill = [5 if held == 0 else 0 for held in top]
            suits = {CARD_SUIT[c] for c in row}
            bonus = [0.0] * NUM_SUITS
            due = 1.2 * (len(row) + 1)
            if KEY in suits and CHEST in suits:
                bonus = [due] * NUM_SUITS
            elif KEY in suits:
                bonus[CHEST] = due
            elif CHEST in suits:
                bonus[KEY] = due
            summary = (raw, top, fill, bonus, self._own_score())
            self._row_table = summary
        return summary

    def next_draws(self) -> list[int]:
        """The cards the next draw may be: the peeked top card, else the pile less the cards peeked deeper."""
        if self.known[0] >= 0:
            return [self.known[0]]
        deeper = {c for c in self.known[1:] if c >= 0}
        return [c for c in self.pile if c not in deeper] or self.pile

    def bust_cost(self, bank_value: float) -> float:
        """Of ``bank_value``, what a bust now would lose (the unprotected row cards, DMD-514a)."""
        lost_cards = self.unprotected()
        return bank_value - self.gain([c for c in self.row if c not in lost_cards], [])

    def should_draw(self) -> bool:
        row = self.row
        top = self.known[0]
        if top >= 0:
            return not self.busts(top) or not row
        if not row:
            return True
        pile = self.next_draws()
        bank = self.bank_value(row)
        if self.variant == SUDDEN_DEATH and self._score_mine(row) >= 150:
            return False
        lost_value = self.bust_cost(bank)
        total, _ = self.draw_total(pile, bank, lost_value, _HALF_BONUS)
        return total / len(pile) > self.margin

    def top_card_loss(self, k: int, suit: int) -> tuple[int, float]:
        """The top card of suit ``suit`` in the collection of the seat at offset ``k`` and what losing it
        costs that seat's score."""
        cards, values, seconds, score = self._collection_summary(k)
        card = cards[suit]
        if seconds is None:  # Piri Reis: every card counts
            return card, self._bend(score) - self._bend(score - CARD_VALUE[card])
        below = values.copy()
        below[suit] = seconds[suit]
        return card, score - self._bend_tops(below)

    def _collection_summary(self, k: int) -> tuple[list[int], list[int], list[int] | None, float | int]:
        """The collection of the seat at offset ``k``, once per observation: per suit its top card (-1:
        none), the top card's value and the value under it (0: none), and its bent score (Piri Reis: no
        values under, and the unbent total)."""
        summary = self._summaries.get(k)
        if summary is None:
            cards, values, seconds = [-1] * NUM_SUITS, [0] * NUM_SUITS, [0] * NUM_SUITS
            for c in self.colls[k]:  # ascending ids: ascending values within a suit
                suit = CARD_SUIT[c]
                cards[suit] = c
                seconds[suit] = values[suit]
                values[suit] = CARD_VALUE[c]
            if self.variant == PIRI_REIS:
                summary = (cards, values, None, sum([CARD_VALUE[c] for c in self.colls[k]]))
            else:
                summary = (cards, values, seconds, self._bend_tops(values))
            self._summaries[k] = summary
        return summary

    def target_value(self, action: int, phase: int) -> float:
        k, suit = divmod(action - self.game.target_base, NUM_SUITS)
        k += 1
        card, loss = self.top_card_loss(k, suit)
        weight = self.leader_weight(k)
        if phase == act.CANNON_TARGET:
            return loss * weight
        mine = self.row_gain(card)
        if phase == act.SWORD_TARGET:
            if self.busts(card):
                return -50.0 + loss * weight
            return mine + loss * weight * 0.5 + ABILITY_BONUS.get(suit, 0.0)
        return mine + loss * weight * 0.5  # PLUNDER_PICK

    def own_suit_value(self, suit: int, phase: int) -> float:
        card, cost = self.top_card_loss(0, suit)
        if phase == act.NAVIGATOR_SELF:
            return -cost
        if self.busts(card):
            return -50.0 - cost
        bonus = ABILITY_BONUS.get(suit, 0.0)
        if suit in (KEY, CHEST) and {KEY, CHEST} - {suit} <= {CARD_SUIT[c] for c in self.row}:
            bonus += 2.0
        return bonus - 0.3 * cost

    def incoming_value(self, card: int) -> float:
        if self.busts(card):
            return -50.0 - CARD_VALUE[card]
        value = self.row_gain(card) + ABILITY_BONUS.get(CARD_SUIT[card], 0.0)
        if self.bonus_due([*self.row, card]) and not self.bonus_due(self.row):
            value += 1.2 * (len(self.row) + 1)
        return value

    def mermaid_value(self, card: int) -> float:
        suit = CARD_SUIT[card]
        if suit == ANCHOR:
            return 10.0 + CARD_VALUE[card] * 0.01
        if suit == MERMAID:
            return -10.0
        return ABILITY_BONUS.get(suit, 0.0) - 0.01 * CARD_VALUE[card]
