"""The Rallye rooms import one way: model <- table, driving <- the modules on top; no room imports a module of
the top level, ``table`` and ``driving`` do not import each other, and no ``__init__`` imports anything."""
from __future__ import annotations

import ast
from pathlib import Path

import designer.systems.rallye as rallye

ROOT = Path(rallye.__file__).parent
ALLOWED = {"model": {"model"}, "table": {"model", "table"}, "driving": {"model", "driving"}}


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("designer.systems.rallye"):
            rest = node.module.split(".")[3:]
            if rest:
                out.add(rest[0])
            else:
                out |= {a.name for a in node.names}
        elif isinstance(node, ast.Import):
            out |= {a.name.split(".")[3] for a in node.names if a.name.startswith("designer.systems.rallye.")}
    return out


def test_the_rooms_import_one_way():
    rooms = {p.name for p in ROOT.iterdir() if p.is_dir() and (p / "__init__.py").exists()}
    assert rooms == set(ALLOWED)
    for room, allowed in ALLOWED.items():
        for module in (ROOT / room).glob("*.py"):
            used = _imports(module)
            assert used <= allowed, f"{room}/{module.name} imports {sorted(used - allowed)}"
            if module.name == "__init__.py":
                assert not used and "import" not in module.read_text(encoding="utf-8").split('"""')[-1]


def test_no_system_or_front_end_is_imported():
    for module in ROOT.rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        for other in ("dirt", "classic", "greatrace"):
            assert f"designer.systems.{other}" not in text, module
        assert "designer.app" not in text and "designer.cli" not in text, module
