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


def system_name_in(text: str, source: str = "<text>") -> str | None:
    """The value of the top-level ``system:`` key of a YAML document, if any.

    The text is parsed (safely) first, so flow style, quoted keys and long comments are read as YAML reads
    them, and a ``system:`` line inside a block text or a nested mapping is not taken for the key. Text that
    is not YAML (a .rgt layout, a share code) has no such key; ``system: null`` counts as absent.
    """
    from designer.core import yamlio

    try:
        data, lines = yamlio.loads(text, source)
    except DesignerError:
        return None
    if not isinstance(data, dict) or data.get("system") is None:
        return None
    value = data["system"]
    if not isinstance(value, str) or not value.strip():
        line = lines.get(("system",))
        raise DesignerError(f"`system:` must be the name of a game, not {str(value)[:40]!r}",
                            where=f"{source}:{line}" if line else source, hint=f"write one of: {', '.join(names())}")
    return value.strip()


def system_of_text(text: str, source: str = "<text>"):
    return get(system_name_in(text, source) or DEFAULT)


def system_of_file(path: str | Path):
    """The system a stage, rally or box file belongs to, from its ``system:`` key (DIRT when absent)."""
    from designer.core import files

    return system_of_text(files.read_text(path, what="file"), str(path))
