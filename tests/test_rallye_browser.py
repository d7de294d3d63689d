"""The Rallye pages in a real browser: Debian's Chromium driven by Playwright against ``streamlit run``.

Opens the app on ``?system=rallye``, opens a demo stage from the sidebar, and reads its analysis. A screenshot at
1280 px goes to the test's temporary folder (and to ``screenshots/`` when that folder exists) for a person to see.
"""
from __future__ import annotations

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app

TIMEOUT_MS = 60_000

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    yield from serve_app(tmp_path_factory.mktemp("rallye"))


def test_open_a_demo_and_see_its_analysis(url, tmp_path):
    with chromium() as browser:
        page = browser.new_page(viewport={"width": 1280, "height": 1000})
        page.set_default_timeout(TIMEOUT_MS)
        page.goto(f"{url}/?system=rallye")
        page.get_by_text("Rallye (12 cards)").wait_for()
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.locator('[data-testid="stSelectbox"]').filter(has_text="Demo stage").click()
        page.get_by_role("option", name="SS2 demo: Forêt Longue").click()
        sidebar.get_by_role("button", name="Open demo").click()
        page.get_by_text("opened demo-ss2-foret-longue.yaml").wait_for()
        page.get_by_text("valid: 12 cards").wait_for()
        page.get_by_role("tab", name="Analysis").click()
        page.get_by_text("Reconnaissance notes").wait_for()
        metrics = page.locator('[data-testid="stMetric"]')
        metrics.nth(3).wait_for()
        labels = " ".join(metrics.all_inner_texts())
        assert "Cautious plan" in labels and "Fastest plan" in labels and "Table time" in labels
        body = page.locator('[data-testid="stMain"]').inner_text()
        assert "fastest plan: 77.7 s expected solo" in body            # SS2 on the demo deck, from the fronts
        assert "if you knew every back: cautious 77.0 s, fastest 73.7 s" in body
        assert "Reconnaissance notes" in body
        page.wait_for_timeout(1500)
        shot = tmp_path / "rallye-analysis.png"
        page.screenshot(path=str(shot), full_page=True)
        if (ROOT / "screenshots").is_dir():
            page.screenshot(path=str(ROOT / "screenshots" / "rallye-analysis.png"), full_page=True)
        assert shot.stat().st_size > 10_000
