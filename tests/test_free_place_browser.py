"""In a real browser (Debian's Chromium driven by Playwright): the Design tab's 'Free place' palette mode lays a
tile beside a road end that is not the open end (a junction's branch of the RX demo circuit), and the tile lands
on that place: the stage in the address bar holds it there, joined to the road end chosen."""
from __future__ import annotations

import urllib.parse

import pytest

from tests.browser import BROWSER_MARKS, chromium, serve_app, settle

TIMEOUT_MS = 30_000
pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def server():
    yield from serve_app(None, env={"PYTHONDONTWRITEBYTECODE": "1"})


def _stage_in_address(page):
    from designer.app.dirt.links import read_stage_code

    query = urllib.parse.parse_qs(urllib.parse.urlparse(page.url).query)
    return read_stage_code(query["stage"][0])


def test_a_tile_is_laid_at_a_free_place_and_joins_the_road_there(server):
    from playwright.sync_api import expect

    from designer.app.dirt.laying import free_places
    from designer.app.dirt.links import stage_code
    from designer.core import hexgrid
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.board.track import place_tiles
    from tests.conftest import ROOT

    stage = load_stage(ROOT / "stages" / "dirt" / "expansions" / "rx-circuit-demo.yaml")
    ts = get_tileset(stage.tileset)
    places = free_places(stage, ts)
    # a road end that is not the last tile's: a junction's branch or a side road of the circuit
    place = next(p for p in places if p.index < len(stage.tiles) - 1)
    with chromium() as browser:
        page = browser.new_context(viewport={"width": 1500, "height": 2000}).new_page()
        page.goto(f"{server}/?stage={urllib.parse.quote(stage_code(stage))}", timeout=TIMEOUT_MS)
        page.locator(".st-key-sel_next").first.wait_for(timeout=TIMEOUT_MS)
        settle(page, TIMEOUT_MS)
        page.locator(".st-key-palette_mode").get_by_text("Free place", exact=True).click()
        settle(page, TIMEOUT_MS)
        box = page.locator(".st-key-free_place")
        box.wait_for(timeout=TIMEOUT_MS)
        combo = box.get_by_role("combobox")
        combo.click()
        page.get_by_role("option", name=place.label(), exact=True).click()
        settle(page, TIMEOUT_MS)
        expect(combo).to_have_value(place.label(), timeout=TIMEOUT_MS)
        before = len(_stage_in_address(page).tiles)
        page.locator('[class*="st-key-pal_"] button').first.click()
        settle(page, TIMEOUT_MS)
        page.wait_for_function(f"() => !location.search.includes({stage_code(stage)!r})", timeout=TIMEOUT_MS)
        laid = _stage_in_address(page)
    assert len(laid.tiles) == before + 1
    new = laid.tiles[-1]
    assert tuple(new.at) == place.hex
    placed, unknown, errors = place_tiles(laid, ts)
    assert not unknown and not errors
    tile = next(t for t in placed if t.hex == place.hex)
    # its road meets the chosen road end: one of its edges faces the tile the place is beside
    faces = {hexgrid.rotate_edge(e, tile.rotation) for e in tile.face.edges}
    assert place.arrive in faces
