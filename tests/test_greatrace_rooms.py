"""The Great Race's rooms import in one direction only: files <- driving <- book <- system."""
from __future__ import annotations

import ast
from pathlib import Path

import designer.systems.greatrace as package

ROOT = Path(package.__file__).parent
ORDER = ["files", "driving", "book"]


def _imports(path: Path) -> set[str]:
    out = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom) and node.module:
            out.add(node.module)
            out.update(f"{node.module}.{a.name}" for a in node.names)
        elif isinstance(node, ast.Import):
            out.update(a.name for a in node.names)
    return out


def test_each_room_imports_only_the_rooms_before_it_and_no_other_system():
    assert sorted(p.name for p in ROOT.iterdir() if p.is_dir() and not p.name.startswith("__")) == sorted(ORDER)
    for i, room in enumerate(ORDER):
        later = ORDER[i + 1:]
        for path in (ROOT / room).glob("*.py"):
            for name in _imports(path):
                for other in later:
                    assert not name.startswith(f"designer.systems.greatrace.{other}"), (path.name, name)
                assert not name.startswith("designer.app") and not name.startswith("designer.cli"), (path.name, name)
                for system in ("dirt", "classic", "rallye"):
                    assert not name.startswith(f"designer.systems.{system}"), (path.name, name)


def test_the_package_inits_import_nothing_of_their_own_and_say_what_they_may_import():
    for init in [ROOT / "__init__.py"] + [ROOT / room / "__init__.py" for room in ORDER]:
        tree = ast.parse(init.read_text(encoding="utf-8"))
        assert not [n for n in tree.body if isinstance(n, (ast.Import, ast.ImportFrom))], init
        doc = ast.get_docstring(tree)
        assert doc and ("import" in doc), init
    for room in ORDER:
        assert len(list((ROOT / room).glob("*.py"))) <= 12
