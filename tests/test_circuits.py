"""Circuits: a road that closes on its start-finish tile is recognised, validated as a circuit, drawn,
analysed lap by lap, and survives the other editors' formats with its RX tokens."""
import json

import networkx as nx
import pytest

from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.render import stage_svg
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.tokens import add_token
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate
from designer.systems.dirt.driving.lines import fastest_line
from designer.systems.dirt.io.rekee import export_rekee, import_rekee
from designer.systems.dirt.io.rgt import export_rgt, import_rgt
from tests.conftest import ROOT

RX = ROOT / "stages" / "dirt" / "expansions" / "rx-circuit-demo.yaml"


@pytest.fixture(scope="module")
def rx():
    stage = load_stage(RX)
    return stage, get_tileset(stage.tileset)


def test_circuit_is_recognised_and_valid(rx):
    stage, ts = rx
    track = assemble(stage, ts)
    assert track.circuit
    problems = validate(stage, ts)
    codes = {p.code for p in problems}
    assert not [p for p in problems if p.severity == "error"]
    assert "circuit" in codes and not codes & {"no-finish", "open-road", "road-crossing"}


def test_one_lap_runs_from_the_line_back_to_it(rx):
    stage, ts = rx
    g = assemble(stage, ts).graph
    starts = [n for n, d in g.nodes(data=True) if d["start"]]
    finishes = [n for n, d in g.nodes(data=True) if d["finish"]]
    assert starts and finishes
    # The start cells are on the first tile, the finish cells on the same tile driven again at the lap's end.
    assert {g.nodes[n]["index"] for n in starts} == {g.nodes[n]["index"] for n in finishes} == {0}
    assert {n.split(":")[0] for n in finishes} == {str(len(stage.tiles))}
    assert nx.is_directed_acyclic_graph(g)
    assert any(nx.has_path(g, s, f) for s in starts for f in finishes)


def test_laps_are_a_parameter(rx):
    stage, ts = rx
    one = fastest_line(assemble(stage, ts))
    two_track = assemble(stage.model_copy(update={"laps": 2}), ts)
    two = fastest_line(two_track)
    assert two is not None and one.seconds < two.seconds <= 2 * one.seconds
    assert two_track.graph.number_of_nodes() > assemble(stage, ts).graph.number_of_nodes()
    info = {p.code: p for p in validate(stage.model_copy(update={"laps": 2}), ts)}
    assert "2 laps" in info["circuit"].hint


def test_analysis_says_what_it_leaves_out(rx):
    stage, ts = rx
    result = analyze(assemble(stage, ts), expected=False)
    assert result["stage"]["circuit"] is True and result["stage"]["laps"] == 1
    assert any("joker" in n for n in result["notes"])


def test_an_open_loop_gets_a_circuit_hint(rx):
    stage, ts = rx
    cut = stage.with_tiles(stage.tiles[:-1])
    problems = {p.code: p for p in validate(cut, ts)}
    assert not assemble(cut, ts).circuit
    assert "no-finish" in problems and "start-finish tile" in problems["no-finish"].hint


def test_circuit_is_drawn_with_its_line(rx):
    stage, ts = rx
    track = assemble(stage, ts)
    line = fastest_line(track)
    svg = stage_svg(track, lines={"fastest": line.cell_gears()})
    assert svg.count("<polyline") == 1 and "START/FINISH" in svg


def test_circuit_with_rx_tokens_survives_both_formats(rx):
    stage, ts = rx
    stage = add_token(stage, 2, "joker-entrance", at=(0.3, 0.1))
    stage = add_token(stage, 5, "joker-exit", at=(-0.2, 0.0))
    stage = add_token(stage, 0, "finish", at=(0.0, 0.0), dir=3)
    official = get_tileset("official")
    for export, imp in ((export_rgt, import_rgt), (export_rekee, import_rekee)):
        text = export(stage, official)
        again = imp(text, official)
        assert again.tileset == "dirt-rx"
        assert sorted(t.kind for p in again.tiles for t in p.tokens) == ["finish", "joker-entrance", "joker-exit"]
        assert assemble(again, official).circuit
        assert not [p for p in validate(again, official) if p.severity == "error"]
    data = json.loads(export_rgt(stage, official))
    assert {t["TokenId"] for row in data["Tuiles"] for t in row.get("Tokens", [])} == {"greendoor", "reddoor", "whitedoor"}


def test_tiles_after_the_lap_are_placed_but_not_driven(rx):
    from designer.core import hexgrid
    from designer.systems.dirt.board.stage import Placement

    stage, ts = rx
    track = assemble(stage, ts)
    junction = track.tiles[2]                         # 405a: its branch B is not driven
    w = hexgrid.rotate_edge("B", junction.rotation)
    spare = Placement(tile="205a", at=hexgrid.neighbour(junction.hex, w),
                      rotation=(hexgrid.edge_index(hexgrid.opposite(w)) - hexgrid.edge_index("A")) % 6)
    longer = stage.with_tiles(list(stage.tiles) + [spare])
    again = assemble(longer, ts)
    assert again.circuit and [t.tile for t in again.off_lap()] == ["205a"]
    problems = validate(longer, ts)
    assert not [p for p in problems if p.severity == "error"]
    assert "off-lap" in {p.code for p in problems}
    assert fastest_line(again).seconds == fastest_line(track).seconds


def test_an_ice_loop_from_a_start_tile_is_a_circuit():
    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "ice-circuit-demo.yaml")
    ts = get_tileset(stage.tileset)
    track = assemble(stage, ts)
    assert track.circuit
    assert "circuit" in {p.code for p in validate(stage, ts)}
    assert {track.graph.nodes[n]["index"] for n in track.finish_cells()} == {0}
    two = fastest_line(assemble(stage.model_copy(update={"laps": 2}), ts))
    assert two.seconds > fastest_line(track).seconds


JOKER = ROOT / "stages" / "dirt" / "expansions" / "rx-joker-demo.yaml"


@pytest.fixture(scope="module")
def joker():
    stage = load_stage(JOKER)
    return stage, get_tileset(stage.tileset)


def test_a_lap_closes_through_a_junction_with_the_grid_before_it(joker):
    stage, ts = joker
    track = assemble(stage, ts)
    assert track.circuit and track.lap.through_junction
    assert [t.tile for t in track.lap.spur] == ["401b"] and track.lap.loop[0].tile == "402a"
    assert track.lap.closing.entry != track.lap.loop[0].entry
    problems = validate(stage, ts)
    assert not [p for p in problems if p.severity == "error"]
    assert {"circuit", "joker"} <= {p.code for p in problems}
    g = track.graph
    assert nx.is_directed_acyclic_graph(g)
    starts, finishes = track.start_cells(), track.finish_cells()
    assert {g.nodes[n]["tile"] for n in starts} == {"401b"}
    assert {g.nodes[n]["tile"] for n in finishes} == {"402a"}
    assert any(nx.has_path(g, s, f) for s in starts for f in finishes)
    # Cell positions grow along the road (the turn model drives forwards only).
    assert all(g.nodes[v]["pos"] >= g.nodes[u]["pos"] - 1e-9 for u, v in g.edges if g.edges[u, v]["kind"] != "cut")


def test_the_joker_is_driven_on_one_lap_and_named(joker):
    from designer.systems.dirt.driving.laps import lap_times

    stage, ts = joker
    track = assemble(stage, ts)
    assert [t.tile for t in track.joker_tiles()] == ["210a"] and not track.off_lap()
    tiles_driven = {d["tile"] for _, d in track.graph.nodes(data=True)}
    assert "210a" in tiles_driven
    none = assemble(stage.model_copy(update={"joker_lap": 0}), ts)
    assert "210a" not in {d["tile"] for _, d in none.graph.nodes(data=True)}
    first = assemble(stage.model_copy(update={"joker_lap": 1}), ts)
    assert "210a" in {d["tile"] for _, d in first.graph.nodes(data=True)}
    laps = lap_times(track)
    assert laps["joker_route"] and laps["joker_lap"] == 3 and laps["lap_seconds"] > 0
    assert laps["joker_lap_seconds"] > 0
    assert laps["race_seconds_without_joker"] == fastest_line(none).seconds
    result = analyze(track, expected=False)
    assert result["laps"]["lap_seconds"] == laps["lap_seconds"]
    assert any("rx_joker" in n for n in result["notes"]) and any("joker lap" in n for n in result["notes"])


def test_joker_and_junction_lap_survive_both_formats(joker):
    stage, ts = joker
    for export, imp in ((export_rgt, import_rgt), (export_rekee, import_rekee)):
        again = imp(export(stage, ts), ts)
        track = assemble(again, ts)
        assert track.circuit and track.lap.through_junction and [t.tile for t in track.joker_tiles()] == ["210a"]
        assert not [p for p in validate(again, ts) if p.severity == "error"]
