"""Driving a stage: what a driver knows of a section before turning it over (:mod:`..model.knowledge`), the speed
plans solved backwards from the finish (:mod:`.plan`), what a hand is worth (:mod:`.hand`), the driver who
decides from the hand it holds and the pile it may draw from (:mod:`.driver`), the solo runs of that driver
(:mod:`.simulate`), and a race of several such drivers round by round, with the table time counted from what
they play (:mod:`.race`).

May import: :mod:`designer.core` and :mod:`designer.systems.rallye.model`. This ``__init__`` imports nothing.
"""
