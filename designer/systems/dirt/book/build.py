"""The build sheet of a DIRT road book: which tiles to take out of the box, and how to lay each one.

The edge letters A-F are not printed on the tiles; the face number is, always at the same corner (see
:mod:`designer.systems.dirt.book.draw`). So each tile is placed by saying where its number goes ("number at
the lower right corner"), drawn on its picture. A tile whose road runs straight across connects both ways
round; the sheet says "either way round" only where turning it round changes nothing a car meets (the same
cells, limits, lines and marks in driving order, :func:`either_way`), otherwise the number's corner decides.

Also here: the pick list by tile number (the rulebook's own form) and, in a rally, what to change between
two stages (:func:`swaps`).
"""
from __future__ import annotations

import re
from dataclasses import replace

from designer.core import hexgrid
from designer.core.pdfkit import GREY, INK, Book
from designer.systems.dirt.board.render import DANGER_COLOUR
from designer.systems.dirt.board.track import Track, build_graph
from designer.systems.dirt.book.draw import corner_words, tile_svg
from designer.systems.dirt.book.flow import GAP
from designer.systems.dirt.book.line import lane_word

ARROWS = {"A": "↑", "B": "↗", "C": "↘", "D": "↓", "E": "↙", "F": "↖"}
SIDE_WORDS = {"A": "top", "B": "upper right", "C": "lower right", "D": "bottom", "E": "lower left",
              "F": "upper left"}
_KEYS = ("lane", "width", "limit", "path", "cut", "jump", "ford", "slide", "climb", "start", "finish", "closed")


def _corner_limits(tile) -> list[int]:
    """The inside limits of the corners of the road driven on this tile (from its cells)."""
    return [c.limit for c in tile.driven.cells or []
            if c.corner and c.cut is None and c.limit is not None and c.path == "inside"]


def road_shape(tile) -> str:
    """What the road driven on this tile does, from its way in and out and the corners in its cells:
    "straight", "kink", "S-bend", "curve left", "hairpin right", "dead end"."""
    if not tile.entry or not tile.exit:
        return "dead end"
    gap = (hexgrid.edge_index(tile.exit) - hexgrid.edge_index(tile.entry)) % 6
    if gap in (0, 3):
        limits = _corner_limits(tile)
        if not limits:
            return "straight"
        # A road straight across with a real corner in it (a limit of 3 or less) is an S-bend, not a kink.
        return "S-bend" if min(limits) <= 3 else "kink"
    # Entering by edge e, the road bends left to e+1, e+2 and right to e-1, e-2 (edges A-F run clockwise).
    turn = "left" if gap in (1, 2) else "right"
    return f"{'curve' if gap in (2, 4) else 'hairpin'} {turn}"


def several_roads(face) -> str | None:
    """"junction" or "two roads" for a face with more than one road (None for a one-road face)."""
    if face.roads or len(face.links) > 1:
        ends = [e for link in face.links for e in link]
        return "two roads" if len(ends) == len(set(ends)) else "junction"
    return None


def tile_kind(tile) -> str:
    """What the road does on this tile as driven: "hairpin left", "S-bend", "straight", "finish"...;
    on a face with several roads, the road this pass drives: "junction: curve right", "two roads: straight"."""
    face = tile.driven
    if face.role in ("start", "finish", "start-finish", "assistance"):
        return {"start-finish": "start and finish"}.get(face.role, face.role)
    several = several_roads(tile.face)
    if several:
        return f"{several}: {road_shape(tile)}"
    kind = tile.face.kind
    if kind in ("kink", "curve", "hairpin") and tile.entry and tile.exit and face.cells:
        return road_shape(tile)
    if kind in ("curve", "hairpin") and face.turn in ("left", "right") and tile.entry and face.ends:
        turn = face.turn
        if tile.reversed:
            turn = "right" if turn == "left" else "left"
        return f"{kind} {turn}"
    return kind


def attachment(track: Track, tile) -> tuple[str, str]:
    """(where this tile goes, short form): e.g. ('on the upper right side of tile 3 (205a)', '↗ of 3')."""
    if tile.index == track.tiles[0].index:
        side = tile.world_entry or "D"
        return f"first tile: the road comes in at its {SIDE_WORDS[side]} side", "first"
    here = track.passes(tile.hex)
    first = here[0]
    if first is not tile:
        order = ["second", "third", "fourth"]
        k = [t.index for t in here].index(tile.index) - 1
        nth = order[k] if k < len(order) else "next"
        road = "its other road" if first.driven is not tile.driven else "the same road"
        return f"driven a {nth} time, on {road}", f"= {first.index + 1}"
    by_hex = {t.hex: t for t in track.laid_tiles}
    edges = ([tile.world_entry] if tile.world_entry else []) + list(hexgrid.EDGES)
    for e in edges:
        other = by_hex.get(hexgrid.neighbour(tile.hex, e))
        if other is not None and other is not tile:
            side = hexgrid.opposite(e)
            return (f"on the {SIDE_WORDS[side]} side {ARROWS[side]} of tile {other.index + 1} ({other.tile})",
                    f"{ARROWS[side]} of {other.index + 1}")
    return "stands apart", "apart"


def _turns_into_itself(face) -> bool:
    """True when a half turn brings every road of the face onto a road of the face."""
    links = {frozenset(link) for link in face.links}
    return links == {frozenset(hexgrid.opposite(e) for e in link) for link in face.links}


def _signature(tile) -> tuple | None:
    """What a car meets on a tile, in driving order, without cell names (None: no cells)."""
    if not tile.face.has_cells or tile.driven.cells is None:
        return None
    alone = replace(tile, index=0, node_index=None)
    g = build_graph([alone])
    cells = sorted((tuple((k, d.get(k)) for k in _KEYS) + (("a", round(d["a"], 2)), ("b", round(d["b"], 2)))
                    for _, d in g.nodes(data=True)), key=repr)
    lanes = (tile.face.edges.get(tile.entry), tile.face.edges.get(tile.exit))
    return lanes, tuple(cells), g.number_of_edges()


def turned_round(tile):
    """The same tile entered from its other end, so that it still connects (None when it would not)."""
    if not (tile.entry and tile.exit) or hexgrid.opposite(tile.entry) != tile.exit:
        return None
    return replace(tile, entry=tile.exit, exit=tile.entry, rotation=(tile.rotation + 3) % 6)


def either_way(tile, track: Track) -> bool:
    """True when the tile can lie either way round without changing the stage ``track``: a car meets the same
    cells in driving order, no start or finish line moves, the stage drives the tile only once, and on a face
    with several roads the roads not driven land on roads again."""
    other = turned_round(tile)
    if other is None:
        return False
    if tile.face.role is not None and tile.face.role != "assistance":
        return False                  # a start or finish line would move
    if len(track.passes(tile.hex)) > 1:
        return False                  # the other pass drives the tile from other edges
    if several_roads(tile.face) and not _turns_into_itself(tile.face):
        return False                  # the roads not driven would point elsewhere on the table
    a, b = _signature(tile), _signature(other)
    if a is None or b is None:
        return tile.face.role == "assistance"
    return a == b


def build_rows(track: Track) -> list[dict]:
    """One row per tile in driving order: the facts of the build sheet."""
    rows = []
    for t in track.tiles:
        where, short = attachment(track, t)
        either = either_way(t, track)
        first = track.passes(t.hex)[0]
        rows.append({
            "again": None if first is t else first.index + 1,
            "number": t.index + 1, "tile": t.tile, "kind": tile_kind(t), "danger": t.face.danger,
            "entry": t.entry, "exit": t.exit,
            "from": ARROWS.get(t.world_entry, "") if t.world_entry else "",
            "to": ARROWS.get(t.world_exit, "") if t.world_exit else "",
            "in_side": SIDE_WORDS.get(t.world_entry, "") if t.world_entry else "",
            "out_side": SIDE_WORDS.get(t.world_exit, "") if t.world_exit else "",
            "rotation": t.rotation, "degrees": 60 * t.rotation, "attaches": where, "attaches_short": short,
            "corner": corner_words(t.rotation), "either_way": either,
            "two_ways": turned_round(t) is not None,
        })
    return rows


def token_lines(track: Track) -> dict[int, list[str]]:
    """The tokens to lay on each tile (by placement index), in words: what and where ("chicane with a speed
    limit 2 (gravel): left lane, space 2 of 4"). A tile driven twice carries its tokens once, on its first pass."""
    out: dict[int, list[str]] = {}
    seen = set()
    tiles = {t.index: t for t in track.tiles}
    for entry in track.graph.graph.get("tokens", []) if track.has_cells else []:
        if entry.get("token") in seen or entry["tile"] not in tiles:
            continue
        seen.add(entry.get("token"))
        tile = tiles[entry["tile"]]
        where = _space_words(tile, entry["cell"]) if entry.get("cell") else None
        label = str(entry["label"]).replace(") (", ", ")           # "water (ford, gravel)"
        out.setdefault(tile.index, []).append(f"{label}: {where or 'off the road driven, as drawn'}")
    return out


def _space_words(tile, cell_id: str) -> str | None:
    """Where a space of a tile is, in the driving direction: "left lane, space 2 of 3" (from the face's cells,
    so that a space a token closes is found too)."""
    face = tile.driven
    cells = [c for c in face.cells or [] if c.cut is None]
    cell = next((c for c in face.cells or [] if c.id == cell_id), None)
    if cell is None:
        return None
    if cell.cut is not None:
        return f"the cut (C{cell.cut})"
    lanes = max((c.lane + c.width for c in cells), default=1)
    if cell.width > 1 and cell.width >= lanes:
        where, row = "space across the road", [c for c in cells if c.width >= lanes]
    else:
        where = lane_word(cell.lane if not tile.reversed else lanes - cell.width - cell.lane, lanes)
        row = [c for c in cells if c.lane == cell.lane and c.width == cell.width]
    row.sort(key=lambda c: c.span[0], reverse=tile.reversed)
    return f"{where}, space {row.index(cell) + 1} of {len(row)}"


def token_assumptions(track: Track) -> list[str]:
    """What the book assumes of each kind of token the stage lays, where the rulebooks are silent."""
    from designer.systems.dirt.board.tokens import LABELS, token_kinds, token_rules

    laid = {e["kind"] for e in track.graph.graph.get("tokens", [])} if track.has_cells else set()
    rules, what = token_rules(), {k: w for k, _label, w in token_kinds()}
    return [f"{LABELS[k]}: {what[k].rsplit(' (', 1)[0]}" for k in sorted(laid) if rules[k].get("status") != "rulebook"]


def token_count(track: Track, lines: dict[int, list[str]] | None = None) -> dict[str, int]:
    """How many tokens of each kind (label without place) the stage lays; ``lines``: its :func:`token_lines`
    when the caller has them (worked out here otherwise)."""
    count: dict[str, int] = {}
    for on_tile in (token_lines(track) if lines is None else lines).values():
        for line in on_tile:
            what = line.split(": ", 1)[0]
            count[what] = count.get(what, 0) + 1
    return count


def tile_number(face_id: str) -> tuple[int, str]:
    """(number, letters) of a face id, to sort by: "205a" -> (205, "a"); an id with no number sorts last."""
    m = re.match(r"(\d+)([a-z]*)", face_id)
    return (int(m.group(1)), m.group(2)) if m else (10 ** 6, face_id)


def pick_list(track: Track) -> list[str]:
    """The faces a stage lays on the table, by tile number (two tiles of one number are listed twice; a tile
    the stage drives twice, once)."""
    return sorted((t.tile for t in track.laid_tiles), key=tile_number)


def physical(face_id: str) -> str:
    """The physical tile a face is printed on: its number ("205" for "205a"; the id itself when it has none)."""
    n, _ = tile_number(face_id)
    return str(n) if n < 10 ** 6 else face_id


def swaps(before: Track, after: Track) -> dict[str, list[str]]:
    """What changes on the table from one stage to the next: tiles kept (same face up), turned over,
    put back in the box and taken out of it."""
    old = {}
    for t in before.laid_tiles:
        old.setdefault(physical(t.tile), []).append(t.tile)
    new = {}
    for t in after.laid_tiles:
        new.setdefault(physical(t.tile), []).append(t.tile)
    keep, turn, away, take = [], [], [], []
    for number in sorted(set(old) | set(new), key=tile_number):
        a, b = sorted(old.get(number, [])), sorted(new.get(number, []))
        common = [f for f in b if f in a]
        for f in common:
            keep.append(f)
        rest_a = [f for f in a if f not in common or a.count(f) > b.count(f)]
        rest_b = [f for f in b if f not in common or b.count(f) > a.count(f)]
        while rest_a and rest_b:
            turn.append(f"{rest_a.pop(0)}→{rest_b.pop(0)}")
        away += rest_a
        take += rest_b
    return {"keep": keep, "turn over": turn, "put away": away, "take out": take}


# -- the section --------------------------------------------------------------------------------

CARD_H = 31.0          # the tallest card; cards shrink (down to CARD_MIN) to keep a stage on one page
CARD_MIN = 25.0


def _card_lines(row: dict) -> list[tuple[str, bool, tuple]]:
    """The lines of text of a tile's card under its number: (text, bold, colour)."""
    lines = [(row["kind"], False, GREY)] if row.get("kind_below") else []
    if row["again"]:
        lines.append((f"already laid as tile {row['again']}", True, INK))
    elif row["either_way"]:
        lines.append(("either way round", True, INK))
    else:
        lines.append((f"number at the {row['corner']} corner", True, INK))
        if row["two_ways"]:
            lines.append(("(the other way round is another stage)", False, GREY))
    if row["entry"]:
        road = f"road in {row['from']} {row['in_side']}"
        road += f", out {row['to']} {row['out_side']}" if row["exit"] else ", dead end"
        lines.append((road, False, INK))
    lines.append((row["attaches"], False, INK))
    for token in row.get("tokens", []):
        lines.append(("token: " + token, False, INK))
    return lines


def _line_style(bold: bool) -> tuple[float, float]:
    """(type size, line height) of a card line."""
    return (8, 3.5) if bold else (7.2, 3.2)


def _head(pdf: Book, row: dict, tw: float) -> tuple[str, float]:
    """The words beside a card's number and tile id, and their room: the kind and the danger colour when they
    fit at their size, else the colour alone (the kind then heads the card's lines: never cut, never shrunk)."""
    pdf.font(10.5, True)
    room = tw - 8 - (pdf.get_string_width(row["tile"]) + 2) - 4
    pdf.font(7.5)
    text = f"{row['kind']}, {row['danger'] or 'no colour'}"
    row["kind_below"] = pdf.get_string_width(text) > room - 2 * pdf.c_margin
    return (row["danger"] or "no colour") if row["kind_below"] else text, room


def card_height(pdf: Book, row: dict, w: float, picture: float) -> float:
    """The height a tile's card needs: its picture or its text, whichever is taller."""
    tw = w - picture - 2
    _head(pdf, row, tw)
    text = 6.0
    for line, bold, _ in _card_lines(row):
        size, h = _line_style(bold)
        pdf.font(size, bold)
        text += h * len(pdf.wrap(line, tw - 2 * pdf.c_margin)) + 0.4
    return max(picture + 1, text)


def _card(pdf: Book, f, tile, row: dict, x: float, y: float, w: float, picture: float) -> None:
    pdf.svg(tile_svg(f.track, tile, picture), x, y, picture, picture)
    tx, tw = x + picture + 1.5, w - picture - 2
    pdf.set_xy(tx, y + 0.3)
    pdf.font(12, True)
    pdf.cell(8, 5.4, str(row["number"]))
    pdf.font(10.5, True)
    pdf.cell(pdf.get_string_width(row["tile"]) + 2, 5.4, row["tile"])
    pdf.dot(pdf.get_x() + 1.6, y + 3.0, DANGER_COLOUR.get(row["danger"], "#999999"), r=1.4)
    pdf.set_x(pdf.get_x() + 4)
    head, room = _head(pdf, row, tw)
    pdf.font(7.5, False, GREY)
    pdf.cell(room, 5.4, head)
    pdf.set_xy(tx, y + 6.0)
    for text, bold, colour in _card_lines(row):
        size, h = _line_style(bold)
        pdf.font(size, bold, colour)
        pdf.text_block(text, tw, h, x=tx)
        pdf.set_y(pdf.get_y() + 0.4)


def build_sheet(pdf: Book, f, previous=None, previous_label: str | None = None, reserve: float = 0.0) -> None:
    """The build sheet of one stage; ``previous``: the facts of the stage before it in a rally; ``reserve``:
    mm to leave free under the cards for the section after them, when smaller cards (not under CARD_MIN) do it."""
    pdf.add_page()
    pdf.heading(f"Build sheet · {f.stage.name}")
    boxes = ", ".join(f.boxes) or "–"
    pdf.para(f"Boxes: {boxes}. Lay the tiles in driving order as drawn (north up as on the map; blue arrows: "
             "the road in and out), each turned so that its printed number sits at the corner named (black "
             "corner on the drawing). \"Either way round\": the road is the same both ways.", 7.8, INK, 3.5)
    picks = pick_list(f.track)
    pdf.ln(0.8)
    pdf.font(8, True)
    pdf.cell(28, 4.2, f"Pick list ({len(picks)}):")
    pdf.font(8.5, True)
    pdf.text_block("  ".join(picks), h=4.2)
    tokens = token_lines(f.track)
    count = token_count(f.track, tokens)
    if count:
        pdf.font(8, True)
        pdf.cell(28, 4.2, "Tokens:")
        pdf.font(8)
        pdf.text_block(", ".join(f"{n} × {what}" for what, n in count.items())
                       + " (where each goes: on its tile below)", h=4.2)
        assumed = token_assumptions(f.track)
        if assumed:
            pdf.para("Assumed, not from a rulebook (tilesets/dirt-token-rules.yaml): " + "; ".join(assumed) + ".",
                     7.2, GREY, 3.2)
    if f.track.has_cells and any(d.get("climb") for _, d in f.track.graph.nodes(data=True)):
        from designer.systems.dirt.board.tokens import climb_rule
        rule = climb_rule()
        what = ("no effect on the moves" if rule["effect"] == "none" else
                f"a cell entered across an ascent mark limited to {rule['up']}, a descent mark to {rule['down']}")
        pdf.para(f"Climb marks (+1 / -1 arrows): assumed {what}; their rule is not in our rulebooks "
                 "(climb_marks in tilesets/dirt-token-rules.yaml).", 7.2, GREY, 3.2)
    if previous is not None:
        change = swaps(previous.track, f.track)
        parts = [f"{k}: {', '.join(v)}" for k, v in change.items() if v and k != "keep"]
        kept = len(change["keep"])
        pdf.font(8, True)
        pdf.cell(28, 4.2, f"From {previous_label}:")
        pdf.font(8)
        text = "; ".join(parts) if parts else "nothing to change"
        pdf.text_block(f"{text}; {kept} tile{'s' if kept != 1 else ''} stay as they are "
                       "(the layout changes: rebuild in this order).", h=4.2)
    pdf.ln(1.5)
    rows = build_rows(f.track)
    for row, t in zip(rows, f.track.tiles):
        row["tokens"] = tokens.get(t.index, [])
    tiles = {t.index: t for t in f.track.tiles}
    col_w = pdf.epw / 2
    pairs = (len(rows) + 1) // 2
    fit = (pdf.bottom - pdf.get_y()) / max(pairs, 1) - 1.2
    card_h = CARD_H if fit < CARD_MIN else min(CARD_H, fit)
    if reserve:
        fit = (pdf.bottom - pdf.get_y() - reserve - GAP) / max(pairs, 1) - 1.2
        if fit >= CARD_MIN:
            card_h = min(card_h, fit)
    picture = card_h - 1
    for k in range(0, len(rows), 2):
        pair = rows[k:k + 2]
        # A card with more to say than its picture's height (tokens) makes its row taller.
        row_h = max(card_height(pdf, row, col_w - 2, picture) for row in pair)
        pdf.need(row_h + 1)
        y = pdf.get_y()
        for j, row in enumerate(pair):
            _card(pdf, f, tiles[row["number"] - 1], row, pdf.l_margin + j * col_w, y, col_w - 2, picture)
        pdf.rule(y + row_h + 0.5)
        pdf.set_xy(pdf.l_margin, y + row_h + 1.2)


__all__ = ["build_sheet", "build_rows", "pick_list", "swaps", "either_way", "turned_round", "tile_kind",
           "road_shape", "several_roads", "token_lines", "token_count", "attachment", "tile_number", "physical",
           "ARROWS", "SIDE_WORDS"]
