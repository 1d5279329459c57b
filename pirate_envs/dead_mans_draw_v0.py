"""Dead Man's Draw — ``dead_mans_draw_v0``.

A push-your-luck card game for 2-4 players. On your turn you flip treasure cards one at a time
into a shared row; each card's suit ability fires as it enters (Cannon, Sword, Hook, Map, Kraken,
Oracle ... and chains), and after each flip you draw again or stop and bank the row into your
collection. A card whose suit is already in the row busts: the row is lost, except what an Anchor
saves. When the draw pile runs out, each player scores the top card of every suit they hold.
Options add character abilities (deal two, keep one), six variant rule cards and the mermaid
variant. Full rules: ``docs/rules/dead_mans_draw.md``; this package's page: ``docs/dead_mans_draw.md``.

=================== ==========================================================================
Import              ``from pirate_envs import dead_mans_draw_v0``
Agents              ``player_0 .. player_{n-1}``, n = 2, 3 or 4 (default 2)
Action space        ``Discrete(94 + 11(n-1))``: 105 / 116 / 127 (table below)
Observation         ``Dict(observation=Box(float32, (675 + 88n,)), action_mask=Box(int8))``
Rewards             at the end only: ``win`` (+1 every winner, -1 others) or ``score`` (margin / scale)
Options             ``num_players``, ``characters`` (True), ``starting_discard`` (True), ``variant``
                    (none, grand_slam, sudden_death, thieves_island, uncharted_waters, piri_reis,
                    undertow, random), ``mermaid_variant`` (False), ``reward_mode``, ``score_scale``,
                    ``max_decisions`` (8000); env-only: ``render_mode`` (``ansi``/``human``),
                    ``illegal_action`` (``raise``/``terminate``)
=================== ==========================================================================

Action table (DMD-1040..1048; "offset k" is the seat k places after the decider):

============== ====================================================================================
0              STOP (bank the row) — DRAW_OR_STOP
1              DRAW — DRAW_OR_STOP
2-11           OWN_SUIT s = index - 2 — HOOK_SUIT (Miser's second: s != first suit), NAVIGATOR_SELF
12-73          CARD c = index - 12 — MAP_PICK (offered card), MERMAID_PICK, RAKE_PICK
74-91          ABILITY a = index - 74 — ABILITY_CHOICE (one of your two dealt cards)
92 / 93        ACCEPT / DECLINE — LOCKER_ACCEPT (Davy Jones' Locker holder)
94 .. 92+n     LOCKER_TARGET offset k = index - 93
93+n .. N-1    TARGET (offset k, suit s) = 93 + n + 10(k-1) + s — CANNON_TARGET, SWORD_TARGET, PLUNDER_PICK
============== ====================================================================================

Suits: 0 Anchor, 1 Cannon, 2 Chest, 3 Key, 4 Hook, 5 Kraken, 6 Map, 7 Mermaid, 8 Oracle, 9 Sword;
card id = ``[0, 6, 12, 18, 24, 30, 36, 42, 50, 56][suit] + value - 2``. Phases (observation
one-hot): 0 ABILITY_CHOICE, 1 LOCKER_TARGET, 2 DRAW_OR_STOP, 3 CANNON_TARGET, 4 NAVIGATOR_SELF,
5 SWORD_TARGET, 6 HOOK_SUIT, 7 MAP_PICK, 8 MERMAID_PICK, 9 RAKE_PICK, 10 PLUNDER_PICK, 11 LOCKER_ACCEPT.

The observation layout (DMD-1060..1087) is documented field by field in ``docs/dead_mans_draw.md``
and available by name from ``pirate_envs.games.dead_mans_draw.observation.field_slices(n)``.

Version history: v0 — first release.
"""

from pirate_envs.adapters.aec import make_env_functions
from pirate_envs.games.dead_mans_draw import DmdGame as Game
from pirate_envs.games.dead_mans_draw import HeuristicPolicy

env, raw_env = make_env_functions(Game)

__all__ = ["Game", "HeuristicPolicy", "env", "raw_env"]
