"""Rallye, the 12-card rally game: section cards, stage drafting, the speed plan and the reconnaissance sheet.

Rooms:

- :mod:`.model` the game's objects as its files give them: rules, deck, stage and rally, their schemas;
- :mod:`.table` the cards on the table: laying the road, the six-pile draft;
- :mod:`.driving` what a driver knows, the speed plans, the simulated driver, a race of several drivers;
- here, what puts them together: :mod:`.validate` (a stage's problems), :mod:`.analyse` (the JSON-ready
  analysis), :mod:`.generate` (drafted stages ranked), :mod:`.draw` and :mod:`.roadbook` (the drawings and
  the printed book), and :mod:`.system` (the contract the command line and the app call).

The rooms import downwards only: ``model`` nothing of the game, ``table`` and ``driving`` ``model``, the modules
here any room; no room imports a module of this level. This ``__init__`` imports nothing.
"""
