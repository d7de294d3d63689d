"""The DIRT board: the pieces in the box and how a stage lays them on the table.

:mod:`.tileset` (faces, their cells and tile facts) with :mod:`.face_checks` (the structural checks run as a
tileset is read), :mod:`.geometry` (where a face's road and cells lie on the hexagon), :mod:`.tokens` (chicanes,
water, jumps and the other markers laid on tiles), :mod:`.stage` (stages and rallies, YAML and share codes),
:mod:`.track` (assembly: tile positions and one cell graph in driving order) with :mod:`.walk` (the driving order
of tiles laid freely, as an imported layout gives them), :mod:`.validate` (a stage's problems) and
:mod:`.render` (SVG drawings of a stage).

Imports :mod:`designer.core` only: nothing here knows the rules, the dice or the road book. Keep this file
free of imports.
"""
