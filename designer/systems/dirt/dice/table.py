"""Several cars on one DIRT stage, round by round as the table plays it (:func:`simulate_table`).

Each car drives the single-car expected-time policy (:mod:`.expected_time`), solved twice: with the leader
dice for the turns it leads, with the gas dice otherwise. What the other cars change is played by the rules
of ``tilesets/dirt-table-rules.yaml`` (:mod:`.table_rules`): the staggered start (one more round per car),
the order of play by distance, gear and lane, the leader dice for the first player of each round until a car
has finished, and the road blocked by cars ("Le Dépassement", "Bloqué"): a cell held by a car cannot be
entered, a car beside the way can be passed only with a die of its gear or more, and a car in a corner or a
slide only through a cut. A plan that meets a car is played up to the cell before it (:func:`first_block`).

Per seat (the start order): the stage time's mean, spread, 95 % interval, the chance of being blocked at
least once, blocked turns, turns and turns led; for the table: the rounds, every car's turns together and
the minutes at the table that those turns take (:mod:`..driving.estimate`'s seconds per turn, not one car's
turns times the players). With ``draw_order`` the start order is drawn before each race, as the rulebook
draws it, and the figures are per player (alike by construction: the check that seats are fair).

Not modelled (named in ``dirt-table-rules.yaml``): by default a driver does not re-plan round a car (the plan
is cut at the block; ``blocked_turn: replan`` re-plans, 10 to 25 times slower), following a car into a corner with
its technique, telling a spin (the car stays) from a crash (it
leaves the road). Between a rally's stages (:mod:`.table_rally`) the damage goes on where no assistance comes
between, that of a loss of control on the die that crosses the finish line included.

>>> from designer.systems.dirt.board.stage import load_stage
>>> from designer.systems.dirt.board.track import load_track
>>> t = simulate_table(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")), players=2, runs=20, seed=1)
>>> len(t.seats), t.runs
(2, 20)
"""
from __future__ import annotations

import random
from dataclasses import dataclass

import numpy as np

from designer.core.errors import DesignerError
from designer.racing.simulate import mean_sd_ci95
from designer.systems.dirt.dice.expected_time import ExpectedTime, expected_time
from designer.systems.dirt.dice.player import DicePlayer, pick
from designer.systems.dirt.dice.table_rules import TableRules, load_table_rules
from designer.systems.dirt.dice.turn_model import FIN
from designer.systems.dirt.driving.estimate import TABLE_TIME

MAX_PLAYERS = 6
MAX_RUNS = 100_000
MAX_ROUNDS = 400


class Cells:
    """What the table needs to know of each cell of the road: how far along it lies, its lane, and which
    cells lie beside it. Beside a cell: the cells of another lane over the same stretch of its tile, and every
    cell over that stretch when either is a slide half-cell (a car sliding lies across the road: "deux cases
    distinctes ... qui bloquent les deux voies de la piste", Glisser). Beside a cut: every cell connected to
    it but the corner cells ("Les Cordes comptent comme étant adjacentes à toutes les cases qui y sont
    connectées à l'exception des cases Virage", Le Dépassement)."""

    def __init__(self, road):
        g = road.graph
        data = [g.nodes[n] for n in road.nodes]
        number = {n: i for i, n in enumerate(road.nodes)}
        self.pos = [float(d.get("pos") or 0.0) for d in data]
        self.lane = [int(d.get("lane") or 0) for d in data]
        self.corner = [d.get("corner") is not None for d in data]
        self.slide = [bool(d.get("slide")) for d in data]
        self.cut = [d.get("cut") is not None for d in data]
        by_tile: dict = {}
        for i, d in enumerate(data):
            by_tile.setdefault(d.get("index"), []).append(i)
        self.beside: list[tuple[int, ...]] = []
        for i, d in enumerate(data):
            if self.cut[i]:
                near = {number[n] for n in (*g.predecessors(road.nodes[i]), *g.successors(road.nodes[i]))
                        if n in number}
                self.beside.append(tuple(sorted(j for j in near if j != i and not self.corner[j])))
                continue
            a, b = d.get("a"), d.get("b")
            near = []
            if a is not None and b is not None:
                for j in by_tile[d.get("index")]:
                    e = data[j]
                    if j != i and not self.cut[j] and e.get("a") is not None and e["a"] < b - 1e-9 \
                            and a < e["b"] - 1e-9 and ((e.get("lane") or 0) != (d.get("lane") or 0)
                                                       or self.slide[i] or self.slide[j]):
                        near.append(j)
            self.beside.append(tuple(near))
        for i, near in enumerate(list(self.beside)):      # a cut is beside the cells it is beside
            if self.cut[i]:
                for j in near:
                    self.beside[j] += (i,)


def plan_cells(steps, cells: Cells) -> tuple:
    """What :func:`first_block` reads of a plan, once: per cell a step enters, ``(step, cell, gear, beside)``."""
    out = []
    for j, (_dice, path, gear, events) in enumerate(steps, start=1):
        entered = path[-1:] if ("jump" in events or "long-jump" in events) else path
        for c in entered:
            out.append((j, c, gear, cells.beside[c]))
    return tuple(out)


def first_block(steps, others: dict, cells: Cells, rules: TableRules, entered: tuple | None = None) -> int | None:
    """The first step (1-based) of a plan that the other cars stop, or None when the plan is free.

    ``steps``: the plan's steps ``(dice, cells, gear, events)``; ``others``: cell -> gear of each other car on
    the road. A step is stopped when the cell it lands on (every cell it crosses, but for a jump) holds a car,
    or when a cell it enters lies beside a car (:class:`Cells`) that cannot be passed there: one in a corner or
    a slide, or any car beside a slide entered (only a cut gets by), or one in a higher gear than the step's
    (a cut too: it is adjacent to the cells it connects). ``entered``: :func:`plan_cells` of the steps when
    already worked out.
    """
    if not others:
        return None
    free_pass = rules.overtake_gear == "free"
    free_corner = rules.corner_and_slide_passing == "free"
    corner, slide, cut = cells.corner, cells.slide, cells.cut
    for j, c, gear, beside in (plan_cells(steps, cells) if entered is None else entered):
        if c in others:
            return j
        for d in beside:
            g = others.get(d)
            if g is None:
                continue
            # a car on a cut is off the track ("hors-piste"): a slide beside it takes only a die of its gear
            if (corner[d] or slide[d] or (slide[c] and not cut[d])) and not cut[c] and not free_corner:
                return j
            if gear < g and not free_pass:
                return j
    return None


@dataclass
class Seat:
    """One car's figures over the runs (seat = place in the start order, 1 first)."""
    seat: int
    times: np.ndarray
    turns: np.ndarray
    blocked: np.ndarray
    led: np.ndarray
    losses: np.ndarray

    def to_dict(self) -> dict:
        mean, sd, ci = mean_sd_ci95(self.times)
        return {"seat": self.seat, "expected_seconds": mean, "sd": sd, "ci95": ci,
                "p10_seconds": float(np.percentile(self.times, 10)),
                "p90_seconds": float(np.percentile(self.times, 90)),
                "blocked_chance": round(float((self.blocked > 0).mean()), 4),
                "blocked_turns": round(float(self.blocked.mean()), 3),
                "turns": round(float(self.turns.mean()), 3), "turns_led": round(float(self.led.mean()), 3),
                "loss_of_control_chance": round(float((self.losses > 0).mean()), 4)}


@dataclass
class TableRun:
    """The simulated table: per seat figures, rounds, all turns, minutes at the table."""
    players: int
    runs: int
    seed: int | None
    seats: list
    by: str
    rounds: np.ndarray
    table_turns: np.ndarray
    road_tiles: int
    rules: TableRules
    single_car_seconds: float

    @property
    def table_minutes(self) -> float:
        p = TABLE_TIME
        return (p.setup_minutes + p.build_minutes_per_tile * self.road_tiles
                + float(self.table_turns.mean()) * p.seconds_per_turn / 60.0)

    def to_dict(self) -> dict:
        p = TABLE_TIME
        return {"players": self.players, "runs": self.runs, "seed": self.seed, "by": self.by,
                "seats": [s.to_dict() for s in self.seats],
                "rounds": round(float(self.rounds.mean()), 3),
                "table_turns": round(float(self.table_turns.mean()), 3),
                "table_minutes": round(self.table_minutes, 1),
                "table_minutes_formula": "setup_minutes + build_minutes_per_tile * road_tiles + "
                                         "simulated turns of all cars * seconds_per_turn / 60",
                "table_time_parameters": p.to_dict(),
                "single_car_expected_seconds": round(self.single_car_seconds, 3),
                "assumed": self.rules.named()}


def table_lines(d: dict) -> list[str]:
    """A simulated table (:meth:`TableRun.to_dict`) as lines of text for the report."""
    from designer.racing.course import format_time

    who = "player (start order drawn)" if d.get("by") == "player" else "seat (start order)"
    out = [f"  {d['players']} cars raced {d['runs']} times (seed {d['seed']}): {d['rounds']:.1f} rounds, "
           f"{d['table_turns']:.1f} turns at the table, about {d['table_minutes']} min at the table "
           f"(single car alone: {format_time(d['single_car_expected_seconds'])})",
           f"    {who:>26}  {'time':>6} {'sd':>5}  {'p10-p90':>9}  {'blocked':>7}  {'turns':>5}  {'led':>5}"]
    for s in d["seats"]:
        out.append(f"    {s['seat']:>26}  {format_time(s['expected_seconds']):>6} {s['sd']:5.1f}  "
                   f"{s['p10_seconds']:4.0f}-{s['p90_seconds']:<4.0f}  {100 * s['blocked_chance']:6.0f}%  "
                   f"{s['turns']:5.1f}  {s['turns_led']:5.1f}")
    kept = [k for k, v in d.get("assumed", {}).items() if v.get("status") in ("assumed", "decided")]
    out.append(f"    not in the rulebook (tilesets/dirt-table-rules.yaml): {', '.join(kept)}")
    return out


def _one_damage_bound(track, rules, lead: ExpectedTime, gas: ExpectedTime) -> tuple[ExpectedTime, ExpectedTime]:
    """The leader's and the follower's policies under the same damage bound: a car changes policy as it takes or
    loses the lead and keeps its damage, so both must track the same tokens. Each solve sets its own bound (more
    tokens where they matter): the one that tracks fewer is solved again with the other's."""
    top = max(lead.mishaps.max_damage, gas.mishaps.max_damage)

    def at_top(e: ExpectedTime, leader: bool) -> ExpectedTime:
        if e.mishaps.max_damage == top:
            return e
        return expected_time(track, rules, leader=leader, mishaps=e.mishaps.replace(max_damage=top, most_damage=None))

    return at_top(lead, True), at_top(gas, False)


class Table:
    """The two policies of a stage (leader and gas dice) and its cells, ready to play races."""

    def __init__(self, track, rules=None, table_rules: TableRules | None = None,
                 lead: ExpectedTime | None = None, gas: ExpectedTime | None = None):
        self.rules = table_rules or load_table_rules()
        if self.rules.leader_dice == "none":
            self.lead = self.gas = gas or lead or expected_time(track, rules, leader=True)
        else:
            self.gas = gas or expected_time(track, rules, leader=False)
            # the leader's solve starts at the damage bound the follower's reached (both end under one bound)
            self.lead = lead or expected_time(track, rules, leader=True, mishaps=self.gas.mishaps)
            if self.lead.mishaps.max_damage != self.gas.mishaps.max_damage:
                self.lead, self.gas = _one_damage_bound(track, rules, self.lead, self.gas)
        self.track = track
        self.road_tiles = len(getattr(track, "road_tiles", ()) or ())
        model = self.gas.model
        self.cells = Cells(model.road)
        self.players = {id(e): DicePlayer(e.model) for e in (self.lead, self.gas)}
        self._entered: dict = {}                  # (policy, state, decision) -> plan_cells of its plan
        self._replans: dict = {}                  # (policy, state, tokens, other cars) -> the plan they allow
        self.starts = sorted(self.gas.starts, key=lambda s: self.gas.solution.value(s, 0))

    def _turn(self, e: ExpectedTime, state, bank, others: dict, rng):
        """One turn of one car: (outcome, blocked)."""
        sol, model = e.solution, e.model
        player = self.players[id(e)]
        d = sol.decision(state, bank)
        if d.mode == "spare" or not others:
            return player.play(state, bank, d, rng, sol._vector), False
        key = (id(e), state, d)
        entered = self._entered.get(key)
        if entered is None:
            cell, gear, damage = state
            entered = self._entered[key] = plan_cells(model.plans(cell, gear, damage).steps[d.plan], self.cells)
        j = first_block(None, others, self.cells, self.rules, entered)
        if j is None:
            return player.play(state, bank, d, rng, sol._vector), False
        if self.rules.blocked_turn == "replan" and not model.sisu:
            return self._replanned(e, state, bank, others, rng), True
        return self._cut(e, state, bank, d, j, rng), True

    def _cut(self, e: ExpectedTime, state, bank, d, j, rng):
        """The plan rolled die by die up to the step before ``j``, then the turn ends there."""
        from designer.racing.mdp import Outcome

        model = e.model
        cell, gear, damage = state
        if j == 1:                           # not moved: the same card as before, the car where it was
            card = gear if gear > 0 else int(self.rules.stalled_card_gear)
            return Outcome(1.0, float(model.rules.seconds(card)), state, bank, False, "blocked")
        ps1 = model.single(state, d, e.solution._vector)[0]
        # the plan of the single-car solve: its SISU rescue applies as it does alone
        return self.players[id(e)].roll(ps1, damage, bank, rng, lambda i, _h, _k, _tok: "stop" if i >= j - 1
                                        else "roll", info="blocked")

    def _replanned(self, e: ExpectedTime, state, bank, others: dict, rng):
        """The best plan of the boundary that the other cars allow (each plan ended at the cell before its
        block), rolled one by one with its own stopping and securing rule."""
        from designer.racing.mdp import Outcome
        from designer.systems.dirt.dice.plans import BIG, subset
        from designer.systems.dirt.dice.replay import Replay
        from designer.systems.dirt.dice.rollout import roll_values

        model, sol = e.model, e.solution
        cell, gear, damage = state
        key = (id(e), state, bank, tuple(sorted(others.items())))
        hit = self._replans.get(key)
        if hit is None:
            ps = model.plans(cell, gear, damage)
            stop, loss = model.point_values(ps, damage, sol._vector)
            stop, loss = stop.copy(), loss.copy()
            for p, steps in enumerate(ps.steps):
                j = first_block(steps, others, self.cells, self.rules)
                if j is not None:
                    stop[p, j:, :] = BIG
                    loss[p, j:, :] = BIG
            values = roll_values(ps, stop, loss, model.limit, model.K)[0][:, bank]
            p = int(np.argmin(values))
            ps1 = subset(ps, p)
            n = int(ps1.length[0])
            stop1, loss1 = stop[p:p + 1, :n + 1], loss[p:p + 1, :n + 1]
            _, kept = roll_values(ps1, stop1, loss1, model.limit, model.K, keep=True)
            hit = (ps1, Replay(ps1, stop1, loss1, kept, model.limit, model.K), float(values[p]))
            if len(self._replans) > 20_000:
                self._replans.clear()
            self._replans[key] = hit
        ps1, replay, value = hit
        if value >= BIG / 2:                 # nothing the others allow: the car does not move
            card = gear if gear > 0 else int(self.rules.stalled_card_gear)
            return Outcome(1.0, float(model.rules.seconds(card)), state, bank, False, "blocked")
        # a re-planned plan has its blocked points masked, so the rescue of the whole plan does not apply
        return self.players[id(e)].roll(ps1, damage, bank, rng, replay.choice, rescue=False, info="blocked")

    def _after_finish(self, e: ExpectedTime, damage: tuple, rng) -> tuple:
        """The damage a car takes out of the stage: the last boundary's, and where control was lost on the die that
        crossed the line, a back of the card drawn ("Fin d'une Spéciale": "si votre Rallye n'est pas terminé, ce
        joueur prend le nombre de jetons Dégâts indiqué à l'arrière de la carte Chrono")."""
        lost = self.players[id(e)].finish_loss
        if lost is None:
            return damage
        model = e.model
        return pick(rng, model.loss_ends(0, model.crash_marks(*lost), damage))[3]

    def race(self, players: int, rng, carried: list | None = None, ends: list | None = None) -> tuple:
        """One race of ``players`` cars; per car (seconds, turns, blocked turns, turns led, losses), and rounds.
        ``carried``: per car, the damage it starts with (a turn boundary's damage, :mod:`.turn_model`; None:
        fresh); ``ends``, a list given: filled with each car's damage at the finish."""
        n = players
        if ends is not None:
            ends[:] = [None] * n
        state = [None] * n              # None: behind the start line; FIN: finished
        bank = [0] * n
        secs = [0.0] * n
        turns = [0] * n
        blocked = [0] * n
        led = [0] * n
        losses = [0] * n
        done = 0
        finished_any = False
        stagger = int(self.rules.start_stagger_rounds)
        leader_rule = self.rules.leader_dice != "none"
        pos, lane = self.cells.pos, self.cells.lane
        rounds = 0
        locked = False                  # no car moved in the last round: the first plays as if alone
        while done < n:
            rounds += 1
            if rounds > MAX_ROUNDS:
                raise DesignerError("a simulated race did not finish", hint="check the stage's speed limits")
            on = [k for k in range(n) if state[k] is not None and state[k] is not FIN]
            on.sort(key=lambda k: (-pos[state[k][0]], -state[k][1], lane[state[k][0]], k))
            waiting = [k for k in range(n) if state[k] is None and (rounds - 1) >= k * stagger]
            order = on + waiting
            moved = False
            for i, k in enumerate(order):
                s = state[k]
                others = {} if locked and i == 0 else \
                    {state[o][0]: state[o][1] for o in range(n) if o != k and state[o] is not None
                     and state[o] is not FIN}
                if s is None:
                    s = next((c for c in self.starts if c[0] not in others), self.starts[0])
                    if carried is not None and carried[k] is not None:
                        s = (s[0], s[1], carried[k])
                leading = leader_rule and i == 0 and not finished_any
                e = self.lead if leading else self.gas
                o, was_blocked = self._turn(e, s, bank[k], others, rng)
                secs[k] += o.seconds
                turns[k] += 1
                blocked[k] += was_blocked
                led[k] += leading
                losses[k] += bool(o.loss)
                moved = moved or o.state != s
                state[k], bank[k] = o.state, o.bank
                term = e.model.terminal(o.state)
                if term is not None:
                    if ends is not None:
                        ends[k] = o.state[2] if o.state is not FIN else self._after_finish(e, s[2], rng)
                    secs[k] += float(term[o.bank])
                    state[k] = FIN
                    done += 1
                    finished_any = True
            # every car blocked by another where it stands (a car stays on its cell after a loss of control,
            # car_after_loss_of_control): the table unlocks as locked_table says
            locked = bool(order) and not moved and self.rules.locked_table == "first-car-alone"
        return secs, turns, blocked, led, losses, rounds


def simulate_table(track, players: int = 4, runs: int = 1000, seed: int | None = 0, rules=None,
                   table_rules: TableRules | None = None, table: Table | None = None,
                   draw_order: bool = False) -> TableRun:
    """Race ``players`` cars (1-6) ``runs`` times on a stage; seeded, so the same call gives the same figures.

    The figures are per seat (place in the start order) or, with ``draw_order``, per player when the start
    order is drawn at random before each race, as the rulebook draws it (then every player is alike)."""
    if not 1 <= int(players) <= MAX_PLAYERS:
        raise DesignerError(f"a table races 1 to {MAX_PLAYERS} cars, not {players}", hint="e.g. --players 4")
    if not 1 <= int(runs) <= MAX_RUNS:
        raise DesignerError(f"{runs} is not a number of simulated races", hint=f"give 1 to {MAX_RUNS}, e.g. 1000")
    table = table or Table(track, rules, table_rules)
    rng = random.Random(seed)
    out = np.zeros((5, players, runs))
    rounds = np.zeros(runs)
    draw = random.Random(None if seed is None else seed + 1)      # its own stream: the dice stay the same
    for r in range(runs):
        *per, rounds[r] = table.race(players, rng)
        if draw_order:
            who = list(range(players))
            draw.shuffle(who)                 # who[k]: the player starting k-th
            out[:, who, r] = per
        else:
            out[:, :, r] = per
    seats = [Seat(k + 1, out[0, k], out[1, k], out[2, k], out[3, k], out[4, k]) for k in range(players)]
    return TableRun(players=players, runs=runs, seed=seed, seats=seats, by="player" if draw_order else "seat",
                    rounds=rounds,
                    table_turns=out[1].sum(axis=0), road_tiles=table.road_tiles, rules=table.rules,
                    single_car_seconds=table.gas.seconds if players > 1 else table.lead.seconds)
