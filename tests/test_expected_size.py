"""The expected time's bounded work: a road too long for its time and memory bounds is refused before any work,
with a message and a hint, through the library, ``analyze`` and the road book."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner

from designer.cli import main
from designer.core.errors import DesignerError
from designer.systems.dirt.analysis import analyze
from designer.systems.dirt.board.stage import loads_stage
from designer.systems.dirt.board.track import load_track
from designer.systems.dirt.dice import expected_time as E

RX = Path(__file__).resolve().parents[1] / "stages/dirt/expansions/rx-circuit-demo.yaml"


def rx_text(laps: int) -> str:
    data = yaml.safe_load(RX.read_text())
    data["laps"] = laps
    return yaml.safe_dump(data, sort_keys=False)


def test_a_circuit_of_twenty_laps_is_refused_at_once():
    track = load_track(loads_stage(rx_text(20), "rx.yaml"))
    assert track.graph.number_of_nodes() > E.MAX_CELLS
    t0 = time.process_time()
    with pytest.raises(DesignerError) as err:
        E.expected_time(track)
    assert time.process_time() - t0 < 1.0
    assert "at most" in str(err.value) and "--no-expected" in (err.value.hint or "")
    with pytest.raises(DesignerError):
        analyze(track)


def test_the_command_line_says_why_and_how(tmp_path):
    path = tmp_path / "rx20.yaml"
    path.write_text(rx_text(20))
    run = CliRunner().invoke(main, ["analyze", str(path)])
    assert run.exit_code == 2, run.output
    assert "at most" in run.output and "--no-expected" in run.output and "Traceback" not in run.output
    book = CliRunner().invoke(main, ["roadbook", str(path), "--expected", "-o", str(tmp_path / "b.pdf")])
    assert book.exit_code == 0, book.output         # the road book prints, without the lines, saying why


def test_a_short_circuit_is_still_solved():
    track = load_track(loads_stage(rx_text(1), "rx.yaml"))
    assert track.graph.number_of_nodes() <= E.MAX_CELLS
    E.check_size(track, track.graph)


def as_laid_rx(laps: int) -> str:
    data = yaml.safe_load(rx_text(laps))
    data.setdefault("options", {})["big_attack_failure"] = "as_laid"
    return yaml.safe_dump(data, sort_keys=False)


def test_the_reading_as_laid_has_a_lower_cap_and_says_how_to_lift_it(tmp_path):
    """As laid, every order of the dice that fails differently is a plan of its own: a road the default reading
    solves may be refused under that option, with the option named as the way out."""
    track = load_track(loads_stage(as_laid_rx(5), "rx.yaml"))
    n = track.graph.number_of_nodes()
    assert E.MAX_CELLS_AS_LAID < n <= E.MAX_CELLS
    t0 = time.process_time()
    with pytest.raises(DesignerError) as err:
        E.expected_time(track)
    assert time.process_time() - t0 < 1.0
    assert f"at most {E.MAX_CELLS_AS_LAID} cells under the reading as_laid" in str(err.value)
    assert "big_attack_failure" in err.value.hint and "options" in (err.value.where or "")
    plain = load_track(loads_stage(rx_text(5), "rx.yaml"))
    E.check_size(plain, plain.graph)                       # the default reading solves it
    path = tmp_path / "rx5.yaml"
    path.write_text(as_laid_rx(5))
    run = CliRunner().invoke(main, ["analyze", str(path)])
    assert run.exit_code == 2 and "as_laid" in run.output and "Traceback" not in run.output, run.output
    shorter = load_track(loads_stage(as_laid_rx(4), "rx.yaml"))
    E.check_size(shorter, shorter.graph)                   # 360 cells: under the cap as laid


def test_one_plan_of_a_lazy_set_is_the_same_without_building_the_whole_set():
    """Replaying a decision takes its plan from the set's rows (the arrays of every plan are not built and
    kept): the same arrays as taken from the built set."""
    import numpy as np

    from designer.systems.dirt.dice.mishaps import load_mishaps
    from designer.systems.dirt.dice.plans import subset
    from designer.systems.dirt.dice.turn_model import NO_DAMAGE, DirtModel
    from designer.systems.dirt.driving.road import road_of
    from designer.systems.dirt.driving.ruleset import load_ruleset
    from tests.test_expected_dirt import demo_track

    model = DirtModel(road_of(demo_track().graph), load_ruleset(), load_mishaps())
    ps = model.plans(model.road.starts()[0], 0, NO_DAMAGE)
    lazy = [subset(ps, p) for p in range(ps.n)]
    assert "cell" not in ps.__dict__
    ps.cell                                            # now build every plan's arrays
    for p, one in enumerate(lazy):
        full = subset(ps, p)
        for name in ("length", "cell", "gear", "fin", "q", "pj", "pc", "m", "cuts", "gain"):
            assert np.array_equal(getattr(one, name), getattr(full, name)), (p, name)
        assert one.steps == full.steps


def test_two_damage_tokens_are_tracked_and_one_on_a_long_road(monkeypatch):
    """The default bound is two damage tokens (or more, where the turns at the bound call for it); on a road longer
    than DAMAGE_CELLS one is tracked (memory), and the result and the text report name the bound used."""
    from designer.systems.dirt.dice.mishaps import load_mishaps
    from designer.systems.dirt.report import text_report

    assert load_mishaps().max_damage == 2
    track = load_track(loads_stage(rx_text(1), "rx.yaml"))
    n = track.graph.number_of_nodes()
    assert n <= E.DAMAGE_CELLS
    bounds = E.expected_time(track).to_dict(details=False)["bounds"]
    assert bounds["damage_steps"][0]["max_damage"] == 2 and bounds["max_damage"] >= 2   # two, or more where it matters
    monkeypatch.setattr(E, "DAMAGE_CELLS", n - 1)             # the same road counted as a long one
    short = load_track(loads_stage(rx_text(1), "rx.yaml"))
    result = E.expected_time(short)
    assert result.mishaps.max_damage == 1 and result.model.mishaps.max_damage == 1
    assert [s["max_damage"] for s in result.damage_steps] == [1]              # never raised on a long road
    last = result.damage_steps[-1]
    assert last["stop"] == ("memory" if last["turns_at_bound"] > result.mishaps.damage_turns else "turns")
    report = analyze(short)
    assert report["expected"]["bounds"]["max_damage"] == 1
    assert "damage tokens tracked: 1" in text_report(report)
