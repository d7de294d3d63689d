"""Driving a classic course under the rules and the dice: the moves of one turn (:mod:`.moves`), the shortest
and ideal lines (:mod:`.lines`), the expected time of the best policy (:mod:`.expected`) handed to the shared
solver and played with random dice (:mod:`.policy`), the optional rules around a turn (:mod:`.attack`: Big
Attack, dropping seconds, SISU, penalties, cut cards), the variable weather with the tyre choice
(:mod:`.weather`), several cars on one stage (:mod:`.table`) and over a rally with its time controls
(:mod:`.rally_table`).

May import :mod:`designer.core`, :mod:`designer.racing`, :mod:`designer.systems.classic.files` and
:mod:`designer.systems.classic.board`. Nothing here is imported at package import time.
"""
