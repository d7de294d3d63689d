"""The page kit of every printed road book: a :class:`Book` with the bundled DejaVu fonts, page
furniture (running title, page n of N), headings, paragraphs, a title block of key and value, tables with
compact rows and a header repeated on every page they run onto, vector drawings placed on the page
(:mod:`designer.core.pdfsvg`), and a palette that still reads when printed in black and white. The file is
written by the kit's own PDF writer (:mod:`designer.core.pdfdoc`), with the fonts' used glyphs embedded.

Type never goes below :data:`MIN_PT` (6 pt): :meth:`Book.font` raises smaller sizes to it, and so does the
drawing placement.

>>> book = new_book("A4", "Demo rally")
>>> book.add_page(); book.heading("Stage 1")
>>> book.table([Column("Tile", 20), Column("Note")], [["1", "Left 3"], ["2", "Flat"]])
>>> book.output()[:5]
b'%PDF-'
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Sequence

from designer.core import files, paths, pdfsvg
from designer.core.pdfdoc import Document
from designer.core.errors import DesignerError

FONT = "DejaVu Sans"
PAPERS = {"a4": "A4", "letter": "Letter"}
MIN_PT = pdfsvg.MIN_PT
MARGIN = 12.0
FOOTER = 10.0
# Grayscale-safe palette: every ink is dark enough to read on white, every fill light enough to carry ink.
INK = (25, 25, 25)
GREY = (85, 85, 85)           # secondary text: still about 67 % black when printed in grey
RULE = (160, 160, 160)
SHADE = (232, 232, 232)       # header rows and bands
PALE = (246, 246, 246)
ALERT = (160, 20, 20)         # dark red: reads as near-black in grayscale
BAND = (214, 232, 204)        # pale green band (assistance); grey 222 in black and white


def rgb(hex_colour: str) -> tuple[int, int, int]:
    h = hex_colour.lstrip("#")
    return int(h[0:2], 16), int(h[2:4], 16), int(h[4:6], 16)


@dataclass
class Column:
    """A table column: its header, width in mm (0: share what is left), alignment, and type."""
    name: str
    width: float = 0.0
    align: str = "L"
    bold: bool = False
    size: float | None = None       # type size of the cells (the table's when None)
    grey: bool = False


class Book(Document):
    """A printed book: A4 or Letter, portrait, mm, DejaVu Sans with every symbol the books print."""

    font_family_name = FONT

    def __init__(self, paper: str = "A4", title: str = "", subject: str = ""):
        key = str(paper).strip().lower()
        if key not in PAPERS:
            raise DesignerError(f"unknown paper size {paper!r}", where="paper", hint="use A4 or Letter")
        super().__init__(PAPERS[key])
        self.set_margins(MARGIN, MARGIN, MARGIN)
        self.set_auto_page_break(True, margin=FOOTER + 4)
        self.add_font(FONT, "", str(paths.FONTS / "DejaVuSans.ttf"))
        self.add_font(FONT, "B", str(paths.FONTS / "DejaVuSans-Bold.ttf"))
        self.set_title(title)
        self.set_creator("rally-designer")
        if subject:
            self.set_subject(subject)
        self.running = title
        self.small_text = 0          # drawing labels raised to MIN_PT
        self.set_text_color(*INK)
        self.set_draw_color(*INK)
        self.alias_nb_pages()

    # -- furniture -------------------------------------------------------------------------
    def footer(self):
        self.set_y(-FOOTER)
        self.font(7, False, GREY)
        self.cell(self.epw * 0.8, 4, self.running, align="L")
        # The page count takes the alias' place when the book is written.
        self.cell(self.epw * 0.2, 4, f"page {self.page_no()}/{{nb}}", align="R")
        self.set_text_color(*INK)

    @property
    def bottom(self) -> float:
        """The lowest y a body line may reach."""
        return self.h - FOOTER - 4

    def room(self, height: float) -> bool:
        return self.get_y() + height <= self.bottom

    def need(self, height: float) -> bool:
        """Start a new page unless ``height`` mm fit; True when a page was added."""
        if self.room(height):
            return False
        self.add_page()
        return True

    # -- text --------------------------------------------------------------------------------
    def font(self, size: float, bold: bool = False, colour=INK) -> None:
        self.set_font(FONT, "B" if bold else "", max(size, MIN_PT))
        self.set_text_color(*colour)

    def heading(self, text: str, size: float = 14) -> None:
        """A bold heading ruled under, from the left margin (a :meth:`title_block` with its rule)."""
        self.title_block(text, size)

    def title_block(self, text: str, size: float = 14, rule: bool = True) -> None:
        """A bold heading that wraps onto as many lines as it needs (a long stage or race name), ruled under
        unless ``rule`` is False."""
        self.font(size, True)
        self.text_block(text, self.epw, size * 0.48, x=self.l_margin)
        if rule:
            self.set_draw_color(*INK)
            self.set_line_width(0.4)
            y = self.get_y() + 0.5
            self.line(self.l_margin, y, self.w - self.r_margin, y)
        self.ln(2.2)

    def subheading(self, text: str, size: float = 10.5) -> None:
        self.font(size, True)
        self.cell(0, size * 0.5, text, new_x="LMARGIN", new_y="NEXT")
        self.ln(0.6)

    def wrap(self, text: str, width: float) -> list[str]:
        """Lines of ``text`` no wider than ``width`` mm in the current font (greedy, on spaces).

        A word longer than the width gets a line of its own; a line break in ``text`` starts a new line."""
        font = self.current_font
        size = self.font_size_pt
        k = self.k

        def wide(s: str) -> float:
            return font.width_pt(s, size) / k

        space = wide(" ")
        out: list[str] = []
        for para in str(text).split("\n"):
            line, used = [], 0.0
            for word in para.split():
                ww = wide(word)
                if line and used + space + ww > width:
                    out.append(" ".join(line))
                    line, used = [word], ww
                else:
                    used += (space if line else 0.0) + ww
                    line.append(word)
            out.append(" ".join(line))
        return out

    def clip(self, text: str, width: float) -> str:
        """``text`` cut with an ellipsis to fit ``width`` mm in the current font (cell margins included)."""
        text = str(text)
        room = width - 2 * self.c_margin
        if self.get_string_width(text) <= room:
            return text
        while text and self.get_string_width(text + "…") > room:
            text = text[:-1]
        return text.rstrip() + "…"

    def fit_font(self, text: str, width: float, size: float, bold: bool = False, colour=INK) -> str:
        """Set the font at ``size`` or smaller (never under MIN_PT) so that ``text`` fits ``width`` mm (cell
        margins included); returns the text, cut with an ellipsis if it still does not fit."""
        room = width - 2 * self.c_margin
        self.font(size, bold, colour)
        wide = self.get_string_width(str(text))
        if wide > room and size > MIN_PT:
            self.font(max(MIN_PT, size * room / wide), bold, colour)
        return self.clip(text, width)

    def text_block(self, text: str, width: float = 0, h: float = 4.0, x: float | None = None,
                   align: str = "L") -> None:
        """Wrapped text in the current font from (x, current y); the cursor ends below it at the left margin."""
        x = self.get_x() if x is None else x
        width = width or (self.w - self.r_margin - x)
        for line in self.wrap(text, width):
            self.set_x(x)
            self.cell(width, h, line, align=align)
            self.ln(h)

    def para(self, text: str, size: float = 8.5, colour=INK, h: float | None = None, bold: bool = False) -> None:
        self.font(size, bold, colour)
        self.text_block(text, self.epw, h or max(size, MIN_PT) * 0.45, x=self.l_margin)
        self.set_text_color(*INK)

    def keyvalues(self, rows: Iterable[tuple[str, str]], key_w: float = 30, size: float = 9,
                  line: float | None = None) -> None:
        """A title block: bold keys in a column, values wrapped beside them."""
        h = line or size * 0.5
        for key, value in rows:
            self.font(size, True)
            self.cell(key_w, h, key)
            self.font(size)
            self.text_block(value, h=h)

    # -- tables ------------------------------------------------------------------------------
    def widths(self, columns: Sequence[Column], total: float | None = None) -> list[float]:
        total = self.epw if total is None else total
        fixed = sum(c.width for c in columns)
        free = [c for c in columns if not c.width]
        share = (total - fixed) / len(free) if free else 0.0
        return [c.width or share for c in columns]

    def table_header(self, columns: Sequence[Column], widths: Sequence[float], size: float = 7.5,
                     x: float | None = None) -> None:
        h = max(size, MIN_PT) * 0.5 + 1.4
        self.set_x(self.l_margin if x is None else x)
        self.font(size, True)
        self.set_fill_color(*SHADE)
        self.set_draw_color(*RULE)
        self.set_line_width(0.2)
        for c, w in zip(columns, widths):
            self.cell(w, h, c.name, border="B", fill=True, align=c.align)
        self.ln(h)

    def table(self, columns: Sequence[Column], rows: Iterable[Sequence], size: float = 8.0,
              row_h: float | None = None, x: float | None = None, total: float | None = None,
              zebra: bool = True, keep: int = 2) -> None:
        """Rows of text under a header that is repeated when the table runs onto a new page.

        A row whose value is a ``(text, dict)`` pair takes the dict as cell options (``bold``, ``grey``,
        ``fill`` an RGB tuple spanning the row). Rows are compact: the line height follows the type size.
        """
        widths = self.widths(columns, total)
        h = row_h or max(size, MIN_PT) * 0.46 + 1.0
        left = self.l_margin if x is None else x
        rows = list(rows)
        if not self.room(h * (1 + min(keep, len(rows))) + 3):
            self.add_page()
        self.table_header(columns, widths, size * 0.94, left)
        for k, row in enumerate(rows):
            if not self.room(h):
                self.add_page()
                self.table_header(columns, widths, size * 0.94, left)
            self.set_x(left)
            fill = None
            if isinstance(row, dict):
                fill, row = row.get("fill"), row["cells"]
            if fill is None and zebra and k % 2 == 1:
                fill = PALE
            if fill is not None:
                self.set_fill_color(*fill)
            for c, w, value in zip(columns, widths, row):
                opts = {}
                if isinstance(value, tuple):
                    value, opts = value
                self.font(opts.get("size", c.size or size), opts.get("bold", c.bold),
                          GREY if opts.get("grey", c.grey) else INK)
                self.cell(w, h, self.clip(value, w), align=c.align, fill=fill is not None)
            self.ln(h)
        self.set_text_color(*INK)

    # -- tables whose cells wrap ---------------------------------------------------------------
    def grid(self, columns: Sequence[Column], rows: Iterable[Sequence], size: float = 8.0,
             line_h: float | None = None, min_h: float = 0.0, x: float | None = None,
             total: float | None = None, ruled: bool = True, zebra: bool = False, pad: float = 0.8) -> None:
        """A table whose cells wrap onto as many lines as they need (a newline in a value starts a line).

        Each row is as tall as its tallest cell (``min_h`` at least: room to write in by hand) and the
        header, which wraps too, is repeated on every page the table runs onto. ``ruled`` frames every cell
        (a form); otherwise a rule runs under each row. Rows and cells take the options of :meth:`table`,
        and a cell's options may also give its own ``fill`` and text ``colour`` (RGB tuples).
        """
        widths = self.widths(columns, total)
        lh = line_h or max(size, MIN_PT) * 0.42 + 0.3
        left = self.l_margin if x is None else x
        head = [(c.name, {"bold": True, "size": size * 0.94, "grey": False}) for c in columns]
        head_h, head_cells = self._grid_row(columns, widths, head, size, lh, 0.0, pad)
        rows = list(rows)
        if not rows:
            self.need(head_h)
            self._grid_draw(left, widths, head_cells, head_h, lh, SHADE, ruled)
        for k, row in enumerate(rows):
            fill = None
            if isinstance(row, dict):
                fill, row = row.get("fill"), row["cells"]
            if fill is None and zebra and k % 2 == 1:
                fill = PALE
            h, cells = self._grid_row(columns, widths, row, size, lh, min_h, pad)
            if k == 0 or not self.room(h):
                if not self.room(head_h + h) and (k or self.get_y() > self.t_margin + 0.1):
                    self.add_page()
                self._grid_draw(left, widths, head_cells, head_h, lh, SHADE, ruled)
            self._grid_draw(left, widths, cells, h, lh, fill, ruled)
        self.set_text_color(*INK)
        self.set_draw_color(*INK)

    def _grid_row(self, columns, widths, row, size, lh, min_h, pad):
        """(height, [(lines, font size, bold, colour, fill, align)]) of one row of :meth:`grid`."""
        cells, most = [], 1
        for c, w, value in zip(columns, widths, row):
            opts = {}
            if isinstance(value, tuple):
                value, opts = value
            pt = opts.get("size", c.size or size)
            bold = opts.get("bold", c.bold)
            colour = opts.get("colour", GREY if opts.get("grey", c.grey) else INK)
            self.font(pt, bold, colour)
            room = w - 2 * self.c_margin
            widest = max((self.get_string_width(word) for word in str(value).split()), default=0.0)
            if widest > room and pt > MIN_PT:          # a word wider than its column: smaller type first
                pt = max(MIN_PT, pt * room / widest * 0.995)
                self.font(pt, bold, colour)
            lines = [self.clip(line, w) for line in self.wrap(str(value), room)]
            most = max(most, len(lines))
            cells.append((lines, pt, bold, colour, opts.get("fill"), c.align))
        return max(min_h, most * lh + 2 * pad), cells

    def _grid_draw(self, left, widths, cells, h, lh, fill, ruled) -> None:
        y = self.get_y()
        x = left
        self.set_line_width(0.2)
        self.set_draw_color(*RULE)
        for w, (lines, pt, bold, colour, own_fill, align) in zip(widths, cells):
            paint = own_fill or fill
            if paint is not None:
                self.set_fill_color(*paint)
                self.rect(x, y, w, h, "F")
            self.font(pt, bold, colour)
            top = y + (h - len(lines) * lh) / 2
            for n, line in enumerate(lines):
                self.set_xy(x, top + n * lh)
                self.cell(w, lh, line, align=align)
            if ruled:
                self.rect(x, y, w, h, "D")
            x += w
        if not ruled:
            self.line(left, y + h, x, y + h)
        self.set_xy(self.l_margin, y + h)

    # -- drawings ----------------------------------------------------------------------------
    def svg(self, svg: str, x: float, y: float, w: float, h: float, align: str = "C",
            max_scale: float | None = None) -> tuple[float, float]:
        """Place a vector drawing scaled to fit the box; returns the size used (mm)."""
        return pdfsvg.place(self, svg, x, y, w, h, align=align, max_scale=max_scale)

    def drawing(self, svg: str, x: float, y: float, w: float, h: float, align: str = "C",
                max_scale: float | None = None, min_pt: float = MIN_PT) -> tuple[float, float]:
        """Like :meth:`svg` for a drawing made for screens (:func:`plain_svg` first): returns the size used."""
        return pdfsvg.place(self, plain_svg(svg), x, y, w, h, align=align, max_scale=max_scale, min_pt=min_pt)

    def dot(self, x: float, y: float, fill, r: float = 1.3) -> None:
        """A filled disc with a dark ring (visible in grayscale whatever its colour)."""
        self.set_fill_color(*(rgb(fill) if isinstance(fill, str) else fill))
        self.set_draw_color(*INK)
        self.set_line_width(0.25)
        self.circle(x, y, r, style="DF")

    def band(self, text: str, size: float = 7.5, fill=SHADE, bold: bool = False, colour=INK,
             h: float | None = None) -> None:
        """A full-width shaded line of text (a note between rows)."""
        self.set_fill_color(*fill)
        self.font(size, bold, colour)
        self.cell(0, h or max(size, MIN_PT) * 0.5 + 1.2, text, fill=True, new_x="LMARGIN", new_y="NEXT")
        self.set_text_color(*INK)

    def rule(self, y: float | None = None, colour=RULE, width: float = 0.2) -> None:
        y = self.get_y() if y is None else y
        self.set_draw_color(*colour)
        self.set_line_width(width)
        self.line(self.l_margin, y, self.w - self.r_margin, y)
        self.set_draw_color(*INK)


_INHERITED = ("fill", "fill-opacity", "stroke", "stroke-width", "stroke-opacity", "stroke-dasharray",
              "stroke-linecap", "stroke-linejoin", "font-size", "font-weight", "font-family", "text-anchor")
_LENGTHS = {"x": 0, "width": 0, "x1": 0, "x2": 0, "cx": 0, "y": 1, "height": 1, "y1": 1, "y2": 1, "cy": 1}


def plain_svg(svg: str) -> str:
    """``svg`` with everything the drawing placement reads from an element written on the element itself:
    the presentation attributes a group or the root sets are copied onto the elements that do not set their
    own, and lengths in % of the view box (a background ``width="100%"``) become numbers. An SVG that does
    not parse is returned as it is (the placement reports it)."""
    import xml.etree.ElementTree as ET

    try:
        root = ET.fromstring(svg)
    except ET.ParseError:
        return svg
    box = pdfsvg.viewbox(svg)[2:]

    def walk(el, inherited: dict) -> None:
        for name, value in inherited.items():
            if name not in el.attrib:
                el.set(name, value)
        for name, axis in _LENGTHS.items():
            value = el.get(name)
            if value and value.strip().endswith("%"):
                el.set(name, f"{float(value.strip()[:-1]) / 100 * box[axis]:g}")
        passed = {**inherited, **{a: el.get(a) for a in _INHERITED if a in el.attrib}}
        for child in el:
            walk(child, passed)

    walk(root, {})
    return ET.tostring(root, encoding="unicode")


def new_book(paper: str = "A4", title: str = "", subject: str = "") -> Book:
    """A new book (raises DesignerError for a paper size other than A4 and Letter)."""
    return Book(paper, title, subject)


def finish(book: Book, path: str | Path | None = None) -> bytes:
    """The PDF bytes, also written (all at once) to ``path`` when given."""
    data = book.output()
    if path is not None:
        files.write_atomic(path, data, suffixes=[".pdf"], what="road book")
    return data


__all__ = ["Book", "Column", "new_book", "finish", "rgb", "PAPERS", "MIN_PT", "FONT", "INK", "GREY", "RULE",
           "SHADE", "PALE", "ALERT", "BAND", "plain_svg"]
