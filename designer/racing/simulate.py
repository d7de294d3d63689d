"""Monte Carlo check of an expected-time policy: play it on the course with dice, many times, seeded.

The turn model's player (``player.play(state, bank, decision, rng, value)``) rolls the dice of one turn and
returns the :class:`~designer.racing.mdp.Outcome` that happened; :func:`simulate` repeats whole runs from
the best start and reports the distribution of stage times and turns.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from typing import Iterable

import numpy as np

from designer.racing.mdp import Solution


def mean_sd_ci95(x) -> tuple[float, float, list[float]]:
    """Rounded to the millisecond: the mean of ``x``, its standard deviation and the 95 % confidence interval of
    the mean (normal approximation); a single value has no spread."""
    x = np.asarray(x, dtype=float)
    n = len(x)
    mean = float(x.mean())
    sd = float(x.std(ddof=1)) if n > 1 else 0.0
    half = 1.96 * sd / math.sqrt(n) if n > 1 else 0.0
    return round(mean, 3), round(sd, 3), [round(mean - half, 3), round(mean + half, 3)]


@dataclass
class Runs:
    """Stage times, turns and losses of control of simulated runs."""
    times: np.ndarray
    turns: np.ndarray
    losses: np.ndarray
    seed: int | None = None

    @property
    def n(self) -> int:
        return len(self.times)

    @property
    def mean(self) -> float:
        return float(self.times.mean())

    @property
    def sd(self) -> float:
        return float(self.times.std(ddof=1)) if self.n > 1 else 0.0

    @property
    def ci95(self) -> tuple[float, float]:
        """95 % confidence interval of the mean (normal approximation)."""
        half = 1.96 * self.sd / math.sqrt(self.n) if self.n > 1 else 0.0
        return self.mean - half, self.mean + half

    def percentile(self, q: float) -> float:
        return float(np.percentile(self.times, q))

    def to_dict(self) -> dict:
        lo, hi = self.ci95
        return {"runs": self.n, "seed": self.seed, "mean": round(self.mean, 3), "sd": round(self.sd, 3),
                "ci95": [round(lo, 3), round(hi, 3)],
                "p10": self.percentile(10), "p50": self.percentile(50), "p90": self.percentile(90),
                "turns_mean": round(float(self.turns.mean()), 3),
                "loss_of_control_chance": round(float((self.losses > 0).mean()), 4)}


def simulate(solution: Solution, player, starts: Iterable, runs: int = 1000, seed: int | None = 0,
             bank: int = 0, max_turns: int = 1000) -> Runs:
    """Play the solution's policy ``runs`` times from the best of ``starts``."""
    rng = random.Random(seed)
    model = solution.model
    starts = list(starts)
    start = min(starts, key=lambda s: solution.value(s, bank))
    value = solution._vector
    times = np.zeros(runs)
    turns = np.zeros(runs, dtype=np.int64)
    losses = np.zeros(runs, dtype=np.int64)
    for r in range(runs):
        s, b = start, bank
        total = 0.0
        n = lost = 0
        while True:
            term = model.terminal(s)
            if term is not None:
                total += float(term[b])
                break
            decision = solution.decision(s, b)
            o = player.play(s, b, decision, rng, value)
            total += o.seconds
            n += 1 if getattr(decision, "turn", True) else 0
            lost += bool(o.loss)
            s, b = o.state, o.bank
            if n > max_turns:
                raise RuntimeError("a simulated run did not finish")
        times[r], turns[r], losses[r] = total, n, lost
    return Runs(times=times, turns=turns, losses=losses, seed=seed)
