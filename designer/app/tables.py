"""One way to write an editable table in every game's pages, so that no typed value is ever dropped.

``st.data_editor`` keeps the user's edits in its own widget state, as changes to the frame it was given. Two
mistakes lose them: giving it a new frame built from the edited values on the next run (the edits are then
applied twice over, and every second edit seems to revert), and keying it with the table's content (every edit
makes a new, empty widget, and what was typed meanwhile is gone). :func:`editable` does it one way:

- the frame given to the editor is made once and kept in the session, per table and per document;
- the edits are read from what the editor returns, and never written back into that frame;
- the widget's key holds a number that changes with the document (``doc``), or when the document's part shown
  in the table changed from outside the table (a click on the map, a button), so that the table then starts
  afresh from the document; the table's own edits never restart it.

Rows the game cannot use yet (a half-typed row, a card whose number is not a number) stay in the table as typed;
the game's checks say what is wrong with them.
"""
from __future__ import annotations

import copy
import math
from typing import Any, Callable, Hashable

import pandas as pd
import streamlit as st

ss = st.session_state


def frame(rows: list[dict], columns: list[str], text: tuple[str, ...] = ()) -> pd.DataFrame:
    """A table's input frame: ``columns`` in order; the ``text`` columns hold text, so that an editor accepts
    any word in them (a card number like ``12b``), not only numbers."""
    rows = [{**r, **{c: _as_text(r.get(c)) for c in text}} for r in rows]
    df = pd.DataFrame(rows, columns=list(columns))
    for col in text:
        df[col] = df[col].astype(object).where(df[col].notna(), None)
    return df


def _as_text(v: Any) -> str | None:
    if _blank(v):
        return None
    if isinstance(v, float) and v.is_integer():
        return str(int(v))
    return str(v)


def _blank(v: Any) -> bool:
    return v is None or (isinstance(v, float) and math.isnan(v))


def records(df: pd.DataFrame) -> list[dict]:
    """The rows of an edited frame as plain Python values, an empty cell as None."""
    return df.astype(object).where(pd.notna(df), None).to_dict("records")


def editable(key: str, doc: Hashable, source: Any, columns: list[str], *,
             to_rows: Callable[[Any], list[dict]] = lambda s: list(s or []),
             from_rows: Callable[[list[dict]], Any] = lambda rows: rows,
             text: tuple[str, ...] = (), **options) -> Any:
    """Show ``source`` (a part of the open document) as an editable table; return that part as edited.

    ``key`` names the table in the session; ``doc`` names the open document (a counter bumped when another one
    is opened); ``to_rows`` makes the table's rows from ``source`` and ``from_rows`` the part back from the
    edited rows. The caller stores what is returned in its document. ``options`` go to ``st.data_editor``
    (``num_rows="dynamic"``, ``hide_index=True`` and ``width="stretch"`` unless given)."""
    memo = ss.get(key + "__table")
    fresh = (memo is None or memo["doc"] != doc
             or (source != memo["given"] and source != memo["made"]))
    if fresh:
        n = memo["n"] + 1 if memo else 0
        memo = {"doc": doc, "n": n, "given": copy.deepcopy(source), "made": copy.deepcopy(source),
                "frame": frame(to_rows(source), columns, text)}
        ss[key + "__table"] = memo
    options = {"num_rows": "dynamic", "hide_index": True, "width": "stretch", **options}
    edited = st.data_editor(memo["frame"], key=f"{key}__{memo['n']}", **options)
    made = from_rows(records(edited))
    memo["made"] = copy.deepcopy(made)
    return made


def restart(key: str) -> None:
    """Start the table ``key`` afresh from its document on the next run (after a change made elsewhere that
    leaves its part equal to what it showed, e.g. an Apply)."""
    memo = ss.get(key + "__table")
    if memo is not None:
        memo["doc"] = ("restarted", memo["n"])     # matches no document: the next run makes a new frame and key
