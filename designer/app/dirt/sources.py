"""Where stages come from and go to in the app: bundled stages and tilesets, uploads, share codes,
exports. Plain functions (no Streamlit) so tests call them directly.

Optional modules written elsewhere (``designer.systems.dirt.io`` for .rgt / rekee JSON,
``designer.systems.dirt.book.roadbook`` for the PDF) are imported lazily; while they are missing, the functions
raise :class:`Unavailable` with a sentence the app shows instead of a traceback.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from pathlib import Path

import yaml

from designer.core import paths
from designer.core.errors import DesignerError
from designer.systems.dirt.board.stage import (MAX_RALLY_STAGES, Rally, Stage, dumps_stage, from_share_code,
                                               loads_stage, share_code, stage_from_data, stage_to_data)

#: Uploads larger than this are refused with a message (a stage file is a few kilobytes).
MAX_UPLOAD_BYTES = 1024 * 1024
UPLOAD_TYPES = ("yaml", "yml", "rgt", "json", "txt")


class Unavailable(Exception):
    """A feature whose module is not installed or not written yet."""


def message_of(exc: BaseException) -> str:
    """A user error as Markdown lines: ``where: message``, details, then the hint in grey."""
    if isinstance(exc, DesignerError):
        head = f"{exc.where}: {exc.message}" if exc.where else exc.message
        lines = [md_escape(x) for x in (head, *exc.details)]
        if exc.hint:
            lines.append(f":gray[hint: {md_escape(exc.hint)}]")
        return "  \n".join(lines)
    return md_escape(str(exc))


def md_escape(text: str) -> str:
    """Text shown as is in Markdown (no emphasis, code, links or HTML)."""
    for ch in ("*", "_", "`", "[", "]", "<", ">", "#"):
        text = text.replace(ch, "\\" + ch)
    return text


def repo_root() -> Path:
    return paths.ROOT


def stages_dir() -> Path | None:
    """The folder of the rulebook's stages (``stages/dirt``)."""
    d = paths.STAGES / "dirt"
    return d if d.is_dir() else None


@dataclass(frozen=True)
class BundledStage:
    rally: str          # folder name, e.g. rally-1
    rally_name: str     # e.g. Rally 1
    file: Path
    label: str          # e.g. Rally 1 - SS1

    @property
    def key(self) -> str:
        return f"{self.rally}/{self.file.stem}"


def bundled_stages() -> list[BundledStage]:
    """The stages shipped with the designer (the rulebook's example rallies), in rally order.

    Read once per folder state (the folder's listing and times are the key), since every page run asks."""
    root = stages_dir()
    if root is None:
        return []
    stamp = tuple((p.name, p.stat().st_mtime_ns) for p in sorted(root.iterdir()))
    return list(_bundled_stages(root, stamp))


@functools.lru_cache(maxsize=4)
def _bundled_stages(root: Path, _stamp: tuple) -> tuple[BundledStage, ...]:
    return tuple(_read_bundled_stages(root))


def _read_bundled_stages(root: Path | None) -> list[BundledStage]:
    """The DIRT system's bundled stages (its examples), as the sidebar lists them."""
    if root is None:
        return []
    from designer.systems.dirt.system import SYSTEM

    return [BundledStage(e.key.split("/")[0], e.group or "", e.path, e.label)
            for e in SYSTEM.examples() if e.kind == "stage"]


def bundled_rallies() -> dict[str, list[BundledStage]]:
    out: dict[str, list[BundledStage]] = {}
    for b in bundled_stages():
        out.setdefault(b.rally_name, []).append(b)
    return out


def load_bundled(key: str) -> Stage:
    from designer.systems.dirt.board.stage import load_stage

    for b in bundled_stages():
        if b.key == key:
            return load_stage(b.file)
    raise DesignerError(f"no bundled stage {key!r}")


def tileset_names() -> list[str]:
    from designer.systems.dirt.board.tileset import tileset_dirs

    names = []
    for d in tileset_dirs():
        if d.is_dir():
            for p in sorted(d.glob("*.yaml")):
                if not p.stem.endswith("-rules") and p.stem not in names:
                    names.append(p.stem)
    return names


def offered_tileset(name) -> "Tileset":
    """The tileset a stage opened in the app names, if the app offers it (by name, never a path).

    Checked before anything is read: a name that is not one of :func:`tileset_names` is a
    :class:`DesignerError`, so an upload or a link cannot make the server open a file of its choosing."""
    from designer.core.offered import plain_name
    from designer.systems.dirt.board.tileset import get_tileset

    offered = tileset_names()
    name = plain_name(name, what="tileset", where="tileset", offered=offered)
    if name not in offered:
        raise DesignerError(f"this app has no tileset named {name[:60]!r}", where="tileset",
                            hint=f"write one of: {', '.join(offered)}")
    return get_tileset(name)


# -- reading uploads ----------------------------------------------------------------------

@dataclass
class Loaded:
    """What an upload or a pasted text held: one stage, or a rally (several stages in order)."""
    stages: list[Stage]
    rally_name: str | None = None

    @property
    def stage(self) -> Stage:
        return self.stages[0]

    @property
    def is_rally(self) -> bool:
        return self.rally_name is not None


def _text_of(name: str, data: bytes) -> str:
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise DesignerError("the file is not text (UTF-8)", where=name,
                            hint="upload a stage .yaml, a .rgt or a rekee .json file") from None


def read_upload(name: str, data: bytes) -> Loaded:
    """Parse an uploaded file: stage or rally YAML, a share code in a text file, .rgt or rekee JSON.

    Raises :class:`DesignerError` (or :class:`Unavailable`) with a message for the user; never
    returns a half-read stage.
    """
    size = len(data)
    if size > MAX_UPLOAD_BYTES:
        raise DesignerError(f"the file is {size / (1024 * 1024):.1f} MB; the limit is "
                            f"{MAX_UPLOAD_BYTES // (1024 * 1024)} MB", where=name,
                            hint="a stage file is a few kilobytes; check that this is the right file")
    if size == 0:
        raise DesignerError("the file is empty", where=name)
    suffix = Path(name).suffix.lower().lstrip(".")
    if suffix in ("rgt", "json"):
        return Loaded([import_foreign(name, data)])
    text = _text_of(name, data)
    if text.strip().startswith("RD1/"):
        return Loaded([from_share_code(text.strip().splitlines()[0])])
    if suffix in ("yaml", "yml", "txt", ""):
        return read_yaml_text(text, name)
    raise DesignerError(f"files of type .{suffix} cannot be opened", where=name,
                        hint="upload a stage .yaml, a .rgt (Rallyman Track Editor) or a rekee .json file")


def read_yaml_text(text: str, source: str = "<upload>") -> Loaded:
    from designer.core import yamlio

    data, lines = yamlio.loads(text, source)
    if isinstance(data, dict) and "stages" in data and "tiles" not in data:
        if not isinstance(data["stages"], list):
            raise DesignerError("`stages:` must be a list of stages", where=source)
        if len(data["stages"]) > MAX_RALLY_STAGES:
            raise DesignerError(f"this rally lists {len(data['stages'])} stages; a rally has at most "
                                f"{MAX_RALLY_STAGES}", where=source, hint="split it into several rallies")
        stages = []
        for i, ref in enumerate(data.get("stages") or []):
            if isinstance(ref, dict):
                stages.append(stage_from_data(ref, lines, f"{source} stage {i + 1}"))
            else:
                raise DesignerError(f"stage {i + 1} of this rally is a file name ({ref!r}), "
                                    "which an upload cannot reach",
                                    where=source, hint="upload the stage files one by one, or a rally file "
                                                       "with the stages written inside it (Rally tab, download)")
        if not stages:
            raise DesignerError("this rally file lists no stages", where=source)
        return Loaded(stages, rally_name=str(data.get("rally") or data.get("name") or "Rally"))
    return Loaded([loads_stage(text, source)])


def read_share_code(code: str) -> Stage:
    if not code or not code.strip():
        raise DesignerError("paste a share code first", where="share code",
                            hint="a share code looks like RD1/dirt-core/202aA.210bC/name=My%20stage")
    return from_share_code(code)


def _io():
    try:
        from designer.systems.dirt import io as dio
        getattr(dio, "import_file")
        getattr(dio, "export_stage")
    except (ImportError, AttributeError):
        raise Unavailable("Import and export of .rgt and rekee files are not available in this version "
                          "(the designer.systems.dirt.io module is missing).") from None
    return dio


def import_foreign(name: str, data: bytes) -> Stage:
    """A .rgt (Rallyman Track Editor) or rekee JSON layout as a stage, through :mod:`designer.systems.dirt.io`."""
    return _io().import_file(name, data)


def foreign_available() -> bool:
    try:
        _io()
        return True
    except Unavailable:
        return False


# -- writing ------------------------------------------------------------------------------

def slug(name: str) -> str:
    import re
    s = re.sub(r"[^A-Za-z0-9]+", "-", name).strip("-").lower()
    return s or "stage"


def stage_yaml(stage: Stage) -> bytes:
    return dumps_stage(stage).encode("utf-8")


def stage_share_code(stage: Stage) -> str:
    return share_code(stage)


def export_foreign(stage: Stage, fmt: str) -> tuple[bytes, str, str]:
    """``(data, file name, mime type)`` of a stage as ``rgt`` or ``rekee``."""
    return _io().export_stage(stage, fmt)


def rally_yaml(name: str, stages: list[Stage]) -> bytes:
    """One rally file with its stages written inside (readable by ``load_rally`` and by the upload)."""
    data = {"rally": name, "stages": [stage_to_data(s) for s in stages]}
    return yaml.safe_dump(data, sort_keys=False, allow_unicode=True, width=100).encode("utf-8")


def _roadbook():
    try:
        from designer.systems.dirt.book import roadbook as rb
        getattr(rb, "stage_roadbook")
        getattr(rb, "rally_roadbook")
    except (ImportError, AttributeError):
        raise Unavailable("The PDF road book is not available in this version "
                          "(the designer.systems.dirt.book.roadbook module is missing).") from None
    return rb


def roadbook_available() -> bool:
    try:
        _roadbook()
        return True
    except Unavailable:
        return False


def roadbook_pdf(stages: list[Stage], rally_name: str | None = None, paper: str = "A4",
                 players: int | None = None, lines: bool = True, analysis: dict | None = None) -> bytes:
    """The PDF road book of one stage, or of a rally when ``rally_name`` is given; ``lines=False`` leaves the line
    and the times out (competitive play); ``analysis``: the stage's analysis at hand (with its expected time)."""
    rb = _roadbook()
    if rally_name is None:
        return rb.stage_roadbook(stages[0], None, paper, players=players, lines=lines, analysis=analysis)
    return rb.rally_roadbook(Rally(name=rally_name, stages=list(stages)), None, paper, players=players, lines=lines)


def rally_from_bundle(rally_name: str) -> Rally:
    stages = []
    for b in bundled_rallies().get(rally_name, []):
        from designer.systems.dirt.board.stage import load_stage
        stages.append(load_stage(b.file))
    return Rally(name=rally_name, stages=stages)
