"""The rally sheet and the simulated table under it stay on one page on Letter: the sheet's rows are drawn a
little shorter (not under ROW_FIT of their height) when that keeps the table on the page; on A4 they keep their
height. The table's figures here are made up: only their typesetting is under test."""
import pytest

from designer.core.pdfkit import new_book
from designer.systems.dirt.board.stage import load_rally
from designer.systems.dirt.book import rally as R
from designer.systems.dirt.book.facts import stage_facts
from tests.conftest import ROOT


@pytest.fixture(scope="module")
def facts():
    rally = load_rally(ROOT / "stages" / "dirt" / "rally-1" / "rally.yaml")
    return [stage_facts(s, lines=True, expected=False) for s in rally.stages]


def _table(players=4, stages=3):
    seat = dict(expected_seconds=300, sd=30, p10_seconds=260, p90_seconds=350, win_chance=0.25,
                blocked_chance=0.1, turns=20.0, stage_seconds=[100] * stages)
    return dict(players=players, runs=500, table_minutes=80, rally_table_turns=60, table_turns=[20] * stages,
                single_car_expected_seconds=290, stages=stages, seats=[dict(seat, seat=k + 1) for k in range(players)],
                assumed={"table_rule": {"status": "assumed"}}, seed=1)


@pytest.mark.parametrize("paper", ["A4", "Letter"])
def test_the_sheet_and_its_table_share_one_page(facts, paper, monkeypatch):
    fits = []
    real = R._sheet_fit
    monkeypatch.setattr(R, "_sheet_fit", lambda *a: fits.append(real(*a)) or fits[-1])
    pdf = new_book(paper, "t", "t")
    R.rally_sheet(pdf, "Rally 1", facts, table=_table())
    assert pdf.page_no() == 1
    assert R.ROW_FIT <= fits[0] <= 1.0
    assert (fits[0] < 1.0) == (paper == "Letter")


def test_rows_never_shrink_past_the_limit():
    pdf = new_book("Letter", "t", "t")
    pdf.add_page()
    pdf.set_y(pdf.bottom - 100)         # far too little room: the rows keep their height and the table moves on
    rows = [("PLAYER", "", "name")] + [("SS1 TIME", "", "time")] * 20
    assert R._sheet_fit(pdf, rows, _table()) == 1.0
