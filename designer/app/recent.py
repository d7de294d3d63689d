"""A few values kept by key for every session of the app (sessions run their scripts in threads of their own)."""
from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any, Callable, Hashable


class Recent:
    """The last ``size`` values made, by key, the least recently used dropped first; thread-safe. A value is made
    outside the lock (two sessions may both make it; either result is kept)."""

    def __init__(self, size: int):
        self.size = size
        self._values: "OrderedDict[Hashable, Any]" = OrderedDict()
        self._lock = threading.Lock()

    def get(self, key: Hashable, make: Callable[[], Any]) -> Any:
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
        value = make()
        with self._lock:
            self._values[key] = value
            while len(self._values) > self.size:
                self._values.popitem(last=False)
        return value

    def __contains__(self, key: Hashable) -> bool:
        with self._lock:
            return key in self._values

    def __len__(self) -> int:
        return len(self._values)
