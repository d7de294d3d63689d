"""Laying a tile at a free place (beside any road end, not only at the open end): the pure functions and the
Design tab's 'Free place' palette mode through the real page script."""
from __future__ import annotations

from pathlib import Path

from designer.app.dirt import editing, links
from designer.app.dirt.laying import find_place, free_places, lay_at
from designer.core import hexgrid
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble, place_tiles
from designer.systems.dirt.board.validate import validate
from tests.conftest import ROOT

RX = ROOT / "stages" / "dirt" / "expansions" / "rx-circuit-demo.yaml"
MAIN = str(Path(__file__).resolve().parent.parent / "designer" / "app" / "main.py")


def test_free_places_are_the_road_ends_that_meet_no_tile():
    stage = load_stage(RX)
    ts = get_tileset(stage.tileset)
    placed, _, _ = place_tiles(stage, ts)
    taken = {t.hex for t in placed}
    places = free_places(stage, ts)
    assert places and all(p.hex not in taken for p in places)
    assert "2:B" in {p.key for p in places}           # the branch of the junction 405a the lap does not drive
    for p in places:
        t = placed[p.index]
        assert hexgrid.neighbour(t.hex, hexgrid.rotate_edge(p.edge, t.rotation)) == p.hex


def test_a_tile_laid_at_a_free_place_meets_the_road_end_and_the_next_tile_follows_it():
    stage = load_stage(RX)
    ts = get_tileset("official")
    place = find_place(stage, ts, "2:B")
    laid = lay_at(stage, ts, place, "205a", "A")
    track = assemble(laid, ts)
    new = track.tiles[-1]
    assert new.hex == place.hex and new.world_entry == place.arrive and track.circuit
    assert not [p for p in validate(laid, ts) if p.severity == "error"]
    longer = editing.add_tile(laid, ts, "204a", entry="A")
    again = assemble(longer, ts)
    assert hexgrid.neighbour(new.hex, new.world_exit) == again.tiles[-1].hex
    assert place.hex not in {p.hex for p in free_places(laid, ts)}


def test_the_design_tab_lays_a_palette_tile_at_the_chosen_free_place():
    from streamlit.testing.v1 import AppTest

    stage = load_stage(RX)
    at = AppTest.from_file(MAIN, default_timeout=120)
    at.query_params["stage"] = links.stage_code(stage)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.session_state["palette_mode"] = "free"
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    box = at.selectbox(key="free_place")
    box.set_value("2:B")
    at.run()
    key = next(b.key for b in at.button if (b.key or "").startswith("pal_"))
    at.button(key=key).click()
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    tiles = at.session_state["stage"].tiles
    assert len(tiles) == len(stage.tiles) + 1
    place = find_place(stage, get_tileset(stage.tileset), "2:B")
    assert tuple(tiles[-1].at) == place.hex
