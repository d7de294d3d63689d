"""Zone boxes and stages: located errors for bad files, board placement and the route checks."""
from pathlib import Path

import pytest

from designer.core.errors import DesignerError
from designer.systems.classic.files import stage as S
from designer.systems.classic.board.assembly import assemble, turn_cell
from designer.systems.classic.files.notation import parse_sheet, parse_share
from designer.systems.classic.validate import validate
from designer.systems.classic.files.zones import find_box, loads_box

ROOT = Path(__file__).resolve().parent.parent
GOOD = """system: classic
box: t
size: 6
zones:
  A:
    faces:
      asphalt:
        cells:
          C3: {crossroads: true}
        ends: {0: A3, 1: F3, 2: C1}
        roads:
          - ends: [0, 1]
            path: A3 B3 C3 D3 E3 F3
          - ends: [2, 1]
            path: C1 C2 C3 D3 E3 F3
"""


@pytest.fixture(scope="module")
def demo():
    return find_box("demo-zones")


def test_demo_box_is_named_as_demonstration(demo):
    assert demo.demo and "demonstration" in demo.title.lower()
    assert set(demo.zones) == {"X", "Y"} and set(demo.zones["X"].faces) == {"asphalt", "snow"}
    text = (ROOT / "tilesets/classic/demo-zones.yaml").read_text()
    assert "DEMONSTRATION" in text.splitlines()[0]


@pytest.mark.parametrize("change, line, words", [
    (("path: A3 B3 C3 D3 E3 F3", "path: A3 B3 D3 E3 F3"), 13, "do not touch"),
    (("0: A3,", "0: B3,"), 10, "not on the border"),
    (("C3: {crossroads: true}", "C3: {env: lava}"), 9, "'forest'"),
    (("ends: [2, 1]", "ends: [2, 7]"), 14, "not in this face"),
    (("path: C1 C2 C3 D3 E3 F3", "path: C1 C2 C3 D3 E3"), 15, "must start at road end"),
    (("size: 6", "size: 60"), 3, "size"),
    (("      asphalt:", "      lava:"), 8, "key is not allowed"),
])
def test_box_errors_name_the_line(change, line, words):
    with pytest.raises(DesignerError) as e:
        loads_box(GOOD.replace(*change), "box.yaml")
    assert e.value.where == f"box.yaml:{line}" and words in e.value.message and e.value.hint


def test_broken_yaml_and_no_drift_in_a_crossroads():
    with pytest.raises(DesignerError) as e:
        loads_box("zones: [a\n", "b.yaml")
    assert "YAML" in e.value.message
    text = GOOD.replace("            path: C1 C2 C3 D3 E3 F3",
                        "            path: C1 C2 C3 D3 E3 F3\n            corners:\n"
                        "              - {inside: C3, note: 2, drift: B2 B3 B4, gear: 3}")
    with pytest.raises(DesignerError, match="no drift in a crossroads"):
        loads_box(text, "b.yaml")


def test_board_turning_keeps_cells_on_the_board():
    for rot in range(4):
        cells = {turn_cell(c, r, rot, 6) for c in range(6) for r in range(6)}
        assert cells == {(c, r) for c in range(6) for r in range(6)}
    assert turn_cell(0, 0, 1, 6) == (5, 0)


def test_demo_stages_lay_boards_side_by_side(demo):
    c = assemble(parse_sheet("X1 | X3-Y3 | Y1"), demo)
    assert c.ok and [(p.zone, p.x, p.y, p.rot) for p in c.placements.values()] == [("X", 0, 0, 0), ("Y", 1, 0, 0)]
    c = assemble(parse_share("X1-3*/Y3-6*/X5-6*"), demo)         # X crossed twice, on two roads
    assert c.ok and len(c.placements) == 2


@pytest.mark.parametrize("route, code", [
    ("Q0 | - | Q4", "unknown-zone"),
    ("X0 | - | X9", "unknown-end"),
    ("X0 | - | X3", "no-road"),
    ("X1 | X3-Y6 | Y8", "ends-not-facing"),
    ("X1 | X3-Y6 Y3-X5 | X6", "ends-not-facing"),      # the boards after a failed join are not laid either
    ("X1* | X3*-Y3* Y6*-X5 | X6", "mixed-sides"),
    ("X1 | X3-Y3 Y6-X5 | X3", "same-road-twice"),
])
def test_route_problems(demo, route, code):
    st = S.Stage(name="t", route=parse_sheet(route))
    problems = validate(st, demo)
    assert code in [p.code for p in problems if p.severity == "error"], [str(p) for p in problems]
    p = next(p for p in problems if p.code == code)
    assert p.where.startswith("route") and p.hint


def test_stage_file_errors_are_located():
    with pytest.raises(DesignerError) as e:
        S.loads("system: classic\nstage: a\nroute: 'X0 | X9-Y1 | Y1'\n", "s.yaml")
    assert e.value.where.startswith("s.yaml:3")
    with pytest.raises(DesignerError) as e:
        S.loads("system: classic\nstage: a\nroute: 'X0 | - | X4'\ntyres: slicks\n", "s.yaml")
    assert e.value.where == "s.yaml:4" and "tyres" in e.value.message
    with pytest.raises(DesignerError, match="no `route`"):
        S.loads("system: classic\nstage: a\n", "s.yaml")
    with pytest.raises(DesignerError, match="upload cannot reach"):
        S.loads("system: classic\nrally: r\nstages: [a.yaml]\n", "r.yaml")


def test_stage_yaml_round_trip():
    rally = S.load(ROOT / "stages/classic/rally.yaml")
    again = S.loads(S.dumps(rally), "again.yaml")
    assert [s.route for s in again.stages] == [s.route for s in rally.stages]
    assert [s.assistance for s in again.stages] == [True, False, True]
    assert again.drivers == rally.drivers


def _all_crossings(box):
    for letter, zone in box.zones.items():
        for surface, face in zone.faces.items():
            for road in face.roads:
                for a, b in (road.ends, road.ends[::-1]):
                    yield f"{letter}{a}-{b}{'*' if surface == 'snow' else ''}"


def test_every_road_of_the_demo_boards_is_a_forward_course(demo):
    import networkx as nx

    from designer.systems.classic.dice import lines as L
    from designer.systems.classic.files.rules import load_rules

    rules = load_rules()
    crossings = list(_all_crossings(demo))
    assert len(crossings) == 28
    for share in crossings:
        c = assemble(parse_share(share), demo)
        g = c.graph
        assert c.ok and nx.is_directed_acyclic_graph(g), share
        assert all(nx.has_path(g, "start", n) and nx.has_path(g, n, "finish") for n in g), share
        ideal = L.ideal_line(g, rules)
        assert ideal is not None, share
        # seven dice at most per turn, the best card is 10 s: a floor on the ideal time
        cells = len(L.shortest(g)) + 1
        assert ideal["time_seconds"] >= 10 * -(-cells // 9), share
        assert len(L.main_line(g)) == len(next(r.path for z in demo.zones.values() for f in z.faces.values()
                                                for r in f.roads if {int(share[1]), int(share[3])} == set(r.ends)))


def test_a_box_is_not_a_stage():
    from designer.systems.classic.files import stage as S2

    with pytest.raises(DesignerError, match="zone box"):
        S2.load(ROOT / "tilesets/classic/demo-zones.yaml")
