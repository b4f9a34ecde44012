"""The PDF action lists: A5 portrait through WeasyPrint, then 2-up (A4 landscape) and saddle-stitch booklets.

Every page is rendered and cached on its own (pdfparts), so editing one entry re-renders only the pages
that show it. Which entries go on which page is decided first, cheaply and exactly as one WeasyPrint
document would break them:

1. measure: each entry is laid out once (cached by its HTML) to get its height;
2. plan: the whole list is laid out with empty boxes of those heights in place of the entries: the same
   page breaks (break-inside: avoid, headings kept with their first entry, margins), in a fraction of the time;
3. render: each page's entries become one part (cached by its HTML); the cover with literal page numbers
   for its contents; a folio document carries the "n / N" page numbers;
4. join the parts, then impose 2-up and booklet sheets.

A test checks that the joined lists look exactly like the same list rendered as one document.
"""

from __future__ import annotations

import json
import tempfile
from concurrent.futures import Future
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blackpoker.actionlist.render import STATIC_DIR, make_environment, page_context
from blackpoker.actionlist.view import EntryView, Group, ListPage, Section, list_pages
from blackpoker.impose import impose
from blackpoker.jobs import Inline, Runner, default_workers, process_pool, results
from blackpoker.model import Rules
from blackpoker.pdfparts import Part, PartCache, digest, engine_version, join, layout, render_part

if TYPE_CHECKING:
    from weasyprint.document import Document

PDF_DIR = Path("actionlist") / "pdf"
BASE_URL = str(STATIC_DIR) + "/"
# A part is one page (or the cover): no number in it (the folio adds it). The first block of a page loses
# its top margin, as after any page break that was not forced.
PART_CSS = ("@page { @bottom-center { content: none; } } "
            "body > .list-section:first-of-type > .group:first-child > .keep > :first-child, "
            "body > .colophon:first-child, body > .bp-stand-ins + .colophon { margin-top: 0 !important; }")
COVER_CSS = ("@page { @bottom-center { content: none; } } "
             ".print-toc a::after { content: leader('.') attr(data-page); } .cover { break-after: auto; }")
# Measuring: entries stacked on one very tall page of the same width.
MEASURE_CSS = "@page { size: 148mm 5000mm; }"
# The planned boxes are this much taller than the entries, so float rounding can never put more on a page
# than fits: the real page is then at most as full as its plan.
SLACK_PX = 0.001


@dataclass(frozen=True)
class GroupPart:
    """The entries of one group on one page; ``starts``: the group (heading, first entry) begins here."""

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
    colophon: bool = False
    toc_pages: dict[str, int] = field(default_factory=dict)
    heights: dict[str, float] = field(default_factory=dict)
    css: str = ""
    running_literal: bool = False


def whole(page: ListPage) -> tuple[SectionPart, ...]:
    """Every section and group of a list, from its start."""
    return tuple(SectionPart(s, True, tuple(GroupPart(g, True, i == 0, g.entries[1:]) for i, g in enumerate(s.groups)))
                 for s in page.sections)


def render_print_html(rules: Rules, page: ListPage, doc: PrintDoc | None = None) -> str:
    """A print document of one list; by default the whole list (cover, entries, colophon) as one document."""
    env = make_environment(rules)
    doc = doc or PrintDoc(whole(page), cover=True, colophon=True)
    return env.get_template("print.html").render({**page_context(rules, page, list_pages(rules)), "doc": doc})


def render_documents(rules: Rules, pages: tuple[ListPage, ...] | None = None) -> dict[str, "Document"]:
    """Each list laid out as one A5 document (keyed by list key): the reference the parts must match."""
    return {page.key: layout(render_print_html(rules, page), BASE_URL)
            for page in (pages if pages is not None else list_pages(rules))}


def pdf_paths(out_dir: Path, page: ListPage) -> tuple[Path, Path, Path]:
    """The A5, 2-up and booklet files of one list."""
    folder = out_dir / PDF_DIR
    return (folder / f"{page.pdf_stem}.pdf", folder / f"{page.pdf_stem}-2up.pdf",
            folder / f"{page.pdf_stem}-booklet.pdf")


# --- planning -----------------------------------------------------------------------------------------

def split_pages(page: ListPage, page_of: dict[str, int], colophon_page: int) -> list[PrintDoc]:
    """The list's entries cut into pages as planned: ``page_of`` maps every entry anchor to its page (0-based)."""
    count = colophon_page + 1
    runs: list[list[SectionPart]] = [[] for _ in range(count)]
    for section in page.sections:
        per_page: dict[int, list[GroupPart]] = {}
        for i, group in enumerate(section.groups):
            first = page_of[group.entries[0].anchor]
            per_page.setdefault(first, []).append(GroupPart(group, True, i == 0, ()))
            rest: dict[int, list[EntryView]] = {}
            for ev in group.entries[1:]:
                rest.setdefault(page_of[ev.anchor], []).append(ev)
            for number, entries in sorted(rest.items()):
                parts = per_page.setdefault(number, [])
                if parts and parts[-1].group is group:
                    parts[-1] = GroupPart(group, True, i == 0, tuple(entries))
                else:
                    parts.append(GroupPart(group, False, False, tuple(entries)))
        start = page_of[section.groups[0].entries[0].anchor]
        for number, parts in sorted(per_page.items()):
            runs[number].append(SectionPart(section, number == start, tuple(parts)))
    return [PrintDoc(tuple(runs[n]), colophon=(n == colophon_page), css=PART_CSS, running_literal=True)
            for n in range(count)]


def _measure(html: str) -> dict[str, float]:
    """Border-box heights (px) of the entries in a measuring document (runs in a worker)."""
    document = layout(html, BASE_URL)
    return {name: bottom - top for p in document.pages for name, (_left, top, _right, bottom) in p.anchors.items()}


def _plan(html: str) -> tuple[dict[str, int], int]:
    """The page of every entry in a planning document, and of the colophon (runs in a worker)."""
    document = layout(html, BASE_URL)
    page_of: dict[str, int] = {}
    for number, p in enumerate(document.pages):
        for name in p.anchors:
            page_of.setdefault(name, number)
    return page_of, page_of.pop("bp-colophon")


def _render(html: str, cache_dir: str, key: str, expect_pages: int | None) -> Part:
    """Render one part into the cache (runs in a worker)."""
    data, info = render_part(html, BASE_URL)
    if expect_pages is not None and info.pages != expect_pages:
        raise RuntimeError(f"a planned page came out as {info.pages} pages; the page plan is wrong")
    return PartCache(Path(cache_dir)).put(key, data, info)


def _folio_html(pages: int) -> str:
    """Empty pages that show only the page numbers ("n / N"), styled by the lists' own print.css."""
    body = "<div></div>" + '<div style="break-before: page"></div>' * (pages - 1)
    return ('<!doctype html><html lang="ja"><head><meta charset="utf-8"><link rel="stylesheet" href="print.css">'
            "<style>@page { @top-left { content: none; } @top-right { content: none; } }</style></head>"
            f"<body>{body}</body></html>")


def _done(value: Any) -> "Future[Any]":
    future: Future[Any] = Future()
    future.set_result(value)
    return future


class ListBuilder:
    """Builds the PDFs of one list through a runner, reusing cached measurements, plans and parts.

    Runs in a thread of the main process; the layout work goes to the runner's workers. ``used`` collects
    every cache key read or written, so the build can drop the others afterwards.
    """

    def __init__(self, rules: Rules, page: ListPage, runner: Runner, cache: PartCache) -> None:
        self.rules, self.page, self.runner, self.cache = rules, page, runner, cache
        self.salt = digest((STATIC_DIR / "print.css").read_text(encoding="utf-8"), engine_version())
        self.used: list[str] = []
        self.env = make_environment(rules)
        self.context = page_context(rules, page, list_pages(rules))
        self.template = self.env.get_template("print.html")

    def html(self, doc: PrintDoc) -> str:
        return self.template.render({**self.context, "doc": doc})

    def _key(self, *values: str) -> str:
        key = digest(*values, self.salt)
        self.used.append(key)
        return key

    def heights(self) -> dict[str, float]:
        """Every entry's height (plus the slack), measuring only entries whose HTML is not in the cache."""
        macros = self.env.get_template("_macros.html").make_module(self.context)
        keys = {ev.anchor: self._key("measure", str(macros.entry(ev, static=True))) for ev in self.page.entries}
        known = {anchor: self.cache.get_value(key) for anchor, key in keys.items()}
        missing = tuple(ev for ev in self.page.entries if known[ev.anchor] is None)
        if missing:
            group = self.page.sections[0].groups[0]
            runs = (SectionPart(self.page.sections[0], False, (GroupPart(group, False, False, missing),)),)
            measured = self.runner.submit(_measure, self.html(PrintDoc(runs, css=MEASURE_CSS))).result()
            for ev in missing:
                known[ev.anchor] = repr(measured[ev.anchor])
                self.cache.put_value(keys[ev.anchor], known[ev.anchor])
        return {anchor: float(value) + SLACK_PX for anchor, value in known.items() if value is not None}

    def plan(self) -> list[PrintDoc]:
        """The list cut into pages (the plan is cached under its planning document)."""
        html = self.html(PrintDoc(whole(self.page), colophon=True, heights=self.heights()))
        key = self._key("plan", html)
        cached = self.cache.get_value(key)
        if cached is None:
            page_of, colophon = self.runner.submit(_plan, html).result()
            cached = json.dumps({"pages": page_of, "colophon": colophon}, sort_keys=True)
            self.cache.put_value(key, cached)
        plan = json.loads(cached)
        return split_pages(self.page, plan["pages"], plan["colophon"])

    def part(self, html: str, expect_pages: int | None) -> "Future[Part]":
        """A part from the cache, or a future of its rendering."""
        key = self._key("part", html)
        cached = self.cache.get(key)
        return _done(cached) if cached is not None else self.runner.submit(
            _render, html, str(self.cache.dir), key, expect_pages)

    def cover(self, docs: list[PrintDoc]) -> Part:
        """The cover, its contents numbered; the numbers count the cover's own pages, so try until they agree."""
        first: dict[str, int] = {}
        for number, doc in enumerate(docs):
            for run in doc.runs:
                if run.starts:
                    first.setdefault(run.section.anchor, number)
                for part in run.groups:
                    if part.starts:
                        first.setdefault(part.group.anchor, number)
        cover_pages = 1
        while True:
            numbers = {anchor: number + cover_pages + 1 for anchor, number in first.items()}
            part = self.part(self.html(PrintDoc(cover=True, toc_pages=numbers, css=COVER_CSS)), None).result()
            if part.info.pages == cover_pages:
                return part
            cover_pages = part.info.pages

    def build(self, out_dir: Path) -> list[Path]:
        """Write the list's A5, 2-up and booklet PDFs; returns them in that order."""
        docs = self.plan()
        body = [self.part(self.html(doc), 1) for doc in docs]  # first: the cover needs only the plan
        parts = [self.cover(docs), *results(body)]
        total = sum(part.info.pages for part in parts)
        folio = self.part(_folio_html(total), total).result()
        a5, two_up, booklet = pdf_paths(out_dir, self.page)
        self.runner.submit(join_parts, parts, a5, folio.pdf).result()
        results([self.runner.submit(impose_file, a5, two_up, "2up"),
                 self.runner.submit(impose_file, a5, booklet, "booklet")])
        return [a5, two_up, booklet]


def join_parts(parts: list[Part], target: Path, folio: Path) -> None:
    """The list's PDF: cover and pages, numbered by the folio from the first page on (runs in a worker)."""
    join(parts, target, folio=folio, numbered_from=0, metadata_from=0)


def impose_file(source: Path, target: Path, mode: str) -> None:
    impose(source, target, mode=mode)


def build_pdfs(rules: Rules, out_dir: Path, workers: int | None = None, *, runner: Runner | None = None,
               cache: PartCache | None = None, used: list[str] | None = None) -> list[Path]:
    """Write every list as A5, 2-up and booklet PDFs under ``out_dir/actionlist/pdf``; returns them in order.

    Without a runner, a pool of ``workers`` processes is made for the call (one per core by default); without
    a cache, parts are kept in a temporary folder for the call only. ``used`` receives the cache keys used.
    """
    from concurrent.futures import ThreadPoolExecutor

    with tempfile.TemporaryDirectory(prefix="bp-parts-") as temp:
        cache = cache or PartCache(Path(temp))
        own_pool = None
        if runner is None:
            count = workers or default_workers()
            runner = own_pool = process_pool(count) if count > 1 else None
            runner = runner or Inline()
        try:
            builders = [ListBuilder(rules, page, runner, cache) for page in list_pages(rules)]
            with ThreadPoolExecutor(max_workers=len(builders)) as threads:
                written = results([threads.submit(b.build, out_dir) for b in builders])
        finally:
            if own_pool is not None:
                own_pool.shutdown()
        if used is not None:
            used.extend(key for b in builders for key in b.used)
        return [path for paths in written for path in paths]
