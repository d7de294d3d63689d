"""What an opened stage carries beyond its road, said to the user rather than left unseen.

The importers (:mod:`designer.systems.dirt.io`) keep what a layout file held that the stage does not use in the
stage's notes (the author, token ids they do not know, the graphic variants read as their face); tokens lie on
the tiles. The Design tab shows both under the map ("Carried by the stage file") and every download keeps them;
:func:`upload_summary` says it once, when the file opens. Both name them with :func:`carried_words`.

>>> from designer.systems.dirt.board.stage import Stage
>>> carried_words(Stage(tiles=["202a A"], notes="Author: Jo"))
'notes'
>>> carried_words(Stage(tiles=["202a A"]))
''
"""
from __future__ import annotations

from designer.core.words import plural
from designer.systems.dirt.io.layout import notes_list_variants


def carried_words(stage) -> str:
    """``notes (with graphic variants) and 2 tokens``: what the stage carries besides its road, or ``""``."""
    parts = []
    if stage.notes:
        parts.append("notes" + (" (with graphic variants)" if notes_list_variants(stage.notes) else ""))
    tokens = sum(len(p.tokens) for p in stage.tiles)
    if tokens:
        parts.append(plural(tokens, "token"))
    return " and ".join(parts)


def upload_summary(stage) -> str:
    """What the opened stage carries beyond its road, in a sentence, or ``""``."""
    words = carried_words(stage)
    if not words:
        return ""
    return f"It also carried {words}: see 'Carried by the stage file' under the map (kept in every download)."
