"""Keep Streamlit's collection after every script run cheap.

Streamlit runs Python's full garbage collection after each script run (``runner.postScriptGC``). A full
collection walks every object the process holds: the imported libraries (pandas, Altair, networkx, numpy...),
the tilesets and the caches, some 150 000 objects and more, which took 0.15 to 0.3 s on every click, longer
than the page's own work, and it holds the interpreter lock while the server sends the finished page.

:func:`settle` moves what is alive after a run into the collector's permanent generation
(:func:`gc.freeze`) whenever that run imported new modules (the first run, the first visit of a tab that
imports its libraries): those objects live as long as the server, and the collections after later runs only
walk what was made since. Garbage is collected first, so nothing that is already garbage is frozen. What the
sessions open at that moment hold is frozen too and stays until the server stops: a small cost, paid only on
the few runs that import modules.
"""
from __future__ import annotations

import gc
import sys

_modules_at_freeze = 0


def settle() -> bool:
    """Freeze the long-lived objects when the run imported new modules; True when it froze."""
    global _modules_at_freeze
    n = len(sys.modules)
    if n <= _modules_at_freeze:
        return False
    gc.collect()
    gc.freeze()
    _modules_at_freeze = n
    return True
