"""The RX junction faces (402-409, 415): every move of every road joins cells that touch on the printed tile, except
the few the lane model cannot avoid (named in each face's notes), and the fastest line through each road takes the
touching ways and the printed limits of its route. The road book and the generator read a bend from the road driven.

What touches what was read from the tile pictures (shared reference, tile-<face>.png; edges A top, then clockwise
B upper right ... F upper left). Two cells touch when they share a stretch of line or a corner point (a diagonal move
goes through a corner, as on any road). Moves in and out of the slide half-cells are the slide rows' own and are not
checked here.
"""
import pytest

from designer.systems.dirt.board.stage import loads_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.book.line import cell_words, line_sides
from designer.systems.dirt.driving.lines import fastest_line
from designer.systems.dirt.generate import _tight_corners


@pytest.fixture(scope="module")
def rx():
    return get_tileset("dirt-rx")


def _pairs(text: str) -> set[frozenset]:
    return {frozenset(p.split("-")) for p in text.split()}


def _grid(lanes: str, rows: int = 3) -> set[frozenset]:
    """The cells of a main road of ``rows`` rows: beside each other, one after the other, and corner to corner."""
    out = set()
    for k in range(1, rows + 1):
        for x, y in zip(lanes, lanes[1:]):
            out.add(frozenset((f"{x}{k}", f"{y}{k}")))
            if k < rows:
                out |= {frozenset((f"{x}{k}", f"{y}{k + 1}")), frozenset((f"{y}{k}", f"{x}{k + 1}"))}
        if k < rows:
            out |= {frozenset((f"{x}{k}", f"{x}{k + 1}")) for x in lanes}
    return out


# 402-405: a straight main road A-D (a-cells the east lane, lane 0 driving A-D) and a branch of one row, u1 on the
# island side and l1 on the grass side, split by a centre line that stops short of the main road. The branch meets
# ONE lane of the main road along two lines that meet at the junction point where the first cross line starts: the
# upper line beside the top row (u1), the lower line beside the middle row (l1); the junction point is a corner of
# all four cells around it. 402 and 403b: branch from F, meeting the west lane (b); 403a: three lanes, the west one
# is c.
BRANCH_F = _grid("ab") | _pairs("u1-l1 u1-b1 u1-b2 l1-b2 l1-b1")
BRANCH_F3 = _grid("abc") | _pairs("u1-l1 u1-c1 u1-c2 l1-c2 l1-c1")
# 404 and 405: branch from B, meeting the east lane (a).
BRANCH_B = _grid("ab") | _pairs("u1-l1 u1-a1 u1-a2 l1-a2 l1-a1")
BRANCH_B3 = _grid("abc") | _pairs("u1-l1 u1-a1 u1-a2 l1-a2 l1-a1")
# 406, 407b, 408, 409b: a bend (a-cells the inner lane) and a branch whose two lines meet at the junction point J,
# the corner of a2 and a3: u1 beside a2 (upper line), l1 beside a3 (lower line), both at J; u1 also meets a1 at the
# tip of the island. The outer lane (b) touches no branch cell.
BEND = _grid("ab") | _pairs("u1-l1 u1-a2 l1-a3 u1-a3 l1-a2 u1-a1")
# 407a and 409a: o1, o2, o3 the outer lane of the bend, i1 beside o1, the big 2 cell m beside o2 (the lane line
# ending at J), co between the E (C) edge and the short line down from the island tip, and inside the arc round the
# kerbed corner the hairpin's ho1, ho2 (2s) and hi (1). The line from J to the arc, carried on, splits ho1 from ho2;
# where it meets the arc (point P) m, o3, ho1 and ho2 meet.
HAIRPIN = _pairs("o1-i1 o1-o2 o1-m i1-o2 i1-m o2-m o2-o3 m-o3 m-co m-ho1 m-ho2 co-ho1 ho1-hi ho1-ho2 ho1-o3 "
                 "ho2-hi ho2-o3")
# 415: a Y round a grass island at the top. fu/fl (F road) and bu/bl (B road) each one row; their lane lines run on
# to the centre and meet the stem coming up from D: yt at the top, yl left, yr right. 415a: the stem stands on the
# middle of d2 (d1 west, d3 east); 415b: it carries on as the D row's lane line (dw west, de east), so yl and de
# (yr and dw) meet at its foot.
Y_TOP = _pairs("fu-fl fu-yt fu-yl fl-yl fl-yt bu-bl bu-yt bu-yr bl-yr bl-yt yt-yl yt-yr yl-yr")
TOUCHING = {
    "402a": BRANCH_F, "402b": BRANCH_F, "403b": BRANCH_F, "403a": BRANCH_F3,
    "404a": BRANCH_B, "404b": BRANCH_B, "405b": BRANCH_B, "405a": BRANCH_B3,
    "406a": BEND, "406b": BEND, "407b": BEND, "408a": BEND, "408b": BEND, "409b": BEND,
    "407a": HAIRPIN, "409a": HAIRPIN,
    "415a": Y_TOP | _pairs("yl-d1 yl-d2 yr-d2 yr-d3 d1-d2 d2-d3"),
    "415b": Y_TOP | _pairs("yl-dw yl-de yr-de yr-dw dw-de"),
}
# The moves the lane model keeps between cells that do not touch, road by road (each face's notes say why: every lane
# of a road is covered and every cell lies on a way through, so a cell the road cannot use keeps its nearest way).
FORCED = {
    **{f: {"r2": _pairs("u1-a2"), "r3": _pairs("a1-u1")} for f in ("402a", "402b", "403b")},
    "403a": {"r2": _pairs("u1-a2 u1-b2"), "r3": _pairs("a1-l1 b1-u1")},
    **{f: {"r2": _pairs("u1-b2"), "r3": _pairs("b1-u1")} for f in ("404a", "404b", "405b")},
    "405a": {"r2": _pairs("u1-b2 u1-c2"), "r3": _pairs("b1-u1 c1-l1")},
    **{f: {"r2": _pairs("b2-u1"), "r3": _pairs("u1-b3")} for f in ("406a", "406b", "407b", "408a", "408b", "409b")},
    **{f: {"r1": _pairs("m-hi"), "r2": _pairs("co-o3"), "r3": _pairs("m-hi")} for f in ("407a", "409a")},
    "415a": {"r1": _pairs("fu-yr"), "r2": _pairs("bu-yl")},
}
JUNCTIONS = sorted(TOUCHING)


def _roads(rx):
    return [(f, road) for f in JUNCTIONS for road in rx.face(f).road_faces()]


def _stage(face: str, entry: str, exit_: str) -> str:
    """Start, two straights to come up to speed, the junction, a straight and the finish."""
    return (f"stage: Demo - {face} {entry}-{exit_} at speed\ntileset: dirt-rx\ntiles:\n  - 202a A\n  - 204a A\n"
            f"  - 205a A\n  - {{tile: {face}, entry: {entry}, exit: {exit_}}}\n  - 206a A\n  - 203a D\n")


def _track(rx, face, entry, exit_):
    track = assemble(loads_stage(_stage(face, entry, exit_), "<test>"), rx)
    assert not track.errors and track.has_cells, (face, entry, exit_, track.errors)
    return track


def _tile_moves(track, index: int = 3) -> set[frozenset]:
    g = track.graph
    return {frozenset((g.nodes[u]["cell"], g.nodes[v]["cell"])) for u, v, kind in g.edges(data="kind")
            if g.nodes[u]["index"] == index == g.nodes[v]["index"] and kind != "slide"}


def test_every_junction_face_is_read():
    faces = sorted(f for f, face in get_tileset("dirt-rx").tiles.items() if face.roads and len(face.links) == 3)
    assert faces == JUNCTIONS


@pytest.mark.parametrize("face", JUNCTIONS)
def test_moves_join_touching_cells_but_the_named_ones(rx, face):
    """Both ways along every road, the moves between cells that do not touch are exactly those the notes name."""
    for road in rx.face(face).road_faces():
        for entry, exit_ in (road.ends, road.ends[::-1]):
            loose = _tile_moves(_track(rx, face, entry, exit_)) - TOUCHING[face]
            assert loose == FORCED.get(face, {}).get(road.road, set()), (face, entry, exit_, loose)
        for pair in road.apart:
            assert frozenset(pair) not in TOUCHING[face], f"{face} {road.road}: {pair} touch on the tile"


# The printed limits each route must pass, read from the pictures: (face, entry, exit) -> cells of which the line
# takes at least one. Routes straight down the main road, and the outer lane of the bends of 407a/409a, print none.
PASSES = {
    **{(f, "F", "D"): {"u1", "l1"} for f in ("402a", "402b", "403a", "403b")},
    **{(f, "A", "F"): {"u1", "l1"} for f in ("402a", "402b", "403a", "403b")},
    **{(f, "B", "D"): {"u1", "l1"} for f in ("404a", "404b", "405a", "405b")},
    **{(f, "A", "B"): {"u1", "l1"} for f in ("404a", "404b", "405a", "405b")},
    **{(f, "B", "C"): {"u1", "l1"} for f in ("406a", "406b", "407b")},
    **{(f, "C", "D"): {"u1", "l1"} for f in ("406a", "406b", "407b")},
    **{(f, "F", "E"): {"u1", "l1"} for f in ("408a", "408b", "409b")},
    **{(f, "E", "D"): {"u1", "l1"} for f in ("408a", "408b", "409b")},
    # the hairpin round the island tip goes through the big 2 (m), then co or ho1 (2s); the hairpin round the kerb
    # is one corner (hi 1, or ho1 and ho2, 2s) or the outer way through co (2)
    ("409a", "F", "E"): {"m"}, ("407a", "B", "C"): {"m"},
    ("409a", "E", "D"): {"hi", "ho1", "co"}, ("407a", "C", "D"): {"hi", "ho1", "co"},
    ("415a", "F", "D"): {"yl", "yr"}, ("415a", "B", "D"): {"yl", "yr"}, ("415a", "F", "B"): {"yt"},
    ("415b", "F", "D"): {"yl"}, ("415b", "B", "D"): {"yr"}, ("415b", "F", "B"): {"yt"},
}


# The fastest lines (of the stage above) that take a move the lane model keeps between cells that do not touch:
# 403a and 405a, where the lanes cannot join the main road's branch-side lane to l1 and the move into l1 (the lower
# line's limit) comes from another lane; 409b, where both branch lines print a 1 and the outer lane's way into u1 ties
# with the inner lane's; 415a, where the B-D cell yr, entered from fu, has the limit 4 of the F-D cell yl.
LINE_TAKES = {("403a", "r3"): _pairs("a1-l1"), ("405a", "r3"): _pairs("c1-l1"), ("409b", "r2"): _pairs("b2-u1"),
              ("415a", "r1"): _pairs("fu-yr")}


def _line_on_tile(track, index: int = 3):
    line = fastest_line(track)
    assert line is not None and line.turns[-1].finished
    g = track.graph
    return [(g.nodes[n]["cell"], gear, g.nodes[n]) for n, gear in line.cell_gears() if g.nodes[n]["index"] == index]


@pytest.mark.parametrize("face,road_id", [(f, r.road) for f in JUNCTIONS for r in get_tileset("dirt-rx").face(f).road_faces()])
def test_the_fastest_line_keeps_to_the_tile(rx, face, road_id):
    road = next(r for r in rx.face(face).road_faces() if r.road == road_id)
    entry, exit_ = road.ends
    track = _track(rx, face, entry, exit_)
    on_tile = _line_on_tile(track)
    cells = [c for c, _, d in on_tile if not d.get("slide")]
    moves = {frozenset(m) for m in zip(cells, cells[1:])}
    removed = {frozenset(p) for p in road.apart}
    assert not moves & removed
    # Every move joins cells that touch, but on the roads where the lane model's kept move is as fast as or faster
    # than the touching ways (each face's notes say so).
    loose = moves - TOUCHING[face]
    assert loose == LINE_TAKES.get((face, road_id), set()), (face, entry, exit_, cells)
    assert loose <= FORCED.get(face, {}).get(road_id, set())
    for cell, gear, d in on_tile:
        if d.get("limit") is not None:
            assert gear <= d["limit"], (face, cell, gear)
    wanted = PASSES.get((face, entry, exit_), set())
    if wanted:
        assert wanted & set(cells), (face, entry, exit_, cells)
    else:
        assert not any(d.get("limit") is not None for _, _, d in on_tile), (face, entry, exit_, cells)


@pytest.mark.parametrize("face,entry,exit_", [("409a", "F", "E"), ("407a", "B", "C")])
def test_the_hairpin_round_the_island_tip_goes_through_the_big_2(rx, face, entry, exit_):
    """The reported line ran i1, o2 (gear 4), ho1 (gear 2): o2 led straight on to the hairpin's cells, which it does
    not touch. On the tile o2 touches m, and every way to the far edge goes through m and then co or ho1."""
    cells = [c for c, _, _ in _line_on_tile(_track(rx, face, entry, exit_))]
    assert "m" in cells and cells[-1] in ("co", "ho1"), cells
    assert cells.index("m") == len(cells) - 2
    moves = _tile_moves(_track(rx, face, entry, exit_))
    assert not moves & _pairs("o2-ho1 o2-hi")


@pytest.mark.parametrize("face,entry,exit_,inside,outside", [
    ("409a", "F", "E", {"m", "co"}, {"hi", "ho1"}),      # right hairpin round the island tip: hi on the driver's left
    ("407a", "B", "C", {"m", "co"}, {"hi", "ho1"}),      # its mirror, a left hairpin: hi on the driver's right
    ("409a", "E", "D", {"hi"}, {"ho1", "ho2"}),          # the hairpin round the kerb: hi is its inside
    ("407a", "C", "D", {"hi"}, {"ho1", "ho2"}),
])
def test_the_book_calls_the_inside_line_from_the_road_driven(rx, face, entry, exit_, inside, outside):
    track = _track(rx, face, entry, exit_)
    words = {track.graph.nodes[n]["cell"]: cell_words(track, n) for n in track.graph if n.startswith("3:")}
    for cell in inside:
        assert words[cell].endswith("(inside line)"), words[cell]
    for cell in outside:
        assert words[cell].endswith("(outside line)"), words[cell]
    # the shared cell keeps the mark of the hairpin round the kerb in every road: the words do not follow it
    assert track.graph.nodes["3:hi"]["path"] == "inside"
    # the table of the book works them out once for the whole track: the same words
    sides = line_sides(track)
    assert all(cell_words(track, n, sides) == cell_words(track, n) for n in track.graph if n.startswith("3:"))


def test_cells_off_any_bend_carry_no_line(rx):
    track = _track(rx, "409a", "F", "D")
    assert "line)" not in cell_words(track, "3:o2")
    assert "line)" not in cell_words(track, "1:a1")


@pytest.mark.parametrize("face,entry,exit_,tight", [
    ("402a", "A", "F", 1),      # the hairpin branch prints its 2 on a cell without an inside mark
    ("402a", "F", "D", 0),      # 4 on the inside of F-D, the 2 is its outside
    ("406a", "B", "C", 1),
    ("409a", "F", "E", 1),      # one bend (inside 2), not the hairpin's 1 marked inside, which is its outside
    ("409a", "F", "D", 1),      # through m, then beside hi: 2 tightens 1
    ("415a", "F", "B", 0),      # a 3
])
def test_the_generator_counts_tight_bends_of_the_road_driven(rx, face, entry, exit_, tight):
    assert _tight_corners(_track(rx, face, entry, exit_)) == tight


# -- the `apart` key of the tileset format ------------------------------------------------------------------------

_FACE = """tileset: demo-apart
system: dirt
tiles:
  '901a':
    edges: {A: 2, D: 2}
    links: [[A, D]]
    ends: [A, D]
    cells:
      - {id: a1, lane: 0, span: [0.0, 0.5]}
      - {id: a2, lane: 0, span: [0.5, 1.0]}
      - {id: b1, lane: 1, span: [0.0, 0.5]}
      - {id: b2, lane: 1, span: [0.5, 1.0]}
    apart: APART
"""


def _demo_face(tmp_path, apart: str):
    from designer.systems.dirt.board.tileset import load_tileset

    path = tmp_path / "demo-apart.yaml"
    path.write_text(_FACE.replace("APART", apart))
    return load_tileset(path).face("901a")


@pytest.mark.parametrize("reverse", [False, True])
def test_apart_removes_the_move_both_ways(tmp_path, reverse):
    from designer.systems.dirt.board.track import PlacedTile, build_graph

    face = _demo_face(tmp_path, "[[a1, b2]]")
    entry, exit_ = ("D", "A") if reverse else ("A", "D")
    g = build_graph([PlacedTile(0, face, (0, 0), 0, entry, exit_)])
    moves = {frozenset((u.split(":")[1], v.split(":")[1])) for u, v in g.edges}
    assert moves == _pairs("a1-a2 b1-b2 b1-a2")          # the diagonal a1 - b2 is gone, driven either way


@pytest.mark.parametrize("apart", ["[[a1, zz]]", "[[a1, a1]]"])
def test_apart_names_two_cells_of_the_road(tmp_path, apart):
    from designer.core.errors import DesignerError

    with pytest.raises(DesignerError) as err:
        _demo_face(tmp_path, apart)
    assert "apart" in str(err.value) and "demo-apart.yaml" in str(err.value)


def test_a_face_with_apart_still_checks_its_lanes(tmp_path):
    from designer.core.errors import DesignerError

    path = tmp_path / "demo-apart.yaml"
    path.write_text(_FACE.replace("APART", "[[a2, b2]]").replace("{id: a1, lane: 0,", "{id: a1, lane: 3,"))
    from designer.systems.dirt.board.tileset import load_tileset

    with pytest.raises(DesignerError) as err:
        load_tileset(path)
    assert "cell a1 is in lane 3" in str(err.value)
