"""The Great Race rulebook's worked examples and mechanics (seed 001, French rules)."""
from __future__ import annotations

import random

import pytest

from designer.systems.greatrace.files.board import board_from_data
from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.driving.montecarlo import run_once
from designer.systems.greatrace.files.race import race_from_data
from designer.systems.greatrace.driving.routes import Route, Step, count_actions
from designer.systems.greatrace.files.rules import Car, Entry, buy_fuel, enter, load_ruleset, repair

RULES = load_ruleset()


def test_every_parameter_has_a_status_and_a_source():
    for p in RULES.params.values():
        assert p.status in ("rulebook", "reference", "assumed", "decided")
        assert p.source.strip(), p.name
    assert {p.name for p in RULES.not_rulebook()} >= {"gauge_max"}


def test_the_one_two_one_fuel_example():
    # "le joueur dépense 1+2+1 essence soit un total de 4 niveaux d'essence et 1 mécanique qu'il choisit de perdre
    # dans sa jauge châssis"
    car = Car(fuel=6, engine=4, chassis=3)
    paid_fuel = paid_mech = 0
    for tile in (Entry(fuel=1), Entry(fuel=2, mech=1), Entry(fuel=1)):
        out = enter(car, tile, RULES)
        assert out.entered and not out.ends_action
        car, paid_fuel, paid_mech = out.car, paid_fuel + out.fuel_paid, paid_mech + out.mech_paid
    assert (paid_fuel, paid_mech) == (4, 1)
    assert (car.fuel, car.engine, car.chassis) == (2, 4, 2)


def test_the_funding_scale():
    assert [RULES.funding(n) for n in range(6)] == [0, 10, 20, 40, 70, 110]


def test_fuel_and_repair_prices_in_and_out_of_cities():
    car = Car(fuel=2, engine=2, chassis=2, money=100)
    city, spent = buy_fuel(car, 3, True, RULES)
    assert (city.fuel, spent) == (5, 30)
    road, spent = buy_fuel(car, 3, False, RULES)
    assert (road.fuel, spent) == (5, 60)
    fixed, spent = repair(car, 1, 1, True, RULES)
    assert (fixed.engine, fixed.chassis, spent) == (3, 3, 40)
    fixed, spent = repair(car, 1, 1, False, RULES)
    assert spent == 80
    poor, spent = buy_fuel(Car(fuel=0, engine=1, chassis=1, money=25), 5, False, RULES)
    assert (poor.fuel, spent) == (1, 20)
    assert RULES.fare(60, 1) == 10 and RULES.fare(60, 2) == 0 and RULES.fare(120, 2) == 20


def test_entering_a_city_costs_one_fuel_draws_its_cards_and_ends_the_action():
    out = enter(Car(fuel=3, engine=3, chassis=3), Entry(city=True, cards=2, risk=True), RULES)
    assert out.entered and out.ends_action and out.reason == "city"
    assert out.fuel_paid == 1          # a risk zone does not raise the price of a city
    assert out.cards_drawn == 2


def test_a_tile_in_a_risk_zone_costs_one_more_fuel():
    plain = Entry(fuel=1)
    assert enter(Car(5, 3, 3), plain, RULES).fuel_paid == 1
    assert enter(Car(5, 3, 3), Entry(fuel=1, risk=True), RULES).fuel_paid == 2


def test_danger_costs_two_mechanic_unless_escorted_and_stop_ends_the_action():
    out = enter(Car(5, 3, 3), Entry(fuel=1, mech=1, danger=True), RULES)
    assert out.mech_paid == 3 and not out.ends_action
    out = enter(Car(5, 3, 3, escorts=1), Entry(fuel=1, mech=1, danger=True), RULES)
    assert out.mech_paid == 1 and out.escorted and out.car.escorts == 0
    out = enter(Car(5, 3, 3), Entry(fuel=1, stop=True), RULES)
    assert out.entered and out.ends_action and out.reason == "STOP"
    out = enter(Car(5, 3, 3, guides=1), Entry(fuel=1, stop=True), RULES)
    assert not out.ends_action and out.car.guides == 0


def test_a_tile_that_cannot_be_paid_is_not_entered():
    out = enter(Car(fuel=1, engine=3, chassis=3), Entry(fuel=2), RULES)
    assert not out.entered and out.ends_action and out.car.fuel == 1


def test_engine_at_zero_breaks_the_car_down_at_once():
    out = enter(Car(fuel=5, engine=1, chassis=0), Entry(fuel=1, mech=1), RULES)
    assert out.entered and out.broke_down and out.ends_action
    assert out.car.engine == 0 and out.car.broken_down


def test_damage_goes_to_the_chassis_first():
    out = enter(Car(fuel=5, engine=4, chassis=3), Entry(fuel=1, mech=3), RULES)
    # chassis down to the floor (1), then the engine
    assert (out.car.chassis, out.car.engine) == (1, 3)


# -- the same rules inside a whole drive -------------------------------------------------------

def _line_board(bag, cols=6):
    data = {"board": "line", "columns": cols, "rows": 1,
            "cities": [{"name": "West", "at": "A1", "purple": True},
                       {"name": "East", "at": f"{chr(64 + cols)}1", "purple": True}],
            "bag": bag}
    return board_from_data(data, {}, "test")


def _race(**kw):
    data = {"race": "t", "board": "line", "start": "West", "finish": "East"}
    data.update(kw)
    return race_from_data(data, {}, "test")


def _straight(cm, cols):
    # On one row, odd columns sit half a hex lower: A1-B1-C1... are still neighbours in a line.
    hexes = [h for h in sorted(cm.spaces)]
    return Route(hexes[0], [Step(h) for h in hexes[1:cols]])


def test_the_engine_read_at_the_start_of_an_action_limits_the_whole_move():
    # FAQ: a gauge falling during a move does not shorten it. Three forest tiles (1 mechanic each), engine 3,
    # chassis 1: the engine falls to 1 on the way, yet the first action covers the three tiles.
    board = _line_board([{"terrain": "forest", "count": 5, "fuel": 1, "mech": 1}], cols=5)
    race = _race(dashboard={"fuel": 10, "engine": 3, "chassis": 1}, money=0,
                 laid={"B1": "forest", "C1": "forest", "D1": "forest"})
    cm = CostMap(board, race)
    route = _straight(cm, 5)
    out = run_once(cm, route, random.Random(1))
    assert out["failed"] is None and not out["stranded"]
    assert out["actions"] == 2          # three tiles, then the city in a second action
    assert out["mech"] == 3


def test_a_blind_move_that_cannot_be_paid_goes_back_and_ends_the_action():
    # Four open spaces; the bag holds 2 dunes (3 fuel) and 6 tracks (0 fuel). The plan counts each space at the
    # bag's expectation rounded up (0.75 -> 1 fuel): 4 + 1 for the city = 5, the tank, one action, nothing to
    # buy. When both dunes are drawn the second cannot be paid (2 fuel left): the car goes back, the action
    # ends, the tile stays (FAQ); the next action buys what is missing on the spot (20 F a level), with a
    # funding action since the purse is empty: the car was stranded there.
    from designer.systems.greatrace.driving.plan import plan_route

    board = _line_board([{"terrain": "dune", "count": 2, "fuel": 3, "mech": 0},
                         {"terrain": "track", "count": 6, "fuel": 0, "mech": 0}], cols=6)
    race = _race(dashboard={"fuel": 5, "engine": 5, "chassis": 3}, money=0)
    cm = CostMap(board, race)
    plan = plan_route(cm, _straight(cm, 6))
    assert (plan.actions, plan.francs, plan.fuel_burnt) == (1, 0, 5)
    runs = [run_once(cm, plan, random.Random(seed)) for seed in range(60)]
    blind = [r for r in runs if r["blind_failures"]]
    assert 0 < len(blind) < len(runs)              # both dunes drawn: 15 of 70 draws of four
    for r in blind:
        assert r["failed"] is None and r["blind_failures"] == 1
        assert r["tiles_drawn"] == 4                # the tile that could not be paid stayed on the board
        assert r["fuel"] == 2 * 3 + 1               # two dunes, two tracks and the city
        assert r["actions"] == 2 and r["stranded"] and r["funding_actions"] == 1
        assert r["francs"] > 0 and r["francs"] % 20 == 0
    for r in runs:
        if not r["blind_failures"]:
            assert (r["actions"], r["francs"], r["stranded"]) == (1, 0, False)


def test_count_actions_breaks_at_cities_and_laid_stop_tiles():
    board = _line_board([{"terrain": "plain", "count": 9, "fuel": 1, "mech": 0},
                         {"terrain": "river", "count": 2, "fuel": 1, "mech": 0, "stop": True}], cols=6)
    cm = CostMap(board, _race(laid={"C1": "river"}))
    route = _straight(cm, 6)
    assert count_actions(cm, route, 5) == 2     # B1, C1 (STOP) | D1, E1, East
    assert count_actions(cm, route, 2) == 3     # B1, C1 (STOP) | D1, E1 | East
    cm = CostMap(board, _race())
    assert count_actions(cm, route, 5) == 1


def test_a_car_with_a_worn_engine_moves_fewer_spaces_and_engine_zero_is_refused():
    from designer.core.errors import SchemaError
    from designer.systems.greatrace.driving.analysis import direction

    board = _line_board([{"terrain": "plain", "count": 9, "fuel": 1, "mech": 0}], cols=6)
    d = direction(board, _race(dashboard={"engine": 2}), candidates=4)
    # 5 spaces with an engine of 2: 3 pilot actions, or a repair in West (3 levels, 60 F) and one pilot action
    fast = d["fastest"]
    assert fast["engine_limit"] == 2 and fast["actions_without_repairs"] == 3
    assert (fast["actions"], fast["pilot_actions"], fast["repairs"]) == (2, 1, 1)
    assert fast["legs"][0]["repair_city"] == 3 and fast["francs"] == 3 * RULES.repair_price(True)
    # a broken-down car (engine 0) is not analysed as if it had a full engine: the file is refused
    with pytest.raises(SchemaError, match="broken-down"):
        _race(dashboard={"engine": 0})


def test_validation_counts_of_one_are_singular():
    from designer.systems.greatrace.driving.validate import _n

    assert _n(1, "tile") == "1 tile" and _n(3, "tile") == "3 tiles" and _n(0, "open space") == "0 open spaces"
