"""Reading YAML safely, with the line of every value, so errors can say ``file:line: path: message``."""
from __future__ import annotations

from pathlib import Path
from typing import Any

import yaml

from designer.core.errors import DesignerError, SchemaError

MAX_BYTES = 5 * 1024 * 1024

Path_ = tuple[Any, ...]


MAX_NODES = 200_000           # values in one document, aliases expanded: a large tileset has about 40,000
MAX_DEPTH = 60                # nesting: stage and tileset files need fewer than 10 levels

# The C parser (libyaml) when PyYAML has it: composing is the costly part and it keeps every node's line.
_Composer = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
_SCALARS = yaml.constructor.SafeConstructor()


def _compose(text: str, source: str):
    try:
        return yaml.compose(text, Loader=_Composer)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        where = f"{source}:{mark.line + 1}" if mark else source
        problem = getattr(exc, "problem", None) or str(exc)
        raise DesignerError(f"this is not valid YAML ({problem})", where=where,
                            hint="check the indentation and the quotes on that line") from None
    except RecursionError:
        raise DesignerError("the YAML is nested too deeply", where=source,
                            hint=f"stage, box and tileset files need fewer than {MAX_DEPTH} levels") from None


class _Builder:
    """Plain data from composed nodes: keys as strings (``201a`` and ``101`` alike), the line of every value,
    and limits so that a hostile file (aliases expanded a billion times, a list nested thousands deep,
    a Python tag) is a message, not a hang or a traceback."""

    def __init__(self, source: str):
        self.source = source
        self.lines: dict[Path_, int] = {}
        self.count = 0

    def _fail(self, node, message: str, hint: str):
        raise DesignerError(message, where=f"{self.source}:{node.start_mark.line + 1}", hint=hint)

    def build(self, node, path: Path_, depth: int = 0):
        self.count += 1
        if self.count > MAX_NODES:
            self._fail(node, f"the YAML holds more than {MAX_NODES:,} values (aliases counted as often as they "
                             "are used)", "write the values out; anchors and aliases that repeat a block many "
                                          "times are refused")
        if depth > MAX_DEPTH:
            self._fail(node, "the YAML is nested too deeply",
                       f"stage, box and tileset files need fewer than {MAX_DEPTH} levels")
        self.lines[path] = node.start_mark.line + 1
        plain = {yaml.MappingNode: "tag:yaml.org,2002:map", yaml.SequenceNode: "tag:yaml.org,2002:seq"}
        if type(node) in plain and node.tag != plain[type(node)]:
            self._fail(node, f"the tag {node.tag} is not allowed here",
                       "remove the tag: stage, box and tileset files hold plain values only")
        if isinstance(node, yaml.MappingNode):
            out = {}
            for key_node, value_node in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    self._fail(key_node, "merge keys (<<) are not supported", "write the keys out")
                key = key_node.value if isinstance(key_node, yaml.ScalarNode) else str(key_node.value)
                if key in out:
                    self._fail(key_node, f"the key {key!r} appears twice in the same block",
                               "keep one of them; with two, one would be ignored")
                out[key] = self.build(value_node, path + (key,), depth + 1)
            return out
        if isinstance(node, yaml.SequenceNode):
            return [self.build(v, path + (i,), depth + 1) for i, v in enumerate(node.value)]
        constructor = _SCALARS.yaml_constructors.get(node.tag)
        if constructor is None or node.tag is None:
            self._fail(node, f"the tag {node.tag} is not allowed here",
                       "remove the tag: stage, box and tileset files hold plain values only")
        try:
            return constructor(_SCALARS, node)
        except (yaml.YAMLError, ValueError, TypeError):
            self._fail(node, f"cannot read the value {str(node.value)[:40]!r} as {node.tag.rsplit(':', 1)[-1]}",
                       "quote it to keep it as text")


def loads(text: str, source: str = "<text>") -> tuple[Any, dict[Path_, int]]:
    """Parse YAML text; return the data and a map from key path to line number."""
    if len(text.encode("utf-8", errors="ignore")) > MAX_BYTES:
        raise DesignerError(f"the file is larger than {MAX_BYTES // (1024 * 1024)} MiB", where=source,
                            hint="a stage or tileset file is a few kilobytes; check that this is the right file")
    node = _compose(text, source)
    if node is None:
        return None, {}
    builder = _Builder(source)
    return builder.build(node, ()), builder.lines


def load(path: str | Path) -> tuple[Any, dict[Path_, int]]:
    """Read a YAML file (a regular file of at most MAX_BYTES); return the data and the line of every value."""
    from designer.core import files

    return loads(files.read_text(path, limit=MAX_BYTES), str(path))


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


# The readers of the games' files (classic, Great Race, Rallye) were written against these names; the plain
# reader above already refuses a tag on a mapping or a list, so they are the same functions.
loads_plain = loads
load_plain = load
