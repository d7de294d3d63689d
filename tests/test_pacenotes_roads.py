"""Pace notes on the faces with several roads (RX junctions and crossings): every bend is called the way the road
driven turns there, as its driver sees it, whatever road of the face a shared cell was marked for.

The expected calls were read from the tile pictures (shared reference, tile-<face>.png; edges A top, then
clockwise B upper right ... F upper left): the way each road turns, and the numbers printed on its route.
"""
import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Stage, loads_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.driving.bends import bend_side
from designer.systems.dirt.driving.pacenotes import pace_notes

TILESETS = ("dirt-rx", "dirt-monte-carlo", "dirt-climb", "dirt-core")
MIRROR = {"left": "right", "right": "left"}


@pytest.fixture(scope="module")
def rx():
    return get_tileset("dirt-rx")


def _stage_text(face: str, entry: str, exit_: str, tileset: str = "dirt-rx") -> str:
    return (f"stage: Demo - road {entry}-{exit_} of {face}\n"
            f"tileset: {tileset}\n"
            "tiles:\n"
            "  - 202a A\n"
            f"  - {{tile: {face}, entry: {entry}, exit: {exit_}}}\n"
            "  - 203a D\n")


def _calls(tileset, face: str, entry: str, exit_: str):
    """The notes of the junction tile of a start - face - finish stage built from YAML text."""
    track = assemble(loads_stage(_stage_text(face, entry, exit_, tileset.name), "<test>"), tileset)
    assert not track.errors and track.has_cells, (face, entry, exit_, track.errors)
    return [n for n in pace_notes(track) if n.tile == 1]


# (face, entry, exit, the calls on that tile) for each road of each several-road face of the RX box, driven
# from the road's first end. What the picture shows is in the comment of each face.
READ_FROM_PICTURES = [
    # 402a: straight main road A-D, no number on it; a branch from F meets its west lane along two lines, a 2 on
    # the upper one (the A-F hairpin) and a 4 on the lower one (F-D). From F the road turns right down to D; from
    # A it turns back sharp right up the branch.
    ("402a", "A", "D", ["Flat"]),
    ("402a", "F", "D", ["Right 4 · out 2"]),
    ("402a", "A", "F", ["Right 2 · out 4"]),
    # 402b: same layout, 1 on the upper line, 3 on the lower one.
    ("402b", "A", "D", ["Flat"]),
    ("402b", "F", "D", ["Right 3 · out 1"]),
    ("402b", "A", "F", ["Right 1 · out 3"]),
    # 403a: three-lane main road, 1 on the upper line, 4 on the lower one; same turns as 402.
    ("403a", "A", "D", ["Flat"]),
    ("403a", "F", "D", ["Right 4 · out 1"]),
    ("403a", "A", "F", ["Right 1 · out 4"]),
    # 403b: 2 upper, 3 lower.
    ("403b", "A", "D", ["Flat"]),
    ("403b", "F", "D", ["Right 3 · out 2"]),
    ("403b", "A", "F", ["Right 2 · out 3"]),
    # 404a: the branch comes from B (upper right) into the east lane: from B the road turns left down to D,
    # from A it turns back sharp left up to B. 2 upper line (A-B), 4 lower line (B-D).
    ("404a", "A", "D", ["Flat"]),
    ("404a", "B", "D", ["Left 4 · out 2"]),
    ("404a", "A", "B", ["Left 2 · out 4"]),
    # 404b: 1 upper, 3 lower.
    ("404b", "A", "D", ["Flat"]),
    ("404b", "B", "D", ["Left 3 · out 1"]),
    ("404b", "A", "B", ["Left 1 · out 3"]),
    # 405a: three-lane main road, branch from B: 1 upper, 4 lower.
    ("405a", "A", "D", ["Flat"]),
    ("405a", "B", "D", ["Left 4 · out 1"]),
    ("405a", "A", "B", ["Left 1 · out 4"]),
    # 405b: 2 upper, 3 lower.
    ("405b", "A", "D", ["Flat"]),
    ("405b", "B", "D", ["Left 3 · out 2"]),
    ("405b", "A", "B", ["Left 2 · out 3"]),
    # 406a: main road B-D bends left round the picture's centre, no number on it; a branch from C: a 1 on the
    # line towards B (B-C, a left hairpin round the island tip), a 3 on the line towards D (C-D, a left hairpin
    # round the kerb at the C/D corner).
    ("406a", "B", "D", ["Flat"]),
    ("406a", "B", "C", ["Left 1 · out 3"]),
    ("406a", "C", "D", ["Left 3 · out 1"]),
    # 406b: same, 1 and 2; the first row from B is crossed by a dashed line.
    ("406b", "B", "D", ["Slide"]),
    ("406b", "B", "C", ["Left 1 · out 2 · slide in"]),
    ("406b", "C", "D", ["Left 2 · out 1"]),
    # 407a: the bend B-D meets a hairpin C-D round the kerbed C/D corner (inside a 1 next to the kerb, outside
    # 2s) and the big cell with a 2 between them; B-D turns left through that 2 and then beside the 1; C-D is a
    # left hairpin with the 1 on its inside; B-C turns left round the island tip through the 2s, the hairpin's
    # 1 lies on the driver's right (the outside) at the C edge.
    ("407a", "B", "D", ["Left 2 tightens 1 · out 2"]),
    ("407a", "C", "D", ["Left 1 · out 2"]),
    ("407a", "B", "C", ["Left 2 · out 1"]),
    # 407b: the layout of 406 with a 1 on both lines; first row from B dashed.
    ("407b", "B", "D", ["Slide"]),
    ("407b", "B", "C", ["Left 1 · slide in"]),
    ("407b", "C", "D", ["Left 1"]),
    # 408a: mirror of 406a: main road F-D bends right, branch from E, a 1 on the line towards F (F-E, a right
    # hairpin round the island tip), a 3 on the line towards D (E-D, a right hairpin round the D/E corner).
    ("408a", "F", "D", ["Flat"]),
    ("408a", "F", "E", ["Right 1 · out 3"]),
    ("408a", "E", "D", ["Right 3 · out 1"]),
    # 408b: 1 and 2 printed (the catalogue says 3 for the second, see the face's notes); first row from F dashed.
    ("408b", "F", "D", ["Slide"]),
    ("408b", "F", "E", ["Right 1 · out 2 · slide in"]),
    ("408b", "E", "D", ["Right 2 · out 1"]),
    # 409a (mirror of 407a): the bend F-D turns right through the big 2 then beside the hairpin's 1; E-D is a
    # right hairpin round the kerbed D/E corner, 1 inside; F-E turns RIGHT round the island tip through the 2s,
    # the hairpin's 1 on the driver's left (the outside) at the E edge. It was called "Left 1 · out 2".
    ("409a", "F", "D", ["Right 2 tightens 1 · out 2"]),
    ("409a", "E", "D", ["Right 1 · out 2"]),
    ("409a", "F", "E", ["Right 2 · out 1"]),
    # 409b: the layout of 408 with a 1 on both lines; first row from F dashed.
    ("409b", "F", "D", ["Slide"]),
    ("409b", "F", "E", ["Right 1 · slide in"]),
    ("409b", "E", "D", ["Right 1"]),
    # 412a: a straight B-E with a jump 3, and beside it a hairpin C-D round the C/D corner, left from C, 2 inside
    # and 3 outside.
    ("412a", "B", "E", ["Jump 3"]),
    ("412a", "C", "D", ["Left 2 · out 3"]),
    # 412b: jump 4; hairpin 1 inside, 2 outside.
    ("412b", "B", "E", ["Jump 4"]),
    ("412b", "C", "D", ["Left 1 · out 2"]),
    # 413a: a bend A-C (left from A) with no number; a hairpin E-F round the tyres at the left corner, left
    # from E, 2 inside and 3 outside.
    ("413a", "A", "C", ["Flat"]),
    ("413a", "E", "F", ["Left 2 · out 3"]),
    # 413b: bend B-D with three dashed rows; hairpin E-F 1 inside, 2 outside, then a dashed row.
    ("413b", "B", "D", ["Slide", "Slide", "Slide"]),
    ("413b", "E", "F", ["Left 1 · out 2 · slide out"]),
    # 414a and 414b: two straight roads with jumps, no bend.
    ("414a", "A", "C", ["Jump 4"]),
    ("414a", "F", "D", ["Jump 5"]),
    ("414b", "A", "C", ["Slide", "Jump 3", "Slide"]),
    ("414b", "F", "D", ["Slide", "Jump 4", "Slide"]),
    # 415a and 415b: no picture among the references; the face's notes describe a Y round an island at the top:
    # F-D turns right, B-D left, F-B left round the island. Limits as the notes give them.
    ("415a", "F", "D", ["Right 4"]),
    ("415a", "B", "D", ["Left 4"]),
    ("415a", "F", "B", ["Left 3"]),
    ("415b", "F", "D", ["Right 3 · slide in & out"]),
    ("415b", "B", "D", ["Left 3 · slide in & out"]),
    ("415b", "F", "B", ["Left 3 · slide in & out"]),
]


def _several_road_faces():
    """(tileset, face id, road face) of every road of every face with several roads and cells, in all boxes."""
    out, seen = [], set()
    for name in TILESETS:
        ts = get_tileset(name)
        for fid, face in sorted(ts.tiles.items()):
            if fid in seen or not face.roads:
                continue
            seen.add(fid)
            out += [(name, fid, road) for road in face.road_faces()]
    return out


def test_every_road_of_every_several_road_face_is_in_the_table():
    covered = {(f, frozenset((e, x))) for f, e, x, _ in READ_FROM_PICTURES}
    roads = {(fid, frozenset(road.ends)) for _, fid, road in _several_road_faces()}
    assert roads == covered


@pytest.mark.parametrize("face,entry,exit_,calls", READ_FROM_PICTURES,
                         ids=[f"{f}-{e}{x}" for f, e, x, _ in READ_FROM_PICTURES])
def test_calls_match_the_pictures(rx, face, entry, exit_, calls):
    notes = _calls(rx, face, entry, exit_)
    assert [n.text.removeprefix("into ") for n in notes] == calls
    # The way in and out says which way a curve or a hairpin turns (entering by edge e, a road that leaves by
    # e+1 or e+2 turns left, by e-1 or e-2 right: edges run clockwise), independently of the centre line.
    gap = (hexgrid.edge_index(exit_) - hexgrid.edge_index(entry)) % 6
    for n in notes:
        if n.kind == "corner":
            assert n.direction == ("left" if gap in (1, 2) else "right"), (face, entry, exit_, n.text)


def test_the_409a_report_a_right_hairpin_called_left(rx):
    """F to E on 409a turns right round the island tip: its bend is on the driver's right, with the 2s of the
    printed route on the inside and the hairpin's 1 on the outside; the same 1 is the inside of E-D."""
    (f_e,) = [n for n in _calls(rx, "409a", "F", "E") if n.kind == "corner"]
    assert (f_e.direction, f_e.limit, f_e.outside) == ("right", 2, 1)
    (e_d,) = [n for n in _calls(rx, "409a", "E", "D") if n.kind == "corner"]
    assert (e_d.direction, e_d.limit, e_d.outside) == ("right", 1, 2)
    # The cell hi is in both bends: inside of E-D, outside of F-E.
    assert {c.split(":")[1] for c in f_e.cells} & {c.split(":")[1] for c in e_d.cells} >= {"hi", "ho1"}


@pytest.mark.parametrize("name,fid,road", _several_road_faces(),
                         ids=[f"{fid}-{road.road}" for _, fid, road in _several_road_faces()])
def test_a_bend_driven_the_other_way_turns_the_other_way(name, fid, road):
    ts = get_tileset(name)
    a, b = road.ends
    there = [n for n in _calls(ts, fid, a, b) if n.kind == "corner"]
    back = [n for n in _calls(ts, fid, b, a) if n.kind == "corner"]
    assert len(there) == len(back)
    for n, m in zip(there, reversed(back)):
        assert set(n.cells) == set(m.cells)
        assert n.direction in MIRROR and m.direction == MIRROR[n.direction]
        assert (n.limit, n.outside) == (m.limit, m.outside)


def _one_road_corners():
    """(tileset, face) of every one-road face with a corner on a curve or a hairpin, in all boxes."""
    out, seen = [], set()
    for name in TILESETS:
        for fid, face in sorted(get_tileset(name).tiles.items()):
            if fid in seen or face.roads or not face.cells or not face.ends or len(face.ends) != 2:
                continue
            seen.add(fid)
            gap = (hexgrid.edge_index(face.ends[1]) - hexgrid.edge_index(face.ends[0])) % 6
            if gap not in (0, 3) and any(c.corner for c in face.cells):
                out.append((name, fid))
    return out


@pytest.mark.parametrize("name,fid", _one_road_corners(), ids=[fid for _, fid in _one_road_corners()])
def test_on_one_road_faces_the_road_agrees_with_the_tiles_own_marks(name, fid):
    """Where a face has one road its inside/outside marks are that road's: the side the road's turn gives and
    the inside line its lanes give are the marked ones, both ways."""
    ts = get_tileset(name)
    face = ts.tiles[fid]
    a, b = face.ends
    for entry, exit_ in ((a, b), (b, a)):
        track = assemble(Stage(tileset=name, tiles=["202a A", {"tile": fid, "entry": entry, "exit": exit_},
                                                     "203a D"]), ts)
        g = track.graph
        for n in (n for n in pace_notes(track) if n.kind == "corner"):
            cells = [g.nodes[c] for c in n.cells]
            inside = [d["lane"] for d in cells if d["path"] == "inside"]
            outside = [d["lane"] for d in cells if d["path"] == "outside"]
            if inside and outside:
                assert n.direction == ("left" if min(inside) < min(outside) else "right"), (fid, entry)
            marked_inside = min(d["limit"] for d in cells if d["path"] == "inside")
            assert n.limit == marked_inside, (fid, entry, n.text)


def test_bend_side_is_none_on_a_road_straight_across(rx):
    """A kink or an S-bend: the schematic centre line cannot tell its corner's side (the marks do)."""
    track = assemble(Stage(tileset="dirt-rx", tiles=["202a A", "411a A", "203a D"]), rx)
    tile = track.tiles[1]
    assert bend_side(tile, 0.3, 0.7) is None
    assert [n.text for n in pace_notes(track) if n.tile == 1] == ["Left 3"]


JUNCTION_ROADS = [(fid, e, x) for fid, e, x, _ in READ_FROM_PICTURES]


@settings(max_examples=25, deadline=None)
@given(st.lists(st.sampled_from(JUNCTION_ROADS), min_size=1, max_size=5))
def test_a_stage_driven_backwards_mirrors_every_bend(chain):
    """A chain of junction roads driven one way and then the other: each tile's bends come back mirrored (unless
    the chain happens to close on its start, which makes it a circuit: another stage)."""
    rx = get_tileset("dirt-rx")
    ahead = Stage(tileset="dirt-rx", tiles=["202a A"] + [{"tile": f, "entry": e, "exit": x} for f, e, x in chain]
                  + ["203a D"])
    back = Stage(tileset="dirt-rx", tiles=["202a A"] + [{"tile": f, "entry": x, "exit": e}
                                                        for f, e, x in reversed(chain)] + ["203a D"])

    def bends(stage):
        out: dict[int, list[str]] = {}
        track = assemble(stage, rx)
        assume(not track.circuit and not track.errors)
        for n in pace_notes(track):
            if n.kind == "corner":
                out.setdefault(n.tile, []).append(n.direction)
        return out

    there, again = bends(ahead), bends(back)
    k = len(chain)
    assert set(there) | set(again) <= set(range(1, k + 1))
    for i in range(1, k + 1):
        assert [MIRROR[d] for d in reversed(there.get(i, []))] == again.get(k + 1 - i, [])
