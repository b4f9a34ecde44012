"""The PDF action lists: A5 pages, imposition order and sizes, embedded fonts, extractable text, page breaks."""

from __future__ import annotations

import functools
import math
import re
import shutil
import subprocess
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from blackpoker import load_rules
from blackpoker.core.model import Rules
from blackpoker.pipeline.build import CACHE
from blackpoker.render.actionlist.html import render_pages
from blackpoker.render.actionlist.pdf import PDF_DIR, build_pdfs, pdf_paths, render_documents
from blackpoker.render.actionlist.view import all_page, list_pages
from blackpoker.render.impose import booklet_order, two_up_order
from blackpoker.render.pdfparts import PartCache
from sites import SMALL, BuiltSite

A5 = (419.5, 595.3)
needs_poppler = pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")


# ---- imposition tables (no PDF needed) ---------------------------------------------------------------

def test_booklet_order_matches_the_standard_table() -> None:
    # 1-based pages per sheet side (left, right), printed double-sided and folded: 8 pages → 2 sheets
    assert booklet_order(8) == [(7, 0), (1, 6), (5, 2), (3, 4)]
    # 10 pages are padded to 12; the blanks (None) land at the back
    assert booklet_order(10) == [(None, 0), (1, None), (9, 2), (3, 8), (7, 4), (5, 6)]


def test_a_book_s_booklet_has_a_blank_outside_back_cover() -> None:
    # 8 pages: the last would be the outside back cover; with blank_back they go on a third sheet
    assert booklet_order(8, blank_back=True)[0] == (None, 0)
    assert booklet_order(10, blank_back=True) == booklet_order(10)  # already padded: its back is blank


def test_two_up_order_reads_in_order() -> None:
    assert two_up_order(5) == [(0, 1), (2, 3), (4, None)]


# ---- built PDFs ---------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def built(rules: Rules, built_site: BuiltSite) -> tuple[Path, list[Path]]:
    """The lists as the run's shared full build made them (its site, and every list's A5, 2-up and booklet PDF,
    list by list): the build's own step, not a second rendering of the same lists."""
    out = built_site.site
    return out, [p for page in list_pages(rules) for p in pdf_paths(out, page)]


def _text(path: Path, page: int | None = None, crop: tuple[float, float, float, float] | None = None) -> str:
    if crop is None:  # the whole text, or a page of it: the file is read once for all the tests that read it
        stat = path.stat()
        whole = _whole_text(path, stat.st_mtime_ns, stat.st_size)
        return whole if page is None else whole.split("\f")[page - 1] + "\f"
    return _pdftotext(path, page, crop)


@functools.lru_cache(maxsize=64)
def _whole_text(path: Path, mtime: int, size: int) -> str:
    """A file's whole text (its time and size in the key): several tests read each list, page by page or whole."""
    return _pdftotext(path)


def _pdftotext(path: Path, page: int | None = None, crop: tuple[float, float, float, float] | None = None) -> str:
    args = ["pdftotext", "-enc", "UTF-8"]
    if page is not None:
        args += ["-f", str(page), "-l", str(page)]
    if crop is not None:
        x, y, w, h = crop
        args += ["-x", str(int(x)), "-y", str(int(y)), "-W", str(int(w)), "-H", str(int(h))]
    return subprocess.run(args + [str(path), "-"], check=True, capture_output=True, text=True).stdout


def _page_marks(text: str) -> list[int]:
    """The page numbers printed in the footer ('3 / 12') found in a text."""
    return [int(m) for m in re.findall(r"(\d+)\s*/\s*\d+", text)]


def test_all_files_are_written(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    out, expected = built
    assert sorted((out / PDF_DIR).iterdir()) == sorted(expected)  # every list's three files, and nothing else
    assert [p.name for p in expected[:3]] == ["blackpoker-lite.pdf", "blackpoker-lite-2up.pdf", "blackpoker-lite-booklet.pdf"]
    assert all(p.is_file() and p.stat().st_size > 0 for p in expected)


@pytest.mark.build  # the small project's lists: seconds
def test_build_pdfs_returns_every_list_s_files_list_by_list(tmp_path: Path) -> None:
    """What ``build_pdfs`` returns: each list's A5, 2-up and booklet file, in the order of the lists (the order
    holds for any rules: the small project's lists)."""
    rules = load_rules(SMALL / "definitions")
    written = build_pdfs(rules, tmp_path, workers=1)
    assert written == [p for page in list_pages(rules) for p in pdf_paths(tmp_path, page)]
    assert len(list_pages(rules)) >= 2 and all(p.is_file() for p in written)


def test_page_sizes_and_counts(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    for page in list_pages(rules):
        a5, two_up, booklet = pdf_paths(out, page)
        src = PdfReader(a5).pages
        n = len(src)
        assert n >= 2
        for p in src:
            assert (float(p.mediabox.width), float(p.mediabox.height)) == pytest.approx(A5, abs=0.1)
        for path, count in ((two_up, math.ceil(n / 2)), (booklet, math.ceil(n / 4) * 2)):
            sides = PdfReader(path).pages
            assert len(sides) == count, path.name
            for s in sides:
                assert (float(s.mediabox.width), float(s.mediabox.height)) == pytest.approx((2 * A5[0], A5[1]), abs=0.2)


def _halves(path: Path, side: int) -> tuple[list[int], list[int]]:
    """The footer page numbers on the left and right half of one sheet side (only the footer strip is read)."""
    stat = path.stat()
    left, right = _footers(path, stat.st_mtime_ns, stat.st_size)
    return _page_marks(left[side - 1]), _page_marks(right[side - 1])


@functools.lru_cache(maxsize=16)
def _footers(path: Path, mtime: int, size: int) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The footer strip of the left and right half of every sheet side, one pdftotext run per half for the whole
    file (the crop applies to each page) rather than two per side: a file is read once, not once per side."""
    w, h, footer = 2 * A5[0], A5[1], 40
    return (tuple(_text(path, crop=(0, h - footer, w / 2, footer)).split("\f")),
            tuple(_text(path, crop=(w / 2, h - footer, w / 2, footer)).split("\f")))


@needs_poppler
def test_two_up_pages_are_in_reading_order(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    a5, two_up, _ = pdf_paths(out, all_page(rules))
    n = len(PdfReader(a5).pages)
    for side, (left, right) in enumerate(two_up_order(n), start=1):
        got_left, got_right = _halves(two_up, side)
        assert got_left == ([left + 1] if left is not None else []), side
        assert got_right == ([right + 1] if right is not None else []), side


@needs_poppler
@pytest.mark.parametrize("key", ["lite", "all"])
def test_booklet_pages_are_in_saddle_stitch_order(rules: Rules, built: tuple[Path, list[Path]], key: str) -> None:
    out, _ = built
    page = next(p for p in list_pages(rules) if p.key == key)
    a5, _, booklet = pdf_paths(out, page)
    n = len(PdfReader(a5).pages)
    order = booklet_order(n)
    assert len(order) == len(PdfReader(booklet).pages)
    for side, (left, right) in enumerate(order, start=1):
        got_left, got_right = _halves(booklet, side)
        assert got_left == ([left + 1] if left is not None else []), (key, side)
        assert got_right == ([right + 1] if right is not None else []), (key, side)


@needs_poppler
def test_fonts_are_embedded_japanese_with_bold(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    out, written = built
    for path in (p for p in written if p.name.endswith(("all.pdf", "lite-booklet.pdf"))):
        listing = subprocess.run(["pdffonts", str(path)], check=True, capture_output=True, text=True).stdout
        rows = listing.splitlines()[2:]
        assert rows, path
        names = [r.split()[0].split("+")[-1] for r in rows]
        assert "BIZ-UDPGothic" in names, names
        assert any(n.endswith("Gothic-Bold") for n in names), names
        for row in rows:
            emb, sub, uni = row.split()[-5:-2]
            assert (emb, uni) == ("yes", "yes"), row


@needs_poppler
def test_text_is_extractable_with_header_and_entry_names(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    out, _ = built
    for page in list_pages(rules):
        a5 = pdf_paths(out, page)[0]
        text = re.sub(r"\s+", "", _text(a5))
        for ev in page.entries:
            assert re.sub(r"\s+", "", ev.name) in text, (page.key, ev.name)
        second = _text(a5, 2)
        assert rules.edition.edition in second and rules.edition.release in second
        assert f"アクションリスト{page.title}" in re.sub(r"\s+", "", second)


@needs_poppler
def test_no_text_is_drawn_over_other_text(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    from pdfsame import words_drawn_over_words

    # the cover stamped onto its frame, the entries into their boxes; the running heads' strings are hidden
    for page in list_pages(rules):
        assert words_drawn_over_words(pdf_paths(built[0], page)[0]) == [], page.key


# ---- page breaks ------------------------------------------------------------------------------------

def _boxes(box: Any) -> Iterator[Any]:  # WeasyPrint's layout boxes (untyped)
    yield box
    for child in getattr(box, "children", ()) or ():
        yield from _boxes(child)


# The group of the tests of the shared build's lists (conftest._group): the test below reads the one-document
# layout of the full list that the comparison with the built lists renders too, so it runs on that worker and the
# list is laid out once.
BUILT_GROUP = "test_actionlist_pdf.py::built"


@pytest.fixture(scope="module")
def one_document(rules: Rules) -> Callable[[str], Any]:
    """A list laid out as one A5 document (a weasyprint Document, untyped), by key: each once for the module."""
    return functools.cache(lambda key: render_documents(rules, tuple(p for p in list_pages(rules) if p.key == key))[key])


@pytest.mark.build  # lays out the whole 'all' list with WeasyPrint
@pytest.mark.xdist_group(BUILT_GROUP)
def test_entries_are_never_split_and_headings_keep_their_first_entry(rules: Rules,
                                                                     one_document: Callable[[str], Any]) -> None:
    all_document = one_document("all")
    pages_of: dict[str, set[int]] = {}
    for number, page in enumerate(all_document.pages, start=1):
        for box in _boxes(page._page_box):
            if box.element_tag in ("article", "h3") and box.element is not None and box.element.get("id"):
                pages_of.setdefault(box.element.get("id"), set()).add(number)
    page = all_page(rules)
    for ev in page.entries:
        assert len(pages_of[ev.anchor]) == 1, f"{ev.anchor} is split over pages {sorted(pages_of[ev.anchor])}"
    for section in page.sections:
        for group in section.groups:
            assert pages_of[f"{group.anchor}-title"] == pages_of[group.entries[0].anchor], group.title


# ---- the lists are put together from separately rendered entries: they must look like one document ----

@needs_poppler
@pytest.mark.parametrize("key", ["lite", "all"])
def test_built_lists_look_exactly_like_one_document(rules: Rules, built: tuple[Path, list[Path]], key: str,
                                                    tmp_path: Path, one_document: Callable[[str], Any]) -> None:
    from pdfsame import pages_that_differ, structure

    page = next(p for p in list_pages(rules) if p.key == key)
    reference = tmp_path / f"{key}.pdf"
    one_document(key).write_pdf(reference)
    a5 = pdf_paths(built[0], page)[0]
    assert pages_that_differ(reference, a5) == []
    assert structure(a5) == structure(reference)


# ---- the cover is laid out apart from the frame -------------------------------------------------------

class _Counting:
    """Runs jobs inline and remembers the cache key of every part it had to render."""

    def __init__(self) -> None:
        self.rendered: list[str] = []

    def submit(self, fn: Callable[..., Any], *args: Any, priority: float = 0, then: float | None = None) -> Future[Any]:
        from blackpoker.infra.jobs import Inline
        if fn.__name__ == "_render":
            self.rendered.append(args[-1])
        return Inline().submit(fn, *args)


def test_a_cover_is_laid_out_again_only_when_its_page_numbers_change(rules: Rules, tmp_path: Path) -> None:
    from blackpoker.render.actionlist.pdf import ListsBuilder
    from blackpoker.render.pdfparts import PartCache

    runner = _Counting()
    builder = ListsBuilder(rules, runner, PartCache(tmp_path))
    page = next(p for p in builder.pages if p.key == "lite")
    heights = {ev.anchor: 40.0 for ev in page.entries}
    frame, cover, _ = builder.frame_and_cover(page, heights)
    assert cover.info.pages == 1 and frame.info.pages > 3
    numbers = {a.name: a.page for a in frame.info.anchors}

    # the last entry grows a little: the frame is laid out again, the contents' numbers stay, the cover is kept
    runner.rendered.clear()
    grown = {**heights, page.entries[-1].anchor: 60.0}
    frame2, cover2, _ = builder.frame_and_cover(page, grown)
    assert [k.rsplit("-", 1)[0] for k in runner.rendered] == ["frame-lite"]
    assert cover2 == cover and frame2 != frame

    # every entry grows: the groups move to later pages, so the cover shows new numbers
    runner.rendered.clear()
    frame3, cover3, _ = builder.frame_and_cover(page, {a: 120.0 for a in heights})
    moved = {a.name: a.page for a in frame3.info.anchors}
    section = page.sections[-1].anchor
    assert moved[section] > numbers[section]
    assert [k.rsplit("-", 1)[0] for k in runner.rendered] == ["frame-lite", "cover-lite"]
    assert cover3 != cover


@needs_poppler
def test_ranges_are_set_with_the_books_tilde_in_every_list(built: tuple[Path, list[Path]]) -> None:
    _, files = built
    pdfs = [f for f in files if f.suffix == ".pdf"]
    assert pdfs
    for pdf in pdfs:
        text = _text(pdf)
        assert "~" not in text and "～" in text, pdf.name


# ---- no text is lost: every entry's text in the HTML list is in each PDF of that list ------------------

class _EntryText(HTMLParser):
    """The text of each <article> (entry) of an HTML list, in pieces, without the web page's own labels
    (<summary>: ストーリー, 原文の記載) and its link to the rulebook (ルールブックで読む), which the print does not show."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.pieces: dict[str, list[str]] = {}
        self._article: list[str] = []
        self._summary = 0
        self._links: list[bool] = []  # for each open <a>: whether it is the rulebook link
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "article":
            self._article.append(dict(attrs)["id"] or "")
            self.pieces[self._article[-1]] = []
        elif tag == "summary":
            self._summary += 1
        elif tag == "a":
            self._links.append("entry-book" in (dict(attrs).get("class") or ""))
            self._summary += self._links[-1]

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._article.pop()
        elif tag == "summary":
            self._summary -= 1
        elif tag == "a" and self._links:
            self._summary -= self._links.pop()

    def handle_data(self, data: str) -> None:
        piece = _squeeze(data)
        if self._article and not self._summary and piece:
            self.pieces[self._article[-1]].append(piece)


def _squeeze(text: str) -> str:
    return re.sub(r"\s+", "", text)


# what pdftotext reads of the page body alone (points from the top): not the running heads, not the numbers
BODY_Y, BODY_H = 40, 520


def _body_texts(path: Path, x: float) -> list[str]:
    """The text of each page's body, in a column ``x`` points from the left and an A5 page wide."""
    stat = path.stat()
    return list(_column(path, x, stat.st_mtime_ns, stat.st_size))


@functools.lru_cache(maxsize=64)
def _column(path: Path, x: float, mtime: int, size: int) -> tuple[str, ...]:
    """_body_texts, read once per file as it is (its time and size in the key): the tests of one build read the
    same lists again for each entry they look at."""
    return tuple(_text(path, crop=(x, BODY_Y, A5[0] - 1, BODY_H)).split("\f"))


def _list_text(a5: Path, imposed: Path | None = None, mode: str = "") -> str:
    """The body text of a list, page after page in reading order, whitespace removed: from the A5 file, or
    from its 2-up or booklet print (each half of each sheet side put back at its page's place)."""
    n = len(PdfReader(a5).pages)
    if imposed is None:
        return _squeeze("".join(_body_texts(a5, 0)[:n]))
    left, right = _body_texts(imposed, 0), _body_texts(imposed, math.ceil(A5[0]))
    pages: dict[int, str] = {}
    for side, pair in enumerate(two_up_order(n) if mode == "2up" else booklet_order(n)):
        for half, number in zip((left, right), pair, strict=True):
            if number is not None:
                pages[number] = half[side]
    assert sorted(pages) == list(range(n)), imposed.name
    return _squeeze("".join(pages[i] for i in range(n)))


def _lost_text(rules: Rules, out: Path, only: str | None = None) -> list[tuple[str, str, str]]:
    """(PDF, entry, piece of its HTML text) for every piece of an entry's text missing from a PDF of its list
    (only the entry ``only``, if given)."""
    html = render_pages(rules)
    lost = []
    for page in list_pages(rules):
        if only is not None and only not in page.anchors:  # a list that does not show it: nothing to look for
            continue
        pieces = _EntryText(html[f"html/{page.filename}"]).pieces
        a5, two_up, booklet = pdf_paths(out, page)
        for path, text in ((a5, _list_text(a5)), (two_up, _list_text(a5, two_up, "2up")),
                           (booklet, _list_text(a5, booklet, "booklet"))):
            for ev in page.entries:
                if only is None or ev.anchor == only:
                    lost += [(path.name, ev.anchor, piece) for piece in pieces[ev.anchor] if piece not in text]
    return lost


@needs_poppler
def test_every_entry_s_text_is_in_every_pdf_of_its_list(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    lost = _lost_text(rules, built[0])
    assert lost == [], lost[:10]


# An entry taller than a page goes on over the pages after it: two of them, made long in a copy of the
# definitions (死の槍: 40 more numbered steps; 一般兵, its group's and its section's first: a long size).
STEPS = 40
SPEAR_STEP = "          - 対象の兵士のオーナーに X 点のダメージを与える。X はキーカードの ♠ カードの数字に等しい。\n"
SOLDIER_SIZE = "    size: キーカードの数字\n"


def _lengthen(folder: Path) -> None:
    actions, characters = folder / "actions.yaml", folder / "characters.yaml"
    text = actions.read_text(encoding="utf-8")
    assert text.count(SPEAR_STEP) == 1
    steps = "".join(f"          - 追加の手順{i}番目、対象の兵士のオーナーはカードを1枚引き、その後に手札を1枚捨てる。\n"
                    for i in range(1, STEPS + 1))
    actions.write_text(text.replace(SPEAR_STEP, SPEAR_STEP + steps), encoding="utf-8")
    text = characters.read_text(encoding="utf-8")
    assert text.count(SOLDIER_SIZE) == 1
    size = "".join(f"長い説明の文{i}番目、キーカードの数字がそのままサイズになることを何度も繰り返して確かめる。"
                   for i in range(1, 61))
    characters.write_text(text.replace(SOLDIER_SIZE, f"    size: {size}\n"), encoding="utf-8")


@pytest.fixture(scope="module")
def long_parts(tmp_path_factory: pytest.TempPathFactory, built_site: BuiltSite) -> PartCache:
    """One cache of parts for the module's builds of lists with long entries (tests/conftest.py keeps the tests
    that use it on one worker), a copy of the run's shared build's: what the builds before laid out (every entry
    that was not made long, the page body, the lists' covers when their page numbers stay) the next one finds, as a
    maintainer's build after an edit finds what the one before it left; the long entries are laid out anew."""
    parts = tmp_path_factory.mktemp("long") / "parts"
    shutil.copytree(built_site.site.parent / CACHE / "parts", parts)
    return PartCache(parts)


@pytest.fixture(scope="module")
def long_built(tmp_path_factory: pytest.TempPathFactory, long_parts: PartCache) -> tuple[Rules, Path]:
    from blackpoker.core.paths import DEFINITIONS

    definitions = tmp_path_factory.mktemp("long") / "definitions"
    shutil.copytree(DEFINITIONS, definitions)
    _lengthen(definitions)
    rules = load_rules(definitions)
    out = tmp_path_factory.mktemp("long-site")
    build_pdfs(rules, out, cache=long_parts)
    return rules, out


LONG = ("act-death-spear", "char-soldier")


@needs_poppler
def test_an_entry_taller_than_a_page_goes_on_over_the_next_pages(long_built: tuple[Rules, Path]) -> None:
    rules, out = long_built
    for page in list_pages(rules):
        a5 = pdf_paths(out, page)[0]
        pages = [_squeeze(t) for t in _body_texts(a5, 0)]
        for anchor, first, last in (("act-death-spear", "追加の手順1番目", f"追加の手順{STEPS}番目"),
                                    ("char-soldier", "長い説明の文1番目", "長い説明の文60番目")):
            if anchor in page.anchors:
                starts = [n for n, t in enumerate(pages) if first in t]
                ends = [n for n, t in enumerate(pages) if last in t]
                assert starts and ends and ends[0] > starts[0], (page.key, anchor, starts, ends)  # really long


@needs_poppler
@pytest.mark.parametrize("anchor", LONG)
def test_no_text_of_an_entry_taller_than_a_page_is_lost(long_built: tuple[Rules, Path], anchor: str) -> None:
    rules, out = long_built
    lost = _lost_text(rules, out, anchor)
    assert lost == [], lost[:10]


@needs_poppler
def test_entries_taller_than_a_page_leave_the_rest_of_the_lists_as_they_were(long_built: tuple[Rules, Path]) -> None:
    from pdfsame import words_drawn_over_words

    rules, out = long_built
    assert _lost_text(rules, out) == []
    for page in list_pages(rules):
        assert words_drawn_over_words(pdf_paths(out, page)[0]) == [], page.key


@needs_poppler
def test_an_entry_taller_than_a_page_keeps_its_headings(long_built: tuple[Rules, Path]) -> None:
    # 一般兵 starts the characters: their section and group titles are on the page where it starts
    rules, out = long_built
    for page in (p for p in list_pages(rules) if "char-soldier" in p.anchors):  # not エクストラ's own list
        a5 = pdf_paths(out, page)[0]
        pages = [_squeeze(t) for t in _body_texts(a5, 0)]
        start = next(n for n, t in enumerate(pages) if "長い説明の文1番目" in t)
        assert "キャラクターリスト" in pages[start] and "一般兵" in pages[start], page.key


@pytest.mark.build  # the small project's lists: seconds
def test_an_entry_taller_than_a_page_is_laid_out_once_for_every_list_that_shows_it(tmp_path: Path) -> None:
    """Its document names no list, so the two lists of the small project that show エンド (made taller than a page)
    alike share one layout of it; the second list asks for it while the first one's is still being laid out (the
    runner holds that job until both have asked), and waits for it instead of laying it out again."""
    import threading
    import time

    from blackpoker.infra.jobs import Inline
    from blackpoker.render.actionlist.pdf import ListsBuilder
    from blackpoker.render.pdfparts import PartCache

    definitions = tmp_path / "definitions"
    shutil.copytree(SMALL / "definitions", definitions)
    actions = definitions / "actions.yaml"
    step = "    - 自分のターンを終了し、対戦相手にターンを渡す。\n"
    text = actions.read_text(encoding="utf-8")
    assert text.count(step) == 1
    actions.write_text(text.replace(step, step + "".join(
        f"    - 追加の手順{i}番目、対象の兵士のオーナーはカードを1枚引き、その後に手札を1枚捨てる。\n"
        for i in range(1, 61))), encoding="utf-8")
    rules = load_rules(definitions)
    showing = [p.key for p in list_pages(rules) if "act-end" in p.anchors]
    assert len(showing) == 2, showing
    laid: list[str] = []
    lock = threading.Lock()

    class HoldingLongParts:
        """Runs jobs inline; a long entry's layout only once every list has asked for its part (or 30 s)."""

        def submit(self, fn: Callable[..., Any], *args: Any, priority: float = 0, then: float | None = None,
                   ) -> Future[Any]:
            if fn.__name__ == "_render_pieces":
                key = args[-1]
                with lock:
                    laid.append(key)
                deadline = time.monotonic() + 30
                while builder.used.count(key) < len(showing) and time.monotonic() < deadline:
                    time.sleep(0.01)
            return Inline().submit(fn, *args)

    builder = ListsBuilder(rules, HoldingLongParts(), PartCache(tmp_path / "parts"))
    written = builder.build(tmp_path / "site")
    assert len(written) == 3 * len(list_pages(rules))
    assert len(laid) == 1, laid  # one layout, not one per list
    assert builder.used.count(laid[0]) == len(showing)  # which both lists stamp


@needs_poppler
@pytest.mark.slow
@pytest.mark.build  # every list's PDFs
def test_after_very_long_pieces_an_entry_the_frame_would_let_run_past_the_foot_starts_the_next_page(
        tmp_path: Path, long_parts: PartCache) -> None:
    """300 KB of flavour text in 兵士召喚 (bench.py's long entry): after its 39 pieces, WeasyPrint let the box of
    リバース run 2.4 pt past the foot of page 47 of the master list; it is moved to the next page instead."""
    from blackpoker.core.paths import DEFINITIONS
    from pdfsame import words_drawn_over_words

    definitions = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, definitions)
    actions = definitions / "actions.yaml"
    marker = "「防壁の次は兵士を出します。これが戦術の基本です。」"
    sentence = "防壁を並べ、兵士を出し、攻撃する。この順番を忘れないように。"
    text = actions.read_text(encoding="utf-8")
    assert text.count(marker) == 1
    actions.write_text(text.replace(marker, "「" + sentence * (300 * 1024 // len(sentence.encode())) + "」"),
                       encoding="utf-8")
    rules = load_rules(definitions)
    build_pdfs(rules, tmp_path / "site", cache=long_parts)
    mast = next(p for p in list_pages(rules) if p.key == "mast")
    assert len(PdfReader(pdf_paths(tmp_path / "site", mast)[0]).pages) > 50
    for anchor in ("act-reverse", "act-soldier-summon"):
        assert _lost_text(rules, tmp_path / "site", anchor) == [], anchor
    assert words_drawn_over_words(pdf_paths(tmp_path / "site", mast)[0]) == []


@needs_poppler
def test_the_colophon_is_never_alone_on_the_last_page(rules: Rules, built: tuple[Path, list[Path]]) -> None:
    """Issue 14, item 7: the full list's last page held only the colophon; the last entry now comes with it."""
    out, _ = built
    for page in list_pages(rules):
        a5 = pdf_paths(out, page)[0]
        last = _squeeze(_text(a5, len(PdfReader(a5).pages)))
        assert rules.edition.copyright.replace(" ", "") in last, page.key
        assert any(_squeeze(ev.name) in last for ev in page.entries), page.key


def test_each_printed_list_carries_a_qr_code_to_its_web_version(rules: Rules) -> None:
    """Issue 14, item 5: the colophon of every printed list has a QR code of the list's web address (made
    locally by segno) and the address as text; without a configured site address there is neither."""
    import dataclasses

    import segno

    from blackpoker.render.actionlist.pdf import render_print_html
    for page in list_pages(rules):
        url = f"{rules.edition.site}actionlist/html/{page.filename}"
        html = render_print_html(rules, page)
        colophon = html[html.index('<footer class="colophon">'):]
        svg = colophon[colophon.index("<svg"):colophon.index("</svg>") + 6]
        # the drawn modules are the code of exactly this address
        expected = segno.make(url, error="m", micro=False).svg_inline(border=2, omitsize=True, svgclass="qr",
                                                                       lineclass=None, title=f"Web 版: {url}")
        assert svg == expected, page.key
        assert url in colophon
    unsited = dataclasses.replace(rules, edition=dataclasses.replace(rules.edition, site=None), _index={})
    assert "<svg" not in render_print_html(unsited, list_pages(unsited)[0]).split('<footer class="colophon">')[1]
