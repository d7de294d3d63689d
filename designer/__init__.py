"""Stage design and analysis for rally board games (Rallyman: DIRT first).

The model (tilesets, stages, assembled tracks, rules, lines) never imports a front end;
the command line (:mod:`designer.cli`) and the Streamlit app (:mod:`designer.app`) call it.
"""
__version__ = "0.1.0"
