"""Reading YAML safely, with the line of every value, so errors can say ``file:line: path: message``."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from designer.core.errors import DesignerError, SchemaError

MAX_BYTES = 5 * 1024 * 1024

Path_ = tuple[Any, ...]


class _Loader(yaml.SafeLoader):
    """Safe loader that keeps every key as a string (``201a`` and ``101`` alike)."""


def _compose(text: str, source: str):
    try:
        return yaml.compose(text, Loader=_Loader)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark else source
        problem = getattr(exc, "problem", None) or str(exc)
        raise DesignerError(f"this is not valid YAML ({problem})", where=where,
                            hint="check the indentation and the quotes on that line") from None


def _construct(node, path: Path_, lines: dict[Path_, int]):
    lines[path] = node.start_mark.line + 1
    if isinstance(node, yaml.MappingNode):
        out = {}
        for key_node, value_node in node.value:
            key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
            out[key] = _construct(value_node, path + (key,), lines)
        return out
    if isinstance(node, yaml.SequenceNode):
        return [_construct(v, path + (i,), lines) for i, v in enumerate(node.value)]
    loader = _Loader("")
    return loader.construct_object(node, deep=True)


def loads(text: str, source: str = "<text>") -> tuple[Any, dict[Path_, int]]:
    """Parse YAML text; return the data and a map from key path to line number."""
    if len(text.encode("utf-8", errors="ignore")) > MAX_BYTES:
        raise DesignerError(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB", where=source,
                            hint="a stage or tileset file is a few kilobytes; check that this is the right file")
    node = _compose(text, source)
    lines: dict[Path_, int] = {}
    if node is None:
        return None, lines
    return _construct(node, (), lines), lines


def load(path: str | Path) -> tuple[Any, dict[Path_, int]]:
    p = Path(path)
    try:
        if p.stat().st_size > MAX_BYTES:
            raise DesignerError(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB", where=str(p),
                                hint="a stage or tileset file is a few kilobytes; check that this is the right file")
        text = p.read_text(encoding="utf-8")
    except FileNotFoundError:
        raise DesignerError("no such file", where=str(p), hint="check the path and the file name") from None
    except IsADirectoryError:
        raise DesignerError("this is a folder, not a file", where=str(p)) from None
    except UnicodeDecodeError:
        raise DesignerError("the file is not UTF-8 text", where=str(p),
                            hint="save it as UTF-8 text (YAML)") from None
    except OSError as exc:
        raise DesignerError(f"cannot read the file ({exc.strerror})", where=str(p)) from None
    return loads(text, str(p))


def line_of(lines: dict[Path_, int], path: Path_) -> int | None:
    """Line of the deepest known prefix of ``path``."""
    path = tuple(path)
    while path:
        if path in lines:
            return lines[path]
        path = path[:-1]
    return lines.get(())


def format_path(path: Path_) -> str:
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        else:
            out += ("." if out else "") + str(part)
    return out or "(top)"


def schema_error(source: str, lines: dict[Path_, int], problems: list[tuple[Path_, str]],
                 what: str, hint: str | None = None) -> SchemaError:
    details = []
    for path, message in problems:
        line = line_of(lines, path)
        loc = f"{source}:{line}" if line else source
        details.append(f"{loc}: {format_path(path)}: {message}")
    count = len(problems)
    return SchemaError(f"{count} problem{'s' if count != 1 else ''} in this {what}", where=source,
                       hint=hint, details=details)


def pydantic_problems(exc, prefix: Path_ = ()) -> list[tuple[Path_, str]]:
    """Turn a pydantic ValidationError into (path, message) pairs."""
    out = []
    for err in exc.errors():
        loc = tuple(p for p in err.get("loc", ()) if not (isinstance(p, str) and p.startswith("function-")))
        msg = err.get("msg", "invalid value")
        if msg.startswith("Value error, "):
            msg = msg[len("Value error, "):]
        out.append((prefix + loc, msg))
    return out
