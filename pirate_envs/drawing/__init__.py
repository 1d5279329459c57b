"""Drawing a table: each game's view builds a :class:`~.table.TableView` (zones of cards, in words); it is told
as text (:mod:`.text`), painted as an RGB picture (:mod:`.picture`), and the adapters' render modes
(:mod:`.render_modes`) choose between them.
"""
