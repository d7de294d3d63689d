"""Side-by-side review pages: our schematic drawing of each face beside the printed tile's picture.

Usage: python scripts/compare_faces.py PICTURE_DIR OUT_DIR [--tileset NAME] [FACE ...]

PICTURE_DIR holds tile-<face>.png pictures (not shipped with the project), e.g.
../shared/reference/dirt-core-tiles or ../shared/reference/dirt-expansion-tiles. Writes one PNG per 4 faces
of the tileset (default: official, every face with cells whose picture is in PICTURE_DIR). A face with several
roads is drawn with all of them; the caption lists its roads.
"""
from __future__ import annotations

import base64
import sys
from pathlib import Path

from designer.systems.dirt.board.render import _Canvas, _draw_face, svg_to_png
from designer.systems.dirt.board.tileset import get_tileset


def caption(face) -> str:
    roads = face.road_faces()
    if len(roads) == 1:
        return f"{face.id}: {face.ends[0]} -> {face.ends[-1]}, lane 0 = driver's left"
    return f"{face.id}: roads " + ", ".join(f"{r.road} {r.ends[0]}->{r.ends[1]}" for r in roads)


def page(faces, pictures: Path) -> str:
    c = _Canvas()
    w, h = 520, 450
    for row, face in enumerate(faces):
        y = row * (h + 30)
        inner = _Canvas()
        _draw_face(inner, face, size=255, label=face.id)
        c.add(f'<g transform="translate({w / 2:.1f},{y + h / 2:.1f})">' + "".join(inner.parts) + "</g>")
        pic = pictures / f"tile-{face.id}.png"
        if pic.is_file():
            data = base64.b64encode(pic.read_bytes()).decode()
            c.add(f'<image x="{w + 20}" y="{y}" width="{w}" height="{h}" href="data:image/png;base64,{data}"/>')
        c.text(w + 20, y + h + 12, caption(face), 14, anchor="start")
    return c.svg(0, 0, 2 * w + 20, len(faces) * (h + 30), width_px=1060)


def main(pictures: str, out: str, *args: str) -> None:
    args = list(args)
    name = "official"
    if "--tileset" in args:
        k = args.index("--tileset")
        name = args[k + 1]
        del args[k:k + 2]
    ts = get_tileset(name)
    pics = Path(pictures)
    faces = [f for f in ts.tiles.values() if f.has_cells and (f.id in args if args else
                                                               (pics / f"tile-{f.id}.png").is_file())]
    Path(out).mkdir(parents=True, exist_ok=True)
    for k in range(0, len(faces), 4):
        chunk = faces[k:k + 4]
        path = Path(out) / f"compare-{chunk[0].id}-{chunk[-1].id}.png"
        path.write_bytes(svg_to_png(page(chunk, pics)))
        print(path)


if __name__ == "__main__":
    main(*sys.argv[1:])
