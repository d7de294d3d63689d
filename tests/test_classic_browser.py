"""Classic Rallyman in a real browser: Debian's Chromium (Playwright) against ``streamlit run``.

Opens the classic pages by the address, opens a demo stage from the sidebar, and sees its analysis.
A screenshot at 1280 px goes to ``screenshots/`` (git-ignored) for a person to look at.
"""
from __future__ import annotations

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app

SHOTS = ROOT / "screenshots"

pytestmark = BROWSER_MARKS


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
        sidebar.get_by_role("button", name="Open example").click()
        page.get_by_text("opened Demo ES3 - Night on the snow").wait_for(timeout=60_000)
        page.get_by_role("tab", name="Analysis").click()
        page.get_by_text("Expected time", exact=True).wait_for(timeout=90_000)
        page.get_by_text("variable weather, chance of snow per zone: X 1/6, Y 1/3").wait_for(timeout=30_000)
        page.get_by_text("Ideal time", exact=True).wait_for(timeout=30_000)
        page.get_by_text("ideal time 1:00 in 3 turns (shakedown, ART.17)").wait_for(timeout=30_000)
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "classic-analysis.png"), full_page=True)
