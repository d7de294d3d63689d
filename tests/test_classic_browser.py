"""Classic Rallyman in a real browser: Debian's Chromium (Playwright) against ``streamlit run``.

Opens the classic pages by the address, opens a demo stage from the sidebar, and sees its analysis.
A screenshot at 1280 px goes to ``screenshots/`` (git-ignored) for a person to look at.
"""
from __future__ import annotations

import pytest

from tests import grid
from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

SHOTS = ROOT / "screenshots"

pytestmark = BROWSER_MARKS
expect = pytest.importorskip("playwright.sync_api").expect     # waits for a value to show


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    yield from serve_app(tmp_path_factory.mktemp("classic"))


def test_open_a_demo_and_see_its_analysis(url):
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.goto(f"{url}/?system=classic", timeout=60_000)
        page.get_by_text("Classic Rallyman", exact=True).wait_for(timeout=60_000)
        sidebar = page.locator("[data-testid='stSidebar']")
        sidebar.locator("[data-testid='stSelectbox']").filter(has_text="Example").click()
        page.get_by_role("option", name="Demo ES3 - Night on the snow (stage)").click()
        sidebar.get_by_role("button", name="Open the example").click()
        page.get_by_text("opened Demo ES3 - Night on the snow").wait_for(timeout=60_000)
        page.get_by_role("tab", name="Analysis").click()
        page.get_by_text("Expected time", exact=True).wait_for(timeout=90_000)
        page.locator("[data-testid='stMarkdownContainer']", has_text="Ideal time").first.wait_for(timeout=30_000)
        page.get_by_text("The analysis in words").click()          # the sentences, under the headline
        page.get_by_text("variable weather, chance of snow per zone: X 1/6, Y 1/3").wait_for(timeout=30_000)
        page.get_by_text("ideal time 1:00 in 3 turns (shakedown, ART.17)").wait_for(timeout=30_000)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "classic-analysis.png"), full_page=True)


# -- the zone tables keep every typed value; another document shows its own; a reload keeps the work ----------

WAIT_MS = 90_000


def _fresh(browser, address: str):
    return grid.open_page(browser, address, "Classic Rallyman", WAIT_MS)


def _corners(page):
    return grid.tab_table(page, "Zone editor", "Corners", WAIT_MS)


def test_typed_corner_values_stay_and_a_reload_keeps_the_zone_editor(url):
    with chromium() as browser:
        page = _fresh(browser, f"{url}/?system=classic")
        corners = _corners(page)
        typed = {"note": "2", "gear": "3", "k": "5"}
        for name, text in typed.items():                       # one cell of the first corner after another
            grid.type_cell(page, corners, grid.column(corners, name), 0, text)
            settle(page, WAIT_MS)
        corners = grid.grid(page, near="Corners")
        assert {n: grid.cell(corners, grid.column(corners, n), 0) for n in typed} == typed
        assert grid.cell(corners, grid.column(corners, "inside"), 0) == "E2"
        assert "editor=d1." in page.url
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "classic-zone-tables-typed.png"), full_page=True)
        again = _fresh(browser.new_context(), page.url)          # the address pasted in another browser
        corners = _corners(again)
        assert {n: grid.cell(corners, grid.column(corners, n), 0) for n in typed} == typed
        side = again.locator('[data-testid="stSelectbox"]').filter(has_text="Side")
        side.scroll_into_view_if_needed()                        # the other side of the zone: its own corners
        side.click()
        again.get_by_role("option", name="snow", exact=True).click()
        settle(again, WAIT_MS)
        corners = grid.grid(again, near="Corners")
        assert grid.cell(corners, grid.column(corners, "note"), 0) != "2" or grid.rows(corners) == 0


def test_another_stage_shows_its_own_values_and_a_reload_keeps_the_edited_stage(url):
    with chromium() as browser:
        page = _fresh(browser, f"{url}/?system=classic")
        sidebar = page.locator("[data-testid='stSidebar']")
        sidebar.locator("[data-testid='stSelectbox']").filter(has_text="Example").click()
        page.get_by_role("option", name="Demo ES3 - Night on the snow (stage)").click()
        sidebar.get_by_role("button", name="Open the example").click()
        page.get_by_text("opened Demo ES3 - Night on the snow").wait_for()
        settle(page, WAIT_MS)
        expect(page.get_by_label("Stage name")).to_have_value("Demo ES3 - Night on the snow")
        page.get_by_label("Stage name").fill("Demo ES3 - Night on the ice")
        page.get_by_role("button", name="Apply").click()
        settle(page, WAIT_MS)
        expect(page.get_by_label("Stage name")).to_have_value("Demo ES3 - Night on the ice")
        page.reload()
        page.get_by_text("Classic Rallyman", exact=True).wait_for()
        settle(page, WAIT_MS)
        expect(page.get_by_label("Stage name")).to_have_value("Demo ES3 - Night on the ice")
        again = _fresh(browser.new_context(), page.url)
        expect(again.get_by_label("Stage name")).to_have_value("Demo ES3 - Night on the ice")
        assert "stage=d1." in again.url
