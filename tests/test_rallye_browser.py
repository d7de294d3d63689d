"""The Rallye pages in a real browser: Debian's Chromium driven by Playwright against ``streamlit run``.

Opens the app on ``?system=rallye``, opens a demo stage from the sidebar, and reads its analysis. A screenshot at
1280 px goes to the test's temporary folder (and to ``screenshots/`` when that folder exists) for a person to see.
"""
from __future__ import annotations

import pytest

from tests import grid
from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

TIMEOUT_MS = 60_000
SHOTS = ROOT / "screenshots"
SHOTS.mkdir(exist_ok=True)

pytestmark = BROWSER_MARKS
expect = pytest.importorskip("playwright.sync_api").expect     # waits for a value to show


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
        sidebar.get_by_role("button", name="Open the example").click()
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


# -- the editable tables keep every typed value; a reload keeps the work ---------------------------------------

def _page(browser, url: str, query: str = "?system=rallye"):
    return grid.open_page(browser, f"{url}/{query}", "Rallye (12 cards)", TIMEOUT_MS)


def _deck_tab(page):
    return grid.tab_table(page, "Deck editor", "Section cards", TIMEOUT_MS)


def test_typed_values_in_the_deck_stay_and_another_stage_resets_the_form(url):
    with chromium() as browser:
        page = _page(browser, url)
        cards = _deck_tab(page)
        safety, top, note = (grid.column(cards, c) for c in ("safety", "top", "note"))
        for col, text in ((safety, "180"), (top, "220"), (note, "over the crest")):   # one cell after another
            grid.type_cell(page, cards, col, 0, text)
            settle(page, TIMEOUT_MS)
        cards = grid.grid(page, near="Section cards")
        assert [grid.cell(cards, c, 0) for c in (safety, top, note)] == ["180", "220", "over the crest"]
        page.get_by_role("button", name="Apply to the session").click()
        page.get_by_text("deck applied").wait_for()
        settle(page, TIMEOUT_MS)
        cards = grid.grid(page, near="Section cards")
        assert [grid.cell(cards, c, 0) for c in (safety, top, note)] == ["180", "220", "over the crest"]
        page.reload()                                           # the edited deck is in the address
        page.get_by_text("Rallye (12 cards)").wait_for()
        settle(page, TIMEOUT_MS)
        assert "box=d1." in page.url
        cards = _deck_tab(page)
        assert [grid.cell(cards, c, 0) for c in (safety, top, note)] == ["180", "220", "over the crest"]
        page.screenshot(path=str(SHOTS / "rallye-deck-edited.png"), full_page=True)
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_role("button", name="Open the example").click()    # another stage, with the bundled deck
        page.get_by_text("opened demo-ss1-col-des-essais.yaml").wait_for()
        settle(page, TIMEOUT_MS)
        cards = grid.grid(page, near="Section cards")
        assert [grid.cell(cards, c, 0) for c in (safety, top)] == ["200", "240"]
        assert grid.cell(cards, note, 0) in ("", "None")
        assert "box=" not in page.url


def test_a_card_numbered_with_a_word_is_kept_and_its_problem_shown(url):
    with chromium() as browser:
        page = _page(browser, url)
        cards = _deck_tab(page)
        before = grid.rows(cards)
        grid.add_row(page, cards)
        grid.type_cell(page, cards, grid.column(cards, "id"), before, "12b")
        settle(page, TIMEOUT_MS)
        grid.type_cell(page, cards, grid.column(cards, "safety"), before, "100")
        settle(page, TIMEOUT_MS)
        cards = grid.grid(page, near="Section cards")
        assert grid.cell(cards, grid.column(cards, "id"), before) == "12b"
        assert grid.cell(cards, grid.column(cards, "safety"), before) == "100"
        main = page.locator('[data-testid="stMain"]').inner_text()
        assert f"sections[{before}]" in main               # the incomplete card is named by the deck's check
        page.screenshot(path=str(SHOTS / "rallye-deck-new-card.png"), full_page=True)


def test_a_reload_and_a_copied_address_keep_the_stage(url):
    with chromium() as browser:
        page = _page(browser, url)
        name = page.get_by_label("Stage name")
        name.fill("SS9 my own stage")
        name.press("Enter")
        settle(page, TIMEOUT_MS)
        cards = grid.grid(page, near="The 12 cards in driving order")
        first = grid.cell(cards, 2, 0)
        address = page.url
        assert "stage=d1." in address
        page.reload()
        page.get_by_text("Rallye (12 cards)").wait_for()
        settle(page, TIMEOUT_MS)
        expect(page.get_by_label("Stage name")).to_have_value("SS9 my own stage")
        fresh = grid.open_page(browser.new_context(), address, "Rallye (12 cards)", TIMEOUT_MS)   # another browser
        expect(fresh.get_by_label("Stage name")).to_have_value("SS9 my own stage")
        assert grid.cell(grid.grid(fresh, near="The 12 cards in driving order"), 2, 0) == first
        fresh.goto(address.split("stage=")[0] + "stage=d1.broken")   # a damaged address: said, and the demo opens
        fresh.get_by_text("could not be opened").wait_for()
        fresh.get_by_text("damaged or cut short").wait_for()
