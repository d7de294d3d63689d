"""The route notation both ways (course sheet and share form), with located errors; hypothesis round trips."""
import pytest
from hypothesis import given, settings, strategies as st

from designer.core.errors import DesignerError
from designer.systems.classic.files import notation as N


def test_rulebook_example_reads_as_crossings():
    # the rulebook's ES3 as the Portuguese edition spells it: L0-L1 / C7-C6 / L2-L3 / V2-V3 / C5-C4 / J1-J4
    r = N.parse_sheet("L0 | L1-C7 C6-L2 L3-V2 V3-C5 C4-J1 | J4")
    assert N.share(r) == "L0-1/C7-6/L2-3/V2-3/C5-4/J1-4"
    assert [t.zone for t in r] == ["L", "C", "L", "V", "C", "J"]
    start, joins, finish = N.sheet_parts(r)
    assert (start, joins[0], finish) == ("L0", "L1-C7", "J4")


def test_snow_marks_and_single_zone():
    r = N.parse_sheet("J1* | - | J4*")
    assert r == (N.Traversal("J", 1, 4, True),)
    assert N.sheet(r) == "J1* | - | J4*"
    assert N.parse_sheet({"start": "C3", "joins": ["C8-J1"], "finish": "J4"}) == N.parse_share("C3-8/J1-4")


@pytest.mark.parametrize("text, where, words", [
    ("C3 | J4-C1 | C5", "join 1", "but the car is in zone C"),
    ("C3 | X3-J1 | J5", "join 1", "leaves zone X"),
    ("C3 | C8-J1 | L5", "FINISH", "is in zone L"),
    ("C3* | C8-J1 | J5", "join 1", "mixed sides"),
    ("C3 | C3-J1 | J5", "crossing 1", "same road end"),
    ("C33 | - | C4", "START", "not a road end"),
    ("C3 | C8J1 | J5", "join 1", "two road ends"),
    ("just words", "route", "not a course-sheet route"),
])
def test_sheet_errors_are_located(text, where, words):
    with pytest.raises(DesignerError) as e:
        N.parse_sheet(text)
    assert where in str(e.value.where) and words in e.value.message
    assert e.value.hint


def test_share_errors_are_located():
    with pytest.raises(DesignerError) as e:
        N.parse_share("C3-8/J1")
    assert "item 2" in e.value.where


ends = st.integers(0, 9)


@st.composite
def routes(draw):
    n = draw(st.integers(1, 8))
    snow = {z: draw(st.booleans()) for z in "CJLV"}
    out = []
    for _ in range(n):
        z = draw(st.sampled_from("CJLV"))
        a = draw(ends)
        b = draw(ends.filter(lambda x: x != a))
        out.append(N.Traversal(z, a, b, snow[z]))
    return tuple(out)


@settings(deadline=None)
@given(routes())
def test_round_trip_sheet(route):
    assert N.parse_sheet(N.sheet(route)) == route
    start, joins, finish = N.sheet_parts(route)
    assert N.parse_sheet({"start": start, "joins": joins, "finish": finish}) == route


@settings(deadline=None)
@given(routes())
def test_round_trip_share(route):
    assert N.parse_share(N.share(route)) == route
    assert N.parse_any(N.share(route)) == N.parse_any(N.sheet(route)) == route


@settings(deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_a_route_or_a_located_message(text):
    try:
        route = N.parse_any(text)
    except DesignerError as exc:
        assert exc.where and exc.hint
    else:
        assert N.parse_share(N.share(route)) == route
