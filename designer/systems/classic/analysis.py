"""The analysis of a classic stage as JSON-ready data: length, shortest and ideal line, expected time with the
best policy, gear-limit profile, build instructions, chance of snow under variable weather, table time.
"""
from __future__ import annotations

from fractions import Fraction

from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.racing.course import format_time
from designer.racing.mdp import quantile
from designer.systems.classic.dice import expected as E
from designer.systems.classic.dice import policy
from designer.systems.classic.files import rally as R
from designer.systems.classic.files.rally import apply_soft_sector
from designer.systems.classic.dice import lines as L
from designer.systems.classic.dice import moves as M
from designer.systems.classic.files import notation
from designer.systems.classic.board.assembly import Course, assemble, turn_side
from designer.systems.classic.files.rules import Rules, rules_for, tyre_name
from designer.systems.classic.dice.weather import weather_table

TURN_WORDS = {0: "unturned", 1: "turned a quarter clockwise", 2: "turned half round", 3: "turned a quarter anticlockwise"}
SIDE_WORDS = {"N": "north", "E": "east", "S": "south", "W": "west"}


def rules_of(stage) -> Rules:
    return rules_for(stage)


def snow_chances(stage, box, rules: Rules) -> list[dict]:
    """ART.15.2: the director rolls die k for the k-th zone of the stage; a hazard mark turns it to snow."""
    out, seen = [], []
    for t in stage.route:
        if t.zone not in seen:
            seen.append(t.zone)
    for k, zone in enumerate(seen, start=1):
        die = f"gear{min(k, rules.top)}"
        p = rules.hazard_chance(die) if box.zones.get(zone) and box.zones[zone].face(True) else Fraction(0)
        out.append({"zone": zone, "die": k, "chance": float(p), "fraction": str(p)})
    return out


def split_times(stage, ideal: dict) -> list[dict]:
    """ART.16: the ideal line's time when it passes each split point: the cards of the turns up to it, less the
    seconds their Big Attacks won ("il ajoute toutes ses CARTES VITESSE et ôte les secondes gagnées")."""
    out = []
    for i, cell in stage.splits:
        node, elapsed, at = f"{i}:{cell}", 0, None
        for k, turn in enumerate(ideal["turns"], start=1):
            elapsed += turn["card"] - turn.get("attack_seconds", 0)
            if node in turn["cells"] or any(c.startswith(node + ".") for c in turn["cells"]):
                at = k
                break
        out.append({"crossing": i + 1, "cell": cell, "turn": at, "seconds": elapsed if at else None,
                    "time": format_time(elapsed) if at else "-"})
    return out


def end_damage(stage, box, rules: Rules) -> dict[int, float]:
    """The chance of each number of black dice lost at the finish of ``stage``, the damage it carried in
    weighed by its own chances (ART.8, ART.13, ART.14)."""
    course = assemble(stage.route, box)
    if not course.ok:
        return {stage.damage_in: 1.0}
    apply_soft_sector(course.graph, stage)
    out: dict[int, float] = {}
    for d_in, p_in in start_damage(stage, box, rules).items():
        key = (notation.share(stage.route), stage.tyres, stage.leader, stage.big_attack, stage.soft_sector, d_in,
               box.path, box.name, id(rules))
        if key not in _FINISH_DAMAGE or _FINISH_DAMAGE[key][0] is not rules:
            car = M.Car(tyres=stage.tyres, leader=stage.leader, damage=min(d_in, rules.top - 1))
            E.check_size(course.graph, stage.big_attack, stage.source)
            model, solution, stats = policy.solve_stage(course.graph, rules, car, big_attack=stage.big_attack)
            if len(_FINISH_DAMAGE) > 64:
                _FINISH_DAMAGE.clear()
            _FINISH_DAMAGE[key] = (rules, R.finish_damage(solution, stats))
        for d, p in _FINISH_DAMAGE[key][1].items():
            out[d] = out.get(d, 0.0) + p_in * p
    return out


_FINISH_DAMAGE: dict = {}       # a rally's stages are solved once for each damage they may start with


def start_damage(stage, box, rules: Rules) -> dict[int, float]:
    """Black dice lost at the start: carried from the stage before when no assistance lies between them."""
    before = getattr(stage, "carried_from", None)
    if before is None:
        return {stage.damage_in: 1.0}
    return end_damage(before, _box_before(before, stage, box), rules)


def _box_before(before, stage, box):
    """The zone box of the stage before ``stage`` (whose box is ``box``): the same when both name the same, else
    the one it names beside its file or bundled (``box`` when that cannot be found: a box only the app holds)."""
    if before.zones == stage.zones:
        return box
    from designer.systems.classic.files.zones import find_box

    try:
        return find_box(before.zones, getattr(before, "near", None))
    except DesignerError:
        return box


def _faces(stage) -> str:
    """The side each zone of the stage is laid on, e.g. ``X snow, Y dry``."""
    seen: dict = {}
    for t in stage.route:
        seen.setdefault(t.zone, "snow" if t.snow else "dry")
    return ", ".join(f"{z} {s}" for z, s in seen.items())


def rally_notes(stage, box, rules: Rules, result: dict) -> dict:
    """What this stage inherits in its rally: damage carried in (weighed), soft-tyre sector, tyres kept."""
    out: dict = {}
    before = getattr(stage, "carried_from", None)
    if stage.soft_sector and stage.tyres == "soft":
        result["summary"].append(f"soft tyres kept from the stage before: the whole stage is sector "
                                 f"{stage.soft_sector} (ART.24.3)")
    if getattr(stage, "tyre_change_refused", None):
        asked = tyre_name(stage.tyre_change_refused)
        result["summary"].append(f"no assistance before this stage: the {tyre_name(stage.tyres)} tyres of the stage "
                                 f"before are still on (ART.15.3), not the {asked} tyres it names; every figure is "
                                 "on them")
    if before is None:
        return out
    g = assemble(stage.route, box).graph
    cap = E.MAX_CELLS_ATTACK if stage.big_attack else E.MAX_CELLS
    if g.number_of_nodes() * (R.MAX_CARRIED + 1) > 2 * cap:       # up to five solves, one per damage
        result["summary"].append(f"no assistance after {before.name}: black dice lost there stay lost here "
                                 "(not weighed for stages this long: the work is capped)")
        return out
    chances = start_damage(stage, box, rules)
    apply_soft_sector(g, stage)
    mixed = 0.0
    for d, p in chances.items():
        car = M.Car(tyres=stage.tyres, leader=stage.leader, damage=min(d, rules.top - 1))
        model, solution, _ = policy.solve_stage(g, rules, car, big_attack=stage.big_attack)
        mixed += p * solution.value(model.start)
    out["carried"] = {"from": before.name, "dice_lost_chances": {str(d): round(p, 4) for d, p in chances.items()},
                      "expected_seconds": round(mixed, 1), "expected_time": format_time(mixed)}
    fresh = 1 - chances.get(0, 0.0)
    result["summary"].append(f"no assistance after {before.name}: black dice lost there stay lost here "
                             f"({fresh:.0%} of runs start damaged); expected {format_time(mixed)} with that damage")
    return out


def cut_and_finish_notes(g, ideal: dict, rules: Rules) -> list[str]:
    """What the times leave out on the ideal line: its cuts each draw a cut card (ART.9.3: a dirty cut slows
    the cars behind, a puncture costs a gas die), and a loss of control crossing the finish costs a black die
    (ART.13), carried to the next stage without an assistance (ART.14)."""
    out = []
    cuts = sorted({g.nodes[c].get("corner") for c in ideal["cells"] if g.nodes[c].get("lane") == "cut"})
    if cuts:
        card = rules.cut_card
        out.append(f"the ideal line takes {plural(len(cuts), 'cut')} (K): each draws a cut card "
                   f"(good {card['good']:.0%}, dirty {card['dirty']:.0%}, puncture {card['puncture']:.0%}: a gas die "
                   f"lost, the spare wheel may repair it); the expected time prices the punctures, the ideal "
                   f"(a shakedown, ART.17) does not")
    if ideal.get("finish_damage"):
        out.append("the ideal line jumps a bump two gears over into the finish: a loss of control on the line "
                   "(ART.11, ART.13), one black die lost for the next stage unless an assistance follows")
    return out


def card_figures(model, solution, stats) -> dict:
    """What the cards and the seconds held do under the best policy: punctures (ART.9.3), the spare wheel
    (ART.10), the SISU card (ART.7.5) and the seconds dropped (ART.6), per run, exactly."""
    out = {"punctures": 0.0, "spare_wheel": 0.0, "sisu": 0.0, "drop_turns": 0.0, "retired": 0.0,
           "losses_on_purpose": 0.0}
    for (state, bank), occ in stats.occupancy.items():
        if state[0] == "finish":
            continue
        car = state[3]
        for o in solution.outcomes(state, bank):
            nxt = o.state[3]
            if not isinstance(nxt, M.Car):
                out["retired"] += occ * o.p * (nxt == "retired")
                continue
            if nxt.spare != car.spare:
                out["spare_wheel"] += occ * o.p
            elif nxt.punctures > car.punctures:
                out["punctures"] += occ * o.p * (nxt.punctures - car.punctures)
            if nxt.sisu != car.sisu:
                out["sisu"] += occ * o.p
            if o.bank < bank and not o.loss:
                out["drop_turns"] += occ * o.p
            if o.loss == E.ON_PURPOSE:
                out["losses_on_purpose"] += occ * o.p
    out = {k: round(v, 4) for k, v in out.items()}
    solver = model.solver
    out["sisu_held"] = solver.car.sisu
    if solver.car.sisu:
        without = solver.variant(sisu=False).value("start", 0)
        out["sisu_worth_seconds"] = round(without - solution.value(model.start), 2)
    return out


def on_purpose_words(cards: dict) -> str:
    """How often the best policy loses control on purpose (``cards``: :func:`card_figures`), or "" when it
    (nearly) never does."""
    n = cards.get("losses_on_purpose", 0.0)
    return f"it loses control on purpose {n:.2f} times a run where that pays (a corner or a bump too fast, " \
           "ART.7.1)" if n >= 0.005 else ""


def build_steps(course: Course) -> list[str]:
    """How to lay the boards, in words."""
    steps = []
    for i, (zone, p) in enumerate(course.placements.items()):
        side = "snow side up" if p.surface == "snow" else f"{p.surface} side up"
        if i == 0:
            steps.append(f"Lay zone {zone} {side}, {TURN_WORDS[p.rot]}; the START panel at its road end "
                         f"{course.route[0].entry}.")
            continue
        join = next((a, b) for a, b in zip(course.route, course.route[1:]) if b.zone == zone)
        face_a = course.faces[course.route.index(join[0])]
        where = SIDE_WORDS[turn_side(face_a.ends[join[0].exit].side, course.placements[join[0].zone].rot)]
        steps.append(f"Lay zone {zone} {side} {TURN_WORDS[p.rot]}, against the {where} edge of zone {join[0].zone}, "
                     f"so that its road end {join[1].entry} meets road end {join[0].exit} of {join[0].zone}.")
    last = course.route[-1]
    steps.append(f"The FINISH panel at road end {last.exit} of zone {last.zone}.")
    return steps


def unanalysed(stage, box, problems: list, *, players: int | None = None) -> dict:
    """What the road book prints for a stage that cannot be analysed: its route and its problems."""
    return {"system": "classic", "stage": stage.name, "route": notation.sheet(stage.route),
            "share": notation.share(stage.route), "zones": box.name, "demo_zones": box.demo,
            "weather": stage.weather, "tyres": stage.tyres, "players": players or stage.players,
            "problems": [p.to_dict() for p in problems],
            "summary": ["cannot analyse: " + "; ".join(p.message for p in problems if p.severity == "error")]}


def analyse(stage, box, *, players: int | None = None, rules: Rules | None = None, monte_carlo: int = 0,
            table_runs: int = 0, **options) -> dict:
    if options:
        raise DesignerError(f"unknown analysis option{'s' if len(options) > 1 else ''} for classic Rallyman: "
                            f"{', '.join(sorted(options))}", hint="classic Rallyman knows players")
    rules = rules or rules_of(stage)
    players = players or stage.players
    course = assemble(stage.route, box)
    result = {"system": "classic", "stage": stage.name, "route": notation.sheet(stage.route),
              "share": notation.share(stage.route), "zones": box.name, "demo_zones": box.demo,
              "weather": stage.weather, "tyres": stage.tyres, "players": players}
    if not course.ok:
        errors = [p for p in course.problems if p.severity == "error"] or list(course.problems)
        first = errors[0] if errors else None
        place = ", ".join(x for x in (stage.source if stage.source and stage.source != "<text>" else None,
                                     f"stage {stage.name!r}", first.where if first else None) if x)
        raise DesignerError("cannot analyse this stage: " + "; ".join(p.message for p in errors),
                            where=place,
                            hint=(first.hint + "; " if first and first.hint else "")
                            + "change the route, then `rally-designer validate` the stage: it lists every problem")
    g = course.graph
    E.check_size(g, stage.big_attack, stage.source if stage.source and stage.source != "<text>" else None)
    apply_soft_sector(g, stage)
    car = M.Car(tyres=stage.tyres, leader=stage.leader, damage=min(stage.damage_in, rules.top - 1), sisu=stage.sisu)
    main = L.main_line(g)
    short = L.shortest(g) or []
    ideal = L.ideal_line(g, rules, car, big_attack=stage.big_attack)
    result.update({"boards": [{"zone": p.zone, "side": p.surface, "x": p.x, "y": p.y, "turn": p.rot}
                              for p in course.placements.values()],
                   "build": build_steps(course), "length_cells": len(main), "shortest_cells": len(short),
                   "shortest_line": short, "snow_chances": snow_chances(stage, box, rules)})
    if ideal is None:
        raise DesignerError("no legal line from the start to the finish",
                            where=stage.source if stage.source and stage.source != "<text>" else f"stage {stage.name!r}",
                            hint="a speed limit of 0 or a dead end blocks the road; `rally-designer render` the stage "
                                 "and check the zones where the route turns")
    model, solution, stats = policy.solve_stage(g, rules, car, big_attack=stage.big_attack)
    raced = None
    if table_runs:                      # several cars raced on the stage (dice/table.py)
        from designer.systems.classic.dice import table as T

        raced = T.simulate_table(g, rules, players, runs=table_runs, tyres=stage.tyres, big_attack=stage.big_attack)
    exp_seconds = solution.value(model.start)
    attacks = sum(1 for p in model.solver.attack.values() if p)
    dice_lost = sum(occ * o.p * (o.info or 0) for (st_, b_), occ in stats.occupancy.items()
                    if st_[0] != "finish" for o in solution.outcomes(st_, b_) if o.loss)
    turns = stats.turns
    dist = solution.distribution([model.start])
    table_min = turns * players * rules.table_seconds / 60 + (players - 1) * rules.table_seconds / 60
    expected = {"seconds": round(exp_seconds, 1), "time": format_time(exp_seconds), "sd_seconds": round(stats.sd, 1),
                "p10_seconds": quantile(dist, 0.10), "p50_seconds": quantile(dist, 0.50),
                "p90_seconds": quantile(dist, 0.90),
                "turns": round(turns, 2), "loss_chance": round(stats.loss_chance, 3),
                "losses_per_run": round(stats.expected_losses, 3), "dice_lost_per_run": round(dice_lost, 3),
                "states": sum(len(x.W) for x in model.solver.family.values()),
                "big_attack": stage.big_attack, "attack_turns": attacks,
                "not_priced": list(R.NOT_PRICED)
                + ([] if stage.big_attack else ["Big Attack and dropping the seconds it wins (set big_attack: true "
                                                "in the stage)"]),
                "cards": card_figures(model, solution, stats),
                "finish_damage": R.finish_damage(solution, stats)}
    if monte_carlo:
        runs = policy.monte_carlo(model, solution, runs=monte_carlo, seed=7).to_dict()
        expected["monte_carlo"] = {"runs": runs["runs"], "mean_seconds": runs["mean"], "ci95": runs["ci95"]}
    result.update({
        "ideal_line": {k: v for k, v in ideal.items()},
        "expected": expected,
        "profile": L.limit_profile(g, ideal["cells"], ideal["gears"]),
        "table": {"turns_per_player": round(turns, 1), "players": players, "minutes": round(table_min, 1),
                  "seconds_per_turn": rules.table_seconds}
        | ({} if raced is None else {"minutes": raced["table_minutes"], "counted_from": "simulated_table"}),
    })
    result["splits"] = split_times(stage, ideal)
    if stage.weather == "variable":
        result["weather_table"] = weather_table(stage, box, rules)
    zones_snow = ", ".join(f"{s['zone']} {s['fraction']}" for s in result["snow_chances"])
    purpose = on_purpose_words(expected["cards"])
    result["summary"] = [
        f"route {result['route']}  (share {result['share']})",
        f"length {len(main)} cells on the road, shortest line {len(short)} cells",
        f"ideal time {ideal['time']} in {plural(ideal['turn_count'], 'turn')} (shakedown, ART.17"
        + (f"; {ideal['attack_seconds']} s won in Big Attack, ART.5" if stage.big_attack else "") + ")",
        f"expected time {format_time(exp_seconds)} ± {stats.sd:.0f} s with the best policy"
        f"{' (Big Attack allowed)' if stage.big_attack else ''} "
        f"(a loss of control in {stats.loss_chance:.0%} of runs, {turns:.1f} turns)"
        + (f"; {purpose}" if purpose else ""),
        *([] if raced else [f"table time about {table_min:.0f} min for {plural(players, 'player')}"]),
        f"variable weather, chance of snow per zone: {zones_snow}; the figures above are for the zones as the "
        f"stage lays them ({_faces(stage)}), the weather table below weighs the roll (ART.15.2)"
        if stage.weather == "variable" else "fixed weather",
    ]
    result["summary"] += cut_and_finish_notes(g, ideal, rules)
    result["not_modelled"] = {"one car": list(R.NOT_PRICED),
                              "several cars (analyze --simulate plays the table)": list(R.SEVERAL_CARS)}
    if raced is not None:           # the table played: what one car leaves out, it simulates
        result["simulated_table"] = raced
        result["not_modelled"] = {"one car": list(R.NOT_PRICED), "several cars": list(T.NOT_SIMULATED)}
        result["summary"] += T.table_lines(raced)
    result.update(rally_notes(stage, box, rules, result))
    if result.get("weather_table"):
        result["summary"].append("variable weather: " + result["weather_table"]["text"])
    elif stage.weather == "variable":
        result["summary"].append("variable weather: no table of every weather and tyre choice for a course this "
                                 "long or of more than three zones (its work is capped)")
    return result
