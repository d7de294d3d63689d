"""Documents that match the code: every file or folder of the repository a Markdown document, a docstring or a
comment of a bundled YAML file names exists, and every ``designer.…`` module a docstring names is there with the
name it points at."""
from __future__ import annotations

import ast
import re
from functools import cache
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOP = ("designer", "tests", "tilesets", "stages", "benchmarks", "scripts", "docs")
SKIP = {".git", ".venv", "node_modules", "build", "dist", ".pytest_cache", ".hypothesis", "out", "screenshots"}
# a path starts at one of the top folders (not inside a URL or a longer path) and ends on a name character
PATH = re.compile(r"(?<![\w./~-])(?:%s)/[\w./*-]*[\w*]" % "|".join(TOP))
DOTTED = re.compile(r"(?<![\w./-])designer(?:\.\w+)+")


def _files(pattern: str) -> list[Path]:
    return sorted(p for p in ROOT.rglob(pattern)
                  if not SKIP.intersection(p.relative_to(ROOT).parts) and not p.parent.name.endswith(".egg-info"))


def _docstrings(path: Path) -> list[tuple[int, str]]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)):
            doc = ast.get_docstring(node, clean=False)
            if doc:
                out.append((node.body[0].lineno, doc))
    return out


def _texts() -> list[tuple[str, str]]:
    """``(where, text)`` for every Markdown file, every docstring and every comment of a bundled YAML file."""
    out = [(str(p.relative_to(ROOT)), p.read_text(encoding="utf-8")) for p in _files("*.md")]
    for p in _files("*.py"):
        out += [(f"{p.relative_to(ROOT)}:{line}", doc) for line, doc in _docstrings(p)]
    for p in _files("*.yaml"):
        if p.relative_to(ROOT).parts[0] in ("tilesets", "stages"):
            comments = [line.partition("#")[2] for line in p.read_text(encoding="utf-8").splitlines() if "#" in line]
            out.append((str(p.relative_to(ROOT)), "\n".join(comments)))
    return out


def _exists(name: str) -> bool:
    name = name.rstrip("/.")
    if "*" in name:
        return any(ROOT.glob(name))
    return (ROOT / name).exists()


def test_paths_are_found_in_the_texts():
    # the checks below must not pass by reading nothing
    found = {m.group(0) for _, text in _texts() for m in PATH.finditer(text)}
    assert "tilesets/dirt-rules.yaml" in found and "designer/systems/base.py" in found, sorted(found)[:20]
    assert not _exists("designer/no_such_module.py") and _exists("designer/systems/dirt/dice/*.pyx")


def test_every_named_path_exists():
    missing = sorted({(where, m.group(0)) for where, text in _texts() for m in PATH.finditer(text)
                      if not _exists(m.group(0))})
    assert not missing, "paths named in documents that do not exist:\n" + "\n".join(f"{w}: {p}" for w, p in missing)


@cache
def _top_names(path: Path) -> frozenset[str]:
    """The names a module defines or imports at its top level (the targets a docstring can point at)."""
    names: set[str] = set()
    for node in ast.parse(path.read_text(encoding="utf-8")).body:
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            names.add(node.name)
        elif isinstance(node, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).split(".")[0] for a in node.names)
        elif isinstance(node, (ast.Assign, ast.AnnAssign)):
            for target in node.targets if isinstance(node, ast.Assign) else [node.target]:
                names.update(n.id for n in ast.walk(target) if isinstance(n, ast.Name))
    return frozenset(names)


def _module_file(parts: list[str]) -> Path | None:
    base = ROOT.joinpath(*parts)
    for candidate in (base.with_suffix(".py"), base / "__init__.py", base.with_suffix(".pyx")):
        if candidate.is_file():
            return candidate
    return None


def _resolves(dotted: str) -> bool:
    """True when a dotted name is a module of the project, or a module and a name it defines at its top level."""
    parts = dotted.split(".")
    for cut in range(len(parts), 0, -1):
        module = _module_file(parts[:cut])
        if module is None:
            continue
        rest = parts[cut:]
        return not rest or module.suffix == ".pyx" or rest[0] in _top_names(module)
    return False


def test_every_named_module_exists():
    texts = [(w, t) for w, t in _texts() if w.endswith(".md") or ".py:" in w]
    missing = sorted({(where, m.group(0)) for where, text in texts for m in DOTTED.finditer(text)
                      if not _resolves(m.group(0))})
    assert not missing, "modules named in documents that do not exist:\n" + "\n".join(f"{w}: {p}" for w, p in missing)


@pytest.mark.parametrize("dotted, ok", [("designer.systems.dirt.board.track.assemble", True),
                                        ("designer.systems.dirt.dice", True),
                                        ("designer.systems.dirt.track", False),
                                        ("designer.racing.mdp.no_such_name", False)])
def test_module_names_are_resolved_as_python_would(dotted, ok):
    assert _resolves(dotted) is ok
