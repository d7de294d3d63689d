"""Random changes to the bundled classic files (a value of another type or out of range, a key gone, a list
where a value was) never make an internal error: each is read, checked and analysed, or refused with exit 2."""
from __future__ import annotations

import copy
import math
from pathlib import Path

import yaml
from click.testing import CliRunner
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from designer.cli import main

ROOT = Path(__file__).resolve().parent.parent
FILES = {"stage": ROOT / "stages/classic/es1-demo.yaml", "snow": ROOT / "stages/classic/es3-demo.yaml",
         "box": ROOT / "tilesets/classic/demo-zones.yaml", "rules": ROOT / "tilesets/classic/classic-rules.yaml"}
ODD = [0, -1, 1, 2, 7, 10 ** 9, -(10 ** 9), 0.5, math.inf, True, False, None, "", "x", "A1", "X0-4", "5",
       [], [1], ["x"], {}, {"a": 1}, {"value": 1}, [[1]], "-1", 1e300]


def paths_in(data, at=()):
    yield at
    if isinstance(data, dict):
        for k, v in data.items():
            yield from paths_in(v, at + (k,))
    elif isinstance(data, list):
        for i, v in enumerate(data):
            yield from paths_in(v, at + (i,))


def mutate(data, path, op, value):
    if not path:
        return value
    parent = data
    for p in path[:-1]:
        parent = parent[p]
    key = path[-1]
    if op == "drop":
        del parent[key]
    elif op == "wrap":
        parent[key] = [parent[key]]
    elif op == "nudge":                                  # a plausible value of the same type
        old = parent[key]
        if isinstance(old, bool):
            parent[key] = not old
        elif isinstance(old, int):
            parent[key] = [old - 1, old + 1, 0, 1, 5, 6][value % 6] if isinstance(value, int) else old + 1
        elif isinstance(old, float):
            parent[key] = old / 2
        elif isinstance(old, list) and old:
            parent[key] = old[:-1]
    elif op == "twice" and isinstance(parent, list):
        parent.insert(key, parent[key])
    else:
        parent[key] = copy.deepcopy(value)         # never the shared ODD value itself
    return data


@st.composite
def mutated(draw, which):
    data = yaml.safe_load(FILES[which].read_text(encoding="utf-8"))
    all_paths = list(paths_in(data))
    for _ in range(draw(st.integers(1, 3))):
        path = draw(st.sampled_from(all_paths[1:]))
        op = draw(st.sampled_from(["set", "drop", "wrap", "twice", "nudge", "nudge", "nudge"]))
        try:
            data = mutate(data, path, op, draw(st.integers(0, 5)) if op == "nudge" else draw(st.sampled_from(ODD)))
        except (KeyError, IndexError, TypeError):
            pass                                     # a path a previous change removed
        all_paths = list(paths_in(data)) or [()]
        if len(all_paths) < 2:
            break
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True)


def run(tmp, name, text, command="analyze"):
    (tmp / name).write_text(text, encoding="utf-8")
    r = CliRunner().invoke(main, [command, str(tmp / name)])
    assert r.exit_code in (0, 1, 2), (r.exit_code, r.output, text)
    assert "Traceback" not in r.output
    if r.exit_code == 2:
        assert "hint" in r.output or ".yaml" in r.output, r.output
    return r


SETTINGS = settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@SETTINGS
@given(text=mutated("stage"))
def test_mutated_stages(tmp_path, text):
    run(tmp_path, "s.yaml", text)


@SETTINGS
@given(text=mutated("snow"))
def test_mutated_snowy_stages(tmp_path, text):
    run(tmp_path, "s.yaml", text, "validate")


@SETTINGS
@given(text=mutated("box"))
def test_mutated_boxes(tmp_path, text):
    (tmp_path / "b.yaml").write_text(text, encoding="utf-8")
    run(tmp_path, "s.yaml", FILES["stage"].read_text(encoding="utf-8").replace("zones: demo-zones", "zones: b.yaml"))


@SETTINGS
@given(text=mutated("rules"))
def test_mutated_rulesets(tmp_path, text):
    (tmp_path / "house-rules.yaml").write_text(text, encoding="utf-8")
    run(tmp_path, "s.yaml", FILES["stage"].read_text(encoding="utf-8") + "rules: house-rules.yaml\n")
