"""The Design tab's map drawn tile by tile: a picture per tile kept by what it shows, numbers drawn by the chart."""
from __future__ import annotations

import base64
import json

from designer.app.dirt import editing, map_tiles, mapview
from designer.systems.dirt.board.render import stage_svg
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble

TILES = ["202a A", "230b B", "216a D", "214a D", "205b D", "211b C", "217a D", "222a B", "203a A"]


def _svg(row) -> str:
    return base64.b64decode(row["url"].split(",", 1)[1]).decode("utf-8")


def test_an_insertion_sends_the_same_pictures_for_the_tiles_it_did_not_change():
    ts = get_tileset("dirt-core")
    stage = Stage(name="t", tiles=TILES)
    before = map_tiles.tiled_drawing(assemble(stage, ts))
    after_stage = editing.insert_tile(stage, ts, 4, "206a")
    after = map_tiles.tiled_drawing(assemble(after_stage, ts))
    assert len(after.rows) == len(before.rows) + 1
    assert [r["number"] for r in after.rows] == list(range(1, len(after.rows) + 1))
    # The tiles before the insertion keep their picture and place; the later ones keep their picture wherever the
    # road now takes them (a tile's picture is made once: the very same string).
    for old, new in zip(before.rows[:4], after.rows[:4]):
        assert new["url"] is old["url"] and (new["x"], new["y"]) == (old["x"], old["y"])
    same_turn = [(o, n) for o, n in zip(before.rows[4:], after.rows[5:]) if _svg(o) == _svg(n)]
    assert same_turn and all(n["url"] is o["url"] for o, n in same_turn)


def test_pictures_show_what_the_stage_drawing_shows():
    ts = get_tileset("dirt-core")
    track = assemble(Stage(name="t", tiles=TILES), ts)
    drawing = map_tiles.tiled_drawing(track, errors=(2,))
    whole = stage_svg(track, width_px=None, highlight={2})
    # The same box as the stage's drawing, every face id once, the error outline on tile 3 only.
    assert mapview.viewbox(whole) == drawing.viewbox
    pictures = [_svg(r) for r in drawing.rows]
    for t, svg in zip(track.tiles, pictures):
        assert f">{t.tile}</text>" in svg and not svg.split(">", 1)[1].startswith("<rect")   # no background
    assert [('stroke="#d62728"' in svg) for svg in pictures] == [i == 2 for i in range(len(TILES))]
    # The numbers are the chart's: none in the pictures (an insertion renumbers every later tile).
    for t, row in zip(track.tiles, drawing.rows):
        assert abs(row["nx"] - row["x"]) < 100 and abs(row["ny"] - row["y"]) < 100
        assert row["nr"] > 0


def test_the_tiled_chart_is_plain_json_with_one_selection_and_the_numbers():
    ts = get_tileset("dirt-core")
    track = assemble(Stage(name="t", tiles=TILES), ts)
    spec = mapview.map_chart(map_tiles.tiled_drawing(track), mapview.map_points(track, selected=1), 500, 600)
    text = json.dumps(spec)
    assert text.count(f'"name": "{mapview.PARAM}"') == 1
    assert [r["number"] for r in spec["datasets"]["drawing"]] == list(range(1, len(TILES) + 1))
    marks = [layer["mark"]["type"] for layer in spec["layer"][0]["layer"]]
    assert marks == ["image", "point", "text"]
    assert spec["width"] <= 500 and spec["height"] <= 600
    # The chart's domain is the one the click geometry reads (the stage drawing's box and the hexagons).
    lay = mapview.layout(stage_svg(track, width_px=None), mapview.map_points(track, selected=1), 500, 600)
    assert spec["layer"][-1]["encoding"]["x"]["scale"]["domain"] == lay["x_domain"]


def test_a_tile_laid_over_another_is_see_through_and_hatched():
    ts = get_tileset("dirt-core")
    stage = editing.add_tile(editing.new_stage("Overlap demo"), ts, "202a")
    for face in ("208a", "208b", "209a", "209b", "217a", "217b"):
        stage = editing.add_tile(stage, ts, face, turn="right")
    track = assemble(stage, ts)
    drawing = map_tiles.tiled_drawing(track, overlaps=(0, 6))
    assert [r["opacity"] for r in drawing.rows] == [1.0] * 6 + [0.55]
    hatched = [i for i, r in enumerate(drawing.rows) if 'class="overlap"' in _svg(r)]
    assert hatched == [0, 6]
    assert drawing.rows[6]["ny"] > drawing.rows[0]["ny"]           # the later tile's number below the first's
