"""Variable weather (ART.15.2-15.3): the race director rolls die k for the k-th zone of the stage and a hazard
mark turns that zone to its snow side; the drivers then choose their tyres. This module lists every weather
the dice can give with its chance, the expected time of each tyre choice under it, the best choice, and the
expected time of the stage when the tyres are chosen after the roll (or kept as they are).
"""
from __future__ import annotations

import itertools
from fractions import Fraction

from designer.racing.course import format_time
from designer.systems.classic.dice import expected as E
from designer.systems.classic.dice import moves as M
from designer.systems.classic.board.assembly import assemble
from designer.systems.classic.files.notation import Traversal
from designer.systems.classic.files.rally import apply_soft_sector
from designer.systems.classic.files.rules import Rules

MAX_ZONES = 3          # 2^3 weathers x tyres: a few seconds; more is left out of the analysis
MAX_WORK = 4000        # cells x (weathers x tyres) solved: about 20 s; a longer course has no weather table


def zone_order(route) -> list[str]:
    out = []
    for t in route:
        if t.zone not in out:
            out.append(t.zone)
    return out


def weathers(stage, box, rules: Rules) -> list[tuple[dict, Fraction]]:
    """Every snow pattern {zone: snowy?} with its chance; zones without a snow side stay dry."""
    zones = zone_order(stage.route)
    per_zone = []
    for k, z in enumerate(zones, start=1):
        has_snow = box.zones.get(z) is not None and box.zones[z].face(True) is not None
        p = rules.hazard_chance(f"gear{min(k, rules.top)}") if has_snow else Fraction(0)
        per_zone.append([(False, 1 - p), (True, p)] if p else [(False, Fraction(1))])
    out = []
    for combo in itertools.product(*per_zone):
        chance = Fraction(1)
        for _, p in combo:
            chance *= p
        out.append(({z: snow for z, (snow, _) in zip(zones, combo)}, chance))
    return out


def tyre_choices(stage, rules: Rules) -> list[str]:
    """Every tyre the ruleset has a dashboard for (ART.15.3 and ART.24.1: chosen after the weather roll; the
    bundled ruleset is the base game with the Dirt extension, so asphalt, snow, 2nd-generation snow, gravel and
    soft tyres), the stage's own tyres first when the ruleset lacks them; in a rally, only the tyres on the car
    when no assistance comes before the stage (ART.15.3: tyres are chosen "au départ des ES précédées d'une
    assistance")."""
    if getattr(stage, "carried_from", None) is not None:
        return [stage.tyres]          # no assistance before the stage: "les pilotes conservent les pneus"
    out = list(rules.dashboards)
    return out if stage.tyres in out else [stage.tyres, *out]


def plays_as(g, rules: Rules, car: M.Car) -> tuple:
    """All that the car's tyres change on the course ``g``: the dashboard of every road it has (ART.15.4, ART.19,
    ART.20), the marks that lose control in each of its sectors (ART.7.1, ART.24.3) and, where it has snow cells,
    on snow (ART.15.4). Tyres with the same answer drive the course alike, so one solve serves them all (soft tyres
    alone: their Big Attack is laid again die by die)."""
    cells = [d for n, d in g.nodes(data=True) if n != "finish"]
    roads = sorted({M.road_of(g, n, car) for n in g.nodes})     # the finish too: its die takes its road
    sectors = sorted({d.get("sector") or "" for d in cells})
    snow = any(d.get("surface") == "snow" for d in cells)
    return (car.tyres == "soft", tuple(rules.dash(car.tyres, r) for r in roads),
            tuple(rules.hazard_limit_for(car.tyres, "asphalt", s or None) for s in sectors),
            rules.snow_limit(car.tyres) if snow else None)


def weather_table(stage, box, rules: Rules) -> dict | None:
    """Per weather: chance, expected time per tyre choice, best tyres; None when there are too many zones."""
    if len(zone_order(stage.route)) > MAX_ZONES:
        return None
    tyres = tyre_choices(stage, rules)
    rows, chosen, kept = [], 0.0, 0.0
    patterns = weathers(stage, box, rules)
    laid = assemble(stage.route, box)
    if not laid.ok or laid.graph.number_of_nodes() * len(patterns) * len(tyres) > MAX_WORK:
        return None
    for pattern, chance in patterns:
        route = tuple(Traversal(t.zone, t.entry, t.exit, pattern[t.zone]) for t in stage.route)
        course = assemble(route, box)
        if not course.ok:
            return None
        apply_soft_sector(course.graph, stage)          # soft tyres kept from the stage before (ART.24.3)
        times, solved = {}, {}
        for tyre in tyres:
            car = M.Car(tyres=tyre, leader=stage.leader, damage=min(stage.damage_in, rules.top - 1), sisu=stage.sisu)
            key = plays_as(course.graph, rules, car)
            if key not in solved:
                solved[key] = E.expected_time(course.graph, rules, car)["seconds"]
            times[tyre] = solved[key]
        best = min(times, key=times.get)
        chosen += float(chance) * times[best]
        kept += float(chance) * times[stage.tyres]
        label = ", ".join(f"{z} {'snow' if s else 'dry'}" for z, s in pattern.items())
        rows.append({"weather": label, "chance": round(float(chance), 4), "fraction": str(chance),
                     "expected": {t: round(v, 1) for t, v in times.items()}, "best_tyres": best})
    return {"tyres": tyres, "rows": rows, "expected_choosing_tyres": round(chosen, 1),
            "expected_with_stage_tyres": round(kept, 1), "stage_tyres": stage.tyres,
            "text": (f"expected {format_time(chosen)} choosing tyres after the weather roll, "
                     f"{format_time(kept)} keeping {stage.tyres} tyres" if len(tyres) > 1 else
                     f"expected {format_time(kept)} over the weather roll on the {stage.tyres} tyres kept "
                     "(no assistance before the stage: no change of tyres)"),
            "note": "Tyre effects the rulebook does not print (dashboards) are assumed: see classic-rules.yaml"
                    + ("; without Big Attack (each weather and tyre would be solved with it again)"
                       if stage.big_attack else "")}
