"""From a route and a zone box to a course: where each board lies on the table and one graph of cells in
driving order.

The first board lies at (0, 0) unturned; each join ``C3-J1`` puts J against the edge of C where road end 3 is,
turned so that its road end 1 faces it. A board crossed twice must already lie where the second join needs it.

Cells of the graph are named ``"<crossing>:<cell>"`` (``"0:D4"``); the half-cells of ART.18 add ``".1"`` / ``".2"``;
``"start"`` lies behind the start line and ``"finish"`` past the finish line. Node attributes: ``index`` (crossing),
``zone``, ``cell``, ``lane`` (road, inside, drift, cut, half), ``surface``, ``env``, ``damage``, ``limit`` (highest
gear; None: none), ``exact`` (imposed drift gear), ``corner``, ``highest`` (the corner's highest note), ``bump``,
``ford``, ``crossroads``, ``sector`` (S1-S3), ``x``/``y`` (table position in cells), ``restart`` (where the car
restarts after a loss of control). Edge ``kind``: road, rejoin (drift back to the inside line, one gear lower), switch.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import networkx as nx

from designer.core.problems import Problem
from designer.systems.classic.files.notation import Traversal, sheet_parts
from designer.systems.classic.files.zones import Box, Corner, Face, SIDES, edge_offset, parse_cell

VEC = {"N": (0, -1), "E": (1, 0), "S": (0, 1), "W": (-1, 0)}


def turn_side(side: str, rot: int) -> str:
    return SIDES[(SIDES.index(side) + rot) % 4]


def opposite(side: str) -> str:
    return turn_side(side, 2)


def turn_cell(col: int, row: int, rot: int, size: int) -> tuple[int, int]:
    """A cell's place on a board turned ``rot`` quarter turns clockwise."""
    for _ in range(rot % 4):
        col, row = size - 1 - row, col
    return col, row


@dataclass
class Placement:
    zone: str
    x: int
    y: int
    rot: int
    surface: str


@dataclass
class Course:
    route: tuple[Traversal, ...]
    box: Box
    faces: list[Face | None] = field(default_factory=list)
    placements: dict[str, Placement] = field(default_factory=dict)
    graph: nx.DiGraph | None = None
    problems: list[Problem] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """The cells are laid and can be driven in order (the graph stays for drawing a corner that cannot)."""
        return self.graph is not None and not any(p.severity == "error" for p in self.problems)


def _where(i: int, route) -> str:
    start, joins, finish = sheet_parts(route)
    if i == 0:
        return f"route: START {start}"
    return f"route: join {joins[i - 1]}"


def assemble(route, box: Box) -> Course:
    """Place the boards and build the cell graph; problems are collected, not raised."""
    course = Course(tuple(route), box)
    P = course.problems
    for i, t in enumerate(route):
        zone = box.zones.get(t.zone)
        face = None
        if zone is None:
            P.append(Problem("unknown-zone", "error", f"zone {t.zone} is not in the box {box.name}",
                             f"zones in this box: {', '.join(box.zones)}", _where(i, route)))
        else:
            face = zone.face(t.snow)
            if face is None:
                P.append(Problem("no-snow-side", "error", f"zone {t.zone} has no snow side in this box",
                                 "remove the * or add the snow face to the box", _where(i, route)))
        if face is not None:
            for n, what in ((t.entry, "enters"), (t.exit, "leaves")):
                if n not in face.ends:
                    P.append(Problem("unknown-end", "error",
                                     f"the route {what} zone {t.zone} at road end {n}, which this face does not have",
                                     f"road ends of {face.key}: {', '.join(map(str, sorted(face.ends)))}",
                                     _where(i if what == "enters" else i + 1, route) if i + 1 < len(route) or
                                     what == "enters" else "route: FINISH"))
            if t.entry in face.ends and t.exit in face.ends and face.road_between(t.entry, t.exit) is None:
                joined = sorted({e for r in face.roads for e in r.ends if t.entry in r.ends} - {t.entry})
                P.append(Problem("no-road", "error",
                                 f"no road of {face.key} leads from road end {t.entry} to road end {t.exit}",
                                 f"from {t.entry} the roads lead to {', '.join(map(str, joined)) or 'nowhere'}",
                                 f"route: crossing {i + 1} ({t.label()})"))
        course.faces.append(face)
    _check_boards(course)
    if any(p.severity == "error" for p in P):
        return course
    _place(course)
    if any(p.severity == "error" for p in P):
        return course
    course.graph = _graph(course)
    loop = restart_loop(course.graph)
    if loop:
        lost, back = loop
        P.append(Problem("corner-loop", "error",
                         f"a car that loses control on drift cell {lost} restarts on inside cell {back} (ART.26.3), "
                         f"from which a change of line leads to {lost} again: the corner cannot be driven in order",
                         "a long corner pairs its inside and drift cells as ART.26 draws them (3 inside cells, 4 "
                         "drift cells); shorten the drift lane or lengthen the inside line of this corner in the box",
                         "zones"))
    return course


def restart_loop(g: nx.DiGraph) -> tuple[str, str] | None:
    """A drift cell and its restart cell from which the road leads back to it (the cells could not be ordered
    along the road), or None."""
    h = nx.DiGraph(g.edges)
    restarts = {n: d["restart"] for n, d in g.nodes(data=True) if d.get("restart") and d["restart"] != n}
    h.add_edges_from(restarts.items())
    try:
        cycle = nx.find_cycle(h)
    except nx.NetworkXNoCycle:
        return None
    for u, v in cycle:
        if restarts.get(u) == v:
            return u, v
    return cycle[0]


def _check_boards(course: Course) -> None:
    seen: dict[str, tuple[Traversal, set]] = {}
    for i, t in enumerate(course.route):
        ends = {t.entry, t.exit}
        if t.zone in seen:
            first, used = seen[t.zone]
            if first.snow != t.snow:
                course.problems.append(Problem(
                    "mixed-sides", "error", f"zone {t.zone} is crossed on its snow side and on its other side",
                    "one board lies one side up: mark every crossing of it with * or none", f"route: crossing {i + 1}"))
            if ends & used:
                course.problems.append(Problem(
                    "same-road-twice", "error", f"zone {t.zone} is crossed twice through road end "
                    f"{', '.join(map(str, sorted(ends & used)))}", "a board is crossed a second time on another road",
                    f"route: crossing {i + 1}"))
            used |= ends
        else:
            seen[t.zone] = (t, set(ends))
    if len(seen) > 4:
        course.problems.append(Problem("too-many-zones", "error", f"the stage uses {len(seen)} boards; a stage has 1-4",
                                       "shorten the route", "route"))


def _place(course: Course) -> None:
    route, faces, size = course.route, course.faces, course.box.size
    first = route[0]
    course.placements[first.zone] = Placement(first.zone, 0, 0, 0, faces[0].surface)
    for i in range(1, len(route)):
        a, b = route[i - 1], route[i]
        fa, fb = faces[i - 1], faces[i]
        pa = course.placements.get(a.zone)
        if pa is None:
            break                       # an earlier join failed: the boards after it cannot be laid
        ea, eb = fa.ends[a.exit], fb.ends[b.entry]
        side = turn_side(ea.side, pa.rot)
        rot = (SIDES.index(opposite(side)) - SIDES.index(eb.side)) % 4
        x, y = pa.x + VEC[side][0], pa.y + VEC[side][1]
        where = f"route: join {a.zone}{a.exit}-{b.zone}{b.entry}"
        oa = edge_offset(*parse_cell(ea.cell), ea.side, size)
        ob = edge_offset(*parse_cell(eb.cell), eb.side, size)
        if oa + ob != size - 1:
            course.problems.append(Problem(
                "ends-not-facing", "error",
                f"road end {a.zone}{a.exit} ({ea.cell}, cell {oa + 1} of its edge) and road end {b.zone}{b.entry} "
                f"({eb.cell}, cell {ob + 1} of its edge) do not face each other when the boards touch",
                "join ends that sit at mirrored places of the touching edges", where))
            continue
        if b.zone in course.placements:
            pb = course.placements[b.zone]
            if (pb.x, pb.y, pb.rot) != (x, y, rot):
                course.problems.append(Problem(
                    "ends-not-facing", "error", f"zone {b.zone} already lies on the table, and its road end "
                    f"{b.entry} does not touch road end {a.zone}{a.exit} there", "choose a join that meets the board "
                    "where it lies", where))
            continue
        taken = next((p.zone for p in course.placements.values() if (p.x, p.y) == (x, y)), None)
        if taken:
            course.problems.append(Problem("boards-overlap", "error", f"zone {b.zone} would lie on top of zone {taken}",
                                           "choose other road ends so the boards do not overlap", where))
            continue
        course.placements[b.zone] = Placement(b.zone, x, y, rot, fb.surface)
    for label, t, end in (("START", route[0], route[0].entry), ("FINISH", route[-1], route[-1].exit)):
        face = faces[0] if label == "START" else faces[-1]
        p = course.placements.get(t.zone)
        if p is None:
            continue
        side = turn_side(face.ends[end].side, p.rot)
        nx_, ny = p.x + VEC[side][0], p.y + VEC[side][1]
        other = next((q.zone for q in course.placements.values() if (q.x, q.y) == (nx_, ny)), None)
        if other:
            course.problems.append(Problem("panel-blocked", "warning", f"the {label} panel at {t.zone}{end} lies against "
                                           f"zone {other}", f"the {label.lower()} is the edge of the boards (ART.3, ART.13)",
                                           f"route: {label}"))


def restart_inside(d: int, n: int, m: int) -> int:
    """The inside cell (0 to m-1) where a car restarts after losing control on drift cell ``d`` of ``n``
    beside ``m`` inside cells (ART.7.4: from the inside line; ART.26.3 for long corners: the first drift cell
    restarts from the first inside cell, the last from the last, one between them from the middle inside cell,
    or from the last when there are only two).

    >>> [restart_inside(d, 4, 3) for d in range(4)], [restart_inside(d, 3, 2) for d in range(3)]
    ([0, 1, 1, 2], [0, 1, 1])
    """
    if m <= 1 or d == 0:
        return 0
    if d == n - 1 or m == 2:
        return m - 1
    return (m - 1) // 2


def _sectors(n: int) -> list[str]:
    if n == 1:
        return ["S1"]
    if n == 2:
        return ["S1", "S2"]
    return ["S1"] + ["S2"] * (n - 2) + ["S3"]


def _oriented(face: Face, t: Traversal):
    road, reverse = face.road_between(t.entry, t.exit)
    path = tuple(reversed(road.path)) if reverse else road.path
    corners = []
    for c in road.corners:
        if reverse:
            c = Corner(tuple(reversed(c.inside)), c.note, tuple(reversed(c.drift)), c.gear, tuple(reversed(c.cut)), c.k)
        corners.append(c)
    return path, corners


def _graph(course: Course) -> nx.DiGraph:
    g = nx.DiGraph()
    size = course.box.size
    g.add_node("start", start=True, lane="start", limit=None, index=0)
    prev_exits: list[str] = ["start"]
    sectors = _sectors(len(course.route))
    for i, (t, face) in enumerate(zip(course.route, course.faces)):
        place = course.placements[t.zone]
        path, corners = _oriented(face, t)
        surface = face.surface
        cid = {c: f"{i}:{c}" for c in path}

        def add(node, cell, lane, **attrs):
            c = face.cell(cell)
            col, row = turn_cell(c.col, c.row, place.rot, size)
            base = dict(index=i, zone=t.zone, cell=cell, lane=lane, surface=surface, env=c.env,
                        damage=face.damage.get(c.env, 0), limit=None, exact=None, corner=None, highest=None,
                        bump=c.bump, ford=c.ford and surface != "snow", crossroads=c.crossroads, lanes=c.lanes,
                        sector=sectors[i], x=place.x * size + col + 0.5, y=place.y * size + row + 0.5, restart=node)
            base.update(attrs)
            g.add_node(node, **base)

        in_corner = {}
        for j, c in enumerate(corners):
            key = f"{i}:c{j}"
            for cell in c.inside:
                in_corner[cell] = (key, c)
        # entries / exits of each path position (half-cells give two ways through, ART.18)
        entries, exits = [], []
        for k, cell in enumerate(path):
            corner = in_corner.get(cell)
            attrs = {}
            if corner:
                attrs = dict(lane="inside", corner=corner[0], highest=corner[1].highest, limit=corner[1].note,
                             corner_notes=(corner[1].note, corner[1].gear, corner[1].k))
                if corner[1].note is None:
                    attrs["limit"] = 0          # a corner with no inside line: only its drift or cut is driven
            add(cid[cell], cell, attrs.pop("lane", "road"), **attrs)
            if face.cell(cell).half and not corner:
                add(cid[cell] + ".1", cell, "half", restart=cid[cell], half=1)
                add(cid[cell] + ".2", cell, "half", restart=cid[cell], half=2)
                g.add_edge(cid[cell] + ".1", cid[cell] + ".2", kind="road")
                entries.append([cid[cell], cid[cell] + ".1"])
                exits.append([cid[cell], cid[cell] + ".2"])
            else:
                entries.append([cid[cell]])
                exits.append([cid[cell]])
        for u in prev_exits:
            for v in entries[0]:
                if not (g.has_node(u + ".1") and v.endswith(".1")):     # single cell to a half-cell: no (ART.18)
                    g.add_edge(u, v, kind="road")
        for k in range(len(path) - 1):
            for u in exits[k]:
                for v in entries[k + 1]:
                    single_of_half = g.has_node(u + ".1")
                    if single_of_half and v.endswith(".1"):
                        continue            # no passing from a single cell onto a half-cell (ART.18)
                    g.add_edge(u, v, kind="road")
        for j, c in enumerate(corners):
            key = f"{i}:c{j}"
            k0 = path.index(c.inside[0])
            k1 = k0 + len(c.inside)
            before_exits, after_entries = exits[k0 - 1], entries[k1]
            before_all = before_exits + [n + ".1" for n in before_exits if g.has_node(n + ".1")]
            if c.drift:
                dn = [f"{i}:{cell}" for cell in c.drift]
                m, n = len(c.inside), len(c.drift)
                for d, cell in enumerate(c.drift):
                    add(dn[d], cell, "drift", corner=key, highest=c.highest, limit=c.gear, exact=c.gear,
                        corner_notes=(c.note, c.gear, c.k),
                        restart=cid[c.inside[restart_inside(d, n, m)]], drift=d, drift_last=(d == n - 1))
                for u in before_exits:
                    g.add_edge(u, dn[0], kind="road")
                for a, b in zip(dn, dn[1:]):
                    g.add_edge(a, b, kind="road")
                for v in after_entries:
                    g.add_edge(dn[-1], v, kind="road")
                for d in range(n - 1):
                    st = round(d * (m - 1) / (n - 1)) if n > 1 else 0
                    target = c.inside[0] if m == 1 else (c.inside[st + 1] if st + 1 < m else None)
                    if target:
                        g.add_edge(dn[d], cid[target], kind="rejoin")
                if m > 1:
                    for s in range(m - 1):
                        d = next((d for d in range(n) if round(d * (m - 1) / (n - 1)) == s + 1), None)
                        if d is not None:
                            g.add_edge(cid[c.inside[s]], dn[d], kind="switch")
            if c.cut:
                kn = [f"{i}:{cell}" for cell in c.cut]
                for cell, node in zip(c.cut, kn):
                    add(node, cell, "cut", corner=key, highest=c.highest, limit=c.k, corner_notes=(c.note, c.gear, c.k))
                for u in before_all:
                    g.add_edge(u, kn[0], kind="road")
                for a, b in zip(kn, kn[1:]):
                    g.add_edge(a, b, kind="road")
                for v in after_entries + [n + ".2" for n in after_entries if g.has_node(n + ".2")]:
                    g.add_edge(kn[-1], v, kind="road")
        prev_exits = exits[-1]
    # the die that crosses the finish line leaves the last board's road: its surface (ART.15.4, ART.24)
    g.add_node("finish", finish=True, lane="finish", limit=None, index=len(course.route) - 1,
               surface=course.faces[-1].surface)
    for u in prev_exits:
        g.add_edge(u, "finish", kind="road")
    _ahead(g)
    return g


def _ahead(g: nx.DiGraph) -> None:
    """``ahead``: the next cells along the main line (where a jump from a bump lands)."""
    rank = {"road": 0, "inside": 0, "finish": 0, "cut": 2, "drift": 3, "half": 4}
    for n in g.nodes:
        chain, cur = [], n
        for _ in range(3):
            succ = [v for v in g.successors(cur) if g.edges[cur, v].get("kind") == "road"]
            if not succ or cur == "finish":
                break
            cur = min(succ, key=lambda v: (rank.get(g.nodes[v].get("lane"), 5), v))
            chain.append(cur)
        g.nodes[n]["ahead"] = chain
