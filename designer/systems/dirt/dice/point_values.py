"""The values of the points of plans under one damage (:meth:`DirtModel.fill`): for each point (cell, gear,
finished, cuts so far), what ending the turn there and what losing control there are worth, per seconds tokens
held, from the values of the states they lead to.

:func:`fill` reads the outcomes straight off the lists the model keeps per kind of point (the flats of its cuts,
:meth:`DirtModel.loss_ends` of its cuts and crash marks) and asks the value of each state they lead to once per
call, however many outcomes lead there; its sums are compiled where the plan search is (``point_sums`` of
``plan_search.COMPILED``; numpy otherwise). :func:`fill_reference` goes through :meth:`DirtModel.stop_outcomes`
and :meth:`DirtModel.loss_outcomes` and asks a value per outcome: the reference the tests compare it with, bit for
bit (the same chances, seconds and values, multiplied and added in the same order)."""
from __future__ import annotations

import numpy as np

from designer.systems.dirt.dice import plan_search

FIN = ("finished",)


def fill(model, damage: tuple, gids: np.ndarray, value) -> np.ndarray:
    """Work out the values of the points numbered ``gids`` under ``damage`` (those not known yet) and return
    that damage's table of point values [number, stop/loss, tokens]."""
    arr, done = model._table(damage)
    miss = gids[~done[gids]]
    if not len(miss):
        return arr
    todo = sorted(set(miss.tolist()))
    info, kinds = model._point_info, model._point_kinds
    if todo[-1] >= len(info):
        _grow_info(model)
    states: dict = {}                  # next state -> its row in ``ahead`` (each value asked for once)
    number = states.setdefault         # a state's row, numbered when first met (len(states) read before adding)
    rows: list = []                    # per outcome, in the order of the model's lists: its next state's row
    chances: list = []
    secs: list = []
    where: list = []                   # per outcome: its list (the stop, then the loss of each point) and place
    at = -2 * _PLACES                  # the place of the previous point's stop list
    for g in todo:
        cell, gear, fin, cuts, marks, sec, back = info[g]
        at += 2 * _PLACES
        if fin:                        # past the finish line: finished, whether stopped or lost (p. 20)
            k = number(FIN, len(states))
            rows += (k, k)
            chances += (1.0, 1.0)
            secs += (sec, sec)
            where += (at + 1, at + _PLACES + 1)
            continue
        kind = kinds.get((cuts, marks, damage))
        if kind is None:
            kind = kinds[(cuts, marks, damage)] = _kind(model, cuts, marks, damage)
        stop_p, stop_d, loss_p, loss_s, loss_ends, stop_at, loss_at = kind
        rows += [number((cell, gear, d), len(states)) for d in stop_d]
        rows += [number((cell, back if sisu else 0, d), len(states)) for sisu, d in loss_ends]
        chances += stop_p
        chances += loss_p
        secs += [sec] * len(stop_p)
        secs += loss_s
        where += [at + w for w in stop_at]
        where += [at + w for w in loss_at]
    values = np.array([value(st) for st in states]).reshape(len(states), model.T1)   # may solve other states
    arr, done = model._table(damage)   # fetched again: the values above may have grown it
    if plan_search.COMPILED is not None:
        n = len(rows)
        plan_search.COMPILED.point_sums(arr, np.array(todo, dtype=np.int64), np.fromiter(chances, float, n),
                                        np.fromiter(secs, float, n), np.fromiter(rows, np.int64, n),
                                        np.fromiter(where, np.int64, n), values, _PLACES)
    else:
        mixed = _sums(np.array(chances), np.array(secs), values[rows], np.array(where), model.T1)
        arr[todo, 0], arr[todo, 1] = mixed[0::2], mixed[1::2]
    done[todo] = True
    return arr


def _grow_info(model) -> None:
    """Number every point numbered so far in the model's list of what :func:`fill` reads of a point: (cell, gear,
    finished, cuts, crash marks, the time card's seconds as a float, the SISU card's gear)."""
    info, rules = model._point_info, model.rules
    same = model.mishaps.sisu_gear == "same"
    for pt in model._point_list[len(info):]:
        if pt is None:                 # number 0: no point
            info.append(None)
            continue
        cell, gear, fin, cuts = pt
        info.append((cell, gear, fin, cuts, model.crash_marks(cell, gear), float(rules.seconds(gear)),
                     gear if same else int(model.mishaps.sisu_gear)))


_PLACES = 1 << 12          # a list's outcomes: at most 4095 (its place in ``pad``: list * _PLACES + 1 + outcome)


def _kind(model, cuts: int, marks: int, damage: tuple) -> tuple:
    """What ending a turn or losing control at a point off the finish line with ``cuts`` cuts entered and a crash
    drawing ``marks`` damage tokens does under ``damage``, whatever its cell and gear: the chances and damages
    after of its stop (the flats), the chances, seconds and (SISU card, damage after) of its loss of control
    (:meth:`DirtModel.loss_ends`), in the order of the model's lists of outcomes, and the places of both lists'
    outcomes in ``where`` from the point's own (1 + outcome, _PLACES + 1 + outcome)."""
    flats = model._flats(cuts, damage)
    losses = model.loss_ends(cuts, marks, damage)
    if len(flats) >= _PLACES or len(losses) >= _PLACES:
        raise ValueError("more outcomes of a point than the values of points are laid out for")
    return ([p for p, _d in flats], [d for _p, d in flats], [p for p, _s, _u, _d in losses],
            [s for _p, s, _u, _d in losses], [(u, d) for _p, _s, u, d in losses],
            list(range(1, 1 + len(flats))), list(range(_PLACES + 1, _PLACES + 1 + len(losses))))


def _sums(chances: np.ndarray, secs: np.ndarray, ahead: np.ndarray, where: np.ndarray, T1: int) -> np.ndarray:
    """The expected value of each list of outcomes, all at once: each list's terms chance * (seconds + value
    of the next state) added in order from 0 (column 0 of ``pad``; the zeros after a list's last term change no
    sum, which never is -0). ``where``: list * _PLACES + 1 + place of each outcome in its list (every list has
    one at least)."""
    lists, place = np.divmod(where, _PLACES)
    pad = np.zeros((int(lists[-1]) + 1, int(place.max()) + 1, T1))
    pad[lists, place] = chances[:, None] * (secs[:, None] + ahead)
    return np.add.accumulate(pad, axis=1)[:, -1]


def fill_reference(model, damage: tuple, gids: np.ndarray, value) -> np.ndarray:
    """:func:`fill` through the model's lists of outcomes, a value asked for per outcome (the reference)."""
    arr, done = model._table(damage)
    miss = gids[~done[gids]]
    if not len(miss):
        return arr
    todo = np.unique(miss).tolist()
    lists = []
    for g in todo:
        full = model._point_list[g] + (damage,)
        lists += (model.stop_outcomes(*full), model.loss_outcomes(*full))
    flat = [o for outs in lists for o in outs]
    ahead = np.array([value(o[2]) for o in flat]).reshape(len(flat), model.T1)   # may solve other states
    where = [i * _PLACES + 1 + j for i, outs in enumerate(lists) for j in range(len(outs))]
    mixed = _sums(np.array([o[0] for o in flat]), np.array([o[1] for o in flat]), ahead, np.array(where), model.T1)
    arr, done = model._table(damage)
    arr[todo, 0], arr[todo, 1], done[todo] = mixed[0::2], mixed[1::2], True
    return arr
