from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
STAGE_FILES = sorted((ROOT / "stages" / "dirt").glob("rally-*/ss*.yaml"))


@pytest.fixture(scope="session")
def dirt():
    from designer.systems.dirt.tileset import get_tileset

    return get_tileset("dirt-core")


@pytest.fixture(scope="session")
def official():
    from designer.systems.dirt.tileset import get_tileset

    return get_tileset("official")
