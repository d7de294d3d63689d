"""Rallyman: DIRT: double-sided hex tiles, each a graph of cells; the flagship system.

Modules: :mod:`.tileset` (faces and their cells), :mod:`.stage` (stages, rallies, share codes), :mod:`.track`
(assembly into one cell graph), :mod:`.validate`, :mod:`.rules` (ruleset data and the turn engine), :mod:`.lines`
(fastest, safe and shortest lines, speed limits), :mod:`.estimate`, :mod:`.pacenotes`, :mod:`.render`,
:mod:`.roadbook`, :mod:`.io` (.rgt and rekee formats), :mod:`.system` (the contract).
"""
