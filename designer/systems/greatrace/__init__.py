"""The Great Race: a hex map of cities, risk zones and transport lines, a bag of terrain tiles, and route
analysis (shortest, fastest, cheapest, the trade-off set, a Monte Carlo over the bag, the scoring) with a
road book.

Three rooms, imported in this order only (a room never imports one below it in this list):

- ``files``: the ruleset, board, bag and race files, typed and checked (``schema``, ``rules``, ``board``,
  ``race``, ``edit``);
- ``driving``: costs of spaces, route searches, plans, Monte Carlo, scoring, checks, generation, analysis;
- ``book``: the SVG map, the road book and its table pages.

``system`` is the shared contract (:class:`designer.systems.base.GameSystem`) that the command line and the
app use; it may import all three. This ``__init__`` imports nothing, so no room imports it back.
"""
