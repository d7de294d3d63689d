"""The games' sidebar upload: one message that replaces the one before, an uploader that starts empty again after
every file, the size checked on the server too, and a server that takes no upload larger than the app does."""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from designer.app import serve, uploads
from designer.core.errors import DesignerError

APP = Path(__file__).resolve().parent.parent / "designer" / "app"


class Upload:
    """What Streamlit's uploader holds for a file: its name and its bytes, in memory."""

    def __init__(self, name: str, data: bytes):
        self.name, self._data, self.size = name, data, len(data)

    def getvalue(self) -> bytes:
        return self._data


def _take(fake: dict, upload: Upload | None, opener) -> None:
    fake["g_upload_0"] = upload
    uploads._take("g_", "g_upload_0", 1, "a stage file", "upload one stage", opener)


@pytest.fixture
def fake(monkeypatch):
    state: dict = {}
    monkeypatch.setattr(uploads, "ss", state)
    return state


def test_one_message_replaced_by_every_upload(fake):
    opened = []

    def opener(text: str, name: str) -> None:
        if "bad" in text:
            raise DesignerError("this is not a stage", where=f"{name}:1", hint="upload a stage file")
        opened.append((name, text))

    _take(fake, Upload("one.yaml", b"bad: 1\n"), opener)
    assert fake["g_message"].startswith("error: one.yaml:1: this is not a stage")
    _take(fake, Upload("two.yaml", b"also bad\n"), opener)
    assert fake["g_message"].startswith("error: two.yaml:1") and "one.yaml" not in fake["g_message"]
    _take(fake, Upload("big.yaml", b"#" * (1024 * 1024 + 1)), opener)
    assert "1 MB at most" in fake["g_message"] and "big.yaml" in fake["g_message"]
    _take(fake, Upload("good.yaml", b"stage: x\n"), opener)
    assert fake["g_message"] == "opened good.yaml" and opened == [("good.yaml", "stage: x\n")]
    assert fake["g_upload_n"] == 4            # every file made the next uploader a new, empty one


def test_a_message_of_the_game_is_kept_and_a_removed_file_changes_nothing(fake):
    def opener(text: str, name: str) -> None:
        fake["g_message"] = f"using the zone box from {name}"

    _take(fake, Upload("box.yaml", b"zones: {}\n"), opener)
    assert fake["g_message"] == "using the zone box from box.yaml"
    _take(fake, None, opener)
    assert fake["g_message"] == "using the zone box from box.yaml"


def test_an_unexpected_failure_is_a_message_and_the_work_stays(fake, monkeypatch):
    monkeypatch.delenv("RALLY_APP_RAISE", raising=False)

    def opener(text: str, name: str) -> None:
        raise KeyError("x")

    fake["g_doc"] = "the work before"
    _take(fake, Upload("odd.yaml", b"stage: x\n"), opener)
    assert "could not be opened (KeyError)" in fake["g_message"] and fake["g_doc"] == "the work before"


def test_a_binary_file_is_refused_with_a_message(fake):
    _take(fake, Upload("photo.yaml", b"\x89PNG\x00\x00"), lambda text, name: None)
    assert "binary file" in fake["g_message"]


def test_the_server_takes_no_upload_larger_than_the_app_does():
    cmd = serve.command(["--server.port", "9999"])
    assert cmd[cmd.index("--server.maxUploadSize") + 1] == str(uploads.LARGEST_MB)
    assert cmd[-2:] == ["--server.port", "9999"]
    sizes = []
    for path in APP.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        sizes += [m for m in re.findall(r"max_upload_size=([A-Za-z_0-9]+)", text)]
    assert sizes, "no uploader found"
    known = {"1": 1, "limit_mb": 1, "PHOTO_MAX_MB": uploads.LARGEST_MB}
    assert all(name in known and known[name] <= uploads.LARGEST_MB for name in sizes), sizes
    assert uploads.LARGEST_MB < 3                 # a 3 MB file never reaches the server


@pytest.mark.parametrize("game", ["classic", "greatrace", "rallye"])
def test_each_game_has_one_uploader_of_one_megabyte(game):
    def page(game):
        import importlib

        importlib.import_module(f"designer.app.{game}").sidebar()

    at = AppTest.from_function(page, default_timeout=60, args=(game,))
    at.run()
    assert not at.exception, at.exception
    found = at.sidebar.get("file_uploader")
    assert len(found) == 1 and found[0].proto.max_upload_size_mb == 1
