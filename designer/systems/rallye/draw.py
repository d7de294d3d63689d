"""SVG drawings of a Rallye stage, from its analysis: the strip of 12 cards as a co-driver reads them, the speed
profile (safety and top speed per section, and both plans), and the cards laid on the table.

Colours follow the cards (yellow, orange, red corners) and every colour is doubled by a word or a pattern, so
that a grayscale print reads the same.
"""
from __future__ import annotations

from designer.core.svgkit import text as esc

FILL = {"none": "#ffffff", "yellow": "#f2d21b", "orange": "#e8870e", "red": "#b71c1c"}
INK = {"none": "#111111", "yellow": "#111111", "orange": "#111111", "red": "#ffffff"}
WORD = {"none": "STRAIGHT", "yellow": "light", "orange": "MEDIUM", "red": "TIGHT"}
W = 1000
MARGIN = 40


def _t(x, y, s, size=12, anchor="start", weight="normal", fill="#111", extra="") -> str:
    return (f'<text x="{x:.1f}" y="{y:.1f}" font-family="DejaVu Sans, sans-serif" font-size="{size}" '
            f'text-anchor="{anchor}" font-weight="{weight}" fill="{fill}" {extra}>{esc(s)}</text>')


def strip(result: dict, y0: float) -> tuple[list[str], float]:
    rows = result["recon"]
    n = max(1, len(rows))
    cw = (W - 2 * MARGIN) / n
    h = 122
    out = []
    for i, row in enumerate(rows):
        x = MARGIN + i * cw
        sev = row["severity"]
        out.append(f'<rect x="{x + 2:.1f}" y="{y0:.1f}" width="{cw - 4:.1f}" height="{h}" rx="6" fill="#fafafa" '
                   f'stroke="#333" stroke-width="1.2"/>')
        out.append(f'<rect x="{x + 2:.1f}" y="{y0:.1f}" width="{cw - 4:.1f}" height="30" rx="6" fill="{FILL[sev]}" '
                   f'stroke="#333" stroke-width="1.2"/>')
        note = row["note"] if sev != "none" else "—"
        out.append(_t(x + cw / 2, y0 + 21, note, 17, "middle", "bold", INK[sev]))
        out.append(_t(x + cw / 2, y0 + 47, WORD[sev], 12, "middle", "bold"))
        out.append(_t(x + cw / 2, y0 + 62, row["width"], 12, "middle"))
        out.append(_t(x + cw / 2, y0 + 76, row["surface"], 12, "middle"))
        if isinstance(row["safety"], int):
            out.append(_t(x + 6, y0 + 94, "safe", 11.5, "start", fill="#333"))
            out.append(_t(x + cw - 6, y0 + 94, str(row["safety"]), 14, "end", "bold"))
            out.append(_t(x + 6, y0 + 112, "top", 11.5, "start", fill="#333"))
            out.append(_t(x + cw - 6, y0 + 112, str(row["top"]), 14, "end"))
        else:           # a drivers' sheet: the player aid's ranges, safe (bold) over top, centred (no room for
            out.append(_t(x + cw / 2, y0 + 94, str(row["safety"]), 11, "middle", "bold"))   # the words too)
            out.append(_t(x + cw / 2, y0 + 112, str(row["top"]), 11, "middle"))
        label = f"{row['section']} · #{row['card']}" if row.get("card") else str(row["section"])
        out.append(_t(x + cw / 2, y0 + h + 16, label, 12, "middle", fill="#222"))
    return out, y0 + h + 24


def profile(result: dict, y0: float, height: float = 230) -> tuple[list[str], float]:
    limits = result["limits"]
    n = max(1, len(limits))
    cw = (W - 2 * MARGIN) / n
    vmax = 240
    top_y, bottom_y = y0 + 10, y0 + height

    def ky(v):
        return bottom_y - (bottom_y - top_y) * v / vmax

    out = [_t(MARGIN, y0 - 2, "speed (km/h) by section: safety speed (shaded), top speed (bar), plans (lines)", 13,
              weight="bold")]
    for v in range(0, vmax + 1, 40):
        out.append(f'<line x1="{MARGIN}" y1="{ky(v):.1f}" x2="{W - MARGIN}" y2="{ky(v):.1f}" stroke="#ccc" stroke-width="0.7"/>')
        out.append(_t(MARGIN - 5, ky(v) + 4, str(v), 12, "end", fill="#333"))
    for i, s in enumerate(limits):
        x = MARGIN + i * cw
        out.append(f'<rect x="{x + 6:.1f}" y="{ky(s["safety"]):.1f}" width="{cw - 12:.1f}" '
                   f'height="{bottom_y - ky(s["safety"]):.1f}" fill="{FILL[s["severity"]] if s["severity"] != "none" else "#dddddd"}" '
                   f'fill-opacity="0.55" stroke="#555" stroke-width="0.8"/>')
        out.append(f'<line x1="{x + 4:.1f}" y1="{ky(s["top"]):.1f}" x2="{x + cw - 4:.1f}" y2="{ky(s["top"]):.1f}" '
                   f'stroke="#111" stroke-width="3"/>')
    plans = result["plans"]
    for name, dash, width in (("cautious", "6 4", 2), ("fastest", "", 3)):
        legs = plans[name]["legs"]
        pts = []
        for i, leg in enumerate(legs):
            x = MARGIN + i * cw
            pts += [f"{x + 8:.1f},{ky(leg['speed']):.1f}", f"{x + cw - 8:.1f},{ky(leg['speed']):.1f}"]
        style = f'stroke-dasharray="{dash}"' if dash else ""
        colour = "#1565c0" if name == "fastest" else "#2e7d32"
        out.append(f'<polyline points="{" ".join(pts)}" fill="none" stroke="{colour}" stroke-width="{width}" {style}/>')
        for i, leg in enumerate(legs):
            if name == "fastest" and (leg["spin_chance"] > 0 or leg["penalty"] > 0):
                x = MARGIN + i * cw + cw / 2
                out.append(_t(x, ky(leg["speed"]) - 6, f"+{leg['penalty']:.1f}s", 12, "middle", fill="#0d47a1"))
    ly = bottom_y + 22
    out.append(f'<line x1="{MARGIN}" y1="{ly - 4}" x2="{MARGIN + 30}" y2="{ly - 4}" stroke="#2e7d32" stroke-width="2" '
               f'stroke-dasharray="6 4"/>')
    out.append(_t(MARGIN + 36, ly, f"cautious plan {plans['cautious']['expected_seconds']:.1f} s", 12.5))
    out.append(f'<line x1="{MARGIN + 200}" y1="{ly - 4}" x2="{MARGIN + 230}" y2="{ly - 4}" stroke="#1565c0" stroke-width="3"/>')
    out.append(_t(MARGIN + 236, ly, f"fastest plan {plans['fastest']['expected_seconds']:.1f} s, best hand "
                                    "(+s: die penalty)", 12.5))
    out.append(f'<line x1="{MARGIN + 620}" y1="{ly - 4}" x2="{MARGIN + 650}" y2="{ly - 4}" stroke="#111" stroke-width="3"/>')
    out.append(_t(MARGIN + 656, ly, "top speed", 12.5))
    return out, ly + 14


def table_map(result: dict, x0: float, y0: float, cell: float = 44) -> tuple[list[str], float]:
    lay = result["layout"]
    cells = lay["cells"]
    if not cells:
        return [], y0
    xs, ys = [c[0] for c in cells], [c[1] for c in cells]
    minx, miny = min(xs), min(ys)
    out = [_t(x0, y0 - 6, f"on the table ({lay['size'][0]} x {lay['size'][1]} cards)"
              + ("" if lay["ok"] else ": CANNOT BE LAID"), 16, weight="bold")]
    sev = {r["section"]: r["severity"] for r in result["recon"]}
    bad = {p["section"] for p in lay["problems"]}
    centres = []
    for i, (cx, cy) in enumerate(cells):
        x, y = x0 + (cx - minx) * cell, y0 + 4 + (cy - miny) * cell
        s = sev.get(i + 1, "none")
        out.append(f'<rect x="{x + 1:.1f}" y="{y + 1:.1f}" width="{cell - 2}" height="{cell - 2}" fill="{FILL[s]}" '
                   f'stroke="{"#d50000" if i + 1 in bad else "#333"}" stroke-width="{3 if i + 1 in bad else 1}"/>')
        out.append(_t(x + cell / 2, y + cell / 2 + 7, str(i + 1), 19, "middle", "bold", INK[s]))
        centres.append((x + cell / 2, y + cell / 2))
    if len(centres) > 1:
        pts = " ".join(f"{a:.1f},{b:.1f}" for a, b in centres)
        out.append(f'<polyline points="{pts}" fill="none" stroke="#555" stroke-width="1.2" stroke-dasharray="2 3"/>')
    return out, y0 + 4 + (max(ys) - miny + 1) * cell


def _svg(body: list[str], width: float, height: float) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" '
            f'viewBox="0 0 {width:.0f} {height:.0f}"><rect width="100%" height="100%" fill="#ffffff"/>'
            + "".join(body) + "</svg>")


def stage_svg(result: dict, title: str | None = None, parts=("strip", "profile", "map"), header: bool = True) -> str:
    """The stage drawing: a header, then the chosen parts (strip of cards, speed profile, cards on the table)."""
    body = []
    y = 8
    if header:
        body.append(_t(MARGIN, y + 20, title or result.get("stage", "stage"), 18, weight="bold"))
        body.append(_t(W - MARGIN, y + 20, f"deck {result.get('deck', '')}"
                       + (" (demonstration data)" if result.get("demo_deck") else ""), 12, "end", fill="#333"))
        y += 34
    if "strip" in parts:
        more, y = strip(result, y + 6)
        body += more
    if "profile" in parts:
        more, y = profile(result, y + 18)
        body += more
    if "map" in parts:
        more, y = table_map(result, MARGIN, y + 28)
        body += more
    return _svg(body, W, y + 12)


def map_svg(result: dict, cell: float = 44) -> str:
    """The cards on the table alone, as small as it can be."""
    cols, rows = result["layout"]["size"]
    body, y = table_map(result, 8, 28, cell)
    return _svg(body, max(8 + cols * cell + 8, 290), y + 8)
