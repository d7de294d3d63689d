"""Typing into Streamlit's editable tables (``st.data_editor``) in a real browser, and reading them back.

The editor draws its cells on a canvas; beside it, it keeps an accessible table of the same cells
(``td#glide-cell-<column>-<row>``, columns counted from 1, rows from 0) that says which cell is selected and
what each shows. A cell is reached with the keyboard from the first cell of the table, opened with Enter, its
text replaced, and committed with Enter, as a person does.
"""
from __future__ import annotations

from tests.browser import settle

ROW_PX = 35          # the editor's header and row height
MARKER_PX = 50       # into the first column, past the row markers of a table whose rows can be added


def grid(page, index: int = 0, near: str | None = None):
    """The ``index``-th editable table of the page, or the first one after the text ``near``."""
    tables = page.locator('[data-testid="stDataFrame"]')
    if near is not None:
        return page.get_by_text(near, exact=True).first.locator("xpath=following::*[@data-testid='stDataFrame'][1]")
    return tables.nth(index)


def selected(table, page=None, wait_ms: int = 2_000) -> tuple[int, int] | None:
    """The selected cell ``(col, row)``, waited for up to ``wait_ms`` when ``page`` is given."""
    for _ in range(max(1, wait_ms // 100) if page is not None else 1):
        ids = table.locator('td[aria-selected="true"]').evaluate_all("els => els.map(e => e.id)")
        if ids:
            _, _, col, row = ids[0].split("-")
            return int(col), int(row)
        if page is not None:
            page.wait_for_timeout(100)
    return None


def select(page, table, col: int, row: int, tries: int = 3) -> None:
    """Select the cell at ``col`` (from 1) and ``row`` (from 0): a click on a cell of the first row, then the
    arrows from wherever that click landed (the table may be scrolled sideways)."""
    for _ in range(tries):
        table.scroll_into_view_if_needed()
        box = table.bounding_box()
        page.mouse.click(box["x"] + MARKER_PX, box["y"] + ROW_PX + ROW_PX / 2)
        page.wait_for_timeout(400)                  # the accessible table follows the click a moment later
        at = selected(table, page)
        if at is None:
            continue
        for key, steps in (("ArrowRight", col - at[0]), ("ArrowLeft", at[0] - col),
                           ("ArrowDown", row - at[1]), ("ArrowUp", at[1] - row)):
            for _ in range(max(0, steps)):
                page.keyboard.press(key)
        for _ in range(20):
            if selected(table) == (col, row):
                return
            page.wait_for_timeout(100)
    raise AssertionError(f"cell {(col, row)} could not be selected (selected: {selected(table)})")


def type_cell(page, table, col: int, row: int, text: str) -> None:
    """Type ``text`` into a cell as a person does: select it, Enter to edit, replace, Enter to commit."""
    select(page, table, col, row)
    page.keyboard.press("Enter")
    page.locator("input.gdg-input, textarea.gdg-input").first.wait_for(timeout=5_000)
    # keys go where the focus is: on a busy machine the editor shows a moment before it takes the focus
    page.wait_for_function("() => document.activeElement && document.activeElement.classList.contains('gdg-input')",
                           timeout=5_000)
    page.keyboard.press("Control+A")
    page.keyboard.type(text)
    page.wait_for_timeout(250)                      # the editor takes the text before it is committed
    page.keyboard.press("Enter")
    page.wait_for_timeout(250)


def shown(table) -> None:
    """Scroll the table into view: the editor draws (and describes) its cells only once they are on screen."""
    table.scroll_into_view_if_needed()
    table.locator("thead th").first.wait_for(state="attached", timeout=10_000)


def cell(table, col: int, row: int) -> str:
    shown(table)
    return table.locator(f'td[id="glide-cell-{col}-{row}"]').inner_text().strip()


def add_row(page, table) -> None:
    """Add a row with the table's toolbar button (shown when the pointer is over the table). The button sits on
    the table's top edge, where a scrolled page may put the table's own cells over it: it is pressed directly."""
    table.scroll_into_view_if_needed()
    table.hover()
    button = table.get_by_role("button", name="Add row")
    button.wait_for(state="attached")
    before = rows(table)
    button.dispatch_event("click")
    for _ in range(30):
        if rows(table) > before:
            break
        page.wait_for_timeout(100)
    page.wait_for_timeout(200)


def rows(table) -> int:
    """How many rows the table holds (its accessible table counts the header and the trailing "add" row too)."""
    shown(table)
    return int(table.locator("table").first.get_attribute("aria-rowcount")) - 2


def column(table, name: str) -> int:
    """The number (from 1) of the column headed ``name``."""
    shown(table)
    heads = table.locator("thead th").all_inner_texts()
    return heads.index(name) + 1


def open_page(browser, address: str, ready: str, timeout_ms: int = 60_000, width: int = 1280):
    """A new page of ``browser`` (a Browser, or a fresh BrowserContext: another browser's storage) at ``address``,
    once the text ``ready`` shows and the app's run has ended."""
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 1000})
    page.set_default_timeout(timeout_ms)
    page.goto(address)
    page.get_by_text(ready, exact=True).first.wait_for()
    settle(page, timeout_ms)
    return page


def tab_table(page, tab: str, near: str, timeout_ms: int = 60_000):
    """Open the tab ``tab`` and return its editable table that follows the text ``near``."""
    page.get_by_role("tab", name=tab).click()
    page.get_by_text(near, exact=True).wait_for()
    settle(page, timeout_ms)
    return grid(page, near=near)
