"""Convert the official data files into our definitions (the YAML data of each definitions file).

The steps, each in its module: the headers and the edition (here), frames (frame_entries.py), the entries of act.yaml
and act-frame.yaml (entries.py), what the files leave implicit (derive.py) and the definitions files
(assemble.py); the field tables are in fields.py, the base definitions behind base_definitions.py. A value that cannot be
mapped is a located error at the official file's line and column, and the entry that holds it is left out
(``--keep-going`` writes the rest); what the official format allows but our definitions cannot say the same way
is a located warning, and changes that keep the meaning are located notes.
"""

from __future__ import annotations

import re
from pathlib import Path

from blackpoker.core.dates import date_problem, printed_date
from blackpoker.core.errors import PathPart
from blackpoker.core.loader import FILES
from blackpoker.official import convert as cv
from blackpoker.official import entries as en
from blackpoker.official.assemble import assemble
from blackpoker.official.base_definitions import Base
from blackpoker.official.context import Context, ImportResult
from blackpoker.official.derive import derive
from blackpoker.official.fields import HEADER_KEYS, TOP_KEYS
from blackpoker.official.frame_entries import read_frames
from blackpoker.official.reader import ACT, ACT_FRAME, FRAME, VERSION, OfficialFiles
from blackpoker.official.yamltext import dump


def import_official(official: OfficialFiles, base: Path) -> ImportResult:
    """Convert ``official`` (already read) into definitions data, with ``base`` for what it does not hold."""
    ctx = Context(official, Base(base))
    for name, source in official.sources.items():
        ctx.unknown_keys(source, (), source.data, TOP_KEYS[name])
    edition(ctx)
    frames = read_frames(ctx)
    actions = [e for name in (ACT, ACT_FRAME) for e in en.read_entries(ctx, name, "actList", en.action)]
    characters = [e for name in (ACT, ACT_FRAME) for e in en.read_entries(ctx, name, "charList", en.character)]
    fogs = [e for name in (ACT, ACT_FRAME) for e in en.read_entries(ctx, name, "fogList", en.fog)]
    trumps = list(en.read_entries(ctx, ACT_FRAME, "trumpList", en.trump))
    derive(ctx, actions, characters, fogs, trumps)
    assemble(ctx, frames, actions, characters, fogs, trumps)
    return ctx.result


def header(ctx: Context, name: str) -> dict[str, str] | None:
    """A file's header (``version.json``, or the ``data:`` of a YAML file): where the edition's version and date
    come from."""
    src = ctx.official.sources.get(name)
    if src is None:
        return None
    raw = src.data if name == VERSION else src.data.get("data")
    path: tuple[PathPart, ...] = () if name == VERSION else ("data",)
    if not isinstance(raw, dict):
        ctx.error(src, path, "missing the header; expected data: with ver and lastupdate")
        return None
    if name != VERSION:
        ctx.unknown_keys(src, path, raw, HEADER_KEYS)
    out: dict[str, str] = {}
    for key in HEADER_KEYS:
        if key in raw and raw[key] is not None:
            if isinstance(raw[key], (dict, list, bool)):
                ctx.error(src, path + (key,), f"{type(raw[key]).__name__} is not text; expected a string")
                continue
            out[key] = str(raw[key]).strip()
    for key in ("ver", "lastupdate"):
        if key not in out:
            ctx.error(src, path, f"missing field '{key}'")
            return None
    problem = date_problem(out["lastupdate"])  # every file's, not only the edition's: the definitions keep them all
    if problem is not None:
        ctx.error(src, path + ("lastupdate",), problem)
        return None
    return out


def edition(ctx: Context) -> None:
    """The edition's version and date: version.json's, else act.yaml's."""
    ctx.headers = {name: h for name in (ACT, ACT_FRAME, FRAME, VERSION) if (h := header(ctx, name))}
    main = VERSION if VERSION in ctx.headers else ACT
    found = ctx.headers.get(main)
    if found is None:
        return
    src = ctx.official.sources[main]
    where: tuple[PathPart, ...] = () if main == VERSION else ("data",)
    ver, last = found["ver"], found["lastupdate"]
    number = re.search(r"([0-9]+)\.([0-9]+)", ver) or re.search(r"第([0-9]+)版", ver)
    if number is None:
        ctx.error(src, where + ("ver",), f"{cv.excerpt(ver)} names no edition number; expected e.g. 第9.0版")
        return
    if any(len(part) > 6 for part in number.groups() if part):  # an edition, not a 5,000-digit number
        ctx.error(src, where + ("ver",), f"{cv.excerpt(ver)} has an edition number of "
                  f"{max(len(part) for part in number.groups() if part):,} digits; expected e.g. 第9.0版")
        return
    version = f"v{number[1]}.{number[2] if number.lastindex == 2 else 0}"
    printed = re.search(r"第[0-9.]+版", ver)
    ctx.edition_text = printed[0] if printed else ver
    date = printed_date(last)
    if date is None:  # checked in header(): a day of the calendar
        ctx.error(src, where + ("lastupdate",), date_problem(last) or "not a date")
        return
    year, month, day = date
    ctx.version, ctx.release = version, last
    ctx.released = f"{year:04d}-{month:02d}" + (f"-{day:02d}" if day else "")


def schema_line(schema: str) -> str:
    """The first line of every definitions file: the schema editors validate it with."""
    return f"# yaml-language-server: $schema=../schemas/{schema}"


def definitions_texts(result: ImportResult) -> dict[str, str]:
    """Each definitions file's YAML text, starting with its schema line."""
    return {f.name: dump(result.files[f.name], schema_line(f.schema)) for f in FILES}
