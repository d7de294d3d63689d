"""The Great Race hex maps in a real browser (Chromium against ``streamlit run``), at 1280 px and wide:

- the map keeps one scale both ways on a small board and on the demo board (neighbouring hexes touch);
- a click on the Race tab's map lays the chosen terrain (the laid-tile table follows, a half-typed row stays);
- a click on the map editor's map paints a hex; the board has a name field, a bad name is refused and kept.

Screenshots go to ``screenshots/`` (git-ignored) for a person to look at.
"""
from __future__ import annotations

import pytest

from tests import grid
from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

SHOTS = ROOT / "screenshots"
WAIT_MS = 60_000
RACE_MAP = ".st-key-greatrace_race_map_box"
EDITOR_MAP = ".st-key-greatrace_hex_map_box"

pytestmark = BROWSER_MARKS
expect = pytest.importorskip("playwright.sync_api").expect


@pytest.fixture(scope="module")
def app_url(tmp_path_factory):
    yield from serve_app(tmp_path_factory.mktemp("greatrace-map"))


@pytest.fixture(scope="module")
def browser(app_url):
    with chromium() as b:
        yield b


def _settle(pg) -> None:
    settle(pg, WAIT_MS, pause_ms=400)


def _shot(pg, name: str) -> None:
    SHOTS.mkdir(exist_ok=True)
    size = pg.viewport_size
    tall = pg.evaluate("""() => (document.querySelector('[data-testid="stMain"]') || document.body).scrollHeight""")
    pg.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(tall) + 40, 6000))})
    _settle(pg)
    pg.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    pg.set_viewport_size(size)
    _settle(pg)


def _small_board(pg) -> None:
    sidebar = pg.locator('[data-testid="stSidebar"]')
    sidebar.get_by_text("New board").click()
    _settle(pg)
    for label, value in (("Columns", "4"), ("Rows", "3")):
        box = sidebar.get_by_label(label)
        box.fill(value)
        box.press("Enter")
        _settle(pg)
    sidebar.get_by_role("button", name="Start a blank board").click()
    _settle(pg)
    pg.get_by_text("a blank board: paint cities").wait_for(timeout=WAIT_MS)


def _spec_layout(points, **kw):
    from designer.app.greatrace import hexmap

    return hexmap.layout(points, **kw)


def _plot(pg, box_class: str):
    area = pg.locator(f'{box_class} [data-testid="stVegaLiteChart"] path.background').first
    area.wait_for(timeout=WAIT_MS)
    area.scroll_into_view_if_needed()
    return area.bounding_box()


def _click_hex(pg, box_class: str, lay: dict, name: str) -> None:
    from designer.core.hexgrid import to_pixel
    from designer.systems.greatrace.files.board import parse_label

    box = _plot(pg, box_class)
    x, y = to_pixel(parse_label(name), 1.0)
    (x0, x1), (y0, y1) = lay["x_domain"], lay["y_domain"]
    pg.mouse.click(box["x"] + (x - x0) / (x1 - x0) * box["width"], box["y"] + (y - y0) / (y1 - y0) * box["height"])
    _settle(pg)


def _assert_equal_scale(pg, box_class: str, lay: dict) -> None:
    """The plot is drawn at the size the map asked for, so a hex radius is as many pixels across as down."""
    box = _plot(pg, box_class)
    assert abs(box["width"] - lay["width"]) <= 2 and abs(box["height"] - lay["height"]) <= 2, (box, lay)
    across = box["width"] / (lay["x_domain"][1] - lay["x_domain"][0])
    down = box["height"] / (lay["y_domain"][1] - lay["y_domain"][0])
    assert abs(across - down) / down < 0.02


@pytest.mark.parametrize("width", [1280, 1900])
def test_the_maps_keep_one_scale_and_a_click_lays_a_tile(browser, app_url, width):
    from designer.app.greatrace import hexmap
    from designer.systems.greatrace.files import edit

    pg = grid.open_page(browser, f"{app_url}/?system=greatrace", "The Great Race", WAIT_MS, width=width)
    pg.get_by_text("The race is valid.").wait_for(timeout=WAIT_MS)
    _settle(pg)
    from designer.systems.greatrace.files.board import board_to_data, load_board

    demo = board_to_data(load_board(ROOT / "tilesets/greatrace/demo-frontier.yaml"))
    _assert_equal_scale(pg, RACE_MAP, _spec_layout(hexmap.race_points(demo, {"median": "Midway"}), max_width=560))
    _small_board(pg)
    data = edit.paint(edit.paint(edit.new_board("my-board", 4, 3), ["A1"], "purple city", "West"),
                      ["D3"], "purple city", "East")
    lay = _spec_layout(hexmap.race_points(data, {}), max_width=560)
    _assert_equal_scale(pg, RACE_MAP, lay)
    # a half-typed row of the table stays while the map lays a tile
    laid = grid.grid(pg, near="Tiles already laid")
    grid.add_row(pg, laid)
    grid.type_cell(pg, laid, grid.column(laid, "hex"), 0, "C2")
    _settle(pg)
    _click_hex(pg, RACE_MAP, lay, "B2")
    laid = grid.grid(pg, near="Tiles already laid")
    cells = {grid.cell(laid, grid.column(laid, "hex"), r): grid.cell(laid, grid.column(laid, "terrain"), r)
             for r in range(grid.rows(laid))}
    assert cells.get("B2") == "plain" and "C2" in cells, cells
    pg.get_by_text("The race is valid.").wait_for(timeout=WAIT_MS)
    _click_hex(pg, RACE_MAP, lay, "A1")                 # a city: no tile there, said so
    pg.get_by_text("A1 is a city").wait_for(timeout=WAIT_MS)
    _shot(pg, f"greatrace-map-race-{width}")
    # the map editor: the same scale, a click paints, the board is named
    pg.get_by_role("tab", name="Map editor").click()
    _settle(pg)
    lay = _spec_layout(hexmap.editor_points(data))
    _assert_equal_scale(pg, EDITOR_MAP, lay)
    pg.locator(".st-key-greatrace_paint_mode label").filter(has_text="risk").first.click()
    _settle(pg)
    _click_hex(pg, EDITOR_MAP, lay, "C2")
    pg.locator(EDITOR_MAP).get_by_text("risk", exact=True).wait_for(timeout=WAIT_MS)   # the legend names it
    name = pg.get_by_role("textbox", name="Board name")
    name.fill("../elsewhere")
    name.press("Enter")
    _settle(pg)
    pg.get_by_text("cannot be the board's name").wait_for(timeout=WAIT_MS)
    expect(pg.get_by_role("textbox", name="Board name")).to_have_value("../elsewhere")      # what was typed stays
    name = pg.get_by_role("textbox", name="Board name")
    name.fill("Plains of May")
    name.press("Enter")
    _settle(pg)
    expect(pg.get_by_role("textbox", name="Board name")).to_have_value("Plains of May")
    pg.get_by_text("The board is valid").wait_for(timeout=WAIT_MS)
    _shot(pg, f"greatrace-map-editor-{width}")
    pg.get_by_role("tab", name="Race").click()
    _settle(pg)
    pg.get_by_text("The race is valid.").wait_for(timeout=WAIT_MS)   # the race follows its board's new name
    pg.close()
