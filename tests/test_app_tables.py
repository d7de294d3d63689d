"""The one editable-table pattern: the frame given to the editor stays the same object while the table's own edits
come back, and the editor starts afresh (a new key, a new frame) only with another document or an outside change.
The editor itself is driven in the browser tests (test_*_browser.py); here it is replaced by a stand-in that
applies a user's edits to the frame it is given, as Streamlit's does, without touching that frame."""
from __future__ import annotations

import pandas as pd
import pytest

from designer.app import tables


class Editor:
    """Streamlit's data_editor as seen by the page: per key, the user's edits, applied to a copy of the input."""

    def __init__(self):
        self.edits: dict[str, dict[tuple[int, str], object]] = {}
        self.calls: list[tuple[str, int]] = []

    def __call__(self, frame: pd.DataFrame, key: str, **options) -> pd.DataFrame:
        self.calls.append((key, id(frame)))
        out = frame.copy()
        for (row, col), value in self.edits.get(key, {}).items():
            out.loc[row, col] = value
        return out


@pytest.fixture
def editor(monkeypatch):
    fake = Editor()
    monkeypatch.setattr(tables, "ss", {})
    monkeypatch.setattr(tables.st, "data_editor", fake)
    return fake


def test_edits_accumulate_on_one_frame_and_one_key(editor):
    doc = [{"name": "Oak", "count": 3}, {"name": "Elm", "count": 4}]
    doc = tables.editable("t", 1, doc, ["name", "count"])
    key, frame = editor.calls[-1]
    editor.edits[key] = {(0, "count"): 7}
    doc = tables.editable("t", 1, doc, ["name", "count"])
    assert doc[0]["count"] == 7
    editor.edits[key][(1, "name")] = "Ash"                # a second edit, the first one still there
    doc = tables.editable("t", 1, doc, ["name", "count"])
    assert [r["count"] for r in doc] == [7, 4] and doc[1]["name"] == "Ash"
    assert {c for c in editor.calls} == {(key, frame)}     # never a new frame, never a new key


def test_another_document_or_an_outside_change_starts_afresh(editor):
    doc = tables.editable("t", 1, [{"name": "Oak"}], ["name"])
    first = editor.calls[-1]
    tables.editable("t", 2, doc, ["name"])                 # another document, even with the same rows
    second = editor.calls[-1]
    assert second[0] != first[0]
    tables.editable("t", 2, [{"name": "Pine"}], ["name"])  # the part changed elsewhere (a click on the map)
    third = editor.calls[-1]
    assert third[0] not in (first[0], second[0])
    tables.restart("t")
    tables.editable("t", 2, [{"name": "Pine"}], ["name"])
    assert editor.calls[-1][0] not in (first[0], second[0], third[0])


def test_a_part_made_from_the_rows_counts_as_the_tables_own(editor):
    laid = {"C4": "plain"}

    def of(rows):
        return {r["hex"]: r["terrain"] for r in rows if r["hex"] and r["terrain"]}

    def rows(part):
        return [{"hex": h, "terrain": t} for h, t in part.items()]

    laid = tables.editable("laid", 1, laid, ["hex", "terrain"], to_rows=rows, from_rows=of)
    key = editor.calls[-1][0]
    editor.edits[key] = {(1, "hex"): "D5", (1, "terrain"): None}       # a new row, its terrain not chosen yet
    laid = tables.editable("laid", 1, laid, ["hex", "terrain"], to_rows=rows, from_rows=of)
    assert laid == {"C4": "plain"} and editor.calls[-1][0] == key         # the half-typed row stays in the table


def test_text_columns_take_words_and_records_are_plain_values():
    df = tables.frame([{"id": 1, "n": 2.0}, {"id": None, "n": None}], ["id", "n"], text=("id",))
    assert df["id"].tolist() == ["1", None]
    assert tables.records(df) == [{"id": "1", "n": 2.0}, {"id": None, "n": None}]
