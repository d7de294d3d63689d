"""Batch analysis: the same rows as one-by-one analysis, in parallel locally and on a Dask cluster."""
from __future__ import annotations

import csv
import io
from pathlib import Path

import pytest

from designer import systems
from designer.batch import analyse_all, stage_files
from designer.batch.table import csv_text, html_text
from designer.core import parallel

ROOT = Path(__file__).resolve().parent.parent
RALLY1 = ROOT / "stages" / "dirt" / "rally-1"
QUICK = {"dirt": {"expected": False}}        # the rows' plumbing is the same; the expected time has its own tests


def _one_by_one(path: Path) -> dict:
    system = systems.system_of_file(path)
    stage = system.load(path)
    box = system.box_of(stage, path.parent)
    return system.facts(stage, box, system.analyse(stage, box, **QUICK.get(system.name, {})))


def test_batch_rows_equal_one_by_one_analysis():
    from designer.batch.worker import analyse_file

    assert analyse_file({"path": str(RALLY1 / "rally.yaml")}) == []       # a rally's stages have files of their own
    assert [Path(f).name for f in stage_files([RALLY1])] == ["rally.yaml", "ss1.yaml", "ss2.yaml", "ss3.yaml"]
    rows = analyse_all([RALLY1 / "ss1.yaml", RALLY1 / "ss3.yaml", ROOT / "stages" / "rallye"], jobs=2,
                       thumbnails=False, options=QUICK)
    assert [Path(r["file"]).name for r in rows][:2] == ["ss1.yaml", "ss3.yaml"]
    assert {r["system"] for r in rows} == {"dirt", "rallye"}
    for row in rows:
        assert row["valid"] is True
        expected = _one_by_one(Path(row["file"]))
        assert {k: row[k] for k in expected} == expected


def test_tables(tmp_path):
    bad = tmp_path / "bad.yaml"
    bad.write_text("stage: broken\ntiles: [202a A, 999z D]\n")
    rows = analyse_all([RALLY1 / "ss1.yaml", bad], jobs=1, options=QUICK)
    assert rows[1]["valid"] is False and "999z" in rows[1]["problems"]
    table = list(csv.DictReader(io.StringIO(csv_text(rows))))
    assert table[0]["stage"] == "Rally 1 - SS1" and table[0]["ideal_seconds"] == "65"
    page = html_text(rows)
    assert page.count("<tr>") == 3 and "data:image/svg+xml;base64," in page and "th[data-k]" in page


def test_stage_files_deduplicate_and_refuse_missing(tmp_path):
    assert stage_files([RALLY1, RALLY1 / "ss1.yaml"]).count(str(RALLY1 / "ss1.yaml")) == 1
    from designer.core.errors import DesignerError
    with pytest.raises(DesignerError):
        stage_files([tmp_path / "nothere"])


def test_parallel_keeps_order_and_reports_progress():
    seen = []
    assert parallel.run(abs, [-3, 1, -2, 5], jobs=2, progress=lambda d, t: seen.append((d, t))) == [3, 1, 2, 5]
    assert seen[-1] == (4, 4)


def test_the_same_call_runs_on_a_local_dask_cluster(monkeypatch):
    distributed = pytest.importorskip("distributed")
    # Workers in this process (threads) start in a second; the client, scheduler and task path are the same as on
    # a real cluster. benchmarks/bench_batch.py measures a two-process cluster.
    with distributed.LocalCluster(n_workers=2, threads_per_worker=1, processes=False, dashboard_address=None) as cluster:
        one = [RALLY1 / "ss1.yaml"]
        rows = analyse_all(one, scheduler=cluster.scheduler_address, thumbnails=False, options=QUICK)
        assert rows == analyse_all(one, jobs=1, thumbnails=False, options=QUICK)
        from designer.systems.dirt import generate as G
        spec = G.Spec(tiles=(9, 10), seed=7, candidates=4)
        local = [c.stage for c in G.search(spec, jobs=1, keep=2)]
        monkeypatch.setenv(parallel.SCHEDULER_ENV, cluster.scheduler_address)     # the environment variable alone
        assert [c.stage for c in G.search(spec, keep=2)] == local
