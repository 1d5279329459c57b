"""Pirates of the Spanish Main: The Card Game — ``potsm_v0``.

Nine pirate ships (3 English, 3 Spanish, 3 Dutch) sail in a line of nine positions. Each player
secretly owns 2 of them (3 with two players) through face-down pirate cards. On a turn a player
plays one face-up movement card, repairs every ship, accuses an opponent of owning a named
pirate, or passes; then the current adventure card resolves against the line. When the
adventure deck runs out, each player scores the fame of the ships they own plus the fame they
stole by accusation. Full rules: ``docs/rules/potsm.md``; this package's page: ``docs/potsm.md``.

=================== ==========================================================================
Import              ``from pirate_envs import potsm_v0``
Agents              ``player_0 .. player_{n-1}``, n = 2, 3 or 4 (default 4)
Action space        ``Discrete(76 + 9(n-1))``: 85 / 94 / 103 (table below)
Observation         ``Dict(observation=Box(float32, (265 + 85n + 2n²,)), action_mask=Box(int8))``
Rewards             at the end only: ``win`` (+1 winner, -1 others) or ``score`` (margin / scale)
Options             ``num_players``, ``upcoming_adventures``, ``move_cards_in_hand``,
                    ``reward_mode``, ``score_scale``, ``max_decisions``; env-only:
                    ``render_mode`` (``ansi``/``human``), ``illegal_action`` (``raise``/``terminate``)
=================== ==========================================================================

Action table (PSM-1040..1052; "position" is 1..9 in the line, front first):

======== ======================================================================
0-8      Full Speed Ahead!, ship at position 1..9
9-17     Lost at Sea, ship at position 1..9
18-25    Temporary Alliance, pair at positions (p, p+1), p = 1..8
26-33    Caught in a Rip, pair p = 1..8
34-36    English / Spanish / Dutch Advance
37-39    English / Spanish / Dutch Retreat
40-48    Sabotage!, undamaged ship at position 1..9
49       There Be Fog Ahead!
50       Repair
51       Pass
52-63    Pass and discard one move card of type t = index - 52, then draw
64-75    (hand variant, after choosing Accuse) discard hand card of type t = index - 64
76-N-1   Accuse: index = 76 + 9(k-1) + j — the seat at offset k owns pirate j
======== ======================================================================

The observation layout (PSM-1060..1082) is documented field by field in ``docs/potsm.md`` and
available by name from ``pirate_envs.games.potsm.observation.field_slices(n)``.

Version history: v0 — first release.
"""

from pirate_envs.adapters.aec import make_env_functions
from pirate_envs.games.potsm import HeuristicPolicy
from pirate_envs.games.potsm import PotsmGame as Game

env, raw_env = make_env_functions(Game)

__all__ = ["Game", "HeuristicPolicy", "env", "raw_env"]
