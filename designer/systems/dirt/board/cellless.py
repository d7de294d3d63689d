"""Faces laid in a stage that have no cell graph: what the tileset knows of them, what lines and timing still
need, and how a user supplies it.

The Rallyman: GT faces that DIRT layouts lay (the official editor's RX sample lays 118b, 119b, 126b, 137b) are
known here at tile level only, from rekee's tile table (``src/tile.rs``, ``TILE_INFOS``): which edges the road
joins, the lanes at each edge, the speed limits printed somewhere on the face (with or without a hazard), the
danger colour, and whether an edge is skewed (the road leaves across a corner, a half space going on onto the next
tile). That table has no spaces: how many spaces each lane holds, which space carries which limit and a corner's
inside and outside paths are not in it, nor in any picture among our references. A cell graph cannot be made
honestly from it, so these faces stay at tile level and the messages below say what is missing.
"""
from __future__ import annotations

EDGE_ORDER = "ABCDEF"


def known_facts(face) -> str:
    """What the tileset knows of a face without cells, in a few words: ``118b: road B-D, 2 lanes at B and D,
    limits 4, 5, 5 with a hazard``."""
    roads = "; ".join(f"road {a}-{b}" for a, b in face.links) or "no road"
    lanes = sorted(face.edges.items(), key=lambda kv: EDGE_ORDER.find(kv[0]))
    lane_text = ", ".join(f"{n} lane{'s' if n != 1 else ''} at {e}" for e, n in lanes)
    limits = [str(x) for x in face.features.limits] + [f"{x} with a hazard" for x in face.features.hazard_limits]
    parts = [roads, lane_text, ("limits " + ", ".join(limits)) if limits else "no limit printed"]
    skew = ", ".join(f"{e} ({side})" for e, side in sorted(face.skew.items()))
    if skew:
        parts.append(f"skewed edge {skew}: a half space goes on onto the next tile")
    return f"{face.id}: " + ", ".join(p for p in parts if p)


def missing_text(faces: list) -> str:
    """What lines and timing need of these faces and the tileset does not hold."""
    known = "; ".join(known_facts(f) for f in faces)
    gt = [f.id for f in faces if f.id[:1] == "1"]
    source = (" (Rallyman: GT faces, known from rekee's tile table; no picture of a GT tile is among the "
              "references)" if gt else "")
    text = (f"known at tile level only{source}: {known}. Missing: the spaces of each lane (how many, where they "
            "start and end), which space carries which limit, and the inside and outside paths of each corner")
    if any(f.skew for f in faces):
        text += ("; on a skewed edge the half space shared with the next tile must be given to one of the two "
                 "tiles, as a cell graph ends every road at a tile edge")
    return text


def supply_hint(stage_tileset: str | None) -> str:
    """How a user gives the missing faces their cells: a tileset of their own beside the stage."""
    base = stage_tileset or "official"
    return (f"write the faces' `cells:` in a tileset of your own beside the stage, e.g. my-tiles.yaml with "
            f"`tileset: my-tiles`, `include: [{base}]` (a bundled tileset by name) and under `tiles:` each face "
            "with its edges, links, ends and cells read from your tile (tilesets/README.md, 'Faces of your own'); "
            "then set `tileset: my-tiles` in the stage")


__all__ = ["known_facts", "missing_text", "supply_hint"]
