"""Hostile uploads and links in a real browser, with the server watched by strace.

For every game, files that name boxes, rulesets, decks and tilesets by a path on the server (absolute, or
climbing out with ``..``) are uploaded through the page's own uploader, and a link of deeply nested data is
opened. The server runs under ``strace -f`` recording every file it opens: none of the planted files may be
opened, the page must say what was wrong in words, and no traceback or server path may reach the page.

The planted files are copies of real bundled boxes, so that a server that did open them would also read them
without complaint (the worst case).
"""
from __future__ import annotations

import base64
import shutil
import zlib
from pathlib import Path

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

pytestmark = [*BROWSER_MARKS, pytest.mark.skipif(shutil.which("strace") is None, reason="strace is not installed")]

TIMEOUT_MS = 60_000
PLANTED = {
    "secret-tileset.yaml": ROOT / "tilesets" / "dirt-core.yaml",
    "secret-zones.yaml": ROOT / "tilesets" / "classic" / "demo-zones.yaml",
    "secret-classic-rules.yaml": ROOT / "tilesets" / "classic" / "classic-rules.yaml",
    "secret-board.yaml": ROOT / "tilesets" / "greatrace" / "demo-frontier.yaml",
    "secret-greatrace-rules.yaml": ROOT / "tilesets" / "greatrace" / "greatrace-rules.yaml",
    "secret-deck.yaml": ROOT / "tilesets" / "rallye" / "rallye-demo.yaml",
    "secret-rallye-rules.yaml": ROOT / "tilesets" / "rallye" / "ruleset.yaml",
}


@pytest.fixture(scope="module")
def planted(tmp_path_factory) -> Path:
    folder = tmp_path_factory.mktemp("planted")
    for name, source in PLANTED.items():
        shutil.copyfile(source, folder / name)
    return folder


@pytest.fixture(scope="module")
def traced(tmp_path_factory, planted):
    """(base URL, strace log path) of the app served under strace."""
    log = tmp_path_factory.mktemp("strace") / "opens.log"
    wrap = ["strace", "-f", "-qq", "-e", "trace=open,openat,openat2,execve", "-o", str(log)]
    for base in serve_app(None, wait_s=120, wrap=wrap):
        yield base, log


@pytest.fixture(scope="module")
def browser():
    with chromium() as b:
        yield b


def _up(planted: Path, name: str) -> str:
    """Two ways to name a planted file: its absolute path, and a path climbing from the package data."""
    return str(planted / name)


def _climb(planted: Path, name: str) -> str:
    return "../" * 12 + str(planted / name).lstrip("/")


def _with(source: Path, key: str, value: str) -> str:
    """A bundled box's text with its top-level ``key`` naming ``value`` instead (the line added if absent)."""
    lines = source.read_text(encoding="utf-8").splitlines()
    out = [f"{key} {value}" if line.startswith(key) else line for line in lines]
    if out == lines:
        out.append(f"{key} {value}")
    return "\n".join(out) + "\n"


def uploads(planted: Path) -> dict[str, list[tuple[str, str]]]:
    p = lambda n: _up(planted, n)        # noqa: E731
    c = lambda n: _climb(planted, n)     # noqa: E731
    return {
        "dirt": [
            ("abs.yaml", f"stage: x\ntileset: {p('secret-tileset.yaml')}\ntiles: [202a A, 203a A]\n"),
            ("climb.yaml", f"stage: x\ntileset: {c('secret-tileset')}\ntiles: [202a A, 203a A]\n"),
        ],
        "classic": [
            ("abs.yaml", f"system: classic\nstage: x\nzones: {p('secret-zones.yaml')}\nroute: 'X0 | - | X4'\n"),
            ("rules.yaml", f"system: classic\nstage: x\nzones: demo-zones\nrules: {p('secret-classic-rules.yaml')}\n"
                           "route: 'X0 | - | X4'\n"),
            ("climb.yaml", f"system: classic\nstage: x\nzones: {c('secret-zones')}\nroute: 'X0 | - | X4'\n"),
        ],
        "greatrace": [
            ("abs.yaml", f"system: greatrace\nrace: x\nboard: {p('secret-board.yaml')}\nstart: Porto Azul\n"
                         "finish: Fort Lumen\n"),
            ("climb.yaml", f"system: greatrace\nrace: x\nboard: {c('secret-board')}\nstart: Porto Azul\n"
                           "finish: Fort Lumen\n"),
            ("rules.yaml", _with(PLANTED["secret-board.yaml"], "rules:", p("secret-greatrace-rules.yaml"))),
        ],
        "rallye": [
            ("abs.yaml", f"system: rallye\nstage: x\ndeck: {p('secret-deck.yaml')}\n"
                         "cards: [32, 5, 37, 25, 13, 4, 31, 17, 9, 27, 8, 26]\n"),
            ("climb.yaml", f"system: rallye\nstage: x\ndeck: {c('secret-deck')}\n"
                           "cards: [32, 5, 37, 25, 13, 4, 31, 17, 9, 27, 8, 26]\n"),
            ("rules.yaml", _with(PLANTED["secret-deck.yaml"], "ruleset:", p("secret-rallye-rules.yaml"))),
        ],
    }


def nested_link() -> str:
    """A 300-byte stage link whose data nests 100,000 lists deep."""
    raw = ("[" * 100_000 + "]" * 100_000).encode()
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)
    packed = deflate.compress(raw) + deflate.flush()
    return "d1." + base64.urlsafe_b64encode(packed).decode().rstrip("=")


REFUSED = ("by name", "no such", "not offer", "no tileset", "does not have", "could not", "cannot", "problem")


def _text(page) -> str:
    return page.locator("body").inner_text()


def _clean(page, what: str) -> str:
    text = _text(page)
    assert "Traceback" not in text, (what, text[:2000])
    assert str(ROOT) not in text and "site-packages" not in text, (what, text[:2000])
    assert "sentinel" not in text
    return text


def test_uploads_and_links_never_open_server_files(traced, browser, planted):
    base, log = traced
    page = browser.new_page(viewport={"width": 1280, "height": 900})
    try:
        for game, files in uploads(planted).items():
            for name, body in files:
                page.goto(f"{base}/?system={game}", timeout=TIMEOUT_MS)
                page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.wait_for(state="attached",
                                                                                           timeout=TIMEOUT_MS)
                settle(page, TIMEOUT_MS)
                page.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
                    files=[{"name": name, "mimeType": "application/x-yaml", "buffer": body.encode()}])
                settle(page, TIMEOUT_MS)
                try:        # the upload's message comes with the rerun the upload starts
                    page.wait_for_function("words => words.some(w => document.body.innerText.toLowerCase()"
                                           ".includes(w))", arg=list(REFUSED), timeout=30_000)
                except Exception:   # noqa: BLE001 - the assertion below says what the page shows
                    pass
                text = _clean(page, f"{game} {name}")
                assert any(w in text.lower() for w in REFUSED), (game, name, text)
        page.goto(f"{base}/?system=dirt&stage={nested_link()}", timeout=TIMEOUT_MS)
        page.locator(".st-key-sel_next").first.wait_for(timeout=TIMEOUT_MS)
        settle(page, TIMEOUT_MS)
        page.get_by_text("could not be opened").first.wait_for(timeout=TIMEOUT_MS)     # a message that floats
        _clean(page, "nested link")
    finally:
        page.close()
    opened = log.read_text(errors="replace") if log.exists() else ""
    assert opened, "strace recorded nothing"
    for name in PLANTED:
        assert name not in opened, f"the server opened the planted {name}"
