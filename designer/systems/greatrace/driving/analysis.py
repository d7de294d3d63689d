"""The analysis of a race: shortest, fastest and cheapest routes, their trade-off, a Monte Carlo over the bag,
both directions, length and duration. The result is JSON-ready."""
from __future__ import annotations

from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.greatrace.driving import montecarlo
from designer.systems.greatrace.driving import routes
from designer.systems.greatrace.files.board import Board
from designer.systems.greatrace.driving.costs import CostMap
from designer.systems.greatrace.driving.plan import Plan, engine_limit, plan_route, rounds
from designer.systems.greatrace.files.race import Race, with_purse

CANDIDATES = 16


def trade_off_slack(rules) -> int | None:
    """How far past the fastest the trade-off set looks: None (the default, ``complete``) for the whole set;
    a ruleset may bound it with ``trade_off_slack: {value: 0..3}`` on boards too large for the whole set."""
    if "trade_off_slack" not in rules.params or rules["trade_off_slack"] == "complete":
        return None
    return int(rules["trade_off_slack"])


def pareto(plans: list[Plan]) -> list[Plan]:
    """Plans no other plan beats on actions, francs, fuel and mechanic (one per distinct figure), fewest
    actions first."""
    out: list[Plan] = []
    for p in sorted(plans, key=lambda p: (p.actions, p.francs, p.mech_lost, p.fuel_burnt, p.spaces)):
        key = (p.actions, p.francs, p.fuel_burnt, p.mech_lost)
        if any(all(a <= b for a, b in zip((q.actions, q.francs, q.fuel_burnt, q.mech_lost), key)) for q in out):
            continue
        out.append(p)
    return out


def _route(found) -> routes.Route:
    return routes.Route(found.path[0], [routes.Step(h, via, fare) for via, h, fare in found.steps])


def direction(board: Board, race: Race, *, transport: bool = True, candidates: int = CANDIDATES,
              slack: int | None = None, full: bool = True) -> dict:
    """The three routes of one direction, planned, with their trade-off set; Plans under ``_plans``.
    ``full=False``: the trade-off set holds only the fastest (for the figures of the other direction)."""
    from designer.systems.greatrace.driving import search

    cm = CostMap(board, race)
    if slack is None:
        slack = trade_off_slack(board.rules)
    start, finish = cm.hex_of_city(race.start), cm.hex_of_city(race.finish)
    if start is None or finish is None:
        missing = race.start if start is None else race.finish
        raise DesignerError(f"{missing!r} is not a city of the board {board.name!r}", where=race.line("start"),
                            hint=f"choose among: {', '.join(sorted(board.cities))}")
    limit = engine_limit(cm)
    cards = race.cards.get("transport", 0)
    shortest = routes.shortest_route(cm, start, finish, transport)
    if shortest is None:
        return {"reachable": False, "start": race.start, "finish": race.finish, "_plans": {}}
    complete, front = False, []
    try:
        if slack is not None or not full:
            front = search.search(cm, start, finish, transport=transport, slack=slack, pareto=full,
                                  limit=search.MAX_LABELS if full else search.BOUNDED_LABELS)
        else:
            # the ways with the fewest actions first (a board too large for them is too large for the whole
            # set: no more work is spent on it), then the whole trade-off set when it fits in its budget
            front = search.search(cm, start, finish, transport=transport, slack=0, limit=search.BOUNDED_LABELS)
            try:
                front = search.search(cm, start, finish, transport=transport, limit=search.MAX_LABELS)
            except search.SearchTooLarge:
                slack = 0
        complete = True
    except search.SearchTooLarge:
        pass
    # A board too large for any search: the candidate routes (fewest spaces, fewest actions by the engine alone,
    # cheapest by lower-bound francs) are each driven under the same rules instead.
    if complete and not front:
        return {"reachable": False, "start": race.start, "finish": race.finish, "_plans": {},
                "why": "the car cannot pay its way to the finish with these gauges"}
    plans, seen = [], set()
    for f in front:
        # every way of the trade-off set, even two ways along the same hexes (with or without a repair, say)
        r = _route(f)
        seen.add(r.key())
        plans.append(plan_route(cm, r, f))
    if not complete:
        for r in [routes.fastest_route(cm, start, finish, limit, transport), shortest]:
            if r is not None and r.key() not in seen:
                seen.add(r.key())
                plan = plan_route(cm, r)
                if plan is not None:
                    plans.append(plan)
        if not plans:
            raise DesignerError("the route search needs more work than it is allowed on this board, and no "
                                "candidate route can be driven", where=race.source or race.name,
                                hint="use a smaller board or smaller gauges, or lay tiles on the open spaces")
        plans.sort(key=lambda p: (p.actions, p.francs, p.mech_lost, p.fuel_burnt))
    p_fast = plans[0]
    pool = [shortest]
    if complete and (slack is not None or not full):
        # a bounded trade-off set may miss the cheapest way: candidate routes, each driven, stand in for the rest
        pool += routes.candidate_routes(cm, start, finish, candidates, cards, transport)
        if transport:
            pool.append(routes.shortest_route(cm, start, finish, transport=False))
    by_key = {p.route.key(): p for p in plans}
    for r in pool:
        if r is not None and r.key() not in seen:
            seen.add(r.key())
            plan = plan_route(cm, r)
            if plan is not None:
                plans.append(plan)
                by_key[r.key()] = plan
    p_short, short_complete = by_key.get(shortest.key()), True
    if p_short is None:
        p_short, short_complete = shortest_drivable(cm, start, finish, transport, plans)
    p_cheap = min(plans, key=lambda p: (p.francs, p.actions, p.spaces))
    front_plans = pareto(plans)
    return {"reachable": True, "start": race.start, "finish": race.finish, "engine_limit": limit,
            "shortest": p_short.to_dict(), "fastest": p_fast.to_dict(), "cheapest": p_cheap.to_dict(),
            "pareto": [{"actions": p.actions, "pilot_actions": p.pilot_actions, "repairs": p.repairs,
                        "francs": p.francs, "fuel": p.fuel_burnt, "mech": p.mech_lost,
                        "spaces": p.spaces, "rounds": rounds(p, board.rules, race.players)["rounds"],
                        "path": p.path} for p in front_plans],
            "pareto_slack": slack, "candidates": len(plans), "search_complete": complete,
            "shortest_complete": short_complete,
            "_plans": {"shortest": p_short, "fastest": p_fast, "cheapest": p_cheap}, "_cm": cm,
            "_front": front_plans}


SHORTEST_TRIES = 400       # routes by rising length tried for the shortest one the car can drive


def shortest_drivable(cm: CostMap, start, finish, transport: bool, plans: list[Plan]) -> tuple[Plan, bool]:
    """The fewest spaces the car can drive when the fewest on the map cannot be paid (a tile it cannot afford):
    loop-free routes by rising length, each driven, up to the length of the shortest way already planned
    (``plans``: ways the car can drive); the fewest actions, then francs, among those of that length. Spaces no
    full tank, engine and chassis could ever pay are left out first. Also whether every shorter route was tried
    (False: more than ``SHORTEST_TRIES`` of them)."""
    import networkx as nx

    from designer.systems.greatrace.driving.search import unpayable

    best = min(plans, key=lambda p: (p.spaces, p.actions, p.francs))
    g = routes.route_graph(cm) if transport else routes.land_graph(cm)
    g.remove_nodes_from([h for h in unpayable(cm) if h not in (start, finish)])
    found: list[Plan] = []
    complete = True
    try:
        for k, path in enumerate(nx.shortest_simple_paths(g, start, finish)):
            if len(path) - 1 > (found[0].spaces if found else best.spaces):
                break
            if k >= SHORTEST_TRIES:      # with a way found, its length is the fewest (only ties are left)
                complete = bool(found)
                break
            if len(path) - 1 == best.spaces and not found:
                found.append(best)
            plan = plan_route(cm, routes.route_of(g, path))
            if plan is not None:
                found.append(plan)
    except (nx.NetworkXNoPath, nx.NodeNotFound):
        pass
    return min(found or [best], key=lambda p: (p.spaces, p.actions, p.francs)), complete


def analyse(board: Board, race: Race, *, players: int | None = None, runs: int = 500, seed: int = 1,
            transport: bool = True, candidates: int = CANDIDATES) -> dict:
    players = players or race.players
    race = with_purse(race, board.rules)
    fwd = direction(board, race, transport=transport, candidates=candidates)
    back = direction(board, race.reversed(), transport=transport, candidates=candidates)
    result: dict = {"system": "greatrace", "stage": race.name, "board": board.name, "start": race.start,
                    "finish": race.finish, "median": race.median, "players": players, "transport": transport,
                    "purse": race.money}
    rules = board.rules
    if not fwd["reachable"]:
        why = fwd.get("why")
        result.update(reachable=False, summary=[f"no route from {race.start} to {race.finish} on this board"
                                                + (f": {why}" if why else "")])
        return result
    result["reachable"] = True
    for name in ("shortest", "fastest", "cheapest"):
        result[name] = fwd[name]
    result["pareto"] = fwd["pareto"]
    result["pareto_slack"] = fwd["pareto_slack"]
    result["search_complete"] = fwd["search_complete"]
    result["shortest_complete"] = fwd["shortest_complete"]
    result["engine_limit"] = fwd["engine_limit"]
    cm = fwd["_cm"]
    mc: dict = {}
    done: dict = {}
    for name in ("fastest", "cheapest", "shortest"):
        plan = fwd["_plans"][name]
        key = way_key(plan)            # two plans on one path may drive it differently (fuel, repairs, cards)
        mc[name] = done[key] if key in done else montecarlo.simulate(cm, plan, runs=runs, seed=seed)
        done[key] = mc[name]
    result["montecarlo"] = mc
    fast = fwd["_plans"]["fastest"]
    result["duration"] = {"spaces": fast.spaces, "pilot_actions": fast.actions,
                          "expected_pilot_actions": round(fast.expected_actions, 2),
                          "scouting_actions": fast.scouting_actions,
                          "blind": rounds(fast, rules, players), "scouted": rounds(fast, rules, players, True)}
    result["directions"] = {"forward": _balance(fwd), "reverse": _balance(back)}
    result["path"] = fast.path
    from designer.systems.greatrace.driving import scoring

    result["scoring"] = {}
    for name in ("fastest", "cheapest", "shortest"):
        plan = fwd["_plans"][name]
        result["scoring"][name] = scoring.score(plan, rules, race, players, rounds(plan, rules, players)["rounds"])
    for row, plan in zip(result["pareto"], fwd["_front"]):
        row["prestige"] = scoring.score(plan, rules, race, players, row["rounds"])["prestige_without_arrival_points"]
    result["not_modelled"] = scoring.NOT_MODELLED
    result["assumed_parameters"] = [p.name for p in rules.not_rulebook()]
    result["summary"] = _summary(result)
    held = {k: race.cards.get(k, 0) for k in CARD_NAMES}
    for name in ("fastest", "cheapest"):
        kept = result[name].get("start_cards")
        if kept and kept != held:
            cards = ", ".join(f"{n} {CARD_NAMES[k]}" for k, n in kept.items() if n) or "no card"
            result["summary"].append(f"{name}: the cards are more than the chassis holds; keep {cards} at the start "
                                     "and discard the rest")
    return result


def _balance(d: dict) -> dict | None:
    if not d["reachable"]:
        return {"reachable": False, "start": d["start"], "finish": d["finish"]}
    f, c = d["_plans"]["fastest"], d["_plans"]["cheapest"]
    return {"reachable": True, "start": d["start"], "finish": d["finish"], "shortest_spaces": d["shortest"]["spaces"],
            "fastest_actions": f.actions, "fastest_francs": f.francs, "cheapest_francs": c.francs,
            "cheapest_actions": c.actions, "expected_fuel": round(f.fuel, 1), "risk_spaces": f.risk_spaces}


CARD_NAMES = {"transport": "TRANSPORT", "escort": "ESCORTE", "guide": "GUIDE"}     # as the cards print them


def way_key(plan) -> tuple:
    """What tells two ways apart: the path, the cards kept at the start and every action as the search drives it."""
    return plan.route.key(), plan.driven.hand, repr(plan.driven.schedule)


def _summary(r: dict) -> list[str]:
    s, f, c = r["shortest"], r["fastest"], r["cheapest"]
    act, spc = (lambda n: plural(n, "action")), (lambda n: plural(n, "space"))
    out = [f"{r['start']} -> {r['finish']} on {r['board']} (engine limit {spc(r['engine_limit'])} per pilot action)",
           f"shortest: {spc(s['spaces'])}, {act(s['actions'])}, price {s['francs']} F  [{' - '.join(s['path'])}]",
           f"fastest:  {act(f['actions'])} ({plural(f.get('pilot_actions', f['actions']), 'pilot action')}; "
           f"{f['expected_actions']} expected with STOPs drawn), "
           f"{spc(f['spaces'])}, price {f['francs']} F  [{' - '.join(f['path'])}]",
           f"cheapest: price {c['francs']} F, {act(c['actions'])}, {spc(c['spaces'])}  [{' - '.join(c['path'])}]",
           "trade-off (actions / price / fuel / mechanic): "
           + ", ".join(f"{p['actions']} / {p['francs']} F / {p['fuel']} / {p['mech']}" for p in r["pareto"])]
    if r.get("search_complete", True) and r.get("pareto_slack") is not None:
        out.append(f"the trade-off set holds the ways with at most {plural(r['pareto_slack'], 'action')} more than "
                   "the fastest (the whole set needs more work than allowed on this board, or the ruleset bounds it)")
    if not r.get("shortest_complete", True):
        out.append(f"shortest: the {SHORTEST_TRIES} shortest routes on the map tried first cannot be driven; this is "
                   "the shortest found, and a shorter way the car can drive may exist")
    if not r.get("search_complete", True):
        out.append("this board is too large for the whole route search: the routes are candidates (fewest spaces, "
                   "fewest actions by the engine alone), each driven under the rules; a faster or cheaper way may "
                   "exist")
    mc = r["montecarlo"]["fastest"]
    if mc.get("fuel"):
        out.append(f"Monte Carlo ({mc['runs']} runs, fastest route, 10-90%): fuel {mc['fuel']['p10']}-"
                   f"{mc['fuel']['p90']} (mean {mc['fuel']['mean']}), mechanic {mc['mech']['p10']}-{mc['mech']['p90']}, "
                   f"actions {mc['actions']['p10']}-{mc['actions']['p90']}, rounds {mc['rounds']['p10']}-"
                   f"{mc['rounds']['p90']}; stranded {100 * mc['stranded_chance']:.0f}%, funding needed "
                   f"{100 * mc['funding_chance']:.0f}%")
    if mc.get("failed_chance"):
        out.append(f"Monte Carlo: the route could not be finished in {100 * mc['failed_chance']:.0f}% of the runs "
                   f"({', '.join(mc['failed_reasons'])})")
    fw, bw = r["directions"]["forward"], r["directions"]["reverse"]
    if bw and bw.get("reachable"):
        out.append(f"both directions: {fw['fastest_actions']} / {bw['fastest_actions']} actions on the fastest route, "
                   f"price {fw['cheapest_francs']} / {bw['cheapest_francs']} F on the cheapest "
                   f"({r['start']} first, then {r['finish']} first)")
    d = r["duration"]
    out.append(f"duration: {spc(d['spaces'])}, {act(d['pilot_actions'])}, about {plural(d['blind']['rounds'], 'round')} "
               f"driving blind or {d['scouted']['rounds']} with the route scouted first "
               f"({plural(d['scouting_actions'], 'scouting action')}); ~{d['blind']['table_minutes']} min for "
               f"{plural(r['players'], 'player')}")
    out.append(f"money: the fastest route's price is {price_words(f)}")
    for name in ("fastest", "cheapest"):
        sc = r.get("scoring", {}).get(name)
        if sc:
            ranks = " / ".join(str(v) for v in sc["prestige_by_arrival_rank"].values())
            out.append(f"prestige on the {name} route: {ranks} points arriving 1st / 2nd / 3rd (engine {sc['engine']}, "
                       f"chassis {sc['chassis']}, {sc['money_left']} F left); the progression bonus may add up to "
                       f"{sc['progression_bonus']['at_most']} F")
    if f["shortfall"]:
        out.append(f"money: the {f['spent']} F paid during the race are {f['shortfall']} F more than the purse "
                   f"({plural(f['funding_actions'], 'funding action')}, counted in the rounds)")
    if mc.get("francs"):
        out.append(f"money with the bag's draws (Monte Carlo, fastest route): paid during the race "
                   f"{mc['francs']['p10']}-{mc['francs']['p90']} F (mean {mc['francs']['mean']} F)")
    return out


def price_words(p: dict) -> str:
    """The price of a planned route and what it is made of, e.g. ``250 F = 210 F paid during the race (of which
    fares 160 F) + 40 F of repairs owed at the finish``."""
    paid = f"{p['spent']} F paid during the race" + (f" (of which fares {p['fares']} F)" if p.get("fares") else "")
    owed = p["francs"] - p["spent"]
    return f"{p['francs']} F = {paid}" + (f" + {owed} F of repairs owed at the finish" if owed else "")


