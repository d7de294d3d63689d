"""Vector drawings placed on a PDF page, fast: the SVG subset the product's drawings use, written straight
as PDF path and text operators.

A general SVG renderer takes tens of milliseconds for a map of a few hundred cells, and a road book places
dozens of drawings. The drawings of this product only use ``polygon``,
``polyline``, ``line``, ``circle``, ``rect``, ``path`` (M, L, H, V, Q, T, C, Z, absolute and relative),
``text`` and ``g`` with a ``translate``/``scale`` transform, with plain colours, widths, dashes and
opacities. :func:`place` draws those; an SVG with anything else is placed as a picture (rasterised by
cairosvg at 300 dpi, :func:`designer.core.svgkit.svg_to_png`).

Text is written with the page's fonts (``font-weight="bold"`` picks the bold face) and never below
``min_pt``: a label that would print smaller is set at ``min_pt`` (counted in ``Book.small_text``).

>>> from designer.core.pdfkit import new_book
>>> book = new_book("A4", "t"); book.add_page()
>>> place(book, '<svg viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#c00"/></svg>', 10, 10, 20, 20)
(20.0, 20.0)
"""
from __future__ import annotations

import io
import re
import xml.etree.ElementTree as ET

MIN_PT = 6.0
_MM_PER_PT = 25.4 / 72
_NAMED = {"white": (1.0, 1.0, 1.0), "black": (0.0, 0.0, 0.0), "none": None, "transparent": None,
          "red": (1.0, 0.0, 0.0), "blue": (0.0, 0.0, 1.0), "green": (0.0, 0.5, 0.0), "grey": (0.5, 0.5, 0.5),
          "gray": (0.5, 0.5, 0.5)}
_SHAPES = {"polygon", "polyline", "line", "circle", "rect", "path", "text", "g", "title", "desc", "svg"}
_NUM = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_PATH_TOKEN = re.compile(r"[MmLlHhVvQqTtCcZz]|[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")
_KAPPA = 0.5522847498


def _tag(el) -> str:
    return el.tag.rsplit("}", 1)[-1]


def colour(value: str | None, opacity: float = 1.0):
    """(r, g, b) in 0..1 of ``#rgb``, ``#rrggbb`` or a few names, blended with white paper by ``opacity``."""
    if value is None:
        return None
    v = value.strip().lower()
    if v in _NAMED:
        rgb = _NAMED[v]
    elif v.startswith("#") and len(v) in (4, 7):
        h = v[1:] if len(v) == 7 else "".join(c * 2 for c in v[1:])
        rgb = tuple(int(h[i:i + 2], 16) / 255 for i in (0, 2, 4))
    elif v.startswith("rgb(") and v.endswith(")"):
        rgb = tuple(float(x) / 255 for x in v[4:-1].split(","))
    else:
        return None
    if rgb is None:
        return None
    if opacity < 1.0:
        rgb = tuple(1.0 - opacity * (1.0 - c) for c in rgb)
    return rgb


def _rgb_op(rgb, op: str) -> str:
    return f"{rgb[0]:.3f} {rgb[1]:.3f} {rgb[2]:.3f} {op}"


def viewbox(svg: str) -> tuple[float, float, float, float]:
    m = re.search(r'viewBox="\s*([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)[\s,]+([-\d.e]+)\s*"', svg)
    if not m:
        return (0.0, 0.0, 100.0, 100.0)
    return tuple(float(v) for v in m.groups())  # type: ignore[return-value]


def supported(root) -> bool:
    return all(_tag(el) in _SHAPES for el in root.iter())


class _Painter:
    """Turns SVG elements into PDF operators for one placement (SVG units -> points)."""

    def __init__(self, book, origin, scale: float, min_pt: float):
        self.book = book
        self.k = book.k                      # points per user unit (mm)
        self.page_h = book.h
        self.ox, self.oy = origin            # mm of the view box's top-left corner
        self.s = scale                       # mm per SVG unit
        self.min_pt = min_pt
        self.ops: list[str] = []

    # coordinates ----------------------------------------------------------------------
    def pt(self, x: float, y: float, tr) -> tuple[float, float]:
        a, b, c = tr
        mx = self.ox + (a * x + b) * self.s
        my = self.oy + (a * y + c) * self.s
        return mx * self.k, (self.page_h - my) * self.k

    # style ---------------------------------------------------------------------------
    def style(self, el, tr, closed: bool) -> str | None:
        g = el.get
        opacity = float(g("opacity", 1))
        fill = colour(g("fill", "black" if closed else "none"), opacity * float(g("fill-opacity", 1)))
        stroke = colour(g("stroke", "none"), opacity * float(g("stroke-opacity", 1)))
        width = float(g("stroke-width", 1)) * tr[0] * self.s * self.k
        if fill is None and (stroke is None or width <= 0):
            return None
        ops = []
        if fill is not None:
            ops.append(_rgb_op(fill, "rg"))
        if stroke is not None:
            ops.append(_rgb_op(stroke, "RG"))
            ops.append(f"{width:.3f} w")
            dash = g("stroke-dasharray")
            if dash and dash != "none":
                nums = [float(v) * tr[0] * self.s * self.k for v in _NUM.findall(dash)]
                ops.append("[" + " ".join(f"{v:.2f}" for v in nums) + "] 0 d")
            else:
                ops.append("[] 0 d")
            cap = {"round": 1, "square": 2}.get(g("stroke-linecap", ""), 0)
            join = {"round": 1, "bevel": 2}.get(g("stroke-linejoin", ""), 0)
            ops.append(f"{cap} J {join} j")
        self.ops.extend(ops)
        if fill is not None and stroke is not None:
            return "B"
        return "f" if fill is not None else "S"

    # shapes --------------------------------------------------------------------------
    def poly(self, points, tr, closed: bool, el) -> None:
        if len(points) < 2:
            return
        paint = self.style(el, tr, closed)
        if paint is None:
            return
        out = []
        for k, (x, y) in enumerate(points):
            X, Y = self.pt(x, y, tr)
            out.append(f"{X:.2f} {Y:.2f} {'m' if k == 0 else 'l'}")
        if closed:
            out.append("h")
        out.append(paint)
        self.ops.append(" ".join(out))

    def circle(self, el, tr) -> None:
        cx, cy, r = (float(el.get(a, 0)) for a in ("cx", "cy", "r"))
        if r <= 0:
            return
        paint = self.style(el, tr, True)
        if paint is None:
            return
        X, Y = self.pt(cx, cy, tr)
        R = r * tr[0] * self.s * self.k
        c = R * _KAPPA
        self.ops.append(
            f"{X + R:.2f} {Y:.2f} m {X + R:.2f} {Y + c:.2f} {X + c:.2f} {Y + R:.2f} {X:.2f} {Y + R:.2f} c "
            f"{X - c:.2f} {Y + R:.2f} {X - R:.2f} {Y + c:.2f} {X - R:.2f} {Y:.2f} c "
            f"{X - R:.2f} {Y - c:.2f} {X - c:.2f} {Y - R:.2f} {X:.2f} {Y - R:.2f} c "
            f"{X + c:.2f} {Y - R:.2f} {X + R:.2f} {Y - c:.2f} {X + R:.2f} {Y:.2f} c h {paint}")

    def path(self, el, tr) -> None:
        tokens = _PATH_TOKEN.findall(el.get("d", ""))
        paint = self.style(el, tr, True)
        if paint is None or not tokens:
            return
        out: list[str] = []
        x = y = sx = sy = 0.0
        qx = qy = None                      # last quadratic control point (for T)
        cmd = None
        i = 0

        def num():
            nonlocal i
            v = float(tokens[i])
            i += 1
            return v

        def cubic(c1, c2, end):
            p1, p2, p3 = self.pt(*c1, tr), self.pt(*c2, tr), self.pt(*end, tr)
            out.append(f"{p1[0]:.2f} {p1[1]:.2f} {p2[0]:.2f} {p2[1]:.2f} {p3[0]:.2f} {p3[1]:.2f} c")

        def quad(ctrl, end):
            c1 = (x + 2 / 3 * (ctrl[0] - x), y + 2 / 3 * (ctrl[1] - y))
            c2 = (end[0] + 2 / 3 * (ctrl[0] - end[0]), end[1] + 2 / 3 * (ctrl[1] - end[1]))
            cubic(c1, c2, end)

        while i < len(tokens):
            if tokens[i].isalpha():
                cmd = tokens[i]
                i += 1
                if cmd in "Zz":
                    out.append("h")
                    x, y = sx, sy
                    continue
            if cmd is None:
                return
            rel = cmd.islower()
            base = (x, y) if rel else (0.0, 0.0)
            c = cmd.upper()
            if c == "M":
                x, y = base[0] + num(), base[1] + num()
                sx, sy = x, y
                X, Y = self.pt(x, y, tr)
                out.append(f"{X:.2f} {Y:.2f} m")
                cmd = "l" if rel else "L"
                qx = None
            elif c in "LHV":
                if c == "L":
                    x, y = base[0] + num(), base[1] + num()
                elif c == "H":
                    x = base[0] + num()
                else:
                    y = base[1] + num()
                X, Y = self.pt(x, y, tr)
                out.append(f"{X:.2f} {Y:.2f} l")
                qx = None
            elif c == "Q":
                ctrl = (base[0] + num(), base[1] + num())
                end = (base[0] + num(), base[1] + num())
                quad(ctrl, end)
                qx, qy = ctrl
                x, y = end
            elif c == "T":
                ctrl = (2 * x - qx, 2 * y - qy) if qx is not None else (x, y)
                end = (base[0] + num(), base[1] + num())
                quad(ctrl, end)
                qx, qy = ctrl
                x, y = end
            elif c == "C":
                c1 = (base[0] + num(), base[1] + num())
                c2 = (base[0] + num(), base[1] + num())
                end = (base[0] + num(), base[1] + num())
                cubic(c1, c2, end)
                x, y = end
                qx = None
            else:
                return
        if paint in ("f", "B") and el.get("fill", "black") == "none":
            paint = "S"
        out.append(paint)
        self.ops.append(" ".join(out))

    def text(self, el, tr) -> None:
        content = "".join(el.itertext()).strip()
        if not content:
            return
        book = self.book
        size_units = float(el.get("font-size", 10)) * tr[0]
        size_pt = size_units * self.s / _MM_PER_PT
        if size_pt < self.min_pt:
            book.small_text += 1
            size_pt = self.min_pt
        bold = el.get("font-weight", "normal") in ("bold", "700", "800", "900")
        style = "B" if bold else ""
        family = book.font_family_name
        key = family.lower() + style
        font = book.fonts.get(key)
        if font is None:
            return
        width_pt = font.width_pt(content, size_pt)
        anchor = el.get("text-anchor", "start")
        x, y = float(el.get("x", 0)), float(el.get("y", 0))
        X, Y = self.pt(x, y, tr)
        if el.get("dominant-baseline") == "central":
            Y -= 0.36 * size_pt
        if anchor == "middle":
            X -= width_pt / 2
        elif anchor == "end":
            X -= width_pt
        rgb = colour(el.get("fill", "black"), float(el.get("fill-opacity", 1))) or (0, 0, 0)
        self.ops.append(f"BT /F{font.i} {size_pt:.2f} Tf {_rgb_op(rgb, 'rg')} {X:.2f} {Y:.2f} Td "
                        f"{font.encode(content)} Tj ET")

    # tree -----------------------------------------------------------------------------
    def walk(self, el, tr) -> None:
        for child in el:
            t = _tag(child)
            if t == "g":
                self.walk(child, _compose(tr, child.get("transform")))
            elif t in ("polygon", "polyline"):
                nums = [float(v) for v in _NUM.findall(child.get("points", ""))]
                self.poly(list(zip(nums[0::2], nums[1::2])), tr, t == "polygon", child)
            elif t == "line":
                pts = [(float(child.get("x1", 0)), float(child.get("y1", 0))),
                       (float(child.get("x2", 0)), float(child.get("y2", 0)))]
                self.poly(pts, tr, False, child)
            elif t == "rect":
                x, y = float(child.get("x", 0)), float(child.get("y", 0))
                w, h = float(child.get("width", 0)), float(child.get("height", 0))
                if w > 0 and h > 0:
                    self.poly([(x, y), (x + w, y), (x + w, y + h), (x, y + h)], tr, True, child)
            elif t == "circle":
                self.circle(child, tr)
            elif t == "path":
                self.path(child, tr)
            elif t == "text":
                self.text(child, tr)


def _compose(tr, transform: str | None):
    """Only uniform scale and translation are used by the product's drawings: (scale, dx, dy)."""
    if not transform:
        return tr
    a, b, c = tr
    for name, args in re.findall(r"(translate|scale)\s*\(([^)]*)\)", transform):
        nums = [float(v) for v in _NUM.findall(args)]
        if name == "translate":
            dx, dy = (nums + [0.0, 0.0])[:2]
            b, c = b + a * dx, c + a * dy
        elif nums:
            a = a * nums[0]
    return (a, b, c)


def fit(svg: str, w: float, h: float, max_scale: float | None = None) -> tuple[float, float, float]:
    """(scale in mm per SVG unit, width, height) of an SVG fitted in a w x h box."""
    _, _, vw, vh = viewbox(svg)
    scale = min(w / vw, h / vh)
    if max_scale is not None:
        scale = min(scale, max_scale)
    return scale, vw * scale, vh * scale


def place(book, svg: str, x: float, y: float, w: float, h: float, align: str = "C",
          max_scale: float | None = None, min_pt: float = MIN_PT) -> tuple[float, float]:
    """Draw ``svg`` scaled to fit the box (x, y, w, h) in mm, at most ``max_scale`` mm per SVG unit;
    returns the width and height used."""
    minx, miny, vw, vh = viewbox(svg)
    scale, dw, dh = fit(svg, w, h, max_scale)
    dx = (w - dw) / 2 if align == "C" else (w - dw if align == "R" else 0.0)
    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        root = None
    if root is None or not supported(root):
        from designer.core.svgkit import svg_to_png

        dpi_scale = max(dw / 25.4 * 300 / vw, 0.05)        # 300 dots an inch across the placed width
        try:
            png = svg_to_png(svg, dpi_scale)
        except Exception as exc:  # noqa: BLE001 - cairosvg raises many kinds for a broken drawing
            from designer.core.errors import DesignerError

            raise DesignerError(f"a drawing cannot be placed on the page ({type(exc).__name__}: {exc})",
                                where="road book drawing", hint="the drawing's SVG is not valid") from exc
        book.image(io.BytesIO(png), x=x + dx, y=y, w=dw, h=dh)
        return dw, dh
    painter = _Painter(book, (x + dx - minx * scale, y - miny * scale), scale, min_pt)
    painter.walk(root, (1.0, 0.0, 0.0))
    if painter.ops:
        book._out("q " + "\n".join(painter.ops) + " Q")
    return dw, dh


__all__ = ["place", "fit", "viewbox", "colour", "MIN_PT"]
