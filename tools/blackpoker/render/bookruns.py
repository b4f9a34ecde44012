"""A long list of entry cards laid out in runs of bounded size (issue 25, item 10): the book's action chapter,
and an action list's frame (render/actionlist/pdf.py), where every entry is an empty box.

WeasyPrint keeps a whole document's layout in memory (about 2.3 MB a page of the book), so a list of thousands of
entries (5,000 actions in one group) cannot be laid out at once. Its entries are laid out in runs, each its own
document: a run is laid out, its pages before the last one that starts with one of its entries are kept, and the
next run starts with that entry. Nothing on the kept pages depends on what follows the entry (a page ends where
its content no longer fits; an entry card is kept whole or split by its own content), so they are the pages the
whole list gives; the pages after it are laid out again by the next run (about one page per run).

* a run that goes on starts inside the elements its first entry sits in (re-opened as a page group's piece is, see
  :func:`open_elements`), and the entry's top margin is dropped, as WeasyPrint drops it after an unforced page
  break;
* while a run is laid out each entry is known by its id, or carries a marker id (``bp-cut-N``, N its number in
  the list) if it has none, so the worker sees on which pages each entry is; the markers of the kept entries stay
  in the cached record (the next run starts after the last of them) and are taken out of the part that is joined.

The caller wraps each run's piece into a document (its head, running heads) and lays it out (see
:func:`lay_out_in_runs`).
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from blackpoker.render.pdfparts import ENGINE_LOCK, Part, PartInfo, Rebase, layout, part_info, with_stand_ins, written

if TYPE_CHECKING:
    from weasyprint.document import Document

# an entry card of the book without an id of its own (sphinxext/lists.py), as the single page writes it; group 1:
# its element's name (any pattern for entries has it)
ENTRY = re.compile(r'<(div) class="[^"]*\bbp-entry\b[^"]*">')
RUN_BYTES = 400_000  # the HTML of a run, at least (about 50 pages, 130 MB of layout); a longer piece is laid in runs
MARK = "bp-cut-"
_ID_IN_TAG = re.compile(r'\sid="([^"]*)"')
_STYLE_IN_TAG = re.compile(r'\sstyle="')
_TAG = re.compile(r"<(/?)([A-Za-z][A-Za-z0-9]*)((?:\s[^>]*)?)>")
_ID_ATTR = re.compile(r'\s(?:id|name)="[^"]*"')
_VOID = frozenset({"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source", "track", "wbr"})


class NoCut(Exception):
    """No page of a run (but the first) starts with one of its entries: the caller lays out a longer run."""


@dataclass(frozen=True)
class Entries:
    """The entry cards of a list (not those inside another card): where each starts and ends, and whether a page
    may start with it in a run's place (it follows the card before it with nothing between, and forces no break:
    at a document's start a forced break is not the one the whole list makes)."""

    spans: tuple[tuple[int, int], ...]
    cuttable: tuple[bool, ...]
    pattern: re.Pattern[str] = ENTRY


def entries_of(text: str, pattern: re.Pattern[str] = ENTRY) -> Entries:
    """The entries whose start tag ``pattern`` matches (its group 1: the element's name)."""
    spans: list[tuple[int, int]] = []
    ends: dict[str, re.Pattern[str]] = {}
    for match in pattern.finditer(text):
        if spans and match.start() < spans[-1][1]:
            continue  # a card inside the previous one
        name = match.group(1)
        tags = ends.setdefault(name, re.compile(rf"<(/?){name}\b"))
        depth, end = 0, None
        for tag in tags.finditer(text, match.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = text.index(">", tag.end()) + 1
                break
        if end is None:
            raise ValueError("an entry card of a list does not end")
        spans.append((match.start(), end))
    cuttable = tuple(i > 0 and not text[spans[i - 1][1]:spans[i][0]].strip()
                     and "break-before" not in text[spans[i][0]:text.index(">", spans[i][0])]
                     for i in range(len(spans)))
    return Entries(tuple(spans), cuttable, pattern)


def long_enough(text: str, limit: int = RUN_BYTES, pattern: re.Pattern[str] = ENTRY) -> bool:
    """Whether a piece is laid out in runs: longer than ``limit`` and with an entry a page may start with."""
    return len(text) > limit and any(entries_of(text, pattern).cuttable)


def run_end(entries: Entries, first: int, limit: int) -> int | None:
    """The entry the run from entry ``first`` stops before: the first one ``limit`` bytes or more after the run's
    start, with at least two entries in the run; None: the run goes to the end of the piece."""
    begin = 0 if first == 0 else entries.spans[first][0]
    starts = [start for start, _ in entries.spans]
    stop = bisect.bisect_left(starts, begin + limit, lo=min(first + 2, len(starts)))
    return stop if stop < len(starts) else None


def entry_names(text: str, entries: Entries, first: int, stop: int | None) -> dict[str, int]:
    """The name each entry of the run is known by while it is laid out (its id, else its marker) → its number."""
    names = {}
    for i in range(first, len(entries.spans) if stop is None else stop):
        start = entries.spans[i][0]
        own = _ID_IN_TAG.search(text, start, text.index(">", start))
        names[own.group(1) if own else f"{MARK}{i}"] = i
    return names


def run_html(text: str, entries: Entries, first: int, stop: int | None, reopen: str = "") -> str:
    """The run's HTML: from the piece's start (``first`` 0) or from entry ``first`` inside the re-opened elements
    (``reopen``, without its top margin), to entry ``stop`` or the piece's end; every entry without an id with its
    marker."""
    begin = 0 if first == 0 else entries.spans[first][0]
    end = len(text) if stop is None else entries.spans[stop][0]
    out, at = [reopen], begin
    for i in range(first, len(entries.spans) if stop is None else stop):
        start = entries.spans[i][0]
        head_end = text.index(">", start) + 1
        head = text[start:head_end]
        if not _ID_IN_TAG.search(head):
            head = f'{head[:-1]} id="{MARK}{i}">'
        if i == first and first > 0:
            style = _STYLE_IN_TAG.search(head)
            head = (head[:style.end()] + "margin-top: 0; " + head[style.end():] if style
                    else f'{head[:-1]} style="margin-top: 0">')
        out += [text[at:start], head]
        at = head_end
    out.append(text[at:end])
    return "".join(out)


def open_elements(html: str) -> str:
    """The start tags of the elements still open at the end of ``html`` (Sphinx's and the lists' templates' output
    is well formed), without their ids, as after a page break: no top margin, padding or border
    (box-decoration-break: slice)."""
    stack: list[tuple[str, str]] = []
    for m in _TAG.finditer(html):
        closing, tag, attrs = m.group(1), m.group(2).lower(), m.group(3)
        if tag in _VOID or attrs.rstrip().endswith("/"):
            continue
        if not closing:
            stack.append((tag, _ID_ATTR.sub("", attrs)))
            continue
        for depth in range(len(stack) - 1, -1, -1):
            if stack[depth][0] == tag:
                del stack[depth:]
                break
    cut = ' style="margin-top: 0; padding-top: 0; border-top-width: 0"'
    return "".join(f"<{tag}{attrs}{cut if 'style=' not in attrs else ''}>" for tag, attrs in stack)


def kept_pages(document: Document, first: int, cuttable: frozenset[int], names: Mapping[str, int]) -> int:
    """How many pages of a laid-out run to keep: those before the last page (not the first) that starts with a
    cuttable entry after ``first``, i.e. the entry is on it and the entry before it ends before it. ``names``:
    each entry's name in the run (see :func:`entry_names`) → its number."""
    first_page: dict[int, int] = {}
    last_page: dict[int, int] = {}
    for number, page in enumerate(document.pages):
        for name in page.anchors:
            entry = names.get(name)
            if entry is not None:
                first_page.setdefault(entry, number)
                last_page[entry] = number
    best = 0
    for entry, page in first_page.items():
        if entry > first and entry in cuttable and page > best and last_page.get(entry - 1, page) < page:
            best = page
    if best == 0:
        raise NoCut(f"no page starts with an entry after entry {first}")
    return best


def render_run(html: str, base_url: str, first: int, cuttable: frozenset[int], last: bool,
               names: Mapping[str, int], rebase: Rebase | None = None) -> tuple[bytes, PartInfo]:
    """Lay out a run (in a worker) and write the pages it keeps (all of the last run's), its links ``rebase``d
    (pdfparts.written)."""
    html, stand_ins = with_stand_ins(html)
    with ENGINE_LOCK:
        document = layout(html, base_url)
        if not last:
            document = document.copy(document.pages[:kept_pages(document, first, cuttable, names)])
        return written(document, rebase), part_info(document, stand_ins)


@dataclass(frozen=True)
class Run:
    """One run to lay out: its piece of the list (``html``, to be wrapped into a document by the caller), the
    entries it starts and stops before (``stop`` None: the last run), those a kept page may start with, and the
    name of each of its entries (see :func:`entry_names`)."""

    html: str
    first: int
    stop: int | None
    cuttable: frozenset[int]
    names: Mapping[str, int]

    @property
    def last(self) -> bool:
        return self.stop is None


def lay_out_in_runs(text: str, entries: Entries, lay_out: Callable[[Run], Part], run_bytes: int = RUN_BYTES,
                    ) -> list[Part]:
    """A long list laid out in runs of its entries, each after the one before; ``lay_out`` wraps a run into its
    document and lays it out with :func:`render_run` (in a worker, through the cache). The parts are returned
    as they are joined (without markers)."""
    parts: list[Part] = []
    first, limit = 0, run_bytes
    while True:
        stop = run_end(entries, first, limit)
        reopen = open_elements(text[:entries.spans[first][0]]) if first else ""
        names = entry_names(text, entries, first, stop)
        run = Run(run_html(text, entries, first, stop, reopen), first, stop,
                  frozenset(i for i in names.values() if entries.cuttable[i]), names)
        try:
            part = lay_out(run)
        except NoCut:  # no page of it starts with an entry (entries longer than pages): a longer run
            limit *= 2
            continue
        parts.append(without_marks(part))
        if stop is None:
            return parts
        first, limit = max(names[a.name] for a in part.info.anchors if a.name in names) + 1, run_bytes


def without_marks(part: Part) -> Part:
    """The part as it is joined: the markers are not anchors of the document."""
    anchors = tuple(a for a in part.info.anchors if not a.name.startswith(MARK))
    return Part(part.pdf, replace(part.info, anchors=anchors))
