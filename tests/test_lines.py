"""Racing lines: the fast search against an independent brute force, random play, the rulebook stages."""
from __future__ import annotations

import functools
import itertools
import json
import math
import random
from pathlib import Path

import networkx as nx
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.core.errors import DesignerError
from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.tileset import Face, get_tileset
from designer.systems.dirt.board.track import assemble, load_track
from designer.systems.dirt.driving.lines import fastest_line, shortest_line, speed_limits, turn_graph
from designer.systems.dirt.driving.referee import play_turn
from designer.systems.dirt.driving.rules import load_ruleset, turn_outcomes

RULES = load_ruleset()
ROOT = Path(__file__).resolve().parent.parent
STAGES = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("stages/dirt/rally-*/ss*.yaml"))


# -- a synthetic road (own builder: no code shared with the rules tests) ------------------------------

def make_road(rows, lanes=2, limits=None, jumps=None, fords=(), finish=None):
    limits, jumps = limits or {}, jumps or {}
    g = nx.DiGraph()
    for r in range(rows):
        for ln in range(lanes):
            g.add_node((r, ln), limit=limits.get((r, ln)), cut=None, jump=jumps.get(r), ford=r in fords,
                       start=r == 0, finish=r == finish, terrain="gravel", corner=None, path=None)
    for r in range(rows - 1):
        for ln in range(lanes):
            for other in range(lanes):
                if abs(ln - other) <= 1:
                    g.add_edge((r, ln), (r + 1, other), kind="straight" if ln == other else "diagonal")
    return nx.relabel_nodes(g, {n: f"{n[0]}.{n[1]}" for n in g})


# -- an independent brute force, written from the rulebook text ------------------------------------------

def brute_ends(G, cell, gear, max_risk=None, canon=False, gas_dice=2, brake_dice=2):
    """Every (end cell, end gear, finished) of a legal turn, trying every sequence of dice one by one."""
    faces = RULES.hazard_faces
    ends = {}

    def limit(v):
        d = G.nodes[v]
        return d["cut"] if d.get("cut") is not None else d["limit"]

    def fly(v):
        return [w for w in G.successors(v) if G.edges[v, w]["kind"] in ("straight", "diagonal")]

    def note(end, g, fin, dice):
        r = chance(tuple(sorted(dice)))
        if max_risk is None or r <= max_risk + 1e-12:
            ends[(end, g, fin)] = True
            return True
        return False

    def go(c, g, left, gas, brakes, dice, first):
        options = []
        if g == 0:
            if 1 in left:
                options.append((1, left - {1}, gas, brakes, "gear", [("gear1", "n")]))
            if canon and first and 2 in left:
                options.append((2, left - {2}, gas, brakes, "canon", [("gear2", "c")]))
        else:
            for k in (g - 1, g, g + 1):
                if k in left:
                    options.append((k, left - {k}, gas, brakes, "gear", [(f"gear{k}", "n")]))
            for b in range(1, min(brakes, 3) + 1):
                k = g - 1 - b
                if k >= 1 and k in left:
                    options.append((k, left - {k}, gas, brakes - b, "brake",
                                    [(f"gear{k}", "n")] + [("brake", "n")] * b))
            if gas:
                options.append((g, left, gas - 1, brakes, "gas", [("gas", "n")]))
        for ng, nleft, ngas, nbrakes, kind, new in options:
            for v in G.successors(c):
                lim = limit(v)
                if lim is not None and ng > lim:
                    continue
                if G.nodes[v]["finish"]:
                    note(v, ng, True, dice + new)
                    continue
                j = G.nodes[v]["jump"]
                if j and ng >= j:
                    if ng >= j + 2:
                        continue
                    if ng == j:
                        flights = [(v, w) for w in fly(v)]
                        mark = new
                    else:
                        flights = [(v, w, y) for w in fly(v) for y in fly(w)]
                        mark = new if kind == "canon" else [(new[0][0], "j")] + new[1:]
                    for path in flights:
                        land = path[-1]
                        if any(G.nodes[x]["finish"] for x in path[1:-1]):
                            note(land, ng, True, dice + mark)
                            continue
                        lim2 = limit(land)
                        if lim2 is not None and ng > lim2:
                            continue
                        if G.nodes[land]["finish"]:
                            note(land, ng, True, dice + mark)
                            continue
                        step(land, g, ng, kind, nleft, ngas, nbrakes, dice + mark)
                    continue
                step(v, g, ng, kind, nleft, ngas, nbrakes, dice + new)

    def step(v, g, ng, kind, nleft, ngas, nbrakes, dice):
        if G.nodes[v]["ford"] and not (kind == "gas" or (kind == "gear" and ng == 1)):
            lim = limit(v)
            if kind in ("brake", "canon") or (lim is not None and g > lim):
                return
            note(v, g, False, dice)            # stops in the ford, gear unchanged
            return
        if note(v, ng, False, dice):
            go(v, ng, nleft, ngas, nbrakes, dice, False)

    go(cell, gear, frozenset(range(1, 7)), gas_dice, brake_dice, [], True)
    return set(ends)


@functools.lru_cache(maxsize=None)
def chance(dice):
    """Chance of a loss of control, by listing every hazard pattern of the dice."""
    ps = [(faces_of(d) / 6, role) for d, role in dice]
    total = 0.0
    for pattern in itertools.product((0, 1), repeat=len(ps)):
        w = math.prod(p if h else 1 - p for (p, _), h in zip(ps, pattern))
        if any(h and role == "c" for (_, role), h in zip(ps, pattern)):
            continue                            # canon die hazard: the turn ends, no loss of control
        counted = sum(h for (_, role), h in zip(ps, pattern) if role == "n")
        if counted >= 3 or any(h and role == "j" for (_, role), h in zip(ps, pattern)):
            total += w
    return total


def faces_of(die):
    return RULES.hazard_faces[die]


def brute_fastest(G, max_risk=None, canon=False):
    """Least seconds from the start cells to a finished state, over the whole explicit turn graph."""
    starts = [n for n, d in G.nodes(data=True) if d["start"]]
    tg = nx.DiGraph()
    todo = [(s, 0, False) for s in starts]
    seen = set(todo)
    while todo:
        c, g, fin = todo.pop()
        if fin:
            continue
        for end in brute_ends(G, c, g, max_risk, canon):
            tg.add_edge((c, g, fin), end, weight=RULES.time_card[end[1]])
            if end not in seen:
                seen.add(end)
                todo.append(end)
    goals = [n for n in tg if n[2]]
    if not goals:
        return None
    tg.add_edges_from(((n, "GOAL") for n in goals), weight=0)
    sources = {(s, 0, False) for s in starts if (s, 0, False) in tg}
    try:
        return nx.multi_source_dijkstra(tg, sources, "GOAL")[0]
    except nx.NetworkXNoPath:
        return None


@st.composite
def random_roads(draw, max_rows=7, min_rows=4, max_lanes=2):
    rows = draw(st.integers(min_rows, max_rows))
    lanes = draw(st.integers(1, max_lanes))
    lim = st.one_of(st.none(), st.none(), st.integers(1, 6))
    limits = {(r, ln): draw(lim) for r in range(1, rows) for ln in range(lanes)}
    jumps = {r: draw(st.integers(1, 5)) for r in range(1, rows - 1) if draw(st.integers(0, 4)) == 0}
    fords = {r for r in range(1, rows - 1) if draw(st.integers(0, 5)) == 0}
    finish = draw(st.integers(2, rows - 1))
    return make_road(rows, lanes, limits, jumps, fords, finish)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_roads(), st.sampled_from([None, None, 0.05, 0.3]), st.booleans())
def test_matches_brute_force(G, max_risk, canon):
    rules = RULES.with_options(canon_start=canon)
    line = fastest_line(G, rules, max_risk=max_risk)
    want = brute_fastest(G, max_risk, canon)
    assert (line.seconds if line else None) == want
    if line is not None:
        assert all(t.risk <= max_risk + 1e-12 for t in line.turns) if max_risk is not None else True


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(random_roads(min_rows=10, max_rows=18, max_lanes=1), st.sampled_from([None, 0.1]))
def test_matches_brute_force_long_roads(G, max_risk):
    line = fastest_line(G, max_risk=max_risk)
    assert (line.seconds if line else None) == brute_fastest(G, max_risk)


@settings(max_examples=25, deadline=None)
@given(random_roads(), st.integers(0, 6))
def test_brute_force_turn_ends(G, gear):
    """The engine's turn ends from any state equal the brute force's."""
    for cell in sorted(G):
        fast = {(t.end, t.gear, t.finished) for t in turn_outcomes(G, cell, gear)}
        assert fast == brute_ends(G, cell, gear)


def small_real_stage():
    ts = get_tileset("dirt-core")
    if not all(ts.face(f).has_cells for f in ("202a", "204a", "210b", "203a")):
        pytest.skip("the dirt-core cell graphs of 202a, 204a, 210b, 203a are not encoded yet")
    return assemble(Stage(name="small", tiles=["202a A", "204a A", "210b C", "203a A"]), ts)


def test_brute_force_on_real_tiles():
    track = small_real_stage()
    assert track.has_cells
    line = fastest_line(track)
    assert line is not None and line.seconds == brute_fastest(track.graph)


# -- properties of the lines -----------------------------------------------------------------------------

def check_line(graph, line, rules=RULES):
    """Every turn replays legally and the turns join up from a start cell to past the finish line."""
    assert graph.nodes[line.turns[0].start]["start"] and line.turns[0].start_gear == 0
    cell, gear = line.turns[0].start, 0
    for turn in line.turns:
        assert (turn.start, turn.start_gear) == (cell, gear)
        again = play_turn(graph, turn.start, turn.start_gear, [(s.dice, s.cells) for s in turn.steps], rules)
        assert again.seconds == turn.seconds and again.risk == pytest.approx(turn.risk)
        cell, gear = turn.end, turn.gear
    assert line.turns[-1].finished and not any(t.finished for t in line.turns[:-1])
    assert line.seconds == sum(rules.seconds(t.gear) for t in line.turns)


def random_play(graph, rng, rules=RULES, max_turns=200):
    start = rng.choice(sorted(n for n, d in graph.nodes(data=True) if d["start"]))
    cell, gear, total = start, 0, 0
    for _ in range(max_turns):
        options = turn_outcomes(graph, cell, gear, rules)
        if not options:
            return None                         # a dead end: no legal turn
        turn = rng.choice(options)
        total += turn.seconds
        if turn.finished:
            return total
        cell, gear = turn.end, turn.gear
    return None


@settings(max_examples=40, deadline=None)
@given(random_roads(max_rows=9), st.randoms(use_true_random=False))
def test_random_play_never_beats_fastest(G, rng):
    line = fastest_line(G)
    total = random_play(G, rng)
    if line is None:
        assert total is None
    elif total is not None:
        assert total >= line.seconds


@settings(max_examples=30, deadline=None)
@given(random_roads(max_rows=9))
def test_line_properties(G):
    line = fastest_line(G)
    if line is None:
        return
    check_line(G, line)
    safe = fastest_line(G, max_risk=0.05)
    if safe is not None:
        check_line(G, safe)
        assert safe.seconds >= line.seconds and safe.max_turn_risk <= 0.05 + 1e-12
    short = shortest_line(G)
    assert short is not None and short.length <= line.length
    nx.is_path(G, [short.start] + short.cells)
    limits = speed_limits(G)
    for turn in line.turns:
        assert turn.finished or turn.gear <= limits[turn.end]
        for s in turn.steps:
            if "finish" in s.events and not G.nodes[s.cell]["finish"]:
                continue                        # a jump over the finish line: past the stage
            lim = G.nodes[s.cell]["limit"]
            assert limits[s.cell] is not None and (lim is None or limits[s.cell] <= lim)


def test_turn_graph_dijkstra_agrees():
    G = make_road(12, 2, limits={(5, 0): 2, (5, 1): 3, (6, 0): 2}, jumps={9: 4}, fords={3}, finish=11)
    tg = turn_graph(G)
    goals = [n for n in tg if n[2]]
    tg.add_edges_from(((n, "GOAL") for n in goals), weight=0)
    starts = {n for n in tg if n[1] == 0 and G.nodes[n[0]]["start"]}
    best = nx.multi_source_dijkstra(tg, starts, "GOAL")[0]
    assert fastest_line(G).seconds == best


def test_risk_budget_is_monotone():
    G = make_road(14, 2, limits={(6, 0): 2, (6, 1): 3, (7, 0): 2, (7, 1): 3}, finish=13)
    times = []
    for budget in (0.0, 0.01, 0.05, 0.2, 1.0):
        line = fastest_line(G, max_risk=budget)
        assert line is not None and line.max_turn_risk <= budget + 1e-12
        times.append(line.seconds)
    assert times == sorted(times, reverse=True)
    assert times[-1] == fastest_line(G).seconds


def test_speed_limits_profile():
    G = make_road(14, 1, limits={(10, 0): 2}, finish=13)
    limits = speed_limits(G)
    assert limits["0.0"] == 0 and limits["1.0"] == 1 and limits["4.0"] == 4      # one gear up per cell
    assert limits["10.0"] == 2
    # right before a cell limited to 2: gear 5 (5 -> 2 with two brake dice), not 6 (a drop of 4 needs 3)
    assert limits["9.0"] == 5 and limits["8.0"] == 6
    assert all(v is not None for v in limits.values())


def test_missing_cells_raise():
    face = Face(id="950a", terrain="gravel", edges={"A": 2, "D": 2}, links=[("A", "D")])
    ts = get_tileset("dirt-core").model_copy(update={"tiles": {**get_tileset("dirt-core").tiles, "950a": face}})
    track = assemble(Stage(name="x", tiles=["202a A", "950a A", "203a A"]), ts)
    with pytest.raises(DesignerError, match="950a"):
        analyze(track)
    with pytest.raises(DesignerError, match="950a"):
        fastest_line(track)


def test_no_start_or_finish():
    G = make_road(5, finish=None)
    with pytest.raises(DesignerError, match="finish"):
        fastest_line(G)


# -- the rulebook's stages (when their cells are encoded) ------------------------------------------------

def real_track(path):
    track = load_track(load_stage(ROOT / path))
    missing = sorted({t.tile for t in track.missing_cells()})
    if missing:
        pytest.skip(f"cell graphs not encoded yet for {', '.join(missing)}")
    return track


@pytest.mark.parametrize("path", STAGES)
def test_rulebook_stage_lines(path):
    track = real_track(path)
    line = fastest_line(track)
    assert line is not None
    check_line(track.graph, line)
    short = shortest_line(track)
    assert short.length <= line.length
    rng = random.Random(path)
    for _ in range(3):
        total = random_play(track.graph, rng)
        assert total is None or total >= line.seconds


def test_analyze_json():
    track = real_track(STAGES[0])
    data = analyze(track, players=3, max_risk=0.1)
    text = json.dumps(data)
    back = json.loads(text)
    cells = {c["id"]: c for c in back["graph"]["cells"]}
    links = {(link["from"], link["to"]) for link in back["graph"]["links"]}
    assert back["players"] == 3 and back["estimate"]["players"] == 3
    # every move of the line can be checked from the JSON alone
    prev = back["fastest_line"]["start"]
    for turn in back["fastest_line"]["turn_list"]:
        for step in turn["steps"]:
            first = step["cells"][0]
            assert (prev, first) in links
            lim = cells[first]["cut"] if cells[first]["cut"] is not None else cells[first]["limit"]
            assert lim is None or step["gear"] <= lim or "finish" in step.get("events", [])
            prev = step["cells"][-1]
        assert turn["seconds"] == back["rules"]["time_card"][str(turn["gear"])]
    assert back["safe_line"]["max_turn_loss_of_control_chance"] <= 0.1
    assert back["fastest_line"]["seconds"] <= back["safe_line"]["seconds"]
    assert set(back["speed_limits"]) == set(cells)
    with pytest.raises(DesignerError):
        analyze(track, max_risk=2)


GOLDEN = Path(__file__).parent / "data" / "dirt_lines_golden.json"


def _turns(line):
    return None if line is None else [[t.start, t.start_gear, [[list(s.dice), list(s.cells), s.gear] for s in t.steps]]
                                      for t in line.turns]


def test_lines_are_those_of_the_reference_on_every_bundled_stage():
    """The fastest line (dice by dice), the safe line, the shortest line and the speed limits of every bundled
    stage, as the turn engine gave them before its points were reduced (written by that engine)."""
    golden = json.loads(GOLDEN.read_text())
    root = Path(__file__).resolve().parent.parent / "stages"
    assert len(golden) >= 20
    for name, want in golden.items():
        track = load_track(load_stage(root / name))
        assert _turns(fastest_line(track)) == want["fastest"], name
        assert _turns(fastest_line(track, max_risk=0.1)) == want["safe"], name
        assert shortest_line(track).cells == want["shortest"], name
        assert speed_limits(track) == want["speed_limits"], name


@pytest.mark.parametrize("name", ["rally-3/ss2.yaml", "rally-1/ss1.yaml", "demo/215b-cut-middle-cut.yaml"])
def test_reduced_points_reach_what_the_full_points_reach(name):
    """Without a risk budget the engine merges points of a turn whose dice can do the same; a budget of 1 keeps
    every point apart and allows every turn: both must give every state the same turn ends."""
    from designer.systems.dirt.driving.rules import engine_for

    track = load_track(load_stage(Path(__file__).resolve().parent.parent / "stages" / "dirt" / name))
    free = engine_for(track.graph, surface="gravel")
    full = engine_for(track.graph, surface="gravel", max_risk=1.0)
    states = [(c, g) for c in range(len(free.road.nodes)) for g in range(0, 7)
              if not free.road.finish[c] and (g > 0 or free.road.start[c])]
    for c, g in states:
        assert sorted(free.ends(c, g)) == sorted(full.ends(c, g)), (free.road.nodes[c], g)
