"""The DIRT pages in a real browser (Debian's Chromium through Playwright against ``streamlit run``): the Analysis
tab's map answers a hover over a cell of a line with its tile, gear and turn; the speed profile shades the cells
a jump flies over and numbers the tiles where each starts; overlapping tiles are marked on the Design map; a
tile added after the finish is refused.

Screenshots go to ``screenshots/`` (git-ignored) for a person to look at.
"""
from __future__ import annotations

import base64
import re

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

SHOTS = ROOT / "screenshots"
TIMEOUT_MS = 60_000
JUMP_STAGE = ROOT / "stages" / "dirt" / "rally-5" / "ss1.yaml"       # a long jump on tile 7 (207b)

pytestmark = BROWSER_MARKS


@pytest.fixture(scope="module")
def url(tmp_path_factory):
    yield from serve_app(tmp_path_factory.mktemp("dirt-profile"))


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _open(page, base: str, stage) -> None:
    from designer.app.dirt import links

    page.goto(f"{base}/?system=dirt&stage={links.stage_code(stage)}", timeout=TIMEOUT_MS)
    page.locator(".st-key-sel_next").first.wait_for(timeout=TIMEOUT_MS)
    settle(page)


def _stage_in_address(page):
    from designer.app.dirt import links

    return links.read_stage_code(page.evaluate("new URLSearchParams(location.search).get('stage')"))


def _analysis_of(stage):
    from designer.app.dirt import analysis
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.board.track import assemble

    track = assemble(stage, get_tileset(stage.tileset))
    return track, analysis.analyse(track, players=stage.players or 4)


def test_analysis_map_hover_and_profile_marks(url, browser):
    from playwright.sync_api import expect

    from designer.app.dirt import analysis
    from designer.systems.dirt.board.stage import load_stage

    stage = load_stage(JUMP_STAGE)
    track, view = _analysis_of(stage)
    rows = analysis.profile_rows(view, track.graph, "fastest")
    flown = [r for r in rows if r["flown"]]
    starts = analysis.tile_starts(rows)
    assert flown and len(starts) >= 8            # the stage has a jump and many tiles: the test can fail

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        _open(page, url, stage)
        page.get_by_role("tab", name="Analysis").click()
        page.get_by_text("Speed profile").wait_for(timeout=TIMEOUT_MS)
        settle(page, 240_000)
        # The ideal line (the risk budget's far end, "no limit"): the one that takes the jump.
        page.get_by_role("slider").first.focus()
        page.keyboard.press("End")
        page.get_by_test_id("stSliderThumbValue").get_by_text("no limit (ideal line)").wait_for(timeout=TIMEOUT_MS)
        settle(page, 240_000)

        # The map with the lines is in the page itself (not a picture): one hover target per cell of each line.
        line_map = page.locator(".st-key-line_map")
        assert line_map.locator("img").count() == 0
        fastest = line_map.locator("svg circle.line-cell[data-line='fastest']")
        assert fastest.count() == len(view.lines["fastest"].cells)
        # Hover a cell of the fastest line: the topmost element there is that cell's target, whose title the
        # browser shows as its tooltip; it says the tile, the gear and the turn of the analysis.
        k = next(i for i, r in enumerate(rows) if r["turn"] == 2)
        target = fastest.nth(k)
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        x, y = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        page.mouse.move(x, y)
        hit = page.evaluate("([x, y]) => { const e = document.elementFromPoint(x, y); "
                            "const c = e && e.closest('circle.line-cell'); "
                            "return c ? c.querySelector('title').textContent : (e ? e.tagName : null); }", [x, y])
        node, gear = view.lines["fastest"].cells[k]
        data = track.graph.nodes[node]
        assert hit == (f"Fastest line, tile {data['index'] + 1} ({data['tile']}), cell {data['cell']}: "
                       f"gear {gear}, turn 2"), hit
        # The cell flown over by the jump says so on the map too.
        j = rows.index(flown[0])
        assert "flown over by a jump" in fastest.nth(j).locator("title").text_content()

        # The speed profile (Vega draws SVG): one grey band and a "jump" label per cell flown over, the tile
        # numbers where each tile starts, and the length of the line the chart follows.
        chart = page.locator(".st-key-profile_chart [data-testid='stVegaLiteChart'], "
                             "[data-testid='stVegaLiteChart']").last
        chart.scroll_into_view_if_needed()
        texts = chart.locator("g.mark-text.role-mark text").all_text_contents()       # not the axes
        assert texts.count("jump") == len(flown), texts
        assert [t for t in texts if t.isdigit()] == [str(s["tile"]) for s in starts], texts
        assert chart.locator("g.mark-rect.role-mark path").count() == len(flown)
        expect(page.get_by_text(f"The fastest line drives {analysis.line_length(view, 'fastest')} cells; the "
                                f"shortest line {analysis.line_length(view, 'shortest')} cells")).to_be_visible()
        # The policy table: one decimal, the last column named for what it is.
        table = page.locator("[data-testid='stTable']").first
        expect(table).to_contain_text(analysis.POLICY_TO_FINISH)
        cells = table.locator("tbody tr").first.locator("td").all_text_contents()
        assert re.fullmatch(r"-?\d+\.\d", cells[-1].strip()), cells
        # Following the shortest line instead redraws the profile alone, with that line's length.
        page.locator(".st-key-profile_line button").filter(has_text="shortest line").click()
        expect(page.get_by_text(f"The shortest line drives {analysis.line_length(view, 'shortest')} cells.")
               ).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.locator("[data-testid='stVegaLiteChart'] text").filter(
            has_text="Distance along the shortest line")).to_have_count(1, timeout=TIMEOUT_MS)
        SHOTS.mkdir(exist_ok=True)
        page.set_viewport_size({"width": 1280, "height": 3200})
        page.wait_for_timeout(500)
        page.screenshot(path=str(SHOTS / "dirt-analysis-profile-1280.png"), full_page=True)
    finally:
        page.close()


def _loop_stage():
    """Seven tiles turning right all the way: the seventh lands on the start tile's place."""
    from designer.app.dirt import editing
    from designer.systems.dirt.board.tileset import get_tileset

    ts = get_tileset("dirt-core")
    stage = editing.add_tile(editing.new_stage("Overlap demo"), ts, "202a")
    for face in ("208a", "208b", "209a", "209b", "217a", "217b"):
        stage = editing.add_tile(stage, ts, face, turn="right")
    return stage


def _map_svg_with(page, text: str, timeout_ms: int = TIMEOUT_MS) -> str:
    """The pictures drawn under the design map (one SVG per tile), joined, once they hold ``text`` (the chart swaps
    its pictures after the page's messages are shown, so they are read again until they are the new ones)."""
    images = page.locator(".st-key-map_box [data-testid='stVegaLiteChart'] image")
    svg = ""
    for _ in range(max(1, timeout_ms // 250)):
        hrefs = [h or "" for h in images.evaluate_all("els => els.map(e => e.getAttribute('href'))")]
        svg = "".join(base64.b64decode(h.split(",", 1)[1]).decode("utf-8") for h in hrefs
                      if h.startswith("data:") and "," in h)
        if text in svg:
            return svg
        page.wait_for_timeout(250)
    return svg


def test_overlapping_tiles_are_marked_on_the_map(url, browser):
    from playwright.sync_api import expect

    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        _open(page, url, _loop_stage())
        expect(page.get_by_text("sits on the same place as tile 1").first).to_be_visible(timeout=TIMEOUT_MS)
        # The map's drawing is a picture per tile under the clickable layer: one hatched outline on each tile of
        # the shared place (the first and the seventh tile), the later one drawn see-through.
        svg = _map_svg_with(page, 'class="overlap"')
        marks = re.findall(r'<polygon class="overlap"[^>]*><title>([^<]*)</title>', svg)
        assert sorted(marks) == ["Tile 202a shares its place with another tile",
                                 "Tile 217b shares its place with another tile"], marks
        opacities = page.locator(".st-key-map_box [data-testid='stVegaLiteChart'] image").evaluate_all(
            "els => els.map(e => e.getAttribute('opacity') || getComputedStyle(e).opacity)")
        assert sorted(float(o) for o in opacities)[:2] == [0.55, 1.0], opacities
        SHOTS.mkdir(exist_ok=True)
        page.screenshot(path=str(SHOTS / "dirt-design-overlap-1280.png"), full_page=True)
    finally:
        page.close()


def test_a_tile_after_the_finish_is_refused(url, browser):
    from playwright.sync_api import expect

    from designer.systems.dirt.board.stage import Stage

    stage = Stage(name="Short demo", tiles=["202a A", "205a D", "203a A"])
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    try:
        _open(page, url, stage)
        page.locator(".st-key-pal_204a_AD button").first.click()
        expect(page.get_by_text("is the finish: nothing is driven after it").first).to_be_visible(
            timeout=TIMEOUT_MS)
        settle(page)
        assert _stage_in_address(page).tile_ids == ["202a", "205a", "203a"]
    finally:
        page.close()
