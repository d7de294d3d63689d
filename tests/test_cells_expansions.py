"""The cell checks of the core box, run over every official DIRT face with cells (expansions included),
road by road: every cell lies on a way through in both directions, moves go forward only, and the cells
agree with the catalogue."""
import networkx as nx
import pytest

from designer.systems.dirt.board.tileset import EPS, get_tileset
from designer.systems.dirt.board.track import PlacedTile, build_graph

OFFICIAL = get_tileset("official")
DIRT_FACES = sorted(f for f in OFFICIAL.tiles if f[0] in "234" and f[:3] != "201")
WITH_CELLS = [f for f in DIRT_FACES if OFFICIAL.face(f).has_cells]
ROADS = [(f, r.road or "main") for f in WITH_CELLS for r in OFFICIAL.face(f).road_faces()]
# Expansion faces with a picture among the references must have cells; 416 and 417 have none.
EXPANSION = [f"{n}{s}" for n in list(range(301, 327)) + list(range(401, 416)) + [418, 419] for s in "ab"]
NO_PICTURE = [f"{n}{s}" for n in (416, 417) for s in "ab"]
# Where the printed picture and the catalogue disagree, the cells keep what the picture prints; each case
# is written in the face's notes. 408b: the picture prints 2 on the E-D hairpin line, rekee's table has 3
# (its issue #17 says the limit changed from 2 to 3 in a later print).
KNOWN_LIMIT_DISAGREEMENTS = {"408b": ({1, 2}, {1, 3})}


def _road(face_id, road_id):
    return next(r for r in OFFICIAL.face(face_id).road_faces() if (r.road or "main") == road_id)


def _single(road, reverse):
    entry = road.ends[1] if reverse else road.ends[0]
    exit_ = road.ends[0] if reverse else road.ends[1]
    face = OFFICIAL.face(road.id)
    return build_graph([PlacedTile(0, face, (0, 0), 0, entry, exit_, road=road)])


def test_faces_without_picture_stay_at_tile_level():
    for f in NO_PICTURE:
        assert not OFFICIAL.face(f).has_cells


def test_expansion_faces_read_so_far_load():
    # Every face read is in the official tileset with its cells (the list grows as readings are merged).
    read = [f for f in EXPANSION if OFFICIAL.face(f).has_cells]
    assert read, "no expansion face has cells"


@pytest.mark.parametrize("face_id", WITH_CELLS)
def test_face_agrees_with_the_catalogue(face_id):
    face = OFFICIAL.face(face_id)
    roads = face.road_faces()
    cells = {c.id: c for r in roads for c in r.cells}.values()
    limits = {c.limit for c in cells if c.limit is not None}
    if face_id in KNOWN_LIMIT_DISAGREEMENTS:
        assert (limits, set(face.features.limits)) == KNOWN_LIMIT_DISAGREEMENTS[face_id]
        assert "DISAGREEMENT" in (face.notes or "") + "".join(r.notes or "" for r in face.roads or [])
    else:
        assert limits == set(face.features.limits), "speed limits differ from the catalogue"
    cuts = {c.cut for c in cells if c.cut is not None}
    assert cuts <= ({face.features.cut} if face.features.cut is not None else set())
    if face.features.cut is not None:
        assert cuts, "the catalogue prints a cut"
    assert {c.jump for c in cells if c.jump is not None} == set(face.features.jumps)
    assert any(c.ford for c in cells) == face.features.ford
    assert any(c.climb for c in cells) == face.features.climb
    # One road per link of the catalogue, no more and no less.
    assert sorted(sorted(r.ends) for r in roads) == sorted(sorted(link) for link in face.links)
    for r in roads:
        if face.role == "start":
            assert r.start_line is not None
        if face.role == "finish":
            assert r.finish_line is not None
        if face.role is None:
            assert r.start_line is None and r.finish_line is None
    for c in cells:
        if c.corner:
            assert c.limit is not None, f"corner cell {c.id} has no limit"


@pytest.mark.parametrize("reverse", [False, True], ids=["forward", "backward"])
@pytest.mark.parametrize("face_id,road_id", ROADS)
def test_every_cell_lies_on_a_way_through(face_id, road_id, reverse):
    g = _single(_road(face_id, road_id), reverse)
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
    assert set(nx.isolates(g)) <= set(entries) & set(exits)
    assert nx.is_directed_acyclic_graph(g)


@pytest.mark.parametrize("face_id,road_id", ROADS)
def test_moves_never_go_backwards_and_corners_keep_their_path(face_id, road_id):
    for reverse in (False, True):
        g = _single(_road(face_id, road_id), reverse)
        for u, v, kind in g.edges(data="kind"):
            du, dv = g.nodes[u], g.nodes[v]
            if kind == "cut":
                assert (dv["a"] + dv["b"]) > (du["a"] + du["b"])
            else:
                assert dv["a"] > du["a"] and dv["b"] > du["b"], (u, v)
            if du["corner"] and du["corner"] == dv["corner"]:
                assert du["path"] == dv["path"], "a corner's inside and outside paths never mix"


def test_shared_spaces_of_a_junction_agree():
    for f in WITH_CELLS:
        face = OFFICIAL.face(f)
        if not face.roads:
            continue
        seen = {}
        for r in face.roads:
            for c in r.cells:
                if c.id in seen:
                    assert seen[c.id] == c.kind_facts(), (f, c.id)
                seen[c.id] = c.kind_facts()


# -- any stage of expansion tiles -----------------------------------------------------------------

from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402

from designer.systems.dirt.board.stage import Placement, Stage  # noqa: E402
from designer.systems.dirt.board.track import assemble  # noqa: E402

ROAD_CHOICES = [(f, road.ends[k], road.ends[1 - k]) for f in WITH_CELLS if OFFICIAL.face(f).role is None
                for road in OFFICIAL.face(f).road_faces() for k in (0, 1)]


@settings(max_examples=60, deadline=None)
@given(st.lists(st.sampled_from(ROAD_CHOICES), min_size=1, max_size=8))
def test_any_chain_of_faces_drives_forward_only(chain):
    """Whatever faces follow each other (lanes permitting), the cell graph has no cycle and every move
    goes forward along the road."""
    tiles = [Placement(tile="202a", entry="A")] + [Placement(tile=f, entry=e, exit=x) for f, e, x in chain]
    track = assemble(Stage(tiles=tiles, tileset="official"), OFFICIAL)
    g = track.graph
    assert nx.is_directed_acyclic_graph(g)
    for u, v in g.edges:
        assert g.nodes[v]["pos"] > g.nodes[u]["pos"], (u, v)


def test_faces_without_picture_say_so():
    for f in NO_PICTURE:
        assert "no picture" in OFFICIAL.face(f).notes
