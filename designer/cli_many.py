"""The commands that handle many stages: ``batch`` (a comparison table of every stage given) and ``generate``
(new stages for given boxes, table and difficulty). Registered on the main group by :mod:`designer.cli`."""
from __future__ import annotations

import json
import math
import os
import re
import sys
from pathlib import Path

import click

from designer.core.errors import DesignerError
from designer.core.words import plural


@click.command()
@click.argument("paths", nargs=-1, required=True, metavar="FILES_OR_FOLDERS...")
@click.option("-o", "--output", "csv_out", type=click.Path(dir_okay=False), help="Write the table as CSV.")
@click.option("--html", "html_out", type=click.Path(dir_okay=False), help="Write a sortable HTML page with small maps.")
@click.option("--jobs", "-j", type=int, default=None, help="Processes on this machine (default: every core).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Run on a Dask cluster, e.g. tcp://host:8786 (or set RALLY_DASK_SCHEDULER).")
@click.option("--players", type=click.IntRange(1, 6), default=None,
              help="Players at the table (default: each stage's, or 4).")
@click.option("--no-expected", "no_expected", is_flag=True, help="DIRT: skip the expected time (much quicker).")
@click.option("--simulate", "runs", type=click.IntRange(1, 100_000), default=None, metavar="RUNS",
              help="DIRT and classic: race --players cars RUNS times on each stage; per seat time, sd, chance of "
                   "being blocked and turns, and the table time from the simulated turns.")
@click.option("--json", "as_json", is_flag=True)
@click.option("--strict", is_flag=True,
              help="Exit 1 when a file could not be read or analysed, or a stage is invalid (default: exit 0, with "
                   "those rows flagged).")
def batch(paths, csv_out, html_out, jobs, scheduler, players, no_expected, runs, as_json, strict):
    """Analyse every stage of the given files and folders into one comparison table.

    A file that cannot be read (broken YAML, wrong types, an unknown box) or analysed is a row of the table with
    its message, and the batch goes on; the exit code is 0 unless --strict is given."""
    from designer.batch import analyse_all, stage_files
    from designer.batch.table import csv_text, html_text
    from designer.core import files

    for out, suffix in ((csv_out, ".csv"), (html_out, ".html")):
        if out is not None and Path(out).suffix.lower() != suffix:
            raise DesignerError(f"this output must be a {suffix} file", where=out)
    if runs is not None and no_expected:
        raise DesignerError("--simulate plays the expected-time policy: it cannot go with --no-expected",
                            hint="leave out --no-expected")
    _check_parallel(jobs, scheduler)
    total = len(stage_files(paths))
    show = sys.stderr.isatty() and not as_json
    with click.progressbar(length=total, label="analysing", file=sys.stderr) if show else _NoBar() as bar:
        rows = analyse_all(paths, jobs=jobs, scheduler=scheduler, players=players, thumbnails=bool(html_out),
                           progress=lambda done, _total: bar.update(1),
                           options={"dirt": {"expected": False}} if no_expected else None, simulate=runs)
    if csv_out:
        files.write_atomic(csv_out, csv_text(rows), suffixes=(".csv",), protect=paths, what="table")
    if html_out:
        files.write_atomic(html_out, html_text(rows), suffixes=(".html",), protect=paths, what="page")
    bad = [r for r in rows if r.get("failed") or r.get("valid") is False]
    if as_json:
        click.echo(json.dumps([{k: v for k, v in r.items() if k != "svg"} for r in rows], indent=2))
        _batch_exit(strict, bad)
        return
    click.echo(f"{'game':9} {'stage':34} {'ok':3} {'pieces':>6} {'ideal':>6} {'expected':>8} {'LoC':>5} {'table':>6}")
    for r in rows:
        def num(v, f="{:.0f}"):
            return f.format(v) if isinstance(v, (int, float)) else "-"
        click.echo(f"{(r['system'] or '?'):9} {str(r['stage'] or r['file'])[:34]:34} {'yes' if r['valid'] else 'NO':3} "
                   f"{num(r['pieces']):>6} {num(r['ideal_seconds']):>6} {num(r['expected_seconds']):>8} "
                   f"{num(r['loss_of_control'], '{:.0%}') if r['loss_of_control'] is not None else '-':>5} "
                   f"{num(r['table_minutes']):>6}")
        if r.get("simulated_players"):
            click.echo("    " + _seats_text(r))
    written = [x for x in (csv_out, html_out) if x]
    failed = sum(1 for r in rows if r.get("failed"))
    click.echo(plural(len(rows), "stage") + (f", {failed} could not be read or analysed" if failed else "")
               + (f"; wrote {', '.join(written)}" if written else ""))
    for r in bad:
        click.echo(f"  {'FAILED' if r.get('failed') else 'INVALID'} {r['file']}: {r.get('problems') or '-'}")
    _batch_exit(strict, bad)


def _seats_text(r: dict) -> str:
    """A batch row's simulated table in one line: the table time, then per seat the time and how often blocked."""
    seats = []
    for k in range(1, int(r["simulated_players"]) + 1):
        sec, blocked = r.get(f"seat{k}_seconds"), r.get(f"seat{k}_blocked")
        if isinstance(sec, (int, float)):
            seats.append(f"{k}: {sec:.0f} s" + (f" ({blocked:.0%} blocked)" if isinstance(blocked, (int, float))
                                                 else ""))
    return (f"{plural(r['simulated_players'], 'car')} x {plural(r['simulated_runs'], 'race')}: "
            f"{r['simulated_table_turns']:.1f} turns, "
            f"about {r['simulated_table_minutes']:.0f} min at the table; seats " + ", ".join(seats))


def _batch_exit(strict: bool, bad: list) -> None:
    if strict and bad:
        sys.exit(1)


def _check_parallel(jobs: int | None, scheduler: str | None) -> None:
    """Refuse a malformed scheduler address (option or environment) before any work; note a --jobs cut to the
    cores."""
    from designer.core import parallel

    if parallel.scheduler_address(scheduler) is None:
        note = parallel.jobs_note(jobs)
        if note:
            click.echo(note, err=True)


class _NoBar:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False

    def update(self, n):
        pass


def _range(text: str, what: str) -> tuple[int, int]:
    """``N`` or ``LOW-HIGH`` (whole numbers) as (low, high); a DesignerError for anything else."""
    m = re.fullmatch(r"\s*(\d{1,4})\s*(?:-\s*(\d{1,4})\s*)?", text, flags=re.ASCII)
    if not m:
        raise DesignerError(f"{what} {text!r} is not a number or a range", hint="e.g. 14 or 12-16")
    lo, hi = int(m.group(1)), int(m.group(2) or m.group(1))
    if lo > hi:
        raise DesignerError(f"{what} {text!r} is reversed", hint=f"give the low end first: {hi}-{lo}")
    return lo, hi


def _boxes(boxes: tuple[str, ...]) -> list[tuple[str, int]]:
    """``--box NAME`` or ``--box NAME=COPIES`` as (name, copies); COPIES a whole number from 1 to 9."""
    out = []
    for b in boxes:
        box, eq, n = b.partition("=")
        box = box.strip()
        if not box:
            raise DesignerError(f"--box {b!r} names no box", hint="e.g. --box core --box monte-carlo=2")
        if not eq:
            out.append((box, 1))
            continue
        if not re.fullmatch(r"\s*\d{1,2}\s*", n, flags=re.ASCII) or not 1 <= int(n) <= 9:
            raise DesignerError(f"--box {b!r}: the copies of a box are a whole number from 1 to 9",
                                hint=f"e.g. --box {box}=2, or --box {box} for one copy")
        out.append((box, int(n)))
    return out


def _targets(targets: tuple[str, ...]) -> list[tuple[str, float | None, float | None]]:
    """``--target METRIC=LOW:HIGH`` (either end may be left out, not both) as (metric, low, high)."""
    from designer.systems.dirt.generate import METRICS

    hint = "e.g. --target ideal_seconds=60:90, or loss_of_control=:0.9 for a high end only"
    out = []
    for t in targets:
        metric, eq, rng = t.partition("=")
        metric = metric.strip()
        lo_text, colon, hi_text = rng.partition(":")
        if not eq or not colon:
            raise DesignerError(f"target {t!r} is not METRIC=LOW:HIGH", hint=hint)
        if metric not in METRICS:
            raise DesignerError(f"unknown target {metric!r} in {t!r}", hint=f"targets: {', '.join(METRICS)}")
        ends = []
        for text in (lo_text, hi_text):
            if not text.strip():
                ends.append(None)
                continue
            try:
                value = float(text)
            except ValueError:
                raise DesignerError(f"target {t!r}: {text.strip()!r} is not a number", hint=hint) from None
            if not math.isfinite(value):
                raise DesignerError(f"target {t!r}: {text.strip()!r} is not a finite number",
                                    hint="leave an end out for no bound, e.g. ideal_seconds=60:")
            ends.append(value)
        lo, hi = ends
        if lo is None and hi is None:
            raise DesignerError(f"target {t!r} gives neither end", hint=hint)
        if lo is not None and hi is not None and lo > hi:
            raise DesignerError(f"target {t!r} is reversed (low {lo:g} above high {hi:g})",
                                hint=f"give the low end first: {metric}={hi:g}:{lo:g}")
        out.append((metric, lo, hi))
    return out


def _not_over(outputs: list[Path], inputs: tuple[str, ...]) -> None:
    """Refuse, before any work, to write a generated file over one of the stage files it is asked to read."""
    for out in outputs:
        for src in inputs:
            try:
                same = out.exists() and os.path.samefile(out, src)
            except OSError:
                same = False
            if same:
                raise DesignerError("this would write a generated stage over its own --reserve-from input",
                                    where=str(out), hint="give another output file or folder")


@click.command()
@click.option("-o", "--output", required=True, type=click.Path(),
              help="STAGE.yaml to write, or a folder for a rally (--stages 2 or more).")
@click.option("--tiles", default="10-14", show_default=True, help="Road tiles, start and finish included: N or LOW-HIGH.")
@click.option("--box", "boxes", multiple=True, default=("core",), show_default=True,
              help="A box owned, optionally with copies: core, monte-carlo, rx, climb, e.g. --box core --box monte-carlo=2.")
@click.option("--reserve", multiple=True, help="Tile numbers kept for other stages, e.g. --reserve 210 --reserve 215.")
@click.option("--reserve-from", "reserve_from", multiple=True, type=click.Path(dir_okay=False),
              help="Keep the road tiles of these stage files (the other stages of your rally).")
@click.option("--table", default=None, help="Table size in cm, WIDTHxHEIGHT, e.g. 120x80.")
@click.option("--tile-cm", type=float, default=20.0, show_default=True, help="A tile across the flats, in cm.")
@click.option("--terrain", "terrains", multiple=True, type=click.Choice(["gravel", "asphalt", "snow"]),
              help="Allowed surfaces (default: all).")
@click.option("--assistance", is_flag=True, help="End with the assistance tile (201).")
@click.option("--difficulty", type=click.Choice(["easy", "medium", "hard"]), default=None)
@click.option("--target", "targets", multiple=True, metavar="METRIC=LOW:HIGH",
              help="A target range, either end optional: e.g. ideal_seconds=60:90, loss_of_control=:0.9, "
                   "tight_corners=3: (also expected_seconds, gap_seconds, tiles).")
@click.option("--stages", type=click.IntRange(1, 9), default=1, show_default=True, help="Stages of one rally.")
@click.option("--disjoint", is_flag=True, help="A rally's stages share no tile (all built on one table).")
@click.option("--seed", type=int, default=0, show_default=True)
@click.option("--candidates", type=int, default=300, show_default=True,
              help="Candidates per stage: the search stops at the first that meets every target.")
@click.option("--best", is_flag=True,
              help="Examine every candidate and keep, among those meeting every target, the nearest the middle of "
                   "the ranges asked (slower).")
@click.option("--jobs", "-j", type=int, default=None, help="Processes on this machine (default: every core).")
@click.option("--scheduler", default=None, metavar="ADDRESS", help="Dask scheduler (or RALLY_DASK_SCHEDULER).")
@click.option("--name", default="Generated stage", show_default=True)
@click.option("--system", "system_name", default="dirt", show_default=True,
              help="The game: dirt, or rallye (drafted as the rules draft) or greatrace (start and finish ranked by "
                   "balance); the DIRT options above are for dirt.")
@click.option("--deck", "other_box", default=None, help="rallye / greatrace: the deck or board to use (default: the demo).")
def generate(output, tiles, boxes, reserve, reserve_from, table, tile_cm, terrains, assistance, difficulty, targets,
             stages, disjoint, seed, candidates, best, jobs, scheduler, name, system_name, other_box):
    """Generate stages: for Rallyman: DIRT valid by construction for your boxes, table and difficulty; for the other
    games the way the game makes them."""
    from designer.core import files

    if system_name != "dirt":
        _generate_other(system_name, output, stages, seed, candidates, difficulty, other_box)
        return
    _check_parallel(jobs, scheduler)
    from designer.systems.dirt import generate as G
    from designer.systems.dirt.board.stage import dumps_stage, load_stage
    from designer.systems.dirt.board.tileset import get_tileset

    from designer.systems.dirt.board.stage import MAX_NAME

    copies = _boxes(boxes)
    parsed = _targets(targets)
    tile_range = _range(tiles, "--tiles")
    if not name.strip() or len(name) > MAX_NAME:
        raise DesignerError(f"--name is {len(name)} characters; a stage name has 1 to {MAX_NAME}",
                            hint=f"give a name of {MAX_NAME} characters at most")
    if stages == 1:
        out = Path(output)
        if out.suffix.lower() not in (".yaml", ".yml"):
            raise DesignerError("the stage must be a .yaml file", where=output,
                                hint=f"name it e.g. {out.stem or 'stage'}.yaml")
        if not (out.parent if str(out.parent) else Path(".")).is_dir():
            raise DesignerError("the folder does not exist", where=output, hint=f"create {out.parent} first")
        _not_over([out], reserve_from)
    else:
        _not_over([Path(output) / f"ss{k}.yaml" for k in range(1, stages + 1)] + [Path(output) / "rally.yaml"],
                  reserve_from)
    reserved = {r.strip()[:3] for r in reserve}
    for path in reserve_from:            # their road tiles: start, finish and assistance tiles serve every stage
        other = load_stage(path)
        box = get_tileset(other.tileset, Path(path).resolve().parent)
        reserved |= {p.tile[:3] for p in other.tiles
                     if p.tile in box and box.face(p.tile).role not in ("start", "finish", "start-finish", "assistance")}
    size = None
    if table:
        try:
            w, h = (float(x) for x in table.lower().split("x"))
            size = (w, h)
        except ValueError:
            raise DesignerError(f"table {table!r} is not WIDTHxHEIGHT in cm", hint="e.g. --table 120x80") from None
    if not (math.isfinite(tile_cm) and 5 <= tile_cm <= 100):
        raise DesignerError(f"--tile-cm {tile_cm} is not a tile size")
    spec = G.Spec(tiles=tile_range, copies=tuple(copies), reserved=tuple(sorted(reserved)),
                  terrains=tuple(terrains) or ("gravel", "asphalt", "snow"), table_cm=size, tile_cm=tile_cm,
                  assistance=assistance, difficulty=difficulty, targets=tuple(parsed), seed=seed,
                  candidates=candidates, name=name)
    spec.check()
    if stages == 1:
        chosen = G.search(spec, jobs=jobs, scheduler=scheduler, keep=1, best=best)
        files.write_atomic(output, dumps_stage(chosen[0].stage), suffixes=(".yaml", ".yml"),
                           protect=reserve_from, what="stage")
        click.echo(f"wrote {output}: {_figures_text(chosen[0], size)}")
        return
    folder = _output_folder(output, "a rally is written into a folder")
    rally = G.generate_rally(spec, stages, disjoint=disjoint, jobs=jobs, scheduler=scheduler, best=best)
    names = []
    for k, cand in enumerate(rally, start=1):
        files.write_atomic(folder / f"ss{k}.yaml", dumps_stage(cand.stage), suffixes=(".yaml",),
                           protect=reserve_from, what="stage")
        names.append(f"ss{k}.yaml")
        click.echo(f"wrote {folder / names[-1]}: {_figures_text(cand, size)}")
    import yaml
    files.write_atomic(folder / "rally.yaml", yaml.safe_dump({"rally": name, "stages": names}, sort_keys=False),
                       suffixes=(".yaml",), protect=reserve_from, what="rally")
    click.echo(f"wrote {folder / 'rally.yaml'}")


def _generate_other(system_name, output, stages, seed, candidates, difficulty, box):
    from designer import systems
    from designer.core import files

    system = systems.get(system_name)
    made = system.generate(seed=seed, count=stages, candidates=max(stages, min(candidates, 2000)),
                           difficulty=difficulty, box=box)
    if stages == 1:
        stage, figures = made[0]
        files.write_atomic(output, system.dumps(stage), suffixes=(".yaml", ".yml"), what="stage")
        click.echo(f"wrote {output}: {_summary(figures)}")
        return
    folder = _output_folder(output, "several stages are written into a folder")
    for k, (stage, figures) in enumerate(made, start=1):
        path = folder / f"stage{k}.yaml"
        files.write_atomic(path, system.dumps(stage), suffixes=(".yaml",), what="stage")
        click.echo(f"wrote {path}: {_summary(figures)}")


def _output_folder(output: str, message: str) -> Path:
    """The folder several generated files go into, made when missing; a file of that name is an error."""
    folder = Path(output)
    if folder.exists() and not folder.is_dir():
        raise DesignerError(message, where=output, hint="give a folder name")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


def _summary(figures: dict) -> str:
    """A generated stage's figures as one line: the system's own summary when it gives one."""
    if figures.get("summary"):
        return str(figures["summary"])
    return ", ".join(f"{k.replace('_', ' ')} {v}" for k, v in figures.items())


def _figures_text(cand, table=None) -> str:
    f = cand.figures
    w, h = f["width_cm"], f["height_cm"]
    turned = " (turn it a quarter to fit the table)" if table and not (w <= table[0] and h <= table[1]) else ""
    return (f"{plural(f['tiles'], 'road tile')}, ideal {f['ideal_seconds']} s, "
            f"{plural(f['tight_corners'], 'corner')} under gear 3, "
            f"{w:.0f} x {h:.0f} cm{turned}, "
            + ("every target met" if cand.score == 0 else f"{cand.score:.2f} off the targets (0 = every target met)"))
