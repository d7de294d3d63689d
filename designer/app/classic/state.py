"""Session state of the classic Rallyman pages: the open stage or rally, the zone box in use.

Keys start with ``classic_``. Nothing here writes a file: uploads are read from memory.
"""
from __future__ import annotations

from pathlib import Path

import streamlit as st

from designer.systems.classic.files import zones as Z
from designer.systems.classic.system import SYSTEM

ss = st.session_state
K = "classic_"


def open_path(path: Path) -> None:
    ss[K + "doc"] = SYSTEM.load(path)
    ss[K + "near"] = str(path.parent)
    ss[K + "source"] = path.name
    ss[K + "stage_index"] = 0
    ss[K + "analysis"] = {}
    ss.pop(K + "roadbook", None)
    ss.pop(K + "route_text", None)


def open_text(text: str, source: str) -> None:
    if "zones:" in text and "roads:" in text and "stage:" not in text and "rally:" not in text:
        box = Z.loads_box(text, source)
        ss[K + "box_text"] = text
        ss[K + "message"] = f"using the zone box {box.name} from {source}"
        return
    ss[K + "doc"] = SYSTEM.loads(text, source)
    ss[K + "near"] = None
    ss[K + "source"] = source
    ss[K + "stage_index"] = 0
    ss[K + "analysis"] = {}
    ss.pop(K + "roadbook", None)
    ss.pop(K + "route_text", None)


def ensure() -> None:
    if K + "doc" not in ss:
        first = next(e for e in SYSTEM.examples() if e.kind == "rally")
        open_path(first.path)
        ss[K + "message"] = f"opened the demo {first.label}"


def box_for(stage):
    text = ss.get(K + "box_text")
    if text:
        return Z.loads_box(text, "zone box (uploaded or edited)")
    near = Path(ss[K + "near"]) if ss.get(K + "near") else None
    return SYSTEM.box_of(stage, near)


def stages() -> list:
    return SYSTEM.stages_of(ss[K + "doc"])


def current_stage():
    items = stages()
    i = min(ss.get(K + "stage_index", 0), len(items) - 1)
    return i, items[i]
