"""The ``rally-designer`` command (also ``python -m designer``).

Exit codes: 0 success (a valid stage), 1 an invalid stage, 2 bad input (file, name, value).
Every failure is a message saying where and what to fix; no traceback.
"""
from __future__ import annotations

import json
import sys
from pathlib import Path

import click

from designer.errors import DesignerError


def _fail(exc: Exception) -> None:
    click.echo(f"error: {exc}", err=True)
    sys.exit(2)


class _Group(click.Group):
    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except DesignerError as exc:
            _fail(exc)
        except (BrokenPipeError, KeyboardInterrupt):
            sys.exit(130)


def _stage_and_tileset(path: str):
    from designer.stage import load_stage
    from designer.tileset import get_tileset

    stage = load_stage(path)
    tileset = get_tileset(stage.tileset, Path(path).resolve().parent)
    return stage, tileset


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
    """Design, check and analyse stages for Rallyman: DIRT."""


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
    from designer.tileset import get_tileset

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
        from designer.render import sheet_svg

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
            "features": ", ".join(feats), "cells": len(f.all_cells()) if f.has_cells else 0}


@main.command()
@click.argument("stages", nargs=-1, required=True)
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def validate(stages, as_json):
    """Check stages: exit 0 when all are valid, 1 when one has an error."""
    from designer.validate import validate as run

    results, bad = [], False
    for path in _expand(stages):
        try:
            stage, ts = _stage_and_tileset(path)
        except DesignerError as exc:
            if as_json:
                results.append({"stage": path, "valid": False, "load_error": str(exc), "problems": []})
                bad = True
                continue
            raise
        problems = run(stage, ts)
        valid = not any(p.severity == "error" for p in problems)
        bad |= not valid
        results.append({"stage": path, "name": stage.name, "valid": valid,
                        "problems": [p.to_dict() for p in problems]})
        if not as_json:
            click.echo(f"{path}: {'valid' if valid else 'INVALID'} ({stage.name}, {len(stage.tiles)} tiles)")
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
    from designer.track import assemble
    from designer.validate import TILE_FLAT_TO_FLAT_CM, boxes_needed, footprint

    stage, ts = _stage_and_tileset(stage_path)
    track = assemble(stage, ts)
    fp = footprint(track, tile_cm or TILE_FLAT_TO_FLAT_CM)
    road = track.road_tiles
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
    """Draw a stage at cell level (SVG, or PNG)."""
    from designer.render import stage_svg
    from designer.track import assemble

    stage, ts = _stage_and_tileset(stage_path)
    track = assemble(stage, ts)
    lines = _lines_for_drawing(track, line) if line != "none" else None
    out = _write_drawing(stage_svg(track, lines=lines, title=stage.name), output, "drawing")
    click.echo(f"wrote {out}")


def _write_drawing(svg: str, path: str, what: str) -> Path:
    """Write an SVG drawing as .svg, or rasterised as .png, chosen by the file's extension."""
    from designer.render import svg_to_png

    out = Path(path)
    if out.suffix.lower() == ".png":
        out.write_bytes(svg_to_png(svg, scale=1.5))
    elif out.suffix.lower() == ".svg":
        out.write_text(svg, encoding="utf-8")
    else:
        raise DesignerError(f"the {what} must be a .svg or .png file", where=str(out))
    return out


def _lines_for_drawing(track, which: str) -> dict:
    from designer import lines as L

    if not track.has_cells:
        raise DesignerError("this stage has faces without cells, so no line can be drawn",
                            hint="cell graphs exist for the DIRT core box")
    out = {}
    if which in ("shortest", "both"):
        line = L.shortest_line(track)
        if line is not None:
            out["shortest"] = [(line.start, None)] + [(n, None) for n in line.cells]
    if which in ("fastest", "both"):
        line = L.fastest_line(track)
        if line is not None:
            out["fastest"] = line.cell_gears()
    return out


@main.command(name="import")
@click.argument("file", type=click.Path(dir_okay=False))
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="STAGE.yaml to write")
def import_(file, output):
    """Import a .rgt (Rallyman Track Editor) or rekee .json layout as a stage in driving order."""
    from designer.io import import_file
    from designer.stage import save_stage

    p = Path(file)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise DesignerError(f"cannot read the file ({exc.strerror})", where=str(p)) from None
    stage = import_file(p.name, data)
    save_stage(stage, output)
    click.echo(f"wrote {output} ({len(stage.tiles)} tiles)")


@main.command()
@click.argument("stage_path", metavar="STAGE")
@click.option("--to", "fmt", type=click.Choice(["rgt", "rekee", "yaml", "share"]), required=True)
@click.option("-o", "--output", type=click.Path(dir_okay=False), help="File to write (share codes print).")
def export(stage_path, fmt, output):
    """Export a stage to the Rallyman Track Editor (.rgt), rekee JSON, YAML, or a share code."""
    from designer.stage import load_stage, share_code

    if fmt == "share":
        click.echo(share_code(load_stage(stage_path)))
        return
    if not output:
        raise DesignerError("give the file to write with -o FILE")
    from designer.io import export_stage

    stage, _ = _stage_and_tileset(stage_path)
    data, _name, _mime = export_stage(stage, fmt)
    Path(output).write_bytes(data)
    click.echo(f"wrote {output}")


@main.command()
@click.argument("stages", nargs=-1, required=True, metavar="STAGE...")
@click.option("--json", "as_json", is_flag=True, help="Cell graph and the lines step by step.")
@click.option("--players", type=click.IntRange(1, 6), default=None, help="Players at the table (default: the stage's, or 4).")
@click.option("--max-risk", type=click.FloatRange(0.0, 1.0), default=None,
              help="Highest chance of a loss of control allowed in one turn (0-1).")
def analyze(stages, as_json, players, max_risk):
    """Fastest and shortest lines, speed limits, length, game time and table time.

    Several stages (or folders of stages) may be given; with --json the output is then a list.
    """
    from designer import lines as L
    from designer.track import assemble

    paths = _expand(stages)
    results = []
    for path in paths:
        stage, ts = _stage_and_tileset(path)
        track = assemble(stage, ts)
        result = L.analyze(track, players=players or stage.players or 4, max_risk=max_risk)
        if as_json:
            results.append(result)
        else:
            click.echo(_report(result))
    if as_json:
        click.echo(json.dumps(results[0] if len(paths) == 1 else results, indent=2))


def _report(result: dict) -> str:
    """The analysis as text: totals, then the fastest line turn by turn."""
    est = result.get("estimate", {})
    fl = result.get("fastest_line") or {}
    sl = result.get("shortest_line") or {}
    stage = result.get("stage")
    name = stage.get("name", "") if isinstance(stage, dict) else str(stage or "")
    out = [name,
           f"  length: {sl.get('cells', '?')} cells on the shortest line, {fl.get('cells', '?')} on the fastest",
           f"  fastest line: {fl.get('time', '?')} game time in {fl.get('turns', '?')} turns "
           f"(hazards not rolled; worst turn {100 * (fl.get('max_turn_loss_of_control_chance') or 0):.0f}% loss of control)",
           f"  table time: about {est.get('table_minutes', '?')} min for {est.get('players', '?')} players "
           f"(rulebook guidance {est.get('rulebook_guidance_minutes', '-')} min for 4)"]
    safe = result.get("safe_line")
    if safe:
        out.append(f"  within the risk budget {safe.get('max_risk')}: {safe.get('time')} in {safe.get('turns')} turns")
    out.append("")
    out.append(f"  {'turn':>4}  {'from':8} {'to':8} {'cells':>5}  {'end gear':>8}  {'card':>5}  {'risk':>5}  dice (gear after each)")
    for t in fl.get("turn_list", []):
        dice = " ".join(f"{'+'.join(d.replace('gear', 'G') for d in st['dice'])}>{st['gear']}" for st in t["steps"])
        out.append(f"  {t['turn']:>4}  {t['start']:8} {t['end']:8} {t['cells']:>5}  {t['gear']:>8}  {t['seconds']:>4}s  "
                   f"{100 * t['loss_of_control_chance']:>4.0f}%  {dice}")
    out.append("")
    out.append("  --json gives the cell graph and every move, to check against the rules.")
    return "\n".join(out)


@main.command()
@click.argument("path", metavar="STAGE_OR_RALLY")
@click.option("-o", "--output", required=True, type=click.Path(dir_okay=False), help="FILE.pdf")
@click.option("--paper", type=click.Choice(["A4", "Letter"], case_sensitive=False), default="A4", show_default=True)
def roadbook(path, output, paper):
    """Print the road book of a stage or a rally (PDF)."""
    from designer.roadbook import roadbook as build

    build(path, output, paper="Letter" if paper.lower() == "letter" else "A4")
    click.echo(f"wrote {output}")


@main.command()
@click.option("--port", type=int, default=8501, show_default=True)
def app(port):
    """Start the stage designer in the browser (Streamlit)."""
    import subprocess

    script = Path(__file__).resolve().parent / "app" / "main.py"
    sys.exit(subprocess.call([sys.executable, "-m", "streamlit", "run", str(script),
                              "--server.port", str(port), "--browser.gatherUsageStats", "false",
                              "--server.showEmailPrompt", "false", "--client.toolbarMode", "minimal"]))


if __name__ == "__main__":
    main()
