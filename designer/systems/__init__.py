"""The registry of game systems: a name -> the system's :class:`~designer.systems.base.GameSystem`.

A file says which system it belongs to with a top-level ``system:`` key; DIRT when absent, so files
written before other systems existed keep working. Systems are imported only when asked for.

>>> get("dirt").title
'Rallyman: DIRT'
>>> canonical("Great Race")
'greatrace'
"""
from __future__ import annotations

import importlib
import importlib.util
import re
from pathlib import Path

from designer.core.errors import DesignerError

DEFAULT = "dirt"
# name -> module holding SYSTEM; in the order menus list them.
MODULES = {
    "dirt": "designer.systems.dirt.system",
    "classic": "designer.systems.classic.system",
    "greatrace": "designer.systems.greatrace.system",
    "rallye": "designer.systems.rallye.system",
}
ALIASES = {"rallyman-dirt": "dirt", "rallyman": "classic", "classic-rallyman": "classic",
           "great-race": "greatrace", "the-great-race": "greatrace", "rallye-card-game": "rallye"}
_LOADED: dict = {}
_SYSTEM_LINE = re.compile(r"^system\s*:\s*['\"]?([A-Za-z][\w\- ]*?)['\"]?\s*(?:#.*)?$", re.MULTILINE)


def canonical(name: str) -> str:
    key = str(name).strip().lower().replace("_", "-").replace(" ", "-")
    return ALIASES.get(key, key.replace("-", "") if key.replace("-", "") in MODULES else key)


def names() -> list[str]:
    """The systems this installation has (a system's package present), in menu order."""
    out = []
    for name, module in MODULES.items():
        try:
            if importlib.util.find_spec(module) is not None:
                out.append(name)
        except ModuleNotFoundError:
            pass
    return out


def get(name: str | None = None):
    """The system called ``name`` (DIRT when None)."""
    key = canonical(name or DEFAULT)
    if key in _LOADED:
        return _LOADED[key]
    if key not in MODULES or key not in names():
        raise DesignerError(f"unknown game system {name!r}", where="system",
                            hint=f"write one of: {', '.join(names())}")
    system = importlib.import_module(MODULES[key]).SYSTEM
    _LOADED[key] = system
    return system


def all_systems() -> list:
    return [get(n) for n in names()]


def system_name_in(text: str) -> str | None:
    """The value of a top-level ``system:`` line in YAML text, if any (without parsing the whole file)."""
    m = _SYSTEM_LINE.search(text[:20000])
    return m.group(1).strip() if m else None


def system_of_text(text: str):
    return get(system_name_in(text) or DEFAULT)


def system_of_file(path: str | Path):
    """The system a stage, rally or box file belongs to, from its ``system:`` key (DIRT when absent)."""
    from designer.core import files

    return system_of_text(files.read_text(path, what="file"))
