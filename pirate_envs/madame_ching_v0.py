"""Madame Ching — ``madame_ching_v0``.

Each player sails a junk across a triangular sea grid of 35 spaces (column × row). Every round each
player secretly picks a navigation card; all picks are revealed and boats act from the highest
number down. A higher card extends the boat's expedition (right, or down-right on a colour change);
a lower card, or any card once the junk is in column 8, ends it for a mission tile (gold, gems,
encounter cards) and skill cards for sets of icons. Encounter cards, single-use skills and a
display draft complete a boat-turn. The game ends at the end of the round in which the last mission
tile is taken or someone earns the China Pearl. Full rules: ``docs/rules/madame_ching.md``; this
package's page: ``docs/madame_ching.md``.

=================== ==========================================================================
Import              ``from pirate_envs import madame_ching_v0``
Agents              ``player_0 .. player_{n-1}``, n = 2, 3 or 4 (default 4); 2 players sail two boats each
Action space        ``Discrete(105)`` for every player count (table below)
Observation         ``Dict(observation=Box(float32, (577 + 134B + 86n,)), action_mask=Box(int8))``,
                    B = boats (4 with 2 players, else n): 1285 / 1237 / 1457 for 2 / 3 / 4 players
Rewards             at the end only: ``win`` (+1 each winner, -1 others) or ``score`` (margin / 50, clipped)
Options             ``team_mode`` (2v2, 4 players), ``elite_counts_for_china_pearl``, ``round_limit`` (40),
                    ``auto_resolve_forced`` (True), ``two_player_dual_boats`` (forced with 2 players),
                    ``reward_mode``, ``max_decisions`` (25000); env-only: ``render_mode``, ``illegal_action``
=================== ==========================================================================

Action table (MCH-1003; the meaning depends on the phase, MCH-1002):

======== ======================================================================
0-54     CARD[k]: navigation card k+1 — pick (SELECT), add (NIGHT_SAIL), salvage (SALVAGE_CHOOSE),
         give (COMBAT_GIVE, TEAM_RETURN, TEAM_GIVE)
55-58    SLOT[s]: take display slot s (TAKE; slot 0 is face down)
59-81    MISSION[m]: take tile M01..M23 (MISSION_CHOOSE)
82-86    SKILL[k]: Cartography, Night Sailing, Combat, Weather, Elite (SKILL_CLAIM; 82-85 MC_SKILL)
87-89    TARGET[o]: the seat at offset o = 1..3 (with 2 players, SIREN_TARGET: o=1 boat A, o=2 boat B)
90-92    GEM[g]: blue, red, white (THIEF_GEM)
93-99    PLAY_ENC: Thief, Spy, Negotiator, Salvager, Oracle, Siren, Madame Ching (ACTION)
100      USE_COMBAT (ACTION)
101      USE_WEATHER (WEATHER)
102      USE_CARTOGRAPHY (CARTO)
103      GIVE_TO_PARTNER (ENC_GIFT, team mode)
104      PASS (WEATHER, NIGHT_SAIL, ACTION, CARTO, ENC_GIFT, TEAM_GIVE)
======== ======================================================================

The simultaneous card choice is played as sequential decisions in seat order; a pick is hidden
from every other seat (observation, mask, infos, rendering) until all are revealed. The
observation layout (MCH-1005) is documented in ``docs/madame_ching.md`` and available by name from
``pirate_envs.games.madame_ching.observation.field_slices(n)``.

Version history: v0 — first release.
"""

from pirate_envs.adapters.aec import make_env_functions
from pirate_envs.games.madame_ching import HeuristicPolicy
from pirate_envs.games.madame_ching import MadameChingGame as Game

env, raw_env = make_env_functions(Game)

__all__ = ["Game", "HeuristicPolicy", "env", "raw_env"]
