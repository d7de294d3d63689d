"""Pace notes: what a co-driver reads out, computed from an assembled track.

One note per feature, in driving order: the start, every corner (direction and speed limits of
its inside and outside lines, with the slide rows of its tile folded in: "slide in", "slide out"),
cuts ("Cordes") with their limit, jumps with their value, fords, a "Flat" call on a road tile with
none of these, the finish and the assistance after it. Each note carries its distance in cells from
the start, measured as the fewest moves (cells entered) from a start cell, i.e. along the shortest
line to that point, and from the previous call (corner to corner: a flat call does not restart the
count); the tile it lies on; and the danger colour of that tile.

A bend is a corner of the road driven, with the cells of its tile pass that print a speed limit outside
any corner (the limits of a junction). Its direction is the way the road driven turns there, as its driver
sees it: on a curve or a hairpin, the turn of that road's centre line across the bend; its inside line is
the bend's cells on that road's inside lane (lane 0 is always the driver's left). A bend is a property of
the road, not of a cell: a cell two roads of a junction share can be on the inside of one and the outside
of the other. On a road straight across its tile (a kink, an S-bend) the tile's inside marks tell both.
In the pace-note number the speed limit is the severity: ``Left 1 · out 2`` is a corner whose
inside line may be entered in gear 1 at most and whose outside line in gear 2 at most.
When a hazard (corner, jump, ford) follows the previous one within ``close`` cells its note starts
with ``into`` (crews say "Right 4 into Right 1"); ``tightens`` and ``opens`` are kept for the limits
within one corner ("Right 3 tightens 2").

Pure functions, no drawing:

>>> from designer.systems.dirt.board.stage import Stage
>>> from designer.systems.dirt.board.tileset import get_tileset
>>> from designer.systems.dirt.board.track import assemble
>>> track = assemble(Stage(tiles=["202a A", "210b C", "203a D"]), get_tileset("dirt-core"))
>>> [n.text for n in pace_notes(track)]
['Start', 'Left 1 · out 2', 'Finish']
>>> [n.text for n in pace_notes(assemble(Stage(tiles=["202a A", "205a A", "203a A"]), get_tileset("dirt-core")))]
['Start', 'Flat', 'Finish']
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from designer.systems.dirt.driving.bends import distances, sided_bends

# Hazards with at most this many plain cells between them are linked ("into", "tightens"): two cells
# is less than one turn at any gear, so the second hazard shapes the braking for the first.
CLOSE = 2
HAZARDS = ("corner", "chicane", "jump", "ford")
# When two notes share a distance, this orders them (a corner before the cut across it).
_KIND_ORDER = {"start": 0, "flat": 1, "slide": 1, "corner": 2, "chicane": 2, "cut": 3, "jump": 4, "ford": 5,
               "finish": 6, "assistance": 7}
# Notes the "+" distance does not count from: it runs corner to corner.
_NOT_COUNTED = ("flat", "slide", "assistance")


@dataclass(frozen=True)
class PaceNote:
    """One line of the pace notes."""
    kind: str                          # start, corner, slide, cut, jump, ford, flat, finish, assistance
    text: str                          # what is read out, e.g. "into Left 3 · out 4"
    tile: int                          # 0-based index of the tile in the stage
    tile_id: str
    distance_from_start: int           # cells from the start (fewest moves to enter the feature)
    distance_from_previous: int = 0    # cells from the previous call (a flat call is not counted from)
    direction: str | None = None       # "left" / "right" for corners and cuts
    limit: int | None = None           # corner: inside limit; cut: the cut's limit
    outside: int | None = None         # corner: outside limit
    value: int | None = None           # jump: the value printed on it
    link: str | None = None            # "into" / "tightens": relation to the previous hazard
    danger: str | None = None          # danger colour of the tile (yellow, orange, red)
    length: int = 1                    # cells the feature spans on the shortest line
    slides: str | None = None          # corner: slide rows of its tile folded in ("in", "out", "in & out")
    cells: tuple[str, ...] = field(default=(), compare=False, repr=False)

    @property
    def end(self) -> int:
        return self.distance_from_start + max(self.length, 1) - 1

    def to_dict(self) -> dict:
        return {k: getattr(self, k) for k in ("kind", "text", "tile", "tile_id", "distance_from_start",
                                               "distance_from_previous", "direction", "limit", "outside",
                                               "value", "link", "danger", "length", "slides")}


# -- features ----------------------------------------------------------------------------

def _row_key(d: dict) -> tuple[int, float]:
    return (d["index"], round(d["a"], 2))


def _limit_text(limits: list[int]) -> str:
    """Inside limits in driving order: ``3`` or ``3 tightens 2`` or ``2 opens 3``."""
    seq = []
    for v in limits:
        if not seq or seq[-1] != v:
            seq.append(v)
    if len(seq) == 1:
        return str(seq[0])
    out = str(seq[0])
    for prev, v in zip(seq, seq[1:]):
        out += f" {'tightens' if v < prev else 'opens'} {v}"
    return out


def _corner_notes(track, dist) -> list[PaceNote]:
    notes = []
    for members, direction, inside_cells, outside_cells in sided_bends(track, dist):
        first = members[0][1]
        inside = [d for _, d in inside_cells if d.get("limit") is not None]
        in_limit = min((d["limit"] for d in inside), default=None)
        out_limit = min((d["limit"] for _, d in outside_cells if d.get("limit") is not None), default=None)
        start = min(dist[n] for n, _ in members)
        inside_dists = [dist[n] for n, _ in inside_cells]
        length = (max(inside_dists) - start + 1) if inside_dists else 1
        text = {"left": "Left", "right": "Right"}.get(direction, "Bend")
        if inside:
            text += " " + _limit_text([d["limit"] for d in inside])
        if out_limit is not None and out_limit != in_limit:
            text += f" · out {out_limit}"
        notes.append(PaceNote(kind="corner", text=text, tile=first["index"], tile_id=first["tile"],
                              distance_from_start=start, direction=direction, limit=in_limit,
                              outside=out_limit, danger=first.get("danger"), length=max(length, 1),
                              cells=tuple(sorted(n for n, _ in members))))
    return notes


def _group_note(kind: str, text: str, members: list[tuple[str, dict]], dist, **extra) -> PaceNote:
    """The note of a group of cells of one tile (a row, a slide), placed at its nearest cell."""
    d0 = members[0][1]
    return PaceNote(kind=kind, text=text, tile=d0["index"], tile_id=d0["tile"],
                    distance_from_start=min(dist[n] for n, _ in members), danger=d0.get("danger"),
                    cells=tuple(sorted(n for n, _ in members)), **extra)


def _row_notes(track, dist, attr: str) -> list[PaceNote]:
    """Jumps and fords: one note per row of a tile (both lanes of a row carry the symbol)."""
    g = track.graph
    rows: dict[tuple, list[tuple[str, dict]]] = {}
    for n, d in g.nodes(data=True):
        if d.get(attr) and n in dist:
            rows.setdefault(_row_key(d), []).append((n, d))
    notes = []
    for _, members in rows.items():
        if attr == "jump":
            value = min(d["jump"] for _, d in members)
            notes.append(_group_note("jump", f"Jump {value}", members, dist, value=value))
        else:
            notes.append(_group_note("ford", "Ford", members, dist))
    return notes


def _chicane_notes(track, dist) -> list[PaceNote]:
    """Chicane tokens: one note per row of a tile, with the limit a chicane sets and the lane one closes."""
    g = track.graph
    rows: dict[tuple, list[tuple[str, dict]]] = {}
    for n, d in g.nodes(data=True):
        if n in dist and any(k in ("chicane", "chicane-limit") for k in d.get("tokens", ())):
            rows.setdefault(_row_key(d), []).append((n, d))
    # a chicane that closes a space takes it out of the graph: its row is found by the space beside it
    closed: set[tuple] = set()
    for entry in g.graph.get("tokens", ()):
        cell = entry.get("cell") or ""
        if entry.get("effect") != "closed" or len(cell) < 2:
            continue
        for lane in "abc":
            node = f"{entry['tile']}:{lane}{cell[1:]}"
            if node in dist:
                key = _row_key(g.nodes[node])
                rows.setdefault(key, []).append((node, g.nodes[node]))
                closed.add(key)
                break
    notes = []
    for key, members in rows.items():
        limits = [d["limit"] for _, d in members if "chicane-limit" in d.get("tokens", ()) and d.get("limit") is not None]
        text = "Chicane" + (f" {min(limits)}" if limits else "")
        if key in closed:
            text += " · one lane closed"
        notes.append(_group_note("chicane", text, members, dist, limit=min(limits) if limits else None))
    return notes


def _slide_notes(track, dist) -> list[PaceNote]:
    g = track.graph
    rows: dict[tuple, list[tuple[str, dict]]] = {}
    for n, d in g.nodes(data=True):
        if d.get("slide") and n in dist:
            # s1a / s1b are the two halves of slide row 1 of the tile.
            rows.setdefault((d["index"], d["cell"][:-1]), []).append((n, d))
    notes = []
    for _, members in rows.items():
        notes.append(_group_note("slide", "Slide", members, dist))
    return notes


def _cut_notes(track, dist) -> list[PaceNote]:
    """One note per cut strip: the cut cells of a tile on one side of the road, with their lowest limit."""
    g = track.graph
    strips: dict[tuple, list[tuple[str, dict]]] = {}
    for n, d in g.nodes(data=True):
        if d.get("cut") is None or n not in dist:
            continue
        lanes = max(track.tiles[_tile_pos(track, d["index"])].face.lanes, 1)
        side = "left" if d["lane"] < 0 else ("right" if d["lane"] >= lanes else None)
        strips.setdefault((d["index"], side), []).append((n, d))
    notes = []
    for (index, side), members in strips.items():
        d0 = members[0][1]
        limit = min(d["cut"] for _, d in members)
        text = (f"{side.capitalize()} cut {limit}" if side else f"Cut {limit}")
        notes.append(PaceNote(kind="cut", text=text, tile=index, tile_id=d0["tile"],
                              distance_from_start=min(dist[n] for n, _ in members), direction=side,
                              limit=limit, danger=d0.get("danger"), length=len(members),
                              cells=tuple(sorted(n for n, _ in members))))
    return notes


def _tile_pos(track, index: int) -> int:
    for k, t in enumerate(track.tiles):
        if t.index == index:
            return k
    raise KeyError(index)


def _ends(track, dist) -> list[PaceNote]:
    g = track.graph
    notes = []
    starts = track.start_cells()
    if starts:
        d = g.nodes[starts[0]]
        notes.append(PaceNote(kind="start", text="Start", tile=d["index"], tile_id=d["tile"],
                              distance_from_start=0, danger=d.get("danger"), cells=tuple(sorted(starts))))
    fin = [f for f in track.finish_cells() if f in dist]
    if fin:
        best = min(dist[f] for f in fin)
        d = g.nodes[fin[0]]
        notes.append(PaceNote(kind="finish", text="Finish", tile=d["index"], tile_id=d["tile"],
                              distance_from_start=best, danger=d.get("danger"),
                              cells=tuple(sorted(fin))))
        for t in track.tiles:
            if t.face.role == "assistance":
                notes.append(PaceNote(kind="assistance", text="Assistance after the finish", tile=t.index,
                                      tile_id=t.tile, distance_from_start=best))
    return notes


def _link(notes: list[PaceNote], close: int) -> list[PaceNote]:
    """Fill distance_from_previous (from the previous call) and the 'into' links between close hazards."""
    out: list[PaceNote] = []
    prev_hazard: PaceNote | None = None
    prev: PaceNote | None = None
    for n in notes:
        gap_prev = n.distance_from_start - prev.distance_from_start if prev else 0
        link = None
        text = n.text
        if n.kind in HAZARDS and prev_hazard is not None:
            between = n.distance_from_start - prev_hazard.end - 1
            if between <= close:
                link = "into"
                text = f"{link} {text}"
        n = replace(n, distance_from_previous=max(gap_prev, 0), link=link, text=text)
        out.append(n)
        if n.kind not in _NOT_COUNTED:
            prev = n
        if n.kind in HAZARDS:
            prev_hazard = n
    return out


def _fold_slides(notes: list[PaceNote]) -> list[PaceNote]:
    """Slide rows go into the note of the corner on their tile ("slide in", "slide out"); a slide row
    on a tile without a corner keeps its own note."""
    corners: dict[int, list[int]] = {}
    for k, n in enumerate(notes):
        if n.kind == "corner":
            corners.setdefault(n.tile, []).append(k)
    sides: dict[int, set[str]] = {}
    keep = []
    for n in notes:
        if n.kind != "slide" or n.tile not in corners:
            keep.append(n)
            continue
        # The slide belongs to the nearest corner of its tile: before it ("in") or after it ("out").
        k = min(corners[n.tile], key=lambda i: abs(notes[i].distance_from_start - n.distance_from_start))
        sides.setdefault(k, set()).add("in" if n.distance_from_start < notes[k].distance_from_start else "out")
    out = []
    for n in keep:
        k = next((i for i, m in enumerate(notes) if m is n), None)
        if k in sides:
            word = " & ".join(w for w in ("in", "out") if w in sides[k])
            n = replace(n, slides=word, text=f"{n.text} · slide {word}")
        out.append(n)
    return out


def _flat_calls(track, dist, notes: list[PaceNote]) -> list[PaceNote]:
    """A "Flat" call with its danger colour on each road tile that has no note of its own."""
    has_note = {n.tile for n in notes}
    g = track.graph
    first: dict[int, tuple[int, dict]] = {}
    for node, d in g.nodes(data=True):
        if node in dist and d["index"] not in has_note:
            if d["index"] not in first or dist[node] < first[d["index"]][0]:
                first[d["index"]] = (dist[node], d)
    out = []
    for index, (distance, d) in first.items():
        out.append(PaceNote(kind="flat", text="Flat", tile=index, tile_id=d["tile"], distance_from_start=distance,
                            danger=d.get("danger")))
    return out


def pace_notes(track, close: int = CLOSE) -> list[PaceNote]:
    """The pace notes of an assembled track, in driving order (empty without a cell graph).

    Parameters
    ----------
    track : designer.systems.dirt.board.track.Track
    close : int
        Hazards with at most this many plain cells between them are linked ("into").
    """
    if not track.has_cells:
        return []
    dist = distances(track)
    notes = (_ends(track, dist) + _corner_notes(track, dist) + _row_notes(track, dist, "jump")
             + _row_notes(track, dist, "ford") + _chicane_notes(track, dist) + _slide_notes(track, dist)
             + _cut_notes(track, dist))
    notes += _flat_calls(track, dist, notes)
    notes.sort(key=lambda n: (n.distance_from_start if n.kind != "assistance" else 10 ** 9,
                              n.tile, _KIND_ORDER.get(n.kind, 9)))
    notes = _fold_slides(notes)
    # A note before the start line (cells behind the grid) cannot be reached and is not listed;
    # features after the finish line are not raced.
    finish = next((n.distance_from_start for n in notes if n.kind == "finish"), None)
    if finish is not None:
        notes = [n for n in notes if n.kind in ("finish", "assistance") or n.distance_from_start <= finish]
    return _link(notes, close)


def notes_by_tile(notes: list[PaceNote]) -> dict[int, list[PaceNote]]:
    """The notes grouped by tile index, in driving order."""
    out: dict[int, list[PaceNote]] = {}
    for n in notes:
        out.setdefault(n.tile, []).append(n)
    return out


def format_notes(notes: list[PaceNote]) -> str:
    """Plain-text pace notes, one line each: ``  12  +3  tile 4 213a  Left 1 · out 2  (red)``."""
    lines = []
    for n in notes:
        lines.append(f"{n.distance_from_start:>4} {('+' + str(n.distance_from_previous)):>4}  "
                     f"tile {n.tile + 1:<2} {n.tile_id:<5} {n.text}" + (f"  ({n.danger})" if n.danger else ""))
    return "\n".join(lines)


__all__ = ["PaceNote", "pace_notes", "distances", "stage_length", "notes_by_tile", "format_notes", "CLOSE"]
