"""Expected time under the dice: the best policy of a Markov decision problem over turn boundaries.

A dice-racing course only goes forward: every turn moves the car at least one cell, so the states at turn
boundaries form an acyclic graph and the optimum is found exactly by backward induction (a memoised
recursion from the start: a state's value needs only the values of states further along).

Each state also carries a small *bank* (seconds tokens held, 0..R): values are vectors over the bank so
that one decision per bank value is chosen at once. A :class:`TurnModel` supplies the game:

- ``terminal(state)``: the value vector of a state that ends the stage (None for a state to play from);
- ``decide(state, value)``: the best value vector of a state and its decision for each bank value, given
  ``value(other_state)`` for the states a turn can lead to;
- ``outcomes(state, bank, decision, value)``: the exact distribution of one turn played with that
  decision, a list of :class:`Outcome` (chance, seconds, next state, next bank, loss of control?);
- ``progress(state)``: a number that grows strictly from a state to every state after it;
- optionally ``outcomes_many(state, {bank: decision}, value)``: ``{bank: outcomes}``, the same lists as
  ``outcomes`` for several banks at once (:meth:`Solution.stats` asks for every bank a state is reached with
  at once, once all that leads to the state is done).

:func:`solve` returns a :class:`Solution` (a model may also work its values out by other means, e.g. a backward
sweep over many states at once, and hand them in as ``known``); :meth:`Solution.stats` follows the policy and gives the expected
time (again, as a check), its spread, the expected number of turns, the chance of at least one loss of
control and where the expected time is spent; :meth:`Solution.distribution`, the exact distribution of the time.
Both run compiled where built (designer/racing/_policy.pyx, optional), with the same sums in the same order as the
Python and numpy code kept as their reference.

>>> class Walk:                      # a 3-cell course: one step costs 10 s, two steps cost 25 s
...     bank = 0
...     def terminal(self, s): return np.zeros(1) if s >= 3 else None
...     def progress(self, s): return s
...     def decide(self, s, value):
...         options = [(10 + value(s + 1), 1), (25 + value(min(3, s + 2)), 2)]
...         v, step = min(options, key=lambda o: float(o[0][0]))
...         return v, [step]
...     def outcomes(self, s, b, step, value): return [Outcome(1.0, 10 if step == 1 else 25, min(3, s + step), 0)]
>>> sol = solve(Walk(), [0])
>>> sol.value(0), sol.stats([0]).turns
(30.0, 3.0)
"""
from __future__ import annotations

import heapq
import sys
from dataclasses import dataclass, field
from typing import Any, Callable, Hashable, Iterable, NamedTuple, Protocol

import numpy as np

try:                       # the compiled carry of the distribution, built when the package is installed (setup.py)
    from designer.racing import _policy as POLICY
except ImportError:        # pragma: no cover - no compiler where it was installed: numpy, slower
    POLICY = None

State = Hashable


class Outcome(NamedTuple):
    """One result of a turn: its chance, the seconds it adds, where the car is next and the bank it holds."""
    p: float
    seconds: float
    state: State
    bank: int
    loss: bool = False
    info: Any = None


class TurnModel(Protocol):
    bank: int

    def terminal(self, state: State) -> np.ndarray | None: ...

    def decide(self, state: State, value: Callable[[State], np.ndarray]) -> tuple[np.ndarray, list]: ...

    def outcomes(self, state: State, bank: int, decision: Any,
                 value: Callable[[State], np.ndarray]) -> list[Outcome]: ...

    def progress(self, state: State) -> float: ...


@dataclass
class PolicyStats:
    """What following the optimal policy from a start gives, computed exactly (no sampling)."""
    seconds: float
    sd: float
    turns: float
    loss_chance: float
    expected_losses: float
    occupancy: dict = field(default_factory=dict)      # (state, bank) -> chance the car starts a turn there
    turn_seconds: dict = field(default_factory=dict)   # (state, bank) -> expected seconds of that turn
    turn_loss: dict = field(default_factory=dict)      # (state, bank) -> chance that turn is a loss of control


class Solution:
    """The values and decisions of every state the solver met; ``value(state, bank)`` of the best policy."""

    def __init__(self, model: TurnModel, values: dict, decisions: dict):
        self.model = model
        self.values = values
        self.decisions = decisions
        self._outcomes: dict = {}

    def value(self, state: State, bank: int = 0) -> float:
        return float(self._vector(state)[bank])

    def _vector(self, state: State) -> np.ndarray:
        hit = self.values.get(state)
        if hit is None:
            hit = _Solver(self.model, self.values, self.decisions).value(state)
        return hit

    def decision(self, state: State, bank: int = 0):
        if state not in self.decisions:
            self._vector(state)
        return self.decisions[state][bank]

    def release(self) -> None:
        """Forget the turns kept for the statistics (worked out again if asked for)."""
        self._outcomes.clear()

    def outcomes(self, state: State, bank: int = 0) -> list[Outcome]:
        """The distribution of one turn played by the policy (kept: the statistics ask for it more than once)."""
        key = (state, bank)
        hit = self._outcomes.get(key)
        if hit is None:
            hit = self._outcomes[key] = self.model.outcomes(state, bank, self.decision(state, bank), self._vector)
        return hit

    def _prefetch(self, state: State, banks: Iterable[int]) -> None:
        """Work out the turns from ``state`` with each of ``banks`` at once where the model can
        (``outcomes_many(state, {bank: decision}, value)`` -> ``{bank: outcomes}``, the same lists as
        ``outcomes`` one by one); nothing otherwise."""
        many = getattr(self.model, "outcomes_many", None)
        if many is None:
            return
        todo = {b: self.decision(state, b) for b in banks if (state, b) not in self._outcomes}
        if len(todo) > 0:
            for b, outs in many(state, todo, self._vector).items():
                self._outcomes[(state, b)] = outs

    def stats(self, starts: Iterable[State], bank: int = 0) -> PolicyStats:
        """Follow the policy from the best of ``starts`` (the driver picks the start cell) and sum up: compiled where
        built (``_policy.follow``), else :meth:`_stats_numbered`, its reference (the same sums in the same order)."""
        starts = list(starts)
        start = min(starts, key=lambda s: self.value(s, bank))
        if POLICY is None:
            return self._stats_numbered(start, bank)
        first, turns, losses, clean, second, pairs, occ, turn_seconds, turn_loss = POLICY.follow(self, self.model,
                                                                                                 start, bank)
        mean = self.value(start, bank)
        return PolicyStats(seconds=first, sd=float(np.sqrt(max(0.0, second - mean * mean))), turns=turns,
                           loss_chance=clean, expected_losses=losses, occupancy=dict(zip(pairs, occ)),
                           turn_seconds=turn_seconds, turn_loss=turn_loss)

    def _stats_numbered(self, start: State, bank: int) -> PolicyStats:
        """:meth:`stats` from ``start`` in Python. Each (state, bank) pair is numbered when first met (its place in
        the queue) and its sums are kept in lists by number: one look-up of the pair per outcome. The same sums in
        the same order as keyed by the pair in dicts (the reference in tests/test_mdp_stats.py): a pair's chance
        starts at 0.0 and adds ``p * q`` per outcome."""
        model = self.model
        number: dict = {(start, bank): 0}        # (state, bank) -> its number, the order it was first met
        pairs = [(start, bank)]                  # number -> (state, bank)
        occ = [1.0]                              # number -> chance the car starts a turn there
        clean = [1.0]                            # number -> chance of being there with no loss of control so far
        ahead_of = [model.progress(start)]       # number -> progress of its state
        heap = [(ahead_of[0], 0, start, bank)]
        banks_of: dict = {start: [bank]}         # state -> the banks it is reached with (all known once popped)
        progress: dict = {}                      # state -> model.progress(state)
        turns = losses = 0.0
        clean_end = 0.0
        first = 0.0
        turn_seconds: dict = {}
        turn_loss: dict = {}
        order: list = []                         # the numbers met, in that order (rising progress)
        target: list = []                        # the number each outcome leads to, the outcomes of order in turn
        ends: dict = {}                          # state -> model.terminal(state)
        cached, decisions, push, pop = self._outcomes, self.decisions, heapq.heappush, heapq.heappop
        number_get, progress_get, cached_get, add = number.get, progress.get, cached.get, target.append
        while heap:                              # a pair is queued when it is first met
            _, n, s, b = pop(heap)
            order.append(n)
            p, pc = occ[n], clean[n]
            term = ends[s] if s in ends else ends.setdefault(s, model.terminal(s))
            if term is not None:
                clean_end += pc
                first += p * float(term[b])
                continue
            row = decisions.get(s)
            turns += p if getattr(row[b] if row is not None else self.decision(s, b), "turn", True) else 0.0
            here_key = pairs[n]
            outs = cached_get(here_key)
            if outs is None:                     # every bank of s is known: all that leads to s is done
                self._prefetch(s, banks_of[s])
                outs = self.outcomes(s, b)
            here = ahead_of[n]
            ts = tl = 0                          # the sums of sum(): from 0, in the outcomes' order
            for q, sec, nxt, nb, lost, _info in outs:
                ts += q * sec
                key = (nxt, nb)
                i = number_get(key)
                if i is None:
                    ahead = progress_get(nxt)
                    if ahead is None:
                        ahead = progress[nxt] = model.progress(nxt)
                    i = number[key] = len(pairs)
                    pairs.append(key)
                    occ.append(0.0)
                    clean.append(0.0)
                    ahead_of.append(ahead)
                    banks_of.setdefault(nxt, []).append(nb)
                    push(heap, (ahead, i, nxt, nb))
                else:
                    ahead = ahead_of[i]
                if ahead <= here and model.terminal(nxt) is None:
                    raise ValueError(f"the turn model went backwards: {s} -> {nxt}")
                add(i)
                occ[i] += p * q
                if lost:
                    tl += q
                else:
                    clean[i] += pc * q
            turn_seconds[here_key] = ts
            turn_loss[here_key] = tl
            losses += p * tl
            first += p * ts
        second = self._moment2_along(order, pairs, target, ends)
        mean = self.value(start, bank)
        return PolicyStats(seconds=first, sd=float(np.sqrt(max(0.0, second - mean * mean))), turns=turns,
                           loss_chance=1.0 - clean_end, expected_losses=losses,
                           occupancy=dict(zip(pairs, occ)), turn_seconds=turn_seconds, turn_loss=turn_loss)

    def _moment2_along(self, order: list, pairs: list, target: list, ends: dict) -> float:
        """:meth:`_moment2` of pair 0, read backwards along ``order`` (the numbers of the pairs the policy reaches
        from it, each after all that lead to it, as :meth:`stats` meets them; ``pairs[n]``: the pair numbered n;
        ``target``: the number each outcome of the pairs of ``order`` leads to, in turn; ``ends``: the states'
        ``model.terminal``): the same sums as :meth:`_moment2`, without searching for the pairs again."""
        memo = [0.0] * len(pairs)
        value = [None] * len(pairs)              # number -> value(state, bank) as a float
        rows: dict = {}                          # state -> its values as floats
        cached, vector, rows_get = self._outcomes, self._vector, rows.get
        e = len(target)
        for n in reversed(order):
            s, b = key = pairs[n]
            term = ends[s]
            if term is not None:
                memo[n] = float(term[b]) ** 2
                continue
            outs = cached[key]
            e -= len(outs)
            total = 0.0
            for (q, sec, nxt, nb, _lost, _info), i in zip(outs, target[e:e + len(outs)]):
                v = value[i]
                if v is None:
                    row = rows_get(nxt)
                    if row is None:
                        row = rows[nxt] = vector(nxt).tolist()
                    v = value[i] = row[nb]
                total += q * (sec ** 2 + 2 * sec * v + memo[i])
            memo[n] = total
        return memo[0]

    def distribution(self, starts: Iterable[State], bank: int = 0, digits: int = 6) -> dict[float, float]:
        """The exact distribution of the stage time under the policy: {seconds: chance} (forward over the
        states in order of progress, carrying the seconds run up so far). Where every turn's seconds and every
        finish are whole seconds (the rulebooks' cards and tokens), the seconds run up are carried as an array
        over whole seconds (the same chances, summed in another order, so equal to about 1e-15); otherwise as
        a dict of the seconds met."""
        starts = list(starts)
        start = min(starts, key=lambda s: self.value(s, bank))
        try:
            return self._distribution_whole(start, bank)
        except _NotWhole:
            return self._distribution_any(start, bank, digits)

    def _walk(self, start: State, bank: int):
        """The policy's (state, bank) pairs from ``start`` in order of progress, each once all that leads to it
        is done: yields (state, bank, terminal values or None, outcomes)."""
        model = self.model
        heap = [(model.progress(start), 0, start, bank)]
        queued = {(start, bank)}
        seq = 1
        while heap:
            _, _, s, b = heapq.heappop(heap)
            term = model.terminal(s)
            outs = () if term is not None else self.outcomes(s, b)
            for o in outs:
                key = (o.state, o.bank)
                if key not in queued:
                    queued.add(key)
                    heapq.heappush(heap, (model.progress(o.state), seq, o.state, o.bank))
                    seq += 1
            yield s, b, term, outs

    def _distribution_whole(self, start: State, bank: int) -> dict[float, float]:
        """The distribution over whole seconds, compiled where built (``_policy.distribution_whole``: the pairs
        walked in order of progress and their chances carried with the same products and sums in the same order as
        :meth:`_distribution_whole_numpy`, its reference, which runs where it is not built)."""
        if POLICY is None:
            return self._distribution_whole_numpy(start, bank)
        got = POLICY.distribution_whole(self, self.model, start, bank)
        if got is None:
            raise _NotWhole
        lo, arr = got
        if not len(arr):
            return {}
        return {float(lo + i): float(arr[i]) for i in np.flatnonzero(arr).tolist()}

    def _distribution_whole_numpy(self, start: State, bank: int) -> dict[float, float]:
        mass: dict = {(start, bank): [0, np.ones(1)]}        # (state, bank) -> [first second, chances]
        out: dict = {}
        for s, b, term, outs in self._walk(start, bank):
            lo, here = mass.pop((s, b))
            if term is not None:
                _add(out, None, lo + _whole(float(term[b])), here)
                continue
            for o in outs:
                _add(mass, (o.state, o.bank), lo + _whole(o.seconds), here * o.p)
        if not out:
            return {}
        lo, arr = out[None]
        return {float(lo + i): float(arr[i]) for i in np.flatnonzero(arr).tolist()}

    def _distribution_any(self, start: State, bank: int, digits: int) -> dict[float, float]:
        mass: dict = {(start, bank): {0.0: 1.0}}
        out: dict[float, float] = {}
        for s, b, term, outs in self._walk(start, bank):
            here = mass.pop((s, b))
            if term is not None:
                for t, p in here.items():
                    key = round(t + float(term[b]), digits)
                    out[key] = out.get(key, 0.0) + p
                continue
            for o in outs:
                nxt = mass.setdefault((o.state, o.bank), {})
                for t, p in here.items():
                    tt = round(t + o.seconds, digits)
                    nxt[tt] = nxt.get(tt, 0.0) + p * o.p
        return dict(sorted(out.items()))

    def _moment2(self, state: State, bank: int, memo: dict) -> float:
        """E[(time from here)^2] under the policy (for the spread), by the same backward recursion."""
        key = (state, bank)
        if key in memo:
            return memo[key]
        order = []
        stack = [key]
        seen = {key}
        while stack:                                   # the policy's reachable states, then in reverse progress
            s, b = stack.pop()
            order.append((s, b))
            if self.model.terminal(s) is not None:
                continue
            for o in self.outcomes(s, b):
                k = (o.state, o.bank)
                if k not in seen and k not in memo:
                    seen.add(k)
                    stack.append(k)
        order.sort(key=lambda k: -self.model.progress(k[0]))
        rows: dict = {}                                # state -> its values as floats (value(state, bank))
        for s, b in order:
            term = self.model.terminal(s)
            if term is not None:
                memo[(s, b)] = float(term[b]) ** 2
                continue
            total = 0.0
            for o in self.outcomes(s, b):
                row = rows.get(o.state)
                if row is None:
                    row = rows[o.state] = self._vector(o.state).tolist()
                v = row[o.bank]
                total += o.p * (o.seconds ** 2 + 2 * o.seconds * v + memo[(o.state, o.bank)])
            memo[(s, b)] = total
        return memo[key]


class _NotWhole(Exception):
    """Seconds that are not whole: the distribution is carried as a dict instead."""


def _whole(seconds: float) -> int:
    n = round(seconds)
    if abs(seconds - n) > 1e-9:
        raise _NotWhole
    return int(n)


def _add(store: dict, key, lo: int, arr: np.ndarray) -> None:
    """Add the chances ``arr`` (from second ``lo`` on) into ``store[key]`` ([first second, chances])."""
    slot = store.get(key)
    if slot is None:
        store[key] = [lo, arr.copy()]
        return
    a_lo, a = slot
    new_lo, new_hi = min(a_lo, lo), max(a_lo + len(a), lo + len(arr))
    if new_lo != a_lo or new_hi != a_lo + len(a):
        grown = np.zeros(new_hi - new_lo)
        grown[a_lo - new_lo:a_lo - new_lo + len(a)] = a
        slot[0], slot[1] = new_lo, grown
        a_lo, a = slot
    a[lo - a_lo:lo - a_lo + len(arr)] += arr


class _Solver:
    def __init__(self, model: TurnModel, values: dict, decisions: dict):
        self.model = model
        self.values = values
        self.decisions = decisions

    def value(self, state: State) -> np.ndarray:
        hit = self.values.get(state)
        if hit is not None:
            return hit
        term = self.model.terminal(state)
        if term is not None:
            self.values[state] = term
            return term
        v, decisions = self.model.decide(state, self.value)
        self.values[state] = v
        self.decisions[state] = decisions
        return v


def solve(model: TurnModel, starts: Iterable[State], known: tuple[dict, dict] | None = None) -> Solution:
    """Solve the model from ``starts`` by backward induction (memoised recursion over reachable states).
    ``known``: (values, decisions) a model already worked out by other means (e.g. a backward sweep over many
    states at once); the recursion then only fills in what is missing."""
    values: dict = dict(known[0]) if known else {}
    decisions: dict = dict(known[1]) if known else {}
    solver = _Solver(model, values, decisions)
    old = sys.getrecursionlimit()
    sys.setrecursionlimit(max(old, 20000))
    try:
        for s in starts:
            solver.value(s)
    finally:
        sys.setrecursionlimit(old)
    return Solution(model, values, decisions)


def quantile(dist: dict[float, float], q: float) -> float:
    """The smallest time whose cumulative chance reaches ``q`` (0..1) in a {seconds: chance} distribution."""
    acc = 0.0
    last = None
    for t, p in dist.items():
        acc += p
        last = t
        if acc >= q - 1e-12:
            return t
    return last if last is not None else float("nan")
