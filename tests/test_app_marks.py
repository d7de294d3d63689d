"""The marks the DIRT pages add to what the library computes: jumps and turns along a line, where each tile
starts on the speed profile, hover titles on the analysis map, overlapping tiles on the design map, what an
imported file carried, and the refusal of a tile past the finish. Plain functions, no browser."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.app.dirt import analysis, carried, checks, editing, hover_map, profile_view
from designer.systems.dirt.board.render import stage_svg
from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate

ROOT = Path(__file__).resolve().parent.parent
JUMP_STAGE = ROOT / "stages" / "dirt" / "rally-5" / "ss1.yaml"


@pytest.fixture(scope="module")
def dirt():
    return get_tileset("dirt-core")


@pytest.fixture(scope="module")
def jump_view(dirt):
    stage = load_stage(JUMP_STAGE)
    track = assemble(stage, dirt)
    return track, analysis.analyse(track)


def test_line_marks_follow_the_dice():
    line = {"start": "0:a1", "start_gear": 0, "turn_list": [
        {"turn": 1, "steps": [{"cells": ["0:a2"], "gear": 1}, {"cells": ["1:a1", "1:a2", "1:a3"], "gear": 2,
                                                               "events": ["jump"]}]},
        {"turn": 2, "steps": [{"cells": ["2:a1", "2:a2", "2:a3", "2:a4"], "gear": 3, "events": ["long-jump"]}]}]}
    turns, flown = analysis.line_marks(line)
    assert len(turns) == len(flown) == len(analysis.line_cells(line)) == 9
    assert turns == [0, 1, 1, 1, 1, 2, 2, 2, 2]
    # A jump touches its first cell and its landing cell; only the cells between are flown over.
    assert flown == [False, False, False, True, False, False, True, True, False]
    assert analysis.line_marks(None) == ([], [])


def test_profile_of_a_stage_with_a_jump(jump_view):
    track, view = jump_view
    rows = analysis.profile_rows(view, track.graph, "fastest")
    fast = view.raw["fastest_line"]
    # Every cell flown over is a middle cell of a jump die in the library's line.
    jumped = {c for t in fast["turn_list"] for s in t["steps"] if {"jump", "long-jump"} & set(s.get("events", []))
              for c in s["cells"][1:-1]}
    assert jumped and {r["cell"] for r in rows if r["flown"]} == jumped
    # The turns count up from the start cell (0) to the last turn.
    assert rows[0]["turn"] == 0 and rows[-1]["turn"] == fast["turns"]
    assert all(a["turn"] <= b["turn"] for a, b in zip(rows, rows[1:]))
    # Tile starts: the first cell of every run of cells on one tile, in driving order.
    starts = analysis.tile_starts(rows)
    assert [s["tile"] for s in starts] == sorted({r["tile"] for r in rows})
    for s in starts:
        assert rows[s["distance"]]["tile"] == s["tile"]
        assert s["distance"] == 0 or rows[s["distance"] - 1]["tile"] != s["tile"]
    assert analysis.line_length(view, "fastest") == fast["cells"] == rows[-1]["distance"]
    assert analysis.line_length(view, "shortest") == view.raw["shortest_line"]["cells"]


@given(st.lists(st.integers(min_value=1, max_value=5), min_size=1, max_size=40))
@settings(max_examples=60, deadline=None)
def test_tile_starts_mark_every_change_of_tile(tiles):
    rows = [{"distance": k, "tile": t} for k, t in enumerate(tiles)]
    starts = analysis.tile_starts(rows)
    changes = [k for k in range(len(tiles)) if k == 0 or tiles[k] != tiles[k - 1]]
    assert [s["distance"] for s in starts] == changes
    assert [s["tile"] for s in starts] == [tiles[k] for k in changes]


def test_profile_chart_layers(jump_view):
    track, view = jump_view
    rows = analysis.profile_rows(view, track.graph, "fastest")
    spec = profile_view.profile_chart(rows, "fastest", 6).to_dict()
    marks = [layer["mark"]["type"] for layer in spec["layer"]]
    assert marks == ["rect", "text", "rule", "circle", "text", "line"]
    data = spec.get("datasets", {})
    labels = [layer for layer in spec["layer"] if layer["mark"]["type"] == "text" and "text" in layer["encoding"]]
    tile_rows = data[labels[0]["data"]["name"]] if "name" in labels[0].get("data", {}) else labels[0]["data"]["values"]
    assert [r["label"] for r in tile_rows] == [str(s["tile"]) for s in analysis.tile_starts(rows)]
    assert "the fastest line drives" in profile_view.length_caption(view, "fastest").lower()


def test_hover_titles_on_every_cell_of_the_lines(jump_view):
    track, view = jump_view
    svg = stage_svg(track, lines=view.drawing_lines(), width_px=None)
    out = hover_map.with_cell_titles(svg, track, view.lines)
    titles = re.findall(r'<circle class="line-cell" data-line="(\w+)"[^>]*><title>([^<]*)</title>', out)
    assert len(titles) == sum(len(line.cells) for line in view.lines.values())
    fast = [t for name, t in titles if name == "fastest"]
    cells = view.lines["fastest"].cells
    for k in (0, len(cells) // 2, len(cells) - 1):
        node, gear = cells[k]
        assert f"gear {gear}" in fast[k] and f"cell {track.graph.nodes[node]['cell']}" in fast[k]
    assert fast[0].endswith("start")
    assert sum("flown over by a jump" in t for t in fast) == sum(view.lines["fastest"].flown)
    sized = hover_map.inline_svg(out, 640)
    assert sized.startswith('<div class="line-map"><svg width="640"') and sized.endswith("</svg></div>")


def _loop(dirt):
    stage = editing.add_tile(editing.new_stage("Overlap demo"), dirt, "202a")
    for face in ("208a", "208b", "209a", "209b", "217a", "217b"):
        stage = editing.add_tile(stage, dirt, face, turn="right")
    return stage


def test_overlapping_tiles_are_drawn_marked(dirt):
    track = assemble(_loop(dirt), dirt)
    shared = checks.shared_places(track)
    assert shared == {0: [6], 6: [0]}
    plain = stage_svg(track, width_px=None)
    marked = stage_svg(track, width_px=None, overlaps=set(shared))
    assert 'class="overlap"' not in plain and '<g opacity="0.55">' not in plain
    assert marked.count('<polygon class="overlap"') == 2
    assert marked.count('<g opacity="0.55">') == 1            # only the later tile is see-through
    assert checks.overlapping(track, validate(track.stage, dirt, track)) == (0, 6)


def test_a_crossing_driven_twice_is_not_marked_as_an_overlap():
    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-crossing-twice-demo.yaml")
    tileset = get_tileset(stage.tileset)
    track = assemble(stage, tileset)
    problems = validate(stage, tileset, track)
    assert checks.shared_places(track) and not [p for p in problems if p.severity == "error"]
    assert checks.overlapping(track, problems) == ()


def test_nothing_after_the_finish_but_the_assistance(dirt):
    stage = Stage(tiles=["202a A", "205a D", "203a A"])
    assert editing.finish_index(stage, dirt) == 2
    refusal = editing.refused_after_finish(stage, dirt, 3, "204a")
    assert refusal and "Tile 3 (203a) is the finish" in refusal
    assert editing.refused_after_finish(stage, dirt, 2, "204a") is None       # before the finish
    assert editing.refused_after_finish(stage, dirt, 3, "201a") is None       # the assistance tile
    assert editing.refused_after_finish(Stage(tiles=["202a A"]), dirt, 1, "204a") is None
    with_assist = Stage(tiles=["202a A", "205a D", "203a A", "201a D"])
    assert editing.refused_after_finish(with_assist, dirt, 3, "204a")        # in place of the assistance tile


def test_what_a_stage_carried_in_a_few_words():
    from designer.systems.dirt.io import import_file

    raw = json.dumps({"author": "someone", "tiles": [{"id": "202a", "q": 0, "r": 0, "dir": 0},
                                                     {"id": "210b-2", "q": 1, "r": 0, "dir": 0}]})
    noted = import_file("track.json", raw)
    assert carried.carried_words(noted) == "notes (with graphic variants)"
    assert "notes (with graphic variants)" in carried.upload_summary(noted)
    assert carried.carried_words(Stage(tiles=["202a A"], notes="Author: someone")) == "notes"
    one = Stage(tiles=["202a A", {"tile": "205a", "entry": "D", "tokens": [{"kind": "water", "cell": "a2"}]}])
    assert carried.carried_words(one) == "1 token"
    summary = carried.upload_summary(one.model_copy(update={"notes": "x"}))
    assert summary.startswith("It also carried notes and 1 token:")
    assert carried.upload_summary(Stage(tiles=["202a A"])) == ""


def test_policy_rows_round_and_name_the_last_column():
    exp = {"policy": [{"turn": 1, "cell": None, "gear": 0, "tokens": 0, "mode": "attack", "plan": [],
                       "expected_seconds_to_finish": 79.554, "loss_of_control_chance": 0.2},
                      {"turn": 2, "cell": None, "gear": 6, "tokens": 8, "mode": "attack", "plan": [],
                       "expected_seconds_to_finish": -4.04, "loss_of_control_chance": 0.0}]}
    rows = analysis.policy_rows(exp, None)
    assert [r[analysis.POLICY_TO_FINISH] for r in rows] == [79.6, -4.0]
    tiles = analysis.tile_rows({"tiles": [{"index": 0, "tile": "202a", "expected_seconds": 23.837,
                                           "loss_of_control_chance": 0.2}]})
    assert tiles[0]["expected seconds"] == 23.8
