"""The command line's tileset cache on disk: found again for the same bytes, never for changed ones (the file or
a file it includes), harmless when broken, off on request, and never used by the app."""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from designer.core import diskcache

ROOT = Path(__file__).resolve().parent.parent


def _cli(*args, cache: Path, env: dict | None = None) -> subprocess.CompletedProcess:
    e = dict(os.environ, RALLY_CACHE_DIR=str(cache), **(env or {}))
    e.pop("RALLY_CACHE", None)
    e.update(env or {})
    return subprocess.run([sys.executable, "-m", "designer.cli", *args], capture_output=True, text=True,
                          env=e, cwd=ROOT, timeout=120)


@pytest.fixture()
def box(tmp_path) -> Path:
    """A copy of the core box, included by a small tileset of its own, in a folder of the test."""
    folder = tmp_path / "tiles"
    folder.mkdir()
    shutil.copy(ROOT / "tilesets" / "dirt-core.yaml", folder / "dirt-core.yaml")
    (folder / "mine.yaml").write_text("tileset: mine\nsystem: dirt\ninclude: [dirt-core.yaml]\ntiles: {}\n")
    return folder


def _entries(cache: Path) -> list[Path]:
    return list((cache / diskcache.SUBFOLDER).glob("tileset-*.pickle"))


def _danger_of(out: str, face: str) -> str:
    row = next(line for line in out.splitlines() if line.startswith(face + " "))
    return row.split()[3]


def test_a_cached_tileset_is_read_again_when_an_included_file_changes(box, tmp_path):
    cache = tmp_path / "cache"
    first = _cli("tiles", "--tileset", str(box / "mine.yaml"), cache=cache)
    assert first.returncode == 0, first.stderr
    entries = sorted(_entries(cache))
    assert len(entries) == 2                                # mine.yaml and the dirt-core.yaml it includes
    again = _cli("tiles", "--tileset", str(box / "mine.yaml"), cache=cache)
    assert again.stdout == first.stdout
    assert sorted(_entries(cache)) == entries  # found again: nothing new written

    core = box / "dirt-core.yaml"
    assert _danger_of(first.stdout, "202a") == "yellow"
    text = core.read_text()
    marker = "  '202a':\n"
    at = text.index(marker)
    end = text.index("danger: yellow", at)
    core.write_text(text[:end] + "danger: red" + text[end + len("danger: yellow"):])
    changed = _cli("tiles", "--tileset", str(box / "mine.yaml"), cache=cache)
    assert changed.returncode == 0, changed.stderr
    assert _danger_of(changed.stdout, "202a") == "red"      # the include changed: the entry is not used


def test_a_broken_entry_is_a_miss_and_goes(box, tmp_path):
    cache = tmp_path / "cache"
    first = _cli("tiles", "--tileset", str(box / "dirt-core.yaml"), cache=cache)
    (entry,) = _entries(cache)
    entry.write_bytes(b"not a pickle")
    again = _cli("tiles", "--tileset", str(box / "dirt-core.yaml"), cache=cache)
    assert again.returncode == 0 and again.stdout == first.stdout
    assert entry.read_bytes() != b"not a pickle"            # replaced by a good entry


def test_the_cache_can_be_switched_off_and_an_unwritable_folder_is_no_error(box, tmp_path):
    cache = tmp_path / "cache"
    off = _cli("tiles", "--tileset", str(box / "dirt-core.yaml"), cache=cache, env={"RALLY_CACHE": "off"})
    assert off.returncode == 0 and not cache.exists()
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    stuck = _cli("tiles", "--tileset", str(box / "dirt-core.yaml"), cache=blocker / "cache")
    assert stuck.returncode == 0 and stuck.stdout == off.stdout and stuck.stderr == ""


def test_the_entry_depends_on_the_code_that_built_it(tmp_path):
    diskcache.enable(tmp_path)
    try:
        diskcache.store("kind", b"key", [1, 2], modules=("designer.core.hexgrid",))
        assert diskcache.fetch("kind", b"key", modules=("designer.core.hexgrid",)) == [1, 2]
        assert diskcache.fetch("kind", b"key", modules=("designer.core.yamlio",)) is None
        assert diskcache.fetch("other", b"key", modules=("designer.core.hexgrid",)) is None
    finally:
        diskcache.disable()


def test_at_most_max_entries_are_kept(tmp_path, monkeypatch):
    monkeypatch.setattr(diskcache, "MAX_ENTRIES", 3)
    diskcache.enable(tmp_path)
    try:
        for i in range(6):
            diskcache.store("n", str(i).encode(), i, modules=())
            os.utime(next(iter(sorted(diskcache.folder().glob("*.pickle"), key=os.path.getmtime))), None)
        assert len(list(diskcache.folder().glob("*.pickle"))) == 3
    finally:
        diskcache.disable()


def test_the_app_does_not_switch_the_cache_on():
    """The app's process imports the shell and the systems' pages; none of them may enable the disk cache."""
    code = ("import designer.app.main, designer.core.diskcache as d; "
            "import designer.systems.dirt.board.tileset as t; t.get_tileset('dirt-core'); print(d.enabled())")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=ROOT, timeout=120,
                         env=dict(os.environ, RALLY_CACHE_DIR="/nonexistent"))
    assert out.stdout.strip().splitlines()[-1] == "False", out.stderr
