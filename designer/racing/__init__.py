"""What the two dice-racing games (Rallyman: DIRT and classic Rallyman) share, with no rule of either.

:mod:`.course` (a course as a cell graph in driving order, the shortest line over cells, game times as
minutes and seconds), :mod:`.search` (the fastest line over turn boundaries: Dijkstra on the turns a game's
rules allow), :mod:`.mdp` (the expected time under the dice: the best policy of a Markov decision problem over
turn boundaries, solved by backward induction, and its exact statistics) and :mod:`.simulate` (that policy
played with random dice, the Monte Carlo check).

Imports nothing from the project but itself: the games import from here, never the other way round. Keep this
file free of imports.
"""
