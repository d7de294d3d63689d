from hypothesis import assume, given, settings
from hypothesis import strategies as st

from designer.core import hexgrid
from designer.systems.dirt.board.stage import Stage, load_stage
from designer.systems.dirt.board.track import assemble, driving_order
from tests.conftest import STAGE_FILES

ROAD_NUMBERS = [n for n in range(204, 233)]


@st.composite
def random_stages(draw, dirt):
    numbers = draw(st.lists(st.sampled_from(ROAD_NUMBERS), unique=True, min_size=1, max_size=14))
    tiles = ["202a A"]
    for n in numbers:
        face = dirt.face(f"{n}{draw(st.sampled_from('ab'))}")
        entry = draw(st.sampled_from(sorted(face.edges)))
        tiles.append(f"{face.id} {entry}")
    tiles.append(f"203a {draw(st.sampled_from('AD'))}")
    return Stage(tiles=tiles)


def _check_round_trip(stage, dirt):
    track = assemble(stage, dirt)
    hexes = [t.hex for t in track.tiles]
    assume(len(set(hexes)) == len(hexes))
    # Each tile's exit meets the next tile's entry.
    for a, b in zip(track.tiles, track.tiles[1:]):
        assert hexgrid.neighbour(a.hex, a.world_exit) == b.hex
        assert hexgrid.opposite(a.world_exit) == b.world_entry
    back = driving_order([(t.tile, t.hex, t.rotation) for t in reversed(track.tiles)], dirt)
    assert [(p.tile, p.entry) for p in back] == [(p.tile, p.entry) for p in stage.tiles]


def test_assembly_then_reverse_gives_back_the_order(dirt):
    @settings(max_examples=120, deadline=None)
    @given(random_stages(dirt))
    def run(stage):
        _check_round_trip(stage, dirt)

    run()


def test_rulebook_stages_reverse(dirt):
    for f in STAGE_FILES:
        stage = load_stage(f)
        track = assemble(stage, dirt)
        back = driving_order([(t.tile, t.hex, t.rotation) for t in track.tiles], dirt)
        assert [(p.tile, p.entry) for p in back] == [(p.tile, p.entry) for p in stage.tiles], f


def test_positioned_placements_keep_their_place(dirt):
    stage = load_stage(STAGE_FILES[0])
    track = assemble(stage, dirt)
    moved = Stage(tiles=[{"tile": t.tile, "at": t.hex, "rotation": t.rotation, "entry": t.entry}
                         for t in track.tiles])
    track2 = assemble(moved, dirt)
    assert [(t.hex, t.rotation, t.entry, t.exit) for t in track2.tiles] == \
        [(t.hex, t.rotation, t.entry, t.exit) for t in track.tiles]


def test_reversed_tiles_flip_lanes(dirt):
    a = assemble(Stage(tiles=["202a A", "208a D", "203a A"]), dirt)
    b = assemble(Stage(tiles=["202a A", "208a B", "203a A"]), dirt)
    # 208a driven D->B turns right: its inside cells are in the driver's right lane (1).
    assert a.tiles[1].reversed is False or a.tiles[1].face.ends == ["B", "D"]
    assert b.tiles[1].reversed is False and a.tiles[1].reversed is True
    lanes_a = {d["cell"]: d["lane"] for n, d in a.graph.nodes(data=True) if d["index"] == 1}
    lanes_b = {d["cell"]: d["lane"] for n, d in b.graph.nodes(data=True) if d["index"] == 1}
    assert all(lanes_a[c] == 1 - lanes_b[c] for c in lanes_a)


def test_unknown_tiles_do_not_raise(dirt):
    track = assemble(Stage(tiles=["202a A", "999z D", "205a D"]), dirt)
    assert track.unknown == [(1, "999z")]
    assert not track.has_cells
