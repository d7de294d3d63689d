"""The route search against a brute-force solver written from the rulebook (shared/seeds/001_*.txt).

The solver below shares nothing with :mod:`designer.systems.greatrace.driving.search`: it enumerates every legal
sequence of actions on a tiny board with every tile laid, buying fuel explicitly (any amount at the start of
each action, 10 F a level in a city and 20 F elsewhere, up to the gauge), every pilot move up to the engine
read at the action's start (entering a city: 1 fuel and the action ends; a tile: its fuel, +1 in a risk zone,
its mechanic split in every way between engine and chassis; DANGER: 2 mechanic, or an ESCORTE card, or an
ESCORTE assistant; STOP: the action ends unless a GUIDE card is spent; the engine at 0: the move ends; a tile
that cannot be paid cannot be entered; the hand never above the chassis, the cards kept chosen freely, at the
start too), transport crossings (the fare less 50 F per TRANSPORT card, 1 fuel to land) and repairs (parts at
20 F a level in a city, 40 F elsewhere). It then compares the fewest actions, the cheapest of the fastest and
the trade-off set with the product's.
"""
from __future__ import annotations

import dataclasses

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.core import hexgrid
from designer.systems.greatrace.driving import search
from designer.systems.greatrace.files.board import board_from_data, label, parse_label
from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.files.race import race_from_data
from designer.systems.greatrace.files.rules import Parameter, load_ruleset

BASE_RULES = load_ruleset()


def _rules(fuel: int, engine: int, chassis: int):
    params = dict(BASE_RULES.params)
    params["gauge_max"] = Parameter("gauge_max", {"fuel": fuel, "engine": engine, "chassis": chassis}, "decided", "test")
    return dataclasses.replace(BASE_RULES, params=params)


KINDS = {"plain": (1, 0, False, False), "hills": (2, 0, False, False), "forest": (1, 1, False, False),
         "river": (1, 0, False, True), "mountain": (2, 1, True, False), "dune": (3, 2, False, False),
         "track": (0, 0, False, False)}


def _board(cols: int, rows: int, laid_kinds: list[str], risk: list[bool], middle: bool, line_fare, gauges):
    cities = [{"name": "West", "at": "A1", "purple": True},
              {"name": "East", "at": f"{chr(64 + cols)}{rows}", "purple": True}]
    if middle and cols >= 3:
        cities.append({"name": "Mid", "at": f"{chr(64 + (cols + 1) // 2)}1", "cards": 1})
    city_at = {c["at"] for c in cities}
    spaces = [f"{chr(65 + c)}{r + 1}" for c in range(cols) for r in range(rows)]
    free = [s for s in spaces if s not in city_at]
    laid = {s: laid_kinds[i % len(laid_kinds)] for i, s in enumerate(free)}
    data = {"board": "tiny", "columns": cols, "rows": rows, "cities": cities,
            "risk": [s for i, s in enumerate(free) if risk[i % len(risk)]],
            "bag": [{"terrain": k, "count": 20, "fuel": f, "mech": m, "danger": d, "stop": s}
                    for k, (f, m, d, s) in KINDS.items()]}
    if line_fare is not None:
        data["transport"] = [{"from": "West", "to": "East", "mode": "sea", "fare": line_fare}]
    board = board_from_data(data, {}, "tiny", rules=_rules(*gauges))
    return board, laid


# -- the brute-force solver ---------------------------------------------------------------------------

class Brute:
    def __init__(self, board, race):
        self.rules = board.rules
        self.cities = {c.at: c.name for c in board.cities.values()}
        self.laid = {parse_label(k) if isinstance(k, str) else k: v for k, v in race.laid.items()}
        self.risk = board.risk
        self.board = board
        self.lines = [(board.cities[t.a].at, board.cities[t.b].at, t.fare) for t in board.transports]
        self.lines += [(b, a, f) for a, b, f in self.lines]
        r = self.rules
        self.fmax, self.emax, self.cmax = (r["gauge_max"][k] for k in ("fuel", "engine", "chassis"))

    def near(self, h):
        return [n for n in hexgrid.neighbours(h) if self.board.on_board(n)]

    def enter(self, h):
        """(fuel, mech, danger, stop, city) of entering h, straight from the rules' numbers."""
        r = self.rules
        if h in self.cities:
            return r["city_entry_fuel"], 0, False, False, True
        f, m, d, s = KINDS[self.laid[h]]
        return f + (r["risk_zone_extra_fuel"] if h in self.risk else 0), m, d, s, False

    @staticmethod
    def hands(hand, limit):
        if sum(hand) <= limit:
            return [hand]
        return [(a, b, limit - a - b) for a in range(hand[0] + 1) for b in range(hand[1] + 1)
                if 0 <= limit - a - b <= hand[2]]

    def pilot(self, pos, tank, e, c, hand, finish):
        """Every way one pilot action can end: (pos, tank, e, c, hand, fuel burnt, mech lost, escort assistants)."""
        out = []

        def walk(pos, tank, e, c, hand, left, fuel, mech, esc, moved):
            if moved:
                out.append((pos, tank, e, c, hand, fuel, mech, esc))
            if left == 0 or (moved and pos == finish):
                return
            for n in self.near(pos):
                f, m, danger, stop, city = self.enter(n)
                if f > tank:
                    continue
                options = [(m, hand, 0)]
                if danger:
                    options = [(m + self.rules["danger_mechanic"], hand, 0), (m, hand, 1)]
                    if hand[1]:
                        options.append((m, (hand[0], hand[1] - 1, hand[2]), 0))
                for mm, h1, assistant in options:
                    if mm > e + c:
                        continue
                    for guide in ([False, True] if stop and h1[2] else [False]):
                        h2 = (h1[0], h1[1], h1[2] - 1) if guide else h1
                        for x in range(0, mm + 1):
                            e2, c2 = e - x, c - (mm - x)
                            if e2 < 0 or c2 < 0:
                                continue
                            for h3 in self.hands(h2, c2):
                                ends = city or (stop and not guide) or e2 == 0
                                if ends:
                                    out.append((n, tank - f, e2, c2, h3, fuel + f, mech + mm, esc + assistant))
                                else:
                                    walk(n, tank - f, e2, c2, h3, left - 1, fuel + f, mech + mm, esc + assistant, True)

        walk(pos, tank, e, c, hand, e, 0, 0, 0, False)
        return out

    def solve(self, start, finish, tank, e, c, hand, depth):
        """Every (actions, francs, fuel, mech) that reaches the finish in at most ``depth`` actions; a hand above
        the chassis is first discarded down to it, keeping any cards the player likes (the bivouac; FAQ)."""
        r = self.rules
        layers = {n: set() for n in range(depth + 1)}
        for kept in self.hands(hand, c):
            layers[0].add((start, tank, e, c, kept, 0, 0, 0))
        results = set()

        def reach(n, row):
            if row[0] == finish:
                results.add((n, row[5], row[6], row[7]))
            elif n < depth:
                layers[n].add(row)

        for done in range(depth):
            for pos, tank, e, c, hand, francs, fuel, mech in layers[done]:
                city = pos in self.cities
                price = r["fuel_price"]["city" if city else "elsewhere"]
                for buy in range(0, self.fmax - tank + 1):
                    t, fr = tank + buy, francs + buy * price
                    if e >= 1:
                        for n, t2, e2, c2, h2, f2, m2, esc in self.pilot(pos, t, e, c, hand, finish):
                            reach(done + 1 + esc, (n, t2, e2, c2, h2, fr, fuel + f2, mech + m2))
                        if city:
                            for a, b, fare in self.lines:
                                if a != pos or t < r["city_entry_fuel"]:
                                    continue
                                for used in range(hand[0] + 1):
                                    cost = max(0, fare - r["transport_card_discount"] * used)
                                    reach(done + 1, (b, t - r["city_entry_fuel"], e, c, (hand[0] - used,) + hand[1:],
                                                     fr + cost, fuel + r["city_entry_fuel"], mech))
                    rp = r["repair_price"]["city" if city else "elsewhere"]
                    for ke in range(self.emax - e + 1):
                        for kc in range(self.cmax - c + 1):
                            if ke or kc:
                                reach(done + 1, (pos, t, e + ke, c + kc, hand, fr + (ke + kc) * rp, fuel, mech))
        return results


def pareto(points):
    pts = sorted(set(points), key=lambda p: (p[0], p[1], p[3], p[2]))
    out = []
    for p in pts:
        if not any(all(a <= b for a, b in zip(q, p)) for q in out):
            out.append(p)
    return out


def _case(cols, rows, kinds, risk, middle, fare, gauges, dash, cards):
    board, laid = _board(cols, rows, kinds, risk, middle, fare, gauges)
    race = race_from_data({"race": "t", "board": "tiny", "start": "West", "finish": "East", "laid": laid,
                           "dashboard": dash, "cards": cards, "money": 0}, {}, "t")
    return board, race


def _compare(board, race):
    """The product's complete trade-off set against the brute force run two actions past its slowest way."""
    cm = CostMap(board, race)
    start, finish = cm.hex_of_city("West"), cm.hex_of_city("East")
    product = search.search(cm, start, finish)
    fmax, emax, cmax = (board.rules["gauge_max"][k] for k in ("fuel", "engine", "chassis"))
    tank = race.fuel if race.fuel is not None else fmax
    e = race.engine if race.engine is not None else emax
    c = race.chassis if race.chassis is not None else cmax
    hand = (race.cards.get("transport", 0), race.cards.get("escort", 0), race.cards.get("guide", 0))
    if not product:
        brute = Brute(board, race).solve(start, finish, tank, e, c, hand, 5)
        assert not brute, brute
        return None
    depth = max(f.actions for f in product) + 2
    # every way of at most ``depth`` actions (an ESCORTE assistant may carry the brute force past it: left out)
    brute = {p for p in Brute(board, race).solve(start, finish, tank, e, c, hand, depth) if p[0] <= depth}
    assert brute, "the brute force finds no way where the search found one"
    best = min(brute, key=lambda p: (p[0], p[1], p[3], p[2]))
    fastest = product[0]
    # fewest actions, then the cheapest among the fastest (then the least mechanic, then fuel)
    assert (fastest.actions, fastest.francs, fastest.mech, fastest.fuel) == (best[0], best[1], best[3], best[2])
    # the whole trade-off set: nothing the brute force finds up to two actions past it is missing or beats it
    assert pareto(brute) == [f.costs() for f in product]
    # the analysis's trade-off table holds the same ways
    from designer.systems.greatrace.driving.analysis import direction

    d = direction(board, race, candidates=2)
    assert d["search_complete"] and d["pareto_slack"] is None
    table = [(row["actions"], row["francs"], row["fuel"], row["mech"]) for row in d["pareto"]]
    assert table == pareto(brute)
    assert (d["fastest"]["actions"], d["fastest"]["francs"]) == (best[0], best[1])
    return product


def test_a_strip_of_laid_hills_where_the_fuel_gauge_sets_the_action_count():
    """By hand: West (A1), five laid hills (B1..F1, 2 fuel each), East (G1); engine 5, a tank of 5, full.
    The engine alone says 2 actions (6 spaces, 5 an action). But fuel is bought only at an action's start:
    action 1 covers B and C (4 fuel, 1 left: D needs 2); action 2 starts on C, buys 3 at 20 F, covers D and
    E (0 left); action 3 buys 3 at 20 F and covers F (2) and enters East (1). 3 actions, 120 F."""
    board, race = _case(7, 1, ["hills"], [False], False, None, (5, 5, 5), {"fuel": 5}, {})
    product = _compare(board, race)
    assert (product[0].actions, product[0].francs, product[0].fuel) == (3, 120, 11)


def test_the_fastest_route_is_the_cheapest_of_the_fastest_with_a_transport_line():
    # A sea line West-East at 240 F against a road of plain tiles that takes as many actions.
    board, race = _case(4, 1, ["plain"], [False], False, 240, (10, 3, 3), {}, {})
    product = _compare(board, race)
    assert product[0].actions == 1 and product[0].francs == 0
    board, race = _case(6, 1, ["plain"], [False], False, 50, (10, 2, 3), {}, {})
    product = _compare(board, race)
    assert product[0].actions == 1 and product[0].francs == 50      # the boat, where the road takes 3


@settings(max_examples=45, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(cols=st.integers(2, 4), rows=st.integers(1, 2),
       kinds=st.lists(st.sampled_from(sorted(KINDS)), min_size=1, max_size=6),
       risk=st.lists(st.booleans(), min_size=1, max_size=4), middle=st.booleans(),
       fare=st.one_of(st.none(), st.sampled_from([0, 30, 60, 120])),
       gauges=st.tuples(st.integers(2, 5), st.integers(1, 3), st.integers(1, 3)),
       fuel=st.integers(0, 5), engine=st.integers(1, 3), chassis=st.integers(0, 3),
       cards=st.tuples(st.integers(0, 1), st.integers(0, 1), st.integers(0, 1)))
def test_the_search_agrees_with_the_brute_force_on_small_boards(cols, rows, kinds, risk, middle, fare, gauges,
                                                              fuel, engine, chassis, cards):
    fmax, emax, cmax = gauges
    dash = {"fuel": min(fuel, fmax), "engine": min(engine, emax), "chassis": min(chassis, cmax)}
    hand = {"transport": cards[0], "escort": cards[1], "guide": cards[2]}     # may be more than the chassis
    board, race = _case(cols, rows, kinds, risk, middle, fare, gauges, dash, hand)
    _compare(board, race)


def test_the_plan_and_the_monte_carlo_drive_the_hill_strip_in_the_same_actions():
    from designer.systems.greatrace.driving import montecarlo
    from designer.systems.greatrace.driving.analysis import direction

    board, race = _case(7, 1, ["hills"], [False], False, None, (5, 5, 5), {"fuel": 5}, {})
    race.money = 500
    d = direction(board, race)
    plan = d["_plans"]["fastest"]
    assert (plan.actions, plan.pilot_actions, plan.francs) == (3, 3, 120)
    assert [(p["actions"], p["francs"]) for p in d["pareto"]] == [(3, 120)]
    mc = montecarlo.simulate(d["_cm"], plan.route, runs=10)
    assert mc["actions"]["mean"] == plan.pilot_actions and mc["francs"]["mean"] == plan.francs


def test_when_the_whole_trade_off_set_is_too_large_the_fewest_actions_are_kept_and_said(monkeypatch):
    from designer.core import paths
    from designer.systems.greatrace.driving import analysis
    from designer.systems.greatrace.system import SYSTEM

    race = SYSTEM.load(paths.STAGES / "greatrace" / "demo-race-1.yaml")
    board = SYSTEM.box_of(race)
    whole = analysis.direction(board, race)
    monkeypatch.setattr(search, "MAX_LABELS", 500)          # the whole set no longer fits its budget
    bounded = analysis.direction(board, race)
    assert whole["pareto_slack"] is None and bounded["pareto_slack"] == 0 and bounded["search_complete"]
    fewest = whole["fastest"]["actions"]
    def costs(rows, only=None):
        return [(r["actions"], r["francs"], r["fuel"], r["mech"]) for r in rows if only is None or r["actions"] == only]

    assert costs(whole["pareto"], fewest) == costs(bounded["pareto"], fewest)
    # candidate routes, driven, stand in past the fewest actions: none beats a way of the whole set
    for b in costs(bounded["pareto"]):
        assert not any(b != w and all(x <= y for x, y in zip(b, w)) for w in costs(whole["pareto"]))
    assert bounded["fastest"]["francs"] == whole["fastest"]["francs"]
    result = analysis.analyse(board, race, runs=20)
    assert any("at most 0 actions more than the fastest" in line for line in result["summary"])
    monkeypatch.undo()
    result = analysis.analyse(board, race, runs=20)
    assert not any("trade-off set holds the ways" in line for line in result["summary"])


def test_a_hand_above_the_chassis_keeps_the_cards_the_route_needs_and_the_monte_carlo_drives_the_plan():
    """The bivouac discards down to the chassis, the player choosing the cards (FAQ): with a chassis of one and
    TRANSPORT and GUIDE in hand, the boat is paid with the TRANSPORT card kept, not after keeping the GUIDE."""
    from designer.systems.greatrace.driving import montecarlo
    from designer.systems.greatrace.driving.analysis import direction

    board, race = _case(3, 1, ["plain"], [False], False, 50, (5, 3, 3), {"fuel": 5, "chassis": 1},
                        {"transport": 1, "guide": 1})
    d = direction(board, race, candidates=2)
    fast = d["_plans"]["fastest"]
    assert (fast.actions, fast.francs) == (1, 0) and fast.start_cards == {"transport": 1, "escort": 0, "guide": 0}
    mc = montecarlo.simulate(d["_cm"], fast, runs=5)
    assert (mc["actions"]["mean"], mc["francs"]["mean"]) == (1, 0)



def test_two_plans_on_one_path_get_their_own_monte_carlo_and_road_book_page():
    """Four hills from an empty tank, engine 1: the fastest way buys fuel on the way (2 actions, 90 F), the
    cheapest buys it in the city and takes an action more (3 actions, 50 F) on the same path. Each gets its own
    Monte Carlo and its own itinerary page."""
    from designer.systems.greatrace.book.roadbook import _same_way
    from designer.systems.greatrace.driving.analysis import analyse

    board, race = _case(4, 1, ["hills"], [False], False, None, (5, 3, 3), {"fuel": 0, "engine": 1}, {})
    race.money = 0
    r = analyse(board, race, runs=5)
    f, c = r["fastest"], r["cheapest"]
    assert f["path"] == c["path"] and (f["actions"], f["francs"], c["actions"], c["francs"]) == (2, 90, 3, 50)
    for name in ("fastest", "cheapest"):
        mc = r["montecarlo"][name]
        assert (mc["pilot_actions"]["mean"], mc["francs"]["mean"]) == (r[name]["pilot_actions"], r[name]["francs"])
    assert not _same_way(f, c) and _same_way(f, dict(f))
