"""Route searches and plans: the demo races, and properties over random boards."""
from __future__ import annotations

from dataclasses import replace

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.core import paths
from designer.systems.greatrace.driving.analysis import direction, pareto
from designer.systems.greatrace.files.board import board_from_data, hex_of, label
from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.files.race import race_from_data
from designer.systems.greatrace.driving.routes import count_actions, expected_actions
from designer.systems.greatrace.system import SYSTEM


def _demo(n):
    race = SYSTEM.load(paths.STAGES / "greatrace" / f"demo-race-{n}.yaml")
    return race, SYSTEM.box_of(race)


def test_demo_race_3_fastest_avoids_the_city_stop():
    race, board = _demo(3)
    d = direction(board, race)
    assert d["fastest"]["actions"] < d["shortest"]["actions"]
    assert "Mesa Verde" not in d["fastest"]["path"][1:-1]
    assert d["shortest"]["spaces"] <= d["fastest"]["spaces"]


def test_demo_race_1_offers_a_trade_off_between_actions_and_francs():
    race, board = _demo(1)
    d = direction(board, race)
    front = d["pareto"]
    assert len(front) >= 2
    assert [p["actions"] for p in front] == sorted(p["actions"] for p in front)
    assert [p["francs"] for p in front] == sorted((p["francs"] for p in front), reverse=True)


def test_transport_can_be_switched_off():
    race, board = _demo(1)
    d = direction(board, race, transport=False)
    for name in ("shortest", "fastest", "cheapest"):
        assert all(leg["via"] == "land" for leg in d[name]["legs"])


def test_laid_tiles_cost_their_real_value_and_leave_the_bag():
    race, board = _demo(2)
    cm = CostMap(board, race)
    from designer.systems.greatrace.files.board import parse_label

    m = cm.spaces[parse_label("M1")]
    assert m.kind == "tile" and m.terrain == "river" and m.p_stop == 1.0
    plains_laid = sum(1 for t in race.laid.values() if t == "plain")
    assert cm.bag["plain"][1] == board.tile("plain").count - plains_laid


# -- properties over random boards -----------------------------------------------------------

@st.composite
def boards(draw):
    cols = draw(st.integers(4, 7))
    rows = draw(st.integers(2, 4))
    hexes = [label(hex_of(c, r)) for c in range(cols) for r in range(rows)]
    west, east = label(hex_of(0, 0)), label(hex_of(cols - 1, rows - 1))
    inner = [h for h in hexes if h not in (west, east)]
    risk = draw(st.lists(st.sampled_from(inner), unique=True, max_size=len(inner) // 2))
    off = draw(st.lists(st.sampled_from(inner), unique=True, max_size=len(inner) // 4))
    mid = draw(st.sampled_from(inner))
    kinds = [("plain", 1, 0, False, False), ("forest", 1, 1, False, False), ("hills", 2, 0, False, False),
             ("peak", 2, 1, True, False), ("river", 1, 0, False, True)]
    bag = [{"terrain": t, "count": draw(st.integers(1, 8)), "fuel": f, "mech": m, "danger": d, "stop": s}
           for t, f, m, d, s in kinds]
    data = {"board": "random", "columns": cols, "rows": rows, "risk": risk, "off": [h for h in off if h != mid],
            "cities": [{"name": "West", "at": west, "purple": True}, {"name": "East", "at": east, "purple": True},
                       {"name": "Mid", "at": mid, "cards": 1}],
            "transport": draw(st.sampled_from([[], [{"from": "West", "to": "Mid", "mode": "sea", "fare": 30}]])),
            "bag": bag}
    board = board_from_data(data, {}, "random")
    free = [h for h in inner if h not in off and h != mid]
    laid = draw(st.dictionaries(st.sampled_from(free), st.sampled_from([k[0] for k in kinds]), max_size=4)) \
        if free else {}
    race = race_from_data({"race": "r", "board": "random", "start": "West", "finish": "East",
                           "dashboard": {"engine": draw(st.integers(1, 5)), "fuel": draw(st.integers(0, 10))},
                           "money": draw(st.integers(0, 200)), "cards": {"transport": draw(st.integers(0, 1))},
                           "laid": laid}, {}, "random")
    return board, race


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_route_invariants(pair):
    board, race = pair
    d = direction(board, race, candidates=6)
    if not d["reachable"]:
        return
    short, fast, cheap = d["shortest"], d["fastest"], d["cheapest"]
    assert cheap["francs"] <= short["francs"]
    assert cheap["francs"] <= fast["francs"]
    assert fast["actions"] <= short["actions"]
    assert short["spaces"] <= fast["spaces"] and short["spaces"] <= cheap["spaces"]
    cm = d["_cm"]
    plans = d["_plans"]
    for p in plans.values():
        assert p.expected_actions >= p.actions - 1e-9
        assert p.worst_fuel >= p.fuel - 1e-9 and p.worst_mech >= p.mech - 1e-9
        assert p.route.hexes()[0] == cm.hex_of_city("West") and p.route.hexes()[-1] == cm.hex_of_city("East")
    front = pareto(list(plans.values()))
    def figures(p):
        return (p.actions, p.francs, p.fuel_burnt, p.mech_lost)

    for a in front:
        assert not any(b is not a and all(x <= y for x, y in zip(figures(b), figures(a)))
                       and figures(b) != figures(a) for b in plans.values())


@settings(max_examples=15, deadline=None)
@given(boards())
def test_expected_actions_without_stop_tiles_equal_the_count(pair):
    board, race = pair
    board.bag = [replace(k, stop=False) for k in board.bag]
    d = direction(board, race, candidates=2)
    if d["reachable"]:
        p = d["_plans"]["fastest"]
        # with no STOP in the bag, the expected actions are the planned ones (fuel gauge and repairs included)
        assert abs(p.expected_actions - p.actions) < 1e-9


def test_transport_alternatives_point_towards_the_finish():
    race, board = _demo(1)
    d = direction(board, race)
    legs = d["cheapest"]["legs"] + d["fastest"]["legs"]
    offered = {(leg["start"], a["to"]) for leg in legs for a in leg["alternatives"]}
    assert ("Saltmarsh", "Porto Azul") not in offered         # back towards the start
    assert ("Saltmarsh", "Dry Springs") in offered or ("Porto Azul", "Saltmarsh") in offered
    first = d["fastest"]["legs"][0]
    assert first["start"] == "Porto Azul"
    assert {a["to"] for a in first["alternatives"]} == {"Saltmarsh"}
    assert first["alternatives"][0]["fare"] == 40


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(boards())
def test_fastest_and_shortest_are_exact_against_every_simple_path(pair):
    import networkx as nx

    from designer.systems.greatrace.driving.routes import Route, Step, fastest_route, route_graph, shortest_route

    board, race = pair
    cm = CostMap(board, race)
    a, b = cm.hex_of_city("West"), cm.hex_of_city("East")
    g = route_graph(cm)
    limit = race.engine
    best_actions = best_spaces = None
    for path in nx.all_simple_paths(g, a, b, cutoff=12):
        route = Route(path[0], [Step(y, g.edges[x, y]["via"], g.edges[x, y]["fare"]) for x, y in zip(path, path[1:])])
        n = count_actions(cm, route, limit)
        best_actions = n if best_actions is None else min(best_actions, n)
        best_spaces = route.spaces if best_spaces is None else min(best_spaces, route.spaces)
    fast, short = fastest_route(cm, a, b, limit), shortest_route(cm, a, b)
    if best_actions is None:
        assert short is None or short.spaces > 12
        return
    assert short.spaces == best_spaces
    if fast.spaces <= 12:
        assert count_actions(cm, fast, limit) == best_actions
    else:
        assert count_actions(cm, fast, limit) <= best_actions


def test_on_a_fully_laid_route_the_monte_carlo_matches_the_plan():
    from designer.systems.greatrace.driving.montecarlo import simulate

    data = {"board": "laid", "columns": 7, "rows": 1,
            "cities": [{"name": "West", "at": "A1", "purple": True}, {"name": "East", "at": "G1", "purple": True}],
            "risk": ["C1", "D1"],
            "bag": [{"terrain": "plain", "count": 4, "fuel": 1, "mech": 0},
                    {"terrain": "forest", "count": 4, "fuel": 1, "mech": 1},
                    {"terrain": "river", "count": 2, "fuel": 1, "mech": 0, "stop": True}]}
    board = board_from_data(data, {}, "laid")
    race = race_from_data({"race": "r", "board": "laid", "start": "West", "finish": "East", "money": 500,
                           "laid": {"B1": "plain", "C1": "forest", "D1": "river", "E1": "forest", "F1": "plain"}},
                          {}, "laid")
    d = direction(board, race, candidates=2)
    plan = d["_plans"]["fastest"]
    mc = simulate(d["_cm"], plan.route, runs=50)
    assert mc["fuel"]["p10"] == mc["fuel"]["max"] == plan.fuel == 1 + 2 + 2 + 1 + 1 + 1   # risk on C1, D1; city 1
    assert mc["mech"]["max"] == plan.mech == 2
    assert mc["actions"]["max"] == plan.actions == 2                                         # STOP on D1
    assert mc["stranded_chance"] == 0 and mc["failed_chance"] == 0


def test_city_names_leave_tile_text_readable_and_an_unused_median_says_so():
    import re

    from designer.core import paths
    from designer.systems.greatrace.system import SYSTEM

    race = SYSTEM.load(paths.STAGES / "greatrace" / "demo-race-2.yaml")
    board = SYSTEM.box_of(race)
    svg = SYSTEM.draw(race, board)
    assert "(median slot)" not in svg
    unused = [c for c in board.cities.values() if c.median and c.name != race.median]
    if unused:
        assert "median slot, not used in this race" in svg
    cities = set(board.cities)
    names = [(float(x), float(y), t) for x, y, t in
             re.findall(r'<text x="([\d.]+)" y="([\d.]+)" font-size="9.0" font-weight="bold" text-anchor="middle" '
                        r'fill="black">([^<]+)</text>', svg) if t in cities]
    assert len(names) == len(cities)
    tiles = [(float(x), float(y)) for x, y in
             re.findall(r'<text x="([\d.]+)" y="([\d.]+)" font-size="7" text-anchor="middle" fill="(?:black|white)">'
                        r'\d+f \d+m</text>', svg)]
    assert tiles
    for x, y, t in names:
        half = len(t) * 9 * 0.62 / 2
        for tx, ty in tiles:
            covers = abs(tx - x) < half + 10 and -9 < ty - y < 9 + 7
            assert not covers, (t, tx, ty)


def _small(data: dict, race: dict, **gauges):
    """A board from ``data`` under the bundled ruleset with other gauge maxima (``fuel=2``), and a race on it."""
    from designer.systems.greatrace.files.rules import Parameter, load_ruleset

    rules = load_ruleset()
    if gauges:
        old = rules.params["gauge_max"]
        rules.params = {**rules.params, "gauge_max": Parameter("gauge_max", {**old.value, **gauges}, old.status,
                                                               old.source)}
    board = board_from_data({"board": "small", **data}, {}, "small", rules=rules)
    return board, race_from_data({"race": "r", "board": "small", "start": "West", "finish": "East", **race}, {},
                                 "r")


def test_the_shortest_route_is_one_the_car_can_drive():
    """The fewest spaces on the map cross a risk zone of hills (3 fuel) a tank of 2 cannot pay ("Vous ne pouvez
    pas pénétrer sur une TUILE TERRAIN si vous ne disposez pas des ressources nécessaires"): the shortest way
    the car can drive has 4 spaces, not the 6 of the ways the other searches keep."""
    board, race = _small(
        {"columns": 3, "rows": 3, "risk": ["B1"],
         "cities": [{"name": "West", "at": "A1", "purple": True}, {"name": "East", "at": "C1", "purple": True}],
         "bag": [{"terrain": "road", "count": 9, "fuel": 0, "mech": 0},
                 {"terrain": "hills", "count": 9, "fuel": 2, "mech": 0},
                 {"terrain": "swamp", "count": 9, "fuel": 2, "mech": 1, "stop": True}]},
        {"laid": {"B1": "hills", "A2": "road", "B2": "swamp", "C2": "road", "A3": "road", "B3": "road",
                  "C3": "road"}}, fuel=2)
    d = direction(board, race)
    assert d["shortest"]["spaces"] == 4 and d["shortest"]["path"] == ["West", "A2", "B2", "C2", "East"]


def _corridor(stop_tiles: int, roads: int, engine: int, length: int = 6, laid: bool = False):
    cols = "ABCDEFGHIJ"[:length]
    data = {"columns": length, "rows": 1,
            "cities": [{"name": "West", "at": "A1", "purple": True}, {"name": "East", "at": f"{cols[-1]}1",
                                                                      "purple": True}],
            "bag": [{"terrain": "road", "count": roads, "fuel": 0, "mech": 0}]
            + ([{"terrain": "ford", "count": stop_tiles, "fuel": 0, "mech": 0, "stop": True}] if stop_tiles else [])}
    race = {"dashboard": {"engine": engine}}
    if laid:
        race["laid"] = {f"{c}1": "road" for c in cols[1:-1]}
    return _small(data, race)


def test_the_other_direction_is_priced_for_its_cheapest_way():
    """A symmetric corridor of roads: 0 F both ways, driving without the repair the fastest way makes."""
    from designer.systems.greatrace.driving.analysis import analyse

    board, race = _corridor(0, 20, engine=1, laid=True)
    r = analyse(board, race, runs=20)
    fw, bw = r["directions"]["forward"], r["directions"]["reverse"]
    assert r["fastest"]["francs"] > 0 and fw["cheapest_francs"] == bw["cheapest_francs"] == 0


def test_expected_actions_read_the_engine_after_a_repair_and_draw_without_putting_back():
    from designer.systems.greatrace.driving.analysis import analyse

    # engine 1, repaired to 5 at the start, then 4 open spaces of a bag half STOPs: each STOP ends the action
    board, race = _corridor(50, 50, engine=1)
    r = analyse(board, race, runs=400)
    fast = r["fastest"]
    assert fast["repairs"] == 1 and fast["pilot_actions"] == 1
    assert abs(fast["expected_actions"] - 4.0) < 0.02          # 2 + 4 spaces x 1/2 (the city ends the last)
    assert abs(r["montecarlo"]["fastest"]["actions"]["mean"] - 4.0) < 0.15      # the drives agree (sd 1)
    # a bag of one plain and one river over 2 open spaces, engine 2: the river is drawn once, whichever first;
    # drawn first it stops the car where the second action would start anyway: 2 actions, not 2.25
    board, race = _corridor(1, 1, engine=2, length=4)
    r = analyse(board, race, runs=50)
    assert r["fastest"]["expected_actions"] == 2.0
    # after a STOP on the first space the next action goes on to the finish: never a third action
    assert r["montecarlo"]["fastest"]["actions"]["max"] == 2


def test_the_last_seat_starts_with_70_francs_unless_the_race_says():
    board, race = _corridor(0, 20, engine=5, laid=True)
    assert CostMap(board, race).race.money == 80
    last = replace(race, players=4, seat=4)
    assert CostMap(board, last).race.money == 70                # "80 F sauf le dernier joueur ... 70 F"
    assert CostMap(board, replace(last, money=150)).race.money == 150


def test_the_shortest_route_leaves_out_spaces_no_full_car_could_pay_and_spares_a_guide():
    """A wall of risk-zone hills (3 fuel, a tank of 2) across the board but one gap at the far end: the
    hills are never tried, so the shortest way through the gap is found however many routes cross the wall;
    a GUIDE card the plan does not play cancels the only STOP of the bag."""
    from designer.systems.greatrace.driving.analysis import analyse

    cols, rows = 9, 8
    wall = [f"E{r}" for r in range(1, rows + 1)]
    laid = {h: "hills" for h in wall[:-1]}
    laid[wall[-1]] = "road"
    board, race = _small(
        {"columns": cols, "rows": rows, "risk": wall,
         "cities": [{"name": "West", "at": "A1", "purple": True}, {"name": "East", "at": "I1", "purple": True}],
         "bag": [{"terrain": "road", "count": 60, "fuel": 0, "mech": 0},
                 {"terrain": "hills", "count": 9, "fuel": 2, "mech": 0}]},
        {"laid": laid}, fuel=2)
    d = direction(board, race)
    assert "E8" in d["shortest"]["path"] and d["shortest_complete"]
    board, race = _corridor(1, 9, engine=6, length=7)
    race = replace(race, cards={"guide": 1})
    r = analyse(board, race, runs=30)
    assert r["fastest"]["expected_actions"] == 1.0 and r["montecarlo"]["fastest"]["actions"]["max"] == 1


def test_expected_actions_follow_the_tank():
    """A tank of 2 and open spaces whose every tile is a STOP: the STOPs end each action anyway; the expected
    count is the 3 actions every draw gives, not the engine's reach (the Monte Carlo agrees)."""
    from designer.systems.greatrace.driving.analysis import analyse

    board, race = _small(
        {"columns": 4, "rows": 1,
         "cities": [{"name": "West", "at": "A1", "purple": True}, {"name": "East", "at": "D1", "purple": True}],
         "bag": [{"terrain": "river", "count": 4, "fuel": 1, "mech": 0, "stop": True}]},
        {"dashboard": {"engine": 3}}, fuel=2)
    r = analyse(board, race, runs=30)
    assert r["fastest"]["expected_actions"] == 3.0 and r["montecarlo"]["fastest"]["actions"]["mean"] == 3
