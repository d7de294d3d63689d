"""The app's pages for Rallyman: DIRT: Design, Analysis, Rally and Export.

- :mod:`.editing`: pure edits of a stage (add at the open end, insert, replace, remove, drive the other way, move),
  the box and the palette filters, undo and redo stacks. No Streamlit.
- :mod:`.mapview`: the clickable map (an Altair chart over the stage drawing) and the plain functions that turn a
  chart selection into a tile. :mod:`.sources`: bundled stages, uploads, share codes and exports.
  :mod:`.analysis`: the library's analysis reshaped into rows.
- :mod:`.state` (session state and callbacks) and the ``*_view`` modules (one per tab) are the Streamlit side.
"""
from __future__ import annotations

from dataclasses import dataclass


@dataclass
class Context:
    """What every tab draws from: the stage, its tileset, the assembled track and its problems."""
    stage: object
    tileset: object
    track: object
    problems: list


def sidebar() -> None:
    from designer.app.dirt import panel

    panel.sidebar()


def tabs():
    """Draw the stage's header, then give the four tabs (each draws from the same assembled stage)."""
    import streamlit as st

    from designer.app.dirt import analysis_view, design_view, export_view, rally_view, state
    from designer.app.dirt.panel import header
    from designer.systems.dirt.track import assemble
    from designer.systems.dirt.validate import validate

    stage = st.session_state.stage
    tileset = state.tileset_of(stage)
    track = assemble(stage, tileset)
    ctx = Context(stage, tileset, track, validate(stage, tileset, track))
    header(ctx)
    state.sync_address()
    return [(name, (lambda v=view: v.render(ctx)))
            for name, view in zip(state.VIEWS, (design_view, analysis_view, rally_view, export_view))]
