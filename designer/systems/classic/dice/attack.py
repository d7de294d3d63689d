"""The optional rules around a turn: Big Attack (ART.5), dropping seconds (ART.6), the SISU card (ART.7.5),
time-control penalties (ART.22) and the chance of a loss of control for a planned set of dice.

>>> from designer.systems.classic.files.rules import load_rules
>>> rules = load_rules()
>>> big_attack(rules, ["gear3", "gear4", "gas"], [False, True, False], cells_to_finish=9)
Attack(cells=3, seconds=3, loss=False)
>>> big_attack(rules, ["gear3", "gear4", "gear5", "gas"], [True, True, True, False], cells_to_finish=9)
Attack(cells=4, seconds=4, loss=True)
"""
from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

from designer.systems.classic.dice.moves import IllegalMove
from designer.systems.classic.files.rules import Rules


@dataclass(frozen=True)
class Attack:
    cells: int       # cells the car moves
    seconds: int     # seconds tokens won (one per die rolled, even when control is lost)
    loss: bool       # a loss of control on the last cell moved


def big_attack(rules: Rules, dice: list[str], marks: list[bool], cells_to_finish: int, limit: int | None = None,
               dropped: int = 0) -> Attack:
    """ART.5: the dice rolled together, ``marks`` the hazard faces that came up.

    Fewer marks than the limit: the whole move, one second per die. Otherwise the dice are used freely (the
    unmarked ones first) up to the die that brings the limit-th mark: control is lost on that cell; the
    seconds are won all the same.
    """
    limit = limit or rules.hazard_limit["default"]
    if len(dice) < 2:
        raise IllegalMove("a Big Attack rolls at least two dice together (ART.5)")
    if len(dice) > cells_to_finish:
        raise IllegalMove(f"{len(dice)} dice for {cells_to_finish} cells to the finish: no more dice than cells "
                          "left to cross the line (ART.5, remark 1)")
    if dropped:
        raise IllegalMove("dropping seconds is not allowed in a Big Attack (ART.6)")
    if len(marks) != len(dice):
        raise ValueError("one mark flag per die")
    n = sum(marks)
    if n < limit:
        return Attack(len(dice), len(dice), False)
    unmarked = len(dice) - n
    return Attack(min(len(dice), unmarked + limit), len(dice), True)


def drop_seconds_cost(rules: Rules, marks_so_far: int, placed: int) -> int:
    """ART.6: seconds to place ``placed`` dice without rolling, once two marks are showing."""
    if marks_so_far < 2:
        raise IllegalMove("seconds are dropped only once two hazard marks are showing (ART.6)")
    return rules.drop_cost(placed)


def sisu_cancels(cause: str) -> bool:
    """ART.7.5: the SISU card cancels a loss of control from the dice, never a corner taken too fast."""
    return cause in ("marks", "bump", "double")


def time_control_penalty(rules: Rules, tokens: int) -> int:
    """ART.22: each 5-second token bid at the time control is added to the stage time."""
    if tokens < 0:
        raise ValueError("a penalty bid is 0 tokens or more")
    return tokens * rules.penalty_step


def cut_card(car, corner: str, card: str, surface: str, clean: frozenset = frozenset()):
    """ART.9.3 and Dirt ART.21: what a CORDE card drawn in ``corner`` does.

    Returns (the car, with a puncture if any; the dirty-cut tokens to add on the corner; the set of clean cuts).
    A good cut on gravel cleans the cut for good: the cars behind draw no card there.
    """
    from dataclasses import replace

    if corner in clean:
        return car, 0, clean
    if card == "good":
        return car, 0, (clean | {corner}) if surface == "gravel" else clean
    if card == "dirty":
        return car, 1, clean
    if card == "puncture":
        punctures = car.punctures + 1
        if punctures >= 3:
            raise IllegalMove("a third puncture with none repaired: the car retires (ART.9.3)")
        return replace(car, punctures=punctures), 0, clean
    raise ValueError(f"unknown cut card {card!r}: good, dirty or puncture")


def loss_chance(rules: Rules, dice: list[str], limit: int | None = None) -> Fraction:
    """The chance that rolling ``dice`` ("gear3", "gas", "orange") shows at least ``limit`` hazard marks."""
    limit = limit or rules.hazard_limit["default"]
    dist = [Fraction(1)] + [Fraction(0)] * len(dice)
    for die in dice:
        p = rules.hazard_chance(die)
        new = [Fraction(0)] * len(dist)
        for k, q in enumerate(dist):
            if q:
                new[k] += q * (1 - p)
                if k + 1 < len(new):
                    new[k + 1] += q * p
        dist = new
    return sum(dist[limit:], Fraction(0))
