"""The stage designer in the browser (Streamlit): ``streamlit run designer/app/main.py`` or ``rally-designer app``.

- :mod:`designer.app.editing`: pure edits of a stage (add at the open end, insert, replace, remove, drive the
  other way, move), the box and the palette filters, undo and redo stacks. No Streamlit.
- :mod:`designer.app.mapview`: the clickable map (an Altair chart over the stage drawing) and the plain
  functions that turn a chart selection into a tile. :mod:`designer.app.sources`: bundled stages, uploads,
  share codes and exports. :mod:`designer.app.analysis`: the library's analysis reshaped into rows.
- :mod:`designer.app.state` (session state and callbacks) and the ``*_view`` modules (one per tab) are the
  Streamlit side; :mod:`designer.app.main` is the script.

Only this package imports Streamlit; it holds no game logic of its own.
"""
