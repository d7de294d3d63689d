"""The Rallye game's objects as its files give them: the rules as numbers and the ruleset file (:mod:`.rules`),
the deck, the box of cards (:mod:`.deck`), what a driver knows of a section card from its front (:mod:`.knowledge`),
stages and rallies (:mod:`.stage`), and the schemas every one of those files is checked against before use
(:mod:`.schema`).

May import: :mod:`designer.core` only (and each other). Nothing here knows how a stage is laid, planned or drawn.
This ``__init__`` imports nothing.
"""
