"""A cache on disk of what is slow to read and never changes for the same bytes (a tileset parsed and checked).

Only the command line switches it on (:func:`enable`): the app never writes a file on the machine that runs it,
so there the cache stays off and every read is the real read. An entry is a pickle named by a digest of

- the *kind* of entry and the *key* given by the caller (the bytes of the file read, its path),
- the code that builds the object (the source of the modules named by the caller) and the Python version,

so an entry is found again only for the same input read by the same code; anything else is a miss and the
caller reads the file as usual. An entry that cannot be read back (truncated, another Python, a class that has
moved) is a miss too and is removed. Entries live in ``$RALLY_CACHE_DIR``, else ``$XDG_CACHE_HOME/rally-designer``,
else ``~/.cache/rally-designer``; ``RALLY_CACHE=off`` switches the cache off. At most :data:`MAX_ENTRIES`
entries are kept (the oldest go first); the folder holds nothing else and may be deleted at any time.

>>> import tempfile
>>> enable(tempfile.mkdtemp())
True
>>> store("demo", b"key", {"a": 1}, modules=(__name__,))
>>> fetch("demo", b"key", modules=(__name__,))
{'a': 1}
>>> fetch("demo", b"other key", modules=(__name__,)) is None
True
>>> disable()
"""
from __future__ import annotations

import hashlib
import os
import sys
from pathlib import Path
from typing import Any, Iterable

MAX_ENTRIES = 64
MAX_BYTES = 32 * 1024 * 1024          # an entry larger than this is not kept
_DIR: Path | None = None
_CODE: dict[tuple, bytes] = {}


def default_dir() -> Path:
    env = os.environ.get("RALLY_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rally-designer"


def enable(directory: str | Path | None = None) -> bool:
    """Switch the cache on (``directory`` or :func:`default_dir`); False when ``RALLY_CACHE=off``."""
    global _DIR
    if os.environ.get("RALLY_CACHE", "").lower() in ("off", "0", "no", "false"):
        _DIR = None
        return False
    try:
        _DIR = Path(directory) if directory is not None else default_dir()
    except (RuntimeError, KeyError, OSError):          # no home folder to be found: no cache, nothing else changes
        _DIR = None
        return False
    return True


def disable() -> None:
    global _DIR
    _DIR = None


def enabled() -> bool:
    return _DIR is not None


def _code(modules: tuple[str, ...]) -> bytes:
    """A digest of the source of ``modules`` (the code that builds an entry), read once per process."""
    hit = _CODE.get(modules)
    if hit is None:
        h = hashlib.sha256(sys.version.encode())
        for name in modules:
            mod = sys.modules.get(name)
            src = getattr(mod, "__file__", None)
            try:
                h.update(Path(src).read_bytes() if src else name.encode())
            except OSError:
                h.update(name.encode())
        hit = _CODE[modules] = h.digest()
    return hit


def _entry(kind: str, key: bytes, modules: Iterable[str]) -> Path | None:
    if _DIR is None:
        return None
    h = hashlib.sha256(_code(tuple(modules)))
    h.update(kind.encode() + b"\0" + key)
    return _DIR / f"{kind}-{h.hexdigest()[:40]}.pickle"


def fetch(kind: str, key: bytes, modules: Iterable[str]) -> Any | None:
    """The object stored under ``kind`` and ``key`` by the same code, or None."""
    path = _entry(kind, key, modules)
    if path is None:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    import pickle

    try:
        return pickle.loads(data)
    except Exception:                     # written by other code or cut short: forget it
        try:
            path.unlink()
        except OSError:
            pass
        return None


def store(kind: str, key: bytes, obj: Any, modules: Iterable[str]) -> None:
    """Keep ``obj`` under ``kind`` and ``key``; any failure (read-only disk, no home) only means no cache."""
    path = _entry(kind, key, modules)
    if path is None:
        return
    import pickle

    from designer.core import files

    try:
        data = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        if len(data) > MAX_BYTES:
            return
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        files.write_atomic(path, data, what="cache entry")
        _prune(path.parent)
    except Exception:
        return


def _prune(folder: Path) -> None:
    entries = sorted(folder.glob("*.pickle"), key=lambda p: p.stat().st_mtime)
    for old in entries[:-MAX_ENTRIES]:
        old.unlink(missing_ok=True)
