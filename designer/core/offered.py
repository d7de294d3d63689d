"""Names a document gives to the files it is built on (boxes, rulesets, tilesets, decks, boards), resolved safely.

Two kinds of documents name other files:

- a document read from the user's own disk (the command line) may name a file beside it, by a relative or
  absolute path, or a bundled file by its name;
- a document that arrived over the network (an upload, a pasted text, a link in the address) may only name
  what the product offers, **by name**: a plain name such as ``demo-europe``, looked up in the bundled folders.
  A path (``/etc/passwd``, ``../x``, ``C:\\x``) is refused with a message before anything is opened.

>>> plain_name("demo-europe", what="board", where="race.yaml:3")
'demo-europe'
>>> is_plain("../secret"), is_plain("/etc/passwd"), is_plain("dirt-core")
(False, False, True)
"""
from __future__ import annotations

import re
from pathlib import Path
from typing import Any, Callable, Iterable

from designer.core.errors import DesignerError

_PLAIN = re.compile(r"^[A-Za-z0-9][A-Za-z0-9 _.+-]{0,79}$")
SUFFIXES = (".yaml", ".yml")


def _text(value: Any, what: str, where: str) -> str:
    if not isinstance(value, str) or not value.strip():
        raise DesignerError(f"the {what} must be named by a text, not {type(value).__name__} {str(value)[:40]!r}",
                            where=where, hint=f"write the name of a {what}, e.g. `demo`")
    return value.strip()


def is_plain(name: str) -> bool:
    """True for a bare name (letters, digits, ``-_.+`` and spaces, no folder, no ``..``)."""
    return bool(_PLAIN.match(name)) and ".." not in name


def plain_name(value: Any, *, what: str, where: str, offered: Iterable[str] = ()) -> str:
    """``value`` as a bare name; a path or anything else is refused with a :class:`DesignerError`."""
    name = _text(value, what, where)
    if not is_plain(name):
        known = ", ".join(sorted(offered)) or "the ones the app lists"
        raise DesignerError(f"the {what} is named by a path ({name[:60]!r}); a file opened in the app names "
                            f"boxes by name only", where=where, hint=f"write one of: {known}")
    return name


def names_in(folders: Iterable[Path], keep: Callable[[Path], bool] = lambda p: True) -> list[str]:
    """The names (file stems) of the YAML files in ``folders`` that ``keep`` accepts, first folder first."""
    out: list[str] = []
    for folder in folders:
        folder = Path(folder)
        if not folder.is_dir():
            continue
        for p in sorted(folder.iterdir()):
            if p.suffix in SUFFIXES and p.is_file() and keep(p) and p.stem not in out:
                out.append(p.stem)
    return out


def _inside(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(Path(folder).resolve())
    except OSError:
        return False


def find(value: Any, *, what: str, where: str, folders: Iterable[Path], near: Path | None = None,
         keep: Callable[[Path], bool] = lambda p: True) -> Path:
    """The file a document names as its ``what``.

    ``near`` is the folder of a document read from disk (None for an upload or a link): only then may the
    name be a path, taken relative to ``near``. Otherwise the name must be plain and is looked up only in
    ``folders`` (the bundled ones), never outside them.
    """
    folders = [Path(f) for f in folders]
    offered = names_in(folders, keep)
    name = _text(value, what, where)
    candidates: list[Path] = []
    if near is not None:
        raw = Path(name)
        base = raw if raw.is_absolute() else Path(near) / raw
        candidates += [base] + [base.with_name(base.name + s) for s in SUFFIXES]
    else:
        plain_name(name, what=what, where=where, offered=offered)
    if is_plain(name):
        for folder in folders:
            for cand in [folder / name] + [folder / f"{name}{s}" for s in SUFFIXES]:
                if _inside(cand, folder):
                    candidates.append(cand)
    for cand in candidates:
        if cand.is_file() and keep(cand):
            return cand
    raise DesignerError(f"no {what} named {name[:60]!r}", where=where,
                        hint=f"known: {', '.join(offered) or 'none'}"
                             + ("; or give the path of a file beside this one" if near is not None else ""))
