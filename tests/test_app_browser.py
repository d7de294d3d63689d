"""End to end in a real browser: Debian's Chromium driven by Playwright against ``streamlit run``.

From an empty stage, build a short stage by clicking the palette, watch a validation problem appear and
disappear, select a tile by clicking it on the map, run the analysis, and download the YAML. Screenshots
of every page go to ``screenshots/`` (git-ignored) for a person to look at.

Needs /usr/bin/chromium (``apt-get install chromium``; CI installs it). Playwright's own browsers are
never downloaded.
"""
from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
MAIN = ROOT / "designer" / "app" / "main.py"
CHROMIUM = Path("/usr/bin/chromium")
SHOTS = ROOT / "screenshots"
TIMEOUT_MS = 30_000

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not CHROMIUM.exists(), reason="needs Debian's chromium at /usr/bin/chromium "
                                                     "(apt-get install chromium)"),
]


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """``streamlit run designer/app/main.py`` on a free port; stopped after the tests."""
    port = _free_port()
    log = tmp_path_factory.mktemp("streamlit") / "server.log"
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    with open(log, "wb") as out:
        proc = subprocess.Popen(
            [sys.executable, "-m", "streamlit", "run", str(MAIN), "--server.headless", "true",
             "--server.port", str(port), "--server.address", "127.0.0.1", "--browser.gatherUsageStats", "false",
             "--server.fileWatcherType", "none"],
            cwd=ROOT, stdout=out, stderr=subprocess.STDOUT, env=env)
    url = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                pytest.fail(f"streamlit stopped (exit {proc.returncode}):\n{log.read_text(errors='replace')}")
            try:
                with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as r:
                    if r.read().strip() == b"ok":
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                pytest.fail(f"streamlit did not start in 60 s:\n{log.read_text(errors='replace')}")
            time.sleep(0.3)
        yield url
    finally:
        proc.terminate()
        try:
            proc.wait(timeout=15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(timeout=5)


@pytest.fixture(scope="module")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=str(CHROMIUM),
                              args=["--no-sandbox", "--disable-gpu", "--disable-background-networking"])
        try:
            yield b
        finally:
            b.close()


def _shot(page, name: str) -> None:
    """A screenshot of the whole page: the window is made as tall as the app's content first."""
    SHOTS.mkdir(exist_ok=True)
    _settle(page)
    size = page.viewport_size
    height = page.evaluate("""() => {
        const main = document.querySelector('[data-testid="stMain"]') || document.body;
        return Math.max(main.scrollHeight, document.body.scrollHeight);
    }""")
    page.set_viewport_size({"width": size["width"], "height": max(size["height"], min(int(height) + 40, 8000))})
    page.wait_for_timeout(500)
    page.screenshot(path=str(SHOTS / f"{name}.png"), full_page=True)
    page.set_viewport_size(size)
    page.wait_for_timeout(200)


def _settle(page) -> None:
    """Wait until Streamlit has finished the current run (no 'running' status, no stale elements)."""
    page.wait_for_timeout(300)
    page.wait_for_function(
        """() => !document.querySelector('[data-testid="stStatusWidget"]')
                 && !document.querySelector('[data-stale="true"]')""",
        timeout=TIMEOUT_MS)
    page.wait_for_timeout(300)


def _click_key(page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    _settle(page)


def _map_click(page, stage, index: int) -> None:
    """Click the centre of tile ``index`` on the map chart, using the same layout as the app."""
    from designer.core import hexgrid
    from designer.app.dirt import mapview
    from designer.systems.dirt.render import stage_svg
    from designer.systems.dirt.tileset import get_tileset
    from designer.systems.dirt.track import assemble

    track = assemble(stage, get_tileset(stage.tileset))
    svg = stage_svg(track, width_px=None)
    lay = mapview.layout(svg, mapview.map_points(track), max_width=680, max_height=600)
    x, y = hexgrid.to_pixel(track.tiles[index].hex, mapview.SIZE)
    # The chart's plotting area (Vega's background rectangle) spans the layout's domains.
    view = page.locator('[data-testid="stVegaLiteChart"] path.background').first
    view.wait_for(timeout=TIMEOUT_MS)
    box = view.bounding_box()
    assert abs(box["width"] - lay["width"]) <= 2 and abs(box["height"] - lay["height"]) <= 2, (box, lay)
    page.mouse.click(box["x"] + (x - lay["x_domain"][0]) * lay["ppu"],
                     box["y"] + (y - lay["y_domain"][0]) * lay["ppu"])
    _settle(page)


def test_build_validate_analyse_download(server, browser, tmp_path):
    from playwright.sync_api import expect

    from designer.systems.dirt.stage import Stage, loads_stage

    context = browser.new_context(viewport={"width": 1500, "height": 2000}, accept_downloads=True)
    page = context.new_page()
    try:
        page.goto(server, timeout=TIMEOUT_MS)
        expect(page.get_by_role("heading", name="Rally 1 - SS1")).to_be_visible(timeout=TIMEOUT_MS)
        _settle(page)
        expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(timeout=TIMEOUT_MS)
        _shot(page, "01-design-rulebook-stage")

        # An empty stage: a problem is listed at once.
        _click_key(page, "new_stage")
        expect(page.get_by_text("the stage has no tiles")).to_be_visible(timeout=TIMEOUT_MS)

        # The start tile alone: 'not a finish tile' appears, naming tile 1.
        _click_key(page, "pal_202a_AD")
        problem = page.get_by_text("not a finish tile")
        expect(problem).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.locator(".st-key-problems p").filter(has_text="not a finish tile")).to_contain_text(
            "Tile 1 (202a)")
        _click_key(page, "pal_205a_AD")
        _click_key(page, "pal_208a_DB")
        _shot(page, "02-design-problem")
        # The finish: the problem disappears and the stage is valid.
        _click_key(page, "pal_203a_AD")
        expect(problem).to_have_count(0, timeout=TIMEOUT_MS)
        expect(page.get_by_text("Valid stage")).to_be_visible(timeout=TIMEOUT_MS)

        # Click tile 2 on the map: it becomes the selected tile.
        built = Stage(name="New stage", tiles=["202a A", "205a A", "208a D", "203a A"])
        _map_click(page, built, 1)
        expect(page.get_by_text("Tile 2 · 205a")).to_be_visible(timeout=TIMEOUT_MS)
        _shot(page, "03-design-valid-selected")

        # The analysis.
        page.get_by_role("tab", name="Analysis").click()
        _settle(page)
        expect(page.get_by_text("Game time")).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.get_by_text("Turn by turn")).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(timeout=TIMEOUT_MS)
        _shot(page, "04-analysis")

        page.get_by_role("tab", name="Rally").click()
        _settle(page)
        expect(page.get_by_text("Rally totals")).to_be_visible(timeout=TIMEOUT_MS)
        _shot(page, "05-rally")

        # Download the YAML and read it back.
        page.get_by_role("tab", name="Export").click()
        _settle(page)
        _shot(page, "06-export")
        with page.expect_download(timeout=TIMEOUT_MS) as info:
            page.locator(".st-key-dl_yaml button").click()
        path = tmp_path / info.value.suggested_filename
        info.value.save_as(path)
        assert path.suffix == ".yaml"
        stage = loads_stage(path.read_text(encoding="utf-8"), str(path))
        assert [p.short() for p in stage.tiles] == ["202a A", "205a A", "208a D", "203a A"]
    finally:
        context.close()
