"""The ``rally-designer`` command (also ``python -m designer``).

Exit codes: 0 success (a valid stage), 1 an invalid stage, 2 bad input (file, name, value).
Every failure is a message saying where and what to fix; no traceback.
"""
from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

import click

from designer.core.errors import DesignerError


def _fail(exc: Exception) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(2)


def _invalid_values(exc, where: str | None = None, hint: str | None = None,
                    message: str = "a value is too long or out of range") -> DesignerError:
    """A pydantic ValidationError (a value refused by a model) as a DesignerError that names each value."""
    details = []
    for err in exc.errors()[:10]:
        loc = ".".join(str(x) for x in err.get("loc", ())) or "value"
        msg = str(err.get("msg", "")).removeprefix("Value error, ")
        details.append(f"  {loc}: {msg}")
    return DesignerError(message, where=where, details=details,
                         hint=hint or "shorten or correct the value named above")


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DesignerError as exc:
            _fail(exc)
        except (click.exceptions.ClickException, click.exceptions.Exit, click.exceptions.Abort):
            raise                                     # usage errors and --help: click prints them itself
        except (BrokenPipeError, KeyboardInterrupt):
            sys.exit(130)
        except MemoryError:
            click.echo("error: the input needs more memory than this machine has; is it the right file?", err=True)
            sys.exit(2)
        except RecursionError:
            click.echo("error: the input is nested too deeply to read", err=True)
            sys.exit(2)
        except Exception as exc:
            if type(exc).__name__ == "ValidationError" and type(exc).__module__.startswith("pydantic"):
                _fail(_invalid_values(exc))           # a value a model refused (a name too long): input, not a bug
            if os.environ.get("RALLY_DEBUG"):         # a bug: say so in one line, keep the traceback for RALLY_DEBUG=1
                raise
            click.echo(f"error: internal error ({type(exc).__name__}: {exc}); this is a bug in rally-designer, "
                       "please report it with the file that caused it (RALLY_DEBUG=1 shows the details)", err=True)
            sys.exit(3)


def _stage_and_tileset(path: str):
    """A DIRT stage and its tileset (for the DIRT-only commands: info, import, export)."""
    from designer.systems.dirt.board.stage import load_stage
    from designer.systems.dirt.board.tileset import get_tileset

    _only_dirt(path)
    stage = load_stage(path)
    tileset = get_tileset(stage.tileset, Path(path).resolve().parent)
    return stage, tileset


def _only_dirt(path: str) -> None:
    from designer import systems

    system = systems.system_of_file(path)
    if system.name != "dirt":
        raise DesignerError(f"this command is for Rallyman: DIRT stages; this file is a {system.title} file",
                            where=str(path), hint="validate, analyze, render and roadbook work for every game")


def _open(path: str):
    """(system, document) of a stage or rally file of any game system."""
    from designer import systems

    system = systems.system_of_file(path)
    return system, system.load(path)


def _expand(paths: tuple[str, ...]) -> list[str]:
    out = []
    for p in paths:
        q = Path(p)
        if q.is_dir():
            out += sorted(str(x) for x in q.rglob("*.yaml") if x.name != "rally.yaml")
        else:
            out.append(p)
    return out


@click.group(cls=_Group, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="rally-designer")
def main():
    """Design, check and analyse stages for rally board games (Rallyman: DIRT, classic Rallyman, The Great Race, Rallye).

    Tilesets read once are kept, checked, in ~/.cache/rally-designer (RALLY_CACHE_DIR to move it, RALLY_CACHE=off
    to switch it off).
    """
    from designer.core import diskcache

    diskcache.enable()


@main.command()
@click.option("--tileset", "tileset_name", default="dirt-core", show_default=True, help="Tileset name or file.")
@click.option("--kind", type=click.Choice(["straight", "curve", "hairpin", "kink", "junction", "start", "finish",
                                           "assistance"]), help="Only faces of this shape or role.")
@click.option("--terrain", type=click.Choice(["gravel", "asphalt", "snow"]))
@click.option("--danger", type=click.Choice(["yellow", "orange", "red"]))
@click.option("--limit", type=int, help="Only faces with this speed limit printed.")
@click.option("--feature", type=click.Choice(["cut", "jump", "ford"]), multiple=True)
@click.option("--sheet", type=click.Path(dir_okay=False), help="Write a contact sheet of the faces (.svg or .png).")
@click.option("--json", "as_json", is_flag=True)
def tiles(tileset_name, kind, terrain, danger, limit, feature, sheet, as_json):
    """List the faces of a tileset, with filters; optionally draw them."""
    from designer.systems.dirt.board.tileset import get_tileset

    ts = get_tileset(tileset_name)
    faces = []
    for face in ts.tiles.values():
        role_kind = face.role if face.role in ("start", "finish", "assistance") else face.kind
        if kind and kind not in (face.kind, role_kind):
            continue
        if terrain and face.terrain != terrain:
            continue
        if danger and face.danger != danger:
            continue
        if limit is not None and limit not in face.features.limits:
            continue
        f = face.features
        have = {"cut": f.cut is not None, "jump": bool(f.jumps), "ford": f.ford}
        if any(not have[x] for x in feature):
            continue
        faces.append(face)
    if sheet:
        from designer.systems.dirt.board.render import sheet_svg

        out = _write_drawing(sheet_svg(faces, title=f"{ts.title or ts.name}: {len(faces)} faces"), sheet, "sheet")
        click.echo(f"wrote {out} ({len(faces)} faces)")
        return
    if as_json:
        click.echo(json.dumps([_face_row(f) for f in faces], indent=2))
        return
    click.echo(f"{'face':6} {'shape':10} {'terrain':8} {'danger':7} {'edges':10} {'limits':8} features")
    for f in faces:
        r = _face_row(f)
        click.echo(f"{r['face']:6} {r['shape']:10} {r['terrain'] or '-':8} {r['danger'] or '-':7} "
                   f"{r['edges']:10} {r['limits'] or '-':8} {r['features'] or '-'}"
                   + ("" if f.has_cells or f.role in ("pit", "filler") else "  (no cells)"))
    click.echo(f"{len(faces)} faces")


def _face_row(f) -> dict:
    feats = []
    if f.features.cut is not None:
        feats.append(f"cut {f.features.cut}")
    feats += [f"jump {j}" for j in f.features.jumps]
    if f.features.ford:
        feats.append("ford")
    return {"face": f.id, "shape": f.role if f.role in ("start", "finish", "assistance") else f.kind,
            "terrain": f.terrain, "danger": f.danger,
            "edges": " ".join(f"{e}:{n}" for e, n in sorted(f.edges.items())),
            "limits": " ".join(str(x) for x in sorted(f.features.limits)),
            "features": ", ".join(feats), "cells": f.cell_count}


@main.command()
@click.argument("stages", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def validate(stages, as_json):
    """Check stages of any game system: exit 0 when all are valid, 1 when one has an error."""
    results, bad = [], False
    paths = _expand(stages)
    if not paths:
        raise DesignerError("no stage files found", where=" ".join(stages), hint="give .yaml stage files or folders holding them")
    for path in paths:
        try:
            system, doc = _open(path)
            near = Path(path).resolve().parent
            checked = [(st, system.validate(st, system.box_of(st, near))) for st in system.stages_of(doc)]
        except DesignerError as exc:
            if as_json:
                results.append({"stage": path, "valid": False, "load_error": str(exc), "problems": []})
                bad = True
                continue
            raise
        for st, problems in checked:
            valid = not any(p.severity == "error" for p in problems)
            bad |= not valid
            name = system.stage_name(st)
            results.append({"stage": path, "system": system.name, "name": name, "valid": valid,
                            "problems": [p.to_dict() for p in problems]})
            if not as_json:
                click.echo(f"{path}: {'valid' if valid else 'INVALID'} ({system.title}: {name})")
                for p in problems:
                    click.echo(f"  {p.severity:7} {p.code:18} {p}")
    if as_json:
        click.echo(json.dumps(results, indent=2))
    sys.exit(1 if bad else 0)


@main.command()
@click.argument("stage_path", metavar="STAGE")
@click.option("--tile-cm", type=float, default=None, help="Distance between opposite flat sides of a tile, in cm.")
@click.option("--json", "as_json", is_flag=True)
def info(stage_path, tile_cm, as_json):
    """Tiles, length, footprint on the table and boxes needed."""
    from designer.systems.dirt.board.track import assemble
    from designer.systems.dirt.board.validate import TILE_FLAT_TO_FLAT_CM, boxes_needed, footprint

    if tile_cm is not None and not (math.isfinite(tile_cm) and 5 <= tile_cm <= 100):
        raise DesignerError(f"--tile-cm {tile_cm} is not a tile size", hint="measure across the flats, e.g. --tile-cm 20")
    stage, ts = _stage_and_tileset(stage_path)
    track = assemble(stage, ts)
    fp = footprint(track, tile_cm or TILE_FLAT_TO_FLAT_CM)
    road = track.laid_road_tiles
    data = {"name": stage.name, "tileset": ts.name, "tiles": [p.short() for p in stage.tiles],
            "road_tiles": len(road), "assistance": track.has_assistance,
            "cells": track.graph.number_of_nodes(), "footprint": fp.to_dict(), "boxes": boxes_needed(stage)}
    if track.has_cells:
        import networkx as nx
        try:
            best = min((nx.shortest_path_length(track.graph, s, f) for s in track.start_cells()
                        for f in track.finish_cells() if nx.has_path(track.graph, s, f)), default=None)
        except nx.NetworkXException:
            best = None
        data["shortest_line_cells"] = best
    if as_json:
        click.echo(json.dumps(data, indent=2))
        return
    click.echo(f"{stage.name}  [{ts.name}]")
    click.echo(f"  tiles: {len(stage.tiles)} ({len(road)} road tiles{', then assistance' if track.has_assistance else ''})")
    click.echo("  order: " + " ".join(p.short().replace(" ", "") for p in stage.tiles))
    if data.get("shortest_line_cells") is not None:
        click.echo(f"  length: {data['shortest_line_cells']} cells on the shortest line")
    click.echo(f"  footprint: {fp.tiles} hexes, {fp.width_cm} x {fp.height_cm} cm "
               f"(tiles of {fp.tile_cm:g} cm across the flats)")
    click.echo(f"  boxes: {', '.join(data['boxes']) or '-'}")


@main.command()
@click.argument("stage_path", metavar="STAGE")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="FILE.svg or FILE.png")
@click.option("--line", type=click.Choice(["none", "fastest", "shortest", "both"]), default="none", show_default=True)
def render(stage_path, output, line):
    """Draw a stage (SVG, or PNG)."""
    system, doc = _open(stage_path)
    stage = system.stages_of(doc)[0]
    box = system.box_of(stage, Path(stage_path).resolve().parent)
    if system.name == "dirt":
        svg = system.draw(stage, box, line=line)
    else:
        svg = system.draw(stage, box, system.analyse(stage, box) if line != "none" else None)
    out = _write_drawing(svg, output, "drawing", protect=(stage_path,))
    stages = system.stages_of(doc)
    note = (f" (the first of the rally's {len(stages)} stages, {system.stage_name(stage)}; render each stage's own "
            "file for the others)") if len(stages) > 1 else ""
    click.echo(f"wrote {out}{note}")


def _write_drawing(svg: str, path: str, what: str, protect=()) -> Path:
    """Write an SVG drawing as .svg, or rasterised as .png, chosen by the file's extension."""
    from designer.core import files
    from designer.core.svgkit import svg_to_png

    out = Path(path)
    if out.suffix.lower() not in (".svg", ".png"):
        raise DesignerError(f"the {what} must be a .svg or .png file", where=str(out),
                            hint=f"name it e.g. {out.stem or 'drawing'}.svg")
    data = svg_to_png(svg, scale=1.5) if out.suffix.lower() == ".png" else svg.encode("utf-8")
    return files.write_atomic(out, data, suffixes=(".svg", ".png"), protect=protect, what=what)


@main.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="STAGE.yaml to write")
def import_(file, output):
    """Import a .rgt (Rallyman Track Editor) or rekee .json layout as a stage in driving order."""
    from pydantic import ValidationError

    from designer.core import files
    from designer.systems.dirt.board.stage import dumps_stage
    from designer.systems.dirt.io import import_file

    p = Path(file)
    try:
        stage = import_file(p.name, files.read_bytes(p, what="layout file"))
    except ValidationError as exc:
        raise _invalid_values(exc, where=str(p), message="this track cannot be imported: a value is too long",
                              hint="shorten the track's name (at most 120 characters) and author in the editor "
                                   "that made it, then export it again") from None
    files.write_atomic(output, dumps_stage(stage), suffixes=(".yaml", ".yml"), protect=(file,), what="stage")
    click.echo(f"wrote {output} ({len(stage.tiles)} tiles)")


@main.command()
@click.argument("stage_path", metavar="STAGE")
@click.option("--to", "fmt", type=click.Choice(["rgt", "rekee", "yaml", "share"]), required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (share codes print).")
def export(stage_path, fmt, output):
    """Export a stage to the Rallyman Track Editor (.rgt), rekee JSON, YAML, or a share code."""
    from designer.systems.dirt.board.stage import load_stage, share_code

    if fmt == "share":
        click.echo(share_code(load_stage(stage_path)))
        return
    if not output:
        raise DesignerError("give the file to write with -o FILE")
    from designer.systems.dirt.io import export_stage

    stage, _ = _stage_and_tileset(stage_path)
    from designer.core import files

    data, _name, _mime = export_stage(stage, fmt)
    suffix = {"rgt": (".rgt",), "rekee": (".json",), "yaml": (".yaml", ".yml")}[fmt]
    files.write_atomic(output, data, suffixes=suffix, protect=(stage_path,), what=f"{fmt} export")
    click.echo(f"wrote {output}")


# the analysis option that races several cars, by system
SIMULATE_OPTION = {"dirt": "table_runs", "classic": "table_runs", "rallye": "race_runs"}


@main.command()
@click.argument("stages", nargs=-1, required=True, metavar="STAGE...")
@click.option("--json", "as_json", is_flag=True, help="Cell graph and the lines step by step.")
@click.option("--players", type=click.IntRange(1, 6), default=None,
              help="Players at the table (default: the stage's, or 4; Rallye: 1 to 4, a lone driver by default).")
@click.option("--max-risk", type=click.FloatRange(0.0, 1.0), default=None,
              help="Highest chance of a loss of control allowed in one turn (0-1).")
@click.option("--no-expected", "no_expected", is_flag=True,
              help="DIRT: skip the expected time under the dice (the shakedown line only; much quicker).")
@click.option("--simulate", "runs", type=click.IntRange(1, 100_000), default=None, metavar="RUNS",
              help="Race --players cars RUNS times on the stage (DIRT, classic, Rallye): per seat times, "
                   "blocking, turns, and the table time from the simulated turns.")
@click.option("--all-decisions", "all_decisions", is_flag=True,
              help="DIRT, with --json: the decision at every turn boundary the policy can reach, enough to replay "
                   "it in every run (by default those reached with at least 0.1 percent chance).")
def analyze(stages, as_json, players, max_risk, no_expected, runs, all_decisions):
    """Lines, limits, length, game time and table time, for a stage of any game system.

    Several stages (or folders of stages) may be given; with --json the output is then a list.
    """
    paths = _expand(stages)
    if not paths:
        raise DesignerError("no stage files found", where=" ".join(stages), hint="give .yaml stage files or folders")
    results = []
    for path in paths:
        system, doc = _open(path)
        near = Path(path).resolve().parent
        opts = {"max_risk": max_risk} if max_risk is not None else {}
        if no_expected:
            if system.name != "dirt":
                raise DesignerError("--no-expected is an option of DIRT's analysis", where=path)
            opts["expected"] = False
        if all_decisions:
            if system.name != "dirt" or no_expected or not as_json:
                raise DesignerError("--all-decisions is an option of DIRT's analysis with --json and the expected time",
                                    where=path, hint="give it with --json, without --no-expected, on a DIRT stage")
            opts["all_decisions"] = True
        rally_race = runs is not None and system.is_rally(doc) and hasattr(system, "simulate_rally")
        if runs is not None:
            key = SIMULATE_OPTION.get(system.name)
            if key is None:
                raise DesignerError(f"--simulate is not an option of {system.name}'s analysis", where=path,
                                    hint="races of several cars are simulated for " + ", ".join(SIMULATE_OPTION))
            if no_expected and system.name == "dirt":
                raise DesignerError("--simulate plays the expected-time policy: it cannot go with --no-expected",
                                    where=path, hint="leave out --no-expected")
            if not rally_race:               # a rally is raced as a whole below, its stages one after another
                opts[key] = runs
        done = []
        for stage in system.stages_of(doc):
            result = system.analyse(stage, system.box_of(stage, near), players=players, **opts)
            done.append(result)
            if as_json:
                results.append(result)
            else:
                click.echo(system.report(result))
        for line in ([] if as_json else system.rally_lines(doc, done)):
            click.echo(line)
        if rally_race:
            result = system.simulate_rally(doc, near, players=players, runs=runs)
            if as_json:
                results.append(result)
            else:
                click.echo(f"{result['rally']}: the rally at the table\n" + "\n".join(result["summary"]))
    if as_json:
        click.echo(json.dumps(results[0] if len(results) == 1 else results, indent=2))


@main.command()
@click.argument("path", metavar="STAGE_OR_RALLY")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="FILE.pdf")
@click.option("--paper", type=click.Choice(["A4", "Letter"], case_sensitive=False), default="A4", show_default=True)
@click.option("--no-lines", "no_lines", is_flag=True,
              help="DIRT: a book for competitive play, without the racing line and the game times.")
@click.option("--expected", is_flag=True, help="DIRT: solve and print the expected time under the dice (slower).")
def roadbook(path, output, paper, no_lines, expected):
    """Print the road book of a stage or a rally of any game system (PDF)."""
    from designer.core import files

    if Path(output).suffix.lower() != ".pdf":
        raise DesignerError("the road book must be a .pdf file", where=output, hint="name it e.g. book.pdf")
    system, doc = _open(path)
    options = {}
    if no_lines or expected:
        if system.name != "dirt":
            raise DesignerError("--no-lines and --expected are options of the DIRT road book", where=path)
        options = {"lines": not no_lines, "expected": expected}
    if expected and not no_lines:
        click.echo("solving the expected time under the dice of each stage: about 1-2 s a stage, up to 15 s where "
                   "a third or fourth damage token is tracked, and the table race of a rally...", err=True)
    data = system.roadbook(doc, near=Path(path).resolve().parent,
                           paper="Letter" if paper.lower() == "letter" else "A4", **options)
    files.write_atomic(output, data, suffixes=(".pdf",), protect=(path,), what="road book")
    click.echo(f"wrote {output}")


@main.command()
@click.option("--system", "system_name", default=None, help="Only this game system.")
@click.option("--json", "as_json", is_flag=True)
def examples(system_name, as_json):
    """The bundled stages, rallies and boxes of every game system."""
    from designer import systems

    chosen = [systems.get(system_name)] if system_name else systems.all_systems()
    rows = [{"system": s.name, "key": e.key, "kind": e.kind, "label": e.label, "path": str(e.path)}
            for s in chosen for e in s.examples()]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for s in chosen:
        click.echo(f"{s.title} ({s.name}): {s.summary}")
        for e in s.examples():
            click.echo(f"  {e.kind:6} {e.label:40} {e.path}")


@main.command()
@click.option("--port", type=click.IntRange(1, 65535), default=8501, show_default=True)
@click.option("--address", default="127.0.0.1", show_default=True,
              help="Interface to listen on; 0.0.0.0 shares the app with your network on purpose.")
def app(port, address):
    """Start the stage designer in the browser (Streamlit), on this computer only unless --address says otherwise."""
    import subprocess

    sys.exit(subprocess.call([sys.executable, "-m", "designer.app.serve", "--server.port", str(port),
                              "--server.address", address, "--browser.gatherUsageStats", "false",
                              "--server.showEmailPrompt", "false", "--client.toolbarMode", "minimal"]))


def _register() -> None:
    from designer.cli_many import batch, generate

    main.add_command(batch)
    main.add_command(generate)


_register()

if __name__ == "__main__":
    main()
