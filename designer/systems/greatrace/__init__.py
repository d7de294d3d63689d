"""The Great Race: a hex map of cities, risk zones and transport lines, a bag of terrain tiles, and route
analysis (shortest, fastest, cheapest, Monte Carlo over the bag) with a road book.

Modules: ``rules`` (prices and the mechanics of entering a space), ``board`` and ``race`` (the YAML files),
``costs`` (what each space costs in a race), ``routes`` (searches), ``plan`` (a route priced leg by leg),
``montecarlo``, ``analysis``, ``validate``, ``draw`` (SVG), ``roadbook`` (PDF), ``edit`` (map editing for
the app), ``generate`` (races made from a board, ranked by balance) and ``system`` (the shared contract).
"""
