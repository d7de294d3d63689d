"""The zone editor: enter a zone face from the board in front of you, optionally over a photo of it.

Click cells on the grid to lay a road's path, place road ends, set environments and marks; fine-tune in the
four tables; the face is checked by the same loader as a box file after every change and drawn beside it.
The box leaves as a YAML download (or is used at once for the stages); nothing is written on the server.
"""
from __future__ import annotations

import base64
import copy

import streamlit as st

from designer.app.classic.state import K, ss
from designer.app.tables import editable
from designer.app.uploads import LARGEST_MB
from designer.core import paths, yamlio
from designer.core.errors import DesignerError
from designer.core.words import plural
from designer.systems.classic.board import edit as E
from designer.systems.classic.board.render import face_svg
from designer.systems.classic.files.zones import ENVIRONMENTS, SURFACES, cell_name

MODES = ("road path", "road end", "environment", "bump", "ford", "half-cell", "crossroads", "two lanes")


def _start() -> None:
    if K + "ed_box" in ss:
        return
    data, _ = yamlio.load(paths.TILESETS / "classic" / "demo-zones.yaml")
    data = copy.deepcopy(data)
    ss[K + "ed_box"] = {"name": "my-zones", "size": data["size"], "zones": data["zones"]}
    ss[K + "ed_pick"] = ("X", "asphalt")
    ss[K + "ed_tables"] = E.tables_from_face(data["zones"]["X"]["faces"]["asphalt"])
    ss[K + "ed_version"] = 0


def _store_face() -> str | None:
    """Keep the tables of the side being entered in the box; a half-filled row is a message (the side keeps
    its last complete state), never a row dropped in silence."""
    zone, surface = ss[K + "ed_pick"]
    box = ss[K + "ed_box"]
    z = box["zones"].setdefault(zone, {"title": f"Zone {zone}", "faces": {}})
    try:
        z["faces"][surface] = E.face_from_tables(ss[K + "ed_tables"])
    except DesignerError as exc:
        return str(exc)
    return None


def _bump() -> None:
    ss[K + "ed_version"] = ss.get(K + "ed_version", 0) + 1


def _click(cell: str) -> None:
    t = ss[K + "ed_tables"]
    mode = ss.get(K + "ed_mode", MODES[0])
    if mode == "road path":
        if not t["roads"]:
            st.toast("add a road first (its two road ends) in the roads table or with 'New road'")
            return
        t = E.toggle_path_cell(t, int(ss.get(K + "ed_road", 0)), cell)
    elif mode == "road end":
        n = int(ss.get(K + "ed_end", 0))
        t = copy.deepcopy(t)
        t["ends"] = [r for r in t["ends"] if int(r["end"]) != n] + [{"end": n, "cell": cell, "side": None}]
    elif mode == "environment":
        t = E.set_cell(t, cell, env=ss.get(K + "ed_env", "forest"))
    elif mode == "bump":
        t = E.set_cell(t, cell, bump=int(ss.get(K + "ed_bump_note", 3)))
    else:
        flag = {"ford": "ford", "half-cell": "half", "crossroads": "crossroads"}.get(mode)
        row = next((r for r in t["cells"] if str(r.get("cell")).upper() == cell), {})
        if flag:
            t = E.set_cell(t, cell, **{flag: not bool(row.get(flag))})
        else:
            t = E.set_cell(t, cell, lanes=1 if row.get("lanes") == 2 else 2)
    ss[K + "ed_tables"] = t
    _bump()


def _grid(size: int) -> None:
    t = ss[K + "ed_tables"]
    road = int(ss.get(K + "ed_road", 0))
    path = str(t["roads"][road]["path"]).split() if t["roads"] and road < len(t["roads"]) else []
    ends = {str(r["cell"]).upper(): r["end"] for r in t["ends"] if r.get("cell")}
    st.caption(f"Each button is a cell; under its name: its step on road {road} (1, 2, ...) and, as e7, "
               "the road end there (the circled numbers of the drawing). Hover a button for it in words.")
    # the grid's buttons keep little padding, so that a cell's name and its marks fit a narrow column
    st.html(f"<style>.st-key-{K}grid button {{padding-left: 2px; padding-right: 2px;}}</style>")
    cols = st.container(key=K + "grid").columns(size, gap="small")
    for c in range(size):
        for r in range(size):
            name = cell_name(c, r)
            step = path.index(name) + 1 if name in path else None
            label, tip = cell_button(name, step, ends.get(name), road)
            cols[c].button(label, key=f"{K}g_{name}", on_click=_click, args=(name,), width="stretch", help=tip)


PHOTO_MAX_MB = LARGEST_MB      # the backdrop photo travels to the browser inside the drawing, so it stays small


def cell_button(name: str, step: int | None, end, road: int = 0) -> tuple[str, str]:
    """The label of a cell's button (its name, then its step on the road and its road end, compactly) and
    its tooltip in words. Every label has two lines, so that the grid's rows stay level."""
    marks = []
    if step is not None:
        marks.append(str(step))
    end_text = None
    if end is not None and str(end).strip() != "":
        end_text = f"e{end}"
        marks.append(end_text)
    words = [f"step {step} of road {road}"] if step is not None else []
    if end_text is not None:
        words.append(f"road end {end}")
    tip = f"cell {name}" + (": " + ", ".join(words) if words else "")
    return f"{name}  \n" + (f":small[{' '.join(marks)}]" if marks else "&nbsp;"), tip


def _table(name: str, columns: tuple, config: dict | None = None) -> None:
    t = ss[K + "ed_tables"]
    rows = editable(f"{K}tab_{name}", (ss[K + "ed_pick"], ss[K + "ed_version"]), t[name], list(columns),
                    column_config=config or {})
    if rows != t[name]:
        t = copy.deepcopy(t)
        t[name] = rows
        ss[K + "ed_tables"] = t


def editor_tab() -> None:
    _start()
    box = ss[K + "ed_box"]
    st.caption("Enter one side of a zone board: click cells to lay each road, then set corners in the table. "
               "Starts from the demonstration zones; change them or add your own zone letter.")
    c1, c2, c3, c4 = st.columns(4)
    box["name"] = c1.text_input("Box name", box["name"], key=K + "ed_name")
    box["size"] = int(c2.number_input("Cells per edge", 3, 20, int(box["size"]), key=K + "ed_size"))
    letters = sorted(box["zones"])
    zone = c3.text_input("Zone letter", ss[K + "ed_pick"][0], max_chars=1, key=K + "ed_zone").upper() or "X"
    surface = c4.selectbox("Side", SURFACES, index=SURFACES.index(ss[K + "ed_pick"][1]), key=K + "ed_surface")
    if (zone, surface) != ss[K + "ed_pick"]:
        _store_face()
        ss[K + "ed_pick"] = (zone, surface)
        fd = box["zones"].get(zone, {}).get("faces", {}).get(surface)
        ss[K + "ed_tables"] = E.tables_from_face(fd) if fd else E.empty_tables()
        _bump()
    st.caption(f"Zones in this box: {', '.join(letters)}")
    photo = st.file_uploader("Photo of the board (optional backdrop, stays in your browser session)",
                             type=["png", "jpg", "jpeg"], key=K + "ed_photo", max_upload_size=PHOTO_MAX_MB,
                             help=f"at most {PHOTO_MAX_MB} MB; a phone photo scaled down to about 1000 px is plenty")
    if photo is not None and photo.size > PHOTO_MAX_MB * 1024 * 1024:
        st.error(f"{photo.name}: the photo is {photo.size / (1024 * 1024):.1f} MB; the limit is {PHOTO_MAX_MB} MB  \n"
                 "_scale it down to about 1000 px across and upload it again_")
        photo = None
    top, bottom = st.container(), st.container()
    with bottom:
        _tables()
    left, right = top.columns([3, 2])
    with left:
        m1, m2, m3 = st.columns(3)
        m1.selectbox("Click sets", MODES, key=K + "ed_mode")
        t = ss[K + "ed_tables"]
        m2.selectbox("Road (row)", list(range(max(1, len(t["roads"])))), key=K + "ed_road")
        mode = ss.get(K + "ed_mode")
        if mode == "road end":
            m3.number_input("End number", 0, 9, 0, key=K + "ed_end")
        elif mode == "environment":
            m3.selectbox("Environment", ENVIRONMENTS, index=2, key=K + "ed_env")
        elif mode == "bump":
            m3.number_input("Bump note", 1, 5, 3, key=K + "ed_bump_note")
        n1, n2, n3 = st.columns(3)
        a = n1.number_input("New road from end", 0, 9, 0, key=K + "ed_new_a")
        b = n2.number_input("to end", 0, 9, 1, key=K + "ed_new_b")
        if n3.button("New road", key=K + "ed_new_road"):
            ss[K + "ed_tables"] = E.add_road(ss[K + "ed_tables"], int(a), int(b))
            _bump()
            st.rerun()
        _grid(box["size"])
    row_error = _store_face()
    ss.setdefault(K + "ed_first", repr(box))       # the box as the editor started: kept in the address once changed
    data = E.box_data(box["name"], box["size"], box["zones"])
    checked, message = E.check(data)
    message = row_error or message
    with right:
        if message:
            st.error(message.replace("\n", "  \n"))
        else:
            st.success(f"valid: {plural(len(checked.zones), 'zone')}, this side has "
                       f"{plural(len(checked.zones[zone].faces[surface].roads), 'road')}")
        if checked and zone in checked.zones and surface in checked.zones[zone].faces:
            svg = face_svg(checked.zones[zone].faces[surface], title=f"Zone {zone}, {surface} side")
            if photo is not None:
                uri = f"data:{photo.type};base64,{base64.b64encode(photo.getvalue()).decode()}"
                svg = svg.replace('<rect width="100%" height="100%" fill="#fff"/>',
                                  '<rect width="100%" height="100%" fill="#fff"/>'
                                  f'<image href="{uri}" x="36" y="50" width="{box["size"] * 40}" '
                                  f'height="{box["size"] * 40}" opacity="0.45" preserveAspectRatio="none"/>', 1)
            b64 = base64.b64encode(svg.encode()).decode()
            st.markdown(f'<img src="data:image/svg+xml;base64,{b64}" style="width:100%"/>', unsafe_allow_html=True)
        else:
            try:
                face = E.preview_face(ss[K + "ed_tables"], zone, surface, box["size"])
                svg = face_svg(face, title=f"Zone {zone}, {surface} side (being entered)")
                b64 = base64.b64encode(svg.encode()).decode()
                st.markdown(f'<img src="data:image/svg+xml;base64,{b64}" style="width:100%"/>',
                            unsafe_allow_html=True)
            except (ValueError, TypeError):
                st.info("add road ends and roads: the drawing follows")
        st.download_button("Download the box (YAML)", E.dump(data), file_name=f"{box['name']}.yaml",
                           mime="text/yaml", key=K + "ed_dl", disabled=bool(message))
        if st.button("Use this box for the stages", key=K + "ed_use", disabled=bool(message)):
            ss[K + "box_text"] = E.dump(data)
            ss[K + "analysis"] = {}
            ss[K + "message"] = "the stages now use the box from the zone editor"


def _tables() -> None:
    st.subheader("Tables")
    st.markdown("**Road ends** (number 0-9, border cell, side N/E/S/W for a corner cell of the board)")
    _table("ends", E.END_COLUMNS)
    st.markdown("**Roads** (row number = road; path: cells from the first end to the second)")
    _table("roads", E.ROAD_COLUMNS)
    st.markdown("**Corners** (road row; inside cells, note; drift cells, gear; cut cells, K)")
    _table("corners", E.CORNER_COLUMNS)
    st.markdown("**Cells with marks** (environment, bump note, ford, half-cell, lanes, crossroads)")
    _table("cells", E.CELL_COLUMNS, {"env": st.column_config.SelectboxColumn(options=list(ENVIRONMENTS))})
