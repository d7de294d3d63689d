"""Structural checks of a face's cell graph, run when a tileset is read: every lane covered from end to end
without gap or overlap, cell ids unique, cuts joined to cells that exist, and for a face with several roads each
road on its own and the spaces roads share (:mod:`designer.systems.dirt.board.tileset` calls them from its schema).
"""
from __future__ import annotations

EPS = 0.015            # spans along the road are fractions of the tile: closer than this counts as touching


def road_problems(face, road_face) -> list[str]:
    """Problems of a several-road face: each road on its own (``road_face(face, road)`` gives its face), and the
    spaces roads share."""
    problems: list[str] = []
    ids = [r.id for r in face.roads or []]
    if len(set(ids)) != len(ids):
        problems.append(f"road ids used twice: {', '.join(sorted({i for i in ids if ids.count(i) > 1}))}")
    pairs = set()
    shared: dict[str, tuple[str, dict]] = {}
    for road in face.roads or []:
        for e in road.ends:
            if e not in face.edges:
                problems.append(f"road {road.id}: {e} is not a road edge of {face.id}")
        pair = frozenset(road.ends)
        if pair in pairs:
            problems.append(f"road {road.id}: two roads join {road.ends[0]} and {road.ends[1]}")
        pairs.add(pair)
        if set(road.ends) <= set(face.edges):
            sub = road_face(face, road)
            problems += [f"road {road.id}: {p}" for p in cell_problems(sub)]
        for c in road.cells:
            facts = c.kind_facts()
            if c.id in shared and shared[c.id][0] != road.id and shared[c.id][1] != facts:
                problems.append(f"cell {c.id} is in roads {shared[c.id][0]} and {road.id} with different facts "
                                "(a shared space has the same limit, corner, cut, jump, ford, width and climb)")
            shared.setdefault(c.id, (road.id, facts))
    links = {frozenset(link) for link in face.links}
    if face.links and pairs and not pairs <= links:
        extra = [sorted(p) for p in pairs - links]
        problems.append(f"roads {extra} are not links of {face.id} in the catalogue")
    return problems


def cell_problems(face) -> list[str]:
    """Structural problems of a face's cells (coverage of each lane, ids, references)."""
    problems: list[str] = []
    cells = face.cells or []
    ids = [c.id for c in cells]
    dup = {i for i in ids if ids.count(i) > 1}
    if dup:
        problems.append(f"cell ids used twice: {', '.join(sorted(dup))}")
    known = set(ids)
    lanes = 1 if face.role == "assistance" else face.lanes
    for c in cells:
        for other in c.connects:
            if other not in known:
                problems.append(f"cut {c.id} connects to unknown cell {other}")
        if c.is_cut and not c.connects:
            problems.append(f"cut {c.id} connects to no cell")
        if not c.is_cut and not (0 <= c.lane and c.lane + c.width - 1 < max(face.lanes, 1)):
            problems.append(f"cell {c.id} is in lane {c.lane}" + (f" (width {c.width})" if c.width > 1 else "")
                            + f"; lanes are 0..{face.lanes - 1}")
    for pair in face.apart:
        if len(set(pair)) != 2 or not set(pair) <= known:
            problems.append(f"apart: {list(pair)} must name two different cells of the road")
    for lane in range(max(lanes, 1)):
        spans = sorted(c.span for c in cells if c.lane <= lane <= c.lane + c.width - 1 and not c.is_cut)
        pos = 0.0
        for a, b in spans:
            if abs(a - pos) > EPS:
                problems.append(f"lane {lane} has a {'gap' if a > pos else 'overlap'} at {pos:g}")
                break
            pos = b
        if abs(pos - 1.0) > EPS and spans:
            problems.append(f"lane {lane} stops at {pos:g} instead of 1")
        if not spans and face.role != "assistance":
            problems.append(f"lane {lane} has no cells")
    return problems
