"""Uploads in a real browser, in each game with a sidebar uploader: files the app refuses leave one message that the
next file replaces, the uploader is empty again after every file, and a 3 MB file never reaches the server."""
from __future__ import annotations

import pytest

from tests.browser import BROWSER_MARKS, ROOT, chromium, serve_app, settle

TIMEOUT_MS = 60_000
pytestmark = BROWSER_MARKS

FILES = {
    "classic": [("bad-one.yaml", b"system: classic\nstage: [unclosed\n"),
                ("bad-two.yaml", b"system: classic\nstage: x\nzones: /etc/passwd\nroute: 'X0 | - | X4'\n")],
    "greatrace": [("bad-one.yaml", b"system: greatrace\nrace: [unclosed\n"),
                  ("bad-two.yaml", b"system: greatrace\nrace: x\nboard: /etc/passwd\nstart: A\nfinish: B\n")],
    "rallye": [("bad-one.yaml", b"system: rallye\nstage: [unclosed\n"),
               ("bad-two.yaml", b"system: rallye\nstage: x\ndeck: /etc/passwd\ncards: [1]\n")],
}


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    """The app's address and a Chromium, for every game of the module."""
    for url in serve_app(tmp_path_factory.mktemp("uploads")):
        with chromium() as browser:
            yield url, browser


@pytest.mark.parametrize("game", sorted(FILES))
def test_refused_uploads_leave_one_message_and_a_big_file_stays_in_the_browser(served, game):
    url, browser = served
    page = browser.new_page(viewport={"width": 1280, "height": 1000})
    sent: list[int] = []
    page.on("request", lambda r: sent.append(len(r.post_data_buffer or b""))
            if r.method == "PUT" and "/upload_file/" in r.url else None)
    try:
        page.goto(f"{url}/?system={game}", timeout=TIMEOUT_MS)
        sidebar = page.locator('[data-testid="stSidebar"]')
        chooser = sidebar.locator('[data-testid="stFileUploaderDropzoneInput"]')
        chooser.first.wait_for(state="attached", timeout=TIMEOUT_MS)
        settle(page, TIMEOUT_MS)
        big = ("big.yaml", b"#" * (3 * 1024 * 1024))
        for name, body in FILES[game] + [big] + FILES[game][:1]:
            sidebar.locator('[data-testid="stFileUploaderDropzoneInput"]').first.set_input_files(
                files=[{"name": name, "mimeType": "application/x-yaml", "buffer": body}])
            page.wait_for_timeout(600)
            settle(page, TIMEOUT_MS)
        text = sidebar.inner_text()
        assert text.count("bad-one.yaml") == 1 and "bad-two.yaml" not in text, text    # one message, the last
        assert sidebar.locator('[data-testid="stAlertContentError"]').count() == 1, text
        assert sidebar.locator('[data-testid="stFileUploaderFile"]').count() <= 1, text     # nothing piles up
        assert len(sent) == 3 and max(sent) < 1024 * 1024, sent     # the 3 MB file never left the browser
        (ROOT / "screenshots").mkdir(exist_ok=True)
        page.screenshot(path=str(ROOT / "screenshots" / f"{game}-uploads-refused.png"))
    finally:
        page.close()
