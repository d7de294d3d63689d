"""The values of the points of plans under one damage (:meth:`DirtModel.fill`): for each point (cell, gear,
finished, cuts so far), what ending the turn there and what losing control there are worth, per seconds tokens
held, from the values of the states they lead to.

:func:`fill` reads the outcomes straight off the lists the model keeps per kind of point (the flats of its cuts,
:meth:`DirtModel.loss_ends` of its cuts and crash marks) and asks the value of each state they lead to once per
call, however many outcomes lead there. :func:`fill_reference` goes through :meth:`DirtModel.stop_outcomes` and
:meth:`DirtModel.loss_outcomes` and asks a value per outcome: the reference the tests compare it with, bit for bit
(the same chances, seconds and values, multiplied and added in the same order)."""
from __future__ import annotations

import numpy as np

FIN = ("finished",)


def fill(model, damage: tuple, gids: np.ndarray, value) -> np.ndarray:
    """Work out the values of the points numbered ``gids`` under ``damage`` (those not known yet) and return
    that damage's table of point values [number, stop/loss, tokens]."""
    arr, done = model._table(damage)
    known = done[gids]
    if known.all():
        return arr
    todo = np.unique(gids[~known]).tolist()
    points, flats, loss_ends, marks_of = model._point_list, model._flats, model.loss_ends, model.crash_marks
    seconds = model._stop_seconds
    sisu_same = model.mishaps.sisu_gear == "same"
    sisu_gear = 0 if sisu_same else int(model.mishaps.sisu_gear)
    states: dict = {}                  # next state -> its row in ``ahead`` (each value asked for once)
    rows: list = []                    # per outcome, in the order of the model's lists: its next state's row
    chances: list = []
    secs: list = []
    sizes: list = []                   # outcomes of each list: the stop and the loss of each point in turn
    for g in todo:
        cell, gear, fin, cuts = points[g]
        sec = seconds.get(gear)
        if sec is None:
            sec = seconds[gear] = float(model.rules.seconds(gear))
        if fin:                        # past the finish line: finished, whether stopped or lost (p. 20)
            k = states.get(FIN)
            if k is None:
                k = states[FIN] = len(states)
            rows += (k, k)
            chances += (1.0, 1.0)
            secs += (sec, sec)
            sizes += (1, 1)
            continue
        stops = flats(cuts, damage)
        for p, d in stops:
            st = (cell, gear, d)
            k = states.get(st)
            if k is None:
                k = states[st] = len(states)
            rows.append(k)
            chances.append(p)
            secs.append(sec)
        losses = loss_ends(cuts, marks_of(cell, gear), damage)
        back = gear if sisu_same else sisu_gear
        for p, s, sisu, d in losses:
            st = (cell, back if sisu else 0, d)
            k = states.get(st)
            if k is None:
                k = states[st] = len(states)
            rows.append(k)
            chances.append(p)
            secs.append(s)
        sizes += (len(stops), len(losses))
    values = np.array([value(st) for st in states]).reshape(len(states), model.T1)   # may solve other states
    ahead = values[rows]
    mixed = _sums(np.array(chances), np.array(secs), ahead, sizes, model.T1)
    arr, done = model._table(damage)   # fetched again: the values above may have grown it
    arr[todo, 0], arr[todo, 1], done[todo] = mixed[0::2], mixed[1::2], True
    return arr


def _sums(chances: np.ndarray, secs: np.ndarray, ahead: np.ndarray, sizes, T1: int) -> np.ndarray:
    """The expected value of each list of outcomes, all at once: each list's terms chance * (seconds + value
    of the next state) added in order from 0 (column 0 of ``pad``; the zeros after a list's last term change no
    sum, which never is -0). ``sizes``: the number of outcomes of each list, the lists one after the other."""
    sizes = np.array(sizes)
    n = len(chances)
    pad = np.zeros((len(sizes), int(sizes.max()) + 1, T1))
    pad[np.repeat(np.arange(len(sizes)), sizes), np.arange(1, n + 1) - np.repeat(np.cumsum(sizes) - sizes, sizes)] = \
        chances[:, None] * (secs[:, None] + ahead)
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
    mixed = _sums(np.array([o[0] for o in flat]), np.array([o[1] for o in flat]), ahead,
                  [len(outs) for outs in lists], model.T1)
    arr, done = model._table(damage)
    arr[todo, 0], arr[todo, 1], done[todo] = mixed[0::2], mixed[1::2], True
    return arr
