"""Torch policies: trained MaskablePPO networks as policies (:mod:`.checkpoint_policy`, loads torch lazily) and
the action-feature network that scores actions from what they do (:mod:`.action_feature_policy`, needs the
``train`` extra).
"""
