"""Driving a DIRT stage without dice: the rules of a turn and the lines they allow.

:mod:`.ruleset` (gears, time cards, dice pools, hazard faces and the other rule data, read from YAML),
:mod:`.road` (the assembled track as the turn engine reads it), :mod:`.rules` (the legal moves of one turn),
:mod:`.referee` (a planned turn played die by die, with the rule it breaks), :mod:`.lines` (fastest, safe and
shortest lines, speed limits), :mod:`.estimate` (length, game time of the fastest line, minutes at the table),
:mod:`.pacenotes` (what a co-driver reads out) with :mod:`.bends` (which way the road turns, and where).

Imports :mod:`designer.core`, :mod:`designer.racing` and :mod:`..board`; never the dice, the road book or the
files of other editors. Keep this file free of imports.
"""
