"""Driving a stage: what a driver knows of a section before turning it over (:mod:`.knowledge`), the speed
plans solved backwards from the finish (:mod:`.plan`), and the simulated driver who plays its own hand
(:mod:`.simulate`).

May import: :mod:`designer.core` and :mod:`designer.systems.rallye.model`. This ``__init__`` imports nothing.
"""
