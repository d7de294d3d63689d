"""Game systems: one module per system (:mod:`designer.rules.dirt` first).

A ruleset is data (gears, time cards, dice pools, hazard faces, hazard limit, optional rules) read
from ``tilesets/<system>-rules.yaml`` plus the move generator of one turn.
"""
from __future__ import annotations

from designer.errors import DesignerError

SYSTEMS = ("dirt",)


def get_ruleset(system: str = "dirt", path=None):
    """The ruleset of a game system (only ``dirt`` so far), optionally from another file."""
    if system != "dirt":
        raise DesignerError(f"no rules for the game system {system!r} yet", hint=f"known: {', '.join(SYSTEMS)}")
    from designer.rules.dirt import load_ruleset
    return load_ruleset(path)


__all__ = ["get_ruleset", "SYSTEMS"]
