"""The generic env adapters over the rules-engine contract: PettingZoo AEC (:mod:`.aec`), Gymnasium
single-agent (:mod:`.gym_env`), and the option and input checks both share (:mod:`.checks`).

One adapter serves every game; nothing here is game-specific.
"""
