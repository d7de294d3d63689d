"""Click to finished page in a real browser: Debian's Chromium (Playwright) against ``streamlit run``.

Each figure is measured inside the page: from the click's pointerdown event (a real mouse click by the
driver) until the edit has reached the page (the address holds the new
stage, or the selected tile changed) and no element of the previous run is left (none marked stale, no
"running" status). That is everything a person waits for: the callback, the script run, the network and
the browser's drawing.

    python benchmarks/bench_app_browser.py [--repeat 7] [--sizes 18,36,72,144] [--width 1280]

The clicks: select a tile on the map, drive it the other way, undo, add a tile from the palette (inserted before
the selected tile: nothing may be added past the finish), undo again (not counted).

Target: at most 0.3 s per click for an 18-tile stage and 0.4 s for a 72-tile one (the last column divides each
median by the 18-tile one; a linear cost would match the tile ratio). The machine's load shows in every figure:
compare checkouts by running this script in each, one after the other, more than once.
The stages longer than 18 tiles repeat the 18-tile stage's road, so they are not legal (tiles used twice,
tiles on top of each other): the page then also lists their problems, which is the heavier case.
"""
from __future__ import annotations

import argparse
import os
import socket
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
CHROMIUM = "/usr/bin/chromium"

# An 18-tile valid stage (start, 15 road tiles, finish, assistance) built from the DIRT core box.
STAGE_18 = ["202a A", "230b B", "216a D", "214a D", "205b D", "211b C", "217a D", "222a B", "207b A", "231b D",
            "208b D", "228a D", "224a D", "209a B", "213a C", "223b D", "203a A", "201a D"]

# Armed before the click: the clock starts at the click's own pointerdown event (a real mouse click by the
# driver), and stops on the first animation frame where the page is finished.
ARM_JS = """(mode) => {
    const stageOf = () => new URLSearchParams(location.search).get('stage');
    const selected = () => (document.querySelector('.st-key-sel_box input') || {}).value || '';
    const before = mode === 'selected' ? selected() : stageOf();
    const done = () => {
        const changed = mode === 'selected' ? selected() !== before : stageOf() !== before;
        return changed && !document.querySelector('[data-stale="true"]')
            && !document.querySelector('[data-testid="stStatusWidget"]');
    };
    window.__clickTime = new Promise(resolve => {
        window.addEventListener('pointerdown', async () => {
            const t0 = performance.now();
            while (!done()) {
                await new Promise(r => requestAnimationFrame(r));
                if (performance.now() - t0 > 30000) { resolve(-1); return; }
            }
            resolve(performance.now() - t0);
        }, {once: true, capture: true});
    });
}"""


def timed_click(page, target, mode: str) -> float:
    """Seconds from a real click on ``target`` (a widget key, or a point of the page) to the finished page."""
    page.evaluate(ARM_JS, mode)
    if isinstance(target, str):
        page.locator(f".st-key-{target} button").first.click()
    else:
        page.mouse.click(*target)
    ms = page.evaluate("window.__clickTime")
    if ms < 0:
        raise RuntimeError(f"a click on {target} did not finish in 30 s")
    return ms / 1000


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def start_server(port: int, log_path: Path):
    env = dict(os.environ, PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))
    log = open(log_path, "wb")
    proc = subprocess.Popen(
        [sys.executable, "-m", "streamlit", "run", str(ROOT / "designer" / "app" / "main.py"),
         "--server.headless", "true", "--server.port", str(port), "--server.address", "127.0.0.1",
         "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none"],
        cwd=ROOT, stdout=log, stderr=subprocess.STDOUT, env=env)
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise RuntimeError(f"streamlit stopped: {log_path.read_text(errors='replace')[-2000:]}")
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/_stcore/health", timeout=2) as r:
                if r.read().strip() == b"ok":
                    return proc
        except OSError:
            time.sleep(0.3)
    proc.terminate()
    raise RuntimeError("streamlit did not start in 60 s")


def stage_of(n: int):
    from designer.systems.dirt.board.stage import Stage

    middle = STAGE_18[1:16]
    tiles = [STAGE_18[0]]
    while len(tiles) < n - 2:
        tiles += middle[: n - 2 - len(tiles)]
    tiles += STAGE_18[16:17] + STAGE_18[17:18] if n >= 18 else STAGE_18[16:17]
    return Stage(name=f"Benchmark stage ({n} tiles)", tiles=tiles[:n])


def settle(page) -> None:
    page.wait_for_timeout(200)
    page.wait_for_function("""() => !document.querySelector('[data-stale="true"]')
                                   && !document.querySelector('[data-testid="stStatusWidget"]')""", timeout=60_000)
    page.wait_for_timeout(200)


def map_point(page, stage, index: int) -> tuple[float, float]:
    """Where tile ``index`` sits on the page's map (the same layout as the app, read from the chart's box)."""
    from designer.app.dirt import mapview
    from designer.core import hexgrid
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.board.track import assemble

    from designer.systems.dirt.board.render import stage_svg

    track = assemble(stage, get_tileset(stage.tileset))
    x, y = hexgrid.to_pixel(track.tiles[index].hex, mapview.SIZE)
    lay = mapview.layout(stage_svg(track, width_px=None), mapview.map_points(track))
    chart = page.locator('[data-testid="stVegaLiteChart"] path.background').first
    chart.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(100)
    box = chart.bounding_box()
    ppu = box["width"] / (lay["x_domain"][1] - lay["x_domain"][0])       # the domain spans the chart's width
    return box["x"] + (x - lay["x_domain"][0]) * ppu, box["y"] + (y - lay["y_domain"][0]) * ppu


def measure(page, base: str, n: int, repeat: int) -> dict[str, list[float]]:
    from designer.app.dirt import links

    stage = stage_of(n)
    page.goto(f"{base}/?system=dirt&stage={links.stage_code(stage)}", timeout=60_000)
    page.locator(".st-key-act_reverse, .st-key-sel_next").first.wait_for(timeout=60_000)
    settle(page)
    # Palette buttons insert before the selected tile (a tile added after the finish would be refused).
    page.locator(".st-key-palette_mode button").filter(has_text="Before").click()
    settle(page)
    out: dict[str, list[float]] = {"select on the map": [], "drive the other way": [], "undo": [],
                                   "add a tile": []}
    for k in range(repeat + 1):           # the first round warms the caches and is not counted
        figures = {}
        figures["select on the map"] = timed_click(page, map_point(page, stage, 4 + k % 3), "selected")
        settle(page)
        figures["drive the other way"] = timed_click(page, "act_reverse", "stage")
        settle(page)
        figures["undo"] = timed_click(page, "undo", "stage")
        settle(page)
        figures["add a tile"] = timed_click(page, "pal_206a_AD", "stage")
        settle(page)
        timed_click(page, "undo", "stage")
        settle(page)
        if k:
            for name, v in figures.items():
                out[name].append(v)
    return out


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=7)
    ap.add_argument("--sizes", default="18,36,72,144")
    ap.add_argument("--width", type=int, default=1280)
    args = ap.parse_args(argv)
    from playwright.sync_api import sync_playwright

    sizes = [int(s) for s in args.sizes.split(",")]
    port = _free_port()
    log = Path(os.environ.get("TMPDIR", "/tmp")) / f"bench-app-browser-{port}.log"
    proc = start_server(port, log)
    results = {}
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox", "--disable-gpu"])
            page = browser.new_page(viewport={"width": args.width, "height": 900})
            for n in sizes:
                results[n] = measure(page, f"http://127.0.0.1:{port}", n, args.repeat)
            browser.close()
    finally:
        proc.terminate()
        proc.wait(timeout=15)
    load = os.getloadavg()[0]
    print(f"Click to finished page in Chromium, {args.width} px window, median of {args.repeat} clicks (seconds); "
          f"load average {load:.1f} on {os.cpu_count()} cores (the browser, the server and anything else share them):")
    names = list(next(iter(results.values())))
    print(f"  {'tiles':>5}  " + "  ".join(f"{n:>19}" for n in names) + "   all  vs 18 tiles")
    base = None
    for n in sizes:
        meds = [statistics.median(results[n][name]) for name in names]
        everything = statistics.median([x for name in names for x in results[n][name]])
        base = base or everything
        print(f"  {n:>5}  " + "  ".join(f"{m:>19.3f}" for m in meds) + f"  {everything:5.3f}  "
              f"x{everything / base:.2f} (tiles x{n / sizes[0]:.0f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
