"""The rulebook build: site, generated chapters, index, figures, search, book PDF and booklet."""

from __future__ import annotations

import functools
import html
import json
import re
import shutil
import subprocess
from html import unescape
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pytest

from blackpoker import DefinitionErrors, load_rules
from blackpoker.core.model import Action, Block, Entry, Frame, Rules, TextList
from blackpoker.core.paths import DEFINITIONS
from blackpoker.core.typography import for_readers
from blackpoker.pipeline.rulebook import BOOKLET_NAME, PDF_NAME, RulebookError, build_rulebook
from blackpoker.render.impose import booklet_order
from blackpoker.sphinxext.kana import group_of, sort_key
from sites import small_project

CHAPTERS = {
    "intro": "はじめに", "common": "共通ルール", "regulation": "対戦レギュレーション", "format": "フォーマット",
    "frame": "フレーム", "core": "コアルール", "appendix": "付録", "history": "変更履歴",
}


@pytest.fixture(scope="session")
def rules() -> Rules:
    return load_rules(DEFINITIONS)


@pytest.fixture(scope="session")
def site(built_rulebook: tuple[Path, Path]) -> Path:
    return built_rulebook[0]


def page(site: Path, name: str) -> str:
    return (site / f"{name}.html").read_text(encoding="utf-8")


class _Tables(HTMLParser):
    """Collects the text of every cell of the table with a given id."""

    def __init__(self, table_id: str) -> None:
        super().__init__()
        self.table_id, self.depth = table_id, 0
        self.rows: list[list[str]] = []
        self.cell: str | None = None

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table" and (self.depth or dict(attrs).get("id") == self.table_id):
            self.depth += 1
        elif self.depth and tag == "tr":
            self.rows.append([])
        elif self.depth and tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag: str) -> None:
        if tag == "table" and self.depth:
            self.depth -= 1
        elif self.depth and tag in ("td", "th") and self.cell is not None:
            self.rows[-1].append(self.cell.strip())
            self.cell = None

    def handle_data(self, data: str) -> None:
        if self.cell is not None:
            self.cell += data


def table_rows(html: str, table_id: str) -> list[list[str]]:
    parser = _Tables(table_id)
    parser.feed(html)
    assert parser.rows, f"no table with id {table_id}"
    return parser.rows


# --- site ------------------------------------------------------------------------------------------
def test_every_chapter_exists_with_its_title(site: Path) -> None:
    assert (site / "index.html").is_file()
    for doc, title in CHAPTERS.items():
        h1 = re.search(r"<h1>(.*?)<a", page(site, doc), re.S)
        assert h1 and title in re.sub(r"<[^>]+>", "", h1.group(1)), doc
        assert f'id="ch-{doc}"' in page(site, doc)


def test_toc_numbers_the_chapters_in_order(site: Path) -> None:
    index = page(site, "index")
    positions = [index.index(f'href="{doc}.html"') for doc in CHAPTERS]
    assert positions == sorted(positions)
    assert "1. </span>はじめに" in page(site, "intro")


def test_every_entry_appears_in_its_chapter_with_its_anchor(site: Path, rules: Rules) -> None:
    fmt, frame = page(site, "format"), page(site, "frame")
    expected = ([(fmt, f"act-{a.id}", a.name) for a in rules.format_actions]
                + [(frame, f"act-{a.id}", a.name) for a in rules.frame_actions]
                + [(fmt, f"char-{c.id}", c.name) for c in rules.characters]
                + [(fmt, f"fog-{f.id}", f.name) for f in rules.format_fogs]
                + [(frame, f"fog-{f.id}", f.name) for f in rules.frame_fogs]
                + [(frame, f"trump-{t.id}", t.name) for t in rules.trumps]
                + [(frame, f"frame-{f.id}", f.name) for f in rules.frames]
                + [(frame, f"fig-frame-layout-{f.id}", f"配置図-{f.name}") for f in rules.frames])
    for text, anchor, name in expected:
        m = re.search(rf'id="{re.escape(anchor)}"[^>]*>(.{{0,600}})', text, re.S)
        assert m, anchor
        assert name in re.sub(r"<rt>.*?</rt>|<[^>]+>", "", m.group(1)), anchor


def test_entries_show_their_fields(site: Path, rules: Rules) -> None:
    fmt = page(site, "format")
    soldier = rules.action("soldier-summon")
    block = html.unescape(fmt[fmt.index('id="act-soldier-summon"'):fmt.index('id="act-hero-summon"')])
    for text in (soldier.shorthand, f"${soldier.cost_text}", f"★{soldier.key_card}", soldier.story,
                 soldier.flavor, soldier.flavor_speaker, soldier.introduced, f"<rt>{soldier.reading}</rt>"):
        assert text and for_readers(text) in block, text
    changed = [a for a in rules.format_actions if rules.is_changed(a)]
    assert changed
    for a in changed:
        start = fmt.index(f'id="act-{a.id}"')
        assert f"{rules.edition.version} で変更" in fmt[start:start + 1500], a.id
    equip = fmt[fmt.index('id="act-equip"'):]
    assert rules.rulings_for("action:equip")[0].ruling in equip[:6000]


def test_effect_structure_is_kept(site: Path, rules: Rules) -> None:
    fmt = page(site, "format")
    block = fmt[fmt.index('id="act-damage-judgement"'):fmt.index('id="act-generation-change"')]
    assert 'class="arabic simple"' in block or '<ol class="arabic' in block
    assert 'upperalpha' in block  # the lettered sub-list A. B.


def test_tables_match_the_model(site: Path, rules: Rules) -> None:
    numbers = table_rows(page(site, "common"), "tbl-card-numbers")
    assert numbers[1:] == [[for_readers(c.card), str(c.number) if c.number is not None else c.text] for c in rules.card_numbers]
    costs = table_rows(page(site, "common"), "tbl-costs")
    assert costs[1:] == [[f"{c.letter} ({c.name})", c.payment] for c in rules.costs]
    frames = table_rows(page(site, "regulation"), "tbl-frame-formats")
    assert frames[0][1:] == [f.name for f in rules.formats]
    assert frames[1:] == [[f.name, *("○" if fmt.id in f.formats else "×" for fmt in rules.formats)]
                          for f in rules.frames]


def test_rulings_for_sections_are_visible(site: Path, rules: Rules) -> None:
    for ruling in rules.rulings:
        places = [p for p in ruling.applies_to if p.startswith("section:")]
        for _ in places:
            chapter = "common" if ruling.applies_to[0].startswith("section:2") else "core"
            assert ruling.ruling in page(site, chapter), ruling.id
    assert all(r.title in page(site, "history") for r in rules.rulings)


def test_changes_list_links_every_changed_entry(site: Path, rules: Rules) -> None:
    history = page(site, "history")
    entries: tuple[Entry, ...] = (*rules.actions, *rules.characters, *rules.fogs, *rules.trumps)
    changed = [e for e in entries if rules.is_changed(e)]
    assert changed
    for e in changed:
        assert f"#{'act' if e in rules.actions else 'trump' if e in rules.trumps else 'char'}-{e.id}" in history \
            or f"#fog-{e.id}" in history


def test_index_holds_every_definition_sorted_by_reading(site: Path, rules: Rules) -> None:
    html = page(site, "sakuin")
    terms = [re.sub(r"<[^>]+>", "", t) for t in re.findall(r'<span class="std std-ref">(.*?)</span>', html)]
    entries: tuple[Entry | Frame, ...] = (*rules.actions, *rules.characters, *rules.fogs, *rules.trumps, *rules.frames)
    named = {e.name: e.reading for e in entries}
    missing = [n for n in named if not any(t.startswith(n) for t in terms)]
    assert not missing
    readings = [named[t] for t in (next((n for n in named if term.startswith(n) and
                                         term[len(n):] in ("", *KINDS)), None) for term in terms) if t]
    keys = [sort_key(r) for r in readings]
    assert keys == sorted(keys)
    headings = re.findall(r'<p class="[^"]*bp-index-group[^"]*" id="idx-(.)">', html)
    assert headings[0] == "あ" and headings == sorted(headings, key=lambda g: "あかさたなはまやらわ英".index(g))


KINDS = ("アクション", "フレームアクション", "キャラクター", "フォグ", "切札", "フレーム")


def test_kana_order() -> None:
    words = ["かい", "が", "か", "あーる", "あい", "ば", "はな", "ぱ"]
    # ー reads as the vowel before it (JIS X 4061): あーる = ああるう, before あい
    assert sorted(words, key=sort_key) == ["あーる", "あい", "か", "が", "かい", "ば", "ぱ", "はな"]
    assert [group_of(w) for w in ("ぼち", "ゆうはつ", "ゔぁ", "B")] == ["は", "や", "あ", "英数字"]


def test_figures_follow_the_step_lists(site: Path, rules: Rules) -> None:
    core = page(site, "core")
    for n in range(1, 17):
        assert f"[{n}] " in core
    for n in range(1, 13):
        assert f"[6-{n}] " in core
    for flow in rules.flows:
        ids = {s.id for s in flow.steps}
        assert {e.source for e in flow.edges} | {e.target for e in flow.edges} == ids
        for step in flow.steps:
            assert html.escape(step.text, quote=False) in core, step.text
    assert core.count("<svg") >= 2 and 'id="fig-core-flow"' in core and 'id="fig-trigger-check"' in core
    common = page(site, "common")
    for name in ("card-layout", "character-examples", "charge-drive", "request-stack-1", "request-stack-2",
                 "request-stack-3", "bulwark-placement", "fog-placement", "stage-placement"):
        assert f'id="fig-{name}"' in common


def test_search_index_finds_generation_change(site: Path) -> None:
    from sphinx.search.ja import SearchJapanese

    raw = (site / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(raw[raw.index("(") + 1:raw.rindex(")")])
    docs = index["docnames"]
    splitter = SearchJapanese({})
    hits = None
    for word in splitter.split("世代交代"):
        entry = index["terms"].get(splitter.stem(word).lower())
        assert entry is not None, word
        found = {docs[i] for i in ([entry] if isinstance(entry, int) else entry)}
        hits = found if hits is None else hits & found
    assert hits and "format" in hits


def test_appendix_links_are_relative_to_the_site(site: Path) -> None:
    appendix = page(site, "appendix")
    for href in (PDF_NAME, BOOKLET_NAME, "actionlist/html/all.html", "actionlist/pdf/blackpoker-all.pdf",
                 "actionlist/pdf/blackpoker-all-2up.pdf"):
        assert f'href="{href}"' in appendix
    assert "actionlist/html/all.html?format=" in appendix


def test_no_remote_assets(site: Path) -> None:
    for page in site.glob("*.html"):
        text = page.read_text(encoding="utf-8")
        assert not re.search(r'<(script|img|link|iframe)\b[^>]*\b(src|href)="(https?:)?//', text), page.name
        assert "googletagmanager" not in text


# --- failures --------------------------------------------------------------------------------------
def test_broken_definitions_fail_with_locations(tmp_path: Path) -> None:
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    actions = defs / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace("timing: main", "timing: mian", 1), encoding="utf-8")
    with pytest.raises(DefinitionErrors) as info:
        build_rulebook(defs, tmp_path / "out", pdf=False, work_dir=tmp_path / "work")
    assert re.search(r"actions\.yaml:\d+:\d+: .*timing", str(info.value))


@pytest.mark.build  # a whole rulebook build, failing at its end: the small project's, seconds
def test_warnings_fail_the_build(tmp_path: Path) -> None:
    definitions = small_project(tmp_path)
    page = tmp_path / "source" / "common.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n{ref}`no-such-label`\n", encoding="utf-8")
    with pytest.raises(RulebookError) as info:
        build_rulebook(definitions, tmp_path / "out", pdf=False, work_dir=tmp_path / "work", source=page.parent)
    assert any("no-such-label" in m for m in info.value.messages)


# --- PDF -------------------------------------------------------------------------------------------
def _run(*cmd: str) -> str:
    return subprocess.run(cmd, capture_output=True, text=True, check=True).stdout


@functools.cache
def _book_text(site: Path) -> str:
    """``pdftotext`` of the shared build's book, run once for the tests that read it (the site is never changed)."""
    return _run("pdftotext", str(site / PDF_NAME), "-")


def _layout_pages(pdf: Path) -> list[str]:
    """Each page's text as ``pdftotext -layout`` gives it (a label and its value on one line are one line), in
    one run over the whole book: it ends each page with a form feed (a run per page read the book 170 times)."""
    pages = _run("pdftotext", "-layout", str(pdf), "-").split("\f")
    assert pages[-1] == "", pages[-1][:80]
    return pages[:-1]


@pytest.mark.slow
def test_book_pdf_is_a5_with_embedded_fonts_and_text(site: Path, rules: Rules) -> None:
    from pypdf import PdfReader

    pdf = site / PDF_NAME
    reader = PdfReader(pdf)
    assert len(reader.pages) > 50
    for p in reader.pages:
        assert (round(float(p.mediabox.width)), round(float(p.mediabox.height))) == (420, 595)
    fonts = _run("pdffonts", str(pdf)).splitlines()[2:]
    assert fonts and all(" yes yes yes " in line for line in fonts)
    assert any("BIZ-UDPGothic-Bold" in line for line in fonts)
    text = _book_text(site)
    for title in CHAPTERS.values():
        assert title in text
    for name in (rules.format_actions[0].name, rules.format_actions[-1].name, rules.characters[0].name,
                 rules.trumps[0].name, rules.frames[-1].name, rules.edition.title, rules.edition.edition):
        assert name in text, name
    assert "索引" in text


@pytest.mark.slow
def test_book_pdf_has_bookmarks(site: Path) -> None:
    from pypdf import PdfReader

    reader = PdfReader(site / PDF_NAME)

    def titles(outline: list[Any]) -> list[str]:  # pypdf's outline: destinations and nested lists
        out: list[str] = []
        for item in outline:
            out.extend(titles(item) if isinstance(item, list) else [item.title])
        return out

    found = titles(reader.outline)
    for title in CHAPTERS.values():
        assert any(title in t for t in found), title


@pytest.mark.slow
def test_booklet_has_the_right_sides_in_order(site: Path) -> None:
    from pypdf import PdfReader

    n = len(PdfReader(site / PDF_NAME).pages)
    booklet = PdfReader(site / BOOKLET_NAME)
    assert len(booklet.pages) == 4 * -(-(n + 1) // 4) // 2
    w = float(booklet.pages[0].mediabox.width)
    h = float(booklet.pages[0].mediabox.height)
    order = booklet_order(n, blank_back=True)
    assert order[0][0] is None  # the outside back cover (left of the first side) is blank, never the index
    for side in (0, 1, len(order) - 1):
        for slot, index in enumerate(order[side]):
            crop = _run("pdftotext", "-f", str(side + 1), "-l", str(side + 1), "-x", str(int(slot * w / 2)), "-y", "0",
                        "-W", str(int(w / 2)), "-H", str(int(h)), str(site / BOOKLET_NAME), "-")
            if index is None:
                assert not crop.strip()
                continue
            source = _run("pdftotext", "-f", str(index + 1), "-l", str(index + 1), str(site / PDF_NAME), "-")
            lines = [line.strip() for line in source.splitlines() if line.strip()]
            assert (lines[0] in crop) if lines else not crop.strip(), (side, slot)


def test_pdf_links_are_absolute_under_the_site_and_do_not_depend_on_the_build_folder(site: Path, rules: Rules) -> None:
    """Links to the site's other files work from a downloaded PDF (issue 22, item 4): absolute under the ruleset's
    ``site``, never the build machine's paths (determinism, portability)."""
    from pypdf import PdfReader
    uris = []
    for pdf_page in PdfReader(site / "blackpoker.pdf").pages:
        for annot in pdf_page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            if action is not None and "/URI" in action.get_object():
                uris.append(str(action.get_object()["/URI"]))
    base = rules.edition.site
    assert base and f"{base}blackpoker-booklet.pdf" in uris and f"{base}actionlist/pdf/blackpoker-all.pdf" in uris
    assert not [u for u in uris if u.startswith("file:") or u.startswith("/")]
    assert not [u for u in uris if not u.startswith(("http://", "https://", "mailto:"))], uris[:5]
    assert not [u for u in uris if "%E3" in u]  # typeable: ?format=mast, not a percent-encoded name


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_no_text_is_drawn_over_other_text(site: Path) -> None:
    from pdfsame import words_drawn_over_words

    # the index's two lists per group, the entries' floated field names: nothing lands on anything else
    assert words_drawn_over_words(site / PDF_NAME) == []


@pytest.mark.slow
def test_book_from_chapters_looks_exactly_like_the_single_page_as_one_document(
        built_rulebook: tuple[Path, Path], tmp_path: Path) -> None:
    """The book is rendered chapter by chapter and joined; it must equal WeasyPrint's one-document rendering:
    the same pages, outline, named destinations, links (incl. those across chapters) and page numbers."""
    from blackpoker.render.book import render_pdf
    from pdfsame import pages_that_differ, structure

    site, work = built_rulebook
    reference = tmp_path / "reference.pdf"
    render_pdf(work / "single" / "index.html", reference)
    # chapter 4's groups are parts of their own, with their own font subsets: a few glyph pixels may differ
    assert pages_that_differ(reference, site / PDF_NAME, dpi=30, stray=24) == []
    assert structure(site / PDF_NAME) == structure(reference)


def test_the_theme_speaks_japanese_and_advertises_no_empty_index(built_rulebook: tuple[Path, Path]) -> None:
    """furo's labels (issue 14, item 6) in Japanese on every page; Sphinx's empty genindex is not built."""
    site, _ = built_rulebook
    english = ("On this page", "Back to top", "Made with", ">Next<", ">Previous<", "Skip to content")
    pages = sorted(site.glob("*.html"))
    assert pages
    for page in pages:
        text = page.read_text(encoding="utf-8")
        assert not [label for label in english if label in text], page.name
        assert "genindex" not in text, page.name
    core = (site / "core.html").read_text(encoding="utf-8")
    assert "このページの内容" in core and "ページの先頭へ" in core
    assert not (site / "genindex.html").exists()


def test_every_id_on_every_page_is_unique(built_rulebook: tuple[Path, Path]) -> None:
    """Figures with their own arrow heads and patterns, tables wrapped by the theme (issue 14, item 7)."""
    from htmlcheck import repeated_ids
    site, _ = built_rulebook
    pages = sorted(site.glob("*.html"))
    assert pages
    for page in pages:
        assert repeated_ids(page.read_text(encoding="utf-8")) == [], page.name


def test_index_kinds_stand_apart_from_the_names(built_rulebook: tuple[Path, Path]) -> None:
    site, _ = built_rulebook
    text = re.sub(r"<[^>]+>", "", (site / "sakuin.html").read_text(encoding="utf-8"))
    assert "裏切札切札" not in text and "20フレーム" not in text
    assert "裏切札 （切札）" in text and "エントリー 20 （フレーム）" in text


def test_ranges_are_set_with_the_books_tilde(built_rulebook: tuple[Path, Path]) -> None:
    """``♡A~10`` of the definitions reads ``♡A～10`` in every page and in the book (issue 14, item 7): the BIZ UD
    fonts draw the ASCII tilde as a raised mark."""
    site, _ = built_rulebook
    shown = 0
    for page in sorted(site.glob("*.html")):
        text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", "", page.read_text(encoding="utf-8"), flags=re.S)
        assert "~" not in text, page.name
        shown += text.count("～")
    assert shown > 50  # the key cards of the actions, at least
    book = _book_text(site)
    assert "~" not in book and "♡A～10" in book


def test_no_book_page_ends_with_a_section_heading(built_rulebook: tuple[Path, Path]) -> None:
    """A heading stays with what follows it (issue 14, item 7: 4.3.1 stood alone on a page before its list). A
    heading is a numbered line that is one of the book's bookmarks on that page (a reference such as
    「4.3.1 世代交代 (基本)」 in a paragraph is not)."""
    site, _ = built_rulebook
    from pypdf import PdfReader
    reader = PdfReader(site / PDF_NAME)
    headings: dict[int, set[str]] = {}

    def walk(items: list[Any]) -> None:
        for item in items:
            if isinstance(item, list):
                walk(item)
            else:
                at = reader.get_destination_page_number(item)
                if at is not None:
                    headings.setdefault(at + 1, set()).add(re.sub(r"\s+", "", item.title))

    walk(reader.outline)
    assert sum(len(h) for h in headings.values()) > 100
    stranded = []
    texts = _layout_pages(site / PDF_NAME)
    assert len(texts) == len(reader.pages)
    for number in range(2, len(reader.pages) + 1):
        lines = [line.strip() for line in texts[number - 1].splitlines() if line.strip()]
        body = lines[1:-1]  # without the running head and the folio
        numbered = bool(body) and re.match(r"^\d+(\.\d+)+\.? \S", body[-1]) and ".." not in body[-1]  # no contents
        if numbered and re.sub(r"\s+", "", body[-1]) in headings.get(number, set()):
            stranded.append((number, body[-1]))
    assert stranded == []


def test_a_ruling_of_several_entries_is_printed_once_and_linked_from_the_others(site: Path, rules: Rules) -> None:
    """「表の切札」 applies to five trumps: its box once, four one-line links to it (issue 14, item 7)."""
    pages = {name: page(site, name) for name in ("common", "core", "format", "frame", "regulation")}
    shared = [ruling for ruling in rules.rulings if len(ruling.applies_to) > 1]
    assert shared
    for ruling in shared:
        boxes = sum(text.count(html.escape(for_readers(ruling.ruling), quote=False)) for text in pages.values())
        assert boxes == 1, ruling.id
        mentions = sum(text.count(f"裁定: {html.escape(ruling.title, quote=False)}(") for text in pages.values())
        assert mentions == len(ruling.applies_to) - 1, ruling.id


def test_the_appendix_gives_every_list_and_view_at_its_absolute_address(site: Path, rules: Rules) -> None:
    """Issue 14, item 5: the book and every list (HTML, A5, 2-up, booklet), and each allowed format + frame view,
    printed under the configured site address (the printed v8.1 book's by default), each linking to the file
    in this build; no sentence that means nothing on paper."""
    html = page(site, "appendix")
    links = [(unescape(h), unescape(t)) for h, t in
             re.findall(r'<a class="bp-download reference external" href="([^"]+)">([^<]+)</a>', html)]
    base = "https://blackpoker.github.io/BlackPoker/master/"
    assert rules.edition.site == base
    assert all(text == base + href for href, text in links), links[:3]
    hrefs = {href for href, _ in links}
    assert {"blackpoker.pdf", "blackpoker-booklet.pdf"} <= hrefs
    for key in ("lite", "std", "pro", "mast", "all"):
        assert {f"actionlist/pdf/blackpoker-{key}{s}.pdf" for s in ("", "-2up", "-booklet")} <= hrefs, key
    # short addresses a reader can type (issue 22, item 4): ids, nothing percent-encoded; each PDF labelled
    assert "actionlist/html/all.html?format=lite" in hrefs and "actionlist/html/all.html?format=pro&frame=pack" in hrefs
    assert not [h for h in hrefs if "%" in h]
    for label in ("A5: ", "A4 2in1: ", "中綴じ冊子: "):
        assert html.count(f'<span class="bp-download-kind">{label}</span>') >= 5, label  # every list, each print
    assert "actionlist/html/all.html" in hrefs
    views = [h for h in hrefs if "&frame=" in h]
    assert len(views) == sum(len(rules.frames_for_format(f.id)) for f in rules.formats) == 10
    assert "このサイトと同じビルド" not in html


def test_every_page_has_the_mark_as_icon_and_logo(site: Path) -> None:
    """Issue 14, item 6: the ♠♡ mark of the action lists is the site's favicon and its sidebar logo."""
    assert (site / "_static" / "bp-mark.svg").read_text(encoding="utf-8").lstrip().startswith("<svg")
    for path in site.glob("*.html"):
        html = path.read_text(encoding="utf-8")
        assert '<link rel="shortcut icon" href="_static/bp-mark.svg"' in html, path.name
        assert '<img class="sidebar-logo" src="_static/bp-mark.svg" alt=""/>' in html, path.name


def test_the_book_is_at_most_120_a5_pages(site: Path) -> None:
    """Issue 14: the printed v8.1 book ends its content near page 110; with contents, index and 奥付, at most 120
    (issue 22: room under the old limit of 125, which it had reached, with every entry card kept whole)."""
    from pypdf import PdfReader

    assert len(PdfReader(site / PDF_NAME).pages) <= 120


def _last_words(block: Block) -> str:
    """The text a block of an effect ends with (a list's last item, or that item's own last block)."""
    while isinstance(block, TextList):
        item = block.items[-1]
        if not item.sub:
            return item.text
        block = item.sub[-1]
    return block


def _book_pages(site: Path) -> list[list[str]]:
    """The book's text, page by page, line by line."""
    return [page.splitlines() for page in _book_text(site).split("\f")]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_an_entry_card_is_kept_whole_on_one_page(rules: Rules, site: Path) -> None:
    """Issue 22, item 4: an entry card (action, character, fog, trump: each shorter than a page) is never cut by a
    page break; it moves whole to the next page (兵士召喚 ran from p. 37 to p. 38). Its last field is on its
    title's page, before the next card's title: 導入バージョン, or for a frame action (which has no version)
    効果 with the effect's last words."""
    entries: list[Entry] = [*rules.actions, *rules.characters, *rules.fogs, *rules.trumps]
    titles = {f"{e.name} ({e.category})": e for e in entries}
    seen, cut = set(), []
    for number, lines in enumerate(_book_pages(site), start=1):
        starts = [i for i, line in enumerate(lines) if line.strip() in titles]
        for k, i in enumerate(starts):
            e = titles[lines[i].strip()]
            seen.add(e.name)
            card = "\n".join(lines[i:starts[k + 1] if k + 1 < len(starts) else len(lines)])
            if e.introduced or not isinstance(e, Action):
                whole = "\n導入バージョン" in card
            else:
                last = re.sub(r"\s+", "", for_readers(_last_words(e.effect[-1])))[-6:]
                whole = "\n効果" in card and last in re.sub(r"\s+", "", card)
            if not whole:
                cut.append(f"{e.name} (p. {number})")
    assert len(seen) == len({e.name for e in entries}), sorted({e.name for e in entries} - seen)
    assert cut == [], cut


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_the_book_ends_with_a_colophon_from_the_definitions(rules: Rules, site: Path) -> None:
    """Issue 22, item 4: a 奥付 on the book's last page and on the site, with the edition's title, edition,
    release, author, address and copyright notice as ruleset.yaml gives them (the rules state no licence)."""
    ed = rules.edition
    facts = [ed.title, ed.edition, ed.release, ed.author, ed.copyright]
    assert ed.site
    last = "\n".join(_book_pages(site)[-1] or _book_pages(site)[-2])
    assert "奥付" in last, last
    for fact in [*facts, ed.site]:
        assert fact in last, (fact, last)
    html = unescape(re.sub(r"<[^>]+>", "", page(site, "colophon")))
    for fact in facts:
        assert fact in html, fact
    assert f'href="index.html">{ed.site}</a>' in page(site, "colophon")  # the site's root, its address shown


# Every figure of the printed v8.1 book (seed 002), with its number and caption.
BOOK_FIGURES = {
    "intro": [("1.1", "プレイ風景")],
    "common": [("2.1", "プレイ中のカードの配置"), ("2.2", "キャラクターの例"), ("2.3", "チャージとドライブ"),
               ("2.4", "アクションの解決 1"), ("2.5", "アクションの解決 2"), ("2.6", "アクションの解決 3"),
               ("2.7", "防壁の置き方"), ("2.8", "フォグの置き方"), ("2.9", "ステージの置き方")],
    "frame": [("5.1", "配置図-エントリー 20"), ("5.2", "配置図-パック"), ("5.3", "配置図-レアパック"),
              ("5.4", "配置図-ストラテジー"), ("5.5", "配置図-エクストラ")],
    "core": [("6.1", "コアルールのイメージ"), ("6.2", "割込み可能なターン制ゲーム"),
             ("6.3", "リクエストとコンポーネントインスタンスの関係"), ("6.4", "コントローラー属性"), ("6.5", "能力のイメージ"),
             ("6.6", "コアフロー"), ("6.7", "誘発チェック"), ("6.8", "誘発チェック-即時処理"), ("6.9", "誘発チェック-通常処理")],
}


def test_every_figure_of_the_book_is_there_with_its_number_and_caption(site: Path) -> None:
    """Issue 14, item 2: the book's 24 figures, each drawn (an inline SVG), numbered as the book numbers it and
    referred to from the text by that number."""
    for name, figures in BOOK_FIGURES.items():
        text = page(site, name)
        found = [(number, re.sub(r"<[^>]+>", "", caption).strip()) for number, caption in re.findall(
            r'<span class="caption-number">図 ([0-9.]+) </span><span class="caption-text">(.*?)</span>', text)]
        assert found == figures, name
        assert text.count("<figure") - text.count('<figure class="bp-board-figure"') == len(figures), name
    # referred to by number wherever the book's text refers to it ("(Fig. 2.1)"); it cites neither 2.4–2.6 (the
    # steps they illustrate are the list around them) nor the frame layouts
    cited = set(re.findall(r'std-numref">図 ([0-9.]+)<', "".join(page(site, name) for name in BOOK_FIGURES)))
    every = {number for figures in BOOK_FIGURES.values() for number, _ in figures}
    assert cited == every - {"2.4", "2.5", "2.6", "5.1", "5.2", "5.3", "5.4", "5.5"}


def test_no_page_of_the_book_ends_with_a_field_label(site: Path) -> None:
    """Issue 14, item 7: an entry's field label (効果, キーカード, 導入バージョン …) stays with its value, on its
    line."""
    labels = set()
    for name in ("format", "frame"):
        labels |= {unescape(re.sub(r"<[^>]+>", "", t)).strip().rstrip(":") for t in re.findall(
            r'<dt class="field-(?:odd|even)">(.*?)<span class="colon">', page(site, name), re.S)}
    assert {"効果", "キーカード", "導入バージョン"} <= labels
    pdf = site / PDF_NAME
    pages = re.search(r"Pages:\s+(\d+)", _run("pdfinfo", str(pdf)))
    assert pages is not None
    count = int(pages[1])
    ends = {}
    texts = _layout_pages(pdf)
    assert len(texts) == count
    for n in range(1, count + 1):
        # -layout: a label and its value on one line are one line of text
        lines = [line.strip() for line in texts[n - 1].splitlines() if line.strip() and not line.strip().isdigit()]
        if lines and lines[-1] in labels:
            ends[n] = lines[-1]
        # a label of two lines (フォグに置くアクション) keeps the next field's value on its label's line
        for line in lines:
            if line.startswith("導入バージョン") and not re.search(r"(v|ex)\d", line):
                ends[n] = line
    assert ends == {}


def test_the_book_s_words_a_ruling_amends_are_marked_and_link_to_it(site: Path) -> None:
    """Issue 14, item 7: 6.4.2 keeps the book's 「合計+5」 verbatim, marked, linking to the ruling that makes it +4."""
    core = page(site, "core")
    assert ('<span class="bp-amended">合計+5の修正</span><sup class="bp-amended-mark">'
            '<a class="reference internal" href="#ruling-ability-order-example-sum">') in core
    note = core[core.index('id="ruling-ability-order-example-sum"'):]
    assert "本書では合計を +4 とします" in note[:2000]


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_the_printed_examples_read_as_a_narration(site: Path) -> None:
    """Issue 22, item 4: on paper an example is told to a reader: a refused decision as 「× A はこの判断ができません
    (…)」, no web-only mark (the report is not printed), and a ruling by its Japanese title, never its id."""
    text = _book_text(site)
    flat = re.sub(r"\s+", "", text)
    assert "不正な判断" not in flat and "シミュレーターで検証済み" not in flat
    assert "はこの判断ができません" in flat
    assert "裁定「複数のブロッカーが負けた場合」" in flat
    for name in ("common", "core", "format", "frame"):
        assert not re.search(r"裁定 [a-z]+-[a-z]", page(site, name)), name


def test_every_visible_and_accessible_label_is_japanese(site: Path) -> None:
    """Issue 22, item 7: tooltips, accessible names, icon titles and the footer: no English left by Sphinx or
    the theme (「Link to this heading」, 「Toggle Light / Dark …」, 「Copyright」, 「Menu」)."""
    english = re.compile(r'(?:title|aria-label)="[^"ぁ-んァ-ヶ一-龯]*[A-Za-z]{4}[^"ぁ-んァ-ヶ一-龯]*"'
                         r"|<title>[A-Za-z][A-Za-z /,]+</title>|Copyright|Made with")
    for path in sorted(site.glob("*.html")):
        text = re.sub(r"<svg class=\"bp-svg.*?</svg>", "", path.read_text(encoding="utf-8"), flags=re.S)
        found = sorted(set(english.findall(text)) - {'title="BlackPoker"'})
        assert not found, (path.name, found[:5])


def test_the_top_page_leads_to_the_tutorial_and_the_play_page_the_book_does_not(built_rulebook: tuple[Path, Path]) -> None:
    site, _ = built_rulebook
    top = (site / "index.html").read_text(encoding="utf-8")
    assert 'href="play/tutorial.html">はじめての BlackPoker(チュートリアル)</a>' in top
    assert 'href="play/index.html">コンピューターと対戦</a>' in top
    book = _book_text(site)
    assert "チュートリアル" not in book and "ブラウザーで遊ぶ" not in book


def test_the_rulebook_links_to_the_hub_and_each_entry_to_its_list_entry(site: Path, rules: Rules) -> None:
    """Issue 22, item 6: one site: every rulebook page's sidebar leads to the action lists' hub, and every entry to
    its own entry in the full list (a frame's entry with its frame chosen); the anchors exist there."""
    for path in sorted(site.glob("*.html")):
        assert 'href="actionlist/index.html"' in path.read_text(encoding="utf-8"), path.name
    links = set()
    for name in ("format", "frame"):
        links |= set(re.findall(r'<a class="reference external" href="(actionlist/html/all\.html[^"]*)">アクションリストで見る</a>',
                                page(site, name)))
    assert len(links) >= len(rules.actions) + len(rules.characters)
    assert "actionlist/html/all.html#act-generation-change" in links
    assert any(link.startswith("actionlist/html/all.html?frame=") for link in links)


@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_one_colon_in_every_page_and_the_book(site: Path) -> None:
    """Issue 22, item 7: colons were mixed (「A くん：」, 「A5：」, 「先攻決定：」 beside 「例: 」, 「チャンス: A」). The
    printed book sets an ASCII colon; so does every page of the site (text, boards, figures) and the book."""
    for path in sorted(site.glob("*.html")):
        text = re.sub(r"<(script|style)\b.*?</\1>", "", path.read_text(encoding="utf-8"), flags=re.S)
        shown = unescape(re.sub(r"<[^>]+>", "", text))
        at = shown.find("：")
        assert at < 0, (path.name, shown[max(0, at - 30):at + 10])
    book = _book_text(site)
    assert "：" not in book, book[max(0, book.find("：") - 30):book.find("：") + 10]
    assert "例: " in book and "A くん: 「" in book


def test_a_reading_is_shown_over_kanji_only(rules: Rules, site: Path) -> None:
    """Issue 22, item 7: ruby where it helps: 兵士召喚 has its reading above it; a name in kana (アップ, ブロック)
    has none (it was spelled again in hiragana above the katakana), though its reading still finds and sorts it."""
    pages = "".join(page(site, name) for name in ("format", "frame"))
    rubies = dict(re.findall(r"<ruby>(.*?)<rt>(.*?)</rt></ruby>", pages))
    soldier = rules.action("soldier-summon")
    assert rubies.get(soldier.name) == soldier.reading
    entries: list[Entry] = [*rules.actions, *rules.characters, *rules.fogs, *rules.trumps]
    kana = [e.name for e in entries if e.reading and not re.search(r"[\u4e00-\u9fff]", e.name)]
    assert kana and not set(kana) & set(rubies), sorted(set(kana) & set(rubies))
