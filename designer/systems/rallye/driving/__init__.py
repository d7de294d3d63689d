"""Driving a stage: what a driver knows of a section before turning it over (:mod:`.knowledge`), the speed
plans solved backwards from the finish (:mod:`.plan`), the simulated driver who plays its own hand
(:mod:`.simulate`), and a race of several such drivers round by round (:mod:`.race`).

May import: :mod:`designer.core` and :mod:`designer.systems.rallye.model`. This ``__init__`` imports nothing.
"""
