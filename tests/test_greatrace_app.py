"""The Great Race pages in Streamlit's AppTest: open a demo, see the analysis, edit the map, change the race."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest


def _app():
    import streamlit as st

    from designer.app import greatrace

    greatrace.sidebar()
    tabs = greatrace.tabs()
    for widget, (_label, draw) in zip(st.tabs([label for label, _ in tabs]), tabs):
        with widget:
            draw()


@pytest.fixture
def at():
    app = AppTest.from_function(_app, default_timeout=60)
    app.run()
    assert not app.exception, app.exception
    return app


def _texts(at) -> str:
    parts = [m.value for m in at.markdown] + [c.value for c in at.code] + [s.value for s in at.subheader]
    parts += [e.value for e in at.error] + [w.value for w in at.warning] + [s.value for s in at.success]
    return "\n".join(str(p) for p in parts)


def test_opens_a_demo_and_shows_the_analysis(at):
    text = _texts(at)
    assert "Demo race 1" in text
    assert "fastest:" in text and "cheapest:" in text
    assert "The race is valid." in text
    frames = [t.value for t in at.table]
    routes = next(f for f in frames if "route" in f.columns and "path" in f.columns)
    assert list(routes["route"]) == ["shortest", "fastest", "cheapest"]
    assert (routes["price (F)"] >= 0).all()


@pytest.mark.parametrize("which", ["Demo race 2", "Demo race 3", "Demo race 1"])
def test_each_demo_race_opens_and_is_analysed(at, which):
    box = at.selectbox(key="greatrace_demo_choice")
    box.select(next(o for o in box.options if which in o)).run()
    at.button(key="greatrace_open_demo").click().run()
    assert not at.exception
    text = _texts(at)
    assert which in text and "The race is valid." in text
    assert "fastest:" in text and "Monte Carlo" in text


def test_two_cities_joined_by_a_line_in_the_editor(at):
    at.radio(key="greatrace_paint_mode").set_value("air line").run()
    at.number_input(key="greatrace_paint_fare").set_value(90).run()
    at.text_input(key="greatrace_paint_hexes").set_value("A6 J1").run()    # Porto Azul and Nordhavn
    at.button(key="greatrace_paint_apply").click().run()
    assert not at.exception
    lines = at.session_state["greatrace_board"]["transport"]
    assert {"from": "Porto Azul", "to": "Nordhavn", "mode": "air", "fare": 90} in lines
    at.text_input(key="greatrace_paint_hexes").set_value("A6 C3").run()    # C3 is no city
    at.button(key="greatrace_paint_apply").click().run()
    assert "C3 is not a city" in _texts(at)


def test_painting_hexes_changes_the_board_and_checks_it(at):
    at.radio(key="greatrace_paint_mode").set_value("off").run()
    at.text_input(key="greatrace_paint_hexes").set_value("A6").run()   # Porto Azul's hex
    at.button(key="greatrace_paint_apply").click().run()
    assert not at.exception
    board = at.session_state["greatrace_board"]
    assert "A6" in board["off"]
    assert all(c["at"] != "A6" for c in board["cities"])
    # The race started in Porto Azul, which is gone: the race tab says so instead of crashing.
    assert "Porto Azul" not in [c["name"] for c in board["cities"]]


def test_a_blank_board_is_flagged_until_it_is_connected(at):
    at.number_input(key="greatrace_new_cols").set_value(6).run()
    at.number_input(key="greatrace_new_rows").set_value(4).run()
    at.button(key="greatrace_new_board").click().run()
    assert not at.exception
    board = at.session_state["greatrace_board"]
    assert board["columns"] == 6 and len(board["cities"]) == 2
    # Cut the board in two with off-board hexes: the east city becomes unreachable.
    at.radio(key="greatrace_paint_mode").set_value("off").run()
    at.text_input(key="greatrace_paint_hexes").set_value("C1 C2 C3 C4").run()
    at.button(key="greatrace_paint_apply").click().run()
    assert "city-unreachable" in _texts(at)


def _form(at, name: str) -> str:
    """The key of a race form's widget for the document open (the form is keyed per document)."""
    return f"greatrace_{name}_{at.session_state['greatrace_doc_n']}"


def test_changing_the_money_reruns_the_analysis(at):
    at.number_input(key=_form(at, "money")).set_value(400).run()
    assert not at.exception
    assert at.session_state["greatrace_race"]["money"] == 400
    text = _texts(at)
    assert "more than the purse" not in text


def _upload_app():
    import streamlit as st

    from designer.app import greatrace
    from designer.app.greatrace import state

    if "greatrace_test_opened" not in st.session_state:
        st.session_state["greatrace_test_opened"] = True
        board = ("system: greatrace\nboard: tiny\ncolumns: 5\nrows: 2\n"
                 "cities:\n  - {name: Oak, at: A1, purple: true}\n  - {name: Elm, at: E2, purple: true}\n"
                 "bag:\n  - {terrain: plain, count: 10, fuel: 1, mech: 0}\n")
        state.open_text(board, "tiny.yaml")
        state.open_text("system: greatrace\nrace: Tiny race\nboard: tiny\nstart: Oak\nfinish: Elm\n", "race.yaml")
    greatrace.sidebar()
    tabs = greatrace.tabs()
    for widget, (_label, draw) in zip(st.tabs([label for label, _ in tabs]), tabs):
        with widget:
            draw()


def test_a_race_uploaded_after_its_board_is_raced_on_that_board():
    at = AppTest.from_function(_upload_app, default_timeout=60)
    at.run()
    assert not at.exception, at.exception
    assert at.session_state["greatrace_board"]["board"] == "tiny"
    text = _texts(at)
    assert "Tiny race" in text and "Oak -> Elm on tiny" in text


def test_titles_follow_a_changed_finish(at):
    at.selectbox(key=_form(at, "finish")).select("Nordhavn").run()
    assert not at.exception, at.exception
    heads = [s.value for s in at.subheader if "Porto Azul" in s.value]
    assert heads and all("Nordhavn" in h and "Fort Lumen" not in h for h in heads), heads
    assert "Fort Lumen" not in at.session_state["greatrace_race"]["race"]
    svg = "\n".join(m.value for m in at.markdown if "svg+xml" in m.value)
    import base64
    import re

    titles = [t for b in re.findall(r"base64,([A-Za-z0-9+/=]+)", svg)
              for t in re.findall(r'font-weight="bold">([^<]*)<', base64.b64decode(b).decode())[:1] if "Porto" in t]
    assert len(titles) == 2 and all("Nordhavn" in t and "Fort Lumen" not in t for t in titles), titles


def test_a_name_without_the_cities_gets_them_in_the_title():
    from designer.systems.greatrace.files.race import Race
    from designer.systems.greatrace.system import race_title

    assert race_title(Race(name="Sunday", board="b", start="Oak", finish="Elm")) == "Sunday · Oak → Elm"
    assert race_title(Race(name="Oak to Elm", board="b", start="Oak", finish="Elm")) == "Oak to Elm"


def test_the_analysis_tables_read_as_words_and_wrap(at):
    frames = [t.value for t in at.table]
    assert frames, "the analysis tables are static tables, whose long cells wrap"
    raw = {"risk_spaces", "open_spaces", "laid_tiles", "stop_chance", "fastest_francs", "francs", "fuel_bought_city"}
    for f in frames:
        assert not raw & set(map(str, f.columns)), list(f.columns)
    legs = next(f for f in frames if "STOP chance" in f.columns)
    assert all(str(v).endswith("%") for v in legs["STOP chance"])
    assert not at.dataframe or all("path" not in df.value.columns for df in at.dataframe)
