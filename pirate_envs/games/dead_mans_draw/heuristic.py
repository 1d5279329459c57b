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
"""

from __future__ import annotations

import numpy as np

from pirate_envs.games.dead_mans_draw import actions as act
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


class HeuristicPolicy:
    """Expected-value push-your-luck bot (see the module docstring)."""

    name = "heuristic"

    def __init__(self, game, margin: float = 0.0) -> None:
        self.game = game
        self.n = game.num_players
        self.sl = field_slices(self.n)
        self.margin = margin

    # --- reading the observation ------------------------------------------------------------------------

    def _read(self, obs: np.ndarray) -> None:
        sl = self.sl
        n = self.n
        self.phase = int(np.argmax(obs[sl["phase"]]))
        colls = [np.flatnonzero(obs[sl["my_collection"]]).tolist()]
        opp = obs[sl["opp_collections"]]
        for k in range(n - 1):
            colls.append(np.flatnonzero(opp[NUM_CARDS * k : NUM_CARDS * (k + 1)]).tolist())
        self.colls = colls
        pos = obs[sl["row_position"]]
        row = np.flatnonzero(obs[sl["row_cards"]]).tolist()
        entries = [(pos[c], c) for c in row]
        marker = float(obs[sl["marker_position"]][0])
        if marker > 0:
            entries.append((marker, -1))
        entries.sort()
        self.row_entries = [c for _, c in entries]
        self.row = [c for c in self.row_entries if c >= 0]
        self.pile = np.flatnonzero(obs[sl["draw_pile_cards"]]).tolist()
        known = obs[sl["known_top"]].reshape(3, NUM_CARDS)
        self.known = [int(np.argmax(r)) if r.any() else -1 for r in known]
        self.discard = np.flatnonzero(obs[sl["discard_pile"]]).tolist()
        config = obs[sl["config"]]
        self.variant = int(np.argmax(config[:7]))
        abilities = obs[sl["abilities"]]
        mine = abilities[:NUM_ABILITIES]
        self.my_ability = int(np.argmax(mine)) if mine.any() else -1
        self.scores = (obs[sl["scores"]] * 100).round().tolist()
        self.eliminated = obs[sl["eliminated"]].tolist()
        self.offer = np.flatnonzero(obs[sl["offer_cards"]]).tolist()

    # --- scoring --------------------------------------------------------------------------------------

    def score(self, cards) -> float:
        """DMD-701 S of a card set, bent by Sudden Death / Undertow (values to the bot)."""
        if self.variant == PIRI_REIS:
            s = sum(CARD_VALUE[c] for c in cards)
        else:
            top = [0] * NUM_SUITS
            for c in cards:
                v = CARD_VALUE[c]
                if v > top[CARD_SUIT[c]]:
                    top[CARD_SUIT[c]] = v
            s = sum(top)
            if self.variant == GRAND_SLAM:
                s -= 5 * top.count(0)
        if self.variant == SUDDEN_DEATH and s >= 50:
            s += 100
        elif self.variant == UNDERTOW and s > 60:
            s -= 100
        return float(s)

    def gain(self, cards, extra) -> float:
        base = self.colls[0]
        return self.score([*base, *extra, *cards]) - self.score([*base, *extra])

    def busts(self, card: int, row=None) -> bool:
        row = self.row if row is None else row
        if self.variant == UNCHARTED_WATERS:
            return any(CARD_VALUE[e] == CARD_VALUE[card] for e in row)
        return any(CARD_SUIT[e] == CARD_SUIT[card] for e in row)

    def leader_weight(self, k: int) -> float:
        others = [self.scores[j] for j in range(1, self.n) if not self.eliminated[j]]
        return 2.0 if others and self.scores[k] >= max(others) else 1.0

    # --- decisions ----------------------------------------------------------------------------------------

    def act(self, observation: np.ndarray, action_mask: np.ndarray, rng: np.random.Generator) -> int:
        legal = np.flatnonzero(action_mask).tolist()
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
        pile = self.next_draws()
        if not row:
            return True
        bank = self.bank_value(row)
        if self.variant == SUDDEN_DEATH and self.score([*self.colls[0], *row]) >= 150:
            return False
        lost_value = self.bust_cost(bank)
        total = 0.0
        for c in pile:
            if self.busts(c):
                total -= lost_value
            else:
                total += self.bank_value([*row, c]) - bank + ABILITY_BONUS.get(CARD_SUIT[c], 0.0) * 0.5
        return total / len(pile) > self.margin

    def top_card_loss(self, k: int, suit: int) -> tuple[int, float]:
        """The top card of suit ``suit`` in the collection of the seat at offset ``k`` and what losing it
        costs that seat's score."""
        theirs = self.colls[k]
        card = max(c for c in theirs if CARD_SUIT[c] == suit)
        return card, self.score(theirs) - self.score([c for c in theirs if c != card])

    def target_value(self, action: int, phase: int) -> float:
        k, suit = divmod(action - self.game.target_base, NUM_SUITS)
        k += 1
        card, loss = self.top_card_loss(k, suit)
        weight = self.leader_weight(k)
        if phase == act.CANNON_TARGET:
            return loss * weight
        mine = self.gain([card], self.row)
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
        value = self.gain([card], self.row) + ABILITY_BONUS.get(CARD_SUIT[card], 0.0)
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
