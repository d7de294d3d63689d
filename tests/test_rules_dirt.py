"""The DIRT rules of one turn: the ruleset file, the rulebook's worked examples, and every feature of the road."""
from __future__ import annotations

import itertools
import math
from pathlib import Path

import networkx as nx
import pytest
import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.core.errors import DesignerError, SchemaError
from designer.systems.dirt.board.stage import Stage
from designer.systems.dirt.board.tileset import Cell, Face, Slide, Tileset
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.driving.referee import IllegalMove, play_turn
from designer.systems.dirt.driving.rules import Pool, engine_for, legal_turns, load_ruleset, road_of, turn_outcomes

RULES = load_ruleset()


# -- synthetic roads ---------------------------------------------------------------------------

def road(rows: int, lanes: int = 1, *, limits=None, jumps=None, fords=(), finish=None, cuts=None,
         terrain="gravel") -> nx.DiGraph:
    """A straight road of ``rows`` rows: cells ``r<row>`` (one lane) or ``r<row><lane letter>``.

    Per-row ``limits``/``jumps`` (dict row -> value, or (row, lane) -> value), ``fords`` rows, the finish row.
    Row 0 is the start cell(s).
    """
    limits = limits or {}
    jumps = jumps or {}
    g = nx.DiGraph()

    def name(r, lane):
        return f"r{r}" if lanes == 1 else f"r{r}{'ab'[lane]}"

    def pick(d, r, lane):
        return d.get((r, lane), d.get(r))

    for r in range(rows):
        for lane in range(lanes):
            g.add_node(name(r, lane), index=r, tile="t", cell=name(r, lane), lane=lane, a=0.0, b=1.0, pos=r + 0.5,
                       limit=pick(limits, r, lane), corner=None, path=None, cut=None, jump=pick(jumps, r, lane),
                       ford=r in fords, slide=False, start=r == 0, finish=r == finish, danger="yellow",
                       terrain=terrain)
    for r in range(rows - 1):
        for lane in range(lanes):
            for other in range(lanes):
                if abs(lane - other) <= 1:
                    g.add_edge(name(r, lane), name(r + 1, other), kind="straight" if lane == other else "diagonal")
    return g


def straight_face(fid: str, rows: int, *, role=None, start_line=None, finish_line=None, extra=(), slides=(),
                  row_attrs=None, corners=None) -> Face:
    """A straight A-D face with 2 lanes of ``rows`` equal rows (cells a<k>, b<k>), optional extra cells and slides."""
    row_attrs = row_attrs or {}
    corners = corners or {}
    cells = []
    for lane, letter in enumerate("ab"):
        for k in range(rows):
            span = (round(k / rows, 4), round((k + 1) / rows, 4))
            attrs = dict(row_attrs.get(k, {}))
            if k in corners:
                attrs.update(corner="K1", path=corners[k][lane])
            cells.append(Cell(id=f"{letter}{k + 1}", lane=lane, span=span, **attrs))
    cells += [Cell(**c) for c in extra]
    return Face(id=fid, terrain="gravel", danger="yellow", edges={"A": 2, "D": 2}, links=[("A", "D")], role=role,
                ends=["A", "D"], cells=cells, slides=[Slide(**s) for s in slides], start_line=start_line,
                finish_line=finish_line)


def track_of(*faces: Face):
    ts = Tileset(name="test", tiles={f.id: f for f in faces})
    stage = Stage(name="test", tileset="test", tiles=[f"{f.id} A" for f in faces])
    return assemble(stage, ts)


# -- the ruleset file ----------------------------------------------------------------------------

def test_ruleset_values_and_sources():
    assert RULES.gears == (1, 2, 3, 4, 5, 6)
    assert RULES.time_card == {1: 50, 2: 40, 3: 30, 4: 20, 5: 15, 6: 10}
    assert RULES.hazard_limit == 3
    assert RULES.box_dice == Pool(gear=6, gas=2, brake=2, leader=1)
    assert RULES.hazard_faces["gear3"] in (1, 2)
    assert RULES.sources["hazard_limit"]["status"] == "rulebook"
    assert RULES.sources["time_card"]["status"] == "assumed"
    assert RULES.sources["dashboards"]["status"] == "assumed"
    for name, src in RULES.sources.items():
        assert src["source"], name
    raw = yaml.safe_load(Path(RULES.path).read_text(encoding="utf-8"))
    for key, item in raw.items():
        if key in ("ruleset", "title"):
            continue
        assert set(item) == {"value", "status", "source"}, key
    assert load_ruleset() == RULES


def _write_rules(tmp_path, mutate):
    raw = yaml.safe_load(Path(RULES.path).read_text(encoding="utf-8"))
    mutate(raw)
    p = tmp_path / "rules.yaml"
    p.write_text(yaml.safe_dump(raw, allow_unicode=True, sort_keys=False), encoding="utf-8")
    return p


def test_ruleset_errors_say_where(tmp_path):
    def bad(raw):
        raw["time_card"]["value"].pop(6)
        raw["hazard_limit"]["status"] = "guess"
        del raw["die_faces"]
        raw["speed"] = {"value": 1, "status": "assumed", "source": "x"}
    with pytest.raises(SchemaError) as exc:
        load_ruleset(_write_rules(tmp_path, bad))
    text = str(exc.value)
    assert "rules.yaml:" in text and "hazard_limit.status" in text and "die_faces: missing" in text
    assert "speed: unknown parameter" in text

    def bad_value(raw):
        raw["time_card"]["value"].pop(6)
        raw["dashboards"]["value"]["gravel"]["gas"] = 3
    with pytest.raises(SchemaError) as exc:
        load_ruleset(_write_rules(tmp_path, bad_value))
    assert "time_card has no seconds for gear 6" in str(exc.value) or "box holds only" in str(exc.value)

    def no_source(raw):
        raw["gears"]["source"] = ""
    with pytest.raises(SchemaError, match="source"):
        load_ruleset(_write_rules(tmp_path, no_source))


def test_ruleset_replace_and_options():
    r = RULES.replace(hazard_faces={**RULES.hazard_faces, "gear3": 1})
    assert r.hazard_faces["gear3"] == 1 and RULES.hazard_faces["gear3"] == 2
    with pytest.raises(DesignerError):
        RULES.replace(hazard_limit=0)
    assert RULES.with_options(canon_start=True).options.canon_start
    assert not RULES.with_options({"leader_dice": False}).options.leader_dice
    with pytest.raises(DesignerError):
        RULES.with_options(turbo=True)


def test_risk_values():
    # three dice with one hazard face each: all three must show it
    assert RULES.loss_chance(["gas", "gas", "gear1"]) == pytest.approx((1 / 6) ** 3)
    assert RULES.loss_chance(["gear1", "gear2"]) == 0.0
    # gear 3 disputed: 2 faces by default, 1 when changed
    three = ["gear3", "gear4", "gear5"]
    assert RULES.loss_chance(three) == pytest.approx((2 / 6) ** 3)
    one = RULES.replace(hazard_faces={**RULES.hazard_faces, "gear3": 1})
    assert one.loss_chance(three) == pytest.approx((1 / 6) * (2 / 6) ** 2)
    # a long-jump die's hazard is a loss of control by itself
    assert RULES.loss_chance([], jump_dice=["gear4"]) == pytest.approx(2 / 6)
    # canon start: the gear-2 die never counts, the rest only matters when it shows no hazard
    assert RULES.loss_chance(["gas", "gas", "gear1"], canon=True) == pytest.approx((5 / 6) * (1 / 6) ** 3)
    # Poisson-binomial by brute force for a mixed hand
    dice = ["gear4", "gear5", "gas", "brake", "gear6"]
    ps = [RULES.hazard_chance(d) for d in dice]
    want = 0.0
    for faces in itertools.product([0, 1], repeat=len(ps)):
        if sum(faces) >= 3:
            want += math.prod(p if f else 1 - p for p, f in zip(ps, faces))
    assert RULES.loss_chance(dice) == pytest.approx(want)


# -- the rulebook's worked examples (p. 8-9, p. 11) ------------------------------------------------

def test_raphael():
    """Raphaël starts in gear 0: gear 1 first, then gear 2 (p. 8)."""
    g = road(4)
    t = play_turn(g, "r0", 0, [(1, "r1"), (2, "r2")])
    assert [s.gear for s in t.steps] == [1, 2] and t.seconds == 40
    with pytest.raises(IllegalMove, match="gear1"):
        play_turn(g, "r0", 0, [(2, "r1")])
    with pytest.raises(IllegalMove, match="one at a time"):
        play_turn(g, "r0", 0, [(1, "r1"), (3, "r2")])


def test_olivier():
    """Olivier in gear 4: 5, then 4, 3, 2 before a tight corner (p. 8)."""
    g = road(6, limits={4: 2})
    t = play_turn(g, "r0", 4, [(5, "r1"), (4, "r2"), (3, "r3"), (2, "r4")])
    assert [s.gear for s in t.steps] == [5, 4, 3, 2] and t.gear == 2 and t.seconds == 40
    with pytest.raises(IllegalMove, match="loss of control"):
        play_turn(g, "r0", 4, [(5, "r1"), (4, "r2"), (3, "r3"), ("gas", "r4")])
    with pytest.raises(IllegalMove, match="one at a time"):
        play_turn(g, "r0", 4, [(6, "r1")])


def test_same_gear_die_once():
    g = road(5)
    assert play_turn(g, "r0", 4, [(4, "r1")]).gear == 4
    with pytest.raises(IllegalMove, match="already used"):
        play_turn(g, "r0", 4, [(5, "r1"), (4, "r2"), (4, "r3")])


def test_georgina():
    """Georgina: 5 -> 4 with a gear die, then gear 2 with one brake die, skipping 3 (p. 9)."""
    g = road(4, limits={2: 2})
    t = play_turn(g, "r0", 5, [(4, "r1"), ((2, "brake"), "r2")])
    assert [s.gear for s in t.steps] == [4, 2] and t.steps[1].dice == ("gear2", "brake")
    assert len(t.cells) == 2                     # a brake move is one cell
    with pytest.raises(IllegalMove, match="1 brake die"):
        play_turn(g, "r0", 5, [(4, "r1"), (2, "r2")])


def test_brake_counts():
    g = road(4)
    assert play_turn(g, "r0", 6, [((3, "brake", "brake"), "r1")]).gear == 3
    with pytest.raises(IllegalMove, match="2 brake dice"):
        play_turn(g, "r0", 6, [((3, "brake"), "r1")])
    with pytest.raises(IllegalMove, match="needs none"):
        play_turn(g, "r0", 4, [((3, "brake"), "r1")])
    with pytest.raises(IllegalMove, match="only 2 brake dice left|2 brake"):
        play_turn(g, "r0", 6, [((2, "brake", "brake", "brake"), "r1")])
    three = Pool(gear=6, gas=2, brake=3, leader=0)
    assert play_turn(g, "r0", 6, [((2, "brake", "brake", "brake"), "r1")], pool=three).gear == 2
    four = RULES.replace(box_dice=Pool(gear=6, gas=2, brake=4, leader=1),
                         dashboards={**RULES.dashboards, "gravel": Pool(gear=6, gas=2, brake=4, leader=0)})
    with pytest.raises(IllegalMove, match="at most 4"):
        play_turn(g, "r0", 6, [((1, "brake", "brake", "brake", "brake"), "r1")], four)
    # never below gear 1: from gear 2 no brake move exists
    eng = engine_for(g, RULES)
    assert all(o[0] >= 1 for o in eng.die_options(2, 0))
    assert play_turn(g, "r0", 3, [((1, "brake"), "r1")]).gear == 1


def test_patrick():
    """Patrick: 5 -> 6 -> 5 -> 4 -> (brake) 2 -> gas -> 3 out of the corner; ends in gear 3 (p. 9)."""
    g = road(8, limits={4: 2, 5: 2})
    moves = [(6, "r1"), (5, "r2"), (4, "r3"), ((2, "brake"), "r4"), ("gas", "r5"), (3, "r6")]
    t = play_turn(g, "r0", 5, moves)
    assert [s.gear for s in t.steps] == [6, 5, 4, 2, 2, 3]
    assert t.gear == 3 and t.seconds == 30 and len(t.cells) == 6 and len(t.dice) == 7
    # without the brake he would have had to spend gear 3 on the way down
    late = road(8, limits={5: 2})
    with pytest.raises(IllegalMove, match="already used"):
        play_turn(late, "r0", 5, [(6, "r1"), (5, "r2"), (4, "r3"), (3, "r4"), (2, "r5"), (3, "r6")])


def test_quentin():
    """Quentin enters a corner cell limited to 3 with the gear-3 die, then may go to gear 4 leaving it (p. 11)."""
    g = road(4, limits={1: 3})
    t = play_turn(g, "r0", 3, [(3, "r1"), (4, "r2")])
    assert t.gear == 4
    with pytest.raises(IllegalMove, match="gear 3 at most"):
        play_turn(g, "r0", 4, [(4, "r1")])
    with pytest.raises(IllegalMove, match="gear 3 at most"):
        play_turn(g, "r0", 4, [("gas", "r1")])
    assert play_turn(g, "r0", 4, [(3, "r1")]).gear == 3


def test_gas_rules():
    g = road(5)
    with pytest.raises(IllegalMove, match="gear 0"):
        play_turn(g, "r0", 0, [("gas", "r1")])
    t = play_turn(g, "r0", 3, [("gas", "r1"), (4, "r2"), ("gas", "r3")])
    assert [s.gear for s in t.steps] == [3, 4, 4]
    with pytest.raises(IllegalMove, match="all 2 gas dice"):
        play_turn(g, "r0", 3, [("gas", "r1"), ("gas", "r2"), ("gas", "r3")])
    only_gas = play_turn(g, "r0", 2, [("gas", "r1")])
    assert only_gas.gear == 2 and only_gas.seconds == 40      # the same card as before


def test_leader_pool():
    g = road(5)
    with pytest.raises(IllegalMove, match="leader"):
        play_turn(g, "r0", 3, [("leader", "r1")])
    t = play_turn(g, "r0", 3, [("leader", "r1")], leader=True)
    assert t.gear == 3
    with pytest.raises(IllegalMove, match="gas"):
        play_turn(g, "r0", 3, [("gas", "r1")], leader=True)
    no_leader = RULES.with_options(leader_dice=False)
    assert play_turn(g, "r0", 3, [("gas", "r1")], no_leader, leader=True).gear == 3
    assert RULES.pool("gravel", leader=True).leader == 1 and RULES.pool("gravel").gas == 2


def test_must_move():
    g = road(3)
    with pytest.raises(IllegalMove, match="at least one cell"):
        play_turn(g, "r0", 2, [])
    blocked = play_turn(g, "r2", 2, [])          # the road ends: no move exists
    assert blocked.steps == () and blocked.gear == 2
    # every move from gear 6 into a cell limited to 1 is a loss of control: no legal turn
    tight = road(3, limits={1: 1})
    assert turn_outcomes(tight, "r0", 6) == []


def test_moves_only_forward_links():
    g = road(4, lanes=2)
    assert play_turn(g, "r0a", 2, [(2, "r1b"), (3, "r2a")]).end == "r2a"
    with pytest.raises(IllegalMove, match="not one cell forward"):
        play_turn(g, "r0a", 2, [(2, "r2a")])
    with pytest.raises(IllegalMove, match="not one cell forward"):
        play_turn(g, "r1a", 2, [(2, "r1b")])


# -- corners, slides, cuts (the graph from designer/track.py) ------------------------------------------

def corner_track():
    start = straight_face("901a", 2, role="start", start_line=0.5)
    # rows 1-2 are a corner: inside (lane 0) limited 2, outside (lane 1) limited 3
    corner = straight_face("902a", 4, row_attrs={1: {"limit": 2}, 2: {"limit": 2}},
                           corners={1: ("inside", "outside"), 2: ("inside", "outside")},
                           slides=[{"span": (0.75, 1.0), "split": 0.875}],
                           extra=[{"id": "x1", "lane": -1, "span": (0.0, 1.0), "cut": 2, "connects": ["a1", "a4"]}])
    finish = straight_face("903a", 2, role="finish", finish_line=0.5)
    faces = {f.id: f for f in (start, corner, finish)}
    # outside cells carry their own (higher) limit
    cells = [c.model_copy(update={"limit": 3}) if c.path == "outside" else c for c in faces["902a"].cells]
    faces["902a"] = faces["902a"].model_copy(update={"cells": cells})
    return track_of(faces["901a"], faces["902a"], faces["903a"])


def test_corner_paths_kept():
    t = corner_track()
    g = t.graph
    assert not g.has_edge("1:a2", "1:b3") and not g.has_edge("1:b2", "1:a3")
    assert play_turn(g, "1:a1", 3, [(3, "1:b2"), ("gas", "1:b3")]).gear == 3      # outside: limit 3
    with pytest.raises(IllegalMove, match="not one cell forward"):
        play_turn(g, "1:b1", 2, [(2, "1:a2"), ("gas", "1:b3")])
    with pytest.raises(IllegalMove, match="gear 2 at most"):
        play_turn(g, "1:b1", 3, [(3, "1:a2")])                                # inside: limit 2
    for turn in turn_outcomes(g, "0:a2", 0, RULES):
        paths = {g.nodes[c]["path"] for c in turn.cells if g.nodes[c]["corner"]}
        assert len(paths) <= 1


def test_slide_half_cells():
    t = corner_track()
    g = t.graph
    # the last row of the corner tile is a slide row: two half-cells, one die each
    t1 = play_turn(g, "1:a3", 2, [(3, "1:s1a"), (4, "1:s1b"), (5, "2:a1")])
    assert t1.cells == ["1:s1a", "1:s1b", "2:a1"]
    assert play_turn(g, "1:a3", 2, [(3, "1:a4"), (4, "2:b1")]).gear == 4     # or the row as a normal cell
    with pytest.raises(IllegalMove, match="not one cell forward"):
        play_turn(g, "1:a3", 2, [(3, "1:s1b")])


def test_cut_limit():
    t = corner_track()
    g = t.graph
    assert g.nodes["1:x1"]["cut"] == 2
    t1 = play_turn(g, "0:a2", 2, [(2, "1:a1"), ("gas", "1:x1"), (3, "1:a4")])
    assert t1.cells == ["1:a1", "1:x1", "1:a4"]
    with pytest.raises(IllegalMove, match="the cut 1:x1 may be entered in gear 2 at most"):
        play_turn(g, "0:a2", 3, [(3, "1:a1"), ("gas", "1:x1")])
    # never from a corner cell
    assert not any(g.nodes[u]["corner"] for u in g.predecessors("1:x1"))


# -- jumps, fords, the finish -------------------------------------------------------------------------

def test_jumps():
    g = road(7, lanes=2, jumps={2: 3})
    # equal: one cell further with the same die
    t = play_turn(g, "r0a", 2, [(3, "r1a"), ("gas", ("r2a", "r3b"))])
    assert t.cells == ["r1a", "r2a", "r3b"] and t.steps[1].events == ("jump",)
    with pytest.raises(IllegalMove, match="1 cell further"):
        play_turn(g, "r0a", 2, [(3, "r1a"), ("gas", "r2a")])
    # one above: two cells further, the die's hazard is a loss of control
    t2 = play_turn(g, "r0a", 3, [(4, "r1a"), ("gas", ("r2a", "r3a", "r4a"))])
    assert t2.steps[1].events == ("long-jump",) and t2.end == "r4a"
    assert t2.risk == pytest.approx(RULES.loss_chance(["gear4"], jump_dice=["gas"]))
    # two above: a loss of control, never legal here
    with pytest.raises(IllegalMove, match="two or more above"):
        play_turn(g, "r0a", 4, [(5, "r1a"), ("gas", "r2a")])
    # below: an ordinary cell
    assert play_turn(g, "r0a", 1, [(2, "r1a"), ("gas", "r2a")]).end == "r2a"
    for turn in turn_outcomes(g, "r0a", 5):
        assert all(s.gear <= 4 for s in turn.steps if s.cells[0].startswith("r2"))


def test_jump_with_gas():
    g = road(5, jumps={2: 3})
    assert play_turn(g, "r0", 3, [("gas", "r1"), ("gas", ("r2", "r3"))]).end == "r3"
    off = RULES.replace(jump_gas_counts_gear=False)
    assert play_turn(g, "r0", 3, [("gas", "r1"), ("gas", "r2")], off).end == "r2"


def test_jump_landing_limit():
    g = road(6, jumps={1: 3}, limits={3: 1, 2: 2})
    # gear 4 on a jump of 3 flies over r2 (limit 2) and lands on r3 (limit 1): illegal
    with pytest.raises(IllegalMove):
        play_turn(g, "r0", 3, [(4, ("r1", "r2", "r3"))])
    h = road(6, jumps={1: 3}, limits={2: 1})
    # flying over a cell limited to 1 is fine; landing on r3 (no limit)
    assert play_turn(h, "r0", 3, [(4, ("r1", "r2", "r3"))]).end == "r3"


def test_jump_over_finish():
    g = road(5, jumps={1: 3}, finish=2)
    t = play_turn(g, "r0", 3, [(4, ("r1", "r2", "r3"))])
    assert t.finished and t.gear == 4
    with pytest.raises(IllegalMove, match="ended"):
        play_turn(g, "r0", 3, [(4, ("r1", "r2", "r3")), (4, "r4")])
    # flying over the first cell past the line: where it lands does not matter (p. 20)
    over = road(5, jumps={1: 3}, finish=2, limits={3: 1})
    assert play_turn(over, "r0", 3, [(4, ("r1", "r2", "r3"))]).finished
    # landing on it is an ordinary entry: its limit applies
    onto = road(5, jumps={1: 3}, finish=3, limits={3: 2})
    with pytest.raises(IllegalMove):
        play_turn(onto, "r0", 3, [(4, ("r1", "r2", "r3"))])


def test_fords():
    g = road(6, fords={2})
    assert play_turn(g, "r0", 2, [(2, "r1"), ("gas", "r2"), (3, "r3")]).gear == 3
    assert play_turn(g, "r0", 2, [("gas", "r1"), (1, "r2")]).gear == 1
    assert play_turn(g, "r0", 3, [((1, "brake"), "r1"), ("gas", "r2")]).gear == 1
    with pytest.raises(IllegalMove, match="no brake dice onto a ford"):
        play_turn(g, "r0", 3, [(3, "r1"), ((1, "brake"), "r2")])
    # another die: the move stops in the ford, the gear stays
    t = play_turn(g, "r0", 2, [(2, "r1"), (3, "r2")])
    assert t.end == "r2" and t.gear == 2 and t.seconds == 40 and t.steps[-1].events == ("ford-stop",)
    with pytest.raises(IllegalMove, match="ended"):
        play_turn(g, "r0", 2, [(2, "r1"), (3, "r2"), (4, "r3")])
    # leaving a ford: accelerate, decelerate or brake freely
    assert play_turn(g, "r2", 4, [((2, "brake"), "r3")]).gear == 2
    # a limited ford: the gear kept by a stop must respect the limit too
    limited = road(5, fords={2}, limits={2: 2})
    with pytest.raises(IllegalMove, match="above the limit"):
        play_turn(limited, "r0", 3, [(3, "r1"), (2, "r2")])
    assert play_turn(limited, "r0", 3, [(2, "r1"), (1, "r2")]).gear == 1


def test_finish_ends_turn():
    g = road(6, finish=3)
    t = play_turn(g, "r0", 3, [(4, "r1"), (5, "r2"), ("gas", "r3")])
    assert t.finished and t.gear == 5 and t.seconds == 15
    with pytest.raises(IllegalMove, match="ended"):
        play_turn(g, "r0", 3, [(4, "r1"), (5, "r2"), (6, "r3"), ("gas", "r4")])
    assert all(turn.end != "r4" for turn in turn_outcomes(g, "r0", 3))


# -- optional rules ------------------------------------------------------------------------------------

def test_canon_start():
    g = road(5)
    canon = RULES.with_options(canon_start=True)
    t = play_turn(g, "r0", 0, [(2, "r1"), (3, "r2")], canon)
    assert t.steps[0].events == ("canon",) and t.gear == 3
    # only from gear 0, only as the first die
    with pytest.raises(IllegalMove):
        play_turn(g, "r0", 0, [(1, "r1"), (2, "r2"), (2, "r3")], canon)
    # the canon die's hazard ends the turn safely: it never counts towards the limit
    t3 = play_turn(g, "r0", 0, [(2, "r1"), (3, "r2"), (4, "r3"), (5, "r4")], canon)
    assert t3.risk == pytest.approx(RULES.loss_chance(["gear3", "gear4", "gear5"], canon=True))


def test_canon_long_jump():
    """A canon gear 2 one above a jump of 1: its hazard ends the turn safely instead of a loss of control."""
    g = road(5, jumps={1: 1})
    canon = RULES.with_options(canon_start=True)
    t = play_turn(g, "r0", 0, [(2, ("r1", "r2", "r3"))], canon)
    assert t.steps[0].events == ("canon", "long-jump") and t.risk == 0.0


def test_red_zone():
    g = road(8)
    rz = RULES.with_options(red_zone=True)
    t = play_turn(g, "r0", 6, [(6, "r1"), ("gas", "r2"), ("gas", "r3"), ("brake", "r4"), ("brake", "r5")], rz)
    assert t.gear == 6 and t.steps[3].events == ("red-zone",)
    with pytest.raises(IllegalMove, match="red zone|red-zone"):
        play_turn(g, "r0", 5, [("brake", "r1")], rz)
    with pytest.raises(IllegalMove, match="red-zone"):
        play_turn(g, "r0", 6, [("brake", "r1")])
    # a red-zone brake counts as a gear die on the dashboard
    five = Pool(gear=1, gas=0, brake=2, leader=0)
    with pytest.raises(IllegalMove, match="1 gear dice"):
        play_turn(g, "r0", 6, [("brake", "r1"), (5, "r2")], rz, pool=five)


# -- the fast enumeration against the exhaustive one ----------------------------------------------------

def _ends_brute(graph, cell, gear, rules=RULES, max_risk=None):
    return {(t.end, t.gear, t.finished) for t in legal_turns(graph, cell, gear, rules, max_risk=max_risk)}


def _ends_fast(graph, cell, gear, rules=RULES, max_risk=None):
    eng = engine_for(graph, rules, cell=cell, max_risk=max_risk)
    road_ = road_of(graph)
    ends = {(road_.nodes[c], g, f) for c, g, f in eng.ends(road_.index[cell], gear)}
    assert ends == {(road_.nodes[c], g, f) for (c, g, f) in eng.outcomes(road_.index[cell], gear)}
    return ends


@st.composite
def small_roads(draw):
    rows = draw(st.integers(4, 8))
    lanes = draw(st.integers(1, 2))
    cell_limit = st.one_of(st.none(), st.integers(1, 6))
    limits = {(r, ln): draw(cell_limit) for r in range(1, rows) for ln in range(lanes)}
    jumps = {r: draw(st.integers(1, 5)) for r in range(1, rows - 1) if draw(st.integers(0, 5)) == 0}
    fords = {r for r in range(1, rows) if draw(st.integers(0, 6)) == 0}
    finish = draw(st.one_of(st.none(), st.integers(2, rows - 1)))
    gear = draw(st.integers(0, 6))
    return road(rows, lanes, limits=limits, jumps=jumps, fords=fords, finish=finish), gear


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(small_roads(), st.sampled_from([None, 0.02, 0.2]), st.booleans())
def test_fast_enumeration_is_exhaustive(case, max_risk, canon):
    graph, gear = case
    rules = RULES.with_options(canon_start=canon)
    start = "r0" if "r0" in graph else "r0a"
    assert _ends_fast(graph, start, gear, rules, max_risk) == _ends_brute(graph, start, gear, rules, max_risk)


@settings(max_examples=40, deadline=None)
@given(small_roads())
def test_every_enumerated_turn_replays(case):
    graph, gear = case
    start = "r0" if "r0" in graph else "r0a"
    for turn in legal_turns(graph, start, gear, RULES, limit=400):
        moves = [(s.dice, s.cells) for s in turn.steps]
        again = play_turn(graph, start, gear, moves)
        assert again.gear == turn.gear and again.end == turn.end
        assert again.risk == pytest.approx(turn.risk)
        assert turn.seconds == RULES.seconds(turn.gear)


def test_turn_outcomes_least_risk():
    g = road(9, lanes=2)
    for turn in turn_outcomes(g, "r0a", 3):
        for other in legal_turns(g, "r0a", 3, limit=3000):
            if (other.end, other.gear) == (turn.end, turn.gear):
                assert turn.risk <= other.risk + 1e-12


@pytest.mark.parametrize("compiled", [True, False])
def test_a_box_with_every_die_a_ruleset_allows_is_searched(monkeypatch, compiled):
    """A ruleset may give a dashboard 6 gear and 7 gas, brake and leader dice: a turn of more than 16 dice
    (the search's old limit) is searched, for the line and for the expected time's plans, compiled or not."""
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.track import load_track
    from designer.systems.dirt.dice import plan_search
    from designer.systems.dirt.driving.lines import fastest_line

    rules = load_ruleset()
    full = Pool(gear=6, gas=7, brake=7, leader=7)
    rules = rules.replace(box_dice=full, dashboards={k: full for k in rules.dashboards})
    track = load_track(load_stage("stages/dirt/rally-1/ss1.yaml"))
    line = fastest_line(track, rules)
    assert line is not None and max(len(t.dice) for t in line.turns) > 16
    engine = engine_for(track.graph, rules, cell=line.turns[0].cells[0])
    start = road_of(track.graph).starts()[0]
    if not compiled:
        monkeypatch.setattr(plan_search, "COMPILED", None)
    found = plan_search.search_plans(engine, start, 0)
    assert found.n and int(found.dice.max()) > 16
