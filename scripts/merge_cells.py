"""Merge per-face cell fragments (``<face>.yaml`` with ends/turn/cells/slides..., or ``roads:`` for a face
with several roads) into a tileset file, and write the tileset back in a compact, diff-friendly layout
(one cell per line).

Usage: python scripts/merge_cells.py TILESET [FRAGMENT_DIR]

Only the faces the tileset already lists (at tile level) are merged; a fragment for another face is
reported and left alone, so one folder of fragments can be merged into each box's file in turn::

    for box in dirt-monte-carlo dirt-rx dirt-climb; do python scripts/merge_cells.py tilesets/$box.yaml READINGS; done
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

CELL_KEYS = ("ends", "turn", "arc", "start_line", "finish_line", "cells", "slides", "roads", "notes")
ONE_ROAD = ("ends", "turn", "arc", "start_line", "finish_line", "cells", "slides")
KNOWN = set(CELL_KEYS) | {"face"}


def flow(value) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, sort_keys=False, allow_unicode=True)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    elif text.endswith("..."):
        text = text[:-3].strip()
    return text


def dump_roads(roads: list, lines: list[str]) -> None:
    lines.append("    roads:")
    for road in roads:
        first = True
        for k, v in road.items():
            lead = "      - " if first else "        "
            first = False
            if k in ("cells", "slides") and isinstance(v, list) and v:
                lines.append(f"{lead}{k}:")
                for item in v:
                    lines.append(f"          - {flow(item)}")
            else:
                lines.append(f"{lead}{k}: {flow(v)}")


ORDER = ("terrain", "danger", "edges", "skew", "links", "role", "variants", "features") + CELL_KEYS


def dump_face(key: str, face: dict) -> str:
    lines = [f"  '{key}':"]
    rank = {k: i for i, k in enumerate(ORDER)}
    for k, v in sorted(face.items(), key=lambda kv: rank.get(kv[0], len(ORDER))):
        if k == "roads" and isinstance(v, list):
            dump_roads(v, lines)
        elif k in ("cells", "slides") and isinstance(v, list):
            if not v:
                lines.append(f"    {k}: []")
                continue
            lines.append(f"    {k}:")
            for item in v:
                lines.append(f"      - {flow(item)}")
        elif isinstance(v, (dict, list)):
            lines.append(f"    {k}: {flow(v)}")
        else:
            lines.append(f"    {k}: {flow(v)}")
    return "\n".join(lines)


def main(tileset: str, fragments: str | None = None) -> None:
    path = Path(tileset)
    text = path.read_text(encoding="utf-8")
    header = "".join(line for line in text.splitlines(keepends=True) if line.startswith("#"))
    data = yaml.safe_load(text)
    tiles = data["tiles"]
    merged = 0
    if fragments:
        for frag in sorted(Path(fragments).glob("*.yaml")):
            d = yaml.safe_load(frag.read_text(encoding="utf-8"))
            key = str(d.get("face") or frag.stem)
            if key not in tiles:
                print(f"skip {frag.name}: {key} not in tileset")
                continue
            unknown = set(d) - KNOWN
            if unknown:
                print(f"warning {frag.name}: keys left out: {', '.join(sorted(unknown))}")
            drop = ONE_ROAD if d.get("roads") else ("roads",)
            for k in drop:
                tiles[key].pop(k, None)
            for k in CELL_KEYS:
                if d.get("roads") and k in ONE_ROAD:
                    continue
                if k in d and d[k] is not None and d[k] != []:
                    tiles[key][k] = d[k]
                elif k in ("arc", "start_line", "finish_line", "notes"):
                    tiles[key].pop(k, None)
                elif k == "slides" and not d.get("roads"):
                    tiles[key][k] = d.get(k) or []
            merged += 1
    out = [header.rstrip("\n")]
    for k, v in data.items():
        if k != "tiles":
            out.append(f"{k}: {flow(v)}")
    out.append("tiles:")
    for key, face in tiles.items():
        out.append(dump_face(str(key), face))
    path.write_text("\n".join(out) + "\n", encoding="utf-8")
    print(f"merged {merged} fragments into {path}")


if __name__ == "__main__":
    main(*sys.argv[1:])
