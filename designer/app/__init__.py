"""The stage designer in the browser (Streamlit): ``streamlit run designer/app/main.py`` or ``rally-designer app``.

- :mod:`designer.app.main`: the shell every game shares (page set-up, the game chooser, the chosen game's sidebar
  and tabs); :mod:`designer.app.serve` starts its server; :mod:`designer.app.memory` keeps Streamlit's collection after
  each run cheap and :mod:`designer.app.recent` keeps a few values by key for every session.
- What every game's pages share: :mod:`designer.app.address` (the work packed into the page address, with its
  caps; DIRT's share links use it too), :mod:`designer.app.tables` (the one way to write an editable table) and
  :mod:`designer.app.uploads` (the sidebar's upload and its one message).
- One package of pages per game: :mod:`designer.app.dirt`, :mod:`designer.app.classic`,
  :mod:`designer.app.greatrace`, :mod:`designer.app.rallye`. Each talks to its game through the contract of
  :mod:`designer.systems` and the game's own library modules; none imports another game's pages.

Only this package imports Streamlit; it holds no game logic of its own.
"""
