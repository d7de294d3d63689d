"""The road book's rally sheet with several players: the rally raced by that many cars under the sheet (per car
total, spread, wins, chance of being blocked, turns, each stage's time; the table time from the simulated turns),
only when the book solves the expected time and prints lines."""
from __future__ import annotations

import shutil
import subprocess

import pytest

from designer.core.pdfkit import finish, new_book
from designer.systems.dirt.board.stage import load_stage
from designer.systems.dirt.book.facts import clock, stage_facts
from designer.systems.dirt.book.rally import rally_sheet, simulated_table
from designer.systems.dirt.dice.table_rally import simulate_rally

pytestmark = pytest.mark.skipif(not shutil.which("pdftotext"), reason="poppler-utils is not installed (pdftotext)")


def text_of(data: bytes, tmp_path) -> str:
    p = tmp_path / "sheet.pdf"
    p.write_bytes(data)
    return subprocess.run(["pdftotext", "-layout", str(p), "-"], capture_output=True, text=True, check=True).stdout


@pytest.fixture(scope="module")
def facts():
    stage = load_stage("stages/dirt/rally-1/ss2.yaml")
    return stage, stage_facts(stage, players=3, expected=True)


def sheet(name, facts_list, tmp_path, runs=40) -> str:
    pdf = new_book("A4", name, "test")
    rally_sheet(pdf, name, facts_list, runs=runs)
    return text_of(finish(pdf), tmp_path)


def test_the_sheet_prints_the_simulated_table_of_its_players(facts, tmp_path):
    _stage, f = facts
    text = sheet("Test", [f, f], tmp_path)
    d = simulate_rally([f.track, f.track], 3, 40)              # seeded: the very figures printed
    assert "At the table: 3 cars raced 40 times (simulation)" in text
    rows = [line.split() for line in text.splitlines() if line.strip()[:1] in "123" and "%" in line]
    assert [r[0] for r in rows] == ["1", "2", "3"]
    for row, seat in zip(rows, d["seats"]):
        assert row[1] == clock(seat["expected_seconds"])
        assert row[-2:] == [clock(x) for x in seat["stage_seconds"]]
        assert f"{100 * seat['blocked_chance']:.0f}%" in row
    assert f"{d['rally_table_turns']:.0f} turns of all cars" in text and "not in the rulebook" in text


def test_no_table_alone_without_expected_time_or_lines(facts, tmp_path):
    stage, f = facts
    alone = stage_facts(stage, players=1, expected=True)
    quick = stage_facts(stage, players=3, expected=False)
    blind = stage_facts(stage, players=3, lines=False, expected=True)
    for other in (alone, quick, blind):
        assert simulated_table([other]) is None
    assert "At the table:" not in sheet("Alone", [alone], tmp_path)
    assert simulated_table([f], runs=5)["players"] == 3
