"""The Design tab's map and its selected tile: a tile picked on the chart is outlined by the chart's own selection
(so picking another one sends the same chart again), a tile selected otherwise by its row, and a chart the browser
may have built again (the whole page drawn) is replaced and outlines the selected tile by its row."""
from __future__ import annotations

from pathlib import Path

from designer.app.dirt import map_tiles, mapview
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble

ROOT = Path(__file__).resolve().parent.parent
MAIN = str(ROOT / "designer" / "app" / "main.py")
TILES = ["202a A", "230b B", "216a D", "214a D", "205b D", "203a A"]


def _chart(selected):
    track = assemble(Stage(name="t", tiles=TILES), get_tileset("dirt-core"))
    return mapview.map_chart(map_tiles.tiled_drawing(track), mapview.map_points(track, selected=selected), 500, 600)


def test_the_chart_outlines_its_own_pick_and_a_row_the_tile_selected_otherwise():
    spec = _chart(None)
    tiles = next(layer for layer in spec["layer"] if layer.get("name") == "tiles")
    for channel, value in (("stroke", mapview.SELECTED_STROKE), ("strokeWidth", mapview.SELECTED_WIDTH)):
        condition = tiles["encoding"][channel]["condition"]
        assert condition == {"param": mapview.PARAM, "empty": False, "value": value}
    assert {r["stroke_width"] for r in spec["datasets"]["tiles"]} == {0.0}
    rows = _chart(3)["datasets"]["tiles"]
    assert [r["index"] for r in rows if r["stroke_width"] == mapview.SELECTED_WIDTH] == [3]
    # picking another tile on the chart changes nothing the chart is sent
    assert _chart(None) == spec


def test_a_tile_picked_on_the_map_is_not_outlined_by_its_row_until_the_page_is_drawn_again():
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(MAIN, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.session_state["selected"] = 2
    at.session_state["sel_box"] = 2
    at.session_state["map_holds"] = 2          # as after a click on tile 3 of the map
    nonce = at.session_state["map_nonce"] if "map_nonce" in at.session_state else 0
    at.run()                                   # the whole page: the browser may build the chart again
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["map_holds"] is None and at.session_state["map_nonce"] == nonce + 1
    assert at.session_state["selected"] == 2
