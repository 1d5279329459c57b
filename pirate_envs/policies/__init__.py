"""Policies over the contract, no torch: the :class:`~.base.Policy` protocol with random play, the search bots
(IS-MCTS :mod:`.ismcts`, flat Monte Carlo :mod:`.flatmc`, their shared rollouts :mod:`.rollout`), the
self-play opponent pool (:mod:`.selfplay`) and the one parser of policy specs.
"""
