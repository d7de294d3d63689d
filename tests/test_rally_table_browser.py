"""In a real browser at 1280 px (Debian's Chromium under Playwright): the DIRT Rally tab races a bundled rally with
several cars. The progress box shows in view under the button while it runs, the button is disabled meanwhile, the
per-car figures and the simulated table time follow, the typed numbers of cars and races are kept across tabs, and
no traceback reaches the page. A screenshot is left in the test's temporary folder."""
from __future__ import annotations

import pytest

from tests.browser import BROWSER_MARKS, chromium, serve_app, settle

pytestmark = BROWSER_MARKS

WIDTH, HEIGHT = 1280, 900
SHOWN_IN_VIEW = """() => [...document.querySelectorAll('[data-testid="stProgress"]')].some(e => {
    const r = e.getBoundingClientRect();
    return r.height > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth; })"""


@pytest.fixture(scope="module")
def url():
    yield from serve_app(None)


def _number(page, key: str, value: int) -> None:
    box = page.locator(f".st-key-{key} input").first
    box.fill(str(value))
    box.press("Enter")
    settle(page, 300_000)


def test_rally_tab_races_the_rally_with_several_cars(url, tmp_path):
    with chromium() as browser:
        page = browser.new_page(viewport={"width": WIDTH, "height": HEIGHT})
        try:
            page.goto(f"{url}/?system=dirt")
            page.get_by_role("tab").first.wait_for(timeout=120_000)
            settle(page, 120_000, pause_ms=1_000)
            page.get_by_role("tab", name="Rally", exact=True).click()       # the first stage's rally: Rally 1
            page.locator(".st-key-rally_stage_2").wait_for(timeout=400_000)
            settle(page, 400_000)
            _number(page, "rally_table_players", 3)
            _number(page, "rally_table_runs", 40)
            go = page.locator(".st-key-rally_table_go button").first
            go.evaluate("e => e.scrollIntoView({block: 'center'})")          # where a user clicking it has it
            go.click()
            page.locator(".st-key-rally_table_go button:disabled").first.wait_for(timeout=120_000)
            try:
                page.wait_for_function(SHOWN_IN_VIEW, timeout=8_000)         # in view while it runs
            finally:
                page.screenshot(path=str(tmp_path / "racing.png"))
            page.locator(".st-key-rally_table_seats").wait_for(timeout=500_000)
            settle(page, 300_000)
            seats = page.locator(".st-key-rally_table_seats")
            seats.scroll_into_view_if_needed()
            page.screenshot(path=str(tmp_path / "rally-table-1280.png"), full_page=True)
            labels = [t.strip() for t in page.locator('[data-testid="stMetricLabel"]').all_inner_texts()]
            assert "Table time (raced)" in labels and "Turns at the table" in labels, labels
            assert page.locator('.st-key-rally_table_seats [data-testid="stDataFrame"]').count() == 1
            text = page.locator("body").inner_text()
            assert "Traceback" not in text and "Error" not in text.replace("errors", "")
            assert not go.is_disabled()
            # another tab and back: the typed numbers and the figures are still there
            page.get_by_role("tab", name="Export", exact=True).click()
            settle(page, 300_000)
            page.get_by_role("tab", name="Rally", exact=True).click()
            settle(page, 400_000)
            assert page.locator(".st-key-rally_table_players input").first.input_value() == "3"
            assert page.locator(".st-key-rally_table_runs input").first.input_value() == "40"
            page.locator(".st-key-rally_table_seats").wait_for(timeout=30_000)
            # a changed number of cars says the figures are of another race, and never shows a traceback
            _number(page, "rally_table_players", 2)
            assert "race again" in page.locator("body").inner_text()
            assert "Traceback" not in page.locator("body").inner_text()
        finally:
            page.close()
    print(tmp_path / "rally-table-1280.png")
