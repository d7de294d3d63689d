"""Every registered game system fulfils the contract the command line and the app rely on, and the package keeps
its shape: no circle of imports, no system importing another system or a front end."""
from __future__ import annotations

import ast
import functools
import json
import xml.dom.minidom
from pathlib import Path

import networkx as nx
import pytest

from designer import systems
from designer.core.errors import DesignerError
from designer.systems.base import Example, GameSystem

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "designer"
NAMES = systems.names()


def _stage_examples(system, limit: int = 2) -> list[Example]:
    return [e for e in system.examples() if e.kind == "stage"][:limit]


def test_dirt_is_registered_and_default():
    assert "dirt" in NAMES
    assert systems.get().name == "dirt" and systems.get(None) is systems.get("dirt")
    assert systems.system_of_text("tiles: [202a A]\n").name == "dirt"          # files without `system:`


def test_unknown_system_is_a_message():
    with pytest.raises(DesignerError, match="unknown game system"):
        systems.get("monopoly")
    with pytest.raises(DesignerError, match="unknown game system"):
        systems.system_of_text("system: monopoly\ntiles: []\n")


def test_system_line_is_read_without_parsing_the_file():
    assert systems.system_name_in("# a comment\nsystem: dirt  # the game\nname: x\n") == "dirt"
    assert systems.system_name_in("name: x\n  system: nested\n") is None
    assert systems.canonical("The Great Race".replace("The ", "")) == "greatrace"


@pytest.mark.parametrize("name", NAMES)
def test_system_fulfils_the_contract(name):
    system = systems.get(name)
    assert isinstance(system, GameSystem)
    assert system.name == name and system.title and system.summary
    examples = system.examples()
    assert examples, f"{name} ships no example"
    assert all(isinstance(e, Example) and e.path.is_file() for e in examples)
    assert len({e.key for e in examples}) == len(examples)
    stages = _stage_examples(system)
    assert stages, f"{name} ships no example stage"
    for ex in stages:
        assert systems.system_of_file(ex.path) is system
        doc = system.load(ex.path)
        for stage in system.stages_of(doc):
            box = system.box_of(stage, ex.path.parent)
            problems = system.validate(stage, box)
            for p in problems:
                assert p.severity in ("error", "warning", "info") and p.message and p.where
                json.dumps(p.to_dict())
            assert not [p for p in problems if p.severity == "error"], (ex.key, [str(p) for p in problems])
            result = system.analyse(stage, box)
            assert result["system"] == name and result["summary"]
            json.dumps(result)
            assert system.report(result).strip()
            svg = system.draw(stage, box, result)
            xml.dom.minidom.parseString(svg)                           # well-formed SVG
            again = system.loads(system.dumps(stage), "round trip")
            assert system.stage_name(again) == system.stage_name(stage)


@pytest.mark.parametrize("name", NAMES)
def test_system_prints_a_road_book(name):
    system = systems.get(name)
    ex = _stage_examples(system, 1)[0]
    pdf = system.roadbook(system.load(ex.path), near=ex.path.parent)
    assert pdf[:5] == b"%PDF-" and len(pdf) > 1000


@pytest.mark.parametrize("name", NAMES)
def test_a_file_of_another_system_is_refused_with_a_message(name):
    system = systems.get(name)
    other = next((systems.get(n) for n in NAMES if n != name), None)
    if other is None:
        pytest.skip("one system only")
    path = _stage_examples(other, 1)[0].path
    with pytest.raises(DesignerError):
        system.loads(path.read_text(encoding="utf-8"), str(path))


# -- the shape of the package ----------------------------------------------------------------------------------

def _module_name(path: Path) -> str:
    parts = list(path.relative_to(ROOT).with_suffix("").parts)
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


@functools.cache
def import_graph() -> nx.DiGraph:
    """Every import between the project's modules, those inside functions included (built once; read only)."""
    files = {_module_name(p): p for p in PACKAGE.rglob("*.py")}
    graph = nx.DiGraph()
    for name, path in files.items():
        graph.add_node(name)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    parts = package.split(".")[: len(package.split(".")) - node.level + 1]
                    base = ".".join(parts + ([base] if base else []))
                subs = [f"{base}.{a.name}" for a in node.names if f"{base}.{a.name}" in files]
                targets = subs if len(subs) == len(node.names) else [base] + subs
            for t in targets:
                if t in files and t != name:
                    graph.add_edge(name, t)
    return graph


def test_no_circle_of_imports():
    cycles = list(nx.simple_cycles(import_graph()))
    assert not cycles, f"import circles: {cycles[:5]}"


def test_systems_import_no_other_system_and_no_front_end():
    graph = import_graph()
    bad = []
    for module, target in graph.edges:
        if module.startswith("designer.systems.") and module.count(".") >= 3:
            own = module.split(".")[2]
            if target.startswith("designer.app") or target == "designer.cli":
                bad.append((module, target))
            elif target.startswith("designer.systems.") and target.count(".") >= 2:
                other = target.split(".")[2]
                if other not in (own, "base") and target != "designer.systems":
                    bad.append((module, target))
        if module.startswith(("designer.core", "designer.racing")) and \
                target.startswith(("designer.systems.", "designer.app", "designer.cli")) and target != "designer.systems.base":
            bad.append((module, target))
    assert not bad, bad


def test_modules_stay_small():
    big = {str(p.relative_to(ROOT)): n for p in PACKAGE.rglob("*.py")
           if (n := len(p.read_text(encoding="utf-8").splitlines())) > 500}
    assert not big, f"modules over 500 lines: {big}"


def test_every_package_says_what_lives_there():
    bare = [str(p.relative_to(ROOT)) for p in PACKAGE.rglob("__init__.py")
            if not ast.get_docstring(ast.parse(p.read_text(encoding="utf-8")))]
    assert not bare, f"packages without a docstring: {bare}"


# The rooms of DIRT, from the table up: a module may import its own room and the rooms before it, never one after
# it. The modules at the top of the package sit between them: the analysis (lines, length and expected time
# together) under the road book, which prints it; the generator and the text report above all rooms; the
# contract, which hands them to the command line and the app, last.
DIRT = "designer.systems.dirt"
DIRT_LEVELS = {"board": 0, "driving": 1, "dice": 2, "io": 3, "analysis": 3, "book": 4,
               "generate": 5, "report": 5, "system": 6}
LIGHT_INITS = ("designer.racing", DIRT, *(f"{DIRT}.{room}" for room in ("board", "driving", "dice", "book")))


def _dirt_level(module: str) -> int | None:
    if not module.startswith(DIRT + "."):
        return None
    return DIRT_LEVELS[module[len(DIRT) + 1:].split(".")[0]]


def test_dirt_rooms_import_only_the_rooms_before_them():
    graph = import_graph()
    dirt = {m for m in graph if m.startswith(DIRT + ".")}
    unplaced = [m for m in dirt if m[len(DIRT) + 1:].split(".")[0] not in DIRT_LEVELS]
    assert not unplaced, f"DIRT modules in no room (add them to DIRT_LEVELS): {unplaced}"
    up = [(m, t) for m, t in graph.edges if m in dirt and t in dirt and (m.split(".")[3] != t.split(".")[3])
          and _dirt_level(t) >= _dirt_level(m)]
    assert not up, f"imports up or across the DIRT rooms: {up}"


@pytest.mark.parametrize("package", LIGHT_INITS)
def test_room_packages_import_nothing(package):
    graph = import_graph()
    assert package in graph, package
    assert not list(graph.successors(package)), (package, list(graph.successors(package)))
