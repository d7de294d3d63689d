from hypothesis import given
from hypothesis import strategies as st

from designer.core import hexgrid as hg

hexes = st.tuples(st.integers(-50, 50), st.integers(-50, 50))
edges = st.sampled_from(list("ABCDEF"))


@given(hexes)
def test_six_rotations_are_the_identity(h):
    assert hg.rotate_hex(h, 6) == h
    r = h
    for _ in range(6):
        r = hg.rotate_hex(r, 1)
    assert r == h


@given(edges, st.integers(0, 5))
def test_edge_rotation_round_trips(e, k):
    assert hg.unrotate_edge(hg.rotate_edge(e, k), k) == e
    assert hg.rotate_edge(e, 6) == e


@given(hexes, edges)
def test_neighbours_are_symmetric(h, e):
    n = hg.neighbour(h, e)
    assert hg.neighbour(n, hg.opposite(e)) == h
    assert hg.edge_between(h, n) == e
    assert hg.distance(h, n) == 1


@given(hexes, st.integers(0, 5))
def test_rotating_a_step_rotates_its_edge(h, k):
    for e in "ABCDEF":
        step = hg.DIRECTIONS[hg.edge_index(e)]
        assert hg.rotate_hex(step, k) == hg.DIRECTIONS[hg.edge_index(hg.rotate_edge(e, k))]


def test_conventions():
    assert hg.neighbour((0, 0), "A") == (0, -1)       # A is the top edge
    assert hg.opposite("A") == "D" and hg.opposite("B") == "E" and hg.opposite("C") == "F"
    x, y = hg.edge_normal("A")
    assert abs(x) < 1e-9 and y < 0                    # screen y grows downwards
    bx, by = hg.edge_normal("B")
    assert bx > 0 and by < 0                          # B is upper-right
    # Pixel centres of neighbours are one flat-to-flat distance apart.
    for e in "ABCDEF":
        px, py = hg.to_pixel(hg.neighbour((0, 0), e))
        assert abs((px * px + py * py) ** 0.5 - hg.SQRT3) < 1e-9


def test_bad_edges():
    import pytest

    with pytest.raises(ValueError):
        hg.edge_index("G")
    with pytest.raises(ValueError):
        hg.edge_index(7)


def test_edge_midpoints_point_to_the_neighbour():
    for e in "ABCDEF":
        px, py = hg.to_pixel(hg.neighbour((0, 0), e))
        mx, my = hg.edge_midpoint(e)
        assert abs(px / 2 - mx) < 1e-9 and abs(py / 2 - my) < 1e-9
