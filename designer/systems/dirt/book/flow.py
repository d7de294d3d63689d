"""Sections of a road book that share a page.

A stage's sections each used to start a page of their own, which left short ones (the pace notes of a short
stage, often a quarter of a page) alone on nearly empty pages. A section now starts below the one before it
when all of it fits there, after a gap and a rule; otherwise it starts a new page, so that no section is split
between the bottom of one page and the top of the next only to save paper.

How tall a section is, is found by drawing it alone on a page of a scratch book of the same paper
(:func:`height_alone`): the sections measure themselves with the same code that draws them.
"""
from __future__ import annotations

from typing import Callable

from designer.core.pdfdoc import PAGE_MM
from designer.core.pdfkit import Book, new_book

GAP = 6.0           # mm between two sections on one page, with a rule in its middle


def paper_of(pdf: Book) -> str:
    """The paper name (``A4``, ``Letter``) of a book."""
    return next((name for name, size in PAGE_MM.items() if size == (pdf.w, pdf.h)), "A4")


def height_alone(pdf: Book, draw: Callable[[Book], object]) -> float | None:
    """The height (mm) a section takes from the top of a page of ``pdf``'s paper, or None when it runs onto a
    second page. ``draw(book)`` starts its own page in the scratch book."""
    probe = new_book(paper_of(pdf))
    probe.running = pdf.running
    draw(probe)
    if probe.page_no() != 1:
        return None
    return probe.get_y() - probe.t_margin


def measured(pdf: Book, owner, key: str, draw: Callable[[Book], object]) -> tuple[float | None, object]:
    """:func:`height_alone` of a section and what its ``draw`` returned, kept on ``owner`` (the stage's facts)
    per paper: a rally's book is typeset more than once to number its contents, the sections do not change."""
    memo = owner.__dict__.setdefault("_section_heights", {})
    k = (paper_of(pdf), key)
    if k not in memo:
        got: dict = {}
        height = height_alone(pdf, lambda b: got.setdefault("value", draw(b)))
        memo[k] = (height, got.get("value"))
    return memo[k]


def room_below(pdf: Book) -> float:
    """The height left on the current page for a section that would start on it (0 on an empty book)."""
    if not pdf.page_no():
        return 0.0
    return pdf.bottom - pdf.get_y() - GAP


def open_section(pdf: Book, height: float | None) -> bool:
    """Start a section ``height`` mm tall: below what the page holds when it fits, after a rule; else on a
    new page (``height`` None: a section of more than a page). True when the section shares the page."""
    if height is not None and pdf.page_no() and pdf.get_y() > pdf.t_margin + 1 and room_below(pdf) >= height:
        pdf.ln(GAP / 2)
        pdf.rule(width=0.35)
        pdf.ln(GAP / 2)
        return True
    pdf.add_page()
    return False


__all__ = ["height_alone", "measured", "open_section", "room_below", "paper_of", "GAP"]
