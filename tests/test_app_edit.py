"""Design tab edits through the real page script (Streamlit's AppTest): turning a tile over, tokens, what a
stage file carried, the map's plain Vega-Lite specification and the validation as the page states it."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from designer.app.dirt import checks, links, mapview
from designer.systems.dirt.board.stage import Placement, Stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.tokens import Token
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import Problem, validate

MAIN = str(Path(__file__).resolve().parent.parent / "designer" / "app" / "main.py")
DEMO = Stage(name="Demo tokens", tiles=["202a A", "205a D", "206a A", "203a A"])


def _app(stage: Stage):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(MAIN, default_timeout=120)
    at.query_params["stage"] = links.stage_code(stage)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _run(at):
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.run()              # the whole page (a Design click redraws only the parts it changes)
    assert not at.exception, [e.value for e in at.exception]


def _click(at, key):
    at.button(key=key).click()
    _run(at)


def _select(at, index: int):
    at.selectbox(key="sel_box").set_value(index)
    _run(at)


def test_turn_a_tile_over_in_one_click():
    at = _app(DEMO)
    _select(at, 1)
    _click(at, "act_flip")
    assert at.session_state["stage"].tiles[1].tile == "205b"
    assert at.session_state["selected"] == 1
    _click(at, "act_flip")
    assert at.session_state["stage"].tiles[1].tile == "205a"
    _click(at, "undo")
    assert at.session_state["stage"].tiles[1].tile == "205b"


def test_lay_and_remove_a_token():
    at = _app(DEMO)
    _select(at, 1)
    at.selectbox(key="token_kind").set_value("water")
    _run(at)
    space = at.selectbox(key="token_cell")
    cell = space.value
    assert space.options[0].startswith("space 1")      # the spaces are named in words, not by their ids (a1...)
    _click(at, "token_add")
    tokens = at.session_state["stage"].tiles[1].tokens
    assert [(t.kind, t.cell) for t in tokens] == [("water", cell)]
    assert any("on space 1" in m.value for m in at.markdown)
    # The token travels in the page address, and is listed with what the stage carries.
    back = links.read_stage_code(at.query_params["stage"][0] if isinstance(at.query_params["stage"], list)
                                 else at.query_params["stage"])
    assert back.tiles[1].tokens == tokens
    assert any("1 token" in e.label for e in at.expander)
    at.selectbox(key="token_kind").set_value("chicane-limit")
    _run(at)
    at.number_input(key="token_value").set_value(2)
    _run(at)
    _click(at, "token_add")
    assert [t.value for t in at.session_state["stage"].tiles[1].tokens] == [None, 2]
    _click(at, "token_remove_0")
    assert [t.kind for t in at.session_state["stage"].tiles[1].tokens] == ["chicane-limit"]


def test_notes_and_tokens_of_a_file_are_shown():
    stage = Stage(name="Imported demo", notes="Built for the club night",
                  tiles=[Placement(tile="202a", entry="A"),
                         Placement(tile="205a", entry="D", tokens=[Token(kind="water", cell="a2")]),
                         Placement(tile="203a", entry="A")])
    at = _app(stage)
    carried = [e for e in at.expander if e.label.startswith("Carried by the stage file")]
    assert carried and "notes" in carried[0].label and "1 token" in carried[0].label
    assert any("Built for the club night" in t.value for t in at.text)


def test_map_spec_is_plain_json_with_one_selection():
    ts = get_tileset("dirt-core")
    track = assemble(DEMO, ts)
    from designer.systems.dirt.board.render import stage_svg

    spec = mapview.map_chart(stage_svg(track, width_px=None), mapview.map_points(track, selected=2), 500, 600)
    text = json.dumps(spec)                                   # nothing but JSON types
    assert text.count(f'"name": "{mapview.PARAM}"') == 1
    tiles = spec["datasets"][spec["layer"][-1]["data"]["name"]]
    assert [r["index"] for r in tiles if r["kind"] == "tile"] == [0, 1, 2, 3]
    assert [r["stroke_width"] for r in tiles if r["index"] == 2] == [5.0]
    assert spec["width"] <= 500 and spec["height"] <= 600


@pytest.mark.parametrize("tiles, expected", [
    ([], "incomplete"),
    (["202a A"], "incomplete"),
    (["202a A", "205a D"], "incomplete"),
    (["202a A", "205a D", "203a A"], "valid"),
    (["205a A", "202a D"], "errors"),             # a start tile in the middle is wrong, not unfinished
])
def test_stage_status(tiles, expected):
    ts = get_tileset("dirt-core")
    stage = Stage(tiles=tiles)
    assert checks.status(validate(stage, ts, assemble(stage, ts)), len(tiles)) == expected


def test_web_hints_and_order():
    assert "rally-designer" not in checks.web_hint("run `rally-designer tiles` for the list of faces")
    probs = [Problem("a", "info", "x", "", 0, "202a"), Problem("b", "error", "y", "", 3, "205a"),
             Problem("c", "warning", "z", "", 1, "206a")]
    assert [p.code for p in checks.ordered(probs, 1)] == ["c", "b", "a"]
    assert [p.code for p in checks.ordered(probs, None)] == ["b", "c", "a"]


def test_tiles_on_one_place_are_named_on_the_map():
    ts = get_tileset("dirt-core")
    loop = Stage(tiles=["202a A", "210a C", "211a C", "212a C", "213a C", "214a C", "215a C"])
    track = assemble(loop, ts)
    shared = checks.shared_places(track)
    assert shared == {0: [3], 3: [0], 1: [4], 4: [1], 2: [5], 5: [2]}
    for i, others in shared.items():
        assert i not in others and all(track.tiles[j].hex == track.tiles[i].hex for j in others)
