"""Several classic Rallyman cars on one stage (:func:`simulate_table`), as ``tilesets/classic/classic-table-rules.yaml``
reads the rulebook: the staggered start (ART.3.3), the order of play by the cars' places on the road (ART.3.4),
the car opening the road taking the orange gas dice on gravel (ART.20), cells that hold one car in a corner and
as many as their lanes elsewhere (ART.12: a die towards a full cell is not played and the turn ends there), and
the cut cards of gravel cuts, cleaned for good by a good card (ART.21), drawn and counted per car.

Each car plays the single-car policy (:mod:`.policy`), solved for the leader car and for the others. Per seat:
the stage time's mean, spread and interval, the chance of being blocked, turns, turns leading, cut cards drawn.
Not simulated: the time-control penalties between stages (ART.22: a choice of each player, no rally here), and
what a dirty cut or a puncture costs (counted only, as the single-car times leave them out).
"""
from __future__ import annotations

import math
import random
from pathlib import Path

import numpy as np

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.racing.mdp import Outcome
from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice import policy as P
from designer.systems.classic.dice.attack import cut_card

RULES_FILE = Path(__file__).resolve().parents[4] / "tilesets" / "classic" / "classic-table-rules.yaml"
STATUSES = ("rulebook", "reference", "assumed", "decided")
KEYS = ("start_stagger_rounds", "play_order", "leader", "cell_capacity", "blocked_move", "stalled_card_gear",
        "cut_cards", "policy")
MAX_PLAYERS, MAX_RUNS, MAX_ROUNDS = 6, 100_000, 400
NOT_SIMULATED = ("what a dirty cut and a puncture cost the cars (ART.9.3, ART.21: the cards are counted only)",
                 "time-control penalty bids between stages (ART.22)",
                 "a Big Attack plan laid through a car (the plan is rolled as laid)")


def load_table_rules(path: str | Path | None = None) -> dict:
    """The table parameters: name -> {value, status, source}; every problem said with its line."""
    p = Path(path) if path else RULES_FILE
    data, lines = yamlio.load(p)
    problems = []
    if not isinstance(data, dict):
        raise DesignerError("a table rules file is a YAML mapping", where=f"{p}:1", hint=f"see {RULES_FILE.name}")
    for k in KEYS:
        item = data.get(k)
        if not isinstance(item, dict) or "value" not in item:
            problems.append(((k,), "missing: write it as {value: ..., status: ..., source: ...}"))
        elif item.get("status") not in STATUSES or not item.get("source"):
            problems.append(((k,), "needs a status (rulebook, reference, assumed, decided) and a source"))
    for k in ("start_stagger_rounds", "stalled_card_gear"):
        v = (data.get(k) or {}).get("value") if isinstance(data.get(k), dict) else None
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 6):
            problems.append(((k, "value"), "a whole number from 0 to 6"))
    unknown = [k for k in data if k not in KEYS and k != "table"]
    problems += [((k,), f"unknown parameter; known: {', '.join(KEYS)}") for k in unknown]
    if problems:
        raise yamlio.schema_error(str(p), lines, problems, "table rules", hint=f"compare with {RULES_FILE.name}")
    return {k: {"value": data[k]["value"], "status": data[k]["status"], "source": data[k]["source"]} for k in KEYS}


class ClassicTable:
    """A stage's two policies (leader and not) and what the table reads of its cells."""

    def __init__(self, g, rules, tyres: str = "asphalt", big_attack: bool = False, table_rules: dict | None = None):
        self.g, self.rules = g, rules
        self.table_rules = table_rules or load_table_rules()
        self.lead = P.solve_stage(g, rules, M.Car(tyres=tyres, leader=True), big_attack)
        self.other = P.solve_stage(g, rules, M.Car(tyres=tyres, leader=False), big_attack)
        model = self.other[0]
        self.order = model.order
        self.capacity = {n: (1 if d.get("corner") else int(d.get("lanes") or 1)) for n, d in g.nodes(data=True)}
        self.capacity["start"] = self.capacity["finish"] = MAX_PLAYERS
        self.gravel_cut = {n: d.get("corner") for n, d in g.nodes(data=True)
                           if d.get("lane") == "cut" and d.get("surface") == "gravel"}
        self.stall = int(self.table_rules["stalled_card_gear"]["value"])

    def _walk(self, model, state, held: dict, rng, clean: set, cuts: list):
        """One turn of the policy with dice, a die towards a full cell not played (the turn ends there)."""
        S = model._of(state)
        g, rules = S.g, S.rules
        dmg = S.car.damage
        ts, hz, hz_snow = M.TurnState(state[0], state[1]), 0, 0
        while True:
            _, action = S._within(ts, hz, hz_snow)
            if action in ("stop", None):
                return Outcome(1.0, rules.card(ts.gear), (ts.node, ts.gear, dmg), 0), False
            die, to = action
            if to != "finish" and held.get(to, 0) >= self.capacity[to]:
                card = rules.card(ts.gear) if ts.gear else rules.card(self.stall)
                return Outcome(1.0, card, (ts.node, ts.gear, dmg), 0, False, "blocked"), True
            s = M.step(g, rules, S.car, ts, die, to)
            nxt = M.apply(g, rules, S.car, ts, die, to)
            nxt.steps = [s]
            if to in self.gravel_cut:
                self._cut(to, rng, clean, cuts)
            marked = rng.random() < S._p(die, to)
            h, hs = hz + marked, hz_snow + (marked and model._snow(s.to))
            if s.event == "finish":
                return Outcome(1.0, rules.card(nxt.gear), P.FINISH, 0), False
            if marked and (S._lost(s.to, h, hs) or s.risk in ("double", "bump")):
                return model._loss(S, 1.0, rules.loss_seconds, s.to), False
            if marked and s.risk == "ford":
                return Outcome(1.0, rules.card(nxt.gear), (s.to, nxt.gear, dmg), 0), False
            ts, hz, hz_snow = nxt, h, hs

    def _cut(self, cell, rng, clean: set, cuts: list):
        """A cut card drawn on a gravel cut not yet clean (ART.21): counted; a good card cleans it for good."""
        corner = self.gravel_cut[cell]
        if corner in clean:
            return
        r, acc, card = rng.random(), 0.0, "puncture"
        for name in ("good", "dirty", "puncture"):
            acc += self.rules.cut_card.get(name, 0.0)
            if r < acc:
                card = name
                break
        _car, _dirt, now = cut_card(M.Car(), corner, card, "gravel", frozenset(clean))
        clean.update(now)
        cuts[0] += 1
        cuts[1] += card == "dirty"
        cuts[2] += card == "puncture"

    def race(self, n: int, rng):
        """One race: per car seconds, turns, blocked turns, turns led, cut cards (drawn, dirty, punctures)."""
        state = [None] * n
        secs, turns, blocked, led = [0.0] * n, [0] * n, [0] * n, [0] * n
        cuts = [[0, 0, 0] for _ in range(n)]
        arrival = list(range(n))
        clean: set = set()
        stagger = int(self.table_rules["start_stagger_rounds"]["value"])
        done, finished_any, rounds = 0, False, 0
        order_of = self.order
        while done < n:
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise DesignerError("a simulated race did not finish", hint="check the stage's speed limits")
            on = [k for k in range(n) if state[k] is not None and state[k] is not P.FINISH]
            on.sort(key=lambda k: (-order_of[state[k][0]], -state[k][1], arrival[k]))
            waiting = [k for k in range(n) if state[k] is None and rounds - 1 >= k * stagger]
            for i, k in enumerate(on + waiting):
                held: dict = {}
                for o in range(n):
                    if o != k and state[o] is not None and state[o] is not P.FINISH:
                        held[state[o][0]] = held.get(state[o][0], 0) + 1
                leading = i == 0 and not finished_any
                model, solution, _ = self.lead if leading else self.other
                s = state[k] if state[k] is not None else model.start
                decision = solution.decision(s, 0)
                if isinstance(decision, P.Roll):
                    o, was = self._walk(model, s, held, rng, clean, cuts[k])
                else:                       # a Big Attack plan is laid before the roll: not checked for cars
                    o, was = P.Player(model).play(s, 0, decision, rng, None), False
                secs[k] += o.seconds
                turns[k] += 1
                blocked[k] += was
                led[k] += leading
                if o.state[0] != s[0]:
                    arrival[k] = rounds * n + i
                state[k] = o.state
                if model.terminal(o.state) is not None:
                    state[k] = P.FINISH
                    done += 1
                    finished_any = True
        return secs, turns, blocked, led, cuts, rounds


def simulate_table(g, rules, players: int = 4, runs: int = 1000, seed: int | None = 0, tyres: str = "asphalt",
                   big_attack: bool = False, table: ClassicTable | None = None) -> dict:
    """Race ``players`` cars ``runs`` times on a classic course graph; seeded; JSON-ready, per seat."""
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise DesignerError(f"a table races 1 to {MAX_PLAYERS} cars, not {players}", hint="e.g. --players 4")
    if not 1 <= int(runs) <= MAX_RUNS:
        raise DesignerError(f"{runs} is not a number of simulated races", hint=f"give 1 to {MAX_RUNS}, e.g. 1000")
    table = table or ClassicTable(g, rules, tyres, big_attack)
    rng = random.Random(seed)
    n = players
    out = np.zeros((7, n, runs))
    rounds = np.zeros(runs)
    for r in range(runs):
        secs, turns, blocked, led, cuts, rounds[r] = table.race(n, rng)
        out[:4, :, r] = [secs, turns, blocked, led]
        out[4:, :, r] = np.array(cuts).T
    seats = []
    for k in range(n):
        x = out[0, k]
        sd = float(x.std(ddof=1)) if runs > 1 else 0.0
        half = 1.96 * sd / math.sqrt(runs) if runs > 1 else 0.0
        seats.append({"seat": k + 1, "expected_seconds": round(float(x.mean()), 3), "sd": round(sd, 3),
                      "ci95": [round(float(x.mean()) - half, 3), round(float(x.mean()) + half, 3)],
                      "blocked_chance": round(float((out[2, k] > 0).mean()), 4),
                      "turns": round(float(out[1, k].mean()), 3), "turns_led": round(float(out[3, k].mean()), 3),
                      "cut_cards": round(float(out[4, k].mean()), 3), "dirty_cuts": round(float(out[5, k].mean()), 3),
                      "punctures": round(float(out[6, k].mean()), 3)})
    lead_value = table.lead[1].value(table.lead[0].start)
    other_value = table.other[1].value(table.other[0].start)
    return {"players": n, "runs": runs, "seed": seed, "seats": seats, "rounds": round(float(rounds.mean()), 3),
            "table_turns": round(float(out[1].sum(axis=0).mean()), 3),
            "table_minutes": round(float(out[1].sum(axis=0).mean()) * rules.table_seconds / 60, 1),
            "table_minutes_formula": "simulated turns of all cars * table_seconds (classic-rules.yaml) / 60",
            "single_car_expected_seconds": {"leader": round(lead_value, 3), "not_leader": round(other_value, 3)},
            "assumed": table.table_rules}


def table_lines(d: dict) -> list[str]:
    """A simulated table as summary lines."""
    out = [f"{d['players']} cars raced {d['runs']} times: {d['rounds']:.1f} rounds, {d['table_turns']:.1f} turns at "
           f"the table, about {d['table_minutes']:.0f} min"]
    for s in d["seats"]:
        out.append(f"  seat {s['seat']}: {s['expected_seconds']:.1f} s ± {s['sd']:.0f}, blocked in "
                   f"{s['blocked_chance']:.0%} of races, {s['turns']:.1f} turns ({s['turns_led']:.1f} leading), "
                   f"{s['cut_cards']:.2f} cut cards")
    return out
