"""The generic expected-time solver and the within-turn rules of dice (securing, Big Attack) on small cases."""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from designer.racing.mdp import Outcome, solve
from designer.systems.dirt.dice.plans import BIG, X, PlanSet, _features, secure_cost
from designer.systems.dirt.dice.rollout import attack_values, roll_values


class Coin:
    """A course of ``n`` cells: each turn either walks one cell for ``a`` seconds, or gambles for two cells at
    ``b`` seconds with chance ``p`` of a slip that costs ``c`` more and leaves the car where it was plus one."""
    bank = 0

    def __init__(self, n, a, b, c, p):
        self.n, self.a, self.b, self.c, self.p = n, a, b, c, p

    def terminal(self, s):
        return np.zeros(1) if s >= self.n else None

    def progress(self, s):
        return s

    def decide(self, s, value):
        walk = self.a + value(s + 1)
        gamble = (1 - self.p) * (self.b + value(min(self.n, s + 2))) + self.p * (self.b + self.c + value(s + 1))
        return (walk, ["walk"]) if walk[0] <= gamble[0] else (gamble, ["gamble"])

    def outcomes(self, s, b, d, value):
        if d == "walk":
            return [Outcome(1.0, self.a, s + 1, 0)]
        return [Outcome(1 - self.p, self.b, min(self.n, s + 2), 0),
                Outcome(self.p, self.b + self.c, s + 1, 0, loss=True)]


def _brute(n, a, b, c, p, s=0):
    if s >= n:
        return 0.0
    walk = a + _brute(n, a, b, c, p, s + 1)
    gamble = (1 - p) * (b + _brute(n, a, b, c, p, min(n, s + 2))) + p * (b + c + _brute(n, a, b, c, p, s + 1))
    return min(walk, gamble)


@settings(max_examples=40, deadline=None)
@given(n=st.integers(1, 9), a=st.integers(1, 30), b=st.integers(1, 40), c=st.integers(0, 60),
       p=st.floats(0.0, 1.0))
def test_solver_matches_brute_force_and_its_own_policy(n, a, b, c, p):
    model = Coin(n, a, b, c, p)
    sol = solve(model, [0])
    assert sol.value(0) == pytest.approx(_brute(n, a, b, c, p), abs=1e-9)
    stats = sol.stats([0])
    assert stats.seconds == pytest.approx(sol.value(0), abs=1e-9)
    assert 0.0 <= stats.loss_chance <= 1.0
    assert stats.turns >= (n + 1) // 2 - 1e-9


def _one_plan(q_rows, m=None, pj=None, pc=None, gain=0):
    """A PlanSet of one plan from hazard-count chances per step (list of lists)."""
    L = len(q_rows)
    q = np.zeros((1, L + 1, X))
    q[0, 0, 0] = 1
    for i, row in enumerate(q_rows, start=1):
        q[0, i, :len(row)] = row
    return PlanSet(length=np.array([L]), cell=np.zeros((1, L + 1), int), gear=np.zeros((1, L + 1), int),
                   fin=np.zeros((1, L + 1), bool), q=q,
                   pj=np.zeros((1, L + 1)) if pj is None else np.array([[0.0] + pj]),
                   pc=np.zeros((1, L + 1)) if pc is None else np.array([[0.0] + pc]),
                   m=np.ones((1, L + 1), int) if m is None else np.array([[1] + m]),
                   cuts=np.zeros((1, L + 1), int), gain=np.array([gain]), steps=[()])


def test_jonathan_secures_three_dice_for_six_seconds():
    """p. 17: securing 3 dice costs 1 + 2 + 3 = 6 seconds; a brake move is secured whole."""
    assert secure_cost(0, 3) == 6
    assert [secure_cost(k, 1) for k in range(4)] == [1, 2, 3, 4]
    assert secure_cost(1, 3) == 2 + 3 + 4
    # One brake move of 3 dice (gear + 2 brakes) that is sure to reach the hazard limit: rolling it is a loss
    # of control (100 s); securing it costs 6 tokens; the stop after it is worth 10 s minus the tokens left.
    T = 8
    ps = _one_plan([[0, 0, 0, 1]], m=[3])
    stop = np.full((1, 2, T + 1), BIG)
    stop[0, 1] = 10 - np.arange(T + 1)
    loss = np.full((1, 2, T + 1), 100.0)
    u0, _ = roll_values(ps, stop, loss, limit=3, K=3)
    assert u0[0, 6] == pytest.approx(10.0)          # secured with all 6 tokens: 10 s, nothing left
    assert u0[0, 8] == pytest.approx(8.0)           # 2 tokens left come off
    assert u0[0, 5] == pytest.approx(100.0)         # not enough tokens: rolled, loss of control
    u_k2, _ = roll_values(ps, stop, loss, limit=3, K=2)
    assert u_k2[0, 8] == pytest.approx(100.0)       # a bound of 2 secured dice per turn forbids it


def test_one_by_one_stops_before_the_risky_die():
    """Two hazards shown, the next die has a hazard face: stopping beats a likely loss of control."""
    T = 0
    ps = _one_plan([[0, 0, 1], [0.5, 0.5]])             # step 1 shows two hazards; step 2 one with chance 1/2
    stop = np.full((1, 3, T + 1), BIG)
    stop[0, 1], stop[0, 2] = 30.0, 10.0
    loss = np.full((1, 3, T + 1), 90.0)
    u0, table = roll_values(ps, stop, loss, limit=3, K=3, keep=True)
    assert u0[0, 0] == pytest.approx(30.0)              # 0.5 * 10 + 0.5 * 90 = 50 > 30: stop after die 1
    stop[0, 1] = 60.0
    u0, _ = roll_values(ps, stop, loss, limit=3, K=3)
    assert u0[0, 0] == pytest.approx(50.0)              # now rolling on is better


def test_the_readings_of_a_failed_big_attack():
    """Where a failed Big Attack's loss of control lies: ``latest`` (big_attack_failure: latest) lets the driver
    place it at any later point of the plan if it costs less there; ``as_laid`` (the default) leaves it on the
    step whose dice first reach the limit."""
    T = 0
    ps = _one_plan([[0, 0, 0, 1], [1], [1]], gain=3)   # hazards on the first step reach the limit at once
    stop = np.full((1, 4, T + 1), BIG)
    stop[0, 1:, 0] = [40, 30, 20]
    loss = np.zeros((1, 4, T + 1))
    loss[0, 1:, 0] = [95.0, 70.0, 80.0]                  # red tile in gear 5, yellow in gear 4, orange
    assert attack_values(ps, stop, loss, limit=3, latest=True)[0, 0] == pytest.approx(70.0)
    assert attack_values(ps, stop, loss, limit=3)[0, 0] == pytest.approx(95.0)


def test_big_attack_tokens_count_gear_gas_and_leader_dice_only():
    hz = {"gear2": 1 / 6, "gear3": 2 / 6, "gas": 1 / 6, "brake": 2 / 6, "leader": 2 / 6}
    cuts = [False] * 5
    assert _features((("gear2", "brake", "brake"), (1,), 2, ()), hz, cuts)[-1] == 1
    assert _features((("gas",), (1,), 3, ()), hz, cuts)[-1] == 1
    assert _features((("brake",), (1,), 6, ("red-zone",)), hz, cuts)[-1] == 0     # p. 23
    q = _features((("gear3", "brake"), (1,), 3, ()), hz, cuts)[5]
    assert q[:3] == pytest.approx([(4 / 6) ** 2, 2 * (2 / 6) * (4 / 6), (2 / 6) ** 2])
