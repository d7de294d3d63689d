"""The expected stage time of a DIRT stage as a result: solve, follow the policy, say what it rests on.

:func:`expected_time` returns an :class:`ExpectedTime`; its :meth:`~ExpectedTime.to_dict` is the ``expected``
key of the analysis JSON. Keys (all times in game seconds):

- ``seconds`` (also ``expected_seconds``), ``time``: expected stage time of the best policy (cards minus seconds
  tokens left); ``sd``: its standard deviation; ``p10_seconds``, ``p50_seconds``, ``p90_seconds``: quantiles of its
  exact distribution; ``turns``: expected number of turns (for the table time);
- ``loss_of_control_chance``: chance of at least one loss of control; ``expected_losses``: their mean number;
- ``ideal_seconds``, ``ideal_time``: the shakedown line (hazards not rolled, no seconds tokens), for comparison.
  It is not a floor of the expected time: the expected time takes the seconds tokens kept to the finish off
  the time (p. 20), and Big Attacks earn them, so a short stage can come out below its ideal;
- ``big_attack_failure``: where a failed Big Attack's loss of control lies (the stage option of that name:
  ``achievable``, the default and the rulebook's reading, wherever the rolled dice laid again on a legal route
  first reach the limit, at least cost; ``as_laid``, on the step whose dice first reach the hazard limit;
  ``latest``, at any later point of the plan);
- ``leader``: planned with the leader dice (a car alone on the stage is always the leader);
- ``bounds``: what the solver tracks (tokens, dice secured per turn, damage of each kind);
- ``assumed``: every parameter the figure rests on, with its value, status and source;
- ``policy``: the turns of the most likely run, each with its boundary (cell, gear, tokens, damage), the mode
  (``roll`` one by one, ``attack``, ``spare``), the plan die by die and, for one by one, what to do before
  each die by hazards already shown (``roll``, ``secure`` or ``stop``);
- ``decisions``: the decision at every turn boundary the policy reaches with a chance of 0.1 % or more
  (``decisions_min_chance``; 0 with ``analyze --all-decisions``: every boundary it can reach, to replay it in every
  run; ``decisions_left_out_chance``: the expected turns started at the boundaries left out): ``cell``, ``gear``, ``tokens``, ``damage``, ``sisu_token``, ``chance``, ``mode``, ``dice``,
  ``cells`` and, one by one, ``before_each_die`` (as in ``policy``) and ``before_each_die_after_securing``
  (keys ``"hazards/k"`` once k dice are secured, for every k up to ``bounds.max_secured`` from the second die on,
  the tokens then held being the boundary's minus 1 + ... + k), and for a Big Attack under the reading achievable
  ``failures_laid``: each point (``cell``, ``gear``, ``past_finish``) where its failing dice are laid again, with
  its ``chance`` (what a replay needs besides the dice);
- ``tiles``: per road tile (in driving order) the expected seconds of the turns started on it and the chance
  of a loss of control there, most expensive first in ``costliest_tiles``.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from designer.core.errors import DesignerError
from designer.core.scratch import scratch
from designer.racing.course import format_time
from designer.racing.mdp import PolicyStats, Solution, quantile, solve
from designer.systems.dirt.dice.mishaps import Mishaps, load_mishaps
from designer.systems.dirt.dice.player import DicePlayer
from designer.systems.dirt.dice.sweep import sweep
from designer.systems.dirt.dice.turn_model import FIN, DirtModel
from designer.systems.dirt.driving.ruleset import Ruleset

# The largest road (in cells) whose expected time is solved: memory grows about 1.1 MB a cell (a 60-tile generated
# stage of 575 cells: 6.3 s CPU and 0.6 GB; a 100-tile one of 972 cells: 12.6 s and 1.1 GB; 150 tiles, 1,460 cells:
# 20.5 s and 1.6 GB; measured with benchmarks/bench_expected_size.py), so a road of this size stays near 0.85 GB,
# under the bound of 1.5 GB; a longer one is refused before any work.
MAX_CELLS = 750
# Under the reading as_laid the plan search keeps every order of the dice that fails differently (about 12 times the
# plans): a 40-tile generated stage of 380 cells takes 8.7 s of CPU and 1.2 GB, a 60-tile one of 575 cells 21 s and
# 2.7 GB (benchmarks/bench_expected_size.py with the option set), so that reading has a cap of its own.
MAX_CELLS_AS_LAID = 400
# Damage tokens tracked (``max_damage`` of the ruleset's expected_bounds, 2 by default) cost memory in proportion: two
# tokens take about 2.4 times the states of one (a 40-tile generated stage of 380 cells: 1.06 GB against 0.52 GB; 60
# tiles, 575 cells: 1.96 GB; as laid, an RX demo of 3 laps, 273 cells: 1.25 GB). On a road longer than this (the
# longest rulebook stage has 155 cells, a generated stage about 9.5 a tile), one token is tracked, the bound named in
# the result, so that every admitted road stays under 1.5 GB and a 40-tile stage near 0.5 GB.
DAMAGE_CELLS = 300
# One more damage token tracked roughly doubles the states, at about 15-20 KB each at the peak (Rally 3 SS2: 14,079
# states with two tokens, 27,751 with three; Rally 2 SS1 with four: 39,627 states, 0.61 GB; the RX demo with a joker
# with three: 45,135, 0.70 GB; a generated 25-tile stage of 251 cells with three: 49,492, 0.96 GB): a stage is
# solved again with one more token only while twice its states stay under this, about 1.2 GB. Under the reading
# as_laid a state takes about three times the memory (Rally 2 SS1 with three tokens: 23,022 states, 1.16 GB; the RX
# joker demo with two: 22,913, 1.08 GB), so it has a bound of its own.
DAMAGE_STATES = 70_000
DAMAGE_STATES_AS_LAID = 25_000
DECISIONS_MIN_CHANCE = 1e-3   # the JSON's decisions: boundaries reached this often (analyze --all-decisions: all)
RULE_KEYS = ("time_card", "loss_of_control_seconds", "dashboards", "hazard_faces", "hazard_limit")


@dataclass
class ExpectedTime:
    """The expected time of a stage under the dice and the policy that achieves it."""
    model: DirtModel
    solution: Solution
    starts: list
    stats: PolicyStats
    ideal: object                 # the shakedown line's seconds (int or None), or a function that works it out
    leader: bool
    rules: Ruleset
    mishaps: Mishaps
    extra: dict = field(default_factory=dict)
    damage_steps: list = field(default_factory=list)   # each solve's damage bound (:meth:`damage_bound`)
    extra_cache: dict = field(default_factory=dict, repr=False)

    @property
    def seconds(self) -> float:
        return self.stats.seconds

    def release(self) -> None:
        """Drop the tables the solve built to decide every state (most of the memory a solved stage holds: Rally 3
        SS2 355 MB, 30 MB after). The values, decisions and statistics stay; what a later question needs (a race,
        the policy) is worked out again when asked, to the same numbers. A whole rally raced at the table keeps
        two solved policies per stage alive, so it releases each once solved."""
        self.model.release_all()
        self.solution.release()

    @property
    def ideal_seconds(self) -> int | None:
        """The shakedown line's time (hazards not rolled, no tokens), worked out when first asked for when the
        caller did not give it (the analysis has its line already)."""
        if callable(self.ideal):
            self.ideal = self.ideal()
        return self.ideal

    @property
    def start(self):
        return min(self.starts, key=lambda s: self.solution.value(s, 0))

    def simulate(self, runs: int = 1000, seed: int | None = 0):
        """Play the policy ``runs`` times with dice (:func:`designer.racing.simulate.simulate`)."""
        from designer.racing.simulate import simulate

        return simulate(self.solution, DicePlayer(self.model), self.starts, runs=runs, seed=seed)

    # -- the policy as data ----------------------------------------------------------------------
    def _boundary(self, state, bank) -> dict:
        names = self.model.road.nodes
        cell, gear, damage = state
        return {"cell": names[cell], "gear": gear, "tokens": bank,
                "damage": {"gear": damage[0], "gas": damage[1], "brake": damage[2], "spare_used": bool(damage[3])},
                "sisu_token": bool(damage[4])}

    def _plan(self, state, decision) -> list[dict]:
        if decision.mode not in ("roll", "attack"):
            return []
        ps = self.model.plans(state[0], state[1], state[2])
        names = self.model.road.nodes
        return [{"dice": list(dice), "cells": [names[c] for c in path], "gear": g, "events": list(events)}
                for dice, path, g, events in ps.steps[decision.plan]]

    def _rules(self, state, bank, decision) -> list[dict]:
        """For one by one: before each die, what to do with 0, 1, ... hazards shown (nothing secured yet)."""
        model = self.model
        replay = model.single(state, decision, self.solution._vector)[3]
        out = []
        for i in range(replay.length):
            out.append({str(h): replay.choice(i, h, 0, bank) for h in range(model.limit)})
        return out

    def _secured_rules(self, state, bank, decision) -> list[dict]:
        """The same once k >= 1 dice are secured (tokens then held: bank - (1 + ... + k)); keys "hazards/k".
        Every k up to the bound, whatever the die's index: a secured brake move secures its 2-4 dice at once."""
        model = self.model
        replay = model.single(state, decision, self.solution._vector)[3]
        out = []
        for i in range(replay.length):
            row = {}
            for k in range(1, model.K + 1) if i else ():
                t = bank - k * (k + 1) // 2
                if t < 0:
                    break
                for h in range(model.limit):
                    row[f"{h}/{k}"] = replay.choice(i, h, k, t)
            out.append(row)
        return out

    def policy(self, max_turns: int = 200) -> list[dict]:
        """The turns of the most likely run: at each boundary the decision, then its most likely outcome."""
        sol, model = self.solution, self.model
        s, b = self.start, 0
        out = []
        for n in range(1, max_turns + 1):
            if model.terminal(s) is not None:
                break
            d = sol.decision(s, b)
            outs = sol.outcomes(s, b)
            entry = {"turn": n, **self._boundary(s, b), "mode": d.mode, "plan": self._plan(s, d),
                     "expected_seconds_to_finish": round(sol.value(s, b), 3),
                     "loss_of_control_chance": round(sum(o.p for o in outs if o.loss), 6)}
            if d.mode == "roll":
                entry["before_each_die"] = self._rules(s, b, d)
            out.append(entry)
            best = max(outs, key=lambda o: o.p)
            s, b = best.state, best.bank
        return out

    def decisions(self, min_chance: float = DECISIONS_MIN_CHANCE) -> list[dict]:
        out = []
        for (s, b), p in sorted(self.stats.occupancy.items(), key=lambda kv: -kv[1]):
            if p < min_chance or self.model.terminal(s) is not None:
                continue
            d = self.solution.decision(s, b)
            plan = self._plan(s, d)
            entry = {**self._boundary(s, b), "chance": round(p, 6), "mode": d.mode,
                     "dice": [st["dice"] for st in plan], "cells": [st["cells"][-1] for st in plan]}
            if d.mode == "roll":
                entry["before_each_die"] = self._rules(s, b, d)
                entry["before_each_die_after_securing"] = self._secured_rules(s, b, d)
            laid = self._failures_laid(s, b, d)
            if laid is not None:
                entry["failures_laid"] = laid
            out.append(entry)
        return out

    def _failures_laid(self, state, bank, decision) -> list[dict] | None:
        """Under the reading achievable, where a Big Attack's failures are laid again (the cheapest point each
        class of failing dice can reach, with the tokens after the attack) and the chance of each, the canon start
        aside; before any SISU token cancels one. None for another decision or reading."""
        from designer.systems.dirt.dice.relaid import relay_outcomes

        model = self.model
        if decision.mode != "attack" or not model.achievable:
            return None
        cell, gear, damage = state
        ps = model.plans(cell, gear, damage)
        p = decision.plan
        after = min(bank + int(ps.gain[p]), model.T1 - 1)
        canon = float(model.steps.floats[ps.sid[p, 1], 0])
        names = model.road.nodes
        return [{"cell": names[pt[0]], "gear": pt[1], "past_finish": bool(pt[2]), "chance": round((1 - canon) * q, 6)}
                for q, pt, _v in relay_outcomes(model, cell, gear, ps.steps[p], damage, after, self.solution._vector)]

    def tiles(self) -> list[dict]:
        g = self.model.road.graph
        names = self.model.road.nodes
        per: dict = {}
        for (s, b), p in self.stats.occupancy.items():
            if s == FIN or (s, b) not in self.stats.turn_seconds:
                continue
            node = g.nodes[names[s[0]]]
            key = (node.get("index"), node.get("tile"))
            row = per.setdefault(key, [0.0, 0.0])
            row[0] += p * self.stats.turn_seconds[(s, b)]
            row[1] += p * self.stats.turn_loss[(s, b)]
        return [{"index": i, "tile": t, "expected_seconds": round(float(v[0]), 3),
                 "loss_of_control_chance": round(float(v[1]), 4)}
                for (i, t), v in sorted(per.items(), key=lambda kv: (kv[0][0] is None, kv[0][0] or 0))]

    def distribution(self) -> dict[float, float]:
        """The exact distribution of the stage time under the policy, {seconds: chance} (cached)."""
        if "distribution" not in self.extra_cache:
            self.extra_cache["distribution"] = self.solution.distribution(self.starts)
        return self.extra_cache["distribution"]

    def assumed(self) -> dict:
        out = {k: {"value": self.rules.to_dict().get(k), **self.rules.sources.get(k, {})} for k in RULE_KEYS}
        out.update(self.mishaps.assumed())
        return out

    def damage_bound(self) -> dict:
        """How the damage bound was reached: the expected turns started with every tracked token drawn under the
        answer's bound, and each solve's bound, those turns, its answer and its states (one more token is tracked
        while those turns exceed ``damage_turns``); the last step says why no more was tracked (``stop``: "turns",
        "most_damage" or "memory")."""
        steps = self.damage_steps
        return {"turns_at_damage_bound": steps[-1]["turns_at_bound"] if steps else None,
                "damage_turns": self.mishaps.damage_turns, "damage_steps": steps}

    def to_dict(self, details: bool = True, min_chance: float = DECISIONS_MIN_CHANCE) -> dict:
        """JSON-ready; with ``details`` the most likely run's turns (``policy``) and the decision at every turn
        boundary the policy reaches with at least ``min_chance`` (``decisions``; 0: every one it can reach, enough
        to replay the policy in every run)."""
        st = self.stats
        tiles = self.tiles()
        dist = self.distribution()
        out = {
            "seconds": round(float(st.seconds), 3), "expected_seconds": round(float(st.seconds), 3),
            "time": format_time(st.seconds), "sd": round(float(st.sd), 3),
            "p10_seconds": quantile(dist, 0.10), "p50_seconds": quantile(dist, 0.50),
            "p90_seconds": quantile(dist, 0.90),
            "turns": round(st.turns, 3), "loss_of_control_chance": round(st.loss_chance, 6),
            "expected_losses": round(st.expected_losses, 6),
            "ideal_seconds": self.ideal_seconds,
            "ideal_time": format_time(self.ideal_seconds) if self.ideal_seconds is not None else None,
            "leader": self.leader,
            "big_attack_failure": self.model.rules.options.big_attack_failure,
            "bounds": {"max_tokens": self.mishaps.max_tokens, "max_secured": self.mishaps.max_secured,
                       "max_damage": self.mishaps.max_damage, **self.damage_bound()},
            "tiles": tiles,
            "costliest_tiles": sorted(tiles, key=lambda r: -r["expected_seconds"])[:5],
            "assumed": self.assumed(),
            **self.extra,
        }
        if details:
            out["policy"] = self.policy()
            out["decisions"] = self.decisions(min_chance)
            out["decisions_min_chance"] = min_chance
            out["decisions_left_out_chance"] = round(self.left_out(min_chance), 6)
        return out

    def left_out(self, min_chance: float) -> float:
        """The expected number of turns started at boundaries :meth:`decisions` leaves out with ``min_chance``
        (the chance a run meets one is at most this)."""
        return float(sum(p for (s, _b), p in self.stats.occupancy.items()
                         if p < min_chance and self.model.terminal(s) is None))


def expected_time(track, rules: Ruleset | None = None, *, mishaps: Mishaps | None = None, leader: bool = False,
                  ideal_seconds: int | None = None, sisu: bool = False) -> ExpectedTime:
    """Solve a stage's expected time under the dice (the optimal policy), exactly within the model's bounds.
    ``sisu``: each driver holds a SISU token for the stage (optional rule, p. 24).

    The result is kept on the cell graph per settings, while the graph lives, so that an analysis, a road book and
    a drawing of the same stage in one process solve it once."""
    from designer.systems.dirt.driving import lines as L

    graph = L.check_track(track)
    check_size(track, graph, rules)
    rules = L._rules_for(track, rules)
    if mishaps is None:
        mishaps = load_mishaps(rules.path) if rules.path else load_mishaps()
    if mishaps.max_damage > 1 and graph.number_of_nodes() > DAMAGE_CELLS:
        mishaps = mishaps.replace(max_damage=1)          # a long road: one damage token tracked (memory)
    # the shakedown time given or not, the solve is the same (an analysis gives it, a race at the table does not)
    key = (graph.number_of_nodes(), graph.number_of_edges(), rules.key, mishaps.key, leader,
           L._stage_surface(track), sisu)
    per_graph = scratch(graph, "expected")            # kept on the graph, gone with it
    hit = per_graph.get(key)
    if hit is None:
        if len(per_graph) >= 4:
            per_graph.pop(next(iter(per_graph)))
        hit = per_graph[key] = _solve(track, graph, rules, mishaps, leader, ideal_seconds, sisu)
    elif ideal_seconds is not None and callable(hit.ideal):
        hit.ideal = ideal_seconds                      # the same fastest line's time, not searched again
    return hit


def check_size(track, graph, rules: Ruleset | None = None) -> None:
    """Refuse, before any work, a road too long for the expected time's bounds on time and memory (the cap
    depends on the reading of a failed Big Attack, from the stage's options)."""
    from designer.systems.dirt.driving import lines as L

    n = graph.number_of_nodes()
    reading = getattr(L._rules_for(track, rules).options, "big_attack_failure", "achievable")
    cap = MAX_CELLS_AS_LAID if reading == "as_laid" else MAX_CELLS
    if n > cap:
        stage = getattr(track, "stage", None)
        lower = n <= MAX_CELLS
        raise DesignerError(
            f"the expected time under the dice is solved for roads of at most {cap} cells"
            f"{' under the reading as_laid' if cap != MAX_CELLS else ''}; this stage has "
            f"{n} (laps of a circuit included), which would take more than 1.5 GB of memory",
            where=f"stage {stage.name!r}: " + ("options" if lower else "tiles")
            if getattr(stage, "name", None) else None,
            hint=("drop the option big_attack_failure: as_laid (the default reading, achievable, solves roads of up "
                  f"to {MAX_CELLS} cells), or " if lower else "") +
                 "analyse it without the expected time (analyze --no-expected; the road book leaves it out unless "
                 "--expected is given), or shorten the stage or lower its laps")


def _solve(track, graph, rules, mishaps, leader, ideal_seconds, sisu) -> ExpectedTime:
    """The optimum with ``mishaps.max_damage`` damage tokens tracked, then with one more while the car is expected to
    start more than ``mishaps.damage_turns`` turns with every tracked token drawn (a token past the bound then
    costs nothing), up to ``mishaps.most_damage`` and while the states fit the memory (``DAMAGE_STATES``)."""
    from designer.systems.dirt.driving import lines as L

    steps = []
    model = None
    surface = L._stage_surface(track)
    while True:
        model, solution, starts, stats = _solve_bound(graph, rules, mishaps, leader, surface, sisu, share=model)
        at_bound = turns_at_damage_bound(stats, mishaps.max_damage)
        steps.append({"max_damage": mishaps.max_damage, "turns_at_bound": round(at_bound, 3),
                      "seconds": round(float(stats.seconds), 3), "states": len(solution.values)})
        stop = _why_not_more(mishaps, at_bound, len(solution.values), graph.number_of_nodes() > DAMAGE_CELLS,
                             model.reading == "as_laid")
        if stop is not None:
            steps[-1]["stop"] = stop
            if stop == "memory" and graph.number_of_nodes() > DAMAGE_CELLS:
                steps[-1]["road_cells"] = graph.number_of_nodes()      # why: the road, not the states
                steps[-1]["road_cells_cap"] = DAMAGE_CELLS
            break
        solution.release()
        model.release_values()          # the plans, failure classes and numbered points serve the next bound
        mishaps = mishaps.replace(max_damage=mishaps.max_damage + 1)
    ideal = ideal_seconds
    if ideal is None:
        def ideal():
            line = L.fastest_line(track, rules, leader=leader)
            return line.seconds if line is not None else None
    return ExpectedTime(model=model, solution=solution, starts=starts, stats=stats, ideal=ideal,
                        leader=leader, rules=rules, mishaps=mishaps,
                        extra={"sisu_token": sisu}, damage_steps=steps)


def _solve_bound(graph, rules, mishaps, leader, surface, sisu, share=None):
    """One solve of the model with ``mishaps`` as they are: the model, its solution, the starts and the
    statistics of the optimal policy. ``share``: the model of the same stage under another damage bound, whose
    plans, failure classes and numbered points serve this one (the same numbers)."""
    from designer.systems.dirt.driving import lines as L
    from designer.systems.dirt.driving.rules import road_of

    model = DirtModel(road_of(graph), rules, mishaps, leader=leader, surface=surface, sisu=sisu, share=share)
    starts = [(s, 0, model.start_damage) for s in model.road.starts()]
    with L._gc_paused():
        solution = solve(model, starts, sweep(model, starts))
        start = min(starts, key=lambda s: solution.value(s, 0))
        if solution.value(start, 0) >= 1e8:
            raise DesignerError("no way to drive this stage to the finish under the dice",
                                hint="a cell limited to 0 or a dead end blocks the road; check the speed limits")
        stats = solution.stats(starts)
    return model, solution, starts, stats


def turns_at_damage_bound(stats: PolicyStats, max_damage: int) -> float:
    """Expected number of turns the optimal policy starts with ``max_damage`` damage tokens drawn (the bound): the
    turns in which a further token would cost nothing in the model."""
    return float(sum(p for (st, _bank), p in stats.occupancy.items()
                     if st != FIN and sum(st[2][:3]) >= max_damage))


def _why_not_more(mishaps: Mishaps, at_bound: float, states: int, long_road: bool = False,
                  as_laid: bool = False) -> str | None:
    """Why not to solve again with one more damage token tracked, or None to do it: few turns at the bound, the
    memory (a road longer than ``DAMAGE_CELLS``, or the states of the next solve, about twice these, over
    ``DAMAGE_STATES``, or ``DAMAGE_STATES_AS_LAID`` under the reading as_laid, whose plans take more memory a
    state) or the bound at ``most_damage``."""
    most = mishaps.max_damage if mishaps.most_damage is None else mishaps.most_damage
    if at_bound <= mishaps.damage_turns:
        return "turns"
    if long_road or 2 * states > (DAMAGE_STATES_AS_LAID if as_laid else DAMAGE_STATES):
        return "memory"
    return "most_damage" if mishaps.max_damage >= most else None
