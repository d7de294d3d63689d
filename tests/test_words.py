"""Counts printed with the right number: one of a thing, several things."""
from __future__ import annotations

from hypothesis import given, strategies as st

from designer.core.words import plural


def test_one_and_many():
    assert plural(1, "driver") == "1 driver" and plural(3, "driver") == "3 drivers"
    assert plural(0, "error") == "0 errors" and plural(1.5, "space") == "1.5 spaces"
    assert plural(2, "city", "cities") == "2 cities" and plural(1, "city", "cities") == "1 city"


@given(st.integers(min_value=0, max_value=10_000), st.sampled_from(["zone", "road", "card", "pilot action"]))
def test_only_one_is_singular(n, word):
    text = plural(n, word)
    assert text.startswith(f"{n} ") and text.endswith(word if n == 1 else word + "s")
