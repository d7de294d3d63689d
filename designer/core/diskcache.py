"""A cache on disk of what is slow to read and never changes for the same bytes (a tileset parsed and checked).

Only the command line switches it on (:func:`enable`): the app never writes a file on the machine that runs it,
so there the cache stays off and every read is the real read. An entry is a pickle named by a digest of

- the *kind* of entry and the *key* given by the caller (the bytes of the file read, its path),
- the code that builds the object (the source of the modules named by the caller) and the Python version,

so an entry is found again only for the same input read by the same code; anything else is a miss and the
caller reads the file as usual.

The cache trusts only what it wrote itself:

- the folder (``$RALLY_CACHE_DIR``, else ``$XDG_CACHE_HOME/rally-designer``, else ``~/.cache/rally-designer``)
  must belong to the user and be writable by no one else; otherwise the command says so in one line on
  stderr and runs without the cache. Entries live in a subfolder of its own, :data:`SUBFOLDER` (made 0700),
  so pointing ``RALLY_CACHE_DIR`` at a folder holding other files never touches them;
- each entry carries an HMAC-SHA256 of its bytes under a per-user key, a random file in the subfolder made
  with O_EXCL, mode 0600 and checked (owner, mode, size) before use. An entry whose signature does not match
  is never unpickled: a file planted by someone else cannot run code;
- an entry is opened with O_NOFOLLOW and O_NONBLOCK and read only when it is a regular file of the user of at
  most :data:`MAX_BYTES` (a symbolic link, a FIFO or a device in its place is a miss, not a hang);
- an entry that cannot be read back (truncated, another Python, a class that has moved, or not of the type the
  caller expects) is a miss too and is removed.

At most :data:`MAX_ENTRIES` entries are kept (the oldest go first); the folder may be deleted at any time.
``RALLY_CACHE=off`` switches the cache off.

>>> import tempfile
>>> enable(tempfile.mkdtemp())
True
>>> store("demo", b"key", {"a": 1}, modules=(__name__,))
>>> fetch("demo", b"key", modules=(__name__,), expect={"a": int})
{'a': 1}
>>> fetch("demo", b"key", modules=(__name__,), expect=list) is None
True
>>> fetch("demo", b"other key", modules=(__name__,)) is None
True
>>> disable()
"""
from __future__ import annotations

import hashlib
import hmac
import os
import re
import stat
import sys
from pathlib import Path
from typing import Any, Callable, Iterable

MAX_ENTRIES = 64
MAX_BYTES = 32 * 1024 * 1024          # an entry larger than this is not kept, nor read
SUBFOLDER = "rally-designer-v1"       # the only folder the cache writes in and prunes
KEY_FILE = "hmac.key"
KEY_BYTES = 32
MAGIC = b"RDC1"
_ENTRY = re.compile(r"^[a-z0-9_-]+-[0-9a-f]{40}\.pickle$")

_BASE: Path | None = None             # the folder chosen by enable()
_DIR: Path | None = None              # its subfolder, once checked
_KEY: bytes | None = None
_CHECKED = False
_CODE: dict[tuple, bytes] = {}


def _say(text: str) -> None:
    print(f"warning: {text}", file=sys.stderr)


warn: Callable[[str], None] = _say    # how a refused folder is reported (one line); the CLI prints to stderr


def default_dir() -> Path:
    env = os.environ.get("RALLY_CACHE_DIR")
    if env:
        return Path(env)
    base = os.environ.get("XDG_CACHE_HOME") or str(Path.home() / ".cache")
    return Path(base) / "rally-designer"


def enable(directory: str | Path | None = None) -> bool:
    """Switch the cache on (``directory`` or :func:`default_dir`); False when ``RALLY_CACHE=off``.

    The folder is checked (and its subfolder made) on first use, so a command that reads no tileset touches
    nothing."""
    global _BASE, _DIR, _KEY, _CHECKED
    _DIR, _KEY, _CHECKED = None, None, False
    if os.environ.get("RALLY_CACHE", "").lower() in ("off", "0", "no", "false"):
        _BASE = None
        return False
    try:
        _BASE = Path(directory) if directory is not None else default_dir()
    except (RuntimeError, KeyError, OSError):          # no home folder to be found: no cache, nothing else changes
        _BASE = None
        return False
    return True


def disable() -> None:
    global _BASE, _DIR, _KEY, _CHECKED
    _BASE, _DIR, _KEY, _CHECKED = None, None, None, False


def enabled() -> bool:
    return _BASE is not None and (not _CHECKED or _DIR is not None)


def folder() -> Path | None:
    """The subfolder the entries live in, once checked; None when the cache is off or refused."""
    return _open_folder()


def _untrusted(st: os.stat_result) -> str | None:
    """Why a folder with this status is not to be trusted, or None."""
    if not stat.S_ISDIR(st.st_mode):
        return "it is not a folder"
    if st.st_uid != os.getuid():
        return f"it belongs to another user (uid {st.st_uid}); set RALLY_CACHE_DIR to a folder of your own"
    if st.st_mode & 0o022:
        return (f"other users may write in it (mode {stat.S_IMODE(st.st_mode):04o}); `chmod go-w` it or set "
                "RALLY_CACHE_DIR to a folder of your own")
    return None


def _open_folder() -> Path | None:
    """Check the cache folder and its subfolder and read (or make) the key, once per :func:`enable`."""
    global _DIR, _KEY, _CHECKED
    if _BASE is None:
        return None
    if _CHECKED:
        return _DIR
    _CHECKED = True
    base = _BASE
    try:
        base.mkdir(parents=True, exist_ok=True, mode=0o700)
        sub = base / SUBFOLDER
        for path in (base, sub):                       # the folder first: nothing is made in one refused
            if path is sub:
                try:
                    os.mkdir(sub, 0o700)
                except FileExistsError:
                    pass
            why = _untrusted(os.stat(path) if path is base else os.lstat(path))   # the folder may be a link
            if why:
                warn(f"running without the cache: the folder {path} is not safe to read from: {why}")
                return None
        key = _read_key(sub)
    except OSError:                                    # read-only disk, no home, a file in the way: no cache
        return None
    if key is None:
        return None
    _DIR, _KEY = sub, key
    return _DIR


def _read_key(sub: Path) -> bytes | None:
    """The per-user key in ``sub``: made once (random, 0600, O_EXCL), then read only if it is still the user's
    own regular file, 0600, of the right size."""
    path = sub / KEY_FILE
    if not os.path.lexists(path):
        tmp = sub / f".{KEY_FILE}.{os.getpid()}.{os.urandom(4).hex()}"
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)
        try:
            os.write(fd, os.urandom(KEY_BYTES))
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)                         # atomic: a second command at the same moment reads this one
        except FileExistsError:
            pass
        finally:
            os.unlink(tmp)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:
        warn(f"not using the cache: its key {path} cannot be opened (a link?); delete the folder to start afresh")
        return None
    try:
        st = os.fstat(fd)
        if (not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077
                or st.st_size != KEY_BYTES):
            warn(f"not using the cache: its key {path} is not a 0600 file of yours; delete the folder to start afresh")
            return None
        data = os.read(fd, KEY_BYTES + 1)
    finally:
        os.close(fd)
    return data if len(data) == KEY_BYTES else None


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
    if not re.fullmatch(r"[a-z0-9_-]+", kind):
        raise ValueError(f"a cache kind is lower-case letters, digits, - and _: {kind!r}")
    sub = _open_folder()
    if sub is None:
        return None
    h = hashlib.sha256(_code(tuple(modules)))
    h.update(kind.encode() + b"\0" + key)
    return sub / f"{kind}-{h.hexdigest()[:40]}.pickle"


def _signature(name: str, payload: bytes) -> bytes:
    assert _KEY is not None
    return hmac.new(_KEY, name.encode() + b"\0" + payload, hashlib.sha256).digest()


def _read_entry(path: Path) -> bytes | None:
    """The bytes of an entry when it is a regular file of the user's, not a link, of at most MAX_BYTES."""
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except OSError:                                    # missing, or a symbolic link (ELOOP)
        return None
    try:
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode) or st.st_uid != os.getuid() or st.st_size > MAX_BYTES + 64:
            return None
        chunks, left = [], st.st_size + 1
        while left > 0:
            chunk = os.read(fd, min(left, 1 << 20))
            if not chunk:
                break
            chunks.append(chunk)
            left -= len(chunk)
        data = b"".join(chunks)
        return data if len(data) <= MAX_BYTES + 64 else None
    except OSError:
        return None
    finally:
        os.close(fd)


def _forget(path: Path) -> None:
    try:
        path.unlink()                                  # a link goes, never what it points at
    except OSError:
        pass


def matches(obj: Any, expect: Any) -> bool:
    """Whether ``obj`` has the shape ``expect`` describes: a type (or tuple of types), a dict of key -> shape (the
    same keys), or a one-item list ``[shape]`` (a list whose every item has that shape).

    >>> matches({"a": [1, 2]}, {"a": [int]}), matches({"a": 1}, {"a": [int]}), matches([1], dict)
    (True, False, False)
    """
    if isinstance(expect, dict):
        return (isinstance(obj, dict) and set(obj) == set(expect)
                and all(matches(obj[k], v) for k, v in expect.items()))
    if isinstance(expect, list):
        return isinstance(obj, list) and all(matches(x, expect[0]) for x in obj)
    return isinstance(obj, expect)


def fetch(kind: str, key: bytes, modules: Iterable[str], expect: Any = None) -> Any | None:
    """The object stored under ``kind`` and ``key`` by the same code (of the shape ``expect``, see
    :func:`matches`, when given), or None."""
    path = _entry(kind, key, modules)
    if path is None:
        return None
    data = _read_entry(path)
    if data is None:
        if os.path.lexists(path):
            _forget(path)                              # a link, a FIFO, a device, an oversized file: not ours
        return None
    head = len(MAGIC) + 32
    if not data.startswith(MAGIC) or len(data) < head or not hmac.compare_digest(
            data[len(MAGIC):head], _signature(path.name, data[head:])):
        _forget(path)                                  # not written by this user's cache: never unpickled
        return None
    import pickle

    try:
        obj = pickle.loads(data[head:])
    except Exception:                                  # written by other code or cut short: forget it
        _forget(path)
        return None
    if expect is not None and not matches(obj, expect):
        _forget(path)
        return None
    return obj


def store(kind: str, key: bytes, obj: Any, modules: Iterable[str]) -> None:
    """Keep ``obj`` under ``kind`` and ``key``; any failure (read-only disk, no home) only means no cache."""
    path = _entry(kind, key, modules)
    if path is None:
        return
    import pickle

    from designer.core import files

    try:
        payload = pickle.dumps(obj, protocol=pickle.HIGHEST_PROTOCOL)
        if len(payload) > MAX_BYTES:
            return
        files.write_atomic(path, MAGIC + _signature(path.name, payload) + payload, what="cache entry")
        os.chmod(path, 0o600)
        _prune(path.parent)
    except Exception:
        return


def _prune(sub: Path) -> None:
    """Keep the newest MAX_ENTRIES entries of the subfolder; only files named as the cache names them go."""
    entries = []
    for p in sub.iterdir():
        if _ENTRY.match(p.name):
            try:
                entries.append((os.lstat(p).st_mtime, p))
            except OSError:
                pass
    entries.sort()
    for _, old in entries[:-MAX_ENTRIES]:
        _forget(old)
