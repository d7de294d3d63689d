"""Small building blocks for SVG drawings shared by every game system (standard library only).

PNG output goes through cairosvg, imported only when a PNG is asked for.
"""
from __future__ import annotations

from xml.sax.saxutils import escape as _xml_escape

# Characters XML 1.0 does not allow in a document (all C0 controls but tab, newline, carriage return).
_BAD = {i: None for i in range(32) if i not in (9, 10, 13)}


def text(s: object) -> str:
    """A value made safe for SVG text or an attribute: control characters dropped, XML escaped."""
    return _xml_escape(str(s).translate(_BAD), {'"': "&quot;"})


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Rasterise an SVG string."""
    import cairosvg

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
