import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.driving.bends import distances, stage_length
from designer.systems.dirt.driving.pacenotes import PaceNote, format_notes, notes_by_tile, pace_notes
from tests.conftest import ROOT, STAGE_FILES


def notes_of(dirt, tiles):
    return pace_notes(assemble(Stage(tiles=tiles), dirt))


def track_of(path, dirt):
    return assemble(load_stage(path), dirt)


def test_hairpin_left_with_inside_and_outside_limits(dirt):
    # 210b driven C -> D is a left hairpin: inside (lane 0) limit 1, outside limit 2.
    notes = notes_of(dirt, ["202a A", "210b C", "203a D"])
    assert [n.kind for n in notes] == ["start", "corner", "finish"]
    corner = notes[1]
    assert corner.direction == "left" and corner.limit == 1 and corner.outside == 2
    assert corner.text == "Left 1 · out 2"
    assert corner.tile == 1 and corner.tile_id == "210b" and corner.danger == "yellow"


def test_driving_a_curve_the_other_way_turns_the_other_way(dirt):
    # 227a's road runs B -> D turning left; entered by D it turns right.
    left = [n for n in notes_of(dirt, ["202a A", "227a B"]) if n.kind == "corner"]
    right = [n for n in notes_of(dirt, ["202a A", "227a D"]) if n.kind == "corner"]
    assert left[0].direction == "left" and right[0].direction == "right"
    assert left[0].limit == right[0].limit == 4 and left[0].outside == right[0].outside == 5


def test_rally_1_ss1_pace_notes(dirt):
    track = track_of(ROOT / "stages/dirt/rally-1/ss1.yaml", dirt)
    notes = pace_notes(track)
    corners = [(n.tile + 1, n.tile_id, n.text) for n in notes if n.kind == "corner"]
    assert corners == [
        (2, "210b", "Left 1 · out 2"),
        (4, "227a", "Right 4 · out 5 · slide in & out"),
        (5, "213a", "into Right 1 · out 2 · slide in & out"),   # separate corners: "into", never "tightens"
        (7, "216a", "Right 2 · out 3"),
        (8, "219a", "into Left 2 · out 3 · slide in & out"),    # two cells after the right 2
        (9, "217a", "Right 2 · out 3 · slide in & out"),
    ]
    assert notes[0].text == "Start" and notes[0].distance_from_start == 0
    assert notes[-2].kind == "finish" and notes[-2].distance_from_start == 26
    assert notes[-1].kind == "assistance"
    assert {n.danger for n in notes if n.tile_id == "213a"} == {"red"}
    # The whole sheet, as read out: distance from the start, from the previous call, and the note.
    assert [(n.distance_from_start, n.distance_from_previous, n.text.split(" · slide")[0]) for n in notes] == [
        (0, 0, "Start"), (3, 3, "Left 1 · out 2"), (4, 1, "Flat"),
        (8, 5, "Right 4 · out 5"), (11, 3, "into Right 1 · out 2"), (13, 2, "Flat"),
        (16, 5, "Right 2 · out 3"), (19, 3, "into Left 2 · out 3"), (23, 4, "Right 2 · out 3"),
        (26, 3, "Finish"), (26, 0, "Assistance after the finish"),
    ]
    assert not [n for n in notes if n.kind == "slide"]          # folded into their corners


def test_tiles_without_features_get_a_flat_call_with_their_colour(dirt):
    notes = notes_of(dirt, ["202a A", "205a A", "209a D", "203a A"])
    flats = [(n.tile_id, n.danger) for n in notes if n.kind == "flat"]
    assert flats == [("205a", "yellow"), ("209a", dirt.face("209a").danger)]
    # Every road tile has at least one note.
    assert {n.tile for n in notes} == {0, 1, 2, 3}


def test_into_links_close_corners_on_different_tiles(dirt):
    for path in STAGE_FILES:
        for n in pace_notes(track_of(path, dirt)):
            assert not n.text.startswith("tightens"), (path, n.text)
            if " tightens " in n.text or " opens " in n.text:
                assert n.kind == "corner"                      # only within one corner's own limits


def test_jumps_fords_and_cuts(dirt):
    ss2 = pace_notes(track_of(ROOT / "stages/dirt/rally-5/ss2.yaml", dirt))
    jumps = [(n.tile_id, n.value, n.text) for n in ss2 if n.kind == "jump"]
    assert jumps == [("204b", 3, "into Jump 3"), ("205b", 4, "into Jump 4")]
    ss1 = pace_notes(track_of(ROOT / "stages/dirt/rally-5/ss1.yaml", dirt))
    fords = [n.tile_id for n in ss1 if n.kind == "ford"]
    assert fords == ["208b", "207b"]
    on_207b = [n.kind for n in ss1 if n.tile_id == "207b"]
    assert on_207b == ["ford", "jump"]                # the ford row comes first in driving order
    ss3 = pace_notes(track_of(ROOT / "stages/dirt/rally-5/ss3.yaml", dirt))
    cuts = [n for n in ss3 if n.kind == "cut"]
    assert [(c.tile_id, c.limit, c.direction, c.text) for c in cuts] == [("217b", 3, "left", "Left cut 3")]
    # A cut split in two cells (224b) is one note.
    r3 = pace_notes(track_of(ROOT / "stages/dirt/rally-3/ss2.yaml", dirt))
    assert [(n.tile_id, n.length) for n in r3 if n.kind == "cut" and n.tile_id == "224b"] == [("224b", 2)]


@pytest.mark.parametrize("path", STAGE_FILES, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_invariants_on_rulebook_stages(path, dirt):
    track = track_of(path, dirt)
    notes = pace_notes(track)
    assert notes[0].kind == "start"
    finish = [n for n in notes if n.kind == "finish"]
    assert len(finish) == 1 and finish[0].distance_from_start == stage_length(track)
    raced = [n for n in notes if n.kind != "assistance"]
    d = [n.distance_from_start for n in raced]
    assert d == sorted(d)
    counted = [n for n in raced if n.kind not in ("flat", "slide")]
    for n in raced[1:]:
        prev = [m for m in counted if m is not n and m.distance_from_start <= n.distance_from_start
                and raced.index(m) < raced.index(n)][-1]
        assert n.distance_from_previous == n.distance_from_start - prev.distance_from_start
    # Every road tile is called at least once (a flat call where it has no feature).
    road = {t.index for t in track.road_tiles}
    assert road <= {n.tile for n in notes}
    # Every corner and every limit of the stage is read out, on its own tile.
    corner_keys = {d["corner"] for _, d in track.graph.nodes(data=True) if d.get("corner")}
    assert len([n for n in notes if n.kind == "corner"]) == len(corner_keys)
    for n in notes:
        if n.kind == "corner":
            assert n.direction in ("left", "right") and n.limit is not None and n.limit <= (n.outside or 9)
            assert all(track.graph.nodes[c]["index"] == n.tile for c in n.cells)
        if n.link:
            assert n.text.startswith(n.link + " ") and n.kind in ("corner", "jump", "ford")
    assert sum(len(v) for v in notes_by_tile(notes).values()) == len(notes)


def test_length_matches_the_shortest_line(dirt):
    L = pytest.importorskip("designer.systems.dirt.driving.lines")
    for path in STAGE_FILES:
        track = track_of(path, dirt)
        assert stage_length(track) == L.shortest_line(track).length, path


def test_distances_start_at_zero_and_grow_by_one(dirt):
    track = track_of(STAGE_FILES[0], dirt)
    dist = distances(track)
    assert all(dist[s] == 0 for s in track.start_cells())
    for u, v in track.graph.edges:
        if u in dist:
            assert dist[v] <= dist[u] + 1


def test_no_cells_no_notes(official):
    track = assemble(Stage(tileset="official", tiles=["101a A", "102a D"]), official)
    assert pace_notes(track) == [] and stage_length(track) is None


def test_format_and_dict(dirt):
    notes = notes_of(dirt, ["202a A", "210b C", "203a D"])
    text = format_notes(notes)
    assert text.splitlines()[1].split() == ["3", "+3", "tile", "2", "210b", "Left", "1", "·", "out", "2", "(yellow)"]
    d = notes[1].to_dict()
    assert d["kind"] == "corner" and d["distance_from_start"] == 3 and "cells" not in d
    assert isinstance(notes[1], PaceNote)


FACES = None


def _faces(dirt):
    global FACES
    if FACES is None:
        FACES = sorted(f.id + " " + e for f in dirt.tiles.values() if f.has_cells and f.role is None
                       for e in f.edges)
    return FACES


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(data=st.data())
def test_any_chain_of_tiles_gives_ordered_notes(dirt, data):
    """Any stage built from core faces (even one that overlaps itself) gives notes in driving order."""
    middle = data.draw(st.lists(st.sampled_from(_faces(dirt)), min_size=0, max_size=8))
    tiles = ["202a A", *middle, "203a A"]
    track = assemble(Stage(tiles=tiles), dirt)
    notes = pace_notes(track)
    d = [n.distance_from_start for n in notes if n.kind != "assistance"]
    assert d == sorted(d)
    assert all(n.distance_from_previous >= 0 for n in notes)
    assert all(0 <= n.tile < len(tiles) for n in notes)


def test_chicane_tokens_are_called_not_flat():
    """A chicane token on a straight tile is a call of its own (with its limit, or the lane it closes)."""
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.track import load_track
    from designer.systems.dirt.driving.pacenotes import pace_notes

    track = load_track(load_stage("stages/dirt/expansions/tokens-demo.yaml"))
    notes = pace_notes(track)
    on_205 = [n.text for n in notes if n.tile_id == "205a"]
    assert "Flat" not in on_205
    assert any(t.endswith("Chicane 2") for t in on_205)
    assert any("one lane closed" in t for t in on_205)
    assert all(":" not in t for t in on_205)           # no internal cell id
