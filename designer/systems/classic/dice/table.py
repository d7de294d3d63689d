"""Several classic Rallyman cars on one stage (:func:`simulate_table`), as ``tilesets/classic/classic-table-rules.yaml``
reads the rulebook:

- the staggered start (ART.3.3) and the order of play by the cars' places on the road (ART.3.4);
- the car opening the road takes the orange gas dice on gravel (ART.20), and a car that passes it takes them
  over at once, for the rest of its turn;
- overtaking (ART.12): a cell of a corner holds one car, any other cell as many as its lanes, so a car passes
  another on a straight with room, or by the cut beside the inside line and drift (different cells); where the
  policy's die leads to a full cell the driver plays the best other die or lane to a free cell, or ends the turn,
  by the single-car values; with no move left the turn ends with the card of the gear engaged (blocked). A car
  that lost control holds no cell until its next turn when it went off the road, and blocks its whole corner when
  it spun
  (the ruleset's ``spin_chance``: the back of the loss card, drawn as the single-car model draws it);
- cut cards (ART.9.3, ART.21) priced for every car: a puncture costs the car that draws it a gas die (its
  spare wheel may repair it), a dirty cut lowers the corner's notes by one for every car that comes after (their
  policy is solved again for the notes they meet), a good card on gravel cleans the cut for them (no card).

Each car plays the single-car policy (:mod:`.policy`) of the car it is at that moment: leader or not, with the
dirt and clean cuts the others left ahead of it, its punctures, spare wheel and SISU card. Per seat: the stage
time's mean, spread and interval, the chance of being blocked, turns, turns leading, passes, cut cards, dirty
cuts and punctures. :mod:`.rally_table` races a rally's stages with the time-control penalties (ART.22).
"""
from __future__ import annotations

import random
from dataclasses import replace
from pathlib import Path

import networkx as nx
import numpy as np

from designer.core import yamlio
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.racing.simulate import mean_sd_ci95
from designer.systems.classic.dice import moves as M
from designer.systems.classic.dice import policy as P
from designer.systems.classic.dice.expected import FINISH_AT, Solver

RULES_FILE = Path(__file__).resolve().parents[4] / "tilesets" / "classic" / "classic-table-rules.yaml"
STATUSES = ("rulebook", "reference", "assumed", "decided")
KEYS = ("start_stagger_rounds", "play_order", "leader", "cell_capacity", "blocked_move", "stalled_card_gear",
        "cut_cards", "own_cut_cards", "time_control_bid", "policy")
MOVED = {"spin_chance": "the ruleset (classic-rules.yaml), where the expected time of one car reads it too"}
MAX_PLAYERS, MAX_RUNS, MAX_ROUNDS = 6, 100_000, 400
BIDS = ("none", "avoid-opening")
NOT_SIMULATED = ("a Big Attack plan laid through a car (the plan is rolled as laid; its cut cards price its own "
                 "punctures but leave no dirt or clean cut for the others)",
                 "a car crosswise on a drift half-cell blocking the road (ART.18)",
                 "a car restarting into the cut after leaving the road towards it (ART.7.4)")


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
    for key, allowed in (("cut_cards", ("priced", "counted-not-priced")), ("time_control_bid", BIDS)):
        v = data[key].get("value") if isinstance(data.get(key), dict) else None
        if v is not None and v not in allowed:
            problems.append(((key, "value"), f"one of {', '.join(allowed)}"))
    for k in ("start_stagger_rounds", "stalled_card_gear"):
        v = (data.get(k) or {}).get("value") if isinstance(data.get(k), dict) else None
        if v is not None and (isinstance(v, bool) or not isinstance(v, int) or not 0 <= v <= 6):
            problems.append(((k, "value"), "a whole number from 0 to 6"))
    unknown = [k for k in data if k not in KEYS and k != "table"]
    problems += [((k,), f"moved to {MOVED[k]}" if k in MOVED else f"unknown parameter; known: {', '.join(KEYS)}")
                 for k in unknown]
    if problems:
        raise yamlio.schema_error(str(p), lines, problems, "table rules", hint=f"compare with {RULES_FILE.name}")
    return {k: {"value": data[k]["value"], "status": data[k]["status"], "source": data[k]["source"]} for k in KEYS}


class Seat:
    """One car at the table: where it is, its car (damage, punctures, cards), its seconds held and its tally."""

    def __init__(self, kit: M.Car):
        self.kit, self.at, self.bank = kit, None, 0      # at: None before the start, (cell, gear), or FINISH
        self.lost = None                                 # (cell, spun) from a loss of control until its next turn
        self.seconds = 0.0
        self.tally = dict.fromkeys(TALLY, 0)


TALLY = ("turns", "blocked", "led", "lead_taken", "cut_cards", "dirty_cuts", "punctures", "passes", "spins", "sisu",
         "spares")


class ClassicTable:
    """A stage's solvers (one family: the leader and the others, with the dirt and clean cuts other cars left,
    punctures and cards) and what the table reads of its cells."""

    def __init__(self, g, rules, tyres: str = "asphalt", big_attack: bool = False, table_rules: dict | None = None,
                 sisu: bool = False):
        self.g, self.rules = g, rules
        self.table_rules = table_rules or load_table_rules()
        self.root = Solver(g, rules, M.Car(tyres=tyres, sisu=sisu), big_attack)
        self.lead = P.solve_stage(g, rules, M.Car(tyres=tyres, leader=True, sisu=sisu), big_attack)
        self.other = P.solve_stage(g, rules, M.Car(tyres=tyres, leader=False, sisu=sisu), big_attack)
        self.order = self.other[0].order
        # cells still to drive to the finish: a car passes another only when it stands a cell further (ART.20,
        # "il avance une case plus loin que lui"), not beside it on another lane of the same corner
        self.to_go = nx.single_source_shortest_path_length(g.reverse(copy=False), "finish")
        self.capacity = {n: (1 if d.get("corner") else int(d.get("lanes") or 1)) for n, d in g.nodes(data=True)}
        self.capacity["start"] = self.capacity["finish"] = MAX_PLAYERS
        self.corner_of = {n: d.get("corner") for n, d in g.nodes(data=True) if d.get("corner")}
        self.corner_cells: dict = {}
        for n, c in self.corner_of.items():
            self.corner_cells.setdefault(c, []).append(n)
        self.corner_end = {c: max(self.order[n] for n in cells) for c, cells in self.corner_cells.items()}
        self.gravel_cut = {n: c for n, c in self.corner_of.items()
                           if g.nodes[n].get("lane") == "cut" and g.nodes[n].get("surface") == "gravel"}
        self.stall = int(self.table_rules["stalled_card_gear"]["value"])
        self.dirt_counts = self.table_rules["cut_cards"]["value"] == "priced"

    # -- the car a seat drives this turn -------------------------------------------------------------
    def solver(self, seat: Seat, leading: bool, dirt: list, clean: list) -> Solver:
        """The seat's solver: leader or not, with the dirt and clean cuts other cars left on corners ahead."""
        here = self.order[seat.at[0]] if seat.at and seat.at is not P.FINISH else -1
        mine = id(seat)
        d: dict = {}
        for corner, who in dirt:
            if who != mine and self.corner_end[corner] >= here:
                d[corner] = d.get(corner, 0) + 1
        c = tuple(sorted({corner for corner, who in clean if who != mine and self.corner_end[corner] >= here}))
        car = replace(seat.kit, leader=leading, dirt=tuple(sorted(d.items())), clean=c)
        hit = self.root.family.get(car)
        return hit if hit is not None else self.root.variant(leader=leading, dirt=car.dirt, clean=c, damage=car.damage,
                                                             punctures=car.punctures, spare=car.spare, sisu=car.sisu)

    def held(self, seats: list, me: Seat) -> dict:
        """Cells the other cars hold (ART.12): a car off the road holds none until its next turn, a car spun in
        a corner ("en tête-à-queue dans un virage") blocks every cell of that corner, one spun elsewhere holds its
        place on its cell as a car standing there does."""
        out: dict = {}
        for o in seats:
            if o is me or o.at is None or o.at is P.FINISH:
                continue
            if o.lost is not None:
                cell, spun = o.lost
                if not spun:
                    continue
                if cell in self.corner_of:
                    for n in self.corner_cells[self.corner_of[cell]]:
                        out[n] = MAX_PLAYERS
                    continue
                out[cell] = out.get(cell, 0) + 1
                continue
            out[o.at[0]] = out.get(o.at[0], 0) + 1
        return out

    # -- one turn ------------------------------------------------------------------------------------
    def turn(self, seat: Seat, S: Solver, held: dict, rng, leader: Seat | None, dirt: list, clean: list):
        """One turn of ``seat`` with the policy of ``S``; returns the solver it ends with."""
        rules = S.rules
        node, gear = seat.at if seat.at is not None else ("start", 0)
        seat.lost = None
        S.value(node, gear, seat.bank)
        how = S.decision[(node, gear, seat.bank)]
        if how == "spare":
            fixed = S.repaired()
            self._end(seat, fixed, rules.spare_wheel_seconds, (node, 0), seat.bank)
            seat.tally["spares"] += 1
            return
        if how != "roll":                  # a Big Attack plan is laid before the roll: not checked for cars
            b = P.pick(S.attack_branches(node, gear, how, seat.bank), rng)
            self._close(seat, S, b, 0.0, b.at[0])
            return
        ts, hz, hs, bank, placed, seconds = M.TurnState(node, gear), 0, 0, seat.bank, 0, 0.0
        while True:
            _, action = S._within(ts, hz, hs, bank, placed)
            if action in ("stop", None):
                self._end(seat, S, seconds + rules.card(ts.gear), (ts.node, ts.gear), bank)
                return
            how, die, to = action
            if self._full(to, held):
                # ART.12: the die planned leads to a full cell; another die or lane where one is free (passing by
                # the cut or the corner), else the move cannot be made: the card of the gear engaged again
                action = self._detour(S, ts, hz, hs, bank, placed, held)
                if action == "stop":
                    self._end(seat, S, seconds + rules.card(ts.gear), (ts.node, ts.gear), bank)
                    return
                if action is None:
                    card = rules.card(ts.gear) if ts.gear else rules.card(self.stall)
                    self._end(seat, S, seconds + card, (ts.node, ts.gear), bank)
                    seat.tally["blocked"] += 1
                    return
                how, die, to = action
            s = M.step(S.g, rules, S.car, ts, die, to)
            nxt = M.apply(S.g, rules, S.car, ts, die, to)
            nxt.steps = [s]
            b = P.pick(S.branches(ts, hz, hs, bank, placed, how, s, nxt, S._p(die, to)), rng)
            if b.card is not None:
                self._card(seat, s.to, b.card, dirt, clean)
            if b.ts is None:
                self._close(seat, S, b, seconds, s.to)
                return
            S, ts, hz, hs, bank, placed = b.solver, b.ts, b.hz, b.hz_snow, b.bank, b.placed
            seconds += b.seconds
            if leader is not None and not S.car.leader and self._ahead(ts.node, leader.at[0]):
                # ART.20: the car that passes the leader takes the orange dice at once
                S = S.variant(leader=True)
                seat.tally["lead_taken"] += 1

    def _full(self, cell: str, held: dict) -> bool:
        return cell != "finish" and held.get(cell, 0) >= self.capacity[cell]

    def _detour(self, S: Solver, ts, hz: int, hs: int, bank: int, placed: int, held: dict):
        """The best of what the policy's values leave when its die leads to a full cell: ending the turn here
        (after a move), or a die to a free cell; None when neither is possible (a move that cannot be made)."""
        full = {to for _die, to, *_ in S._moves(ts) + S._loss_moves(ts) if self._full(to, held)}
        return S.best_action(ts, hz, hs, bank, placed, barred=full)[1]

    def _ahead(self, cell: str, other: str) -> bool:
        """Whether a car on ``cell`` is a cell further than one on ``other`` (fewer cells to the finish)."""
        far = len(self.order) + 1
        return self.to_go.get(cell, far) < self.to_go.get(other, far)

    def _card(self, seat: Seat, cell: str, card: str, dirt: list, clean: list):
        """A cut card drawn (ART.9.3, ART.21): a dirty cut slows the cars behind, a good card on gravel cleans
        the cut for them; counted per car."""
        corner = self.corner_of.get(cell)
        seat.tally["cut_cards"] += 1
        seat.tally["dirty_cuts"] += card == "dirty"
        seat.tally["punctures"] += card == "puncture"
        if card == "dirty" and self.dirt_counts:
            dirt.append((corner, id(seat)))
        elif card == "good" and cell in self.gravel_cut:
            clean.append((corner, id(seat)))

    def _close(self, seat: Seat, S: Solver, b, seconds: float, cell: str):
        """The end of a turn on a branch; a loss of control leaves the car spun on ``cell`` (blocking a corner)
        or off the road (passed freely) until its next turn (ART.7.2, ART.12)."""
        at = P.FINISH if b.at == FINISH_AT else b.at          # retired (a third puncture): out, its 600 s counted
        if b.loss:
            seat.lost = (cell, b.spin)
            seat.tally["spins"] += b.spin
        if b.solver.car.sisu != S.car.sisu:
            seat.tally["sisu"] += 1
        self._end(seat, b.solver, seconds + b.seconds, at, b.bank)

    def _end(self, seat: Seat, S: Solver, seconds: float, at, bank: int):
        seat.seconds += seconds
        seat.tally["turns"] += 1
        seat.at, seat.bank = at, bank
        seat.kit = replace(S.car, leader=False, dirt=(), clean=())

    def place(self, seat: Seat) -> int:
        """How far along the road a car is (before the start -1, past the finish the most)."""
        if seat.at is None:
            return -1
        return 1 << 30 if seat.at is P.FINISH else self.order[seat.at[0]]

    def race(self, n: int, rng, kits: list | None = None) -> tuple[list[Seat], int]:
        """One race of ``n`` cars started in seat order (``kits``: each car as it comes to the start)."""
        seats = [Seat(kits[k] if kits else self.root.car) for k in range(n)]
        dirt: list = []
        clean: list = []
        arrival = list(range(n))
        stagger = int(self.table_rules["start_stagger_rounds"]["value"])
        done, finished_any, rounds = 0, False, 0
        while done < n:
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise DesignerError("a simulated race did not finish", hint="check the stage's speed limits")
            on = [k for k in range(n) if seats[k].at is not None and seats[k].at is not P.FINISH]
            on.sort(key=lambda k: (-self.place(seats[k]), -seats[k].at[1], arrival[k]))
            waiting = [k for k in range(n) if seats[k].at is None and rounds - 1 >= k * stagger]
            play = on + waiting
            first = seats[play[0]] if play and not finished_any else None       # the car opening the road
            for i, k in enumerate(play):
                seat = seats[k]
                leading = seat is first and not finished_any
                leader = first if first is not None and not leading and first.at not in (None, P.FINISH) \
                    and not finished_any else None
                before = [o for o in seats if o is not seat and self.place(o) > self.place(seat)]
                S = self.solver(seat, leading, dirt, clean)
                start, took = seat.at, seat.tally["lead_taken"]
                self.turn(seat, S, self.held(seats, seat), rng, leader, dirt, clean)
                if seat.tally["lead_taken"] > took:
                    first = seat        # it opens the road now: the cars after it this round pass it, not the old one
                seat.tally["led"] += leading
                seat.tally["passes"] += sum(1 for o in before if self.place(o) < self.place(seat))
                if seat.at is P.FINISH or start is None or seat.at[0] != start[0]:
                    arrival[k] = rounds * n + i
                if seat.at is P.FINISH:
                    done += 1
                    finished_any = True
        return seats, rounds


def simulate_table(g, rules, players: int = 4, runs: int = 1000, seed: int | None = 0, tyres: str = "asphalt",
                   big_attack: bool = False, table: ClassicTable | None = None, sisu: bool = False,
                   draw_start: bool = False) -> dict:
    """Race ``players`` cars ``runs`` times on a classic course graph; seeded; JSON-ready, per seat.

    Seat k starts k-th (ART.3.2: the first stage's order is agreed between the drivers); ``draw_start``: the
    order is drawn afresh for each race, so that every seat has the same chances."""
    check_size(players, runs)
    table = table or ClassicTable(g, rules, tyres, big_attack, sisu=sisu)
    rng, draw = random.Random(seed), random.Random(f"order-{seed}")
    n = players
    secs = np.zeros((n, runs))
    tally = {k: np.zeros((n, runs)) for k in TALLY}
    rounds = np.zeros(runs)
    for r in range(runs):
        raced, rounds[r] = table.race(n, rng)
        order = draw.sample(range(n), n) if draw_start else range(n)
        seats = [None] * n
        for pos, k in enumerate(order):
            seats[k] = raced[pos]
        for k, seat in enumerate(seats):
            secs[k, r] = seat.seconds
            for key in TALLY:
                tally[key][k, r] = seat.tally[key]
    seats = [seat_figures(k, secs[k], {key: v[k] for key, v in tally.items()}) for k in range(n)]
    lead_value = table.lead[1].value(table.lead[0].start)
    other_value = table.other[1].value(table.other[0].start)
    turns = tally["turns"].sum(axis=0).mean()
    return {"players": n, "runs": runs, "seed": seed, "seats": seats, "rounds": round(float(rounds.mean()), 3),
            "table_turns": round(float(turns), 3),
            "table_minutes": round(float(turns) * rules.table_seconds / 60, 1),
            "table_minutes_formula": "simulated turns of all cars * table_seconds (classic-rules.yaml) / 60",
            "single_car_expected_seconds": {"leader": round(lead_value, 3), "not_leader": round(other_value, 3)},
            "assumed": {**table.table_rules,
                        "spin_chance": {"value": rules.spin_chance, **rules.sources["spin_chance"]}},
            "not_simulated": list(NOT_SIMULATED)}


def check_size(players, runs) -> None:
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise DesignerError(f"a table races 1 to {MAX_PLAYERS} cars, not {players}", hint="e.g. --players 4")
    if not 1 <= int(runs) <= MAX_RUNS:
        raise DesignerError(f"{runs} is not a number of simulated races", hint=f"give 1 to {MAX_RUNS}, e.g. 1000")


def seat_figures(k: int, x: np.ndarray, tally: dict) -> dict:
    """One seat's figures over the races: the time's mean, spread and 95% interval, and its tally's means."""
    m, sd, ci = mean_sd_ci95(x)
    out = {"seat": k + 1, "expected_seconds": m, "sd": sd, "ci95": ci,
           "blocked_chance": round(float((tally["blocked"] > 0).mean()), 4)}
    names = {"turns": "turns", "led": "turns_led", "lead_taken": "lead_taken", "passes": "passes",
             "cut_cards": "cut_cards", "dirty_cuts": "dirty_cuts", "punctures": "punctures", "spins": "spins",
             "sisu": "sisu_played", "spares": "spare_wheels"}
    for key, name in names.items():
        if key in tally:
            out[name] = round(float(tally[key].mean()), 3)
    return out


def table_lines(d: dict) -> list[str]:
    """A simulated table as summary lines."""
    out = [f"{plural(d['players'], 'car')} raced {plural(d['runs'], 'time')}: {d['rounds']:.1f} rounds, "
           f"{d['table_turns']:.1f} turns at "
           f"the table, about {d['table_minutes']:.0f} min"]
    for s in d["seats"]:
        out.append(f"  seat {s['seat']}: {s['expected_seconds']:.1f} s ± {s['sd']:.0f}, blocked in "
                   f"{s['blocked_chance']:.0%} of races, {s['turns']:.1f} turns ({s['turns_led']:.1f} leading), "
                   f"{s['passes']:.2f} cars passed, {s['cut_cards']:.2f} cut cards ({s['dirty_cuts']:.2f} dirty, "
                   f"{s['punctures']:.2f} punctures)")
    return out
