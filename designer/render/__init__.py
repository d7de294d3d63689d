"""Drawings of faces, tilesets and stages: SVG with the standard library, PNG through cairosvg."""
from designer.render.svg import face_svg, stage_svg, sheet_svg  # noqa: F401


def svg_to_png(svg: str, scale: float = 1.0) -> bytes:
    """Rasterise an SVG string (cairosvg is imported only when a PNG is asked for)."""
    import cairosvg

    return cairosvg.svg2png(bytestring=svg.encode("utf-8"), scale=scale)
