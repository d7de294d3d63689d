"""The Great Race at the boundary: uploads name boards and rulesets by name only, every file is typed before
use (exit 2 with file:line, never an internal error), and a file cannot ask for unbounded work."""
from __future__ import annotations

import copy
import json
import sys
from pathlib import Path

import pytest
import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.cli import main
from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.greatrace.system import SYSTEM

FOLDER = paths.TILESETS / "greatrace"
BOARD = FOLDER / "demo-frontier.yaml"
RULES = FOLDER / "greatrace-rules.yaml"
RACES = sorted((paths.STAGES / "greatrace").glob("demo-race-*.yaml"))

# -- a sentinel: every file the process opens while it is watching ------------------------------------
_OPENED: list[str] | None = None


def _audit(event, args):
    if _OPENED is not None and event == "open" and args and isinstance(args[0], (str, bytes, Path)):
        _OPENED.append(str(args[0]))


sys.addaudithook(_audit)


class watch:
    """``with watch() as opened:`` collects the paths opened inside the block."""

    def __enter__(self):
        global _OPENED
        _OPENED = []
        return _OPENED

    def __exit__(self, *exc):
        global _OPENED
        _OPENED = None
        return False


def _race_text(board: str = "demo-frontier") -> str:
    return (f"system: greatrace\nrace: hostile\nboard: {board!s}\nstart: Porto Azul\nfinish: Fort Lumen\n"
            "median: Midway\n")


def _upload(text: str, name: str = "upload.yaml"):
    """What the app's pages do with an upload: load it with no folder, then find its board by name."""
    doc = SYSTEM.loads(text, name, near=None)
    return doc, SYSTEM.box_of(doc, None)


@pytest.fixture()
def secret(tmp_path):
    """A real board YAML file on the server, outside the bundled folders (a sentinel: must never be opened)."""
    p = tmp_path / "secret-board.yaml"
    p.write_text(BOARD.read_text(encoding="utf-8").replace("board: demo-frontier", "board: secret"))
    return p


def _targets(secret: Path) -> list[str]:
    return ["/etc/passwd", "../../pyproject.toml", str(secret), str(secret.with_suffix("")),
            str(RULES), "..\\..\\pyproject.toml", "C:\\Windows\\win.ini", "~/secret-board"]


def test_an_upload_naming_a_server_path_as_its_board_is_refused_without_opening_it(secret):
    for target in _targets(secret):
        with watch() as opened:
            with pytest.raises(DesignerError) as exc:
                _upload(_race_text(json.dumps(target)))
        assert "path" in str(exc.value) or "no board named" in str(exc.value), target
        assert exc.value.hint and "demo-frontier" in exc.value.hint
        assert "upload.yaml:3" in str(exc.value)
        names = [Path(o).name for o in opened]
        for bad in ("passwd", "pyproject.toml", secret.name, "win.ini"):
            assert bad not in names, (target, opened)


def test_an_uploaded_board_naming_a_server_path_as_its_ruleset_is_refused_without_opening_it(secret, tmp_path):
    rules_copy = tmp_path / "my-rules.yaml"
    rules_copy.write_text(RULES.read_text(encoding="utf-8"))
    text = BOARD.read_text(encoding="utf-8")
    for target in ["/etc/passwd", "../../pyproject.toml", str(rules_copy), str(secret), "../greatrace-rules.yaml"]:
        bad = text.replace("rules: greatrace-rules.yaml", f"rules: {json.dumps(target)}")
        with watch() as opened:
            with pytest.raises(DesignerError) as exc:
                SYSTEM.loads(bad, "board-upload.yaml", near=None)
        assert "board-upload.yaml:" in str(exc.value)
        assert "greatrace-rules" in (exc.value.hint or "")
        names = [Path(o).name for o in opened]
        assert not {"passwd", "pyproject.toml", rules_copy.name, secret.name} & set(names), (target, opened)


def test_an_upload_names_bundled_boards_and_rulesets_by_name():
    doc, board = _upload(_race_text())
    assert board.name == "demo-frontier"
    text = BOARD.read_text(encoding="utf-8")
    for name in ("greatrace-rules", "greatrace-rules.yaml"):
        doc = SYSTEM.loads(text.replace("rules: greatrace-rules.yaml", f"rules: {name}"), "b.yaml", near=None)
        assert SYSTEM.box_of(doc, None).rules["gauge_max"]["engine"] >= 1
    # a ruleset is not a board, and a board is not a ruleset, even by name
    with pytest.raises(DesignerError, match="no board named"):
        _upload(_race_text("greatrace-rules"))
    with pytest.raises(DesignerError, match="no ruleset named"):
        SYSTEM.loads(text.replace("rules: greatrace-rules.yaml", "rules: demo-frontier"), "b.yaml", near=None)


def test_the_command_line_still_reads_a_board_and_ruleset_beside_the_race(tmp_path):
    (tmp_path / "my-rules.yaml").write_text(RULES.read_text(encoding="utf-8"))
    (tmp_path / "my-board.yaml").write_text(BOARD.read_text(encoding="utf-8")
                                            .replace("board: demo-frontier", "board: my-board")
                                            .replace("rules: greatrace-rules.yaml", "rules: my-rules.yaml"))
    race = tmp_path / "race.yaml"
    race.write_text(_race_text("my-board"))
    r = CliRunner().invoke(main, ["validate", str(race)])
    assert r.exit_code == 0, r.output


def test_the_app_page_refuses_a_path_in_an_upload(secret, monkeypatch):
    """Through the page's own function: the message is shown, the previous race stays, nothing opened."""
    pytest.importorskip("streamlit")
    from designer.app.greatrace import state

    fake: dict = {}
    monkeypatch.setattr(state, "ss", fake)
    for target in _targets(secret)[:3]:
        with watch() as opened:
            with pytest.raises(DesignerError):
                state.open_text(_race_text(json.dumps(target)), "upload.yaml")
        assert not any(Path(o).name in ("passwd", "pyproject.toml", secret.name) for o in opened)
    assert "greatrace_race" not in fake


# -- typed files: exit 2 with file:line and a hint, never exit 3 ------------------------------------------

def _rules_with(tmp_path: Path, key: str, value) -> None:
    data = yaml.safe_load(RULES.read_text(encoding="utf-8"))
    if value is _DROP:
        data.pop(key)
    elif isinstance(data.get(key), dict) and "value" in data[key] and not key.startswith("!"):
        data[key]["value"] = value
    else:
        data[key] = value
    (tmp_path / "rules.yaml").write_text(yaml.safe_dump(data, sort_keys=False))


_DROP = object()


def _setup(tmp_path: Path, race_extra: str = "") -> Path:
    (tmp_path / "b.yaml").write_text(BOARD.read_text(encoding="utf-8").replace("rules: greatrace-rules.yaml",
                                                                               "rules: rules.yaml"))
    if not (tmp_path / "rules.yaml").exists():
        (tmp_path / "rules.yaml").write_text(RULES.read_text(encoding="utf-8"))
    race = tmp_path / "r.yaml"
    race.write_text(_race_text("b") + race_extra)
    return race


def _exit2(race: Path, where: str) -> str:
    for command in (["validate"], ["analyze"]):
        r = CliRunner().invoke(main, command + [str(race)])
        assert r.exit_code == 2, (command, r.output)
        assert "internal error" not in r.output
        assert where in r.output, r.output
        assert "hint:" in r.output
    return r.output


@pytest.mark.parametrize("key,value", [
    ("gauge_max", 5), ("gauge_max", {"fuel": 10, "engine": 5}), ("gauge_max", {"fuel": 10**9, "engine": 5, "chassis": 5}),
    ("fuel_price", "abc"), ("fuel_price", {"city": 30, "elsewhere": 20}), ("assistants_per_round", 0),
    ("transport_card_discount", 0), ("funding_scale", {1: 10, 3: 40}), ("funding_assistants", 9),
    ("repair_price", {"city": -20, "elsewhere": 40}), ("danger_mechanic", True), ("scout_tiles", 0),
    ("table_minutes_per_player_round", "four"), ("chassis_floor", _DROP), ("unknown_parameter", {"value": 1}),
])
def test_a_bad_ruleset_value_exits_2_with_its_line(tmp_path, key, value):
    _rules_with(tmp_path, key, value)
    out = _exit2(_setup(tmp_path), "rules.yaml:")
    assert key in out or "missing" in out


@pytest.mark.parametrize("extra,where", [
    ("players: true\n", "r.yaml:7"), ("players: 0\n", "r.yaml:7"), ("dashboard: {engine: 0}\n", "r.yaml:7"),
    ("dashboard: {fuel: -1}\n", "r.yaml:7"), ("money: abc\n", "r.yaml:7"), ("cards: {guide: 10000}\n", "r.yaml:7"),
    ("laid: !!python/object:builtins.dict {C4: plain}\n", "r.yaml:7"), ("cards: [1, 2]\n", "r.yaml:7"),
    ("dashboard: !!python/object/new:os.system [ls]\n", "r.yaml:7"), ("seat: 9\n", "r.yaml:7"),
])
def test_a_bad_race_value_exits_2_with_its_line(tmp_path, extra, where):
    _exit2(_setup(tmp_path, extra), where)


@pytest.mark.parametrize("old,new", [
    ("columns: 20", "columns: 100000"), ("rows: 11", "rows: true"), ("count: 32", "count: 1000000"),
    ("count: 32", "count: 400"), ("fuel: 1, mech: 0}", "fuel: abc, mech: 0}"), ("cards: 2,", "cards: -1,"),
    ("fare: 40", "fare: 1e9"), ("purple: true}", "purple: 2}"), ("mode: sea", "mode: rocket"),
    ("board: demo-frontier", "board: !!python/object:x {a: 1}"),
])
def test_a_bad_board_value_exits_2_with_its_line(tmp_path, old, new):
    race = _setup(tmp_path)
    board = tmp_path / "b.yaml"
    text = board.read_text()
    assert old in text
    if new == "count: 400":           # several terrains of 400 tiles: more than the bag cap in total
        text = text.replace("count: 16", "count: 400").replace("count: 12", "count: 400").replace(
            "count: 8,", "count: 400,")
    board.write_text(text.replace(old, new, 1))
    _exit2(race, "b.yaml:")


# -- bounded work ------------------------------------------------------------------------------------

def test_analysis_options_are_capped():
    doc = SYSTEM.load(RACES[0])
    board = SYSTEM.box_of(doc)
    for options in ({"runs": 10**9}, {"runs": 0}, {"candidates": 10**6}, {"players": 40}):
        players = options.pop("players", None)
        with pytest.raises(DesignerError) as exc:
            SYSTEM.analyse(doc, board, players=players, **options)
        assert exc.value.hint


# -- random mutations of the bundled files never give an internal error ----------------------------------

JUNK = st.one_of(st.none(), st.booleans(), st.integers(-10**12, 10**12), st.sampled_from([0, 1, -1, 2, 5, 99]),
                 st.floats(allow_nan=True, allow_infinity=True), st.text(max_size=12),
                 st.lists(st.integers(-3, 30), max_size=3), st.dictionaries(st.text(max_size=5), st.integers(), max_size=2),
                 st.sampled_from(["C4", "Z99", "A1", "plain", "Porto Azul", "/etc/passwd", "../x", "demo-frontier"]))


def _paths(data, prefix=()):
    yield prefix
    if isinstance(data, dict):
        for k, v in data.items():
            yield from _paths(v, prefix + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from _paths(v, prefix + (i,))


def _mutate(data, path, value, drop: bool):
    data = copy.deepcopy(data)
    if not path:
        return value
    node = data
    for p in path[:-1]:
        node = node[p]
    if drop:
        del node[path[-1]]
    else:
        node[path[-1]] = value
    return data


BASE = {"rules": yaml.safe_load(RULES.read_text(encoding="utf-8")),
        "board": yaml.safe_load(BOARD.read_text(encoding="utf-8")),
        "race": yaml.safe_load(RACES[1].read_text(encoding="utf-8"))}


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture,
                                                                   HealthCheck.too_slow])
@given(which=st.sampled_from(sorted(BASE)), pick=st.integers(0, 10**6), value=JUNK, drop=st.booleans(),
       twice=st.booleans(), pick2=st.integers(0, 10**6), value2=JUNK)
def test_random_mutations_of_the_bundled_files_never_give_an_internal_error(tmp_path_factory, which, pick, value,
                                                                            drop, twice, pick2, value2):
    tmp = tmp_path_factory.mktemp("mut")
    files = {k: copy.deepcopy(v) for k, v in BASE.items()}
    files["board"]["rules"] = "rules.yaml"
    files["race"]["board"] = "b"
    all_paths = list(_paths(files[which]))
    path = all_paths[pick % len(all_paths)]
    files[which] = _mutate(files[which], path, value, drop and bool(path))
    if twice:
        all_paths = list(_paths(files[which]))
        files[which] = _mutate(files[which], all_paths[pick2 % len(all_paths)], value2, False)
    for name, key in (("rules.yaml", "rules"), ("b.yaml", "board"), ("r.yaml", "race")):
        (tmp / name).write_text(yaml.safe_dump(files[key], sort_keys=False, allow_unicode=True))
    race = tmp / "r.yaml"
    try:
        doc = SYSTEM.load(race)
        board = SYSTEM.box_of(doc, tmp)
        problems = SYSTEM.validate(doc, board)
        if not [p for p in problems if p.severity == "error"]:
            SYSTEM.analyse(doc, board, runs=20)
    except DesignerError as exc:
        assert str(exc)


def test_the_trade_off_slack_is_a_ranged_parameter(tmp_path):
    _rules_with(tmp_path, "trade_off_slack", {"value": 9, "status": "decided", "source": "x"})
    _exit2(_setup(tmp_path), "rules.yaml:")


def test_a_board_too_large_for_the_whole_search_is_analysed_from_candidates_or_refused():
    """The largest board the schema admits, every space open: the search stops at its budget and the analysis
    says so (candidate routes driven under the rules), or refuses with a hint; never an endless search."""
    import dataclasses

    from designer.systems.greatrace.files.board import board_from_data
    from designer.systems.greatrace.files.race import race_from_data
    from designer.systems.greatrace.files.rules import Parameter, load_ruleset

    rules = load_ruleset()
    data = {"board": "big", "columns": 26, "rows": 40,
            "cities": [{"name": "W", "at": "A1", "purple": True}, {"name": "E", "at": "Z40", "purple": True}],
            "bag": [{"terrain": "plain", "count": 500, "fuel": 1, "mech": 0},
                    {"terrain": "rock", "count": 500, "fuel": 2, "mech": 1, "danger": True}]}
    race = race_from_data({"race": "x", "board": "big", "start": "W", "finish": "E"}, {}, "r")
    board = board_from_data(data, {}, "big", rules=rules)
    result = SYSTEM.analyse(race, board, runs=5)
    assert result["search_complete"] is False and any("too large" in s for s in result["summary"])
    params = dict(rules.params)
    params["gauge_max"] = Parameter("gauge_max", {"fuel": 30, "engine": 12, "chassis": 12}, "decided", "t")
    board = board_from_data(data, {}, "big", rules=dataclasses.replace(rules, params=params))
    try:
        SYSTEM.analyse(race, board, runs=5)
    except DesignerError as exc:
        assert exc.hint


def test_a_bag_row_without_its_count_is_said_not_taken_silently_as_no_tile():
    from designer.systems.greatrace.driving.validate import validate_board
    from designer.systems.greatrace.files import edit
    from designer.systems.greatrace.files.board import board_from_data

    data = edit.paint(edit.paint(edit.new_board("b", 4, 3), ["A1"], "purple city", "W"), ["D3"], "purple city", "E")
    data = edit.set_table(data, "bag", data["bag"] + [{"terrain": "hill", "count": None, "fuel": 2, "mech": 0}])
    problems = {p.code: p for p in validate_board(board_from_data(data, {}, "b"))}
    assert "hill" in problems["terrain-without-tiles"].message and problems["terrain-without-tiles"].hint


def test_a_race_no_car_can_pay_is_invalid_and_names_the_tile(tmp_path):
    """A route on the map whose every way crosses a tile no full car can pay (5 fuel for a 4-level tank): « Vous
    ne pouvez pas pénétrer sur une TUILE TERRAIN si vous ne disposez pas des ressources nécessaires à son
    franchissement ». validate exits 1 naming the tile, analyze exits 2, as for a city cut off."""
    _rules_with(tmp_path, "gauge_max", {"fuel": 4, "engine": 2, "chassis": 2})
    (tmp_path / "b3.yaml").write_text(
        "system: greatrace\nboard: b3\nrules: rules.yaml\ncolumns: 3\nrows: 1\n"
        "cities: [{name: X, at: A1, purple: true}, {name: Y, at: C1, purple: true}]\n"
        "bag: [{terrain: lava, count: 1, fuel: 5, mech: 0}, {terrain: plain, count: 1, fuel: 1, mech: 0}]\n")
    race = tmp_path / "race.yaml"
    race.write_text("system: greatrace\nrace: s\nboard: b3\nstart: X\nfinish: Y\nlaid: {B1: lava}\n")
    r = CliRunner().invoke(main, ["validate", str(race)])
    assert r.exit_code == 1 and "no-payable-route" in r.output and "B1 (5 fuel, 0 mechanic)" in r.output, r.output
    assert "race.yaml:6" in r.output
    r = CliRunner().invoke(main, ["analyze", str(race)])
    assert r.exit_code == 2 and "no car can pay" in r.output and "Traceback" not in r.output, r.output
    race.write_text("system: greatrace\nrace: s\nboard: b3\nstart: X\nfinish: Y\nlaid: {B1: plain}\n")
    r = CliRunner().invoke(main, ["validate", str(race)])
    assert r.exit_code == 0, r.output
