"""TrueType fonts for the page kit's PDF writer: read what a PDF needs from a .ttf (character map, advance
widths, the descriptor's metrics), measure and encode text, and embed only the glyphs a book used.

The font is embedded as a CID-keyed font (Type0 / CIDFontType2, Identity-H): every character is written as
its glyph number, so text needs no code page and any character the font has prints. The embedded program
keeps the glyph numbering of the file and empties every glyph the book does not use (composite glyphs keep
their parts), which keeps it small without renumbering anything. A ToUnicode map makes the text searchable
and copyable (pdftotext reads it).

Reading is plain :mod:`struct` work on the tables a PDF needs (head, hhea, maxp, hmtx, cmap, loca, glyf,
OS/2, post), done once per file and process.

>>> f = TrueType.load(paths.FONTS / "DejaVuSans.ttf")
>>> f.width_pt("Left 3", 10) > 0, FontUse(f, 1, bold=False).encode("A")
(True, '<0024>')
"""
from __future__ import annotations

import struct
import zlib
from functools import lru_cache
from pathlib import Path

from designer.core import paths  # noqa: F401  (used by the doctest)
from designer.core.errors import DesignerError

# Tables a PDF viewer needs from an embedded TrueType program (PDF 1.7, 9.9).
_EMBED = ("head", "hhea", "maxp", "hmtx", "loca", "glyf", "cvt ", "fpgm", "prep")
# Composite glyph flags (OpenType 'glyf').
_WORDS, _SCALE, _MORE, _XY_SCALE, _TWO_BY_TWO = 0x0001, 0x0008, 0x0020, 0x0040, 0x0080


def _checksum(data: bytes) -> int:
    data += b"\0" * (-len(data) % 4)
    return sum(struct.unpack(f">{len(data) // 4}I", data)) & 0xFFFFFFFF


class TrueType:
    """One TrueType file, read once: its metrics, character map and glyph programs (no state per book)."""

    def __init__(self, path: Path, data: bytes):
        self.path = path
        self.data = data
        try:
            self._read()
        except (struct.error, KeyError, IndexError) as exc:
            raise DesignerError(f"the font file cannot be read ({exc})", where=str(path),
                                hint="use a TrueType (.ttf) font with glyf outlines") from exc

    @classmethod
    def load(cls, path) -> "TrueType":
        return _load(str(Path(path).resolve()))

    # -- reading ---------------------------------------------------------------------------
    def _read(self) -> None:
        d = self.data
        count = struct.unpack_from(">H", d, 4)[0]
        self.tables: dict[str, tuple[int, int]] = {}
        for k in range(count):
            tag, _, off, length = struct.unpack_from(">4sIII", d, 12 + 16 * k)
            self.tables[tag.decode("latin-1")] = (off, length)
        if "glyf" not in self.tables:
            raise KeyError("no 'glyf' table (CFF fonts are not supported)")
        head = self.tables["head"][0]
        self.upem = struct.unpack_from(">H", d, head + 18)[0]
        self.bbox = struct.unpack_from(">4h", d, head + 36)
        self.long_loca = struct.unpack_from(">h", d, head + 50)[0] == 1
        hhea = self.tables["hhea"][0]
        self.ascent, self.descent = struct.unpack_from(">hh", d, hhea + 4)
        n_metrics = struct.unpack_from(">H", d, hhea + 34)[0]
        self.glyphs = struct.unpack_from(">H", d, self.tables["maxp"][0] + 4)[0]
        hmtx = self.tables["hmtx"][0]
        pairs = struct.unpack_from(f">{2 * n_metrics}H", d, hmtx)
        adv = list(pairs[0::2])
        adv += [adv[-1]] * (self.glyphs - n_metrics)
        self.advance = adv
        post = self.tables.get("post")
        self.italic = struct.unpack_from(">i", d, post[0] + 4)[0] / 65536 if post else 0.0
        os2 = self.tables.get("OS/2")
        self.weight = struct.unpack_from(">H", d, os2[0] + 4)[0] if os2 else 400
        self.cmap = self._cmap()
        loca_off = self.tables["loca"][0]
        if self.long_loca:
            self.loca = struct.unpack_from(f">{self.glyphs + 1}I", d, loca_off)
        else:
            self.loca = tuple(2 * v for v in struct.unpack_from(f">{self.glyphs + 1}H", d, loca_off))
        self.name = Path(self.path).stem.replace(" ", "")
        self._widths: dict[str, float] = {}

    def _cmap(self) -> dict[int, int]:
        d = self.data
        base = self.tables["cmap"][0]
        count = struct.unpack_from(">H", d, base + 2)[0]
        subtables = {}
        for k in range(count):
            platform, encoding, off = struct.unpack_from(">HHI", d, base + 4 + 8 * k)
            subtables[(platform, encoding)] = base + off
        out: dict[int, int] = {}
        for key in ((3, 10), (0, 4), (3, 1), (0, 3)):
            off = subtables.get(key)
            if off is None:
                continue
            fmt = struct.unpack_from(">H", d, off)[0]
            if fmt == 12:
                groups = struct.unpack_from(">I", d, off + 12)[0]
                for g in range(groups):
                    start, end, gid = struct.unpack_from(">III", d, off + 16 + 12 * g)
                    for c in range(start, end + 1):
                        out[c] = gid + c - start
                return out
            if fmt == 4:
                segs = struct.unpack_from(">H", d, off + 6)[0] // 2
                ends = struct.unpack_from(f">{segs}H", d, off + 14)
                starts = struct.unpack_from(f">{segs}H", d, off + 16 + 2 * segs)
                deltas = struct.unpack_from(f">{segs}h", d, off + 16 + 4 * segs)
                ro_base = off + 16 + 6 * segs
                offsets = struct.unpack_from(f">{segs}H", d, ro_base)
                for s in range(segs):
                    for c in range(starts[s], ends[s] + 1):
                        if c == 0xFFFF:
                            continue
                        if offsets[s] == 0:
                            gid = (c + deltas[s]) & 0xFFFF
                        else:
                            at = ro_base + 2 * s + offsets[s] + 2 * (c - starts[s])
                            gid = struct.unpack_from(">H", d, at)[0]
                            gid = (gid + deltas[s]) & 0xFFFF if gid else 0
                        if gid:
                            out[c] = gid
                return out
        raise KeyError("no Unicode character map")

    # -- text ------------------------------------------------------------------------------
    def width_pt(self, text: str, size_pt: float) -> float:
        """Width of ``text`` at ``size_pt`` in points (advance widths, no kerning)."""
        cache = self._widths
        total = 0.0
        for ch in text:
            w = cache.get(ch)
            if w is None:
                w = cache[ch] = self.advance[self.cmap.get(ord(ch), 0)] / self.upem
            total += w
        return total * size_pt

    def glyph(self, ch: str) -> int:
        return self.cmap.get(ord(ch), 0)

    def pdf_width(self, gid: int) -> int:
        return round(self.advance[gid] * 1000 / self.upem)

    # -- embedding -------------------------------------------------------------------------
    def _glyph_data(self, gid: int) -> bytes:
        start, end = self.loca[gid], self.loca[gid + 1]
        off = self.tables["glyf"][0]
        return self.data[off + start: off + end]

    def _with_parts(self, gids) -> set[int]:
        """The glyphs and, for composite glyphs, the glyphs they are built from."""
        todo, seen = list(gids), {0}
        while todo:
            g = todo.pop()
            if g in seen or not 0 <= g < self.glyphs:
                continue
            seen.add(g)
            data = self._glyph_data(g)
            if len(data) < 10 or struct.unpack_from(">h", data, 0)[0] >= 0:
                continue
            at = 10
            while True:
                flags, part = struct.unpack_from(">HH", data, at)
                todo.append(part)
                at += 4 + (4 if flags & _WORDS else 2)
                at += 2 if flags & _SCALE else 4 if flags & _XY_SCALE else 8 if flags & _TWO_BY_TWO else 0
                if not flags & _MORE:
                    break
        return seen

    def subset(self, gids) -> bytes:
        """A TrueType program with the same glyph numbers where only ``gids`` (and their parts) have outlines."""
        keep = self._with_parts(gids)
        glyf = bytearray()
        loca = [0]
        for g in range(self.glyphs):
            if g in keep:
                data = self._glyph_data(g)
                glyf += data + b"\0" * (-len(data) % 4)
            loca.append(len(glyf))
        tables = {}
        for tag in _EMBED:
            if tag == "glyf":
                tables[tag] = bytes(glyf)
            elif tag == "loca":
                tables[tag] = struct.pack(f">{len(loca)}I", *loca)
            elif tag in self.tables:
                off, length = self.tables[tag]
                tables[tag] = self.data[off: off + length]
        head = bytearray(tables["head"])
        head[8:12] = b"\0\0\0\0"                              # checksum adjustment, set below
        head[50:52] = struct.pack(">h", 1)                      # long offsets in loca
        tables["head"] = bytes(head)
        return _sfnt(tables)


def _sfnt(tables: dict[str, bytes]) -> bytes:
    tags = sorted(tables)
    n = len(tags)
    power = 1
    while power * 2 <= n:
        power *= 2
    header = struct.pack(">IHHHH", 0x00010000, n, power * 16, power.bit_length() - 1, n * 16 - power * 16)
    directory, body = b"", b""
    offset = 12 + 16 * n
    for tag in tags:
        data = tables[tag]
        directory += struct.pack(">4sIII", tag.encode("latin-1"), _checksum(data), offset + len(body), len(data))
        body += data + b"\0" * (-len(data) % 4)
    font = bytearray(header + directory + body)
    head_at = offset + sum(len(tables[t]) + (-len(tables[t]) % 4) for t in tags[:tags.index("head")])
    font[head_at + 8: head_at + 12] = struct.pack(">I", (0xB1B0AFBA - _checksum(bytes(font))) & 0xFFFFFFFF)
    return bytes(font)


@lru_cache(maxsize=8)
def _load(path: str) -> TrueType:
    p = Path(path)
    if not p.is_file():
        raise DesignerError("font file not found", where=path, hint="the bundled fonts are in designer/fonts/")
    return TrueType(p, p.read_bytes())


class FontUse:
    """A font as one book uses it: its resource number, the glyphs its text used (for embedding)."""

    def __init__(self, font: TrueType, index: int, bold: bool):
        self.font = font
        self.i = index
        self.bold = bold
        self.used: dict[int, str] = {}           # glyph -> character (ToUnicode)
        self._hex: dict[str, str] = {}           # character -> its glyph number in hex (already marked used)

    def width_pt(self, text: str, size_pt: float) -> float:
        return self.font.width_pt(text, size_pt)

    def encode(self, text: str) -> str:
        """``text`` as a PDF hex string of glyph numbers (Identity-H), its glyphs marked as used."""
        known = self._hex
        try:
            return "<" + "".join([known[ch] for ch in text]) + ">"
        except KeyError:
            pass
        used, cmap = self.used, self.font.cmap
        for ch in text:
            if ch not in known:
                g = cmap.get(ord(ch), 0)
                used.setdefault(g, ch)
                known[ch] = f"{g:04X}"
        return "<" + "".join([known[ch] for ch in text]) + ">"

    def objects(self, first: int) -> list[bytes]:
        """The PDF objects of this font, numbered from ``first``: Type0, CIDFont, descriptor, program,
        ToUnicode. The Type0 font is object ``first``."""
        f = self.font
        scale = 1000 / f.upem
        gids = sorted(self.used)
        tag = "".join(chr(65 + (zlib.crc32(repr((f.name, gids)).encode()) >> (5 * k)) % 26) for k in range(6))
        name = f"{tag}+{f.name}"
        widths = " ".join(f"{g} [{f.pdf_width(g)}]" for g in gids)
        raw = f.subset(gids)
        program = zlib.compress(raw, 6)
        bbox = " ".join(str(round(v * scale)) for v in f.bbox)
        ascent, descent = round(f.ascent * scale), round(f.descent * scale)
        flags = 4 | (1 << 18 if self.bold else 0)
        cmap = _to_unicode({g: ch for g, ch in self.used.items() if g})
        n = first
        return [
            f"<< /Type /Font /Subtype /Type0 /BaseFont /{name} /Encoding /Identity-H "
            f"/DescendantFonts [{n + 1} 0 R] /ToUnicode {n + 4} 0 R >>".encode(),
            f"<< /Type /Font /Subtype /CIDFontType2 /BaseFont /{name} "
            f"/CIDSystemInfo << /Registry (Adobe) /Ordering (Identity) /Supplement 0 >> "
            f"/FontDescriptor {n + 2} 0 R /DW 600 /W [{widths}] /CIDToGIDMap /Identity >>".encode(),
            f"<< /Type /FontDescriptor /FontName /{name} /Flags {flags} /FontBBox [{bbox}] "
            f"/ItalicAngle {f.italic:g} /Ascent {ascent} /Descent {descent} /CapHeight {ascent} "
            f"/StemV {165 if self.bold else 87} /MissingWidth 600 /FontFile2 {n + 3} 0 R >>".encode(),
            _stream(program, f"/Filter /FlateDecode /Length1 {len(raw)}"),
            _stream(zlib.compress(cmap.encode(), 6), "/Filter /FlateDecode"),
        ]


def _stream(data: bytes, extra: str = "") -> bytes:
    return f"<< {extra} /Length {len(data)} >>\nstream\n".encode() + data + b"\nendstream"


def _utf16(ch: str) -> str:
    return ch.encode("utf-16-be").hex().upper()


def _to_unicode(glyphs: dict[int, str]) -> str:
    lines = ["/CIDInit /ProcSet findresource begin", "12 dict begin", "begincmap",
             "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
             "/CMapName /Adobe-Identity-UCS def", "/CMapType 2 def",
             "1 begincodespacerange", "<0000> <FFFF>", "endcodespacerange"]
    items = sorted(glyphs.items())
    for k in range(0, len(items), 100):
        chunk = items[k:k + 100]
        lines.append(f"{len(chunk)} beginbfchar")
        lines += [f"<{g:04X}> <{_utf16(ch)}>" for g, ch in chunk]
        lines.append("endbfchar")
    lines += ["endcmap", "CMapName currentdict /CMap defineresource pop", "end", "end"]
    return "\n".join(lines)


__all__ = ["TrueType", "FontUse"]
