"""Routes a player can follow: a label-setting search over what the car holds, action by action.

A state is where the car is and what it holds: fuel in the tank, engine, chassis and the TRANSPORT, ESCORTE
and GUIDE cards in hand, and, inside a pilot action, the spaces it may still move. A label adds what the
way there cost: **actions** (pilot actions, repairs and ESCORTE assistants: the assistants that move or mend
the car), **francs** (fuel bought, fares, parts), **fuel** burnt and **mechanic** levels lost. Labels that
another label at the same place beats on every cost while holding at least as much of everything are
dropped; the rest give the complete trade-off (Pareto) set over (actions, francs, fuel, mechanic), and the
fastest route is the cheapest among those with the fewest actions.

The rules as they price a route (``tilesets/greatrace/greatrace-rules.yaml``):

- fuel is bought only at the start of an action sequence (10 F a level in a city, 20 F elsewhere), up to the
  gauge; the search buys it *lazily*: a level burnt is paid when needed, at the price of the last city the
  car started an action in (while the tank could have held it then), else at the price where the current
  action started (while the tank could hold it at that start). This gives the same prices as every choice of
  purchases made in advance, without trying each;
- a pilot action moves up to the engine read at its start; entering a city costs 1 fuel and ends it; a tile
  costs its fuel (+1 in a risk zone) and mechanic, split freely between engine and chassis; a DANGER costs 2
  more unless an ESCORTE card or an ESCORTE assistant is spent; a STOP ends the action unless a GUIDE card is
  spent; the engine at 0 ends it at once (a breakdown: only a repair moves the car again); a tile that cannot
  be paid cannot be entered; the car may stop anywhere;
- the cards in hand never exceed the chassis: when it falls, cards are discarded (the search tries each choice);
- a transport crossing is a pilot action from city to city: its fare less 50 F per TRANSPORT card used, and
  1 fuel to enter the city it lands in;
- a repair (one mechanic assistant) buys parts at 20 F a level in a city, 40 F elsewhere, for engine and chassis.

An open space (no tile laid yet) is searched at its *planning cost*: the bag's expected fuel and mechanic
(DANGER at its chance) rounded up to whole levels, with no STOP; the Monte Carlo adds the draws.
"""
from __future__ import annotations

import heapq
import itertools
import math
from dataclasses import dataclass, field

from designer.systems.greatrace.files.board import neighbours

Hex = tuple[int, int]
MAX_LABELS = 120_000
"""Labels the search for the whole trade-off set may create before it gives up (a message, not an endless
search; a 12 x 10 board with every space open needs about 90,000: 4.7 CPU seconds)."""
BOUNDED_LABELS = 60_000
"""Labels the search for the ways with the fewest actions only may create (tried when the whole set is too
large)."""


@dataclass(frozen=True)
class Tile:
    """What entering one space asks, in whole levels."""
    fuel: int
    mech: int
    danger: bool = False
    stop: bool = False
    city: bool = False


@dataclass
class Found:
    """One way to the finish: its costs and its actions."""
    actions: int
    francs: int
    fuel: int
    mech: int
    pilots: int = 0
    repairs: int = 0
    escort_assistants: int = 0
    end: tuple = ()                 # the car at the finish: (fuel, engine, chassis, transport, escort, guide)
    hand: tuple = ()                # the cards kept at the start: (transport, escort, guide)
    path: list[Hex] = field(default_factory=list)
    steps: list[tuple] = field(default_factory=list)     # ("land"|"sea"|"air", hex, fare) in order
    schedule: list[dict] = field(default_factory=list)   # one entry per action
    fuel_bought: dict = field(default_factory=dict)      # hex -> (levels, francs) bought there

    def costs(self) -> tuple[int, int, int, int]:
        return (self.actions, self.francs, self.fuel, self.mech)


class SearchTooLarge(Exception):
    pass


def _up(x: float) -> int:
    return int(math.ceil(x - 1e-9))


def tiles_of(cm) -> dict[Hex, Tile]:
    """Each space of a race as the search sees it (laid tiles exactly, open spaces at their planning cost); worked
    out once per cost map (every search and plan of the race reads it)."""
    out = getattr(cm, "_tiles", None)
    if out is not None:
        return out
    rules = cm.rules
    out = cm._tiles = {}
    for h, sp in cm.spaces.items():
        if sp.kind == "city":
            out[h] = Tile(int(rules["city_entry_fuel"]), 0, city=True)
        elif sp.kind == "tile":
            e = sp.entry
            out[h] = Tile(e.fuel + (int(rules["risk_zone_extra_fuel"]) if e.risk else 0), e.mech, e.danger, e.stop)
        elif sp.fuel != float("inf"):
            out[h] = Tile(_up(sp.fuel), _up(sp.mech))
    return out


def unpayable(cm) -> dict[Hex, Tile]:
    """The spaces no car could ever enter, tank, engine and chassis full (more fuel than the tank holds or more
    mechanic than engine and chassis together): « Vous ne pouvez pas pénétrer sur une TUILE TERRAIN si vous ne
    disposez pas des ressources nécessaires à son franchissement »."""
    rules = cm.rules
    fuel, mech = rules.gauge_max("fuel"), rules.gauge_max("engine") + rules.gauge_max("chassis")
    return {h: t for h, t in tiles_of(cm).items() if t.fuel > fuel or t.mech > mech}


def _discards(cards: tuple[int, int, int], limit: int):
    """Every hand left after discarding down to ``limit`` cards."""
    if sum(cards) <= limit:
        yield cards
        return
    seen = set()
    for a in range(cards[0] + 1):
        for b in range(cards[1] + 1):
            g = limit - a - b
            if 0 <= g <= cards[2] and (a, b, g) not in seen:
                seen.add((a, b, g))
                yield (a, b, g)


def start_hands(race, chassis: int) -> list[tuple[int, int, int]]:
    """The TRANSPORT, ESCORTE and GUIDE cards a race may start with: the race's cards, or when they are more than
    the chassis holds, every hand the player may keep ("vous devez défausser", the bivouac; the FAQ: "choisir
    les cartes que vous souhaitez garder"). The search starts from each."""
    hand = (race.cards.get("transport", 0), race.cards.get("escort", 0), race.cards.get("guide", 0))
    return list(_discards(hand, chassis))


class _Labels:
    """Non-dominated labels per place and car: costs no higher and fuel no lower than another's."""

    def __init__(self):
        self.by_key: dict = {}

    def dominated(self, key, cost, res) -> bool:
        a0, a1, a2, a3 = cost
        r0, r1, r2 = res
        for c, r in self.by_key.get(key, ()):
            if c[0] <= a0 and c[1] <= a1 and c[2] <= a2 and c[3] <= a3 and r[0] >= r0 and r[1] >= r1 and r[2] >= r2:
                return True
        return False

    def add(self, key, cost, res) -> None:
        a0, a1, a2, a3 = cost
        r0, r1, r2 = res
        old = self.by_key.get(key)
        if old is None:
            self.by_key[key] = [(cost, res)]
            return
        keep = [(c, r) for c, r in old if not (c[0] >= a0 and c[1] >= a1 and c[2] >= a2 and c[3] >= a3
                                               and r[0] <= r0 and r[1] <= r1 and r[2] <= r2)]
        keep.append((cost, res))
        self.by_key[key] = keep


def _bounds(tiles, land, lines, finish, engine_max):
    """Lower bounds from each space to the finish: actions (a pilot action covers at most ``engine_max``
    spaces or one crossing), fuel and mechanic (the cheapest spaces entered), by Dijkstra backwards."""
    back: dict = {}
    for a, ns in land.items():
        for b in ns:
            back.setdefault(b, []).append((a, 1.0 / engine_max, tiles[b].fuel, tiles[b].mech))
    for a, targets in lines.items():
        for b, _mode, _fare in targets:
            back.setdefault(b, []).append((a, 1.0, tiles[b].fuel, 0))
    out = []
    for k in (1, 2, 3):
        dist = {finish: 0.0}
        heap = [(0.0, finish)]
        while heap:
            d, b = heapq.heappop(heap)
            if d > dist.get(b, float("inf")):
                continue
            for edge in back.get(b, ()):
                nd = d + edge[k]
                if nd < dist.get(edge[0], float("inf")) - 1e-12:
                    dist[edge[0]] = nd
                    heapq.heappush(heap, (nd, edge[0]))
        out.append(dist)
    return out


def search(cm, start: Hex, finish: Hex, *, transport: bool = True, only: list[Hex] | None = None,
           pareto: bool = True, slack: int | None = None, limit: int = MAX_LABELS) -> list[Found]:
    """The ways from ``start`` to ``finish`` that no other beats: the complete Pareto set over (actions,
    francs, fuel, mechanic), fewest actions first (``slack``: only the ways with at most that many actions
    more than the fastest; ``pareto=False``: only the first, the cheapest of the fastest).

    The set is finite: going round a loop costs an action and gives back at most what the gauges hold, so a
    label that comes back to a place and car it has been at is beaten by the first visit. Labels whose lower
    bounds (actions by the engine, fuel and mechanic of the cheapest spaces ahead, the fuel beyond the tank
    bought at the cheaper price) are beaten by a way already found are cut.

    ``only``: a route's hexes in order; the car then follows that route (for pricing a given route).
    """
    rules, race = cm.rules, cm.race
    tiles = tiles_of(cm)
    if start not in tiles or finish not in tiles:
        return []
    gmax = rules.gauge_max("fuel"), rules.gauge_max("engine"), rules.gauge_max("chassis")
    price_city, price_else = rules.fuel_price(True), rules.fuel_price(False)
    cheapest_fuel = min(price_city, price_else)
    rep_city, rep_else = rules.repair_price(True), rules.repair_price(False)
    danger = int(rules["danger_mechanic"])
    discount = int(rules["transport_card_discount"])
    nxt = None
    if only is not None:
        nxt = {}
        for a, b in zip(only, only[1:]):
            nxt.setdefault(a, set()).add(b)
    lines: dict[Hex, list] = {}
    if transport:
        for a, b, mode, fare in cm.transports():
            lines.setdefault(a, []).append((b, mode, fare))
    land = {h: [n for n in neighbours(cm.board, h) if n in tiles] for h in tiles}

    if only is not None:
        land = {h: [n for n in ns if n in nxt.get(h, ())] for h, ns in land.items()}
        lines = {h: [x for x in xs if x[0] in nxt.get(h, ())] for h, xs in lines.items()}
    lb_act, lb_fuel, lb_mech = _bounds(tiles, land, lines, finish, gmax[1])
    if start not in lb_act:
        return []
    t0 = race.fuel if race.fuel is not None else gmax[0]
    e0 = race.engine if race.engine is not None else gmax[1]
    c0 = race.chassis if race.chassis is not None else gmax[2]
    hands = start_hands(race, c0)

    # A label: (cost4, extra) + state. Boundary state: (0, hex, t, p, e, c, hand). In an action:
    # (1, hex, t, p, r, e, c, hand, left, city_start). cost4 = (actions, francs, mech, fuel) for the heap order.
    counter = itertools.count()
    parents: dict[int, tuple] = {}
    labels = _Labels()
    heap: list = []
    goals: list[tuple] = []

    goal_costs: list[tuple] = []
    cap = [None]                   # the most actions a kept way may take (the fastest + slack, once known)

    def push(cost, extra, state, parent, move):
        phase, h = state[0], state[1]
        if h not in lb_act:
            return
        spare = state[8] / gmax[1] if phase == 1 else 0.0
        need = max(0, math.ceil(lb_act[h] - spare - 1e-9))
        fuel_ahead = int(lb_fuel[h] + 1e-9)
        # every level burnt beyond the tank is bought, at the cheaper price at best
        low = (cost[0] + need, cost[1] + max(0, fuel_ahead - state[2]) * cheapest_fuel,
               cost[2] + int(lb_mech[h] + 1e-9), cost[3] + fuel_ahead)
        if cap[0] is not None and low[0] > cap[0]:
            return
        for g in goal_costs:
            if g[0] <= low[0] and g[1] <= low[1] and g[2] <= low[2] and g[3] <= low[3]:
                return
        if phase == 0:
            key, res = (0, h, state[4], state[5], state[6]), (state[2], state[3], 0)
        else:
            key, res = (1, h, state[5], state[6], state[7], state[8], state[9]), (state[2], state[3], state[4])
        if labels.dominated(key, cost, res):
            return
        labels.add(key, cost, res)
        i = next(counter)
        if i > limit:
            raise SearchTooLarge()
        parents[i] = (parent, move, cost, extra, state)
        heapq.heappush(heap, (low, i, cost, extra, state))

    def pay_fuel(f, t, p, r, city_start):
        """(t, p, r, francs, levels from the pool, levels bought where the action started) after burning
        f levels, or None."""
        take = min(f, t)
        t, f = t - take, f - take
        dp = min(f, p)
        p, f = p - dp, f - dp
        if f > r:
            return None
        return t, p, r - f, dp * price_city + f * (price_city if city_start else price_else), dp, f

    for hand in hands:
        push((0, 0, 0, 0), (0, 0, 0), (0, start, t0, 0, e0, c0, hand), None, ("start", start))
    best_actions = None
    while heap:
        low, i, cost, extra, state = heapq.heappop(heap)
        actions, francs, mech_lost, fuel_burnt = cost
        if not pareto and best_actions is not None:
            break
        if cap[0] is not None and low[0] > cap[0]:
            continue
        if any(g[0] <= low[0] and g[1] <= low[1] and g[2] <= low[2] and g[3] <= low[3] for g in goal_costs):
            continue
        if state[0] == 0 and state[1] == finish and i != 0:
            goals.append((cost, i))
            goal_costs.append(cost)
            if best_actions is None:
                best_actions = actions
                cap[0] = None if slack is None else actions + slack
            continue
        pilots, repairs, escorts_used = extra
        if state[0] == 0:
            _, h, t, p, e, c, cards = state
            in_city = tiles[h].city
            p_start = gmax[0] - t if in_city else p
            r_start = 0 if in_city else max(0, gmax[0] - t - p)
            if e >= 1:
                push((actions + 1, francs, mech_lost, fuel_burnt), (pilots + 1, repairs, escorts_used),
                     (1, h, t, p_start, r_start, e, c, cards, e, in_city), i, ("pilot", h))
            if in_city and e >= 1 and (nxt is None or h in nxt):
                for b, mode, fare in lines.get(h, ()):
                    if nxt is not None and b not in nxt.get(h, ()):
                        continue
                    for used in range(0, min(cards[0], _up(fare / discount)) + 1):
                        paid = pay_fuel(tiles[b].fuel, t, p_start, r_start, in_city)
                        if paid is None:
                            continue
                        t2, p2, _r2, fr, dp, dr = paid
                        cost2 = max(0, fare - discount * used)
                        push((actions + 1, francs + fr + cost2, mech_lost, fuel_burnt + tiles[b].fuel),
                             (pilots + 1, repairs, escorts_used),
                             (0, b, t2, p2, e, c, (cards[0] - used,) + cards[1:]), i,
                             (mode, b, fare, used, fr, cost2, dp, dr))
            price = rep_city if in_city else rep_else
            for ke in range(0, gmax[1] - e + 1):
                for kc in range(0, gmax[2] - c + 1):
                    if ke or kc:
                        push((actions + 1, francs + (ke + kc) * price, mech_lost, fuel_burnt),
                             (pilots, repairs + 1, escorts_used),
                             (0, h, t, p_start if in_city else p, e + ke, c + kc, cards), i,
                             ("repair", h, ke, kc, (ke + kc) * price))
            continue
        _, h, t, p, r, e, c, cards, left, city_start = state
        # stop here: the action ends
        push(cost, extra, (0, h, t, p, e, c, cards), i, ("end", h))
        if left <= 0:
            continue
        for n in land[h]:
            if nxt is not None and n not in nxt.get(h, ()):
                continue
            tile = tiles[n]
            paid = pay_fuel(tile.fuel, t, p, r, city_start)
            if paid is None:
                continue
            t2, p2, r2, fr, dp, dr = paid
            dangers = [(0, 0, 0)]                 # (extra mechanic, escort cards used, escort assistants)
            if tile.danger:
                dangers = [(danger, 0, 0)] + ([(0, 1, 0)] if cards[1] else []) + [(0, 0, 1)]
            for dm, card, assistant in dangers:
                m = tile.mech + dm
                if m > e + c:
                    continue
                hand1 = (cards[0], cards[1] - card, cards[2])
                stops = [False] if not tile.stop else [True] + ([False] if hand1[2] else [])
                for stop in stops:
                    hand2 = hand1 if stop or not tile.stop else (hand1[0], hand1[1], hand1[2] - 1)
                    for x in range(max(0, m - c), min(m, e) + 1):
                        e2, c2 = e - x, c - (m - x)
                        for hand3 in _discards(hand2, c2):
                            cost2 = (actions + assistant, francs + fr, mech_lost + m, fuel_burnt + tile.fuel)
                            extra2 = (pilots, repairs, escorts_used + assistant)
                            move = ("land", n, fr, m, card, assistant, tile.stop and not stop, dp, dr)
                            if tile.city or stop or e2 == 0 or left == 1 or n == finish:
                                push(cost2, extra2, (0, n, t2, p2, e2, c2, hand3), i, move)
                            else:
                                push(cost2, extra2, (1, n, t2, p2, r2, e2, c2, hand3, left - 1, city_start), i,
                                     move)
    cities = {h for h, tile in tiles.items() if tile.city}
    found = [_rebuild(parents, i, cities, (price_city, price_else)) for _, i in goals]
    front: list[Found] = []
    for f in sorted(found, key=lambda f: (f.actions, f.francs, f.mech, f.fuel)):
        if not any(all(a <= b for a, b in zip(g.costs(), f.costs())) for g in front):
            front.append(f)
    return front if pareto else front[:1]


def _car(state) -> tuple:
    """(fuel, engine, chassis, hand) of a label's state, at a boundary or inside an action."""
    return (state[2], state[4], state[5], state[6]) if state[0] == 0 else (state[2], state[5], state[6], state[7])


def _rebuild(parents: dict, i: int, cities: set, prices: tuple[int, int]) -> Found:
    """The way to label ``i`` as a schedule a driver can follow: per action, the fuel bought at its start
    (``buy``, ``buy_francs``), and per space entered the damage on the engine and on the chassis, the ESCORTE
    card, ESCORTE assistant or GUIDE card played and the hand kept."""
    chain = []
    while i is not None:
        parent, move, cost, extra, state = parents[i]
        chain.append((move, cost, extra, state))
        i = parent
    chain.reverse()
    (_, cost, extra, state) = chain[-1]
    f = Found(actions=cost[0], francs=cost[1], mech=cost[2], fuel=cost[3], pilots=extra[0], repairs=extra[1],
              escort_assistants=extra[2], end=(state[2], state[4], state[5]) + state[6])
    f.path = [chain[0][3][1]]
    f.hand = chain[0][3][6]
    act = pool = None              # the current action, the last action started in a city
    bought: dict = {}
    prev = _car(chain[0][3])

    def buy(action, levels):
        if levels and action is not None:
            at = action["from"] if "from" in action else action["at"]
            price = prices[0] if at in cities else prices[1]
            action["buy"] += levels
            action["buy_francs"] += levels * price
            bought.setdefault(at, [0, 0])
            bought[at][0] += levels
            bought[at][1] += levels * price

    for move, cost, extra, state in chain[1:]:
        kind = move[0]
        now = _car(state)
        if kind == "pilot":
            act = {"action": "pilot", "from": move[1], "hexes": [], "steps": [], "francs": 0}
        elif kind in ("sea", "air"):
            act = {"action": kind, "from": f.path[-1], "hexes": [move[1]], "fare": move[5], "printed_fare": move[2],
                   "transport_cards": move[3], "francs": move[4] + move[5]}
        elif kind == "repair":
            act = {"action": "repair", "at": move[1], "engine": move[2], "chassis": move[3], "francs": move[4]}
        if kind in ("pilot", "repair", "sea", "air"):
            act.update(buy=0, buy_francs=0)
            f.schedule.append(act)
            if (act.get("from") or act.get("at")) in cities:
                pool = act
        if kind == "land":
            f.path.append(move[1])
            f.steps.append(("land", move[1], 0))
            act["hexes"].append(move[1])
            act["steps"].append({"to": move[1], "engine": prev[1] - now[1], "chassis": prev[2] - now[2],
                                 "escort_card": bool(move[4]), "escort_assistant": bool(move[5]),
                                 "guide": bool(move[6]), "hand": now[3]})
            act["francs"] += move[2]
            act["escort_assistants"] = act.get("escort_assistants", 0) + move[5]
            act["escort_cards"] = act.get("escort_cards", 0) + move[4]
            act["guides"] = act.get("guides", 0) + (1 if move[6] else 0)
            buy(pool, move[7])
            buy(act, move[8])
        elif kind in ("sea", "air"):
            f.path.append(move[1])
            f.steps.append((kind, move[1], move[2]))
            buy(pool, move[6])
            buy(act, move[7])
        prev = now
    kept: list[dict] = []
    carry = 0, 0
    for a in f.schedule:           # a pilot action that moves nothing: its purchase goes to the next action
        if a["action"] == "pilot" and not a["hexes"]:
            carry = carry[0] + a["buy"], carry[1] + a["buy_francs"]
            continue
        a["buy"] += carry[0]
        a["buy_francs"] += carry[1]
        carry = 0, 0
        kept.append(a)
    f.schedule = kept
    f.fuel_bought = {h: (n, fr) for h, (n, fr) in bought.items()}
    return f
