"""Small helpers for the words every game's pages and books print."""
from __future__ import annotations


def plural(n, word: str, many: str | None = None) -> str:
    """``1 space``, ``2 spaces``; numbers that are not whole take the plural (``1.5 spaces``).

    >>> plural(1, "driver"), plural(3, "driver"), plural(2, "city", "cities")
    ('1 driver', '3 drivers', '2 cities')
    """
    return f"{n} {word if n == 1 else (many or word + 's')}"
