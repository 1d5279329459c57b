"""Apps around training: a person plays in the terminal (:mod:`.play`) and a run's model is released as a
shipped checkpoint (:mod:`.ship`).
"""
