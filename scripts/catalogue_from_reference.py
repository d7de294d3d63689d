"""Regenerate the tile-level catalogue YAML from the reference tables.

Usage: python scripts/catalogue_from_reference.py ../shared/reference/rallyman-facts.md

Writes the tile-level facts to ``*-catalogue.yaml`` files in the tilesets folder, beside the real files, to
compare or copy from:
dirt-core (201-232), one file per DIRT expansion box (dirt-monte-carlo: 301-324, 416, 417; dirt-rx:
401-415; dirt-climb: 325, 326, 418, 419) and official (every other side: GT, copilot-pack fillers). The facts
come from the table in section 3 of the reference file (source R1, rekee's tile table); this script only
restates them as YAML. The cells are merged into the real files with scripts/merge_cells.py.
"""
from __future__ import annotations

import re
import sys
from pathlib import Path

import yaml

TERRAIN = {"asph": "asphalt", "grav": "gravel", "snow": "snow", "-": None}
DANGER = {"Y": "yellow", "O": "orange", "R": "red"}


def parse_rows(text: str):
    for line in text.splitlines():
        m = re.match(r"^\| (\d{3}[ab]?) \|", line)
        if not m:
            continue
        cols = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cols) != 8:
            continue
        yield cols


def parse_edges(spec: str):
    edges, skew = {}, {}
    if spec in ("-", ""):
        return edges, skew
    for part in spec.split():
        letter, value = part.split(":")
        if value.startswith("sL"):
            skew[letter] = "left"
            value = value[2:]
        elif value.startswith("sR"):
            skew[letter] = "right"
            value = value[2:]
        edges[letter] = int(value)
    return edges, skew


def parse_links(spec: str):
    links = []
    for part in spec.split():
        m = re.match(r"^([A-F])-([A-F])\((\d+)\)$", part)
        if m:
            links.append([m.group(1), m.group(2)])
    return links


def parse_features(spec: str):
    feats = {"limits": [], "cut": None, "jumps": [], "ford": False, "climb": False,
             "hazard_space": False, "hazard_limits": []}
    for tok in spec.split():
        if tok == "-":
            continue
        if m := re.match(r"^L(\d)(!?)$", tok):
            k = int(m.group(1))
            if k not in feats["limits"]:
                feats["limits"].append(k)
            if m.group(2):
                feats["hazard_limits"].append(k)
        elif m := re.match(r"^CUT(\d)$", tok):
            feats["cut"] = int(m.group(1))
        elif m := re.match(r"^JUMP(\d)$", tok):
            feats["jumps"].append(int(m.group(1)))
        elif tok == "WATER":
            feats["ford"] = True
        elif tok == "CLIMB":
            feats["climb"] = True
        elif tok == "HAZ":
            feats["hazard_space"] = True
    return {k: v for k, v in feats.items() if v not in (None, False, [])}


def face_entry(cols):
    tile, variants, terrain, danger, edges, links, _codes, pacenotes = cols
    edge_lanes, skew = parse_edges(edges)
    entry = {
        "terrain": TERRAIN.get(terrain, terrain),
        "danger": DANGER.get(danger[:1]) if danger != "-" else None,
        "edges": edge_lanes,
        "links": parse_links(links),
    }
    if skew:
        entry["skew"] = skew
    if int(variants) > 1:
        entry["variants"] = int(variants)
    feats = parse_features(pacenotes)
    if feats:
        entry["features"] = feats
    if tile.startswith("201"):
        entry["role"] = "assistance"
        entry["links"] = []
    elif tile[:3] in ("202", "301"):
        entry["role"] = "start"
    elif tile[:3] in ("203", "302"):
        entry["role"] = "finish"
    elif tile[:3] in ("102", "131", "139", "401") or tile in ("140b", "143b", "144b"):
        entry["role"] = "start-finish"
    elif tile[:1] == "9" or tile == "101":
        entry["role"] = "filler" if tile != "101" else "pit"
    return {k: v for k, v in entry.items() if v is not None}


BOXES = {
    "dirt-monte-carlo": lambda n: 301 <= n <= 324 or n in (416, 417),
    "dirt-rx": lambda n: 401 <= n <= 415,
    "dirt-climb": lambda n: n in (325, 326, 418, 419),
}


def main(path: str) -> None:
    text = Path(path).read_text(encoding="utf-8")
    core, other = {}, {}
    boxes: dict[str, dict] = {name: {} for name in BOXES}
    for cols in parse_rows(text):
        tile = cols[0]
        if tile == "101":
            other["101a"] = face_entry(cols) | {"role": "pit"}
            other["101b"] = face_entry(cols) | {"role": "pit"}
            continue
        box = next((name for name, test in BOXES.items() if test(int(tile[:3]))), None)
        target = core if tile.startswith("2") else (boxes[box] if box else other)
        target[tile] = face_entry(cols)
    root = Path(__file__).resolve().parent.parent / "tilesets"
    header = ("# Generated from the tile table of the reference facts (source: rekee src/tile.rs, R1).\n"
              "# Tile-level facts only; edit by hand with care and keep the source note.\n")
    (root / "official-catalogue.yaml").write_text(header + yaml.safe_dump(
        {"tileset": "official", "title": "Official Rallyman GT and DIRT sides (tile level)",
         "system": "dirt", "tiles": other}, sort_keys=False, width=120), encoding="utf-8")
    (root / "dirt-core-catalogue.yaml").write_text(header + yaml.safe_dump(
        {"tiles": core}, sort_keys=False, width=120), encoding="utf-8")
    for name, faces in boxes.items():
        (root / f"{name}-catalogue.yaml").write_text(header + yaml.safe_dump(
            {"tiles": faces}, sort_keys=False, width=120), encoding="utf-8")
    print(f"{len(core)} core faces, " + ", ".join(f"{len(v)} {k}" for k, v in boxes.items())
          + f", {len(other)} other faces")


if __name__ == "__main__":
    main(sys.argv[1])
