"""The deck editor's plain functions: card numbers as text, rows without an id counted, crossing tables as rows
and back, many cards of one type at once."""
from __future__ import annotations

import pytest
from streamlit.testing.v1 import AppTest

from designer.app.rallye import deckedit
from designer.core.errors import DesignerError
from designer.systems.rallye.model.deck import deck_from_data, get_deck

DATA = dict(get_deck("rallye-demo").data)


def test_card_numbers_and_names_mix_and_come_back_as_written():
    data = {**DATA, "sections": DATA["sections"][:2] + [{"id": "X7", "type": "straight-wide-tarmac",
                                                          "safety": 200, "top": 240}]}
    rows = deckedit.sections_table(data)
    back = deckedit.tables_to_data(data, deckedit.types_table(data), rows + [{"id": "X8", "type": "straight-wide-tarmac",
                                                                              "safety": 220, "top": 240}],
                                   deckedit.actions_table(data))
    assert [c["id"] for c in back["sections"]] == [1, 2, "X7", "X8"]
    assert deck_from_data(back, {}, "editor").section("X8").safety == 220


def test_rows_without_an_id_are_counted():
    rows = [{"id": "1", "safety": 20}, {"id": None, "safety": 40}, {"id": "", "safety": None}, {"id": float("nan"), "top": 60}]
    assert deckedit.rows_without_id(rows) == 2


def test_crossing_tables_round_trip_and_are_checked():
    tables = get_deck("rallye-demo").tables.to_data()
    rows = deckedit.crossing_rows(tables)
    assert len(rows) == 7 and rows[0]["wheel"] == "right" and rows[0]["over safety"] == 0
    again = deckedit.rows_to_crossing(rows)
    assert again["wheel_right"][2] == [0, 1, 1, 2, 3, "spin"]
    data = {**DATA, "resolution": {"value": again, "status": "rulebook", "source": "my cards"}}
    assert deck_from_data(data, {}, "editor").tables.wheel_right[2][5] == "spin"
    rows[1]["6"] = "SPIN"
    rows[2]["1"] = 5.0                                    # a cell as pandas gives it
    edited = deckedit.rows_to_crossing(rows)
    assert edited["wheel_right"][1][5] == "spin" and edited["wheel_right"][2][0] == 5
    kinder = [dict(r) for r in deckedit.crossing_rows(tables)]
    kinder[3]["1"] = 0
    kinder[3]["2"] = 0
    kinder[3]["3"] = 0
    kinder[3]["4"] = 0
    kinder[3]["5"] = 0
    kinder[3]["6"] = 0                                    # row 3 kinder than row 2: refused on applying
    with pytest.raises(DesignerError, match="kinder"):
        deck_from_data({**DATA, "resolution": {"value": deckedit.rows_to_crossing(kinder)}}, {}, "editor")


def test_many_cards_of_one_type_at_once():
    new = deckedit.cards_from_type(DATA, "tight-narrow-snow", 5, "right")
    assert [c["id"] for c in new] == [41, 42, 43, 44, 45]
    assert all(c["direction"] == "right" and c["safety"] == 20 for c in new)
    deck = deck_from_data({**DATA, "sections": DATA["sections"] + new}, {}, "editor")
    assert len(deck.sections) == 45


def _deck_tab():
    from designer.app.rallye import deck_page
    from designer.app.rallye.state import ensure

    ensure()
    deck_page.deck_tab()


def test_the_page_says_pasting_works_and_adds_cards_in_bulk():
    at = AppTest.from_function(_deck_tab, default_timeout=60)
    at.run()
    assert not at.exception
    assert any("paste" in c.value for c in at.caption)
    at.selectbox(key="rallye_copy_type").select("tight-narrow-snow")
    at.number_input(key="rallye_copy_count").set_value(3)
    at.button(key="rallye_add_card").click().run()
    assert not at.exception
    ids = [str(c["id"]) for c in at.session_state["rallye_deck"]["sections"]]
    assert ids[-3:] == ["41", "42", "43"]
    at.toggle(key="rallye_edit_tables").set_value(True).run()
    assert not at.exception
    which = at.selectbox(key="rallye_tables_of_" + str(at.session_state["rallye_editor_version"]))
    assert which.value == "the whole deck" and "card 43" in which.options
    which.select("card 43").run()
    assert not at.exception and any("uses the deck's" in c.value for c in at.caption)
