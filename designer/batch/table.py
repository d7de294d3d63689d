"""Batch results as a CSV file and as one self-contained HTML page (sortable columns, a small map per stage)."""
from __future__ import annotations

import base64
import csv
import html
import io
import math

from designer.batch.worker import columns_of

HEADINGS = {"file": "File", "system": "Game", "stage": "Stage", "valid": "Valid", "pieces": "Pieces",
            "length": "Length", "ideal_seconds": "Ideal time (s)", "expected_seconds": "Expected time (s)",
            "spread_seconds": "Spread, p90 minus p10 (s)", "loss_of_control": "Loss of control",
            "damage_tracked": "Damage tokens tracked", "table_minutes": "Table (min)",
            "boxes": "Boxes", "errors": "Errors", "warnings": "Warnings", "problems": "Problems",
            "simulated_players": "Cars simulated", "simulated_runs": "Races simulated",
            "simulated_table_turns": "Turns at the table (simulated)",
            "simulated_table_minutes": "Table (min, simulated)"}
SEAT_HEADINGS = {"seconds": "time (s)", "sd": "sd (s)", "blocked": "blocked", "turns": "turns"}


def heading(key: str) -> str:
    """A column's heading; per seat columns ``seat2_seconds`` read "Seat 2 time (s)"."""
    if key in HEADINGS:
        return HEADINGS[key]
    seat, _, field = key.partition("_")
    return f"Seat {seat[4:]} {SEAT_HEADINGS.get(field, field)}"


def _cell(value, digits: int = 3) -> str:
    if value is None:
        return ""
    if isinstance(value, float):
        if math.isnan(value):
            return ""
        return f"{value:.{digits}f}".rstrip("0").rstrip(".")
    return str(value)


ONE_DECIMAL = {"ideal_seconds", "expected_seconds", "spread_seconds", "table_minutes", "simulated_table_minutes",
               "simulated_table_turns"}


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")


def safe_text(text: str) -> str:
    r"""A text cell a spreadsheet will not read as a formula: one starting with ``= + - @``, a tab or a carriage
    return gets a leading single quote (the usual defence against formula injection; the quote shows as text).

    >>> safe_text('=HYPERLINK("http://x")'), safe_text("-5"), safe_text("Rally 1 - SS1")
    ('\'=HYPERLINK("http://x")', "'-5", 'Rally 1 - SS1')
    """
    return "'" + text if text.startswith(FORMULA_STARTS) else text


def csv_cell(value) -> str:
    """A value as a CSV cell: numbers as numbers (a negative one stays a number), every text made safe."""
    if isinstance(value, (bool, int, float)) or value is None:
        return _cell(value)
    return safe_text(str(value))


def csv_text(rows: list[dict]) -> str:
    """The rows as CSV, one column per :func:`~designer.batch.worker.columns_of` the rows (a simulated table adds
    its own); no text cell can start a spreadsheet formula."""
    columns = columns_of(rows)
    buf = io.StringIO()
    writer = csv.writer(buf)
    writer.writerow(columns)
    for row in rows:
        writer.writerow([csv_cell(row.get(k)) for k in columns])
    return buf.getvalue()


_SCRIPT = """
document.querySelectorAll('th[data-k]').forEach(function (th, col) {
  th.addEventListener('click', function () {
    var body = th.closest('table').tBodies[0];
    var rows = Array.prototype.slice.call(body.rows);
    var up = th.dataset.dir !== 'up';
    th.parentNode.querySelectorAll('th').forEach(function (h) { h.dataset.dir = ''; h.classList.remove('up', 'down'); });
    th.dataset.dir = up ? 'up' : 'down';
    th.classList.add(up ? 'up' : 'down');
    var idx = th.cellIndex;
    rows.sort(function (a, b) {
      var x = a.cells[idx].dataset.v, y = b.cells[idx].dataset.v;
      var nx = parseFloat(x), ny = parseFloat(y);
      var c = (!isNaN(nx) && !isNaN(ny)) ? nx - ny : (x || '').localeCompare(y || '');
      if (x === '' && y !== '') return 1;
      if (y === '' && x !== '') return -1;
      return up ? c : -c;
    });
    rows.forEach(function (r) { body.appendChild(r); });
  });
});
"""

_STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 1.5em; color: #222; }
table { border-collapse: collapse; }
th, td { border-bottom: 1px solid #ddd; padding: 4px 8px; text-align: left; vertical-align: middle; }
th[data-k] { cursor: pointer; background: #f3f3f3; position: sticky; top: 0; }
th.up::after { content: " \\25B2"; } th.down::after { content: " \\25BC"; }
td.num { text-align: right; font-variant-numeric: tabular-nums; }
td.bad { color: #b00020; }
img { display: block; max-width: 140px; max-height: 100px; width: auto; height: auto; object-fit: contain; }
td.problems { max-width: 28em; font-size: 12px; color: #555; }
"""

NUMERIC = {"pieces", "length", "ideal_seconds", "expected_seconds", "spread_seconds", "loss_of_control",
           "damage_tracked", "table_minutes", "errors", "warnings", "simulated_players", "simulated_runs",
           "simulated_table_turns", "simulated_table_minutes"}


def _numeric(key: str) -> bool:
    return key in NUMERIC or key.startswith("seat")


def html_text(rows: list[dict], title: str = "Stage comparison") -> str:
    shown = [k for k in columns_of(rows) if k != "file"]
    head = "".join(f'<th data-k="{k}">{html.escape(heading(k))}</th>' for k in shown)
    body = []
    for row in rows:
        svg = row.get("svg")
        thumb = (f'<img alt="map" src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}">'
                 if svg else "")
        cells = [f"<td>{thumb}</td>"]
        for k in shown:
            v = _cell(row.get(k))
            cls = "num" if _numeric(k) else ("bad" if k == "valid" and row.get(k) is False else "")
            shown_text = _cell(row.get(k), 1) if k in ONE_DECIMAL or k.endswith(("_seconds", "_sd", "_turns")) else v
            if (k == "loss_of_control" or k.endswith("_blocked")) and isinstance(row.get(k), (int, float)):
                shown_text = f"{row[k]:.0%}"
            elif k == "valid":
                shown_text = "yes" if row.get(k) else "NO"
            elif k == "problems":
                cls = "problems"
            text = html.escape(shown_text)
            if k == "stage":
                text = f'{text}<br><small>{html.escape(str(row.get("file") or ""))}</small>'
            cells.append(f'<td class="{cls}" data-v="{html.escape(v)}">{text}</td>')
        body.append("<tr>" + "".join(cells) + "</tr>")
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(title)}</title>"
            f"<style>{_STYLE}</style></head><body><h1>{html.escape(title)}</h1>"
            f"<p>{len(rows)} stages. Click a column heading to sort.</p>"
            f"<table><thead><tr><th>Map</th>{head}</tr></thead><tbody>{''.join(body)}</tbody></table>"
            f"<script>{_SCRIPT}</script></body></html>")
