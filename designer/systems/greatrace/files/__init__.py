"""The Great Race's files: what a ruleset, a board with its bag and a race hold, typed and checked before use.

``schema`` (the pydantic types and ranges of every file, and the caps they set), ``rules`` (the ruleset's
parameters and the rulebook's mechanics of entering a space, buying fuel and repairing), ``board`` (the hex
map, cities, transport lines, bands and bag), ``race`` (start, finish, the car, tiles laid) and ``edit``
(changes to a board's plain data for the app's map editor).

May import :mod:`designer.core` and each other; never :mod:`designer.systems.greatrace.driving`,
:mod:`designer.systems.greatrace.book`, another game system or a front end.
"""
