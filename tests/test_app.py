"""The Streamlit app's plain parts: editing, the map, uploads and sources, the analysis reshaped for the page (the
flows through AppTest are in test_app_pages.py)."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from designer.app.dirt import analysis, editing, mapview, sources
from designer.core import hexgrid
from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import Stage, dumps_stage, load_stage, share_code
from designer.systems.dirt.board.track import assemble
from designer.systems.dirt.board.validate import validate

ROOT = Path(__file__).resolve().parent.parent
MAIN = str(ROOT / "designer" / "app" / "main.py")
RALLY1_SS1 = ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml"


def errors_of(stage, ts):
    return [p for p in validate(stage, ts) if p.severity == "error"]


# -- editing: pure functions ---------------------------------------------------------------

def test_turn_of_follows_clockwise_edges():
    assert editing.turn_of("D", "A") == "straight"
    assert editing.turn_of("D", "B") == "right"
    assert editing.turn_of("D", "F") == "left"
    assert editing.turn_of("D", "C") == "hairpin right"
    assert editing.turn_of("D", "E") == "hairpin left"
    assert editing.turn_of("D", None) == "dead end"


def test_entry_options_of_faces(dirt):
    curve = editing.entry_options(dirt.face("208a"))
    assert {(o.entry, o.exit) for o in curve} == {("B", "D"), ("D", "B")}
    assert {o.turn for o in curve} == {"left", "right"}
    hairpin = editing.entry_options(dirt.face("210a"))
    assert {o.turn for o in hairpin} == {"hairpin left", "hairpin right"}
    assist = editing.entry_options(dirt.face("201a"))
    assert [(o.entry, o.exit) for o in assist] == [("D", None)]
    # The reference direction of the face (ends[0]) comes first.
    assert editing.entry_options(dirt.face("202a"))[0].entry == dirt.face("202a").ends[0]


def test_add_tile_attaches_at_the_open_end(dirt):
    s = editing.new_stage("Test")
    for tid in ("202a", "205a", "208a", "204a", "203a"):
        s = editing.add_tile(s, dirt, tid)
    assert s.tile_ids == ["202a", "205a", "208a", "204a", "203a"]
    track = assemble(s, dirt)
    for prev, t in zip(track.tiles, track.tiles[1:]):
        assert hexgrid.neighbour(prev.hex, prev.world_exit) == t.hex
        assert hexgrid.opposite(prev.world_exit) == t.world_entry
    assert not errors_of(s, dirt)


def test_add_with_a_turn_picks_the_entry_edge(dirt):
    s = editing.add_tile(editing.new_stage(), dirt, "202a")
    left = editing.add_tile(s, dirt, "208a", turn="left")
    right = editing.add_tile(s, dirt, "208a", turn="right")
    assert editing.placement_turn(dirt, left.tiles[1]) == "left"
    assert editing.placement_turn(dirt, right.tiles[1]) == "right"
    assert left.tiles[1].entry != right.tiles[1].entry
    with pytest.raises(ValueError, match="no road on edge"):
        editing.add_tile(s, dirt, "208a", entry="A")


def test_reverse_swaps_the_entry_and_twice_is_identity(dirt):
    s = Stage(tiles=["202a A", "208a D", "203a A"])
    r = editing.reverse_tile(s, dirt, 1)
    assert r.tiles[1].entry == "B"
    assert editing.placement_turn(dirt, r.tiles[1]) == "left"
    assert editing.reverse_tile(r, dirt, 1) == s
    assert s.tiles[1].entry == "D"              # the argument is left untouched
    # A one-edge tile cannot be turned round.
    a = Stage(tiles=["202a A", "203a A", "201a D"])
    assert editing.reverse_tile(a, dirt, 2) == a


def test_junction_takes_its_exit_and_cycles(official):
    s = editing.add_tile(editing.new_stage(tileset="official"), official, "102a")
    s = editing.add_tile(s, official, "141b", entry="C", exit_="F")
    assert s.tiles[1].short() == "141b C F"
    seen = {editing.reverse_tile(s, official, 1).tiles[1].short()}
    r = s
    for _ in range(len(editing.entry_options(official.face("141b")))):
        r = editing.reverse_tile(r, official, 1)
        seen.add(r.tiles[1].short())
    assert r == s and len(seen) == 4


def test_insert_replace_remove_move(dirt):
    s = Stage(tiles=["202a A", "205a D", "203a A"])
    ins = editing.insert_tile(s, dirt, 1, "206a")
    assert ins.tile_ids == ["202a", "206a", "205a", "203a"]
    assert not errors_of(ins, dirt)
    rep = editing.replace_tile(Stage(tiles=["202a A", "208a D", "203a A"]), dirt, 1, "217a")
    assert rep.tile_ids == ["202a", "217a", "203a"]
    assert editing.placement_turn(dirt, rep.tiles[1]) == "right"      # keeps turning the same way
    rem = editing.remove_tile(ins, 1)
    assert rem == s
    mv = editing.move_tile(ins, 1, 2)
    assert mv.tile_ids == ["202a", "205a", "206a", "203a"]
    with pytest.raises(IndexError):
        editing.remove_tile(s, 3)
    with pytest.raises(IndexError):
        editing.insert_tile(s, dirt, 5, "206a")


def test_history_undo_redo(dirt):
    h = editing.History()
    a = Stage(tiles=["202a A"])
    b = editing.add_tile(a, dirt, "205a")
    c = editing.add_tile(b, dirt, "203a")
    h = editing.record(h, a, b)
    h = editing.record(h, b, c)
    assert editing.record(h, c, c) == h                 # no change, nothing recorded
    h, cur = editing.undo(h, c)
    assert cur == b and h.can_redo
    h, cur = editing.undo(h, cur)
    assert cur == a and not h.can_undo
    assert editing.undo(h, cur) == (h, a)               # nothing left to undo
    h, cur = editing.redo(h, cur)
    assert cur == b
    h2 = editing.record(h, cur, editing.add_tile(cur, dirt, "204a"))
    assert not h2.can_redo                              # a new edit clears redo
    small = editing.History(limit=3)
    s = a
    for tid in ("204a", "205a", "206a", "207a", "203a"):
        n = editing.add_tile(s, dirt, tid)
        small = editing.record(small, s, n)
        s = n
    assert len(small.undo) == 3


def test_box_and_palette_filters(dirt):
    s = Stage(tiles=["202a A", "210b C", "203a A"])
    assert not editing.in_box("210a", s) and not editing.in_box("202b", s)
    assert editing.in_box("211a", s)
    left = editing.tiles_in_box(s, dirt)
    assert not {"202a", "202b", "210a", "210b", "203a", "203b"} & set(left)
    assert len(left) == len(dirt.tiles) - 6
    cut = editing.palette(dirt, editing.PaletteFilter(cut=True))
    assert cut and all(f.features.cut is not None for f in cut)
    hair = editing.palette(dirt, editing.PaletteFilter(shapes=("hairpin",)))
    assert hair and all(f.kind == "hairpin" for f in hair)
    lim = editing.palette(dirt, editing.PaletteFilter(limits=(1,)))
    assert lim and all(1 in f.features.limits for f in lim)
    ford = editing.palette(dirt, editing.PaletteFilter(ford=True, dangers=("orange",)))
    assert ford and all(f.features.ford and f.danger == "orange" for f in ford)
    jump = editing.palette(dirt, editing.PaletteFilter(jump=True))
    assert jump and all(f.features.jumps for f in jump)
    boxed = editing.palette(dirt, editing.PaletteFilter(in_box_only=True), s)
    assert {f.id for f in boxed} == set(left)
    assert [f.id for f in editing.palette(dirt, editing.PaletteFilter(shapes=("start",)))] == ["202a", "202b"]


def test_assistance_toggle(dirt):
    s = Stage(tiles=["202a A", "205a D", "203a A"])
    on = editing.set_assistance(s, dirt, True)
    assert on.tile_ids[-1] == "201a" and on.rally.assistance_after
    assert editing.has_assistance(on, dirt)
    assert not errors_of(on, dirt)
    off = editing.set_assistance(on, dirt, False)
    assert off.tile_ids == s.tile_ids and not editing.has_assistance(off, dirt)


def test_relative_form_of_a_positioned_layout(dirt):
    stage = load_stage(RALLY1_SS1)
    track = assemble(stage, dirt)
    positioned = stage.with_tiles([p.model_copy(update={"at": t.hex, "rotation": t.rotation})
                                   for p, t in zip(stage.tiles, track.tiles)])
    rel = editing.relative_form(positioned, dirt)
    assert all(p.at is None for p in rel.tiles)
    again = assemble(rel, dirt)
    assert [(t.hex, t.rotation) for t in again.tiles] == [(t.hex, t.rotation) for t in track.tiles]
    # A layout that is not one chain is left alone.
    broken = positioned.with_tiles([positioned.tiles[0], positioned.tiles[2]])
    assert editing.relative_form(broken, dirt) == broken


# -- the map ---------------------------------------------------------------------------------

def test_tile_from_event_forms():
    assert mapview.tile_from_event({"selection": {"tile_pick": [{"index": 3}]}}) == 3
    assert mapview.tile_from_event({"selection": {"tile_pick": {"index": [2]}}}) == 2
    assert mapview.tile_from_event({"selection": {"tile_pick": [{"index": -1}]}}) == mapview.OPEN_END
    assert mapview.tile_from_event({"selection": {"tile_pick": []}}) is None
    assert mapview.tile_from_event({"selection": {}}) is None
    assert mapview.tile_from_event(None) is None

    class Event:
        class selection:
            tile_pick = [{"index": 5}]
    assert mapview.tile_from_event(Event()) == 5


def test_map_points_layout_and_click_geometry(dirt):
    from designer.systems.dirt.board.render import stage_svg

    stage = load_stage(RALLY1_SS1)
    track = assemble(stage, dirt)
    points = mapview.map_points(track, selected=2)
    tiles = [p for p in points if p["kind"] == "tile"]
    assert [p["index"] for p in tiles] == list(range(len(stage.tiles)))
    assert [p for p in tiles if p["selected"]][0]["index"] == 2
    # 201a (assistance) ends the road: no open end.
    assert not [p for p in points if p["kind"] == "open"]
    svg = stage_svg(track, width_px=None)
    lay = mapview.layout(svg, points, max_width=600, max_height=500)
    assert lay["width"] <= 600 and lay["height"] <= 500
    for p in tiles:
        # Every tile centre lies inside the chart, and maps back to its own tile.
        assert lay["x_domain"][0] < p["x"] < lay["x_domain"][1]
        assert lay["y_domain"][0] < p["y"] < lay["y_domain"][1]
        assert mapview.tile_at(track, p["x"], p["y"]) == p["index"]
    assert mapview.tile_at(track, 1e6, 1e6) is None
    spec = mapview.map_chart(svg, points)
    assert mapview.PARAM in json.dumps(spec)


def test_open_end_of_an_open_stage(dirt):
    s = Stage(tiles=["202a A", "205a D"])
    track = assemble(s, dirt)
    end = mapview.open_end_hex(track)
    assert end == hexgrid.neighbour(track.tiles[-1].hex, track.tiles[-1].world_exit)
    assert mapview.open_end_hex(assemble(Stage(), dirt)) == (0, 0)
    pts = mapview.map_points(track)
    assert pts[-1]["kind"] == "open" and pts[-1]["index"] == mapview.OPEN_END


def test_no_open_end_drawn_over_a_tile_and_both_numbers_of_a_crossing_show():
    """The crossing demo's finish leads onto an earlier tile's place: no dashed hexagon hides that tile. Its RX
    tile is laid once and driven twice: both tile numbers are drawn, the second below the first."""
    import re

    from designer.systems.dirt.board.render import stage_svg
    from designer.systems.dirt.board.tileset import get_tileset

    stage = load_stage(Path(__file__).resolve().parent.parent / "stages/dirt/expansions/rx-crossing-twice-demo.yaml")
    track = assemble(stage, get_tileset(stage.tileset))
    last = track.tiles[-1]
    assert any(t.hex == hexgrid.neighbour(last.hex, last.world_exit) for t in track.tiles)
    assert mapview.open_end_hex(track) is None and all(p["kind"] == "tile" for p in mapview.map_points(track))
    svg = stage_svg(track, width_px=None)
    first, second = (t for t in track.tiles if t.tile == "412a")
    marks = {int(n): float(y) for y, n in re.findall(r'<text x="[-\d.]+" y="([-\d.]+)"[^>]*>(\d+)</text>', svg)}
    assert marks[second.index + 1] > marks[first.index + 1]          # the number of the second pass, lower down


# -- sources ---------------------------------------------------------------------------------

def test_bundled_stages_are_the_rulebook_rallies():
    b = [x for x in sources.bundled_stages() if x.rally.startswith("rally-")]
    assert len(b) == 18
    assert sources.bundled_stages()[0].label == "Rally 1 - SS1"        # the rulebook's rallies come first
    assert list(sources.bundled_rallies())[:6] == [f"Rally {i}" for i in range(1, 7)]
    assert sources.load_bundled(b[0].key).name == "Rally 1 - SS1"
    assert "dirt-core" in sources.tileset_names()


def test_read_upload_refuses_broken_and_oversized_files():
    with pytest.raises(DesignerError, match="limit is 1 MB"):
        sources.read_upload("big.yaml", b"#" * (sources.MAX_UPLOAD_BYTES + 1))
    with pytest.raises(DesignerError, match="empty"):
        sources.read_upload("empty.yaml", b"")
    with pytest.raises(DesignerError, match="not valid YAML"):
        sources.read_upload("bad.yaml", b"tiles: [202a A\n")
    with pytest.raises(DesignerError, match="not text"):
        sources.read_upload("bin.yaml", b"\xff\xfe\x00\x81garbage")
    with pytest.raises(DesignerError):
        sources.read_upload("bad.rgt", b"{not json")
    with pytest.raises(DesignerError, match="file name"):
        sources.read_upload("rally.yaml", b"rally: R\nstages: [ss1.yaml]\n")
    with pytest.raises(DesignerError, match="cannot be opened"):
        sources.read_upload("stage.exe", b"MZ")


def test_read_upload_stage_rally_share_code_and_foreign(dirt):
    stage = load_stage(RALLY1_SS1)
    assert sources.read_upload("s.yaml", dumps_stage(stage).encode()).stage == stage
    assert sources.read_upload("code.txt", share_code(stage).encode()).stage == stage
    rally = sources.read_upload("r.yaml", sources.rally_yaml("R", [stage, stage]))
    assert rally.is_rally and rally.rally_name == "R" and len(rally.stages) == 2
    for fmt in ("rgt", "rekee"):
        data, name, _mime = sources.export_foreign(stage, fmt)
        back = sources.read_upload(name, data).stage
        rel = editing.relative_form(back, dirt)
        assert rel.tile_ids == stage.tile_ids
        assert not errors_of(rel, dirt)


def test_message_of_keeps_markdown_inert():
    msg = sources.message_of(DesignerError("tile *x* [y]", where="a.yaml:3", hint="write `210b C`"))
    assert msg.startswith("a.yaml:3: tile \\*x\\* \\[y\\]")
    assert ":gray[hint: write \\`210b C\\`]" in msg


# -- analysis --------------------------------------------------------------------------------

def test_analysis_view_of_a_rulebook_stage(dirt):
    track = assemble(load_stage(RALLY1_SS1), dirt)
    view = analysis.analyse(track, players=4)
    fast, short = view.lines["fastest"], view.lines["shortest"]
    assert fast.cells and short.cells
    assert all(node in track.graph for node, _ in fast.cells + short.cells)
    assert all(isinstance(g, int) for _, g in fast.cells)
    assert fast.cells[0][1] == 0                       # the start cell in gear 0
    assert sum(r["seconds"] for r in fast.turns) == view.figures["game_seconds"]
    assert fast.turns[-1]["total s"] == view.figures["game_seconds"]
    assert view.figures["length_cells"] == len(short.cells) - 1
    assert {"Length", "Game time", "Table time"} <= set(view.summary)
    rows = analysis.profile_rows(view, track.graph)
    assert len(rows) == len(fast.cells)
    assert all(r["line gear"] <= r["gear limit"] for r in rows)
    # More players, more minutes at the table; a risk budget never makes the line faster.
    assert analysis.analyse(track, players=6).figures["table_minutes"] > view.figures["table_minutes"]
    safe = analysis.analyse(track, players=4, max_risk=0.05)
    assert safe.figures["game_seconds"] >= view.figures["game_seconds"]


def test_the_expected_time_help_names_the_damage_counted(dirt):
    track = assemble(load_stage(RALLY1_SS1), dirt)
    exp = analysis.expected_result(track)
    view = analysis.with_expected(analysis.analyse(track, players=4), exp)
    assert exp["bounds"]["max_damage"] == 2
    assert "The first 2 damage tokens a car draws are counted, later ones not" in view.helps["Expected time"]
    one = analysis.with_expected(analysis.analyse(track, players=4), dict(exp, bounds={"max_damage": 1}))
    assert "The first damage token a car draws is counted" in one.helps["Expected time"]


def test_die_text():
    assert analysis.die_text("gear4") == "4"
    assert analysis.step_text({"dice": ["gear3", "brake", "brake"]}) == "3+brake+brake"


def test_memory_settles_only_when_modules_were_imported():
    import gc
    import sys
    import types

    from designer.app import memory

    memory.settle()
    assert gc.get_freeze_count() > 0
    assert memory.settle() is False                  # nothing new imported: no collection, no freeze
    sys.modules["_designer_test_module"] = types.ModuleType("_designer_test_module")
    try:
        assert memory.settle() is True
    finally:
        del sys.modules["_designer_test_module"]
    gc.unfreeze()


def test_palette_search_by_number_and_by_shape(dirt):
    def found(text):
        return [f.id for f in editing.palette(dirt, editing.PaletteFilter(text=text))]

    assert found("229") == ["229a", "229b"] and found("229b") == ["229b"] and found("22") and found("99x") == []
    hairpins = found("hairpin")
    assert hairpins and all(editing.shape_of(dirt.face(f)) == "hairpin" for f in hairpins)
    assert found("hair") == hairpins == found("Hairpins")          # a start of the word, a plural, any case
    assert set(found("hairpin jump")) == set(hairpins) & set(found("jump"))     # every word must match
    assert all(dirt.face(f).features.jumps for f in found("jump"))
    assert found("finish") == [f.id for f in editing.palette(dirt, editing.PaletteFilter(shapes=("finish",)))]
