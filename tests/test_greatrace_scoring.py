"""The Great Race's whole scoring (purse by seat, progression bonus, prestige), funding as the plan's choice,
repairs priced where they are made, and the road book's pages for the table."""
from __future__ import annotations

import subprocess

import pytest

from designer.core import paths
from designer.systems.greatrace.driving import scoring
from designer.systems.greatrace.driving.analysis import direction
from designer.systems.greatrace.files.board import board_from_data
from designer.systems.greatrace.driving.plan import funding_plan
from designer.systems.greatrace.files.race import race_from_data
from designer.systems.greatrace.files.rules import load_ruleset
from designer.systems.greatrace.system import SYSTEM
from designer.systems.greatrace.book.table_sheets import components

RULES = load_ruleset()


def test_purse_by_seat_and_progression_bonus_as_the_rulebook_prints_them():
    assert [scoring.purse(RULES, 4, s) for s in (1, 2, 3, 4)] == [80, 80, 80, 70]
    assert scoring.bonus_per_round(RULES, 4) == (20, 10)
    assert scoring.bonus_per_round(RULES, 2) == (20, 0)


def test_prestige_of_the_rulebook_example():
    # CALCUL DES POINTS DE PRESTIGE: blue arrives 1st with 2 gauge levels and 10 F: 7 points; green arrives
    # 2nd with 4 gauge levels and 50 F or more: 8 points, and wins.
    assert scoring.prestige_points(RULES, 1, 1, 1, 10) == 7
    assert scoring.prestige_points(RULES, 2, 2, 2, 50) == 8
    assert scoring.prestige_points(RULES, None, 2, 2, 99) == 5


@pytest.mark.parametrize("shortfall,expected", [(0, (0, 0, 0)), (10, (1, 1, 10)), (40, (1, 3, 40)),
                                                (50, (1, 4, 70)), (110, (1, 5, 110)), (150, (2, 8, 150))])
def test_funding_takes_the_fewest_assistants(shortfall, expected):
    assert funding_plan(shortfall, RULES) == expected


def _line(kinds: list[str], middle: int | None = None, cols: int | None = None):
    cols = cols or len(kinds) + 2
    cities = [{"name": "West", "at": "A1", "purple": True}, {"name": "East", "at": f"{chr(64 + cols)}1", "purple": True}]
    if middle is not None:
        cities.append({"name": "Mid", "at": f"{chr(65 + middle)}1"})
    board = board_from_data({"board": "line", "columns": cols, "rows": 1, "cities": cities,
                             "bag": [{"terrain": "plain", "count": 20, "fuel": 1, "mech": 0},
                                     {"terrain": "rocks", "count": 20, "fuel": 1, "mech": 2}]}, {}, "line")
    free = [f"{chr(65 + c)}1" for c in range(1, cols - 1) if c != middle]
    return board, dict(zip(free, kinds))


def test_a_repair_the_route_needs_is_made_in_the_city_at_the_city_price():
    # West, two rocks (2 mechanic each), Mid (a city), two rocks, East; engine 3 and chassis 2 hold 5 levels:
    # 4 are lost before Mid and 4 more after, so the car must mend on the way. It buys the parts in Mid at 20 F
    # a level, not on the road at 40 F.
    board, laid = _line(["rocks", "rocks", "rocks", "rocks"], middle=3)
    race = race_from_data({"race": "r", "board": "line", "start": "West", "finish": "East", "laid": laid,
                           "dashboard": {"engine": 3, "chassis": 2}, "money": 500}, {}, "r")
    d = direction(board, race)
    fast = d["_plans"]["fastest"]
    repairs = [s for s in fast.legs if s.repair_city or s.repair_on_way]
    assert repairs and all(leg.repair_on_way == 0 for leg in fast.legs)
    assert any(leg.start == "Mid" and leg.repair_city for leg in fast.legs)
    assert fast.francs % 20 == 0 and fast.owed_mech >= 0


def test_the_analysis_reports_prestige_and_what_is_not_modelled():
    doc = SYSTEM.load(paths.STAGES / "greatrace" / "demo-race-2.yaml")
    result = SYSTEM.analyse(doc, SYSTEM.box_of(doc), runs=20)
    sc = result["scoring"]["fastest"]
    assert set(sc["prestige_by_arrival_rank"]) == {1, 2, 3}
    assert sc["prestige_by_arrival_rank"][1] - sc["prestige_by_arrival_rank"][2] == 2
    assert any("JERRICAN" in x for x in result["not_modelled"])
    assert all("prestige" in row for row in result["pareto"])


def test_the_road_book_lists_the_components_and_has_a_score_sheet(tmp_path):
    doc = SYSTEM.load(paths.STAGES / "greatrace" / "demo-race-2.yaml")
    board = SYSTEM.box_of(doc)
    c = components(doc, board)
    assert sum(x["count"] for x in c["lay"]) == len(doc.laid)
    assert c["bag_total"] == board.bag_size() - len(doc.laid)
    pdf = tmp_path / "book.pdf"
    pdf.write_bytes(SYSTEM.roadbook(doc, runs=20))
    try:
        text = subprocess.run(["pdftotext", str(pdf), "-"], capture_output=True, text=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError):
        pytest.skip("pdftotext is not installed")
    assert "Setting up the table" in text and "spoils the draws" in text and "Score sheet" in text


def test_a_seat_past_the_players_is_refused_with_its_line():
    from designer.core.errors import DesignerError
    from designer.systems.greatrace.files.race import loads_race

    text = ("system: greatrace\nrace: r\nboard: demo-frontier\nstart: Porto Azul\nfinish: Fort Lumen\n"
            "players: 2\nseat: 4\n")
    with pytest.raises(DesignerError, match="seat: a seat of the 2 players"):
        loads_race(text, "r.yaml")
