"""Routes between two cities: the shortest (fewest spaces), the fastest (fewest pilot actions) and candidates
for the cheapest (francs), over land spaces and transport lines.

A pilot action moves at most ENGINE spaces (the engine read at the start of the action) and ends on
entering a city or a laid STOP tile; a transport crossing is an action of its own, from city to city. An
open space is searched as if its tile had no STOP (the Monte Carlo and :func:`expected_actions` add the
chance of drawing one).
"""
from __future__ import annotations

import heapq
import itertools
from dataclasses import dataclass, field

import networkx as nx

from designer.systems.greatrace.files.board import neighbours
from designer.systems.greatrace.driving.costs import CostMap

Hex = tuple[int, int]


@dataclass(frozen=True)
class Step:
    to: Hex
    via: str = "land"          # "land", "sea" or "air"
    fare: int = 0              # printed fare of a transport line


@dataclass
class Route:
    start: Hex
    steps: list[Step] = field(default_factory=list)

    def hexes(self) -> list[Hex]:
        return [self.start] + [s.to for s in self.steps]

    @property
    def spaces(self) -> int:
        return len(self.steps)

    def key(self) -> tuple:
        return tuple((s.to, s.via) for s in self.steps)


def land_graph(cm: CostMap) -> nx.DiGraph:
    """Every space with an edge to each neighbour; an edge's ``francs`` is a lower bound of what entering the
    neighbour costs (fuel and mechanic at city prices)."""
    g = nx.DiGraph()
    fuel_p, rep_p = cm.rules.fuel_price(True), cm.rules.repair_price(True)
    for h, sp in cm.spaces.items():
        g.add_node(h)
        for n in neighbours(cm.board, h):
            t = cm.spaces[n]
            if t.fuel == float("inf"):
                continue       # an empty bag: an open space cannot be entered
            g.add_edge(h, n, via="land", fare=0, francs=t.fuel * fuel_p + t.mech * rep_p)
    return g


def route_graph(cm: CostMap, cards: int = 0) -> nx.DiGraph:
    """The land graph plus transport lines (a land edge is kept where both exist: it is always cheaper)."""
    g = land_graph(cm)
    fuel_p = cm.rules.fuel_price(True)
    for a, b, mode, fare in cm.transports():
        if not g.has_edge(a, b):
            g.add_edge(a, b, via=mode, fare=fare,
                       francs=cm.rules.fare(fare, cards) + cm.spaces[b].fuel * fuel_p)
    return g


def route_of(g: nx.DiGraph, path: list[Hex]) -> Route:
    return Route(path[0], [Step(b, g.edges[a, b]["via"], g.edges[a, b]["fare"]) for a, b in zip(path, path[1:])])


def shortest_route(cm: CostMap, start: Hex, finish: Hex, transport: bool = True) -> Route | None:
    """Fewest spaces entered (a transport crossing enters one: the city it lands in)."""
    g = route_graph(cm) if transport else land_graph(cm)
    try:
        path = nx.shortest_path(g, start, finish)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return None
    return route_of(g, path)


def _engine_at(limit, at: int) -> int:
    return max(1, limit[min(at, len(limit) - 1)] if isinstance(limit, (list, tuple)) else limit)


def count_actions(cm: CostMap, route: Route, limit, tank: tuple | None = None) -> int:
    """Pilot actions to drive a route, open spaces taken as no STOP. ``limit``: the spaces per pilot action (the
    engine), one number or one per position of the route (the engine an action starting there reads). ``tank``:
    (the fuel gauge, the fuel each step of the route burns) when the fuel is followed: the tank is filled at each
    action's start ("l'essence s'achète ... au début de la séquence") and an action ends before a space it cannot
    pay."""
    return round(_actions(cm, route, limit, 0, tank, drawing=False))


def expected_actions(cm: CostMap, route: Route, limit, guides: int = 0, tank: tuple | None = None) -> float:
    """Expected pilot actions when every open space may hold a STOP tile: after a STOP the next action goes on
    from there. The tiles come out of the bag one by one and are not put back ("vous piochez une TUILE TERRAIN
    au hasard dans le sac"): the chance of a STOP at an open space follows the STOPs drawn before it. ``limit``,
    ``tank``: as :func:`count_actions`; ``guides``: GUIDE cards to spare, each played on the first STOP drawn
    ("pour ne pas tenir compte du symbole stop")."""
    return _actions(cm, route, limit, guides, tank, drawing=True)


def _actions(cm: CostMap, route: Route, limit, guides: int, tank: tuple | None, drawing: bool) -> float:
    stops = sum(n for k, n in cm.bag.values() if k.stop)
    total = sum(n for _, n in cm.bag.values())
    gauge, burns = tank if tank is not None else (0, None)
    # (moves left in the current action, fuel in the tank, STOPs drawn, guides left) -> chance
    dist = {(0, 0, 0, guides): 1.0}
    expected, drawn = 0.0, 0

    def add(key, p):
        nxt[key] = nxt.get(key, 0.0) + p

    for i, step in enumerate(route.steps):
        nxt: dict = {}
        sp = cm.spaces[step.to]
        burn = burns[i] if burns is not None else 0
        draws = drawing and step.via == "land" and sp.kind == "open" and total > drawn
        for (left, fuel, s, g), p in dist.items():
            if left and burn > fuel:                  # the tank cannot pay this space: the action ends before it
                left = 0
            if left == 0:
                expected += p
                left, fuel = _engine_at(limit, i), gauge
            fuel = max(0, fuel - burn)
            if step.via != "land" or sp.stops:
                add((0, fuel, s, g), p)
                continue
            if not draws:
                add((left - 1, fuel, s, g), p)
                continue
            q = (stops - s) / (total - drawn)
            if q > 0:
                add((left - 1, fuel, s + 1, g - 1) if g else (0, fuel, s + 1, g), p * q)
            if q < 1:
                add((left - 1, fuel, s, g), p * (1 - q))
        drawn += draws
        dist = nxt
    return expected


def fastest_route(cm: CostMap, start: Hex, finish: Hex, limit: int, transport: bool = True) -> Route | None:
    """Fewest pilot actions, then the fewest expected STOPs, then the fewest spaces: Dijkstra over
    (space, steps made in the current action)."""
    if limit <= 0:
        return None
    g = route_graph(cm) if transport else land_graph(cm)
    if start not in g or finish not in g:
        return None
    counter = itertools.count()
    best: dict[tuple[Hex, int], tuple] = {(start, 0): (0, 0.0, 0)}
    back: dict[tuple[Hex, int], tuple] = {}
    heap = [((0, 0.0, 0), next(counter), (start, 0))]
    while heap:
        cost, _, state = heapq.heappop(heap)
        if best.get(state) != cost:
            continue
        h, used = state
        if h == finish:
            path = [state]
            while path[-1] in back:
                path.append(back[path[-1]][0])
            path.reverse()
            steps = [back[s][1] for s in path[1:]]
            return Route(start, steps)
        actions, stops, spaces = cost
        if used == 0:
            actions += 1
        for n in g.successors(h):
            e = g.edges[h, n]
            if e["via"] != "land":
                if used != 0:
                    continue
                nstate, nstops = (n, 0), stops
            else:
                sp = cm.spaces[n]
                u = used + 1
                nstate = (n, 0) if (sp.stops or u >= limit) else (n, u)
                nstops = stops + (sp.p_stop if sp.kind == "open" else 0.0)
            ncost = (actions, round(nstops, 9), spaces + 1)
            if nstate not in best or ncost < best[nstate]:
                best[nstate] = ncost
                back[nstate] = (state, Step(n, e["via"], e["fare"]))
                heapq.heappush(heap, (ncost, next(counter), nstate))
    return None


def candidate_routes(cm: CostMap, start: Hex, finish: Hex, count: int = 24, cards: int = 0,
                     transport: bool = True) -> list[Route]:
    """The ``count`` cheapest loop-free routes by the lower-bound francs of each space (Yen's algorithm)."""
    g = route_graph(cm, cards) if transport else land_graph(cm)
    out = []
    try:
        for path in itertools.islice(nx.shortest_simple_paths(g, start, finish, weight="francs"), count):
            out.append(route_of(g, path))
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        return []
    return out
