"""What one turn from a cell can see: the window of road ahead of it, as a key under which the turn's ends are kept
for every stage that has the same road there.

A turn moves the car forward one die at a time: a die moves it one cell along a link, or on across the cells a jump
flies over, and a turn uses each die of its dashboard column at most once. So on a road whose links all go forward in driving order
(:attr:`~designer.systems.dirt.driving.road.Road.margin` 0) every cell a turn from ``c`` can reach lies between ``c``
and :func:`far`, and the ends of that turn depend on nothing but the cells in between: their limits, fords, finish
cells, jumps and links, each link written relative to its own cell. Two stages (or the same stage before and after an
edit elsewhere) with the same window give the same ends, relative to the cell. :class:`Windows` writes the windows of
a road as keys (a tuple of cell numbers); the line search (:mod:`designer.systems.dirt.driving.lines`) keeps the ends
it finds under that key, the dashboard column and the rules, and asks the turn engine only for windows it has not
seen.

>>> from designer.systems.dirt.board.stage import load_stage
>>> from designer.systems.dirt.board.track import load_track
>>> from designer.systems.dirt.driving.road import road_of
>>> road = road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph)
>>> w = Windows(road, moves=8)
>>> again = Windows(road_of(load_track(load_stage("stages/dirt/rally-1/ss1.yaml")).graph), moves=8)
>>> [w.window(c) for c in range(5)] == [again.window(c) for c in range(5)]
True
"""
from __future__ import annotations

#: Every distinct cell description met, numbered for the whole process (a number is part of the keys kept, so it is
#: never given to another description; there are as many as kinds of cell, a few hundred in every box).
_CELLS: dict[tuple, int] = {}


def moves_in_a_turn(pool, rules) -> int:
    """The most dice moves one turn can make with a dashboard column: each die once; a brake die moves with the gear
    die it is played with, and alone only as the red zone's brake die."""
    return pool.gear + pool.gas + pool.leader + (pool.brake if rules.options.red_zone else 0)


class Windows:
    """The windows of one road for turns of at most ``moves`` dice moves; :meth:`window` is None where a road's links
    go backwards (a circuit's laps), or once :meth:`check` has found an end past its window: there the ends are not
    shared."""

    def __init__(self, road, moves: int):
        self.road = road
        self.shareable = road.margin == 0
        self._ids: list[int] | None = None
        self._far: list[int] | None = None
        self._kept: dict[int, tuple] = {}
        self.moves = moves

    def _build(self) -> None:
        road = self.road
        n = len(road.nodes)
        ids = []
        for i in range(n):
            desc = (road.limit[i], road.ford[i], road.finish[i], road.jump[i],
                    tuple(v - i for v in road.succ[i]), tuple(v - i for v in road.fly[i]))
            k = _CELLS.get(desc)
            if k is None:
                k = _CELLS[desc] = len(_CELLS)
            ids.append(k)
        # Where one die can take the car from each cell: the next cell, and past a jump cell the cells it flies to.
        dest = []
        for u in range(n):
            out = set()
            for v in road.succ[u]:
                out.add(v)
                if road.jump[v]:
                    for x in road.fly[v]:
                        out.add(x)
                        out.update(road.fly[x])
            dest.append(tuple(out))
        # far[c]: the highest cell reachable from c in at most `moves` dice (every link goes forward).
        far = list(range(n))
        for _ in range(self.moves):
            nxt = far[:]
            changed = False
            for u in range(n):
                best = nxt[u]
                for v in dest[u]:
                    if far[v] > best:
                        best = far[v]
                if best != nxt[u]:
                    nxt[u] = best
                    changed = True
            far = nxt
            if not changed:
                break
        self._ids, self._far = ids, far

    def far(self, cell: int) -> int:
        if self._far is None:
            self._build()
        return self._far[cell]

    def check(self, cell: int, ends) -> bool:
        """Whether every end of a turn from ``cell`` lies in its window (the bound holds for the rules as they are;
        a rule that moved a car further in one turn would fail here, and the line search then stops sharing).
        ``ends`` are in order of their cell, as the turn engine gives them: the first and the last are read."""
        return not ends or (ends[0][0] >= cell and ends[-1][0] <= self.far(cell))

    def window(self, cell: int) -> tuple | None:
        """The window of road a turn from ``cell`` can see, as a key (equal keys for the same road ahead, in any
        stage), or None when the road's windows are not shared."""
        if not self.shareable:
            return None
        hit = self._kept.get(cell)
        if hit is not None:
            return hit
        if self._ids is None:
            self._build()
        key = self._kept[cell] = tuple(self._ids[cell:self._far[cell] + 1])
        return key
