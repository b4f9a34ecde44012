"""Each directive of the Sphinx extension on a tiny root (tests/roots/, see sphinxroots.py): what it writes, and a
bad argument reported where it is written (``index.md:LINE: ERROR: …``), while the rest of the page is built."""

from __future__ import annotations

import json
import re
import shutil
from collections.abc import Callable
from html import unescape
from pathlib import Path

import pytest
from docutils import nodes
from sphinx import addnodes
from sphinx.testing.util import SphinxTestApp

from blackpoker.core.kinds import KIND, anchor
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Entry, Frame, Rules
from blackpoker.core.paths import DEFINITIONS, SCENARIOS
from blackpoker.core.typography import for_readers
from blackpoker.render.fonts import STYLESHEET_NAME
from blackpoker.sphinxext.figures import FIGURES
from blackpoker.sphinxext.index import read_terms
from blackpoker.sphinxext.kana import GROUP_ORDER, group_of, sort_key
from blackpoker.sphinxext.labels import FIXED, LABELS, SCRIPT_LABELS
from blackpoker.sphinxext.ruleset import DefinitionsFailed
from htmlcheck import repeated_ids
from sphinxroots import doctree, line_of, page, root_copy, text_of, warnings_of


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def _rows(tree: nodes.document, table_id: str) -> list[list[str]]:
    """The text of every cell of the table labelled ``table_id`` (the first table for ""), row by row (its header
    first)."""
    table = next(t for t in tree.findall(nodes.table) if not table_id or table_id in t["ids"])
    return [[entry.astext() for entry in row.findall(nodes.entry)] for row in table.findall(nodes.row)]


@pytest.mark.sphinx("html", testroot="tables", freshenv=True)
def test_every_table_is_drawn_from_the_model(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    tree = doctree(app)
    assert _rows(tree, "tbl-card-numbers")[1:] == [
        [for_readers(c.card), str(c.number) if c.number is not None else c.text or ""] for c in rules.card_numbers]
    assert ["2～10", "表記どおり"] in _rows(tree, "tbl-card-numbers")  # the readers' tilde (typeset.py), not 2~10
    assert _rows(tree, "tbl-costs")[1:] == [[f"{c.letter} ({c.name})", c.payment] for c in rules.costs]
    disclosure = next(t for t in tree.findall(nodes.table) if "bp-disclosure" in t["classes"])
    assert len(list(disclosure.findall(nodes.row))) == 1 + len(rules.disclosure)
    frames = _rows(tree, "tbl-frame-formats")
    assert frames[0][1:] == [f.name for f in rules.formats]
    assert frames[1:] == [[f.name, *("○" if fmt.id in f.formats else "×" for fmt in rules.formats)]
                          for f in rules.frames]
    levels = next(d for d in tree.findall(nodes.definition_list) if "bp-levels" in d["classes"])
    assert [term.astext() for term in levels.findall(nodes.term)] == [level.name for level in rules.disclosure_levels]
    zones = next(d for d in tree.findall(nodes.definition_list) if "bp-zones" in d["classes"])
    assert [term.astext() for term in zones.findall(nodes.term)] == [z.name for z in rules.zones if z.common]
    html = page(app)
    # the rest of the page is built: each labelled table is numbered, and its caption is its title
    assert 'id="tbl-card-numbers"' in html and "表 1" in text_of(html)
    assert html.count("<table") == 4  # card numbers, costs, disclosure, frame formats


@pytest.mark.sphinx("html", testroot="lists", freshenv=True)
def test_every_list_shows_each_entry_at_its_label(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    fmt, frame = page(app, "format"), page(app, "frame")
    shown: dict[str, list[Entry | Frame]] = {"format": [*rules.format_actions, *rules.characters, *rules.format_fogs],
             "frame": [*rules.frame_actions, *rules.frame_fogs, *rules.trumps, *rules.frames]}
    for name, html in (("format", fmt), ("frame", frame)):
        for entry in shown[name]:
            at = html.find(f'id="{anchor(entry)}"')
            assert at >= 0, anchor(entry)
            assert entry.name in re.sub(r"<rt>.*?</rt>|<[^>]+>", "", html[at:at + 600]), anchor(entry)
    for f in rules.frames:  # each frame with its layout, numbered as a figure
        assert f'id="fig-frame-layout-{f.id}"' in frame
    # every ruling of an entry: in full at its first place, one line linking there at each other place
    for ruling in rules.rulings:
        if ruling.applies_to[0].startswith("section:"):
            continue
        assert sum(text_of(html).count(for_readers(ruling.ruling)) for html in (fmt, frame)) == 1, ruling.id
        links = sum(html.count(f"裁定: {ruling.title}(") for html in (fmt, frame))
        assert links == len(ruling.applies_to) - 1, ruling.id
    assert 'id="ruling-trump-face-up"' in frame
    # on the site each entry leads to its place in the full action list (a frame's entries with their frame)
    assert 'href="actionlist/html/all.html#act-soldier-summon"' in fmt
    assert 'href="actionlist/html/all.html?frame=pack#act-pack-open"' in frame
    assert f'href="#{KIND["frame"].anchor_of("pack")}"' in frame


@pytest.mark.sphinx("html", testroot="errors", freshenv=True, warningiserror=True)
def test_each_directive_used_wrongly_is_reported_at_its_place_and_the_page_is_built(app: SphinxTestApp) -> None:
    """Every mistake at its line, all in one build; with warnings as errors, as the rulebook is built
    (pipeline/rulebook.py), the build fails (a mark naming no ruling, once a whole build of the small project)."""
    app.build()
    assert app.statuscode == 1

    def at(needle: str) -> str:
        return f"index.md:{line_of(app, 'index', needle)}"

    assert warnings_of(app) == [
        f"{at('no-such-table')}: ERROR: unknown bp-table 'no-such-table'; expected one of card-numbers, costs, "
        "disclosure-levels, disclosure, frame-formats, zones",
        f"{at('no-such-list')}: ERROR: unknown bp-list 'no-such-list'; expected one of actions, frame-actions, "
        "characters, fogs, frame-fogs, trumps, frames",
        f"{at('{bp-list} actions')}: ERROR: bp-list 'actions' belongs on the page 'format' (core/kinds.py: "
        "RULEBOOK_LISTS), not on 'index'",
        f"{at('no-such-figure')}: ERROR: unknown bp-figure 'no-such-figure'; expected one of play-scene, card-layout, "
        "character-examples, charge-drive, request-stack-1, request-stack-2, request-stack-3, bulwark-placement, "
        "fog-placement, stage-placement, core-image, turn-game, request-instance, controller, ability-image, "
        "frame-layout, core-flow, trigger-check, trigger-instant, trigger-normal",  # the flows of ruleset.yaml too
        f"{at('{bp-figure} frame-layout')}: ERROR: bp-figure frame-layout needs a frame id, e.g. 'frame-layout pack'",
        f"{at('no-such-frame')}: ERROR: no frame with id 'no-such-frame'",
        f"{at('{bp-figure} card-layout')}: ERROR: bp-figure card-layout needs a :caption:",
        f"{at('chapter-6')}: ERROR: 'chapter-6' is not a ruling place; expected e.g. 'section:6.4.2' or 'action:equip'",
        f"{at('section:9.9.9')}: WARNING: no ruling in rulings.yaml applies to 'section:9.9.9'",
        f"{at('{bp-index}')}: ERROR: bad-terms.yaml: terms[0]: expected term, reading and label (non-empty strings)",
        f"{at('{bp-downloads}')}: ERROR: unknown bp-downloads 'no-such-list'; expected book, views or one of lite, "
        "std, pro, mast, extra, all",
        f"{at('{bp-errata}')}: ERROR: bad-errata.yaml: errata[0]: expected section, shown and reason (non-empty "
        "strings) and book (a list of the book's words, may be empty)",
        f"{at('{bp-examples} 9.9.9')}: ERROR: no example scenario in {SCENARIOS / 'examples'} has section '9.9.9'",
        f"{at('no-such-ruling')}: ERROR: bp-amended: expected `the book's words <ruling-id>` with a ruling id of "
        "rulings.yaml, got '合計+5の修正 <no-such-ruling>'",
    ]
    assert "This paragraph is still built." in page(app)


def _links(tree: nodes.Element) -> list[str]:
    """The labels the page's cross-references point to, in order."""
    return [str(node["reftarget"]) for node in tree.findall(addnodes.pending_xref)]


@pytest.mark.sphinx("html", testroot="notes", freshenv=True)
def test_rulings_their_marks_and_the_changes_of_the_edition(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    html = page(app)
    ruling = rules.ruling("ability-order-example-sum")
    note = html[html.index(f'id="ruling-{ruling.id}"'):]
    assert ruling.title in text_of(note[:3000]) and for_readers(ruling.ruling) in text_of(note[:3000])
    # the book's words kept, marked, linking to the ruling's note
    assert ('<span class="bp-amended">合計+5の修正</span><sup class="bp-amended-mark">'
            f'<a class="reference internal" href="#ruling-{ruling.id}">') in html
    # the changes: every entry updated in this edition, linked, then every ruling with a link to each place
    changes = next(s for s in app.env.get_doctree("index").findall(nodes.section) if "sec-8-3" in s["ids"])
    links = _links(changes)
    entries: list[Entry] = [*rules.format_actions, *rules.frame_actions, *rules.characters, *rules.fogs, *rules.trumps]
    changed = [anchor(e) for e in entries if rules.is_changed(e)]
    assert changed and links[:len(changed)] == changed
    places = [place for r in rules.rulings for place in r.applies_to]
    assert len(links) == len(changed) + len(places)
    assert all(r.title in text_of(html) for r in rules.rulings)
    assert f"更新バージョンに {rules.edition.version} を持つ項目です。" in html


@pytest.mark.sphinx("html", testroot="figures", freshenv=True)
def test_every_figure_is_drawn_numbered_with_its_caption_and_ids_of_its_own(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    html = page(app)
    names = [*FIGURES[:-1], *(flow.id for flow in rules.flows)]  # the book's figures, then the flows
    labels = [f"fig-{name}" for name in names] + ["fig-frame-layout-pack", "fig-frame-layout-entry20"]
    assert re.findall(r'<figure class="[^"]*bp-figure[^"]*" id="([^"]+)"', html) == labels
    captions = re.findall(r'<span class="caption-number">図 (\d+) </span><span class="caption-text">(.*?)</span>', html)
    assert [int(number) for number, _ in captions] == list(range(1, len(labels) + 1))
    assert text_of(captions[-2][1]) == "配置図-パック" and text_of(captions[-1][1]) == "エントリー 20 の配置"
    assert html.count("<svg") == len(labels)  # each drawn inline, in a box a phone scrolls sideways
    assert html.count('<div class="bp-figure-scroll"') == len(labels)
    assert repeated_ids(html) == []  # arrow heads, patterns, Graphviz's ids: prefixed with each figure's label
    for flow in rules.flows:  # a flow of ruleset.yaml drawn with every step (its text broken into lines)
        figure = html[html.index(f'id="fig-{flow.id}"'):]
        drawn = unescape("".join(re.findall(r"<text[^>]*>(.*?)</text>", figure[:figure.index("</figure>")])))
        for step in flow.steps:
            assert step.text.replace(" ", "") in drawn.replace(" ", ""), step.text
    number = labels.index("fig-core-flow") + 1
    assert f'<span class="std std-numref">図 {number}</span>' in html


@pytest.mark.sphinx("html", testroot="index", freshenv=True)
def test_the_index_lists_every_term_and_entry_by_reading_and_each_term_is_found_at_its_place(
        app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    terms = read_terms(Path(app.srcdir) / "index-terms.yaml")
    named: list[Entry | Frame] = [*rules.actions, *rules.characters, *rules.fogs, *rules.trumps, *rules.frames]
    reading = {anchor(e): e.reading or e.name for e in named} | {t.label + t.term: t.reading for t in terms}
    sakuin = app.env.get_doctree("sakuin")
    listed = [(str(x["reftarget"]), x.astext()) for x in sakuin.findall(addnodes.pending_xref)]
    assert sorted(listed) == sorted([(anchor(e), e.name) for e in named] + [(t.label, t.term) for t in terms])
    readings = [reading.get(target, reading.get(target + term, "")) for target, term in listed]
    keys = [(GROUP_ORDER.index(group_of(r)), sort_key(r)) for r in readings]
    assert keys == sorted(keys)  # by kana heading, then in gojūon order: か < が < かい
    headings = [str(r["ids"][0]) for r in sakuin.findall(nodes.rubric) if "bp-index-group" in r["classes"]]
    assert headings[0] == "idx-あ" and headings[-1] == "idx-英数字"  # BJ: under 英数字, last
    assert headings == sorted(headings, key=lambda g: "あかさたなはまやらわ英".index(g[4]))
    assert "裏切札 （切札）" in text_of(page(app, "sakuin"))  # an entry's kind apart from its name
    # each term, at the section it points to: an invisible index entry after the title, which the search finds
    index = app.env.get_doctree("index")
    for label, words in (("sec-life", ["ライフ", "BJ"]), ("sec-graveyard", ["墓地", "ボード"])):
        section = next(s for s in index.findall(nodes.section) if label in s["ids"])
        entry = section[1]
        assert isinstance(entry, addnodes.index)
        assert entry["entries"] == [("single", word, label, "main", None) for word in words]


@pytest.mark.sphinx("html", testroot="cover", freshenv=True)
def test_the_title_page_and_the_colophon_give_the_edition_s_facts(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    ed = rules.edition
    top, colophon = page(app), page(app, "colophon")
    assert f'<p class="bp-subtitle">{ed.subtitle}</p>' in top and f'<p class="bp-edition">{ed.edition}</p>' in top
    assert f"{ed.author} 著 · {ed.release} 発行 · {ed.copyright}" in text_of(top)
    # on the site, the play page and the tutorial (the printed book, a single page, has neither: below)
    assert 'href="play/tutorial.html">はじめての BlackPoker(チュートリアル)</a>' in top
    facts = text_of(colophon)
    for fact in (ed.title, ed.subtitle or "", ed.edition, ed.release, ed.author, ed.copyright):
        assert fact in facts, fact
    assert f'href="index.html">{ed.site}</a>' in colophon  # the site's own root, its address shown
    # the titles come from ruleset.yaml, never from conf.py; the book PDF's links read the site's address here
    assert f"<title>奥付 &#8212; {ed.title} {ed.edition}</title>" in colophon
    assert f'<meta name="bp-site" content="{ed.site}">' in colophon


@pytest.mark.sphinx("singlehtml", testroot="cover", freshenv=True)
def test_the_printed_title_page_has_no_play_links(app: SphinxTestApp) -> None:
    app.build()
    assert warnings_of(app) == []
    book = page(app)
    assert 'class="bp-edition"' in book and 'class="bp-colophon-facts' in book
    assert "play/tutorial.html" not in book and "ブラウザーで遊ぶ" not in book


@pytest.mark.sphinx("html", testroot="downloads", freshenv=True)
def test_the_downloads_give_each_file_at_its_published_address(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    html = page(app)
    links = [(unescape(href), unescape(shown)) for href, shown in
             re.findall(r'<a class="bp-download reference external" href="([^"]+)">([^<]+)</a>', html)]
    base = rules.edition.site
    assert base and all(shown == base + href for href, shown in links), links[:3]
    hrefs = [href for href, _ in links]
    prints = ["", "-2up", "-booklet"]
    views = [f"actionlist/html/all.html?format={f.id}&frame={fr.id}" for f in rules.formats
             for fr in rules.frames_for_format(f.id)]
    assert hrefs == ["blackpoker.pdf", "blackpoker-booklet.pdf",
                     "actionlist/html/all.html?format=lite", *(f"actionlist/pdf/blackpoker-lite{p}.pdf" for p in prints),
                     "actionlist/html/extra.html", *(f"actionlist/pdf/blackpoker-extra{p}.pdf" for p in prints),
                     "actionlist/html/all.html", *(f"actionlist/pdf/blackpoker-all{p}.pdf" for p in prints), *views]
    for label in ("A5: ", "A4 2in1: ", "中綴じ冊子: "):  # each PDF says which print it is
        assert html.count(f'<span class="bp-download-kind">{label}</span>') == 3, label


@pytest.mark.sphinx("html", testroot="errata", freshenv=True)
def test_the_errata_table_links_each_erratum_to_its_section(app: SphinxTestApp) -> None:
    app.build()
    assert warnings_of(app) == []
    rows = _rows(doctree(app), "")
    assert rows == [["節", "書籍の記載", "本書での扱い", "理由"],
                    ["2.9.2", "「数字については、Table 2.1 参照」、「Fig 2.7」", "図と表の番号を「図」「表」と示しています。",
                     "日本語の本文に合わせるため。"],
                    ["6.4.1", "(なし)", "<誘発チェック> の手順に番号を補いました。", "参照しやすくするため。"]]
    html = page(app)
    assert '<a class="reference internal" href="#sec-2-9-2">' in html and "&lt;誘発チェック&gt;" in html


@pytest.mark.sphinx("html", testroot="theme", freshenv=True)
def test_the_theme_speaks_japanese_keeps_one_id_per_table_and_finds_names_whole(app: SphinxTestApp) -> None:
    app.build()
    assert warnings_of(app) == []
    html = page(app)
    assert "このページの内容" in html and "ページの先頭へ" in html  # furo's labels, from the added catalogue
    assert not [english for english in (*LABELS, *FIXED) if english in html and english != "Index"]
    assert 'aria-label="目次サイドバーの開閉"' in html  # the theme's fixed names, replaced in the written page
    script = (Path(app.outdir) / "_static" / "translations.js").read_text(encoding="utf-8")
    assert all(label in script for label in SCRIPT_LABELS.values())  # the search page's message, filled in
    # furo wraps the table in a container that copied its id: the table keeps it, once
    assert repeated_ids(html) == [] and re.search(r'<table class="[^"]*" id="tbl-costs">', html)
    assert (Path(app.outdir) / "_static" / STYLESHEET_NAME).is_file()  # the font stacks, linked from every page
    assert f'href="_static/{STYLESHEET_NAME}' in html
    # the search words: TinySegmenter's, and every entry name and 索引 term a text holds, whole
    raw = (Path(app.outdir) / "searchindex.js").read_text(encoding="utf-8")
    index = json.loads(raw[raw.index("(") + 1:raw.rindex(")")])
    words = {**index["terms"], **index["titleterms"]}
    assert {"世代交代", "世代", "交代", "入れ替え", "入れ", "替え"} <= set(words)
    assert (Path(app.doctreedir) / "bp-search-words.json").is_file()  # kept for the next build


def test_definitions_that_do_not_load_stop_the_build_with_every_located_problem(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    actions = defs / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace("timing: main", "timing: mian", 1), encoding="utf-8")
    with pytest.raises(DefinitionsFailed) as raised:
        make_app("html", srcdir=root_copy("tables", tmp_path / "root"), confoverrides={"blackpoker_definitions": str(defs)})
    assert re.search(r"actions\.yaml:\d+:\d+: .*timing", str(raised.value))
    assert raised.value.errors and all(e.file.endswith("actions.yaml") for e in raised.value.errors)
