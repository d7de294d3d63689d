"""The classic pages of the app, driven with Streamlit's AppTest (sidebar, then every tab)."""
import pytest
from streamlit.testing.v1 import AppTest


def classic_pages():
    import streamlit as st

    from designer.app import classic

    classic.sidebar()
    tabs = classic.tabs()
    for (label, draw), tab in zip(tabs, st.tabs([label for label, _ in tabs])):
        with tab:
            draw()


@pytest.fixture
def at():
    at = AppTest.from_function(classic_pages, default_timeout=180)
    at.run()
    assert not at.exception, at.exception
    return at


def _apply_route(at, text: str) -> None:
    """Type a route in the stage form and apply it."""
    next(t for t in at.text_input if t.label.startswith("Route")).set_value(text)
    next(b for b in at.button if b.label == "Apply").click()
    at.run()


def test_opens_the_demo_rally_with_its_analysis(at):
    metrics = {m.label: m.value for m in at.metric}
    assert list(metrics) == ["Expected time", "Spread", "Table time"]        # the headline; the rest in details
    details = next(m.value for m in at.markdown if m.value.startswith("Ideal time"))
    assert "**0:20**" in details and "**11 cells**" in details
    assert any("expected time" in m.value for m in at.markdown)
    labels = [t.label for t in at.tabs]
    assert labels == ["Stage", "Analysis", "Rally & road book", "Zone editor"]
    assert "Rally length: 45 cells over 3 stages" in [m.value for m in at.markdown]
    assert at.session_state["classic_doc"].name == "Demo Rally of the Two Boards"


def test_a_bad_route_shows_where_and_how_to_fix(at):
    _apply_route(at, "X1 | X3-Y6 | Y8")
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "do not face each other" in errors
    _apply_route(at, "X9 | - | X4")
    assert "road end 9" in " ".join(e.value for e in at.error)


def test_a_route_that_cannot_be_analysed_is_a_message_on_every_tab(at):
    _apply_route(at, "X0 | - | X9")
    assert not at.exception
    errors = " ".join(e.value for e in at.error)
    assert "cannot analyse this stage" in errors and "road ends of X-asphalt" in errors
    assert not any("ES" in str(e.value) and "Traceback" in str(e.value) for e in at.error)


def test_editing_the_route_changes_the_analysis(at):
    _apply_route(at, "X2-7")
    assert not at.exception
    assert at.session_state["classic_doc"].stages[0].route[0].exit == 7
    assert any(m.value.startswith("Ideal time") and "**6 cells**" in m.value for m in at.markdown)


def test_zone_editor_click_sets_a_road_end_and_checks_the_box(at):
    at.selectbox(key="classic_ed_mode").set_value("road end")
    at.run()
    at.number_input(key="classic_ed_end").set_value(9)
    at.run()
    at.button(key="classic_g_A8").click()
    at.run()
    assert not at.exception
    ends = at.session_state["classic_ed_tables"]["ends"]
    assert {"end": 9, "cell": "A8", "side": None} in ends
    # A8 is a corner of the board: the loader asks which edge
    assert any("corner of the board" in e.value for e in at.error)


def test_zone_editor_lays_a_new_road_by_clicking(at):
    at.number_input(key="classic_ed_new_a").set_value(1)
    at.number_input(key="classic_ed_new_b").set_value(7)
    at.button(key="classic_ed_new_road").click()
    at.run()
    roads = at.session_state["classic_ed_tables"]["roads"]
    new = len(roads) - 1
    at.selectbox(key="classic_ed_road").set_value(new)
    at.run()
    for cell in ("A4", "B3", "C2", "C1"):
        at.button(key=f"classic_g_{cell}").click()
        at.run()
    assert at.session_state["classic_ed_tables"]["roads"][new]["path"] == "A4 B3 C2 C1"
    assert not any("problem" in e.value.lower() for e in at.error), [e.value for e in at.error]
    assert any("valid:" in s.value for s in at.success)
    at.button(key="classic_ed_use").click()
    at.run()
    assert "roads:" in at.session_state["classic_box_text"]


def test_new_stage_and_rally_tab(at):
    at.button(key="classic_new").click()
    at.run()
    assert at.session_state["classic_doc"].name == "My stage"
    assert any(m.value.startswith("Rally length: ") and m.value.endswith(" over 1 stage") for m in at.markdown)
    at.button(key="classic_make_rb").click()
    at.run()
    assert not at.exception
    assert at.session_state["classic_roadbook"][:5] == b"%PDF-"


def test_zone_editor_draws_a_new_side_while_it_is_entered(at):
    at.text_input(key="classic_ed_zone").set_value("C")
    at.run()
    assert at.session_state["classic_ed_tables"]["roads"] == []
    at.button(key="classic_ed_new_road").click()
    at.run()
    at.button(key="classic_g_A3").click()
    at.run()
    assert not at.exception
    assert any("road end" in e.value or "ends" in e.value for e in at.error)      # not finished yet: said so
    assert any("data:image/svg+xml" in m.value for m in at.markdown)             # and drawn all the same


def test_zone_editor_buttons_name_their_cell_and_what_is_on_it(at):
    from designer.app.classic.editor import cell_button

    labels = {b.key: b.label for b in at.button if b.key and b.key.startswith("classic_g_")}
    assert len(labels) == 64
    for key, label in labels.items():
        assert label.split("  \n")[0] == key[len("classic_g_"):]             # every button says its cell
    assert labels["classic_g_E8"] == "E8  \n:small[11 e4]"                    # step 11 of road 0, road end 4
    assert labels["classic_g_C1"] == "C1  \n:small[e7]" and labels["classic_g_B2"] == "B2  \n:small[2]"
    assert labels["classic_g_D8"] == "D8  \n&nbsp;"
    assert at.button(key="classic_g_E8").help == "cell E8: step 11 of road 0, road end 4"
    assert cell_button("J3", None, None) == ("J3  \n&nbsp;", "cell J3")
