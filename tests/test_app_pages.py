"""The DIRT pages through Streamlit's own test harness (AppTest), which runs the real script with its callbacks:
opening, building, selecting, uploads, share codes, the Analysis, Rally and Export tabs."""
from __future__ import annotations

from pathlib import Path

import pytest

from designer.app.dirt import checks, design_view, sources
from designer.systems.dirt.board.stage import Stage, dumps_stage, load_stage, share_code
from designer.systems.dirt.board.validate import validate

ROOT = Path(__file__).resolve().parent.parent
MAIN = str(ROOT / "designer" / "app" / "main.py")
RALLY1_SS1 = ROOT / "stages" / "dirt" / "rally-1" / "ss1.yaml"


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
    # The search finds a tile by its number or by its shape, without "Show more".
    app.text_input(key="flt_text").set_value("229")
    run(app)
    assert {b.key for b in app.button if b.key and b.key.startswith("pal_2")} <= {
        b.key for b in app.button if b.key and b.key.startswith(("pal_229a", "pal_229b"))}
    assert app.button(key="pal_229b_BD") and len(app.image) == 2
    app.text_input(key="flt_text").set_value("hairpin")
    run(app)
    from designer.app.dirt import editing
    from designer.systems.dirt.board.tileset import get_tileset
    hairpins = editing.palette(get_tileset("dirt-core"), editing.PaletteFilter(shapes=("hairpin",)))
    assert len(app.image) == len(hairpins) and app.button(key="pal_210a_CD")


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
    # Nothing is driven past the finish: a road tile added after it is refused with a message saying how to
    # make the stage longer, and the stage stays as it was; the assistance tile may follow the finish.
    click(app, "pal_204a_AD")
    assert stage_of(app).tile_ids == ["202a", "205a", "203a"]
    assert "is the finish: nothing is driven after it" in texts(app) and "insert before it" in texts(app)
    click(app, "pal_201a_D")
    assert stage_of(app).tile_ids == ["202a", "205a", "203a", "201a"]
    # Inserting after the finish tile is refused the same way; inserting before it lengthens the stage.
    click(app, "sel_prev")                              # nothing selected: Previous selects the last tile
    click(app, "sel_prev")
    assert app.session_state["selected"] == 2
    app.session_state["palette_mode"] = "after"
    click(app, "pal_204a_AD")
    assert stage_of(app).tile_ids == ["202a", "205a", "203a", "201a"]
    assert "is the finish" in texts(app)
    app.session_state["palette_mode"] = "before"
    click(app, "pal_204a_AD")
    assert stage_of(app).tile_ids == ["202a", "205a", "204a", "203a", "201a"]


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


def test_upload_lists_what_the_file_carried(app):
    """A .rgt with graphic variants of its tiles, a token and an author: the stage opens on the faces, and the
    variants, the token and the notes are said when the file opens and shown under the map."""
    import json

    data, name, _ = sources.export_foreign(load_stage(RALLY1_SS1), "rgt")
    layout = json.loads(data)
    layout["Tuiles"][1]["TuileId"] += "-2"                 # another print of the same face
    layout["Tuiles"][2]["TuileId"] += "-3"
    app.file_uploader[0].set_value(("variants.rgt", json.dumps(layout).encode(), "application/json"))
    run(app)
    assert stage_of(app).tile_ids == load_stage(RALLY1_SS1).tile_ids
    notes = stage_of(app).notes or ""
    first, second = (layout["Tuiles"][k]["TuileId"].lower() for k in (1, 2))
    assert "Graphic variants in variants.rgt" in notes and first in notes and second in notes
    assert any("It also carried notes (with graphic variants)" in t for t in app.toasts_seen), app.toasts_seen
    carried = [e for e in app.expander if e.label.startswith("Carried by the stage file: notes (with graphic variants)")]
    assert carried and any(first in t.value for t in carried[0].text)


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
    # The headline: expected time, spread and table time; everything else once, in the details row.
    assert list(metrics) == ["Expected time", "Spread", "Table time"]
    assert ":" in metrics["Expected time"] and metrics["Spread"].startswith("± ")
    details = next(m.value for m in app.markdown if "Ideal time" in m.value)
    for label in ("Ideal time", "Turns", "Length", "Loss of control"):
        assert details.count(label) == 1, details
    assert "Game time" not in details and "line shown" not in details
    # The risk budget starts at a budget a driver would plan with, and the line on the map keeps to it.
    assert app.select_slider(key="max_risk").value == 0.3
    assert "Line on the map" in details
    turns = len(app.dataframe[0].value)
    assert len(app.dataframe) == 1 and turns >= 1
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
    show(app, "Analysis")
    table = {m.label: m.value for m in app.metric}["Table time"]
    show(app, "Rally")
    assert [m.value for m in app.metric if m.label == "Stages"] == ["3"]
    assert [m.label for m in app.metric] == ["Stages", "Expected time", "Table time", "Length"]
    # The stage's table time on the Rally tab is the Analysis tab's own figure.
    assert f"table time: {table}" in texts(app)
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


def _pdf_text(data: bytes, tmp_path) -> str:
    import subprocess

    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True, check=True).stdout


@pytest.mark.skipif(not sources.roadbook_available(), reason="no road book in this version")
def test_export_road_book_without_lines_or_with_the_expected_time(app, tmp_path):
    import shutil

    if not shutil.which("pdftotext"):
        pytest.skip("pdftotext (poppler-utils) is not installed")
    show(app, "Export")
    click(app, "make_pdf")
    plain = _pdf_text(app.session_state["pdf"][0], tmp_path)
    assert "Ideal 1:05" in plain and "expected time under the dice was not computed" in plain
    app.toggle(key="roadbook_expected").set_value(True)
    run(app)
    click(app, "make_pdf")
    with_expected = _pdf_text(app.session_state["pdf"][0], tmp_path)
    assert "Expected" in with_expected and "not computed" not in with_expected
    app.toggle(key="roadbook_lines").set_value(False)
    run(app)
    click(app, "make_pdf")
    competitive = _pdf_text(app.session_state["pdf"][0], tmp_path)
    assert "Ideal 1:05" not in competitive and "T1" not in competitive
    assert "Pace notes" in competitive


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
