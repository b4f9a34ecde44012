"""The book PDF from Sphinx's single-page HTML, rendered chapter by chapter (see pdfparts).

The single page is cut at its chapter boundaries (``sphinx_private.DOCUMENT_START``, where the print CSS breaks
the page anyway), so a chapter's pages do not depend on the others: each chapter is one cached part.
Three things in the book do depend on other chapters, and are made after them:

* the page numbers at the foot: stamped from a folio document, so chapters carry none;
* the contents (front part: cover and contents) and the index (索引) give page numbers of anchors in
  other chapters: there they are literal numbers (``data-page``) instead of CSS ``target-counter``;
* the running head names the book: the chapters get it as a literal string.

The joined book looks exactly like the single page laid out as one document (a test checks this).
"""

from __future__ import annotations

import html as html_lib
import re
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from blackpoker.infra.fsutil import write_atomic
from blackpoker.infra.jobs import URGENT, Runner, done, results
from blackpoker.render.bookruns import RUN_BYTES, Run, entries_of, lay_out_in_runs, long_enough, open_elements, render_run
from blackpoker.render.pdfparts import (
    ENGINE_LOCK,
    Part,
    PartCache,
    PartInfo,
    Rebase,
    Stamp,
    css_string,
    digest,
    engine_version,
    join,
    layout,
    part_key,
    relative_links,
    render_part,
)
from blackpoker.sphinx_private import DOCUMENT_START, HEADERLINK, INTERNAL_LINK, STYLESHEET

_SECTION_TAG = re.compile(r"<(/?)section\b")
_FRONT = re.compile(r'<section class="print-cover">.*?</nav>', re.S)
_INDEX_LIST = re.compile(r'<ul class="bp-index-list[^"]*">.*?</ul>', re.S)
_TITLE = re.compile(r'<p class="print-title">(.*?)</p>', re.S)
# A group heading that starts a page in print (bp-list with page_per_group): the chapter is cut there too,
# so editing one entry of chapter 4's long action list re-renders only its group.
_PAGE_GROUP = re.compile(r'<p class="[^"]*\bbp-page-group\b[^"]*"')
_CHAPTER_TITLE = re.compile(r"<h2\b[^>]*>(.*?)</h2>", re.S)


@dataclass(frozen=True)
class BookSource:
    """The single page cut into its parts: the HTML around the chapters, and each chapter (in order)."""

    before: str  # up to the first chapter: head, cover, contents, the root document's own (hidden) text
    chapters: tuple[tuple[str, str], ...]  # (document name, HTML); a chapter cut at page groups: "name~1", …
    after: str  # from the end of the last chapter
    heads: tuple[tuple[str, str], ...] = ()  # running head of each continued piece (its h2 is in an earlier one)

    @property
    def title(self) -> str:
        match = _TITLE.search(self.before)
        return html_lib.unescape(re.sub(r"<[^>]+>", "", match.group(1))).strip() if match else ""

    def front_html(self) -> str:
        """Cover and contents only: what follows them before chapter 1 is hidden, and alone it would make a blank page."""
        front = _FRONT.search(self.before)
        if front is None:
            raise ValueError("the single page has no print cover and contents")
        return self.before[:front.end()] + self.after  # the parser ignores the then unmatched end tags

    def chapter_html(self, chapter: str, name: str = "", running: str | None = None) -> str:
        """A chapter alone, inside the same wrappers (the print CSS selects on them), without cover and contents;
        ``running``: the running head of a piece that goes on a chapter (default: the piece's, from ``heads``)."""
        head = _FRONT.sub("", self.before, count=1)
        running = dict(self.heads).get(name) if running is None else running
        right = css_string(running) if running is not None else "string(chapter)"
        css = (f"@page {{ @top-left {{ content: {css_string(self.title)}; }} @bottom-center {{ content: none; }}"
               + (f" @top-right {{ content: {right}; }}" if running is not None else "") + " }"
               f" @page :first {{ @top-left {{ content: {css_string(self.title)}; }}"
               f" @top-right {{ content: {right}; }} }}")
        return head.replace("</head>", f"<style>{css}</style></head>", 1) + chapter + self.after


def split_single_page(text: str) -> BookSource:
    """Cut Sphinx's singlehtml page at its document markers; the last chapter ends with its section."""
    marks = list(DOCUMENT_START.finditer(text))
    if not marks:
        raise ValueError("the single page has no chapters (no <span id=\"document-…\"> markers)")
    depth, end = 0, None
    for tag in _SECTION_TAG.finditer(text, marks[-1].end()):
        depth += -1 if tag.group(1) else 1
        if depth == 0:
            end = text.index(">", tag.end()) + 1
            break
    if end is None:
        raise ValueError("the last chapter of the single page does not end")
    bounds = [m.start() for m in marks] + [end]
    chapters: list[tuple[str, str]] = []
    heads: list[tuple[str, str]] = []
    for i, m in enumerate(marks):
        pieces = cut_at_page_groups(m.group(1), text[bounds[i]:bounds[i + 1]])
        chapters += pieces
        heads += [(name, running_head(pieces[0][1])) for name, _ in pieces[1:]]
    return BookSource(text[:marks[0].start()], tuple(chapters), text[end:], tuple(heads))


def cut_at_page_groups(name: str, chapter: str) -> list[tuple[str, str]]:
    """A chapter cut before each group heading that starts a page; each later piece re-opens the elements it
    sits in (without their ids, which stay in the first piece), so the print CSS sees the same nesting."""
    cuts = [m.start() for m in _PAGE_GROUP.finditer(chapter)]
    bounds = [0, *cuts, len(chapter)]
    pieces = [(name, chapter[:bounds[1]])]
    for i in range(1, len(bounds) - 1):
        pieces.append((f"{name}~{i}", open_elements(chapter[:bounds[i]]) + chapter[bounds[i]:bounds[i + 1]]))
    return pieces


def running_head(chapter: str) -> str:
    """The chapter's title as ``string(chapter)`` shows it (its h2 text, without the hidden ¶ link)."""
    match = _CHAPTER_TITLE.search(chapter)
    text = HEADERLINK.sub("", match.group(1)) if match else ""
    return " ".join(html_lib.unescape(re.sub(r"<[^>]+>", "", text)).split())


def with_page_numbers(text: str, pattern: re.Pattern[str], region: re.Pattern[str], pages: dict[str, int],
                      css: str) -> str:
    """Give every link in ``region`` its target's page number (``data-page``) and use it instead of target-counter."""

    def number(block: re.Match[str]) -> str:
        def link(m: re.Match[str]) -> str:
            page = pages.get(html_lib.unescape(m.group(2)))
            return m.group(1) + (f' data-page="{page}"' if page is not None else "")
        return pattern.sub(link, block.group(0))

    text = region.sub(number, text)
    return text.replace("</head>", f"<style>{css}</style></head>", 1)


# the front part ends with the contents: no page break after them (what follows is empty or hidden)
TOC_CSS = "nav.print-toc a::after { content: leader('.') attr(data-page); } nav.print-toc { break-after: auto; }"
INDEX_CSS = "ul.bp-index-list a::after { content: leader('.') attr(data-page); }"
_TOC_REGION = re.compile(r'<nav class="print-toc">.*?</nav>', re.S)
FOLIO_CSS = "@page { @top-left { content: none; } @top-right { content: none; } }"
FOLIO_SPARE = 16  # pages the index usually takes at most: the folio is made early for them, and again if it takes more


_SITE = re.compile(r'<meta name="bp-site" content="([^"]+)"')


def site_of(page: str) -> str | None:
    """The published site's address the Sphinx extension put in the page (none when the ruleset has none)."""
    found = _SITE.search(page)
    return html_lib.unescape(found.group(1)) if found else None


def _render(html: str, base_url: str, cache_dir: str, key: str, site: str | None = None) -> Part:
    """Render one part of the book into the cache, its links to the site's files made absolute under the
    published ``site`` (relative without one), in a worker."""
    data, info = render_part(html, base_url, rebase=Rebase(base_url, site))
    return PartCache(Path(cache_dir)).put(key, data, info)


def _render_run(html: str, base_url: str, cache_dir: str, key: str, site: str | None, run: Run) -> Part:
    """Lay out a run of a long piece and keep its pages in the cache (in a worker)."""
    data, info = render_run(html, base_url, run.first, run.cuttable, run.last, run.names, Rebase(base_url, site))
    return PartCache(Path(cache_dir)).put(key, data, info)


class BookBuilder:
    """Renders the book's parts through a runner (cached by content) and joins them; a piece of a chapter longer
    than ``run_bytes`` is laid out in runs of its entries (bookruns)."""

    def __init__(self, single: Path, runner: Runner, cache: PartCache, run_bytes: int = RUN_BYTES) -> None:
        self.single, self.runner, self.cache, self.run_bytes = single, runner, cache, run_bytes
        self.base_url = single.parent.resolve().as_uri() + "/"
        self.source = split_single_page(single.read_text(encoding="utf-8"))
        styles = sorted(set(STYLESHEET.findall(self.source.before)))
        css = "".join((single.parent / s).read_text(encoding="utf-8") for s in styles if (single.parent / s).is_file())
        self.site = site_of(self.source.before)
        self.salt = digest(css, engine_version(), self.site or "")
        self.used: list[str] = []

    def part(self, kind: str, html: str, priority: float = URGENT) -> Future[Part]:
        key = part_key(kind, html, self.salt)
        self.used.append(key)
        cached = self.cache.get(key)
        return done(cached) if cached is not None else self.runner.submit(
            _render, html, self.base_url, str(self.cache.dir), key, self.site, priority=priority, then=URGENT)

    def build(self, target: Path, booklet: Path | None = None) -> PartInfo:
        """Write the book to ``target`` (and its ``booklet``); returns where its anchors and bookmarks are."""
        source = self.source
        index_names = [name for name, text in source.chapters if "bp-index-list" in text]
        if len(index_names) > 1:
            raise ValueError("the book supports one index")
        # the chapters after the index (the 奥付) show no page numbers: laid out once, placed after it
        at = [name for name, _ in source.chapters].index(index_names[0]) if index_names else len(source.chapters)
        plain = [(name, text) for name, text in source.chapters if name not in index_names]
        # a piece too long to lay out at once goes in runs, one after the other (a thread each), the others at once
        long = [i for i, (_, text) in enumerate(plain) if long_enough(text, self.run_bytes)]
        threads = ThreadPoolExecutor(max_workers=len(long), thread_name_prefix="bp-book-runs") if long else None
        try:
            chains = {i: threads.submit(self.runs, *plain[i]) for i in long} if threads is not None else {}
            # longest first, so the workers finish together
            futures = {i: self.part(f"chapter-{name}", source.chapter_html(text, name), URGENT + len(text) / 1e9)
                       for i, (name, text) in enumerate(plain) if i not in chains}
            probe = self.part("front", with_page_numbers(source.front_html(), INTERNAL_LINK, _TOC_REGION, {},
                                                         TOC_CSS))
            laid = [chains[i].result() if i in chains else [futures[i].result()] for i in range(len(plain))]
        finally:
            if threads is not None:
                threads.shutdown(cancel_futures=True)
        chapters = [part for parts in laid[:at] for part in parts]
        after = [part for parts in laid[at:] for part in parts]
        front_pages = probe.result().info.pages
        # The folio's page i shows only "i": made now, for more pages than the index can add, it is stamped
        # while the index and the contents are rendered (and reused while the count stays in its bracket).
        known = front_pages + sum(part.info.pages for part in chapters + after)
        folio_future = self.part("folio", self.folio_html(-(-(known + FOLIO_SPARE) // 32) * 32))

        def place(parts: list[Part], offset: int, pages: dict[str, int]) -> int:
            for part in parts:
                for anchor in part.info.anchors:
                    pages.setdefault(anchor.name, offset + anchor.page + 1)
                offset += part.info.pages
            return offset

        while True:
            pages: dict[str, int] = {}
            offset = place(chapters, front_pages, pages)
            index_parts = []
            for name in index_names:
                text = dict(source.chapters)[name]
                marker = f"document-{name}"
                pages.setdefault(marker, offset + 1)
                index_parts.append(self.part(f"chapter-{name}", with_page_numbers(
                    source.chapter_html(text), INTERNAL_LINK, _INDEX_LIST, pages, INDEX_CSS)))
            tail = results(index_parts)
            place(after, offset + sum(p.info.pages for p in tail), pages)
            front = self.part("front", with_page_numbers(source.front_html(), INTERNAL_LINK, _TOC_REGION, pages,
                                                         TOC_CSS)).result()
            if front.info.pages == front_pages:
                break
            front_pages = front.info.pages
        parts = [front, *chapters, *tail, *after]
        folio = folio_future.result()
        total = sum(p.info.pages for p in parts)
        if folio.info.pages < total:  # a long index (thousands of entries): a folio made for the real count
            folio = self.part("folio", self.folio_html(-(-total // 32) * 32)).result()
        joined: PartInfo = self.runner.submit(join_book, parts, target, folio, front.info.pages, booklet,
                                              priority=URGENT).result()
        return joined

    def runs(self, name: str, text: str) -> list[Part]:
        """A long chapter piece laid out in runs of its entries (see bookruns), each after the one before."""
        running = dict(self.source.heads).get(name) or running_head(text)

        def lay_out(run: Run) -> Part:
            html = self.source.chapter_html(run.html, name, running if run.first else None)
            key = part_key(f"chapter-{name}@{run.first}", html, self.salt, str(run.last))
            part = self.cache.get(key)
            if part is None:
                part = self.runner.submit(_render_run, html, self.base_url, str(self.cache.dir), key, self.site, run,
                                          priority=URGENT + 0.5, then=URGENT).result()
            self.used.append(key)
            return part

        return lay_out_in_runs(text, entries_of(text), lay_out, self.run_bytes)

    def folio_html(self, pages: int) -> str:
        """Empty pages with only their numbers, laid out by the book's own stylesheets."""
        head = self.source.before[:self.source.before.index("</head>")]
        body = "<div></div>" + '<div style="break-before: page"></div>' * (pages - 1)
        return f"{head}<style>{FOLIO_CSS}</style></head><body>{body}</body></html>"


def join_book(parts: list[Part], target: Path, folio: Part, front_pages: int, booklet: Path | None) -> PartInfo:
    """The book: front part, chapters, index; numbered by the folio after the front part (in a worker)."""
    total = sum(p.info.pages for p in parts)
    return join(parts, target, stamps=[Stamp(n, folio, n, 0.0, 0.0) for n in range(front_pages, total)],
                impositions=[(booklet, "book-booklet")] if booklet is not None else ())


def render_pdf(html: Path, pdf: Path) -> None:
    """WeasyPrint the single page as one document (the reference the chapter-by-chapter book must match)."""
    base = html.parent.resolve().as_uri() + "/"
    text = html.read_text(encoding="utf-8")
    with ENGINE_LOCK:
        data = layout(text, base).write_pdf()
    write_atomic(pdf, relative_links(data, base, site_of(text)))
