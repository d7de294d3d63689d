"""The page kit's PDF writer: pages in millimetres, a cursor, TrueType text (:mod:`designer.core.pdffont`),
lines, discs and rectangles, pictures, and the file itself.

It does what the printed books need and no more, with the method names of fpdf2 that the books were written
against (``cell``, ``ln``, ``set_xy``, ``set_font``, ...), so a page reads the same either way. Starting a
book costs a few milliseconds (fpdf2 costs over half a second to import, a tenth more to read the two fonts
and another to subset them), which is most of what a road book takes from the command line.

Coordinates are in mm from the top-left corner, as in fpdf2; the writer turns them into PDF points.

>>> doc = Document("A4")
>>> doc.add_font("DejaVu Sans", "", paths.FONTS / "DejaVuSans.ttf")
>>> doc.add_page(); doc.set_font("DejaVu Sans", "", 10); doc.cell(40, 5, "Left 3")
True
>>> bytes(doc.output())[:8]
b'%PDF-1.4'
"""
from __future__ import annotations

import io
import zlib
from pathlib import Path

from designer.core import paths  # noqa: F401  (used by the doctest)
from designer.core.errors import DesignerError
from designer.core.pdffont import FontUse, TrueType

PAGE_MM = {"A4": (210.0, 297.0), "Letter": (215.9, 279.4)}
K = 72 / 25.4                          # points per mm
KAPPA = 0.5522847498


def _pdf_text(s: str) -> str:
    """A literal string for the document information (PDFDocEncoding or UTF-16 with its mark)."""
    try:
        s.encode("latin-1")
        return "(" + s.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") + ")"
    except UnicodeEncodeError:
        return "<FEFF" + s.encode("utf-16-be").hex().upper() + ">"


def _grey_or_rgb(r, g=None, b=None) -> tuple[int, int, int]:
    return (r, r, r) if g is None else (r, g, b)


class Document:
    """Pages, a cursor and a current font, colours and line width (the subset of fpdf2 the books use)."""

    def __init__(self, paper: str = "A4"):
        self.w, self.h = PAGE_MM[paper]
        self.k = K
        self.l_margin = self.t_margin = self.r_margin = 10.0
        self.c_margin = 1.0
        self.b_margin = 20.0
        self.auto_page_break = True
        self.page_break_trigger = self.h - self.b_margin
        self.x, self.y = self.l_margin, self.t_margin
        self.lasth = 0.0
        self.fonts: dict[str, FontUse] = {}
        self.current_font: FontUse | None = None
        self.font_size_pt = 10.0
        self.text_op = "0 g"
        self.fill_op = "0 g"
        self.draw_op = "0 G"
        self.line_width = 0.2
        self.in_footer = False
        self.page = 0
        self._pages: list[list[str]] = []
        self._page_images: list[set[int]] = []
        self._images: list[bytes] = []
        self._info: dict[str, str] = {}
        self._alias: str | None = None
        self._closed = False

    # -- document --------------------------------------------------------------------------
    def set_margins(self, left: float, top: float, right: float | None = None) -> None:
        self.l_margin, self.t_margin = left, top
        self.r_margin = left if right is None else right

    def set_auto_page_break(self, auto: bool, margin: float = 20.0) -> None:
        self.auto_page_break = auto
        self.b_margin = margin
        self.page_break_trigger = self.h - margin

    def set_title(self, s: str) -> None:
        self._info["Title"] = s

    def set_creator(self, s: str) -> None:
        self._info["Creator"] = s

    def set_subject(self, s: str) -> None:
        self._info["Subject"] = s

    def add_font(self, family: str, style: str, path) -> None:
        key = family.lower() + style.upper()
        if key not in self.fonts:
            self.fonts[key] = FontUse(TrueType.load(path), len(self.fonts) + 1, "B" in style.upper())

    @property
    def epw(self) -> float:
        return self.w - self.l_margin - self.r_margin

    @property
    def font_size(self) -> float:
        return self.font_size_pt / self.k

    def page_no(self) -> int:
        return self.page

    # -- pages -----------------------------------------------------------------------------
    def header(self) -> None:
        """Drawn at the top of every page (nothing here)."""

    def footer(self) -> None:
        """Drawn at the foot of every page when the page is done (nothing here)."""

    def _end_page(self) -> None:
        if self.page:
            self.in_footer = True
            self.footer()
            self.in_footer = False

    def add_page(self) -> None:
        self._end_page()
        self._pages.append([])
        self._page_images.append(set())
        self.page = len(self._pages)
        self.x, self.y = self.l_margin, self.t_margin
        self._out(f"{self.line_width * self.k:.2f} w {self.draw_op} {self.fill_op}")
        self.header()

    def _out(self, s) -> None:
        if not self.page:
            raise DesignerError("nothing can be drawn before the first page", where="PDF")
        self._pages[self.page - 1].append(s)

    # -- state -----------------------------------------------------------------------------
    def set_font(self, family: str, style: str = "", size: float | None = None) -> None:
        key = family.lower() + style.upper().replace("U", "").replace("I", "")
        font = self.fonts.get(key)
        if font is None:
            raise DesignerError(f"font {family!r} {style!r} was not added", where="PDF",
                                hint="add_font() it before use")
        self.current_font = font
        if size is not None:
            self.font_size_pt = float(size)

    def set_text_color(self, r, g=None, b=None) -> None:
        self.text_op = self._colour(_grey_or_rgb(r, g, b), "rg")

    def set_fill_color(self, r, g=None, b=None) -> None:
        self.fill_op = self._colour(_grey_or_rgb(r, g, b), "rg")
        if self.page:
            self._out(self.fill_op)

    def set_draw_color(self, r, g=None, b=None) -> None:
        self.draw_op = self._colour(_grey_or_rgb(r, g, b), "RG")
        if self.page:
            self._out(self.draw_op)

    def set_line_width(self, width: float) -> None:
        self.line_width = width
        if self.page:
            self._out(f"{width * self.k:.2f} w")

    @staticmethod
    def _colour(rgb, op: str) -> str:
        r, g, b = (v / 255 for v in rgb)
        if r == g == b:
            return f"{r:.3f} {op.replace('rg', 'g').replace('RG', 'G')}"
        return f"{r:.3f} {g:.3f} {b:.3f} {op}"

    # -- cursor ----------------------------------------------------------------------------
    def get_x(self) -> float:
        return self.x

    def get_y(self) -> float:
        return self.y

    def set_x(self, x: float) -> None:
        self.x = x if x >= 0 else self.w + x

    def set_y(self, y: float) -> None:
        self.x = self.l_margin
        self.y = y if y >= 0 else self.h + y

    def set_xy(self, x: float, y: float) -> None:
        self.set_y(y)
        self.set_x(x)

    def ln(self, h: float | None = None) -> None:
        self.x = self.l_margin
        self.y += self.lasth if h is None else h

    # -- text ------------------------------------------------------------------------------
    def get_string_width(self, s: str) -> float:
        """Width of ``s`` in mm in the current font."""
        return self.current_font.width_pt(str(s), self.font_size_pt) / self.k

    def cell(self, w=None, h=None, text="", border=0, align="L", fill=False, new_x="RIGHT", new_y="TOP") -> bool:
        """One line of text in a box at the cursor (border 0, 1 or sides like "B"; align L, C or R; fill with
        the fill colour); the cursor moves RIGHT or to the LMARGIN, and stays (TOP) or goes to the NEXT line.
        A cell that would cross the page's foot starts a new page first."""
        h = self.font_size if h is None else h
        if (self.auto_page_break and not self.in_footer and self.y + h > self.page_break_trigger):
            x = self.x
            self.add_page()
            self.x = x
        w = (self.w - self.r_margin - self.x) if not w else w
        k, x, y, H = self.k, self.x, self.y, self.h
        ops = []
        if fill or border == 1:
            op = "B" if (fill and border == 1) else ("f" if fill else "S")
            ops.append(f"{x * k:.2f} {(H - y) * k:.2f} {w * k:.2f} {-h * k:.2f} re {op}")
        if isinstance(border, str) and border:
            x2, y2 = x + w, y + h
            sides = {"L": (x, y, x, y2), "T": (x, y, x2, y), "R": (x2, y, x2, y2), "B": (x, y2, x2, y2)}
            for side in border.upper():
                if side in sides:
                    a, b, c, d = sides[side]
                    ops.append(f"{a * k:.2f} {(H - b) * k:.2f} m {c * k:.2f} {(H - d) * k:.2f} l S")
        text = str(text)
        if ops:
            self._out(" ".join(ops))
        if text:
            font = self.current_font
            args = (x, y, w, h, align, font, self.font_size_pt, self.text_op)
            if self._alias and self._alias in text:
                # The page count is known when the file is written: the text is laid out then.
                self._out(lambda: self._text(text.replace(self._alias, str(len(self._pages))), *args))
            else:
                self._out(self._text(text, *args))
        self.lasth = h
        self.x = self.l_margin if new_x == "LMARGIN" else x + w
        if new_y == "NEXT":
            self.y = y + h
        return True

    def _text(self, text, x, y, w, h, align, font, size, text_op) -> str:
        k = self.k
        width = font.width_pt(text, size) / k
        dx = self.c_margin if align == "L" else ((w - width) / 2 if align == "C" else w - self.c_margin - width)
        base = y + 0.5 * h + 0.3 * size / k
        return (f"q {text_op} BT /F{font.i} {size:.2f} Tf {(x + dx) * k:.2f} {(self.h - base) * k:.2f} Td "
                f"{font.encode(text)} Tj ET Q")

    def alias_nb_pages(self, alias: str = "{nb}") -> None:
        """Text holding ``alias`` gets the number of pages in its place."""
        self._alias = alias

    # -- shapes ----------------------------------------------------------------------------
    def line(self, x1: float, y1: float, x2: float, y2: float) -> None:
        k, H = self.k, self.h
        self._out(f"{x1 * k:.2f} {(H - y1) * k:.2f} m {x2 * k:.2f} {(H - y2) * k:.2f} l S")

    def rect(self, x: float, y: float, w: float, h: float, style: str = "D") -> None:
        k = self.k
        self._out(f"{x * k:.2f} {(self.h - y) * k:.2f} {w * k:.2f} {-h * k:.2f} re {_paint(style)}")

    def circle(self, x: float, y: float, r: float, style: str = "D") -> None:
        """A circle of radius ``r`` mm centred on (x, y)."""
        k = self.k
        X, Y, R = x * k, (self.h - y) * k, r * k
        c = R * KAPPA
        self._out(f"{X + R:.2f} {Y:.2f} m {X + R:.2f} {Y + c:.2f} {X + c:.2f} {Y + R:.2f} {X:.2f} {Y + R:.2f} c "
                  f"{X - c:.2f} {Y + R:.2f} {X - R:.2f} {Y + c:.2f} {X - R:.2f} {Y:.2f} c "
                  f"{X - R:.2f} {Y - c:.2f} {X - c:.2f} {Y - R:.2f} {X:.2f} {Y - R:.2f} c "
                  f"{X + c:.2f} {Y - R:.2f} {X + R:.2f} {Y - c:.2f} {X + R:.2f} {Y:.2f} c h {_paint(style)}")

    def image(self, png, x: float, y: float, w: float, h: float) -> None:
        """A PNG picture (bytes, a file-like object or a path) in the box (x, y, w, h) mm, on white."""
        from PIL import Image

        data = png.read() if hasattr(png, "read") else (Path(png).read_bytes() if not isinstance(png, bytes) else png)
        img = Image.open(io.BytesIO(data))
        if img.mode in ("RGBA", "LA", "P"):
            img = img.convert("RGBA")
            paper = Image.new("RGB", img.size, (255, 255, 255))
            paper.paste(img, mask=img.split()[-1])
            img = paper
        img = img.convert("RGB")
        pixels = zlib.compress(img.tobytes(), 6)
        self._images.append(f"<< /Type /XObject /Subtype /Image /Width {img.width} /Height {img.height} "
                            f"/ColorSpace /DeviceRGB /BitsPerComponent 8 /Filter /FlateDecode "
                            f"/Length {len(pixels)} >>\nstream\n".encode() + pixels + b"\nendstream")
        n = len(self._images)
        self._page_images[self.page - 1].add(n)
        k = self.k
        self._out(f"q {w * k:.2f} 0 0 {h * k:.2f} {x * k:.2f} {(self.h - y - h) * k:.2f} cm /I{n} Do Q")

    # -- the file --------------------------------------------------------------------------
    def output(self) -> bytes:
        """The PDF file (the last page's footer is drawn first)."""
        if not self._closed:
            self._end_page()
            self._closed = True
        self.page = len(self._pages)
        for ops in self._pages:
            for k, op in enumerate(ops):
                if callable(op):
                    ops[k] = op()
        objects: list[bytes] = []

        def add(obj: bytes) -> int:
            objects.append(obj)
            return len(objects)

        add(b"")                                              # 1: catalog, written last
        add(b"")                                              # 2: the page tree
        font_obj: dict[int, int] = {}
        for font in self.fonts.values():
            if font.used:                                     # a font no text was written in stays out
                first = len(objects) + 1
                for obj in font.objects(first):
                    add(obj)
                font_obj[font.i] = first
        image_obj = [add(img) for img in self._images]
        fonts_dict = " ".join(f"/F{i} {n} 0 R" for i, n in sorted(font_obj.items()))
        kids = []
        for p, ops in enumerate(self._pages):
            content = zlib.compress("\n".join(ops).encode("latin-1"), 6)
            c = add(f"<< /Filter /FlateDecode /Length {len(content)} >>\nstream\n".encode() + content
                    + b"\nendstream")
            xobjects = " ".join(f"/I{i} {image_obj[i - 1]} 0 R" for i in sorted(self._page_images[p]))
            resources = (f"<< /ProcSet [/PDF /Text /ImageC] /Font << {fonts_dict} >>"
                         + (f" /XObject << {xobjects} >>" if xobjects else "") + " >>")
            kids.append(add(f"<< /Type /Page /Parent 2 0 R /Contents {c} 0 R /Resources {resources} >>".encode()))
        objects[1] = (f"<< /Type /Pages /Kids [{' '.join(f'{k} 0 R' for k in kids)}] /Count {len(kids)} "
                      f"/MediaBox [0 0 {self.w * self.k:.2f} {self.h * self.k:.2f}] >>").encode()
        objects[0] = b"<< /Type /Catalog /Pages 2 0 R /PageLayout /OneColumn >>"
        info = add(("<< " + " ".join(f"/{k} {_pdf_text(v)}" for k, v in self._info.items() if v)
                    + " /Producer (rally-designer) >>").encode())
        out = bytearray(b"%PDF-1.4\n%\xe9\xeb\xf1\xbf\n")
        offsets = []
        for n, obj in enumerate(objects, start=1):
            offsets.append(len(out))
            out += f"{n} 0 obj\n".encode() + obj + b"\nendobj\n"
        xref = len(out)
        out += f"xref\n0 {len(objects) + 1}\n0000000000 65535 f \n".encode()
        out += "".join(f"{o:010d} 00000 n \n" for o in offsets).encode()
        out += f"trailer\n<< /Size {len(objects) + 1} /Root 1 0 R /Info {info} 0 R >>\nstartxref\n{xref}\n%%EOF\n".encode()
        return bytes(out)


def _paint(style: str) -> str:
    s = (style or "D").upper()
    return "B" if s in ("DF", "FD") else ("f" if s == "F" else "S")


__all__ = ["Document", "PAGE_MM", "K"]
