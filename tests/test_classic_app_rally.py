"""The classic Rally tab races the rally with several cars at the table, driven with Streamlit's AppTest."""
import pytest
from streamlit.testing.v1 import AppTest

from designer.app.classic import rally_race
from tests.test_classic_app import classic_pages


@pytest.fixture(scope="module")
def raced():
    """The demo rally raced by 2 cars 3 times through the page's boxes and button."""
    at = AppTest.from_function(classic_pages, default_timeout=300)
    at.run()
    assert not at.exception, at.exception
    go = at.button(key="classic_race_go")
    assert go.label == "Race the rally" and not go.disabled
    assert not _seats(at)
    at.number_input(key="classic_race_cars").set_value(2)
    at.number_input(key="classic_race_runs").set_value(3)
    at.run()
    at.button(key="classic_race_go").click()
    at.run()
    assert not at.exception, at.exception
    return at


def _seats(at):
    return [d.value for d in at.dataframe if "car" in d.value.columns]


def test_the_button_races_the_rally_and_shows_a_row_per_seat(raced):
    (table,) = _seats(raced)
    assert list(table["car"]) == [1, 2]
    assert {"rally time", "sd (s)", "95% interval (s)", "penalties (s)", "ES1", "ES2", "ES3"} <= set(table.columns)
    assert (table["sd (s)"] >= 0).all()
    for text in table["95% interval (s)"]:
        lo, hi = map(float, text.split("-"))
        assert 0 < lo <= hi
    button = raced.button(key="classic_race_go")
    assert button.label == "Race the rally" and not button.disabled        # enabled again once the races end
    assert not raced.session_state["classic_race_busy"]
    assert not raced.error
    assert raced.number_input(key="classic_race_cars").value == 2          # the typed values stay
    assert raced.number_input(key="classic_race_runs").value == 3


def test_the_figures_are_those_of_the_command_line(raced):
    from pathlib import Path

    from designer.systems.classic.system import SYSTEM

    result = raced.session_state["classic_race"]["result"]
    assert result["players"] == 2 and result["runs"] == 3
    cli = SYSTEM.simulate_rally(raced.session_state["classic_doc"], Path(raced.session_state["classic_near"]),
                                players=2, runs=3)
    assert result["seats"] == cli["seats"]                                 # seeded: the same races


def test_other_cars_ask_to_race_again_and_the_old_figures_come_back(raced):
    raced.number_input(key="classic_race_cars").set_value(3)
    raced.run()
    assert not _seats(raced)
    assert any("race again" in i.value for i in raced.info)
    raced.number_input(key="classic_race_cars").set_value(2)
    raced.run()
    assert len(_seats(raced)) == 1


def test_a_changed_rally_asks_to_race_again(raced):
    box = next(c for c in raced.checkbox if c.label == "Assistance after this stage")
    box.set_value(not box.value)
    next(b for b in raced.button if b.label == "Apply").click()
    raced.run()
    assert not raced.exception, raced.exception
    assert not _seats(raced)
    assert any("race again" in i.value for i in raced.info)


def test_a_stage_whose_boards_do_not_join_is_an_error_naming_it():
    from designer.core.errors import DesignerError
    from designer.systems.classic.files import stage as S
    from designer.systems.classic.files.stage import Rally
    from designer.systems.classic.system import SYSTEM

    first = next(e for e in SYSTEM.examples() if e.kind == "rally")
    good = SYSTEM.stages_of(SYSTEM.load(first.path))[0]
    bad = S.stage_from_data({**S.stage_to_data(good), "route": "X0 | - | X9"}, {}, good.source, near=good.near)
    with pytest.raises(DesignerError, match="ES1 .* cannot be raced"):
        rally_race.race(Rally(name="broken", stages=[bad]), 2, 1)
