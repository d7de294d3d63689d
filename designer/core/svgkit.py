"""Small building blocks for SVG drawings shared by every game system (standard library only).

PNG output goes through cairosvg, imported only when a PNG is asked for.
"""
from __future__ import annotations

import re
from xml.sax.saxutils import escape as _xml_escape

# Characters XML 1.0 does not allow in a document (all C0 controls but tab, newline, carriage return).
_BAD = {i: None for i in range(32) if i not in (9, 10, 13)}


def text(s: object) -> str:
    """A value made safe for SVG text or an attribute: control characters dropped, XML escaped."""
    return _xml_escape(str(s).translate(_BAD), {'"': "&quot;"})


MAX_PNG_SIDE = 8000            # pixels; cairo refuses surfaces over 32767 a side and memory grows with the area


def _size(svg: str) -> tuple[float, float] | None:
    """The drawing's size in user units, from the root's width/height or its viewBox."""
    head = svg[:2000]
    root = re.search(r"<svg\b[^>]*>", head)
    if not root:
        return None
    tag = root.group(0)
    w = re.search(r'\bwidth="([\d.]+)', tag)
    h = re.search(r'\bheight="([\d.]+)', tag)
    if w and h:
        return float(w.group(1)), float(h.group(1))
    vb = re.search(r'viewBox="[-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)"', tag)
    return (float(vb.group(1)), float(vb.group(2))) if vb else None


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Rasterise an SVG string; a large drawing is scaled down so that no side exceeds MAX_PNG_SIDE pixels."""
    import cairosvg

    size = _size(svg)
    if size and max(size) * scale > MAX_PNG_SIDE:
        scale = MAX_PNG_SIDE / max(size)
    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
