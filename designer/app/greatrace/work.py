"""What of The Great Race work the page address keeps: the race, and the board with its bag when it is the
owner's own (edited, uploaded or new) rather than a bundled board by its name.

Everything read back goes through the loaders that check an upload: a board named by name, never by path.
"""
from __future__ import annotations

from typing import Any

from designer.app.address import Kept, document_and_box, open_parts, yaml_text
from designer.app.greatrace.state import K, current_race, open_text, ss
from designer.app.recent import Recent
from designer.core import offered
from designer.core.errors import DesignerError
from designer.systems.greatrace.files import edit
from designer.systems.greatrace.files.board import board_to_data, load_board
from designer.systems.greatrace.files.race import board_path, dumps_race

ADDRESS_PARAMS = ("race", "box")
WHERE = "the page address"
_bundled = Recent(8)


def bundled_board(name: Any) -> dict | None:
    """The data of the bundled board called ``name``, or None when no bundled board has that name."""
    if not isinstance(name, str) or not offered.is_plain(name):
        return None

    def make():
        try:
            return board_to_data(load_board(board_path(name, None)))
        except DesignerError:
            return None
    return _bundled.get(name, make)


def address_work() -> list[Kept]:
    board = ss.get(K + "board")
    return document_and_box(Kept("race", ss.get(K + "race"), "race", "race.yaml", lambda: dumps_race(current_race())),
                            Kept("box", board, "board and bag", text=lambda: edit.dumps(board)), bundled_board, "board")


def open_address(found: dict[str, Any]) -> None:
    open_parts(found, [("box", lambda data: open_text(yaml_text(data, "board"), WHERE)),
                       ("race", lambda data: open_text(yaml_text(data, "race"), WHERE))])
