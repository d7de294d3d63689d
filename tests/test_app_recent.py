"""The app's small shared cache: the last values made by key, least recently used dropped first."""
from __future__ import annotations

import threading

from designer.app.recent import Recent


def test_keeps_the_last_used_and_makes_each_value_once():
    made = []
    recent = Recent(2)

    def maker(k):
        return lambda: made.append(k) or k * 10

    assert recent.get(1, maker(1)) == 10 and recent.get(2, maker(2)) == 20
    assert recent.get(1, maker(1)) == 10                  # a hit: not made again, and now the most recent
    assert recent.get(3, maker(3)) == 30                  # drops 2, the least recently used
    assert len(recent) == 2 and recent.get(1, maker(1)) == 10
    assert recent.get(2, maker(2)) == 20
    assert made == [1, 2, 3, 2]


def test_many_threads_at_once_keep_the_bound():
    recent = Recent(5)
    threads = [threading.Thread(target=lambda i=i: [recent.get(k % 9, lambda: i) for k in range(200)])
               for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(recent) <= 5
