"""Share links: a stage (or a rally) packed into a short text that fits in the page address.

The link code is the stage file's data packed by :mod:`designer.app.address` (compact JSON, raw deflate, URL-safe
base64 behind the prefix ``d1.``, with its caps on length, unpacked size and depth); it carries everything the stage
file carries (tokens, notes, options).
The older one-line share code (``RD1/dirt-core/202aA.210bC/name=...``) is still read, and so is a whole
link pasted from the address bar (``...?system=dirt&stage=d1.eJ...``). Plain functions, no Streamlit.

>>> from designer.systems.dirt.board.stage import Stage
>>> s = Stage(name="Demo", tiles=["202a A", "205a D", "203a A"])
>>> code = stage_code(s)
>>> code.startswith("d1.") and len(code) < 70
True
>>> read_stage_code(code) == s
True
"""
from __future__ import annotations

import re
import urllib.parse

from designer.app.address import MAX_CODE, MAX_DEPTH, MAX_UNPACKED, PREFIX, pack, unpack  # noqa: F401 (re-exported)
from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import (MAX_RALLY_STAGES, SHARE_PREFIX, Stage, from_share_code,
                                               stage_from_data, stage_to_data)

HINT = "copy the whole link again (from the Export tab or the address bar)"


_SHORT = re.compile(r"(\d{3}[a-z](?:-\d+)?) ([A-F])(?: ([A-F]))?")
_PACKED = re.compile(r"(\d{3}[a-z](?:-\d+)?)([A-F])([A-F])?")


def _compact(data: dict) -> dict:
    """The stage file's data, a little tighter: short tiles written ``202aA`` and joined by dots."""
    out = dict(data)
    if out.get("tileset") == "dirt-core":
        del out["tileset"]
    tiles = out.get("tiles") or []
    if tiles and all(isinstance(t, str) and _SHORT.fullmatch(t) for t in tiles):
        out["tiles"] = ".".join(t.replace(" ", "") for t in tiles)
    return out


def _expand(data: dict) -> dict:
    out = dict(data)
    out.setdefault("tileset", "dirt-core")
    tiles = out.get("tiles")
    if isinstance(tiles, str):
        expanded = []
        for tok in tiles.split("."):
            m = _PACKED.fullmatch(tok)
            if not m:
                raise DesignerError(f"tile {len(expanded) + 1} of the link ({tok[:20]!r}) is not a face and an edge",
                                    where="share link", hint=HINT)
            expanded.append(" ".join(g for g in m.groups() if g))
        out["tiles"] = expanded
    return out


def stage_code(stage: Stage) -> str:
    """The link code of a stage (what follows ``?stage=`` in the page address)."""
    return pack(_compact(stage_to_data(stage)))


def rally_code(name: str, stages: list[Stage], slot: int | None = None) -> str:
    """The link code of a rally: its name, its stages in order and which one is being edited."""
    data: dict = {"rally": name, "stages": [_compact(stage_to_data(s)) for s in stages]}
    if slot is not None:
        data["slot"] = slot
    return pack(data)


def _from_address(text: str, param: str) -> str:
    """``text`` itself, or the value of ``param`` when ``text`` is a whole page address."""
    if "?" in text and (text.startswith(("http://", "https://", "?")) or "/?" in text):
        query = urllib.parse.parse_qs(urllib.parse.urlsplit(text).query)
        if param in query:
            return query[param][0]
        raise DesignerError(f"this address holds no {param}", where="share link",
                            hint=f"a share link ends with ?system=dirt&{param}=d1.…")
    return text


def read_stage_code(text: str, what: str = "share link") -> Stage:
    """A stage from a link code, an old ``RD1/`` share code, or a whole link with ``?stage=``."""
    text = (text or "").strip()
    if not text:
        raise DesignerError("paste a share link or code first", where=what,
                            hint="copy it from the Export tab; it looks like https://…/?system=dirt&stage=d1.eJ…")
    text = _from_address(text, "stage")
    if text.startswith(SHARE_PREFIX + "/"):
        return from_share_code(text)
    if not text.startswith(PREFIX):
        raise DesignerError("this is not a stage link or share code", where=what,
                            hint="a share link holds stage=d1.… ; an older share code starts with RD1/")
    data = unpack(text, what)
    if not isinstance(data, dict):
        raise DesignerError("this link holds no stage", where=what, hint=HINT)
    return stage_from_data(_expand(data), {}, what)


def read_rally_code(text: str, what: str = "rally link") -> tuple[str, list[Stage], int | None]:
    """``(name, stages, slot)`` from a rally link code (or a whole link with ``?rally=``)."""
    text = _from_address((text or "").strip(), "rally")
    if not text.startswith(PREFIX):
        raise DesignerError("this is not a rally link", where=what, hint=HINT)
    data = unpack(text, what)
    if not isinstance(data, dict) or not isinstance(data.get("stages"), list):
        raise DesignerError("this link holds no rally", where=what, hint=HINT)
    if len(data["stages"]) > MAX_RALLY_STAGES:
        raise DesignerError(f"this link holds {len(data['stages'])} stages; a rally has at most {MAX_RALLY_STAGES}",
                            where=what, hint=HINT)
    name = " ".join(str(data.get("rally") or "Rally").split())[:120] or "Rally"
    stages = []
    for i, item in enumerate(data["stages"]):
        if not isinstance(item, dict):
            raise DesignerError(f"stage {i + 1} of the rally is not a stage", where=what, hint=HINT)
        stages.append(stage_from_data(_expand(item), {}, f"{what}, stage {i + 1}"))
    slot = data.get("slot")
    if not (isinstance(slot, int) and not isinstance(slot, bool) and 0 <= slot < len(stages)):
        slot = None
    return name, stages, slot


def query(stage: Stage, rally: tuple[str, list[Stage], int | None] | None = None) -> dict[str, str]:
    """The page address's parameters that open this stage (and rally) in the app."""
    out = {"system": "dirt", "stage": stage_code(stage)}
    if rally is not None and rally[1]:
        out["rally"] = rally_code(*rally)
    return out


def share_url(base: str, stage: Stage) -> str:
    """A link that opens ``stage`` in the app at ``base`` (the app's address without its query)."""
    base = base.split("?", 1)[0].split("#", 1)[0]
    parts = urllib.parse.urlsplit(base)
    if parts.netloc and not parts.path:
        base += "/"
    return f"{base}?{urllib.parse.urlencode(query(stage))}"
