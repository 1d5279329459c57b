"""Tortuga 1667 — ``tortuga_v0``.

Each player is secretly loyal to England, France or Spain and holds a public role (Captain or
First Mate of one of three pirate ships, Sailor, or Governor of Tortuga). Pawns move up to two
spaces on an 8-space sea map; Captains at the Spanish galleon call attacks, First Mates call
mutinies that exile Captains, Sailors steal in secret, the Governor calls disputes. Every attack,
mutiny and dispute is settled by a secret simultaneous vote (Yes/No/Wild), played here as one
AEC decision per voter in seat order from the initiator; no voter sees another's card before the
reveal. The game ends with the Spanish Armada, an empty galleon or the round limit; the nation
with the most treasure (+2 per treasure map) wins, shared by its non-exiled players.
Full rules: ``docs/rules/tortuga.md``; this package's page: ``docs/tortuga.md``.

=================== ==========================================================================
Import              ``from pirate_envs import tortuga_v0``
Agents              ``player_0 .. player_{n-1}``, n = 2..9 (default 6)
Action space        ``Discrete(21 + 3n)``: 27 (n=2), 39 (n=6), 48 (n=9) (table below)
Observation         ``Dict(observation=Box(float32, (2n² + 71n + 508,)), action_mask=Box(int8))``
Rewards             at the end only: ``win`` (+1 each non-exiled member of the winning nation,
                    -1 everyone else) or ``score`` (nation margin / 10, clipped to [-1, 1])
Options             ``num_players``, ``max_rounds``, ``neutral_vote``, ``wild_cooldown``,
                    ``secret_exile``, ``public_steal``, ``armada_depth``, ``draw_replaces_action``,
                    ``reward_mode``, ``max_decisions`` (0 = the bound of TOR-1006); env-only:
                    ``render_mode`` (``ansi``/``human``), ``illegal_action`` (``raise``/``terminate``)
=================== ==========================================================================

Action table (TOR-1002; ``k`` is a seat offset from the acting seat, target = (self + k) mod n):

============== ==========================================================================
0-7            MOVE_TO node (0 TOR, 1 ENG, 2 FRA, 3 SPA, 4 GAL, 5-7 lanes E/F/S)
8              PASS (no action / no draw / keep the map)
9              ATTACK (Captain on GAL)
10             MUTINY (First Mate on a ship node whose Captain slot is held)
11             STEAL_GALLEON (Sailor on GAL)
12 .. 11+n     STEAL_PLAYER offset k (Sailor, same area node)
12+n .. 11+2n  DISPUTE offset k (Governor on TOR)
12+2n .. 14+2n VOTE_YES, VOTE_NO, VOTE_WILD
15+2n, 16+2n   DECLARE_YES, DECLARE_NO (Wild voters after the reveal)
17+2n          DRAW_EVENT
18+2n .. 17+3n SELECT_PLAYER offset k (loot, map recipient, event targets, map gift)
18+3n .. 20+3n SELECT_SHIP (0 ENG, 1 FRA, 2 SPA) for Mutiny Brews
============== ==========================================================================

The observation layout (TOR-1004) is documented field by field in ``docs/tortuga.md`` and
available by name from ``pirate_envs.games.tortuga.observation.field_slices(n)``.

Version history: v0 — first release.
"""

from pirate_envs.adapters.aec import make_env_functions
from pirate_envs.games.tortuga import HeuristicPolicy
from pirate_envs.games.tortuga import TortugaGame as Game

env, raw_env = make_env_functions(Game)

__all__ = ["Game", "HeuristicPolicy", "env", "raw_env"]
