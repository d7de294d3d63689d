"""The boards on the table: a route and a zone box laid as one graph of cells in driving order
(:mod:`.assembly`), drawn as SVG (:mod:`.render`), read out as pace notes (:mod:`.pacenotes`), and a zone face
as the zone editor's tables (:mod:`.edit`).

May import :mod:`designer.core` and :mod:`designer.systems.classic.files`; never the dice, the analysis or a
front end. Nothing here is imported at package import time.
"""
