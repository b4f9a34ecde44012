"""A long list of entry cards in the book, laid out in runs of bounded size (issue 25, item 10).

WeasyPrint keeps a whole document's layout in memory (about 2.3 MB a page), so a piece of a chapter with
thousands of entries (5,000 actions in one group) cannot be laid out at once. Its entries are laid out in runs,
each its own document: a run is laid out, its pages before the last one that starts with one of its entries are
kept, and the next run starts with that entry. Nothing on the kept pages depends on what follows the entry (a page
ends where its content no longer fits; an entry card is kept whole or split by its own content), so they are the
pages the whole piece gives; the pages after it are laid out again by the next run (about one page per run).

* a run that goes on starts inside the elements its first entry sits in (re-opened as a page group's piece is, see
  book.open_elements), and the entry's top margin is dropped, as WeasyPrint drops it after an unforced page break;
* while a run is laid out each entry carries a marker id (``bp-cut-N``, N its number in the piece), so the worker
  sees on which pages each entry is; the markers of the kept entries stay in the cached record (the next run starts
  after the last of them) and are taken out of the part the book joins.
"""

from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING

from blackpoker.render.pdfparts import ENGINE_LOCK, Part, PartInfo, layout, part_info, with_stand_ins

if TYPE_CHECKING:
    from weasyprint.document import Document

# an entry card without an id of its own (sphinxext/lists.py), as the single page writes it
ENTRY = re.compile(r'<div class="[^"]*\bbp-entry\b[^"]*">')
_DIV = re.compile(r"<(/?)div\b")
RUN_BYTES = 400_000  # the HTML of a run, at least (about 50 pages, 130 MB of layout); a longer piece is laid in runs
MARK = "bp-cut-"


class NoCut(Exception):
    """No page of a run (but the first) starts with one of its entries: the caller lays out a longer run."""


@dataclass(frozen=True)
class Entries:
    """The entry cards of a chapter piece (not those inside another card): where each starts and ends, and
    whether a page may start with it in a run's place (it follows the card before it with nothing between)."""

    spans: tuple[tuple[int, int], ...]
    cuttable: tuple[bool, ...]


def entries_of(text: str) -> Entries:
    spans: list[tuple[int, int]] = []
    for match in ENTRY.finditer(text):
        if spans and match.start() < spans[-1][1]:
            continue  # a card inside the previous one
        depth, end = 0, None
        for tag in _DIV.finditer(text, match.start()):
            depth += -1 if tag.group(1) else 1
            if depth == 0:
                end = text.index(">", tag.end()) + 1
                break
        if end is None:
            raise ValueError("an entry card of the single page does not end")
        spans.append((match.start(), end))
    cuttable = tuple(i > 0 and not text[spans[i - 1][1]:spans[i][0]].strip() for i in range(len(spans)))
    return Entries(tuple(spans), cuttable)


def long_enough(text: str, limit: int = RUN_BYTES) -> bool:
    """Whether a piece is laid out in runs: longer than ``limit`` and with an entry a page may start with."""
    return len(text) > limit and any(entries_of(text).cuttable)


def run_end(entries: Entries, first: int, limit: int) -> int | None:
    """The entry the run from entry ``first`` stops before: the first one ``limit`` bytes or more after the run's
    start, with at least two entries in the run; None: the run goes to the end of the piece."""
    begin = 0 if first == 0 else entries.spans[first][0]
    starts = [start for start, _ in entries.spans]
    stop = bisect.bisect_left(starts, begin + limit, lo=min(first + 2, len(starts)))
    return stop if stop < len(starts) else None


def run_html(text: str, entries: Entries, first: int, stop: int | None, reopen: str = "") -> str:
    """The run's HTML: from the piece's start (``first`` 0) or from entry ``first`` inside the re-opened elements
    (``reopen``, without its top margin), to entry ``stop`` or the piece's end; every entry with its marker."""
    begin = 0 if first == 0 else entries.spans[first][0]
    end = len(text) if stop is None else entries.spans[stop][0]
    out, at = [reopen], begin
    for i in range(first, len(entries.spans) if stop is None else stop):
        start = entries.spans[i][0]
        tag = ENTRY.match(text, start)
        assert tag is not None
        margin = ' style="margin-top: 0"' if i == first and first > 0 else ""
        out += [text[at:start], f'{tag.group(0)[:-1]} id="{MARK}{i}"{margin}>']
        at = tag.end()
    out.append(text[at:end])
    return "".join(out)


def kept_pages(document: Document, first: int, cuttable: frozenset[int]) -> int:
    """How many pages of a laid-out run to keep: those before the last page (not the first) that starts with a
    cuttable entry after ``first``, i.e. the entry is on it and the entry before it ends before it."""
    first_page: dict[int, int] = {}
    last_page: dict[int, int] = {}
    for number, page in enumerate(document.pages):
        for name in page.anchors:
            if name.startswith(MARK):
                entry = int(name[len(MARK):])
                first_page.setdefault(entry, number)
                last_page[entry] = number
    best = 0
    for entry, page in first_page.items():
        if entry > first and entry in cuttable and page > best and last_page.get(entry - 1, page) < page:
            best = page
    if best == 0:
        raise NoCut(f"no page starts with an entry after entry {first}")
    return best


def render_run(html: str, base_url: str, first: int, cuttable: frozenset[int], last: bool) -> tuple[bytes, PartInfo]:
    """Lay out a run (in a worker) and write the pages it keeps (all of the last run's)."""
    html, stand_ins = with_stand_ins(html)
    with ENGINE_LOCK:
        document = layout(html, base_url)
        if not last:
            document = document.copy(document.pages[:kept_pages(document, first, cuttable)])
        return document.write_pdf(), part_info(document, stand_ins)


def next_entry(part: Part) -> int:
    """The entry the next run starts with: the one after the last entry on the run's kept pages."""
    return max(int(a.name[len(MARK):]) for a in part.info.anchors if a.name.startswith(MARK)) + 1


def without_marks(part: Part) -> Part:
    """The part as the book joins it: the markers are not anchors of the book."""
    anchors = tuple(a for a in part.info.anchors if not a.name.startswith(MARK))
    return Part(part.pdf, replace(part.info, anchors=anchors))
