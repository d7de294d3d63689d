"""Checks of a board (every city reachable, purple cities, enough tiles) and of a race on it (start and
finish among the purple cities, laid tiles that exist, a car that can move). Problems, never exceptions."""
from __future__ import annotations

import networkx as nx

from designer.core.problems import Problem
from designer.systems.greatrace.files.board import Board, label, neighbours
from designer.systems.greatrace.files.race import Race


def _land(board: Board, median: str | None = None) -> nx.Graph:
    g = nx.Graph()
    for h in board.spaces():
        g.add_node(h)
        for n in neighbours(board, h):
            g.add_edge(h, n)
    return g


def validate_board(board: Board) -> list[Problem]:
    out: list[Problem] = []
    where = board.source or board.name
    purple = board.purple()
    if len(purple) < 2:
        out.append(Problem("too-few-purple", "error", f"the board has {len(purple)} purple city, a race needs two",
                           "mark at least two cities purple: a race starts and ends in purple cities", where))
    if not board.bag or board.bag_size() == 0:
        out.append(Problem("empty-bag", "error", "the bag holds no terrain tile",
                           "add rows to the bag table (terrain, count, fuel, mech)", where))
    elif any(k.count == 0 for k in board.bag):
        empty = [str(k.terrain) for k in board.bag if k.count == 0]
        out.append(Problem("terrain-without-tiles", "warning",
                           f"the bag has no {', '.join(empty)} tile (its count is 0 or not written)",
                           "write how many tiles of each terrain the bag holds, or remove the row", where))
    land = _land(board)
    whole = land.copy()
    for t in board.transports:
        if t.a in board.cities and t.b in board.cities:
            whole.add_edge(board.cities[t.a].at, board.cities[t.b].at)
    cities = [c for c in board.cities.values()]
    if cities:
        home = next((c for c in cities if c.purple), cities[0])
        for c in cities:
            if c.at in whole and home.at in whole and not nx.has_path(whole, home.at, c.at):
                out.append(Problem("city-unreachable", "error", f"{c.name} ({label(c.at)}) cannot be reached from "
                                   f"{home.name}", "open a path of spaces to it or draw a transport line", where))
        for i, a in enumerate(purple):
            for b in purple[i + 1:]:
                pa, pb = board.cities[a].at, board.cities[b].at
                if nx.has_path(whole, pa, pb) and not nx.has_path(land, pa, pb):
                    out.append(Problem("purple-no-land-route", "warning",
                                       f"{a} and {b} are joined only by transport",
                                       "a race between them depends on paying the fare; open a land route", where))
    open_spaces = sum(1 for h in board.spaces() if board.city_at(h) is None)
    if board.bag_size() and board.bag_size() < open_spaces:
        out.append(Problem("bag-smaller-than-map", "info",
                           f"the bag holds {_n(board.bag_size(), 'tile')} for {_n(open_spaces, 'open space')}",
                           "the map never fills up; a race still needs only the tiles of its route", where))
    for h in sorted(board.risk):
        c = board.city_at(h)
        if c is not None:
            out.append(Problem("risk-on-city", "warning", f"{c.name} ({label(h)}) is marked as a risk zone",
                               "entering a city never costs the risk surcharge; unmark it", where))
    if not board.bands:
        out.append(Problem("no-bands", "info", "no progression bands are defined",
                           "add bands (columns or rows) to count the bands a route crosses", where))
    return out


def validate_race(race: Race, board: Board) -> list[Problem]:
    out = list(validate_board(board))
    purple = board.purple()
    for key in ("start", "finish"):
        name = getattr(race, key)
        if name not in board.cities:
            out.append(Problem(f"unknown-{key}", "error", f"the {key} {name!r} is not a city of {board.name}",
                               f"choose among the purple cities: {', '.join(purple)}", race.line(key)))
        elif name not in purple:
            out.append(Problem(f"{key}-not-purple", "error", f"the {key} {name!r} is not a purple city",
                               f"a race starts and ends in purple cities: {', '.join(purple)}", race.line(key)))
    if race.start == race.finish:
        out.append(Problem("same-start-finish", "error", "the start and the finish are the same city",
                           "choose two different purple cities", race.line("finish")))
    slots = board.median_slots()
    if race.median and race.median not in slots:
        out.append(Problem("unknown-median", "error", f"{race.median!r} is not a median-city slot",
                           f"choose one of: {', '.join(slots) or 'none on this board'}", race.line("median")))
    rules = board.rules
    for gauge in ("fuel", "engine", "chassis"):
        v = getattr(race, gauge)
        if v is not None and v > rules.gauge_max(gauge):
            out.append(Problem("gauge-over-max", "error", f"{gauge} {v} is above the gauge's maximum "
                               f"{rules.gauge_max(gauge)}", "lower it, or raise gauge_max in the ruleset",
                               race.line("dashboard", gauge)))
    if race.engine == 0:
        out.append(Problem("engine-at-zero", "warning", "the engine is at 0: the car is broken down",
                           "the analysis repairs it at the start city before the first pilot action",
                           race.line("dashboard", "engine")))
    counts: dict[str, int] = {}
    for h, terrain in race.laid.items():
        w = race.line("laid", label(h))
        kind = board.tile(terrain)
        if kind is None:
            out.append(Problem("unknown-terrain", "error", f"{label(h)}: {terrain!r} is not in the bag",
                               f"terrains of this bag: {', '.join(k.terrain for k in board.bag)}", w))
        counts[terrain] = counts.get(terrain, 0) + 1
        if not board.on_board(h):
            out.append(Problem("laid-off-board", "error", f"{label(h)} is not on the board",
                               "lay tiles only on the board's spaces", w))
        elif board.city_at(h) is not None and board.city_at(h).name != race.median and not board.city_at(h).median:
            out.append(Problem("laid-on-city", "error", f"{label(h)} is the city {board.city_at(h).name}",
                               "a terrain tile is never laid on a city", w))
        elif board.city_at(h) is not None and board.city_at(h).name == race.median:
            out.append(Problem("laid-on-city", "error", f"{label(h)} holds the median city token",
                               "a terrain tile is never laid on a city", w))
    for terrain, n in counts.items():
        kind = board.tile(terrain)
        if kind is not None and n > kind.count:
            out.append(Problem("too-many-laid", "error", f"{_n(n, terrain + ' tile')} {'is' if n == 1 else 'are'} laid, the bag has {kind.count}",
                               "remove some, or raise the count in the bag", race.line("laid")))
    if not any(p.severity == "error" for p in out):
        out += _route_checks(race, board)
    return out


def _route_checks(race: Race, board: Board) -> list[Problem]:
    from designer.systems.greatrace.driving import routes
    from designer.systems.greatrace.driving.costs import CostMap
    from designer.systems.greatrace.driving.search import unpayable

    cm = CostMap(board, race)
    a, b = cm.hex_of_city(race.start), cm.hex_of_city(race.finish)
    route = routes.shortest_route(cm, a, b)
    if route is None:
        return [Problem("no-route", "error", f"no route joins {race.start} and {race.finish}",
                        "open spaces between them or add a transport line", race.line("finish"))]
    out = []
    walls = unpayable(cm)
    g = routes.route_graph(cm)
    g.remove_nodes_from([h for h in walls if h not in (a, b)])
    if not nx.has_path(g, a, b):
        rules = board.rules
        on = [s.to for s in route.steps if s.to in walls] or sorted(walls)
        what = ", ".join(f"{label(h)} ({walls[h].fuel} fuel, {walls[h].mech} mechanic)" for h in on[:4])
        return [Problem("no-payable-route", "error", f"every way from {race.start} to {race.finish} crosses a space "
                        f"no car can pay, tank, engine and chassis full ({rules.gauge_max('fuel')} fuel, "
                        f"{rules.gauge_max('engine') + rules.gauge_max('chassis')} mechanic): {what}",
                        "lay a cheaper tile there, open another way, or raise gauge_max in the ruleset",
                        race.line("laid", label(on[0])) if on[0] in race.laid else race.line("finish"))]
    left = sum(n for _, n in cm.bag.values())
    need = sum(1 for s in route.steps if cm.spaces[s.to].kind == "open")
    if need > left:
        out.append(Problem("bag-too-small", "error", f"the shortest route has {need} open spaces but only "
                           f"{_n(left, 'tile')} {'is' if left == 1 else 'are'} left in the bag", "add tiles to the bag", race.line("board")))
    return out


def _n(n, word: str) -> str:
    """``1 tile``, ``2 tiles``."""
    return f"{n} {word if n == 1 else word + 's'}"
