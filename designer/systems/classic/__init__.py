"""Classic Rallyman (2009) with its Dirt extension: zone boards, routes, rules, lines, course sheet, road book.

Three rooms and the contract on top:

- :mod:`.files`: what a user writes and the models read from it: zone boxes (:mod:`.files.zones`), stages and
  rallies (:mod:`.files.stage`, what a rally hands from stage to stage in :mod:`.files.rally`), the two ways a
  route is written (:mod:`.files.notation`), the ruleset (:mod:`.files.rules`) and the schemas that type every
  file before use (:mod:`.files.schema`).
- :mod:`.board`: the boards on the table: a route and a box laid as one cell graph (:mod:`.board.assembly`), its
  drawing (:mod:`.board.render`), its pace notes (:mod:`.board.pacenotes`) and a zone face as the editor's
  tables (:mod:`.board.edit`).
- :mod:`.dice`: driving it under the rules and the dice: the moves of one turn (:mod:`.dice.moves`), the
  shortest and ideal lines (:mod:`.dice.lines`), the expected time under the dice (:mod:`.dice.expected`, handed
  to the shared solver by :mod:`.dice.policy`), the optional rules of a turn (:mod:`.dice.attack`) and the
  variable weather (:mod:`.dice.weather`).
- here: :mod:`.analysis` (the analysis as data), :mod:`.validate` (located problems of a stage or a box),
  :mod:`.roadbook` (the PDF) and :mod:`.system` (the contract the command line and the app use).

Imports go one way: ``files`` <- ``board`` <- ``dice`` <- the modules here. The whole package imports
:mod:`designer.core`, :mod:`designer.racing` and :mod:`designer.systems.base`; never another game or a front end.
"""
