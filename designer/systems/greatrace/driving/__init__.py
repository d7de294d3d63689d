"""Driving a Great Race race: what each space costs, the routes a player can follow and what they cost, the
draws of the bag, the scoring, the checks and the analysis.

``costs`` (each space of a race: a city, a laid tile, an open space at the bag's expectation), ``routes``
(shortest paths and candidate routes), ``search`` (the label-setting search over fuel, engine, chassis and
cards: fewest actions, cheapest of the fastest, the trade-off set), ``plan`` (a route priced leg by leg),
``montecarlo`` (driving a route with the bag's draws), ``scoring`` (purse, bonus, prestige), ``validate``
(problems of a board and a race), ``generate`` (races drawn for the stage generator) and ``analysis`` (the
JSON-ready result).

May import :mod:`designer.core` and :mod:`designer.systems.greatrace.files`; never
:mod:`designer.systems.greatrace.book`, another game system or a front end.
"""
