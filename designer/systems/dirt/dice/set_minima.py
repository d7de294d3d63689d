"""The least loss values of sets of points under each damage, for the failures of Big Attacks laid again
(``big_attack_failure: achievable``, :mod:`.relaid`): each set of points a failure class may end at is numbered
once (``model._relay_cache["point sets"]``), and its least loss value per tokens held is worked out once per
damage, when first needed, and kept compact. ``model`` is a :class:`~.turn_model.DirtModel`.
"""
from __future__ import annotations

import numpy as np


class Minima:
    """The least loss values of the sets of points under one damage, kept compact: ``rows[slot[set], tokens]``,
    ``slot[set]`` -1 while not worked out (most sets are never met under a given damage, so a row is kept only
    for those that are)."""
    __slots__ = ("rows", "slot", "used")

    def __init__(self, T1: int):
        self.rows = np.empty((0, T1))
        self.slot = np.full(0, -1, dtype=np.int64)
        self.used = 0

    def cover(self, count: int) -> None:
        """Room in ``slot`` for the sets numbered ``0..count-1``."""
        old = len(self.slot)
        if old < count:
            slot = np.full(max(64, 2 * count), -1, dtype=np.int64)
            slot[:old] = self.slot
            self.slot = slot

    def missing(self, ids: np.ndarray) -> np.ndarray:
        """The distinct sets among ``ids`` not worked out yet, in rising order."""
        self.cover(int(ids.max()) + 1 if len(ids) else 0)
        return np.unique(ids[self.slot[ids] < 0])

    def put(self, todo: np.ndarray, values: np.ndarray) -> None:
        """Keep the least values ``values[k]`` of the sets ``todo[k]`` (not kept yet)."""
        n = len(todo)
        self.cover(int(todo.max()) + 1 if n else 0)
        if self.used + n > len(self.rows):
            rows = np.empty((max(64, 2 * (self.used + n)), self.rows.shape[1]))
            rows[:self.used] = self.rows[:self.used]
            self.rows = rows
        self.rows[self.used:self.used + n] = values
        self.slot[todo] = np.arange(self.used, self.used + n)
        self.used += n

    def of(self, ids: np.ndarray) -> np.ndarray:
        """``[set, tokens]`` of the sets ``ids`` (all worked out)."""
        return self.rows[self.slot[ids]]


def is_minima(key) -> bool:
    """Whether a key of the model's relay tables is one of :func:`minima` (they depend on the damage bound)."""
    return type(key) is tuple and key[0] == "mins"


def minima(model, damage: tuple) -> Minima:
    """The least loss values of the sets of points under one damage, kept by the model."""
    store = model._relay_cache.get(("mins", damage))
    if store is None:
        store = model._relay_cache[("mins", damage)] = Minima(model.T1)
    return store


def set_mins(model, damage: tuple, ids: np.ndarray, value) -> np.ndarray:
    """The least loss value over each set of points numbered ``ids`` under one damage, per tokens (before a
    Big Attack's gain), worked out once per damage and set: [set, tokens]."""
    store = minima(model, damage)
    fill_mins(model, damage, store.missing(ids), value, store)
    return store.of(ids)


def fill_mins(model, damage: tuple, todo: np.ndarray, value, store: Minima) -> None:
    """Work out the least loss values of the sets numbered ``todo`` (distinct, in rising order, not known yet)
    under one damage into its ``store`` (:func:`minima`)."""
    if not len(todo):
        return
    sets = model._relay_cache["point sets"]
    compiled = not isinstance(sets, dict)
    if compiled:            # the members kept with the sets (PointSets)
        nums, sizes = sets.members_of(todo)
    else:
        members = model._relay_cache["members"]
        parts = [members[i] for i in todo.tolist()]
        nums, sizes = np.concatenate(parts), np.array([len(p) for p in parts])
    table = model.fill(damage, nums, value)
    if compiled and sizes.all():        # the same least values, in C
        values = np.empty((len(todo), model.T1))
        sets.set_mins(todo, table, values)
    else:
        starts = np.cumsum(np.concatenate([[0], sizes[:-1]])).astype(np.int64)
        values = np.minimum.reduceat(table[nums, 1], starts, axis=0)
    store.put(todo, values)
