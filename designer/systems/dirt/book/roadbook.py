"""The printable road book of a DIRT stage or rally (PDF): what an organiser hands to the players.

For each stage, from a new page, in this order (a short section follows the one before it on the same page
when it fits, :mod:`.flow`):

1. title block and map: rally, stage, surface, options, tiles, length, expected and ideal time, table time,
   assistance, boxes, table space; the map at cell level with tiles numbered in driving order;
2. build sheet (:mod:`.build`): pick list by tile number, what to change from the stage before, and
   each tile drawn as laid with the corner where its printed number goes;
3. pace notes (:mod:`.notes`): one compact row per call, in driving order, and the sums of the seconds columns;
4. line and times (:mod:`.line`): expected time as the headline, the ideal time beside it, the risk,
   the assumed values, the line's map with T1..Tn at each turn's end and the turns in words.

A rally adds a cover (:mod:`.rally`) and every book ends with the rally sheet (six players).
``lines=False`` makes a book for competitive play: no line page and no times (the table time stays).

The pages are laid out with :mod:`designer.core.pdfkit`; drawings are vector (:mod:`designer.core.pdfsvg`).

Public functions: :func:`stage_roadbook`, :func:`rally_roadbook`, :func:`roadbook`.
"""
from __future__ import annotations

import re
from pathlib import Path

from designer.core import paths
from designer.core.errors import DesignerError
from designer.core.pdfkit import ALERT, GREY, INK, PAPERS, Book, finish, new_book
from designer.systems.dirt.board.stage import Rally, Stage, is_rally_file, load_rally, load_stage
from designer.systems.dirt.board.validate import footprint
from designer.systems.dirt.book.build import build_rows, build_sheet
from designer.systems.dirt.book.draw import map_svg, tile_svg
from designer.systems.dirt.book.facts import (FastestLine, StageFacts, Turn, clock, fastest_line, minutes,
                                              options_text, stage_facts, stage_label)
from designer.systems.dirt.book.flow import measured, open_section, room_below
from designer.systems.dirt.book.line import line_section
from designer.systems.dirt.book.notes import pace_notes_page
from designer.systems.dirt.book.rally import rally_cover, rally_sheet, simulated_table

FONT_DIR = paths.FONTS
MAP_MAX_SCALE = 0.25
NOTES_FIRST = 8          # pace-note rows that must fit under the build sheet for the notes to start there
NOTES_LAST = 4           # and rows (or the sums under them) left for the next page
# Sentences of a stage's notes written for the data's authors, not for players.
_AUTHOR_NOTE = re.compile(r"reference facts|\bR\d+\b|\.py\b|designer\.|\bsection \d", re.I)


def player_notes(text: str | None) -> str:
    """A stage's notes without the sentences that point at the data's sources."""
    if not text:
        return ""
    sentences = re.split(r"(?<=[.!?])\s+", " ".join(str(text).split()))
    return " ".join(s for s in sentences if not _AUTHOR_NOTE.search(s))


def _time_text(f: StageFacts) -> str | None:
    if not f.lines:
        return None
    line = f.fastest
    if line is None or line.game_seconds is None:
        return "not available" + (f": {f.fastest_missing}" if f.fastest_missing else "")
    turns = f" in {len(line.turns)} turns" if line.turns else ""
    if line.expected is not None:
        spread = f" ± {clock(line.expected.spread)} (one standard deviation)" if line.expected.spread else ""
        return (f"expected {clock(line.expected.seconds)}{spread} under the dice; ideal {clock(line.game_seconds)}"
                f"{turns} (no hazard rolled); assumed values: see the line page")
    return f"ideal {clock(line.game_seconds)}{turns}, no hazard rolled (assumed time cards: see the line page)"


def title_page(pdf: Book, f: StageFacts, rally_name: str | None, position: int | None, count: int | None,
               last: bool = True) -> None:
    s = f.stage
    pdf.add_page()
    label = stage_label(s, position)
    rally = rally_name or (s.rally.name if s.rally and s.rally.name else None)
    pdf.running = " · ".join(x for x in [rally if rally and rally not in s.name else None, label, s.name] if x)
    pdf.font(8, False, GREY)
    pdf.cell(0, 4.5, "ROAD BOOK · Rallyman: DIRT", new_x="LMARGIN", new_y="NEXT")
    pdf.font(18, True)
    pdf.text_block(s.name, h=8)
    numbered = label != "Stage"
    stage_text = (label + (f" of {count}" if count else "")) if numbered else "single stage"
    t = f.track
    tiles_text = f"{f.road_tiles} road tiles" + (" + assistance" if t.has_assistance else "")
    fp = footprint(t)
    if f.assistance:
        assistance = "after this stage: every damage token off, spare wheel card back"
    elif last:
        assistance = "none (last stage)"
    else:
        assistance = "none after this stage: damage and a used spare wheel carry over to the next"
    rows = [("Rally", rally or "–"), ("Stage", stage_text),
            ("Surface", s.surface or (t.tiles[0].face.terrain if t.tiles and t.tiles[0].face.terrain else "–")),
            ("Options", options_text(s)), ("Tiles", tiles_text),
            ("Length", f"{f.length} cells (shortest line, start to finish)" if f.length is not None else "–")]
    time_text = _time_text(f)
    if time_text:
        rows.append(("Time", time_text))
    rows += [("Table time", f"≈ {minutes(f.table_minutes)} for {f.players} players ({f.table_basis})"
              if f.table_minutes else "–"),
             ("Assistance", assistance), ("Boxes", ", ".join(f.boxes) or "–"),
             ("Table space", f"{fp.width_cm:g} × {fp.height_cm:g} cm ({fp.tiles} tiles of {fp.tile_cm:g} cm "
                             "across the flats: an assumed tile size, measure yours)")]
    pdf.keyvalues(rows, key_w=25, size=8.5, line=4.4)
    if f.problems:
        pdf.ln(1)
        pdf.font(9, True, ALERT)
        pdf.cell(0, 5, "This stage is not legal:", new_x="LMARGIN", new_y="NEXT")
        pdf.font(8, False, ALERT)
        for p in f.problems[:8]:
            pdf.text_block(f"• {p}", h=4)
        pdf.set_text_color(*INK)
    notes = player_notes(s.notes)
    if notes:
        pdf.ln(0.5)
        pdf.para(notes, 7.2, GREY, 3.3)
    pdf.ln(1.5)
    overview_map(pdf, f)


def overview_map(pdf: Book, f: StageFacts) -> None:
    if not f.track.tiles:
        pdf.para("The stage has no tile yet.")
        return
    top = pdf.get_y()
    avail = pdf.bottom - top - 9
    if avail < 90:
        pdf.add_page()
        top = pdf.get_y()
        avail = pdf.bottom - top - 9
    svg, limits = map_svg(f.track, pdf.epw, avail, MAP_MAX_SCALE)
    _, dh = pdf.svg(svg, pdf.l_margin, top, pdf.epw, avail, max_scale=MAP_MAX_SCALE)
    pdf.set_y(top + dh + 1.5)
    legend = ("Tiles numbered in driving order (black discs) with their face. "
              + ("Circled numbers: speed limits; C n: cut and its limit; chevron n: jump; waves: ford; "
                 if limits else "This stage is too large for its limits to print legibly here: they are in the "
                                "pace notes and on the build sheet's drawings. ")
              + "dashed cross line: slide row; dots at the road ends: the tile's danger colour.")
    pdf.para(legend, 6.8, GREY, 3.1)


def stage_pages(pdf: Book, f: StageFacts, rally_name=None, position=None, count=None, previous=None,
                last: bool = True) -> None:
    title_page(pdf, f, rally_name, position, count, last)
    prev_label = stage_label(previous.stage, position - 1) if previous is not None and position else None
    # The pace notes and the line page follow what is before them on its page when they fit (flow.py): the
    # build sheet's cards shrink a little when that makes room for all the pace notes under them; else the
    # notes start there when their first NOTES_FIRST rows fit and run onto the next page.
    notes_h, ends = measured(pdf, f, "notes", lambda b: pace_notes_page(b, f))
    build_sheet(pdf, f, previous, prev_label, reserve=notes_h or 0.0)
    ends = ends or []
    # a split leaves NOTES_LAST rows at least for the next page (else the notes start on a page of their own)
    first = ends[NOTES_FIRST - 1] if len(ends) >= NOTES_FIRST + NOTES_LAST else notes_h
    open_section(pdf, notes_h if notes_h is not None and room_below(pdf) >= notes_h else first)
    pace_notes_page(pdf, f, new_page=False)
    if f.lines:
        line_section(pdf, f)


def _book(paper: str, title: str) -> Book:
    return new_book(paper, title, "Rallyman: DIRT road book")


def stage_roadbook(stage: Stage, path=None, paper: str = "A4", *, near: Path | None = None,
                   players: int | None = None, lines: bool = True, expected: bool = False,
                   analysis: dict | None = None) -> bytes:
    """The road book of one stage as PDF bytes; also written to ``path`` when given.

    Parameters
    ----------
    stage : Stage
    path : str or Path or None
        Where to write the PDF (None: only return the bytes, e.g. for a download button).
    paper : "A4" or "Letter"
    near : Path, optional
        Folder of the stage file, to find a tileset named relative to it.
    players : int, optional
        Players at the table (default: the stage's, or 4).
    lines : bool
        False for competitive play: no line page and no game times.
    expected : bool
        Also solve the expected time under the dice, printed as the headline (tens of seconds a stage).
    analysis : dict, optional
        The stage's :func:`designer.systems.dirt.analysis.analyze` result when one is at hand (the app's):
        read instead of searching again, with its expected time if it has one.
    """
    facts = stage_facts(stage, near=near, players=players, lines=lines, expected=expected, analysis=analysis)
    pdf = _book(paper, stage.name)
    rally = stage.rally.name if stage.rally and stage.rally.name else None
    stage_pages(pdf, facts, rally_name=rally)
    rally_sheet(pdf, rally or stage.name, [facts])
    return finish(pdf, path)


def rally_roadbook(rally: Rally, path=None, paper: str = "A4", *, near: Path | None = None,
                   players: int | None = None, lines: bool = True, expected: bool = False) -> bytes:
    """The road book of a rally: cover with the stages and assistance, every stage, the rally sheet
    (``lines`` and ``expected`` as for :func:`stage_roadbook`)."""
    if not rally.stages:
        raise DesignerError("the rally has no stage", where=rally.source or rally.name,
                            hint="list stage files under `stages:`")
    if near is None and rally.source:
        near = Path(rally.source).resolve().parent
    facts = [stage_facts(s, near=near, players=players, lines=lines, expected=expected) for s in rally.stages]
    contents = None
    table = simulated_table(facts)          # the rally raced by the table's cars: one table time, cover and sheet
    for _ in range(3):          # the cover lists the pages: typeset again until they no longer move
        pdf = _book(paper, rally.name)
        rally_cover(pdf, rally, facts, contents, table)
        found = []
        for k, f in enumerate(facts, start=1):
            found.append((f"{stage_label(f.stage, k)} · {f.stage.name}", pdf.page_no() + 1))
            stage_pages(pdf, f, rally_name=rally.name, position=k, count=len(facts),
                        previous=facts[k - 2] if k > 1 else None, last=k == len(facts))
        found.append(("Rally sheet", pdf.page_no() + 1))
        if found == contents:
            break
        contents = found
    rally_sheet(pdf, rally.name, facts, table=table)
    return finish(pdf, path)


def roadbook(path, out=None, paper: str = "A4", players: int | None = None, *, lines: bool = True,
             expected: bool = False) -> bytes:
    """The road book of a stage file or a rally file (``stages: [...]``), written to ``out``."""
    p = Path(path)
    if not p.is_file():
        raise DesignerError("no such file", where=str(p), hint="give a stage file (ss1.yaml) or a rally file (rally.yaml)")
    if is_rally_file(p):
        return rally_roadbook(load_rally(p), out, paper, near=p.resolve().parent, players=players, lines=lines,
                              expected=expected)
    return stage_roadbook(load_stage(p), out, paper, near=p.resolve().parent, players=players, lines=lines,
                          expected=expected)


__all__ = ["stage_roadbook", "rally_roadbook", "roadbook", "stage_facts", "StageFacts", "FastestLine", "Turn",
           "fastest_line", "build_rows", "tile_svg", "map_svg", "clock", "PAPERS", "player_notes"]
