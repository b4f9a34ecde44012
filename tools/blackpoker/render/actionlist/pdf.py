"""The PDF action lists: A5 portrait through WeasyPrint, then 2-up (A4 landscape) and saddle-stitch booklets.

The same entry appears in up to five lists (207 places, 66 different entries), and editing one entry should
not lay out whole lists again. So every entry is laid out once and the lists are put together from them:

1. entries: every few entries of a section (all lists' versions of them) are one cached document with one
   entry per page; that gives every entry's drawing and its exact height;
2. frame: each list is laid out as one document in which every entry is an invisible box of that height and
   the cover is as many empty pages as it takes: headings, running heads and page numbers are all real,
   and the page breaks are the ones the entries would make (break-inside: avoid, headings kept with their
   first entry);
   A list of thousands of entries is laid out in runs of its entries (render/bookruns.py, as the book's action
   chapter), each a document of a bounded size: WeasyPrint keeps a whole document's layout in memory (1.4 GB
   for the frame of 5,000 actions). The runs' pages carry no page numbers: "3 / 1200" needs the list's last
   page, so they are stamped from folio documents (empty numbered pages, a few hundred each) afterwards;
3. cover: the cover (title, contents, legend) laid out alone, its contents' page numbers read from the frame
   as literal numbers. It is most of a frame's cost, so keeping it apart means an entry that grows or
   shrinks lays out again only the frames (the body's boxes are cheap), and a cover only if its numbers change;
4. the cover's pages and the entries' drawings are stamped onto the frame (pdfparts.join), links, bookmarks
   and anchors included.

An entry taller than a page cannot be kept on one page: its box goes past the foot of the page where the first
frame puts it (or, a group's first, it leaves its headings alone on the page before). It then starts a page,
with its headings if it has any, and goes on over as many pages as it takes: it is laid out alone on the
lists' own pages, as it would start a page in its list (the headings there but invisible), and WeasyPrint
breaks it; the frame is laid out again with a box for each piece (the first fills the rest of its page, the
others start the pages after it), and each piece is stamped into its box. The entry's document names no list, so
the lists that show the same entry under the same headings share one layout of it (the costliest part of a long
entry), laid out once even when their threads ask for it at the same time.

An edit re-renders the entry's batch (a fraction of a second on the core the book leaves free), plus the
frames of the lists whose entry heights it changes and the covers whose page numbers it moves. A test
checks that the lists look exactly like the same list rendered as one document.
"""

from __future__ import annotations

import functools
import re
import tempfile
import threading
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import TYPE_CHECKING

from blackpoker.core.model import Rules
from blackpoker.infra.jobs import LATER, SOON, Inline, Runner, Scheduler, default_workers, done, process_pool, results
from blackpoker.render.actionlist.templates import STATIC_DIR, make_environment, page_context
from blackpoker.render.actionlist.view import EntryView, Group, ListPage, Section, list_pages
from blackpoker.render.bookruns import Run, entries_of, lay_out_in_runs, long_enough, render_run
from blackpoker.render.fonts import stylesheet as font_stylesheet
from blackpoker.render.pdfparts import (
    PX_TO_PT,
    Anchor,
    Part,
    PartCache,
    PartInfo,
    Stamp,
    digest,
    engine_version,
    join,
    layout,
    part_key,
    render_part,
)

if TYPE_CHECKING:
    from weasyprint.document import Document

PDF_DIR = Path("actionlist") / "pdf"
BASE_URL = str(STATIC_DIR) + "/"
# Entries alone: one per page, as wide as on A5, no running heads or numbers.
ENTRIES_CSS = ("@page { size: 148mm 3000mm; margin: 0 10mm; @top-left { content: none; } "
               "@top-right { content: none; } @bottom-center { content: none; } } "
               "@page :first { @top-left { content: none; } @top-right { content: none; } } "
               ".bp-one { break-before: page; }")
_ID = re.compile(r'\bid="([^"]+)"')
# The cover alone: no running heads or page numbers (the frame's page draws those), contents numbered literally.
COVER_CSS = ("@page { @top-left { content: none; } @top-right { content: none; } @bottom-center { content: none; } } "
             "@page :first { @top-left { content: none; } @top-right { content: none; } "
             "@bottom-center { content: none; } } "
             '.print-toc a::after { content: leader(".") attr(data-page); }')
# The lists' page body (where their content goes): a fixed box at its top and one at its foot give its place.
BODY_MARKS = ('<div id="bp-body-top" style="position: fixed; top: 0; left: 0; width: 0; height: 0"></div>'
              '<div id="bp-body-foot" style="position: fixed; bottom: 0; left: 0; width: 0; height: 0"></div>')
# An entry taller than a page, alone on the lists' own pages (the frame draws the running heads, numbers and
# headings), free to break over pages.
LONG_CSS = ("@page { @top-left { content: none; } @top-right { content: none; } @bottom-center { content: none; } } "
            "@page :first { @top-left { content: none; } @top-right { content: none; } "
            "@bottom-center { content: none; } } "
            ".keep, .entry { break-inside: auto; } "
            ".section-title, .group-title { visibility: hidden; bookmark-level: none; }")
CONTINUED = "--part-"  # the frame's box for piece k (k >= 1) of a long entry is "<anchor>--part-<k>"
# A frame longer than this (its HTML; about 400 entries, 90 pages, 150 bytes an entry) is laid out in runs
# (bookruns): no list of the repository's editions is.
FRAME_RUN_BYTES = 60_000
FRAME_ENTRY = re.compile(r'<(article) class="entry\b[^"]*"')  # an entry's box in a frame (templates: print.html)
# where a frame's content starts: after the hidden running-head strings, which every run repeats
_RUNNING = re.compile(r'<div class="running-edition">[^<]*</div>')
# A frame in runs: no page numbers (the folios draw them); a run that goes on has its running heads on its first
# page, which is not the list's first (print.css: the running heads are these strings, but not on the cover).
RUNS_CSS = "@page { @bottom-center { content: none; } }"
GOES_ON_CSS = ("@page :first { @top-left { content: string(doctitle); } "
               "@top-right { content: string(docedition); } }")
# The folio of a frame in runs: empty pages numbered as print.css numbers a list's ("3 / 120"), from ``start``,
# for a list of ``total`` pages, a document of at most FOLIO_PAGES of them.
FOLIO_CSS = ("@page {{ @top-left {{ content: none; }} @top-right {{ content: none; }} "
             '@bottom-center {{ content: counter(page) " / {total}"; }} }} '
             "@page :first {{ counter-increment: page {first}; }}")
FOLIO_PAGES = 200
# Entries laid out together: a document costs about two entries' time, so small batches make an edit cheap
# (it lays out its batch again) for little more in a cold build.
ENTRIES_PER_BATCH = 4


@dataclass(frozen=True)
class GroupPart:
    """The entries of one group in one print document; ``starts``: with the heading and first entry."""

    group: Group
    starts: bool
    first_of_section: bool
    entries: tuple[EntryView, ...]


@dataclass(frozen=True)
class SectionPart:
    section: Section
    starts: bool
    groups: tuple[GroupPart, ...]


@dataclass(frozen=True)
class PrintDoc:
    """What one print document shows (see templates/actionlist/print.html)."""

    runs: tuple[SectionPart, ...] = ()
    cover: bool = False
    cover_pages: int = 0  # without the cover: this many empty pages where it would be
    colophon: bool = False
    toc_pages: dict[str, int] = field(default_factory=dict)
    heights: dict[str, float] = field(default_factory=dict)
    continued: dict[str, tuple[float, ...]] = field(default_factory=dict)
    drawn: dict[str, str] = field(default_factory=dict)  # entry anchor -> the HTML to show for it
    page_breaks: frozenset[str] = frozenset()  # entries and groups that start a page
    spacer: float = 0.0  # an empty block this high (px) before the runs
    spacer_section: bool = False  # the spacer is a list section (before any but the list's first section)
    css: str = ""
    running_literal: bool = False
    running_strings: bool = True  # the hidden running-head strings (the cover alone draws no running heads)
    shared: bool = False  # laid out once for every list that shows it: the document names no list (its title)


def whole(page: ListPage) -> tuple[SectionPart, ...]:
    """Every section and group of a list, from its start."""
    return tuple(SectionPart(s, True, tuple(GroupPart(g, True, i == 0, g.entries[1:]) for i, g in enumerate(s.groups)))
                 for s in page.sections)


def render_print_html(rules: Rules, page: ListPage, doc: PrintDoc | None = None) -> str:
    """A print document of one list; by default the whole list (cover, entries, colophon) as one document."""
    env = make_environment(rules)
    doc = doc or PrintDoc(whole(page), cover=True, colophon=True)
    return env.get_template("print.html").render({**page_context(rules, page, list_pages(rules)), "doc": doc})


def render_documents(rules: Rules, pages: tuple[ListPage, ...] | None = None) -> dict[str, Document]:
    """Each list laid out as one A5 document (keyed by list key): the reference the built PDFs must match."""
    return {page.key: layout(render_print_html(rules, page), BASE_URL)
            for page in (pages if pages is not None else list_pages(rules))}


def pdf_paths(out_dir: Path, page: ListPage) -> tuple[Path, Path, Path]:
    """The A5, 2-up and booklet files of one list."""
    folder = out_dir / PDF_DIR
    return (folder / f"{page.pdf_stem}.pdf", folder / f"{page.pdf_stem}-2up.pdf",
            folder / f"{page.pdf_stem}-booklet.pdf")


# --- jobs (worker processes) --------------------------------------------------------------------------

def _render(html: str, cache_dir: str, key: str) -> Part:
    data, info = render_part(html, BASE_URL)
    return PartCache(Path(cache_dir)).put(key, data, info)


def _render_pieces(html: str, cache_dir: str, key: str) -> Part:
    """A part whose boxes may break over pages: where each goes on is recorded too."""
    data, info = render_part(html, BASE_URL, pieces=True)
    return PartCache(Path(cache_dir)).put(key, data, info)


def _render_run(html: str, cache_dir: str, key: str, run: Run) -> Part:
    """A run of a long list's frame (see bookruns)."""
    data, info = render_run(html, BASE_URL, run.first, run.cuttable, run.last, run.names)
    return PartCache(Path(cache_dir)).put(key, data, info)


def _pass_on(to: Future[Part], future: Future[Part]) -> None:
    """Give ``to`` the outcome of ``future`` (a part rendered for every list that asked for it)."""
    if future.cancelled():
        to.cancel()
    elif (error := future.exception()) is not None:
        to.set_exception(error)
    else:
        to.set_result(future.result())


def _foot(box: Anchor) -> float:
    """The bottom of a laid-out box, in points from the page's foot."""
    return box.y - box.height * PX_TO_PT


def _assemble(frames: tuple[Part, ...], stamps: list[Stamp], a5: Path, two_up: Path, booklet: Path) -> None:
    join(frames, a5, stamps=stamps, impositions=[(two_up, "2up"), (booklet, "booklet")])


@dataclass(frozen=True)
class Frame:
    """A list's frame: one part, or the runs of a long list (see FRAME_RUN_BYTES), whose page numbers are stamped
    from ``folios``; ``info``: its boxes and bookmarks, pages counted over its parts."""

    parts: tuple[Part, ...]
    info: PartInfo
    folios: tuple[Stamp, ...] = ()


def joined_info(parts: tuple[Part, ...]) -> PartInfo:
    """What the parts hold, as pages of the document they make one after the other."""
    anchors: list[Anchor] = []
    bookmarks = []
    offset = 0
    for part in parts:
        anchors += [replace(a, page=a.page + offset) for a in part.info.anchors]
        bookmarks += [replace(b, page=b.page + offset) for b in part.info.bookmarks]
        offset += part.info.pages
    return PartInfo(offset, tuple(anchors), tuple(bookmarks))


# --- building -----------------------------------------------------------------------------------------

def _renamed(html: str, n: int) -> str:
    """Entry ``n`` of a batch: its own id (the first) becomes ``bpv<n>``, any other id ``bpv<n>.<id>``.

    The same entry can be in a batch twice (two lists' versions), and ids must be unique for WeasyPrint
    to report where each one is; the prefix is cut again when the entry is stamped into a list.
    """
    first = True

    def rename(match: re.Match[str]) -> str:
        nonlocal first
        new = f'id="bpv{n}"' if first else f'id="bpv{n}.{match.group(1)}"'
        first = False
        return new
    return _ID.sub(rename, html)



@dataclass(frozen=True)
class Variant:
    """One entry's HTML as one list shows it (lists differ only in which references are links)."""

    html: str
    batch: str  # the batch (a few entries of one section) whose document renders it
    index: int = 0  # its page in that document


class ListsBuilder:
    """Builds every list's PDFs through a runner, reusing cached entry documents and frames.

    Runs in the main process (threads); the layout work goes to the runner's workers. ``used`` collects
    every cache key used, so the build can drop the others afterwards.
    """

    def __init__(self, rules: Rules, runner: Runner, cache: PartCache, run_bytes: int = FRAME_RUN_BYTES) -> None:
        self.rules, self.runner, self.cache, self.run_bytes = rules, runner, cache, run_bytes
        self.salt = digest((STATIC_DIR / "print.css").read_text(encoding="utf-8"), font_stylesheet(), engine_version())
        self.used: list[str] = []
        self._body: tuple[float, float] | None = None
        self._body_lock = threading.Lock()
        self._parts: dict[str, Future[Part]] = {}  # every part asked for, by key (see _part)
        self._parts_lock = threading.Lock()
        self.env = make_environment(rules)
        self.pages = list_pages(rules)
        self.head = self.env.from_string(
            '<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>{{ bp_fonts }}</style>'
            '<link rel="stylesheet" href="print.css">'
            "<style>{{ css | safe }}</style></head><body>")

    def _part(self, kind: str, html: str, priority: float = LATER, *, pieces: bool = False) -> Future[Part]:
        """The part of this HTML: from the cache, or rendered by the runner; once per builder, however many lists
        ask for it and from however many threads at once (the one future is shared: a long entry's pieces, which
        several lists show, cost seconds each)."""
        key = part_key(kind, html, self.salt)
        with self._parts_lock:
            self.used.append(key)
            known = self._parts.get(key)
            if known is not None:
                return known
            mine: Future[Part] = Future()
            self._parts[key] = mine
        try:
            cached = self.cache.get(key)
            future = done(cached) if cached is not None else self.runner.submit(
                _render_pieces if pieces else _render, html, str(self.cache.dir), key, priority=priority)
        except BaseException as exc:
            mine.set_exception(exc)
            raise
        future.add_done_callback(functools.partial(_pass_on, mine))
        return mine

    def laid_frame(self, key: str, html: str) -> Frame:
        """A list's frame laid out: as one document, or in runs (a long list), then numbered by folios."""
        running = _RUNNING.search(html)
        end = html.rindex("</body>")
        if running is None or not long_enough(html[running.end():end], self.run_bytes, FRAME_ENTRY):
            part = self._part(f"frame-{key}", html).result()
            return Frame((part,), part.info)
        before, text, after = html[:running.end()], html[running.end():end], html[end:]
        plain = before.replace("</head>", f"<style>{RUNS_CSS}</style></head>", 1)
        goes_on = before.replace("</head>", f"<style>{RUNS_CSS} {GOES_ON_CSS}</style></head>", 1)

        def lay_out(run: Run) -> Part:
            run_doc = (goes_on if run.first else plain) + run.html + after
            run_key = part_key(f"frame-{key}@{run.first}", run_doc, self.salt, str(run.last))
            part = self.cache.get(run_key)
            if part is None:
                part = self.runner.submit(_render_run, run_doc, str(self.cache.dir), run_key, run,
                                          priority=LATER).result()
            self.used.append(run_key)
            return part

        parts = tuple(lay_out_in_runs(text, entries_of(text, FRAME_ENTRY), lay_out, self.run_bytes))
        info = joined_info(parts)
        folios = [(first, self._part("frame-folio", self.folio_html(first, min(FOLIO_PAGES, info.pages - first),
                                                                    info.pages)))
                  for first in range(0, info.pages, FOLIO_PAGES)]
        return Frame(parts, info, tuple(Stamp(first + n, folio.result(), n, 0.0, 0.0)
                                        for first, folio in folios for n in range(folio.result().info.pages)))

    def folio_html(self, first: int, pages: int, total: int) -> str:
        """Empty pages numbered from ``first`` + 1 of ``total`` (see FOLIO_CSS)."""
        body = "<div></div>" + '<div style="break-before: page"></div>' * (pages - 1)
        return self.head.render(css=FOLIO_CSS.format(first=first + 1, total=total)) + body + "</body></html>"

    def body(self) -> tuple[float, float]:
        """The top and the foot of the lists' page body, in points from the page's foot (measured once)."""
        with self._body_lock:
            if self._body is None:
                marks = {a.name: a.y for a in self._part("page-body", self.head.render(css="") + BODY_MARKS
                                                         + "</body></html>").result().info.anchors}
                self._body = (marks["bp-body-top"], marks["bp-body-foot"])
            return self._body

    def long_html(self, page: ListPage, anchor: str, html: str, body: float) -> str:
        """An entry of ``page`` alone, as it starts a page of the list: its headings (invisible) if it is its
        group's first, its ids as in a batch's first entry (see :func:`_renamed`). Nothing of it names the list,
        so every list that shows the entry alike (same HTML, same headings) gets the same part.

        A spacer taller than the page body (``body`` px) fills the first page, so the entry starts the second
        after an unforced break, as in the list (where margins at the top of a page are truncated).
        """
        index, section, group = next((i, s, g) for i, s in enumerate(page.sections) for g in s.groups
                                     if any(ev.anchor == anchor for ev in g.entries))
        ev = next(ev for ev in group.entries if ev.anchor == anchor)
        first = group.entries[0] is ev
        run = SectionPart(section, False, (GroupPart(group, first, first and group is section.groups[0],
                                                     () if first else (ev,)),))
        return self.env.get_template("print.html").render({**page_context(self.rules, page, self.pages), "doc": PrintDoc(
            (run,), css=LONG_CSS, running_strings=False, drawn={anchor: _renamed(html, 0)}, spacer=body + 1,
            spacer_section=index > 0, shared=True)})

    def variants(self) -> tuple[dict[tuple[str, str], Variant], dict[str, list[str]]]:
        """(list key, entry anchor) → its variant, and each batch's variants' HTML in order of appearance.

        A batch is a few entries of one section with all their variants (see ENTRIES_PER_BATCH), so an
        edit lays out only the few entries beside it again.
        """
        found: dict[tuple[str, str], Variant] = {}
        batches: dict[str, list[str]] = {}
        order: dict[str, list[str]] = {}  # each section's entries, in order of first appearance
        for page in self.pages:
            macros = self.env.get_template("_macros.html").make_module(page_context(self.rules, page, self.pages))
            for section in page.sections:
                entries = order.setdefault(section.anchor, [])
                for group in section.groups:
                    for ev in group.entries:
                        if ev.anchor not in entries:
                            entries.append(ev.anchor)
                        html = str(macros.entry(ev, static=True))  # type: ignore[attr-defined]  # Jinja macros are made at run time
                        batch = f"{section.anchor}~{entries.index(ev.anchor) // ENTRIES_PER_BATCH}"
                        members = batches.setdefault(batch, [])
                        if html not in members:
                            members.append(html)
                        found[(page.key, ev.anchor)] = Variant(html, batch, members.index(html))
        return found, batches

    def batch_html(self, members: list[str]) -> str:
        """The entries of one section, one per page, their ids made unique (see :func:`_renamed`)."""
        pages = "".join(f'<div class="bp-one">{_renamed(html, n)}</div>' for n, html in enumerate(members))
        return self.head.render(css=ENTRIES_CSS) + pages + "</body></html>"

    def build(self, out_dir: Path) -> list[Path]:
        """Write every list's A5, 2-up and booklet PDFs; returns them in list order."""
        variants, members = self.variants()
        # early (they only need the definitions): everything else of the lists waits for them
        futures = {name: self._part(f"entries-{name}", self.batch_html(htmls), SOON) for name, htmls in members.items()}
        batches = {name: future.result() for name, future in futures.items()}
        with ThreadPoolExecutor(max_workers=len(self.pages)) as threads:
            lists = [threads.submit(self.build_list, page, out_dir, variants, batches) for page in self.pages]
            return [path for paths in results(lists) for path in paths]

    def build_list(self, page: ListPage, out_dir: Path, variants: dict[tuple[str, str], Variant],
                   batches: dict[str, Part]) -> list[Path]:
        """One list: its frame with a box per entry, then its cover and the entries stamped onto it."""
        entries = {}
        for ev in page.entries:
            variant = variants[(page.key, ev.anchor)]
            part = batches[variant.batch]
            entries[ev.anchor] = (part, variant.index, next(a for a in part.info.anchors if a.name == f"bpv{variant.index}"))
        heights = {anchor: drawn.height for anchor, (_, _, drawn) in entries.items()}
        htmls = {ev.anchor: variants[(page.key, ev.anchor)].html for ev in page.entries}
        frame, cover, long = self.frame_and_cover(page, heights, htmls)
        boxes = {a.name: a for a in frame.info.anchors}
        stamps = []
        for anchor, (part, index, drawn) in entries.items():
            if anchor in long:
                stamps += long[anchor]
                continue
            box = boxes[anchor]
            if abs(box.height - drawn.height) > 0.01:  # a box split over two pages
                raise RuntimeError(f"{page.key}: the entry {anchor} was not laid out whole")
            stamps.append(Stamp(box.page, part, drawn.page, box.x - drawn.x, box.y - drawn.y, f"bpv{index}."))
        stamps += [Stamp(n, cover, n, 0.0, 0.0) for n in range(cover.info.pages)] + list(frame.folios)
        a5, two_up, booklet = pdf_paths(out_dir, page)
        self.runner.submit(_assemble, frame.parts, stamps, a5, two_up, booklet, priority=LATER).result()
        return [a5, two_up, booklet]

    def frame_and_cover(self, page: ListPage, heights: dict[str, float], htmls: dict[str, str] | None = None,
                        ) -> tuple[Frame, Part, dict[str, list[Stamp]]]:
        """The list's frame and its cover, laid out apart (see the module's docstring), and the stamps of the
        pieces of its entries taller than a page (``htmls``: each entry's HTML in this list, for those).

        The frame keeps one page for the cover; should the cover take more, the frame is laid out again
        with room for it.
        """
        context = page_context(self.rules, page, self.pages)
        template = self.env.get_template("print.html")
        anchors = [a for s in page.sections for a in (s.anchor, *(g.anchor for g in s.groups))]
        cover_pages = 1
        while True:
            frame, long = self.frame(page, heights, cover_pages, htmls)
            numbers = {a.name: a.page + 1 for a in frame.info.anchors}
            cover = self._part(f"cover-{page.key}", template.render({**context, "doc": PrintDoc(
                cover=True, toc_pages={a: numbers[a] for a in anchors}, css=COVER_CSS,
                running_strings=False)})).result()
            if cover.info.pages == cover_pages:
                return frame, cover, long
            cover_pages = cover.info.pages

    @staticmethod
    def _over(page: ListPage, boxes: dict[str, Anchor], heights: dict[str, float], split: set[str],
              foot: float) -> list[str]:
        """The entries (not broken into pieces) whose box goes past the page's foot or was cut."""
        return [ev.anchor for ev in page.entries if ev.anchor not in split and (
            _foot(boxes[ev.anchor]) < foot - 0.01 or abs(boxes[ev.anchor].height - heights[ev.anchor]) > 0.01)]

    def frame(self, page: ListPage, heights: dict[str, float], cover_pages: int,
              htmls: dict[str, str] | None = None) -> tuple[Frame, dict[str, list[Stamp]]]:
        """The list's frame, and the stamps of the pieces of each entry taller than a page (by its anchor).

        No box of the frame may go past the page body's foot: text there would be cut off. An entry box
        that does is taller than a page: it is broken into pieces (see the module's docstring).
        """
        context = page_context(self.rules, page, self.pages)
        template = self.env.get_template("print.html")

        def lay_out(box_heights: dict[str, float], continued: dict[str, tuple[float, ...]],
                    breaks: frozenset[str] = frozenset()) -> Frame:
            return self.laid_frame(page.key, template.render({**context, "doc": PrintDoc(
                whole(page), cover_pages=cover_pages, colophon=True, heights=box_heights,
                continued=continued, page_breaks=breaks)}))

        top, foot = self.body()
        frame = lay_out(heights, {})
        boxes = {a.name: a for a in frame.info.anchors}
        firsts = {g.entries[0].anchor: g.anchor for s in page.sections for g in s.groups}
        long = [ev.anchor for ev in page.entries
                if _foot(boxes[ev.anchor]) < foot - 0.01 or abs(boxes[ev.anchor].height - heights[ev.anchor]) > 0.01
                or (ev.anchor in firsts and boxes[f"{firsts[ev.anchor]}-title"].page != boxes[ev.anchor].page)]
        if not long:
            return frame, {}
        if htmls is None:
            raise RuntimeError(f"{page.key}: entries taller than a page and no HTML to break them: {long}")
        body = (top - foot) / PX_TO_PT
        first, continued, split = dict(heights), {}, {}
        for anchor in long:
            part = self._part("long", self.long_html(page, anchor, htmls[anchor], body), pieces=True).result()
            pieces = (next(a for a in part.info.anchors if a.name == "bpv0"),
                      *(a for a in part.info.continued if a.name == "bpv0"))
            if [p.page for p in pieces] != list(range(1, len(pieces) + 1)):  # page 0: the spacer's
                raise RuntimeError(f"{page.key}: the entry {anchor} does not start a page when laid out alone")
            above = (top - pieces[0].y) / PX_TO_PT  # its headings, if it is its group's first
            first[anchor] = body - above - 0.01  # the rest of the page: it starts one, as laid out alone
            continued[anchor] = tuple(p.height for p in pieces[1:])
            split[anchor] = (part, pieces)
        # After the pieces, WeasyPrint (70) sometimes lets a box that fits on a page run a few points past the
        # foot instead of moving it to the next page: such a box (or its group, if it is the first) is given
        # the page break WeasyPrint should have made, and the frame laid out again.
        breaks: frozenset[str] = frozenset()
        for _ in range(8):
            frame = lay_out(first, continued, breaks)
            boxes2 = {a.name: a for a in frame.info.anchors}
            over = self._over(page, boxes2, heights, set(split), foot)
            fits = {firsts.get(a, a) for a in over if heights[a] < body}
            if not over or not fits or fits <= breaks:
                break
            breaks |= fits
        stamps: dict[str, list[Stamp]] = {}
        for anchor, (part, pieces) in split.items():
            targets = [boxes2[anchor], *(boxes2[f"{anchor}{CONTINUED}{k}"] for k in range(1, len(pieces)))]
            if (abs(targets[0].y - pieces[0].y) > 0.01
                    or [t.page for t in targets] != list(range(targets[0].page, targets[0].page + len(targets)))
                    or any(_foot(t) < foot - 0.01 for t in targets)
                    or (anchor in firsts and boxes2[f"{firsts[anchor]}-title"].page != targets[0].page)):
                raise RuntimeError(f"{page.key}: the pieces of the entry {anchor} are not where they were laid out")
            stamps[anchor] = [Stamp(t.page, part, p.page, t.x - p.x, t.y - p.y, "bpv0.")
                              for t, p in zip(targets, pieces, strict=True)]
        over = self._over(page, boxes2, heights, set(split), foot)
        if over:
            detail = [(a, boxes2[a].page, round(boxes2[a].y, 2), round(boxes2[a].height, 2), round(heights[a], 2)) for a in over]
            raise RuntimeError(f"{page.key}: entries still go past the foot ({foot:.2f}) of a page: {detail}; "
                               f"split: {[(a, [(t.page, round(t.y, 2), round(t.height, 2)) for t in ps]) for a, (_, ps) in split.items()]}")
        own = {f"{a}{CONTINUED}{k}" for a, (_, pieces) in split.items() for k in range(1, len(pieces))}
        return replace(frame, info=replace(frame.info, anchors=tuple(
            a for a in frame.info.anchors if a.name not in own))), stamps


def build_pdfs(rules: Rules, out_dir: Path, workers: int | None = None, *, runner: Runner | None = None,
               cache: PartCache | None = None, used: list[str] | None = None) -> list[Path]:
    """Write every list as A5, 2-up and booklet PDFs under ``out_dir/actionlist/pdf``; returns them in order.

    Without a runner, a pool of ``workers`` processes is made for the call (one per core by default); without
    a cache, rendered parts are kept in a temporary folder for the call only. ``used`` receives the cache
    keys used.
    """
    with tempfile.TemporaryDirectory(prefix="bp-parts-") as temp:
        cache = cache or PartCache(Path(temp))
        own_pool = None
        if runner is None:
            count = workers or default_workers()
            own_pool = process_pool(count) if count > 1 else None
            runner = Scheduler(own_pool, count) if own_pool is not None else Inline()
        try:
            builder = ListsBuilder(rules, runner, cache)
            written = builder.build(out_dir)
        finally:
            if own_pool is not None:
                own_pool.shutdown()
        if used is not None:
            used.extend(builder.used)
        return written
