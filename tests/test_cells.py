"""The cell graphs of the DIRT core box agree with the catalogue and drive in both directions."""
import networkx as nx
import pytest

from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.tileset import EPS
from designer.systems.dirt.board.track import PlacedTile, assemble, build_graph
from tests.conftest import STAGE_FILES

CORE = [f"{n}{s}" for n in range(201, 233) for s in "ab"]


def test_every_core_face_has_cells(dirt):
    assert sorted(dirt.tiles) == sorted(CORE)
    assert all(dirt.face(f).has_cells for f in CORE)


@pytest.mark.parametrize("face_id", CORE)
def test_face_agrees_with_its_tile_level_facts(dirt, face_id):
    face = dirt.face(face_id)
    assert set(face.ends) <= set(face.edges)
    if face.role != "assistance":
        assert sorted(face.ends) == sorted(face.links[0])
    cells = face.cells
    limits = {c.limit for c in cells if c.limit is not None}
    assert limits == set(face.features.limits), "speed limits differ from the catalogue"
    cuts = {c.cut for c in cells if c.cut is not None}
    assert cuts == ({face.features.cut} if face.features.cut is not None else set())
    jumps = {c.jump for c in cells if c.jump is not None}
    assert jumps == set(face.features.jumps)
    assert any(c.ford for c in cells) == face.features.ford
    assert (face.start_line is not None) == (face.role == "start")
    assert (face.finish_line is not None) == (face.role == "finish")
    for c in cells:
        if c.corner:
            assert c.limit is not None, f"corner cell {c.id} has no limit"
        for other in c.connects:
            assert not next(x for x in cells if x.id == other).corner, "cuts never connect corner cells"


def _single(face, reverse):
    entry = face.ends[1] if reverse else face.ends[0]
    exit_ = face.ends[0] if reverse else face.ends[1]
    return build_graph([PlacedTile(0, face, (0, 0), 0, entry, exit_)])


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "backward"])
@pytest.mark.parametrize("face_id", [f for f in CORE if not f.startswith("201")])
def test_every_cell_lies_on_a_way_through(dirt, face_id, reverse):
    g = _single(dirt.face(face_id), reverse)
    entries = [n for n, d in g.nodes(data=True) if d["a"] < EPS and d["cut"] is None]
    exits = [n for n, d in g.nodes(data=True) if d["b"] > 1 - EPS and d["cut"] is None]
    assert entries and exits
    reach_in = set(entries)
    for e in entries:
        reach_in |= nx.descendants(g, e)
    reach_out = set(exits)
    for e in exits:
        reach_out |= nx.ancestors(g, e)
    assert set(g) - reach_in == set(), "cells no one can drive into"
    assert set(g) - reach_out == set(), "cells that lead nowhere"
    # A cell is alone only when it runs across the whole tile (the inside of some hairpins).
    assert set(nx.isolates(g)) <= set(entries) & set(exits)
    assert nx.is_directed_acyclic_graph(g)


@pytest.mark.parametrize("face_id", [f for f in CORE if not f.startswith("201")])
def test_moves_never_go_backwards_or_sideways(dirt, face_id):
    for reverse in (False, True):
        g = _single(dirt.face(face_id), reverse)
        for u, v, kind in g.edges(data="kind"):
            du, dv = g.nodes[u], g.nodes[v]
            if kind == "cut":
                assert (dv["a"] + dv["b"]) > (du["a"] + du["b"])
            else:
                assert dv["a"] > du["a"] and dv["b"] > du["b"], (u, v)
            if du["corner"] and du["corner"] == dv["corner"]:
                assert du["path"] == dv["path"], "a corner's inside and outside paths never mix"


@pytest.mark.parametrize("path", STAGE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_rulebook_stage_is_one_connected_graph(dirt, path):
    track = assemble(load_stage(path), dirt)
    g = track.graph
    starts, finishes = track.start_cells(), track.finish_cells()
    assert len(starts) == 2 and len(finishes) == 2
    reach = set(starts)
    for s in starts:
        reach |= nx.descendants(g, s)
    assert set(finishes) <= reach
    # Every cell from the start line on is on some way from the start to the finish (cells behind
    # the start grid and past the finish excepted).
    back = set(finishes)
    for f in finishes:
        back |= nx.ancestors(g, f)
    first = min(g.nodes[s]["pos"] for s in starts)
    last = max(g.nodes[f]["pos"] for f in finishes)
    core = {n for n, d in g.nodes(data=True) if first <= d["pos"] <= last}
    assert core <= reach & back


def test_slides_are_two_half_cells(dirt):
    face = dirt.face("227a")
    assert face.slides
    g = _single(face, False)
    halves = [n for n, d in g.nodes(data=True) if d["slide"]]
    assert len(halves) == 2 * len(face.slides)
    for k in range(1, len(face.slides) + 1):
        assert g.has_edge(f"0:s{k}a", f"0:s{k}b")


def test_corners_keep_their_path(dirt):
    g = _single(dirt.face("210a"), False)
    inside = [n for n, d in g.nodes(data=True) if d["path"] == "inside"]
    outside = [n for n, d in g.nodes(data=True) if d["path"] == "outside"]
    assert inside and outside
    assert not any(g.has_edge(a, b) or g.has_edge(b, a) for a in inside for b in outside)
