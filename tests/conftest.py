import os
import shutil
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGE_FILES = sorted((ROOT / "stages" / "dirt").glob("rally-*/ss*.yaml"))
_CACHE = tempfile.mkdtemp(prefix="rally-cache-")


def pytest_configure(config):
    """The command line's tileset cache goes to a folder of this run (not the user's ~/.cache)."""
    os.environ["RALLY_CACHE_DIR"] = _CACHE
    # Pages run in this process (AppTest) raise a bug instead of showing the app's message for it, so that a
    # test sees it; the browser tests' servers do not inherit this (tests/browser.py).
    os.environ["RALLY_APP_RAISE"] = "1"


def pytest_unconfigure(config):
    shutil.rmtree(_CACHE, ignore_errors=True)


@pytest.fixture(scope="session")
def dirt():
    from designer.systems.dirt.board.tileset import get_tileset

    return get_tileset("dirt-core")


@pytest.fixture(scope="session")
def official():
    from designer.systems.dirt.board.tileset import get_tileset

    return get_tileset("official")
