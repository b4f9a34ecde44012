"""Each directive of the Sphinx extension on a tiny root (tests/roots/, see sphinxroots.py): what it writes, and a
bad argument reported where it is written (``index.md:LINE: ERROR: …``), while the rest of the page is built."""

from __future__ import annotations

import re

import pytest
from docutils import nodes
from sphinx import addnodes
from sphinx.testing.util import SphinxTestApp

from blackpoker.core.kinds import KIND, anchor
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Entry, Frame, Rules
from blackpoker.core.paths import SCENARIOS
from blackpoker.core.typography import for_readers
from sphinxroots import doctree, line_of, page, text_of, warnings_of


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


def _rows(tree: nodes.document, table_id: str) -> list[list[str]]:
    """The text of every cell of the table labelled ``table_id``, row by row (its header first)."""
    table = next(t for t in tree.findall(nodes.table) if table_id in t["ids"])
    return [[entry.astext() for entry in row.findall(nodes.entry)] for row in table.findall(nodes.row)]


@pytest.mark.sphinx("html", testroot="tables", freshenv=True)
def test_every_table_is_drawn_from_the_model(app: SphinxTestApp, rules: Rules) -> None:
    app.build()
    assert warnings_of(app) == []
    tree = doctree(app)
    assert _rows(tree, "tbl-card-numbers")[1:] == [
        [for_readers(c.card), str(c.number) if c.number is not None else c.text or ""] for c in rules.card_numbers]
    assert _rows(tree, "tbl-costs")[1:] == [[f"{c.letter} ({c.name})", c.payment] for c in rules.costs]
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
