"""The app's pages for Rallyman: DIRT: Design, Analysis, Rally, Export and Generate.

- :mod:`.editing`: pure edits of a stage (add at the open end, insert, replace, remove, drive the other way, move),
  the box and the palette filters, undo and redo stacks. No Streamlit.
- :mod:`.mapview`: the clickable map (an Altair chart over the stage drawing) and the plain functions that turn a
  chart selection into a tile. :mod:`.sources`: bundled stages, uploads, share codes and exports.
  :mod:`.analysis`: the library's analysis reshaped into rows.
- :mod:`.state` (session state and callbacks) and the ``*_view`` modules (one per tab) are the Streamlit side.
"""
from __future__ import annotations

from designer.app.dirt.stage_context import Context, context  # noqa: F401  (the pages' shared context)


def sidebar() -> None:
    from designer.app.dirt import panel

    panel.sidebar()


def tabs():
    """The five tabs. Each draws the stage's header, then its page, from the stage as it is.

    The Design tab is drawn in parts that redraw on their own (:func:`designer.app.dirt.design_view.page`): a
    click on the map, a tile action or a palette button redraws what it changes, not the sidebar nor the shell,
    which keeps a click short. So the sidebar shows nothing that a Design click changes: its undo and redo
    buttons stay enabled and say so when there is nothing to undo.
    """
    from designer.app.dirt import analysis_view, design_view, export_view, generate_view, rally_view, state

    def page(view):
        def draw():
            from designer.app.dirt.panel import header

            ctx = context()
            header(ctx)
            view.render(ctx)
            state.sync_address()
        return draw

    return [("Design", design_view.page), ("Analysis", page(analysis_view)), ("Rally", page(rally_view)),
            ("Export", page(export_view)), ("Generate", page(generate_view))]
