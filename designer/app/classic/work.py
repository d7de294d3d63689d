"""What of the classic Rallyman work the page address keeps: the open stage or rally (with the stage in view),
the zone box in use when it is the owner's own, and the zone editor's box while it is being entered.

Everything read back goes through the loaders that check an upload: boxes named by name, never by path.
"""
from __future__ import annotations

import copy
from typing import Any

import yaml

from designer.app.address import Kept, open_parts, yaml_text
from designer.app.classic.state import K, open_text, ss
from designer.core.errors import DesignerError
from designer.systems.classic.board import edit as E
from designer.systems.classic.files import zones as Z
from designer.systems.classic.system import SYSTEM

ADDRESS_PARAMS = ("stage", "box", "editor")
WHERE = "the page address"


def _doc_data() -> dict:
    """The open document as its file's data (read again only when its text changed)."""
    text = SYSTEM.dumps(ss[K + "doc"])
    memo = ss.get(K + "doc_data")
    if memo is None or memo[0] != text:
        memo = (text, yaml.safe_load(text))
        ss[K + "doc_data"] = memo
    return memo[1]


def editor_touched() -> bool:
    """True once the zone editor's box differs from what it started with (the editor records that)."""
    box = ss.get(K + "ed_box")
    return box is not None and K + "ed_first" in ss and repr(box) != ss[K + "ed_first"]


def address_work() -> list[Kept]:
    if K + "doc" not in ss:
        return []
    doc = ss[K + "doc"]
    kept = [Kept("stage", {"doc": _doc_data(), "at": int(ss.get(K + "stage_index", 0))}, "stage or rally",
                 "classic-stage.yaml", lambda: SYSTEM.dumps(doc))]
    text = ss.get(K + "box_text")
    if text:
        kept.append(Kept("box", yaml.safe_load(text), "zone box", "my-zones.yaml", lambda: text))
    box = ss.get(K + "ed_box")
    if editor_touched():
        pick = list(ss.get(K + "ed_pick", ("X", "asphalt")))
        kept.append(Kept("editor", {"box": box, "pick": pick}, "zone editor's box", f"{box.get('name', 'zones')}.yaml",
                         lambda: E.dump(E.box_data(box["name"], box["size"], box["zones"]))))
    return kept


def _open_box(data: Any) -> None:
    text = yaml_text(data, "zone box")
    Z.loads_box(text, WHERE)                 # checked like an uploaded box before it is used
    ss[K + "box_text"] = text


def _open_stage(data: Any) -> None:
    if not isinstance(data, dict) or not isinstance(data.get("doc"), dict):
        raise DesignerError("this link holds no stage or rally", where=WHERE)
    open_text(yaml_text(data["doc"], "stage or rally"), WHERE)
    at = data.get("at")
    if isinstance(at, int) and not isinstance(at, bool) and 0 <= at < len(SYSTEM.stages_of(ss[K + "doc"])):
        ss[K + "stage_index"] = at


def _open_editor(data: Any) -> None:
    box = data.get("box") if isinstance(data, dict) else None
    if not (isinstance(box, dict) and isinstance(box.get("name"), str) and isinstance(box.get("zones"), dict)
            and isinstance(box.get("size"), int) and 3 <= box["size"] <= 20):
        raise DesignerError("this link holds no zone editor box", where=WHERE)
    zones = {str(z): v for z, v in box["zones"].items() if isinstance(v, dict) and isinstance(v.get("faces"), dict)}
    pick = data.get("pick")
    zone, surface = (pick if isinstance(pick, list) and len(pick) == 2 else ["X", "asphalt"])
    if surface not in Z.SURFACES:
        surface = Z.SURFACES[0]
    face = (zones.get(str(zone)) or {}).get("faces", {}).get(surface)
    try:
        tables = E.tables_from_face(face) if isinstance(face, dict) else E.empty_tables()
    except (AttributeError, KeyError, TypeError, ValueError):
        raise DesignerError(f"zone {zone}, {surface} side of the editor's box cannot be read", where=WHERE) from None
    ss[K + "ed_box"] = {"name": box["name"][:80], "size": box["size"], "zones": copy.deepcopy(zones)}
    ss[K + "ed_pick"] = (str(zone)[:1].upper() or "X", surface)
    ss[K + "ed_tables"] = tables
    ss[K + "ed_version"] = ss.get(K + "ed_version", 0) + 1
    ss[K + "ed_first"] = ""                 # what came from the address is the owner's: kept from now on


def open_address(found: dict[str, Any]) -> None:
    open_parts(found, [("box", _open_box), ("stage", _open_stage), ("editor", _open_editor)])
