from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGE_FILES = sorted((ROOT / "stages").glob("rally-*/ss*.yaml"))


@pytest.fixture(scope="session")
def dirt():
    from designer.tileset import get_tileset

    return get_tileset("dirt-core")


@pytest.fixture(scope="session")
def official():
    from designer.tileset import get_tileset

    return get_tileset("official")
