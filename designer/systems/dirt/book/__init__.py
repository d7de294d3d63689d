"""The printable road book of a DIRT stage or rally (PDF): what an organiser hands to the players.

:mod:`.roadbook` (the entry point: a stage or a rally to PDF bytes) put together from :mod:`.facts` (what the
book prints about a stage, gathered once), :mod:`.draw` (drawings sized for paper), :mod:`.build` (the build
sheet: which tiles, and how to lay each), :mod:`.line` (the line-and-times page), :mod:`.notes` (the pace-notes
page) and :mod:`.rally` (the cover and the other rally pages).

Imports :mod:`designer.core`, every other DIRT room except :mod:`..io`, and :mod:`..analysis`; nothing imports
it but :mod:`..system` (lazily) and the front ends. Keep this file free of imports.
"""
