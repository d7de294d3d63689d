"""End to end in a real browser: Debian's Chromium driven by Playwright against ``streamlit run``.

From an empty stage, build a short stage by clicking the palette, watch a validation problem appear and
disappear, select a tile by clicking it on the map, run the analysis, and download the YAML. Screenshots
of every page go to ``screenshots/`` (git-ignored) for a person to look at.

Needs /usr/bin/chromium (``apt-get install chromium``; CI installs it). Playwright's own browsers are
never downloaded.
"""
from __future__ import annotations

import re
import shutil
import time

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

SHOTS = ROOT / "screenshots"
TIMEOUT_MS = 30_000

pytestmark = BROWSER_MARKS


TRACED = shutil.which("strace") is not None
# The calls by which a process creates, changes or removes a file: strace writes each successful one, with the
# path behind every file descriptor (-y), so a write to a socket or a pipe is told from a write to a file.
CHANGES = ("creat,open,openat,openat2,rename,renameat,renameat2,unlink,unlinkat,mkdir,mkdirat,rmdir,link,linkat,"
           "symlink,symlinkat,truncate,ftruncate,fallocate,write,writev,pwrite64,pwritev,pwritev2")
SERVER: dict = {}          # the strace log of the running server, for the check that it writes no file
WRITE_FLAGS = re.compile(r"O_WRONLY|O_RDWR|O_CREAT|O_TRUNC|O_APPEND")
NOT_STORAGE = ("/dev/null", "/dev/pts/", "/dev/tty", "/proc/", "/sys/")


def _changes(log: str) -> list[str]:
    """The lines of a ``strace -y`` log where the process created, changed or removed a file on storage.

    Opens count when they may write; writes and truncations when their descriptor is a file (not a socket, a
    pipe or an event counter); the device files a process may write without storing anything never count."""
    found = []
    for line in log.splitlines():
        call = re.match(r"^\d+\s+(\w+)\((.*)$", line)
        if call is None:
            continue
        name, rest = call.groups()
        if name in ("open", "openat", "openat2", "creat"):
            path = re.search(r'"([^"]*)"', rest)
            if name != "creat" and not WRITE_FLAGS.search(rest):
                continue
        else:
            path = re.match(r'\d+<([^>]*)>', rest) if name.startswith(("write", "pwrite", "ftrunc", "falloc")) \
                else re.search(r'"([^"]*)"', rest)
        target = path.group(1) if path else ""
        if name.startswith(("write", "pwrite", "ftrunc", "falloc")) and not target.startswith("/"):
            continue        # a socket, a pipe, an anonymous inode
        if not target.startswith(NOT_STORAGE):
            found.append(line)
    return found


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The app as ``rally-designer app`` serves it (``python -m designer.app.serve``), on a free port; stopped after
    the tests; under strace when it is installed, recording every call that may change a file.

    Its output goes to a pipe kept in memory and it writes no bytecode, so any file it changes it changes
    because of what the browser asked it to do."""
    wrap = None
    if TRACED:
        SERVER["log"] = tmp_path_factory.mktemp("strace") / "changes.log"
        wrap = ["strace", "-f", "-qq", "-y", "--seccomp-bpf", "-e", "status=successful", "-e", f"trace={CHANGES}",
                "-o", str(SERVER["log"])]
    yield from serve_app(None, env={"PYTHONDONTWRITEBYTECODE": "1"}, wrap=wrap)


def _log_from(start: int) -> str:
    with open(SERVER["log"], "rb") as f:
        f.seek(start)
        return f.read().decode(errors="replace")


def test_the_change_record_tells_a_file_from_a_socket():
    """The filter above on lines strace writes: what a server that wrote a file would leave, and what it leaves
    when it only talks to the browser."""
    log = """\
12 openat(AT_FDCWD</srv>, "/srv/app/stage.yaml", O_WRONLY|O_CREAT|O_TRUNC|O_CLOEXEC, 0666) = 9</srv/app/stage.yaml>
12 openat(AT_FDCWD</srv>, "/srv/app/tiles.yaml", O_RDONLY|O_CLOEXEC) = 9</srv/app/tiles.yaml>
13 write(9</tmp/tmpab12>, "blat", 4) = 4
13 write(14<socket:[4411]>, "\\x81~", 4) = 4
13 write(7<pipe:[991]>, "x", 1) = 1
13 write(5<anon_inode:[eventfd]>, "\\1\\0", 8) = 8
14 openat(AT_FDCWD</srv>, "/dev/null", O_RDWR|O_CLOEXEC) = 3</dev/null>
14 unlink("/tmp/tmpab12") = 0
14 renameat2(AT_FDCWD</srv>, "/srv/a.tmp", AT_FDCWD</srv>, "/srv/a", RENAME_NOREPLACE) = 0
15 ftruncate(9</srv/app/stage.yaml>, 0) = 0
"""
    assert [line.split()[1].split("(")[0] for line in _changes(log)] == \
        ["openat", "write", "unlink", "renameat2", "ftruncate"]


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


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


def _settle(page, timeout_ms: int = TIMEOUT_MS) -> None:
    settle(page, timeout_ms)


def _click_key(page, key: str) -> None:
    page.locator(f".st-key-{key} button").first.click()
    _settle(page)


def _map_click(page, stage, index: int) -> None:
    """Click the centre of tile ``index`` on the map chart, using the same layout as the app."""
    from designer.app.dirt import mapview
    from designer.core import hexgrid
    from designer.systems.dirt.board.render import stage_svg
    from designer.systems.dirt.board.tileset import get_tileset
    from designer.systems.dirt.board.track import assemble

    track = assemble(stage, get_tileset(stage.tileset))
    lay = mapview.layout(stage_svg(track, width_px=None), mapview.map_points(track))
    x, y = hexgrid.to_pixel(track.tiles[index].hex, mapview.SIZE)
    # The chart's plotting area (Vega's background rectangle) spans the layout's domains.
    view = page.locator('[data-testid="stVegaLiteChart"] path.background').first
    view.wait_for(timeout=TIMEOUT_MS)
    view.evaluate("e => e.scrollIntoView({block: 'center'})")
    page.wait_for_timeout(200)
    box = view.bounding_box()
    ppu = box["width"] / (lay["x_domain"][1] - lay["x_domain"][0])
    assert abs(box["height"] - (lay["y_domain"][1] - lay["y_domain"][0]) * ppu) <= 2, (box, lay)
    page.mouse.click(box["x"] + (x - lay["x_domain"][0]) * ppu, box["y"] + (y - lay["y_domain"][0]) * ppu)
    _settle(page)


def _boxes_overlap(a: dict, b: dict) -> bool:
    return not (a["x"] + a["width"] <= b["x"] or b["x"] + b["width"] <= a["x"]
                or a["y"] + a["height"] <= b["y"] or b["y"] + b["height"] <= a["y"])


def _open(page, url: str) -> None:
    page.goto(url, timeout=TIMEOUT_MS)
    page.locator(".st-key-sel_next").first.wait_for(timeout=TIMEOUT_MS)
    page.locator('[data-testid="stVegaLiteChart"] path.background').first.wait_for(timeout=TIMEOUT_MS)
    _settle(page)


def test_build_validate_analyse_download(server, browser, tmp_path):
    from playwright.sync_api import expect

    from designer.systems.dirt.board.stage import Stage, loads_stage

    context = browser.new_context(viewport={"width": 1500, "height": 2000}, accept_downloads=True)
    page = context.new_page()
    try:
        page.goto(server, timeout=TIMEOUT_MS)
        expect(page.get_by_role("heading", name="Rally 1 - SS1")).to_be_visible(timeout=TIMEOUT_MS)
        _settle(page)
        expect(page.locator('[data-testid="stVegaLiteChart"]').first).to_be_visible(timeout=TIMEOUT_MS)
        _shot(page, "01-design-rulebook-stage")

        # An empty stage reads "incomplete", and so does a stage being built; the palette's second page opens.
        _click_key(page, "new_stage")
        expect(page.get_by_text("Incomplete: add a start tile")).to_be_visible(timeout=TIMEOUT_MS)
        _click_key(page, "pal_more")
        _click_key(page, "pal_202a_AD")
        expect(page.get_by_text("Incomplete: the road goes on")).to_be_visible(timeout=TIMEOUT_MS)
        _click_key(page, "pal_205a_AD")
        _click_key(page, "pal_208a_DB")
        _shot(page, "02-design-incomplete")
        # The finish: the stage is valid.
        _click_key(page, "pal_203a_AD")
        expect(page.get_by_text("Incomplete")).to_have_count(0, timeout=TIMEOUT_MS)
        expect(page.get_by_text("Valid stage")).to_be_visible(timeout=TIMEOUT_MS)

        # Click tile 2 on the map: it becomes the selected tile.
        built = Stage(name="New stage", tiles=["202a A", "205a A", "208a D", "203a A"])
        _map_click(page, built, 1)
        expect(page.get_by_text("Tile 2 · 205a")).to_be_visible(timeout=TIMEOUT_MS)
        _shot(page, "03-design-valid-selected")

        # The analysis.
        page.get_by_role("tab", name="Analysis").click()
        _settle(page)
        expect(page.get_by_text("Expected time", exact=True)).to_be_visible(timeout=TIMEOUT_MS)
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


def test_reload_keeps_the_stage_and_a_share_link_opens_one(server, browser):
    from playwright.sync_api import expect

    from designer.app.dirt import links
    from designer.systems.dirt.board.stage import Stage

    start = SERVER["log"].stat().st_size if TRACED else 0
    context = browser.new_context(viewport={"width": 1280, "height": 1000})
    page = context.new_page()
    try:
        # A share link opens the app on its stage directly.
        shared = Stage(name="Shared demo", tiles=["202a A", "205a D", "206a A", "203a A"])
        _open(page, f"{server}/?system=dirt&stage={links.stage_code(shared)}")
        expect(page.get_by_role("heading", name="Shared demo")).to_be_visible(timeout=TIMEOUT_MS)
        expect(page.get_by_text("Valid stage")).to_be_visible(timeout=TIMEOUT_MS)
        # An edit: select the third tile and drive it the other way; the address follows.
        _map_click(page, shared, 2)
        _click_key(page, "act_reverse")
        edited = links.read_stage_code(page.evaluate("new URLSearchParams(location.search).get('stage')"))
        assert edited.tiles[2].entry != shared.tiles[2].entry and edited.name == "Shared demo"
        # A reload keeps the edited stage (the undo history starts afresh).
        page.reload(timeout=TIMEOUT_MS)
        page.locator(".st-key-sel_next").first.wait_for(timeout=TIMEOUT_MS)
        _settle(page)
        expect(page.get_by_role("heading", name="Shared demo")).to_be_visible(timeout=TIMEOUT_MS)
        again = links.read_stage_code(page.evaluate("new URLSearchParams(location.search).get('stage')"))
        assert again == edited
        # The link shown on the Export tab opens the same stage in a fresh page.
        page.get_by_role("tab", name="Export").click()
        _settle(page)
        shown = page.locator(".st-key-share_link code, .st-key-share_link pre").first.inner_text().strip()
        other = context.new_page()
        _open(other, shown.replace("http://localhost", "http://127.0.0.1") if "127.0.0.1" not in shown else shown)
        assert links.read_stage_code(other.evaluate("new URLSearchParams(location.search).get('stage')")) == edited
        other.close()
    finally:
        context.close()
    # Nothing the browser did (open, edit, reload, share) made the server create, change or remove a file.
    if not TRACED:
        pytest.skip("the check that the server writes no file needs strace (apt-get install strace)")
    time.sleep(1)           # what the server does as the pages close
    assert _changes(_log_from(start)) == []


@pytest.mark.parametrize("width", [1024, 1280, 1600])
def test_layout_at_common_widths(server, browser, width):
    """The map and the side column never overlap; every tab drawn and saved for a person to look at."""
    import sys

    sys.path.insert(0, str(ROOT / "benchmarks"))
    from bench_app_browser import stage_of

    from designer.app.dirt import links

    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    try:
        _open(page, f"{server}/?system=dirt&stage={links.stage_code(stage_of(18))}")
        for size in ("fit", "large"):
            if size == "large":
                page.locator(".st-key-map_size button").filter(has_text="Large").click()
                _settle(page)
            map_box = page.locator(".st-key-map_box").bounding_box()
            for side in (".st-key-validation", ".st-key-palette_grid"):
                other = page.locator(side).bounding_box()
                assert not _boxes_overlap(map_box, other), (width, size, side, map_box, other)
            # The map stays inside the page's main column (it scrolls in its own box when larger).
            main = page.locator('[data-testid="stMainBlockContainer"]').bounding_box()
            assert map_box["x"] >= main["x"] - 1 and map_box["x"] + map_box["width"] <= main["x"] + main["width"] + 1
        _shot(page, f"layout-{width}-design")
        for tab in ("Analysis", "Rally", "Export"):
            page.get_by_role("tab", name=tab).click()
            _settle(page, 180_000)           # the first analysis of an 18-tile stage takes a while
            page.wait_for_timeout(800)
            _shot(page, f"layout-{width}-{tab.lower()}")
    finally:
        context.close()
