"""The Streamlit app: its plain editing, map, upload and analysis functions, and its flows through
Streamlit's own test harness (AppTest), which runs the real script with its callbacks."""
from __future__ import annotations

import json
from pathlib import Path

import pytest

from designer.core import hexgrid
from designer.app.dirt import analysis, checks, design_view, editing, mapview, sources
from designer.core.errors import DesignerError
from designer.systems.dirt.stage import Stage, dumps_stage, load_stage, share_code
from designer.systems.dirt.track import assemble
from designer.systems.dirt.validate import validate

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
    from designer.systems.dirt.render import stage_svg

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


def test_die_text():
    assert analysis.die_text("gear4") == "4"
    assert analysis.step_text({"dice": ["gear3", "brake", "brake"]}) == "3+brake+brake"


# -- the app through AppTest -------------------------------------------------------------------

@pytest.fixture
def app(request):
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(MAIN, default_timeout=120)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    if "palette" not in request.node.name:
        at.session_state["pal_shown"] = 400          # every card, as after "Show more" (the flows click any face)
        at.run()
    return at


def run(at):
    """One run, then (when that run redrew only some parts of the page, as a Design click does) a plain run, so
    the tree holds the whole page as the browser shows it. Messages of the first run are kept for texts()."""
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    at.toasts_seen = [t.value for t in at.toast]
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def texts(at) -> str:
    parts = [m.value for m in at.markdown] + [e.value for e in at.error] + [w.value for w in at.warning] \
        + [i.value for i in at.info] + [s.value for s in at.success] + [c.value for c in at.caption] \
        + [t.value for t in at.toast] + getattr(at, "toasts_seen", [])
    return "\n".join(parts)


def stage_of(at) -> Stage:
    return at.session_state["stage"]


def click(at, key):
    at.button(key=key).click()
    return run(at)


def show(at, tab):
    at.session_state["dirt_view"] = tab
    return run(at)


def test_app_opens_on_the_rulebook_stage_and_palette(app):
    assert stage_of(app).name == "Rally 1 - SS1"
    assert "Rally 1 - SS1" in app.markdown[0].value and "valid" in app.markdown[0].value
    assert [s.value for s in app.success if s.value.startswith("Valid stage")]
    box = app.selectbox(key="bundled_choice")
    assert len(box.options) == len(sources.bundled_stages()) >= 18
    assert len(app.session_state["rally_stages"]) == 3
    # The palette shows the tiles still in the box, each with a drawing and its add buttons.
    assert app.button(key="pal_204a_AD")
    # 202 is in the stage: its card stays in its place (nothing moves under the cursor while building).
    assert app.button(key="pal_202a_AD")
    assert len(app.image) == design_view.PALETTE_PAGE
    # "Show more" draws another page of cards.
    click(app, "pal_more")
    assert len(app.image) == 2 * design_view.PALETTE_PAGE


def test_build_a_stage_from_an_empty_one(app):
    click(app, "new_stage")
    assert stage_of(app).tiles == []
    assert "Incomplete: add a start tile" in texts(app)
    click(app, "pal_202a_AD")
    assert stage_of(app).tile_ids == ["202a"]
    # A stage being built reads "incomplete", not red errors about its first tile.
    assert "Incomplete" in texts(app) and "incomplete" in app.markdown[0].value
    assert not app.error and "not a finish tile" not in texts(app)
    click(app, "pal_205a_AD")
    click(app, "pal_203a_AD")
    assert stage_of(app).tile_ids == ["202a", "205a", "203a"]
    assert "Incomplete" not in texts(app)
    assert app.markdown[0].value.count("valid") == 1 and "error" not in app.markdown[0].value
    # Undo brings the incomplete state back, redo takes it away.
    click(app, "undo")
    assert stage_of(app).tile_ids == ["202a", "205a"]
    assert "Incomplete" in texts(app)
    click(app, "redo")
    assert stage_of(app).tile_ids == ["202a", "205a", "203a"]
    assert "Incomplete" not in texts(app)
    # A tile after the finish is a real error: red, and named first as the tile just placed.
    click(app, "pal_204a_AD")
    assert "Incomplete" not in texts(app) and app.error
    assert "just placed" in texts(app)


def test_selected_tile_actions(app):
    click(app, "new_stage")
    for key in ("pal_202a_AD", "pal_208a_BD", "pal_205a_AD", "pal_203a_AD"):
        click(app, key)
    assert stage_of(app).tile_ids == ["202a", "208a", "205a", "203a"]
    app.selectbox(key="sel_box").set_value(1)
    run(app)
    assert app.session_state["selected"] == 1
    assert "Tile 2 · 208a" in texts(app)
    before = stage_of(app).tiles[1].entry
    click(app, "act_reverse")
    assert stage_of(app).tiles[1].entry != before
    # Insert before / after and replace through the palette modes.
    app.session_state["palette_mode"] = "after"
    run(app)
    click(app, "pal_206a_AD")
    assert stage_of(app).tile_ids == ["202a", "208a", "206a", "205a", "203a"]
    assert app.session_state["selected"] == 2
    app.session_state["palette_mode"] = "before"
    run(app)
    click(app, "pal_204a_AD")
    assert stage_of(app).tile_ids == ["202a", "208a", "204a", "206a", "205a", "203a"]
    app.session_state["palette_mode"] = "replace"
    run(app)
    click(app, "pal_207a_AD")
    assert stage_of(app).tile_ids == ["202a", "208a", "207a", "206a", "205a", "203a"]
    click(app, "act_up")
    assert stage_of(app).tile_ids == ["202a", "207a", "208a", "206a", "205a", "203a"]
    assert app.session_state["selected"] == 1
    click(app, "act_remove")
    assert stage_of(app).tile_ids == ["202a", "208a", "206a", "205a", "203a"]
    click(app, "act_deselect")
    assert app.session_state["selected"] is None
    # Without a selection, insert modes say what to do and change nothing.
    app.session_state["palette_mode"] = "after"
    run(app)
    before = stage_of(app)
    click(app, "pal_204a_AD")
    assert stage_of(app) == before
    assert "Select a tile on the map first" in texts(app)


def test_problem_names_its_tile_and_shows_it(app, dirt):
    click(app, "new_stage")
    for key in ("pal_202a_AD", "pal_210a_CD", "pal_211a_CD", "pal_212a_CD"):
        click(app, key)
    # Three hairpins turning the same way: the road runs back over the start.
    problems = checks.ordered(validate(stage_of(app), dirt), app.session_state["last_edited"])
    tiled = [p for p in problems if p.tile is not None and p.severity == "error"]
    assert tiled
    k = next(i for i, p in enumerate(problems) if p is tiled[0])
    assert f"Tile {tiled[0].tile + 1} ({tiled[0].tile_id})" in texts(app)
    click(app, f"show_{k}")
    assert app.session_state["selected"] == tiled[0].tile


def test_broken_or_oversized_upload_keeps_the_stage(app):
    before = stage_of(app)
    for name, data in (("broken.yaml", b"stage: [unclosed\n"),
                       ("huge.yaml", b"#" * (sources.MAX_UPLOAD_BYTES + 10)),
                       ("bad.rgt", b"{\"Tuiles\": 3}"),
                       ("unknown.yaml", b"tiles: [202a A, 999z D]\nstage: x\ncolour: red\n"),
                       ("other.yaml", b"stage: x\ntileset: no-such-box\ntiles: [202a A]\n")):
        app.file_uploader[0].set_value((name, data, "application/octet-stream"))
        run(app)
        errs = app.toasts_seen       # a message over the page; the page itself does not move
        assert any(f"Could not open {name}" in e and "unchanged" in e for e in errs), (name, errs)
        assert stage_of(app) == before


def test_upload_yaml_rgt_and_rally(app, dirt):
    stage = Stage(name="Uploaded", tiles=["202a A", "205a D", "203a A"])
    app.file_uploader[0].set_value(("up.yaml", dumps_stage(stage).encode(), "application/x-yaml"))
    run(app)
    assert stage_of(app).name == "Uploaded"
    assert app.session_state["rally_slot"] is None
    data, name, mime = sources.export_foreign(load_stage(RALLY1_SS1), "rgt")
    app.file_uploader[0].set_value((name, data, mime))
    run(app)
    assert stage_of(app).tile_ids == load_stage(RALLY1_SS1).tile_ids
    assert all(p.at is None for p in stage_of(app).tiles)      # editable: positions turned into entry edges
    app.file_uploader[0].set_value(("rally.yaml", sources.rally_yaml("Uploaded rally", [stage, stage]), "text/yaml"))
    run(app)
    assert app.session_state["rally_name"] == "Uploaded rally"
    assert len(app.session_state["rally_stages"]) == 2
    # Undo goes back to the stage before the upload.
    click(app, "undo")
    assert stage_of(app).tile_ids == load_stage(RALLY1_SS1).tile_ids


def test_share_code_and_bundled_stage(app):
    stage = Stage(name="Shared", tiles=["202a A", "206a D", "203a A"])
    app.text_input(key="share_code_input").set_value(share_code(stage))
    app.button(key="FormSubmitter:share_form-Open the link").click()
    run(app)
    assert stage_of(app) == stage
    app.text_input(key="share_code_input").set_value("RD1/dirt-core/202aA.zzz")
    app.button(key="FormSubmitter:share_form-Open the link").click()
    run(app)
    assert stage_of(app) == stage
    assert "share code" in texts(app)
    app.selectbox(key="bundled_choice").set_value("rally-3/ss2")
    click(app, "open_bundled")
    assert stage_of(app).name == "Rally 3 - SS2"


def test_rename_and_surface(app):
    app.text_input(key="stage_name_input").set_value("Col de Turini")
    run(app)
    assert stage_of(app).name == "Col de Turini"
    assert app.session_state["rally_stages"][0].name == "Col de Turini"     # edits go into the rally
    app.selectbox(key="stage_surface_input").set_value("snow")
    run(app)
    assert stage_of(app).surface == "snow"
    click(app, "undo")
    assert stage_of(app).surface == "gravel"


def test_analysis_tab(app):
    show(app, "Analysis")
    metrics = {m.label: m.value for m in app.metric}
    assert {"Length", "Game time", "Turns", "Table time"} <= set(metrics)
    assert metrics["Length"].endswith("cells") and metrics["Game time"].endswith("s")
    assert len(app.dataframe) == 1 and len(app.dataframe[0].value) == int(metrics["Turns"])
    table_4 = metrics["Table time"]
    app.number_input(key="stage_players_input").set_value(6)
    run(app)
    assert stage_of(app).players == 6
    assert {m.label: m.value for m in app.metric}["Table time"] != table_4
    app.select_slider(key="max_risk").set_value(0.05)
    run(app)
    assert not app.exception
    # An invalid stage gets a message instead of lines.
    click(app, "new_stage")
    show(app, "Analysis")
    assert any("error" in w.value for w in app.warning)


def test_rally_tab(app):
    show(app, "Rally")
    assert [m.value for m in app.metric if m.label == "Stages"] == ["3"]
    assert {"Length", "Game time", "Table time"} <= {m.label for m in app.metric}
    # The stage being edited is already stage 1: adding it again says so and adds nothing.
    click(app, "rally_add")
    assert len(app.session_state["rally_stages"]) == 3 and "already stage 1" in texts(app)
    click(app, "new_stage")
    show(app, "Rally")
    click(app, "rally_add")
    assert len(app.session_state["rally_stages"]) == 4
    assert app.session_state["rally_slot"] == 3
    added = app.session_state["rally_stages"][3]
    assert (added.rally.name, added.rally.number) == ("Rally 1", 4) and stage_of(app) == added
    click(app, "rally_remove_3")
    assert len(app.session_state["rally_stages"]) == 3 and app.session_state["rally_slot"] is None
    click(app, "rally_down_0")
    stages = app.session_state["rally_stages"]
    assert [s.name for s in stages][:2] == ["Rally 1 - SS2", "Rally 1 - SS1"]
    assert [s.rally.number for s in stages] == [1, 2, 3]            # numbers follow the order
    app.text_input(key="rally_name_input").set_value("Rallye des Vosges")
    run(app)
    assert {s.rally.name for s in app.session_state["rally_stages"]} == {"Rallye des Vosges"}
    # Assistance after SS3 (now the last stage) toggles its assistance tile.
    third = app.session_state["rally_stages"][2]
    app.toggle(key="rally_assist_2").set_value(True)
    run(app)
    assert app.session_state["rally_stages"][2].tile_ids[-1] == "201a"
    assert app.session_state["rally_stages"][2].tile_ids[:-1] == third.tile_ids
    click(app, "rally_edit_2")
    assert stage_of(app).name == "Rally 1 - SS3" and app.session_state["rally_slot"] == 2
    assert app.session_state["dirt_view"] == "Design"            # editing a stage opens the Design tab
    show(app, "Rally")
    app.selectbox(key="bundled_rally_choice").set_value("Rally 4")
    click(app, "rally_open")
    assert app.session_state["rally_name"] == "Rally 4" and stage_of(app).name == "Rally 4 - SS1"


def test_export_tab(app):
    show(app, "Export")
    keys = {b.key for b in app.get("download_button")}
    assert {"dl_yaml", "dl_svg", "dl_png", "dl_rgt", "dl_rekee"} <= keys
    assert share_code(stage_of(app)) in [c.value for c in app.code]
    if sources.roadbook_available():
        click(app, "make_pdf")
        assert "dl_pdf" in {b.key for b in app.get("download_button")}


def test_settings_survive_a_tab_switch(app):
    show(app, "Analysis")
    app.select_slider(key="max_risk").set_value(0.1)
    app.number_input(key="stage_players_input").set_value(3)
    run(app)
    show(app, "Design")
    app.session_state["palette_mode"] = "after"
    app.selectbox(key="sel_box").set_value(2)
    run(app)
    show(app, "Export")
    show(app, "Analysis")
    assert app.select_slider(key="max_risk").value == 0.1
    assert app.number_input(key="stage_players_input").value == 3 == stage_of(app).players
    show(app, "Design")
    assert app.segmented_control(key="palette_mode").value == "after"
    assert app.selectbox(key="sel_box").value == 2
