"""The Great Race pages in a real browser: Debian's Chromium driven by Playwright against ``streamlit run``.

Open the app on ``?system=greatrace``, see the demo race's analysis, then paint a city by clicking a hex in the
map editor. Screenshots go to ``screenshots/`` (git-ignored) for a person to look at.
"""
from __future__ import annotations

import re

import pytest

from tests import grid
from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

SHOTS = ROOT / "screenshots"
WAIT_MS = 60_000

pytestmark = BROWSER_MARKS
expect = pytest.importorskip("playwright.sync_api").expect     # waits for a value to show


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    yield from serve_app(tmp_path_factory.mktemp("greatrace"))


@pytest.fixture(scope="module")
def page(app_url):
    with chromium() as browser:
        yield browser.new_page(viewport={"width": 1280, "height": 900})


def _settle(pg) -> None:
    settle(pg, WAIT_MS, pause_ms=400)


def _shot(pg, name: str) -> None:
    """Streamlit scrolls inside its main block, so the window is grown to the content before the picture."""
    SHOTS.mkdir(exist_ok=True)
    size = pg.viewport_size
    tall = pg.evaluate("""() => (document.querySelector('[data-testid="stMain"]') || document.body).scrollHeight""")
    pg.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(tall) + 40, 6000))})
    _settle(pg)
    pg.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    pg.set_viewport_size(size)
    _settle(pg)


def test_open_the_system_and_see_the_analysis(page, app_url):
    page.goto(f"{app_url}/?system=greatrace")
    page.get_by_text("The race is valid.").wait_for(timeout=WAIT_MS)
    _settle(page)
    _shot(page, "greatrace-race")
    page.get_by_role("tab", name="Analysis").click()
    page.get_by_text("Monte Carlo over the bag").wait_for(timeout=WAIT_MS)
    _settle(page)
    summary = page.locator('[data-testid="stCode"]').first.inner_text()
    assert "fastest:" in summary and "cheapest:" in summary and "both directions" in summary
    _shot(page, "greatrace-analysis")


def test_click_a_hex_to_make_it_a_city(page, app_url):
    from designer.app.greatrace import hexmap
    from designer.core.hexgrid import to_pixel
    from designer.systems.greatrace.files.board import board_to_data, load_board, parse_label

    page.get_by_role("tab", name="Map editor").click()
    page.get_by_text("The board is valid").wait_for(timeout=WAIT_MS)
    _settle(page)
    assert "10 cities" in page.get_by_text("The board is valid").inner_text()
    page.locator(".st-key-greatrace_paint_mode label").filter(has_text="city").first.click()
    _settle(page)
    data = board_to_data(load_board(ROOT / "tilesets/greatrace/demo-frontier.yaml"))
    lay = hexmap.layout(hexmap.editor_points(data))
    area = page.locator('.st-key-greatrace_hex_map_box [data-testid="stVegaLiteChart"] path.background').first
    area.wait_for(timeout=WAIT_MS)
    area.scroll_into_view_if_needed()
    box = area.bounding_box()
    x, y = to_pixel(parse_label("E7"), 1.0)
    px = box["x"] + (x - lay["x_domain"][0]) / (lay["x_domain"][1] - lay["x_domain"][0]) * box["width"]
    py = box["y"] + (y - lay["y_domain"][0]) / (lay["y_domain"][1] - lay["y_domain"][0]) * box["height"]
    page.mouse.click(px, py)          # on the hex's name too: the clear hexagon on top takes the click
    _settle(page)
    page.get_by_text("11 cities").wait_for(timeout=WAIT_MS)
    _shot(page, "greatrace-editor")


# -- the editable tables keep every typed value; another race resets the form; a reload keeps the work ---------

def _fresh(browser, url: str):
    """A page of ``browser`` (or of a fresh browser context: another browser's cookies and storage) at ``url``."""
    return grid.open_page(browser, url, "The Great Race", WAIT_MS)


def test_typed_values_in_the_bag_and_the_lines_stay_and_a_reload_keeps_them(page, app_url):
    browser = page.context.browser         # the module's Chromium (one Playwright at a time)
    pg = _fresh(browser, f"{app_url}/?system=greatrace")
    pg.get_by_role("tab", name="Map editor").click()
    pg.get_by_text("The board is valid").wait_for()
    _settle(pg)
    bag = grid.grid(pg, near="The bag of terrain tiles")
    typed = {"count": "30", "fuel": "3", "mech": "2"}
    for name, text in typed.items():                      # one cell of the plains row after another
        grid.type_cell(pg, bag, grid.column(bag, name), 0, text)
        _settle(pg)
    bag = grid.grid(pg, near="The bag of terrain tiles")
    assert {n: grid.cell(bag, grid.column(bag, n), 0) for n in typed} == typed
    lines = grid.grid(pg, near="Transport lines")
    grid.type_cell(pg, lines, grid.column(lines, "fare"), 0, "45")
    _settle(pg)
    lines = grid.grid(pg, near="Transport lines")
    assert grid.cell(lines, grid.column(lines, "fare"), 0) == "45"
    bag = grid.grid(pg, near="The bag of terrain tiles")
    assert {n: grid.cell(bag, grid.column(bag, n), 0) for n in typed} == typed
    assert "box=d1." in pg.url
    address = pg.url
    _shot(pg, "greatrace-tables-typed")
    again = _fresh(browser.new_context(), address)          # the address pasted in another browser
    again.get_by_role("tab", name="Map editor").click()
    again.get_by_text("The board is valid").wait_for()
    _settle(again)
    bag = grid.grid(again, near="The bag of terrain tiles")
    assert {n: grid.cell(bag, grid.column(bag, n), 0) for n in typed} == typed
    lines = grid.grid(again, near="Transport lines")
    assert grid.cell(lines, grid.column(lines, "fare"), 0) == "45"


def test_a_half_typed_laid_tile_stays_and_another_race_shows_its_own_values(page, app_url):
    browser = page.context.browser
    pg = _fresh(browser, f"{app_url}/?system=greatrace")
    pg.get_by_text("The race is valid.").wait_for()
    laid = grid.grid(pg, near="Tiles already laid")
    grid.add_row(pg, laid)
    grid.type_cell(pg, laid, grid.column(laid, "hex"), 0, "C4")   # its terrain not chosen yet
    _settle(pg)
    laid = grid.grid(pg, near="Tiles already laid")
    assert grid.cell(laid, grid.column(laid, "hex"), 0) == "C4"
    money = pg.get_by_label("Money (F)")
    money.fill("400")
    money.press("Enter")
    _settle(pg)
    expect(pg.get_by_label("Money (F)")).to_have_value("400")
    pg.reload()                                              # a reload keeps the race as edited
    pg.get_by_text("The race is valid.").wait_for()
    _settle(pg)
    expect(pg.get_by_label("Money (F)")).to_have_value("400")
    sidebar = pg.locator('[data-testid="stSidebar"]')
    sidebar.locator('[data-testid="stSelectbox"]').filter(has_text="Demo race").click()
    pg.get_by_role("option", name="Demo race 2").first.click()
    sidebar.get_by_role("button", name="Open the example").click()
    _settle(pg)
    pg.get_by_text("opened demo-race-2.yaml").wait_for()
    expect(pg.get_by_label("Money (F)")).to_have_value("90")
    expect(pg.get_by_label("Players")).to_have_value("3")
    expect(pg.get_by_label("Race name")).to_have_value(re.compile("^" + re.escape("Demo race 2")))
    players = pg.get_by_label("Players")                    # the first edit keeps the new race's values
    players.fill("2")
    players.press("Enter")
    _settle(pg)
    expect(pg.get_by_label("Money (F)")).to_have_value("90")
    expect(pg.get_by_label("Race name")).to_have_value(re.compile("^" + re.escape("Demo race 2")))
    _shot(pg, "greatrace-race-2")
