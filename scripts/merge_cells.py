"""Merge per-face cell fragments (``<face>.yaml`` with ends/turn/cells/slides...) into a tileset file,
and write the tileset back in a compact, diff-friendly layout (one cell per line).

Usage: python scripts/merge_cells.py tilesets/dirt-core.yaml [FRAGMENT_DIR]
"""
from __future__ import annotations

import sys
from pathlib import Path

import yaml

CELL_KEYS = ("ends", "turn", "start_line", "finish_line", "cells", "slides", "notes")


def flow(value) -> str:
    text = yaml.safe_dump(value, default_flow_style=True, width=10_000, sort_keys=False, allow_unicode=True)
    text = text.strip()
    if text.endswith("\n..."):
        text = text[:-4].strip()
    elif text.endswith("..."):
        text = text[:-3].strip()
    return text


def dump_face(key: str, face: dict) -> str:
    lines = [f"  '{key}':"]
    for k, v in face.items():
        if k in ("cells", "slides") and isinstance(v, list):
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
            for k in CELL_KEYS:
                if k in d and d[k] is not None and d[k] != []:
                    tiles[key][k] = d[k]
                elif k in ("start_line", "finish_line", "notes"):
                    tiles[key].pop(k, None)
                elif k == "slides":
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
