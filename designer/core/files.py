"""Reading and writing the user's files safely.

- :func:`read_bytes` / :func:`read_text`: only regular files (a FIFO or a device would hang or never end),
  at most ``limit`` bytes, every failure a :class:`DesignerError` naming the file.
- :func:`write_atomic`: written to a temporary file beside the target, then renamed over it, so a full disk
  or an interrupted run never leaves a truncated file where a good one stood. It refuses to write over
  the input it was made from (``protect``) and checks the extension fits what is written.
"""
from __future__ import annotations

import os
import stat
import tempfile
from pathlib import Path
from typing import Iterable

from designer.core.errors import DesignerError

MAX_INPUT_BYTES = 5 * 1024 * 1024


def read_bytes(path: str | Path, limit: int = MAX_INPUT_BYTES, what: str = "file") -> bytes:
    p = Path(path)
    where = str(p)
    try:
        st = os.stat(p)
    except FileNotFoundError:
        raise DesignerError(f"no such {what}", where=where, hint="check the path and its spelling") from None
    except OSError as exc:
        raise DesignerError(f"cannot read the {what} ({exc.strerror})", where=where) from None
    if stat.S_ISDIR(st.st_mode):
        raise DesignerError(f"this is a folder, not a {what}", where=where, hint="name a file inside it")
    if not stat.S_ISREG(st.st_mode):
        raise DesignerError("this is not a regular file (a pipe, a device or a socket)", where=where,
                            hint=f"give a {what} saved on disk")
    if st.st_size > limit:
        raise DesignerError(f"the {what} is {st.st_size / 1e6:.1f} MB, more than the {limit / 1e6:.0f} MB allowed",
                            where=where, hint="a stage, box or rally file is a few kB; is this the right file?")
    try:
        with open(p, "rb") as fh:
            data = fh.read(limit + 1)
    except OSError as exc:
        raise DesignerError(f"cannot read the {what} ({exc.strerror})", where=where) from None
    if len(data) > limit:
        raise DesignerError(f"the {what} is larger than the {limit / 1e6:.0f} MB allowed", where=where)
    return data


def decode(data: bytes, where: str) -> str:
    if b"\x00" in data[:4096]:
        raise DesignerError("this is a binary file, not text", where=where,
                            hint="give a YAML file (or the format the command asks for)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise DesignerError(f"this file is not UTF-8 text (byte {exc.start})", where=where,
                            hint="save it as UTF-8") from None


def upload_text(data: bytes, name: str, limit_mb: int, what: str, hint: str) -> str:
    """The text of a file uploaded in the app: at most ``limit_mb`` MB (and MAX_INPUT_BYTES), UTF-8, not binary."""
    limit = min(limit_mb * 1024 * 1024, MAX_INPUT_BYTES)
    if len(data) > limit:
        raise DesignerError(f"the file is {len(data) / (1024 * 1024):.1f} MB; {what} may have {limit_mb} MB at most",
                            where=name, hint=hint)
    return decode(data, name)


def read_text(path: str | Path, limit: int = MAX_INPUT_BYTES, what: str = "file") -> str:
    return decode(read_bytes(path, limit, what), str(path))


def _same_file(a: Path, b: Path) -> bool:
    try:
        return a.exists() and b.exists() and os.path.samefile(a, b)
    except OSError:
        return False


def write_atomic(path: str | Path, data: bytes | str, *, suffixes: Iterable[str] | None = None,
                 protect: Iterable[str | Path] = (), what: str = "file") -> Path:
    """Write ``data`` to ``path`` all at once (temporary file + rename); return the path."""
    if str(path).strip() == "":
        raise DesignerError(f"no file name given for the {what}", hint="give one with -o FILE")
    p = Path(path)
    where = str(p)
    if suffixes is not None:
        allowed = [s.lower() for s in suffixes]
        if p.suffix.lower() not in allowed:
            raise DesignerError(f"the {what} must be a {' or '.join(allowed)} file, not {p.suffix or 'no extension'}",
                                where=where, hint=f"name it e.g. {p.stem or 'out'}{allowed[0]}")
    for src in protect:
        if _same_file(p, Path(src)):
            raise DesignerError(f"this would write the {what} over its own input", where=where,
                                hint="give another output file name")
    if p.is_dir():
        raise DesignerError("this is a folder", where=where, hint="give a file name inside it")
    folder = p.parent if str(p.parent) else Path(".")
    if not folder.is_dir():
        raise DesignerError("the folder does not exist", where=where, hint=f"create {folder} first")
    if isinstance(data, str):
        data = data.encode("utf-8")
    tmp = None
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{p.name}.", suffix=".tmp", dir=folder)
        with os.fdopen(fd, "wb") as fh:
            fh.write(data)
            fh.flush()
            os.fsync(fh.fileno())
        if p.exists():
            try:
                os.chmod(tmp, stat.S_IMODE(os.stat(p).st_mode))
            except OSError:
                pass
        else:
            os.chmod(tmp, 0o644)
        os.replace(tmp, p)
        tmp = None
    except OSError as exc:
        raise DesignerError(f"cannot write the {what} ({exc.strerror or exc})", where=where,
                            hint="check the folder exists, is writable and the disk has room") from None
    finally:
        if tmp is not None:
            try:
                os.unlink(tmp)
            except OSError:
                pass
    return p
