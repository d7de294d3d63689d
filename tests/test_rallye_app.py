"""The Rallye pages of the app through Streamlit's own harness (AppTest), and the deck editor's table functions."""
from __future__ import annotations

from dataclasses import replace

import pytest
from streamlit.testing.v1 import AppTest

from designer.app.rallye import deckedit
from designer.systems.rallye.model.deck import deck_from_data, get_deck
from designer.systems.rallye.table.draft import draft


def _pages():
    import streamlit as st

    from designer.app import rallye

    rallye.sidebar()
    tabs = rallye.tabs()
    for widget, (_label, draw) in zip(st.tabs([label for label, _ in tabs]), tabs):
        with widget:
            draw()


@pytest.fixture
def app():
    at = AppTest.from_function(_pages, default_timeout=90)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    return at


def _metrics(at) -> dict:
    return {m.label: m.value for m in at.metric}


def test_opens_with_a_demo_stage_and_its_analysis(app):
    assert app.session_state["rallye_stage"]["stage"].startswith("SS1 demo")
    metrics = _metrics(app)
    assert set(metrics) == {"Cautious plan", "Fastest plan", "With real hands", "Table time"}
    assert float(metrics["Cautious plan"].split()[0]) >= float(metrics["Fastest plan"].split()[0])
    assert any("data:image/svg+xml;base64," in m.value for m in app.markdown)
    assert any("valid: 12 cards" in s.value for s in app.success)
    assert any("demonstration data" in i.value for i in app.info)
    labels = [b.label for b in app.get("download_button")]
    assert "Download the stage (YAML)" in labels and "Download the deck (YAML)" in labels


def test_open_another_demo(app):
    app.sidebar.selectbox(key="rallye_demo_choice").select("SS3 demo: Neige au Tirage").run()
    app.sidebar.button(key="rallye_open_demo").click().run()
    assert not app.exception
    assert app.session_state["rallye_stage"]["stage"] == "SS3 demo: Neige au Tirage"
    assert not app.warning                                               # a clean stage: no warning


def test_draft_a_stage(app):
    app.number_input(key="rallye_draft_seed").set_value(7).run()
    app.number_input(key="rallye_draft_players").set_value(2).run()
    app.button(key="rallye_draft").click().run()
    assert not app.exception
    want = draft(get_deck("rallye-demo"), 2, 7, "random").cards
    assert [str(c) for c in app.session_state["rallye_stage"]["cards"]] == want
    assert app.session_state["rallye_stage"]["draft"] == {"seed": 7, "players": 2, "policy": "random"}
    assert any("valid: 12 cards" in s.value for s in app.success)


def test_deck_editor_adds_a_card_from_a_type(app):
    before = len(app.session_state["rallye_deck"]["sections"])
    app.selectbox(key="rallye_copy_type").select("tight-narrow-snow")
    app.selectbox(key="rallye_copy_dir").select("right")
    app.button(key="rallye_add_card").click().run()
    assert not app.exception
    sections = app.session_state["rallye_deck"]["sections"]
    assert len(sections) == before + 1
    new = sections[-1]
    assert new["type"] == "tight-narrow-snow" and new["direction"] == "right" and new["safety"] == 20
    assert app.session_state["rallye_deck"]["demo"] is False
    assert deck_from_data(app.session_state["rallye_deck"], {}, "x").section(new["id"]).severity == "red"


def test_a_broken_deck_in_the_session_is_reported_not_raised(app):
    deck = dict(app.session_state["rallye_deck"])
    deck["sections"] = deck["sections"] + [{"id": 999, "severity": "purple", "safety": 15, "top": 80}]
    app.session_state["rallye_deck"] = deck
    app.run()
    assert not app.exception
    assert any("fix them in the Deck editor" in e.value for e in app.error)


def test_road_book_download(app):
    app.button(key="rallye_build_rb").click().run()
    assert not app.exception
    assert "Download the road book (PDF)" in [b.label for b in app.get("download_button")]
    assert app.session_state["rallye_roadbook"][:5] == b"%PDF-"


def test_deck_tables_round_trip():
    deck = get_deck("rallye-demo")
    data = deck.data
    again = deckedit.tables_to_data(data, deckedit.types_table(data), deckedit.sections_table(data),
                                    deckedit.actions_table(data), 24)
    rebuilt = deck_from_data(again, {}, "again")
    def unlined(sections):
        return {k: replace(v, line=None) for k, v in sections.items()}

    assert unlined(rebuilt.sections) == unlined(deck.sections)
    assert rebuilt.actions == deck.actions and rebuilt.types == deck.types


def test_editor_cells_as_pandas_gives_them():
    rows = [{"id": 7.0, "type": None, "width": "wide", "surface": "tarmac", "severity": "none", "direction": float("nan"),
             "safety": 200.0, "top": 240.0, "exit": "", "note": None}]
    data = deckedit.tables_to_data({"deck": "x"}, [], rows, [{"id": "a", "acceleration": 20.0, "steering": "red-left; orange-left",
                                                            "owner": None, "count": None}])
    assert data["sections"] == [{"id": 7, "width": "wide", "surface": "tarmac", "severity": "none", "safety": 200, "top": 240}]
    assert data["actions"] == [{"id": "a", "acceleration": 20, "steering": ["red-left", "orange-left"], "owner": "start",
                                "count": 1}]
    assert deckedit.next_card_id(data) == 8
    with pytest.raises(KeyError):
        deckedit.card_from_type(data, "nope", 8)


def test_a_cards_own_tables_survive_the_editor():
    base = {"deck": "x", "sections": [{"id": 3, "severity": "none", "tables": {"wheel_right": {"0": [0] * 6}}}]}
    rows = [{"id": 3.0, "severity": "none", "safety": 100.0, "top": 120.0}]
    data = deckedit.tables_to_data(base, [], rows, [])
    assert data["sections"][0]["tables"] == {"wheel_right": {"0": [0] * 6}}
    assert data["sections"][0]["safety"] == 100


def _upload_flow():
    import streamlit as st

    from designer.app import rallye
    from designer.core.errors import DesignerError

    rallye.sidebar()
    if "step" not in st.session_state:
        st.session_state.step = 1
        text = ("system: rallye\ndeck: mine\nwidths: [wide]\nsurfaces: [tarmac]\nsections:\n"
                + "".join(f"  - {{id: {i}, width: wide, surface: tarmac, severity: none, safety: 200, top: 240}}\n"
                          for i in range(1, 13))
                + "actions:\n  - {id: a, acceleration: 40, owner: start, count: 12}\n")
        rallye.open_text(text, "mine.yaml")
        try:
            rallye.open_text("system: rallye\ndeck: bad\nsections: [oops\n", "bad.yaml")
        except DesignerError as exc:
            st.session_state.upload_error = str(exc)
        rallye.open_text("system: rallye\nstage: Mine\ndeck: mine\ncards: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n",
                         "stage.yaml")
    tabs = rallye.tabs()
    tabs[0][1]()


def test_uploaded_deck_and_stage_replace_the_demo():
    at = AppTest.from_function(_upload_flow, default_timeout=90)
    at.run()
    assert not at.exception, [e.value for e in at.exception]
    assert at.session_state["rallye_deck"]["deck"] == "mine"
    assert "bad.yaml:4: this is not valid YAML" in at.session_state["upload_error"]
    assert at.session_state["rallye_stage"]["stage"] == "Mine"
    # 12 straights in a row outgrow the table: the stage opens with the problem shown, not an exception
    assert any("cannot be laid" in e.value for e in at.error), [e.value for e in at.error]
    assert not any("cannot-lay" in e.value for e in at.error)           # said in words, not as a problem code


def test_the_analysis_is_kept_per_stage_and_inputs(monkeypatch):
    from designer.app.rallye import stage_page
    from designer.systems.rallye.system import SYSTEM

    calls = []
    real = SYSTEM.analyse

    def counted(stage, deck, **kw):
        if kw.get("runs"):
            calls.append(kw)
        return real(stage, deck, **kw)

    monkeypatch.setattr(SYSTEM, "analyse", counted)
    stage_page._analysed.clear()
    for _ in range(2):                                         # two visits, each a new session
        at = AppTest.from_function(_pages, default_timeout=90)
        at.run()
        assert not at.exception, [e.value for e in at.exception]
        assert "With real hands" in _metrics(at)
    assert len(calls) == 1
    at.selectbox(key="rallye_an_runs").select(100).run()      # other inputs: computed once more
    assert len(calls) == 2


def test_the_upload_takes_one_megabyte_at_most(app):
    uploader = app.sidebar.get("file_uploader")[0]
    assert uploader.proto.max_upload_size_mb == 1
