"""What a click picked on a chart drawn with a selection (``st.altair_chart`` / ``st.vega_lite_chart`` with
``on_select="rerun"``): the value of one field of the picked point."""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any


def picked_field(event: Any, param: str, field: str) -> Any:
    """The ``field`` of the point picked under the selection ``param``, or None.

    Streamlit keeps the event as ``{"selection": {param: [{field: value}]}}``; some versions give
    ``{param: {field: [value]}}`` or ``{param: {field: value}}``, with attribute or mapping access."""
    if event is None:
        return None
    sel = event.get("selection") if isinstance(event, Mapping) else getattr(event, "selection", None)
    if sel is None:
        return None
    picked = sel.get(param) if isinstance(sel, Mapping) else getattr(sel, param, None)
    if not picked:
        return None
    if isinstance(picked, Mapping):
        value = picked.get(field)
        return (value[0] if value else None) if isinstance(value, (list, tuple)) else value
    first = picked[0] if isinstance(picked, (list, tuple)) else None
    return first.get(field) if isinstance(first, Mapping) else None
