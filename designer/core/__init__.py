"""Kits shared by every game system: errors, YAML with line numbers, problems, grids, SVG and PDF blocks.

Nothing here knows a game system; systems import from here, never the other way round.
"""
