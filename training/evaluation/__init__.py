"""Evaluation: seat-rotated tournaments and matches, checkpoint evaluation (``python -m training.evaluation.evaluate``),
reference ladders and ratings (:mod:`.ladder`, :mod:`.rate`), SPRT, the exploitability probe, reports and statistics.
"""
