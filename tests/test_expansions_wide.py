"""Spaces across both lanes: 215b's middle section makes the route cut -> middle -> cut exist, and the demo
stage's fastest line takes it."""
import networkx as nx

from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.tileset import get_tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.driving.lines import fastest_line
from tests.conftest import ROOT

DEMO = ROOT / "stages" / "dirt" / "demo" / "215b-cut-middle-cut.yaml"


def test_215b_middle_is_one_space_joining_both_cuts(dirt):
    face = dirt.face("215b")
    middle = next(c for c in face.cells if c.id == "m")
    assert middle.width == 2 and middle.lane_range == (0, 1)
    for reverse, (first, second) in ((False, ("cut1", "cut2")), (True, ("cut2", "cut1"))):
        entry = "D" if reverse else "A"
        track = assemble(Stage(tiles=["202a A", f"215b {entry}", "203a A"]), dirt)
        g = track.graph
        assert g.has_edge(f"1:{first}", "1:m") and g.has_edge("1:m", f"1:{second}")
        assert nx.has_path(g, f"1:{first}", f"1:{second}")


def test_231_middle_is_one_space(dirt):
    for f in ("231a", "231b"):
        wide = [c for c in dirt.face(f).cells if c.width == 2]
        assert len(wide) == 1 and wide[0].limit == dirt.face(f).features.limits[0]


def test_wide_space_holds_moves_from_both_lanes(dirt):
    g = assemble(Stage(tiles=["202a A", "215b A", "203a A"]), dirt).graph
    into = {u for u, _ in g.in_edges("1:m")}
    assert {"1:k1i", "1:k1o3", "1:cut1"} <= into


def test_fastest_line_of_the_demo_stage_is_cut_middle_cut():
    track = assemble(load_stage(DEMO), get_tileset("dirt-core"))
    line = fastest_line(track)
    cells = [c for c in line.cells if c.startswith("2:")]
    k = cells.index("2:cut1")
    assert cells[k:k + 3] == ["2:cut1", "2:m", "2:cut2"]
    # Driving the hairpins instead is slower: with both cuts closed the best time grows.
    g = track.graph.copy()
    g.remove_nodes_from(["2:cut1", "2:cut2"])
    slower = fastest_line(g)
    assert slower is not None and slower.seconds > line.seconds
