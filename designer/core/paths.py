"""Where the bundled data lives: the project's ``tilesets/`` and ``stages/`` folders and the fonts."""
from __future__ import annotations

from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]
ROOT = PACKAGE.parent
TILESETS = ROOT / "tilesets"
STAGES = ROOT / "stages"
FONTS = PACKAGE / "fonts"
