"""The Great Race pages in a real browser: Debian's Chromium driven by Playwright against ``streamlit run``.

Open the app on ``?system=greatrace``, see the demo race's analysis, then paint a city by clicking a hex in the
map editor. Screenshots go to ``screenshots/`` (git-ignored) for a person to look at.
"""
from __future__ import annotations

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

SHOTS = ROOT / "screenshots"
WAIT_MS = 60_000

pytestmark = BROWSER_MARKS


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
    from designer.app.greatrace.editor import chart_layout
    from designer.core.hexgrid import to_pixel
    from designer.systems.greatrace.board import board_to_data, load_board, parse_label

    page.get_by_role("tab", name="Map editor").click()
    page.get_by_text("The board is valid").wait_for(timeout=WAIT_MS)
    _settle(page)
    assert "10 cities" in page.get_by_text("The board is valid").inner_text()
    page.locator(".st-key-greatrace_paint_mode label").filter(has_text="city").first.click()
    _settle(page)
    lay = chart_layout(board_to_data(load_board(ROOT / "tilesets/greatrace/demo-frontier.yaml")))
    area = page.locator('[data-testid="stVegaLiteChart"] path.background').first
    area.wait_for(timeout=WAIT_MS)
    box = area.bounding_box()
    x, y = to_pixel(parse_label("E7"), 1.0)
    px = box["x"] + (x - lay["x_domain"][0]) / (lay["x_domain"][1] - lay["x_domain"][0]) * box["width"]
    py = box["y"] + (lay["y_domain"][1] + y) / (lay["y_domain"][1] - lay["y_domain"][0]) * box["height"]
    page.mouse.click(px, py + 9)      # below the hex's name, on the hex itself
    _settle(page)
    page.get_by_text("11 cities").wait_for(timeout=WAIT_MS)
    _shot(page, "greatrace-editor")
