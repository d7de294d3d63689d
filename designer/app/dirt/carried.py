"""What an imported layout carried that the stage does not use, said to the user rather than dropped.

The importers (:mod:`designer.systems.dirt.io`) read a graphic variant of a tile (``106b-2``: another print of
the same face) as its face and keep the author and unknown token ids in the stage's notes. The variants are
listed here from the file itself and added to the notes, which the Design tab shows under the map ("Carried
by the stage file") and every download keeps; :func:`upload_summary` says it all once, when the file opens.

>>> raw = b'{"Tuiles": [{"TuileId": "106B-2"}, {"TuileId": "106b-2"}, {"TuileId": "202A"}, {"TuileId": "103a1"}]}'
>>> graphic_variants(raw)
{'106b-2': 2, '103a1': 1}
"""
from __future__ import annotations

import json
import re

_VARIANT = re.compile(r"(\d{3})([ab])-?(\d+)")


def _raw_ids(data) -> list:
    """The tile ids of a .rgt (``Tuiles`` / ``TuileId``) or rekee (``tiles`` / ``id``, or ``[id, q, r, dir]``)."""
    if not isinstance(data, dict):
        return []
    if isinstance(data.get("Tuiles"), list):
        return [t.get("TuileId") for t in data["Tuiles"] if isinstance(t, dict)]
    if isinstance(data.get("tiles"), list):
        return [t.get("id") if isinstance(t, dict) else (t[0] if isinstance(t, list) and t else None)
                for t in data["tiles"]]
    return []


def graphic_variants(raw: bytes | str) -> dict[str, int]:
    """Tile ids with a graphic variant in a layout file, with how many tiles use each (file order)."""
    try:
        data = json.loads(raw)
    except (ValueError, UnicodeDecodeError, RecursionError):
        return {}
    out: dict[str, int] = {}
    for tid in _raw_ids(data):
        if isinstance(tid, str):
            t = tid.strip().lower()
            if _VARIANT.fullmatch(t):
                out[t] = out.get(t, 0) + 1
    return out


def face_of(variant: str) -> str:
    m = _VARIANT.fullmatch(variant)
    return m.group(1) + m.group(2) if m else variant


def variants_note(file_name: str, variants: dict[str, int]) -> str:
    """One line for the stage's notes."""
    items = ", ".join(f"{v} as {face_of(v)}" + (f" ({n} tiles)" if n > 1 else "") for v, n in variants.items())
    return (f"Graphic variants in {file_name} (another print of the same face; the road is the same, this app "
            f"draws the face): {items}.")


def with_variants(stage, file_name: str, raw: bytes | str):
    """The imported stage with its file's graphic variants listed in its notes (the stage itself when none)."""
    variants = graphic_variants(raw)
    if not variants:
        return stage
    line = variants_note(file_name, variants)
    notes = f"{stage.notes.rstrip()}\n{line}" if stage.notes else line
    return stage.model_copy(update={"notes": notes})


def upload_summary(stage) -> str:
    """What the opened stage carries beyond its road, in a few words, or ``""``."""
    tokens = sum(len(p.tokens) for p in stage.tiles)
    parts = []
    if stage.notes:
        parts.append("notes" + (" (with graphic variants)" if "Graphic variants in" in stage.notes else ""))
    if tokens:
        parts.append(f"{tokens} token{'s' if tokens != 1 else ''}")
    if not parts:
        return ""
    return ("It also carried " + " and ".join(parts) + ": see 'Carried by the stage file' under the map "
            "(kept in every download).")
