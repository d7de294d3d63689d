"""The cards on the table: laying the road card after card on a grid (:mod:`.layout`) and drafting a stage from
the six face-up piles as the rules do (:mod:`.draft`).

May import: :mod:`designer.core` and :mod:`designer.systems.rallye.model`. This ``__init__`` imports nothing.
"""
