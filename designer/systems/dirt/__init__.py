"""Rallyman: DIRT: double-sided hex tiles, each a graph of cells; the flagship system.

Rooms, from the table up (each may import the rooms before it, never one after it):

- :mod:`.board`: the pieces and how they are laid: tilesets (faces and their cells, checked as they are read),
  tokens, stages and rallies, assembly into one cell graph (:mod:`.board.track`), validation, drawings.
- :mod:`.driving`: the rules and the lines without dice: ruleset data, the turn engine and its referee, the
  fastest, safe and shortest lines, length and table time, pace notes.
- :mod:`.dice`: the expected time under the dice: plans of dice and their search, roll-outs, the backward sweep,
  the turn model, the mishaps it prices, the Monte Carlo player, and their optional compiled kernels.
- :mod:`.io`: stages to and from other editors' files (.rgt, rekee JSON); it reads the board only.
- :mod:`.book`: the printable road book (build sheet, line page, pace notes, rally pages).

And four modules here: :mod:`.analysis` (the whole analysis of a stage, JSON-ready; the road book reads it),
:mod:`.report` (that analysis as text), :mod:`.generate` (the stage generator) and :mod:`.system` (the
contract the command line and the app talk to). This file imports nothing, so no module importing the package
can close a circle through it.
"""
