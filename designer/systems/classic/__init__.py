"""Classic Rallyman (2009) with its Dirt extension: zone boards, routes, rules, lines, course sheet, road book.

Modules: :mod:`.zones` (the zone boards and their cells) with :mod:`.edit` (a zone face as tables, for the app),
:mod:`.stage` and :mod:`.notation` (stages and rallies, and the two ways a route is written), :mod:`.assembly`
(a route and a box to one cell graph), :mod:`.validate`, :mod:`.rules` (the ruleset file), :mod:`.moves` (the
moves of one turn), :mod:`.attack` (Big Attack, dropping seconds, the SISU card), :mod:`.weather`, :mod:`.lines`
(shortest and ideal lines), :mod:`.expected` (the expected time under the dice) with :mod:`.policy` (that policy
handed to the shared solver :mod:`designer.racing.mdp` and played with dice), :mod:`.analysis`,
:mod:`.pacenotes`, :mod:`.render` (SVG), :mod:`.roadbook` (PDF) and :mod:`.system` (the contract).

Imports :mod:`designer.core`, :mod:`designer.racing` and :mod:`designer.systems.base`; never another game or a
front end.
"""
