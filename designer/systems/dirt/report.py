"""The DIRT analysis as text, for the command line: totals, then the fastest line turn by turn."""
from __future__ import annotations


def text_report(result: dict) -> str:
    """The analysis as text: totals, then the fastest line turn by turn."""
    est = result.get("estimate", {})
    fl = result.get("fastest_line") or {}
    sl = result.get("shortest_line") or {}
    stage = result.get("stage")
    name = stage.get("name", "") if isinstance(stage, dict) else str(stage or "")
    out = [name,
           *_expected_lines(result.get("expected")),
           f"  length: {sl.get('cells', '?')} cells on the shortest line, {fl.get('cells', '?')} on the fastest",
           f"  fastest line: {fl.get('time', '?')} game time in {fl.get('turns', '?')} turns "
           f"(hazards not rolled; worst turn {100 * (fl.get('max_turn_loss_of_control_chance') or 0):.0f}% loss of control)",
           f"  table time: about {est.get('table_minutes', '?')} min for {est.get('players', '?')} players "
           f"(rulebook guidance {est.get('rulebook_guidance_minutes', '-')} min for 4)"]
    out += [f"  note: {note}" for note in result.get("notes") or []]      # laps and the joker, tokens, risk budget
    safe = result.get("safe_line")
    if safe:
        out.append(f"  within the risk budget {safe.get('max_risk')}: {safe.get('time')} in {safe.get('turns')} turns")
    if result.get("table"):
        from designer.systems.dirt.dice.table import table_lines

        out += table_lines(result["table"])
    out.append("")
    out.append("  (cells are written tile:cell, tiles counted from 1 in driving order, as on the drawing)")
    out.append(f"  {'turn':>4}  {'from':8} {'to':8} {'cells':>5}  {'end gear':>8}  {'card':>5}  {'risk':>5}  dice (gear after each)")
    for t in fl.get("turn_list", []):
        dice = " ".join(f"{'+'.join(d.replace('gear', 'G') for d in st['dice'])}>{st['gear']}" for st in t["steps"])
        out.append(f"  {t['turn']:>4}  {cell_name(t['start']):8} {cell_name(t['end']):8} {t['cells']:>5}  "
                   f"{t['gear']:>8}  {t['seconds']:>4}s  "
                   f"{100 * t['loss_of_control_chance']:>4.0f}%  {dice}")
    out += _policy_lines(result.get("expected"))
    out.append("")
    out.append("  --json gives the cell graph and every move, to check against the rules, and the policy at every "
               "turn boundary.")
    return "\n".join(out)


def _expected_lines(exp: dict | None) -> list[str]:
    """The expected time under the dice as the headline, the ideal (shakedown) time beside it."""
    if not exp:
        return []
    out = [f"  expected time: {exp['time']} ({exp['seconds']:.1f} s, sd {exp['sd']:.1f} s, 10-90% "
           f"{exp.get('p10_seconds', '?')}-{exp.get('p90_seconds', '?')} s) in {exp['turns']:.1f} turns"
           f"  |  ideal {exp.get('ideal_time') or '?'} (shakedown, hazards not rolled)",
           f"  under the dice: {100 * exp['loss_of_control_chance']:.0f}% chance of a loss of control"
           f"{'; leader dice (a car alone on the stage)' if exp.get('leader') else ''}"
           + (f"; failed Big Attacks: {str(exp['big_attack_failure']).replace('_', ' ')}"
              if exp.get("big_attack_failure") else "")
           + _damage_words(exp.get("bounds") or {})]
    if below_ideal(exp):
        out.append(f"  below the ideal: the seconds tokens a Big Attack earns come off the time "
                   f"({exp['seconds']:.1f} s against {exp['ideal_seconds']} s); the shakedown rolls no dice and "
                   "earns none")
    costly = exp.get("costliest_tiles") or []
    if costly:
        out.append("  costliest tiles (expected seconds of turns started there): "
                   + ", ".join(f"{t['tile']} #{t['index'] + 1} {t['expected_seconds']:.0f}s" for t in costly[:3]))
    assumed = [k for k, v in (exp.get("assumed") or {}).items() if v.get("status") == "assumed"]
    if assumed:
        out.append(f"  expected time rests on assumed values: {', '.join(assumed)}")
    return out


def below_ideal(exp: dict) -> bool:
    """Whether the expected time is below the ideal (shakedown) time: Big Attack tokens take seconds off, which a
    shakedown, rolling no dice, never earns (the ideal is no floor)."""
    ideal = exp.get("ideal_seconds")
    return ideal is not None and exp.get("seconds") is not None and exp["seconds"] < ideal


def cell_name(node: str) -> str:
    """A cell of the assembled graph (``"3:a1"``: tile index from 0) as players count tiles (``"4:a1"``).

    >>> cell_name("0:s2b"), cell_name("start")
    ('1:s2b', 'start')
    """
    tile, sep, cell = str(node).partition(":")
    return f"{int(tile) + 1}{sep}{cell}" if sep and tile.isdigit() else str(node)


MODES = {"roll": "one by one", "attack": "Big Attack", "spare": "spare wheel"}


def _policy_lines(exp: dict | None) -> list[str]:
    """The best policy along the most likely run: mode, dice and when to stop or secure."""
    if not exp or not exp.get("policy"):
        return []
    out = ["", "  best policy under the dice (most likely run):",
           f"  {'turn':>4}  {'from':8} {'gear':>4} {'tokens':>6}  {'how':11} {'risk':>5}  dice (gear after each); "
           f"stop/secure rule"]
    for t in exp["policy"]:
        dice = " ".join(f"{'+'.join(d.replace('gear', 'G') for d in st['dice'])}>{st['gear']}" for st in t["plan"])
        rule = []
        for i, before in enumerate(t.get("before_each_die") or []):
            acts = [f"{a} at {h}" for h, a in sorted(before.items()) if a != "roll"]
            if acts and i > 0:
                rule.append(f"die {i + 1}: {', '.join(acts)} hazards")
        how = MODES.get(t["mode"], t["mode"])
        out.append(f"  {t['turn']:>4}  {cell_name(t['cell']):8} {t['gear']:>4} {t['tokens']:>6}  {how:11} "
                   f"{100 * t['loss_of_control_chance']:>4.0f}%  {dice}" + (f"; {'; '.join(rule)}" if rule else ""))
    return out


def damage_bound_turns(bounds: dict) -> tuple[float | None, bool]:
    """From an expected time's ``bounds``: the turns it expects with every tracked damage token drawn (None when
    it does not say) and whether no more tokens were tracked for memory (the last solve's ``stop``)."""
    turns = bounds.get("turns_at_damage_bound")
    held = ((bounds.get("damage_steps") or [{}])[-1]).get("stop") == "memory"
    return (turns if isinstance(turns, (int, float)) else None), held


def _damage_words(bounds: dict) -> str:
    """The damage tokens the expected time tracks and the turns it expects at that bound, when the result says."""
    if bounds.get("max_damage") is None:
        return ""
    turns, held = damage_bound_turns(bounds)
    if turns is None:
        return f"; damage tokens tracked: {bounds['max_damage']}"
    last = (bounds.get("damage_steps") or [{}])[-1]
    why = (f" (a road of {last['road_cells']} cells, lanes counted, over the {last['road_cells_cap']} on which more "
           "are tracked)") if held and last.get("road_cells") else ""
    return (f"; damage tokens tracked: {bounds['max_damage']} ({turns:.2f} turns expected with all of them drawn"
            + (f"; no more tracked, for memory{why}: later damage would add to the figure" if held else "") + ")")
