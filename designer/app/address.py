"""The work in the page address: a reload, or the address copied into a fresh browser, opens the same work.

Data travels as compact JSON, compressed (raw deflate, as zlib does it) and written in URL-safe base64 behind the
prefix ``d1.``. Reading one is capped three ways, each refusal a message: the length of the code
(:data:`MAX_CODE`), the size of the unpacked text (:data:`MAX_UNPACKED`) and how deeply its lists and mappings
nest (:data:`MAX_DEPTH`). What is read is plain data for a game's own loader, which checks it as it checks an
upload: a link names boxes by name or carries their data, never a path.

:func:`pack` and :func:`unpack` are plain functions (the DIRT share links use them too). :func:`restore` and
:func:`keep` are the shell's part for the games whose pages module offers

- ``address_work() -> list[Kept]``: what to keep, one address parameter each (a stage, a race, an owned box);
- ``open_address(found: dict[str, data])``: open the work read back from those parameters (a DesignerError
  when it cannot be opened).

>>> unpack(pack({"stage": "Col", "cards": [1, 2, 3]}))
{'stage': 'Col', 'cards': [1, 2, 3]}
>>> pack([1]).startswith(PREFIX)
True
"""
from __future__ import annotations

import base64
import binascii
import json
import zlib
from dataclasses import dataclass
from typing import Any, Callable

from designer.core.errors import DesignerError

PREFIX = "d1."
#: Longest code read or written (an address this long is already past what browsers keep comfortably).
MAX_CODE = 32_000
#: Largest unpacked text accepted: a 150-tile stage with tokens on every tile, or a box of 20 zones, stays below it.
MAX_UNPACKED = 512 * 1024
#: Deepest nesting of lists and mappings a link may hold: a DIRT rally needs 6 levels, a classic zone box 6.
MAX_DEPTH = 10
HINT = "copy the whole link again (from the address bar or the Export tab)"


def pack(data: Any) -> str:
    """``data`` (JSON-ready) as a code for the page address. A value JSON has no word for (a date a YAML file
    wrote unquoted) travels as its text, which the game's loader reads as it reads a quoted one."""
    raw = json.dumps(data, separators=(",", ":"), ensure_ascii=False, default=str).encode("utf-8")
    deflate = zlib.compressobj(9, zlib.DEFLATED, -15)       # raw deflate: no header, no checksum
    packed = deflate.compress(raw) + deflate.flush()
    return PREFIX + base64.urlsafe_b64encode(packed).decode("ascii").rstrip("=")


def unpack(code: str, what: str = "share link") -> Any:
    """The data packed by :func:`pack`; a :class:`DesignerError` naming the problem otherwise."""
    code = code or ""
    if len(code) > MAX_CODE:
        raise DesignerError(f"this link is {len(code):,} characters long, more than any stage or box needs",
                            where=what, hint=HINT)
    if not code.startswith(PREFIX):
        raise DesignerError("this link was not made by this app (it does not start with d1.)", where=what, hint=HINT)
    body = code[len(PREFIX):]
    try:
        packed = base64.urlsafe_b64decode(body + "=" * (-len(body) % 4))
        unzip = zlib.decompressobj(-15)
        raw = unzip.decompress(packed, MAX_UNPACKED)
        if unzip.unconsumed_tail:
            raise DesignerError("this link unpacks to more data than any stage or box holds", where=what, hint=HINT)
        if not unzip.eof:
            raise zlib.error("cut short")
        data = json.loads(raw.decode("utf-8"))
    except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
        raise DesignerError("this link is damaged or cut short", where=what, hint=HINT) from None
    except RecursionError:
        data, deep = None, MAX_DEPTH + 1
    else:
        deep = depth(data)
    if deep > MAX_DEPTH:
        raise DesignerError(f"this link nests its data more than {MAX_DEPTH} levels deep, which no stage or box does",
                            where=what, hint=HINT)
    return data


def depth(data: Any) -> int:
    """How deeply lists and mappings nest in ``data`` (0 for a plain value), walked without recursion; the walk
    stops a level past :data:`MAX_DEPTH`.

    >>> depth(1), depth([1]), depth({"a": [[2]]})
    (0, 1, 3)
    """
    deepest, todo = 0, [(data, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            break
        todo.extend((child, level + 1) for child in children)
    return deepest


@dataclass
class Kept:
    """One part of a game's work kept in the address: ``param`` its parameter, ``data`` the JSON-ready data (None:
    nothing to keep), ``what`` its name in words, ``file_name`` and ``text`` the download offered instead when
    the part is too large for an address."""
    param: str
    data: Any
    what: str
    file_name: str = "work.yaml"
    text: Callable[[], str] | None = None


def document_and_box(document: Kept, box: Kept, bundled: Callable[[Any], Any], name_key: str) -> list[Kept]:
    """The parts of a game's work: its document (none while it has no data), and its box when the box is the
    owner's own: its data unlike ``bundled(name)``, the data of the bundled box of its name (None when no bundled
    box has that name). The box's download is named after it."""
    if document.data is None:
        return []
    data = box.data if isinstance(box.data, dict) else None
    if data is None or data == bundled(data.get(name_key)):
        return [document]
    box.file_name = f"{offered_name(data.get(name_key))}.yaml"
    return [document, box]


def offered_name(name: Any) -> str:
    """A name fit for a downloaded file: the box's own when it is a plain name, else ``box``."""
    from designer.core.offered import is_plain

    return name if isinstance(name, str) and is_plain(name) else "box"


def codes(kept: list[Kept]) -> tuple[dict[str, str], list[Kept]]:
    """The address parameters of the parts that fit (``param -> code``) and the parts too large to keep."""
    fits, too_large = {}, []
    for part in kept:
        if part.data is None:
            continue
        code = pack(part.data)
        if len(code) > MAX_CODE:
            too_large.append(part)
        else:
            fits[part.param] = code
    return fits, too_large


def read(found: dict[str, str]) -> dict[str, Any]:
    """The data of each parameter's code (a DesignerError naming the parameter when one cannot be read)."""
    return {param: unpack(code, f"the page address ({param}=)") for param, code in found.items()}


# -- the shell's part (Streamlit) ------------------------------------------------------------------------

def _params(pages) -> tuple[str, ...]:
    return tuple(getattr(pages, "ADDRESS_PARAMS", ()))


def restore(system: str, pages) -> None:
    """On a session's first run of ``system``'s pages, open the work its address parameters hold (once).
    A part that cannot be opened is a message; the pages then open as if the address held nothing."""
    import streamlit as st

    ss = st.session_state
    flag = f"{system}_address_read"
    if ss.get(flag) or not callable(getattr(pages, "open_address", None)):
        return
    ss[flag] = True
    found = {p: st.query_params.get(p) for p in _params(pages) if st.query_params.get(p)}
    if not found:
        return
    try:
        pages.open_address(read(found))
    except DesignerError as exc:
        ss[f"{system}_address_problem"] = str(exc)


def keep(system: str, pages) -> None:
    """Write the work into the address after a run (only parameters that changed); a part too large for an
    address is said in the sidebar with its download."""
    import streamlit as st

    ss = st.session_state
    if not callable(getattr(pages, "address_work", None)):
        return
    problem = ss.pop(f"{system}_address_problem", None)
    if problem:
        st.sidebar.error(f"**The work in this address could not be opened.**  \n{problem}".replace("\n", "  \n"))
    fits, too_large = codes(pages.address_work())
    qp = st.query_params
    for param in _params(pages):
        if param in fits:
            if qp.get(param) != fits[param]:
                qp[param] = fits[param]
        elif param in qp:
            del qp[param]
    for part in too_large:
        st.sidebar.warning(f"The {part.what} is too large to keep in the page address: a reload or a copied "
                           "address opens it without it. Download it to keep it.")
        if part.text is not None:
            st.sidebar.download_button(f"Download the {part.what} (YAML)", part.text(), file_name=part.file_name,
                                       mime="text/yaml", key=f"{system}_address_dl_{part.param}")


def open_parts(found: dict[str, Any], openers: list[tuple[str, Callable[[Any], None]]]) -> None:
    """Open the parts read from the address in the order of ``openers`` (a box before the stage that uses it);
    every part is tried, and the problems of those that could not be opened are raised together."""
    problems = []
    for param, opener in openers:
        if param not in found:
            continue
        try:
            opener(found[param])
        except DesignerError as exc:
            problems.append(f"{param}=: {exc}")
    if problems:
        raise DesignerError("; ".join(problems), where="the page address", hint=HINT)


def yaml_text(data: Any, what: str) -> str:
    """The YAML text of data read from an address, for the game's own loader (which checks it like an upload)."""
    import yaml

    if not isinstance(data, dict):
        raise DesignerError(f"this link holds no {what}", where="the page address", hint=HINT)
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)
