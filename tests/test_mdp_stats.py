"""The statistics of a policy (designer/racing/mdp.py, Solution.stats): compiled (designer/racing/_policy.pyx, where
built) and in Python (Solution._stats_numbered: the pairs numbered and their sums kept in lists), they give, to the
last bit, what the same sums keyed by the (state, bank) pair in dicts give (the reference below, the code as it was
before the pairs were numbered), on random acyclic turn models and on DIRT stages, and the spread is the second
moment searched for from the start (Solution._moment2)."""
from __future__ import annotations

import heapq
from pathlib import Path

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.racing.mdp import Outcome, PolicyStats, Solution, solve
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice.expected_time import expected_time
from tests.test_expected_dirt import demo_track

ROOT = Path(__file__).resolve().parents[1]
FIELDS = ("seconds", "sd", "turns", "loss_chance", "expected_losses", "occupancy", "turn_seconds", "turn_loss")


def stats_one_pair_at_a_time(self, starts, bank: int = 0) -> PolicyStats:
    """Solution.stats as it was written before the pairs were numbered (its reference): every sum keyed by the
    (state, bank) pair in dicts."""
    starts = list(starts)
    start = min(starts, key=lambda s: self.value(s, bank))
    model = self.model
    occ: dict = {(start, bank): 1.0}
    clean: dict = {(start, bank): 1.0}       # chance of being there with no loss of control so far
    heap = [(model.progress(start), 0, start, bank)]
    banks_of: dict = {start: [bank]}         # state -> the banks it is reached with (all known once popped)
    progress: dict = {}                      # state -> model.progress(state)
    seq = 1
    turns = losses = 0.0
    clean_end = 0.0
    first = 0.0
    turn_seconds: dict = {}
    turn_loss: dict = {}
    order: list = []                         # the (state, bank) pairs in the order met (rising progress)
    ends: dict = {}                          # state -> model.terminal(state)
    cached, decisions, push, pop = self._outcomes, self.decisions, heapq.heappush, heapq.heappop
    while heap:                              # a pair is queued when it first enters occ
        _, _, s, b = pop(heap)
        here_key = (s, b)
        order.append(here_key)
        p, pc = occ[here_key], clean.get(here_key, 0.0)
        term = ends[s] if s in ends else ends.setdefault(s, model.terminal(s))
        if term is not None:
            clean_end += pc
            first += p * float(term[b])
            continue
        row = decisions.get(s)
        turns += p if getattr(row[b] if row is not None else self.decision(s, b), "turn", True) else 0.0
        outs = cached.get(here_key)
        if outs is None:                     # every bank of s is known: all that leads to s is done
            self._prefetch(s, banks_of[s])
            outs = self.outcomes(s, b)
        here = progress.get(s)
        if here is None:
            here = progress[s] = model.progress(s)
        ts = tl = 0                          # the sums of sum(): from 0, in the outcomes' order
        for q, sec, nxt, nb, lost, _info in outs:
            ts += q * sec
            key = (nxt, nb)
            ahead = progress.get(nxt)
            if ahead is None:
                ahead = progress[nxt] = model.progress(nxt)
            if ahead <= here and model.terminal(nxt) is None:
                raise ValueError(f"the turn model went backwards: {s} -> {nxt}")
            if key in occ:
                occ[key] += p * q
            else:
                occ[key] = 0.0 + p * q
                banks_of.setdefault(nxt, []).append(nb)
                push(heap, (ahead, seq, nxt, nb))
                seq += 1
            if lost:
                tl += q
            else:
                clean[key] = clean.get(key, 0.0) + pc * q
        turn_seconds[here_key] = ts
        turn_loss[here_key] = tl
        losses += p * tl
        first += p * ts
    second = moment2_along(self, order, ends)
    mean = self.value(start, bank)
    return PolicyStats(seconds=first, sd=float(np.sqrt(max(0.0, second - mean * mean))), turns=turns,
                       loss_chance=1.0 - clean_end, expected_losses=losses,
                       occupancy=occ, turn_seconds=turn_seconds, turn_loss=turn_loss)

def moment2_along(self, order: list, ends: dict) -> float:
    """:meth:`_moment2` of the first pair of ``order``, every pair the policy reaches from it listed in an
    order where each comes after all that lead to it (as :meth:`stats` meets them; ``ends``: their states'
    ``model.terminal``): the same sums, read backwards along that order instead of searched for again."""
    memo: dict = {}
    rows: dict = {}
    cached, vector = self._outcomes, self._vector
    for s, b in reversed(order):
        term = ends[s]
        if term is not None:
            memo[(s, b)] = float(term[b]) ** 2
            continue
        total = 0.0
        for q, sec, nxt, nb, _lost, _info in cached[(s, b)]:
            row = rows.get(nxt)
            if row is None:
                row = rows[nxt] = vector(nxt).tolist()
            total += q * (sec ** 2 + 2 * sec * row[nb] + memo[(nxt, nb)])
        memo[(s, b)] = total
    return memo[order[0]]


def same_statistics(sol: Solution, starts, bank: int = 0) -> PolicyStats:
    """The statistics of ``sol`` against the reference, field by field and in the same order; the outcome lists of
    both are the same lists (the reference reads those the fast pass kept)."""
    fast = sol.stats(starts, bank)                      # compiled where built (_policy.follow)
    start = min(starts, key=lambda s: sol.value(s, bank))
    numbered = sol._stats_numbered(start, bank)         # its Python reference
    slow = stats_one_pair_at_a_time(sol, starts, bank)
    for name in FIELDS:
        b = getattr(slow, name)
        for a in (getattr(fast, name), getattr(numbered, name)):
            assert (list(a.items()) == list(b.items())) if isinstance(a, dict) else a == b, name
    mean = sol.value(start, bank)
    assert fast.sd == float(np.sqrt(max(0.0, sol._moment2(start, bank, {}) - mean * mean)))
    return fast


class RandomCourse:
    """An acyclic turn model drawn at random: states 0..n-1 play, n ends the stage (value 0, or ``fin`` seconds for
    each bank); each (state, bank) has its own list of outcomes (chance, seconds, a state further on, a bank, loss),
    some sharing the next pair, with a decision that either counts as a turn or not."""

    def __init__(self, n: int, banks: int, table: dict, fin: list):
        self.n, self.bank, self.table, self.fin = n, banks - 1, table, fin

    def terminal(self, s):
        return np.array(self.fin, dtype=float) if s >= self.n else None

    def progress(self, s):
        return s

    def decide(self, s, value):
        vals, decisions = [], []
        for b in range(self.bank + 1):
            outs, turn = self.table[(s, b)]
            vals.append(sum(o.p * (o.seconds + float(value(o.state)[o.bank])) for o in outs))
            decisions.append(Turn(turn))
        return np.array(vals), decisions

    def outcomes(self, s, b, decision, value):
        return self.table[(s, b)][0]


class Turn:
    def __init__(self, turn: bool):
        self.turn = turn


@st.composite
def courses(draw):
    n = draw(st.integers(1, 7))
    banks = draw(st.integers(1, 3))
    table = {}
    for s in range(n):
        for b in range(banks):
            k = draw(st.integers(1, 5))
            weights = draw(st.lists(st.integers(1, 9), min_size=k, max_size=k))
            outs = []
            for w in weights:
                nxt = draw(st.integers(s + 1, n))
                outs.append(Outcome(w / sum(weights), float(draw(st.integers(0, 40))) + draw(st.sampled_from([0, .5])),
                                    nxt, draw(st.integers(0, banks - 1)), draw(st.booleans())))
            table[(s, b)] = (outs, draw(st.booleans()))
    fin = [float(draw(st.integers(0, 20))) for _ in range(banks)]
    return RandomCourse(n, banks, table, fin)


@settings(max_examples=150, deadline=None)
@given(model=courses(), bank=st.integers(0, 2))
def test_numbered_pairs_give_the_reference_statistics_on_random_courses(model, bank):
    bank = min(bank, model.bank)
    starts = [0]
    same_statistics(solve(model, starts), starts, bank)


def test_whole_seconds_as_ints_give_the_reference_statistics():
    """Seconds and progress given as Python ints (the module's doctest course): the same figures and types."""
    table = {(0, 0): ([Outcome(0.5, 10, 1, 0), Outcome(0.5, 25, 2, 0, True)], True),
             (1, 0): ([Outcome(1.0, 10, 2, 0)], False)}
    model = RandomCourse(2, 1, table, [3.0])
    fast = same_statistics(solve(model, [0]), [0])
    assert fast.seconds == 0.5 * 10 + 0.5 * 25 + 0.5 * 10 + 3.0


def test_without_the_compiled_walk_python_follows(monkeypatch):
    from designer.racing import mdp

    model = RandomCourse(2, 2, {(0, 0): ([Outcome(0.25, 4.0, 1, 1), Outcome(0.75, 6.0, 2, 0, True)], True),
                                (0, 1): ([Outcome(1.0, 4.0, 2, 1)], True),
                                (1, 0): ([Outcome(1.0, 5.0, 2, 0)], True),
                                (1, 1): ([Outcome(0.5, 5.0, 2, 0), Outcome(0.5, 7.0, 2, 1)], False)}, [1.0, 2.0])
    sol = solve(model, [0])
    want = sol.stats([0])
    monkeypatch.setattr(mdp, "POLICY", None)
    got = sol.stats([0])
    for name in FIELDS:
        a, b = getattr(got, name), getattr(want, name)
        assert (list(a.items()) == list(b.items())) if isinstance(a, dict) else a == b, name


def test_a_course_that_goes_backwards_is_refused():
    model = RandomCourse(2, 1, {(0, 0): ([Outcome(1.0, 5.0, 1, 0)], True),
                                (1, 0): ([Outcome(1.0, 5.0, 0, 0)], True)}, [0.0])
    sol = Solution(model, {0: np.array([10.0]), 1: np.array([10.0]), 2: np.zeros(1)},
                   {0: [Turn(True)], 1: [Turn(True)]})
    with pytest.raises(ValueError, match="went backwards"):
        sol.stats([0])
    with pytest.raises(ValueError, match="went backwards"):
        sol._stats_numbered(0, 0)


@pytest.mark.parametrize("track", ["demo", "stages/dirt/rally-1/ss1.yaml"])
def test_numbered_pairs_give_the_reference_statistics_on_stages(track):
    result = expected_time(demo_track() if track == "demo" else load_track(load_stage(ROOT / track)))
    fast = same_statistics(result.solution, result.starts)
    assert fast.seconds == result.stats.seconds and fast.sd == result.stats.sd
