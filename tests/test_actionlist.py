"""The HTML action lists: which entries each page holds, what each entry shows, escaping, assets, links."""

from __future__ import annotations

import dataclasses
import json
import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.model import Rules, TextList
from blackpoker.core.typography import for_readers
from blackpoker.render.actionlist.html import build_html, render_pages
from blackpoker.render.actionlist.inline import InlineMarkup
from blackpoker.render.actionlist.view import all_page, format_page, list_pages


class Doc(HTMLParser):
    """Collects elements with their attributes and the text inside each <article>."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.elements: list[tuple[str, dict[str, str]]] = []
        self.article_text: dict[str, list[str]] = {}
        self._stack: list[str] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = {k: v or "" for k, v in attrs}
        self.elements.append((tag, a))
        if tag == "article":
            self._stack.append(a["id"])
            self.article_text[a["id"]] = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "article":
            self._stack.pop()

    def handle_data(self, data: str) -> None:
        if self._stack:
            self.article_text[self._stack[-1]].append(data)

    def articles(self) -> list[dict[str, str]]:
        return [a for tag, a in self.elements if tag == "article"]

    def text(self, anchor: str) -> str:
        return "".join(self.article_text[anchor])


def expected_format_anchors(rules: Rules, fmt: str) -> list[str]:
    return ([f"act-{a.id}" for a in rules.actions_in_format(fmt)]
            + [f"char-{c.id}" for c in rules.characters_in_format(fmt)]
            + [f"fog-{f.id}" for f in rules.fogs_in_format(fmt)])


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def pages(rules: Rules) -> dict[str, str]:
    return render_pages(rules)


@pytest.fixture(scope="module")
def docs(pages: dict[str, str]) -> dict[str, Doc]:
    return {rel: Doc(text) for rel, text in pages.items()}


@pytest.fixture(scope="module")
def site(rules: Rules, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, list[Path]]:
    out = tmp_path_factory.mktemp("site")
    return out, build_html(rules, out)


# ---- which entries are where -------------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["lite", "std", "pro", "mast"])
def test_format_page_holds_exactly_its_format(rules: Rules, docs: dict[str, Doc], fmt: str) -> None:
    anchors = [a["id"] for a in docs[f"html/{fmt}.html"].articles()]
    expected = expected_format_anchors(rules, fmt)
    assert sorted(anchors) == sorted(expected)
    assert not any(a["data-frames"] for a in docs[f"html/{fmt}.html"].articles())


def test_format_pages_differ_and_nest(rules: Rules) -> None:
    sizes = [len(format_page(rules, f.id).entries) for f in rules.formats]
    assert sizes == sorted(sizes) and sizes[0] < sizes[-1]


def test_all_page_holds_every_entry_once(rules: Rules, docs: dict[str, Doc]) -> None:
    anchors = [a["id"] for a in docs["html/all.html"].articles()]
    expected = ([f"act-{a.id}" for a in rules.actions] + [f"char-{c.id}" for c in rules.characters]
                + [f"fog-{f.id}" for f in rules.fogs] + [f"trump-{t.id}" for t in rules.trumps])
    assert len(anchors) == len(set(anchors))
    assert sorted(anchors) == sorted(expected)


def test_all_page_data_attributes_follow_the_model(rules: Rules, docs: dict[str, Doc]) -> None:
    by_anchor = {a["id"]: a for a in docs["html/all.html"].articles()}
    for action in rules.actions:
        a = by_anchor[f"act-{action.id}"]
        assert a["data-formats"].split() == list(action.formats)
        assert a["data-frames"].split() == list(action.frames)
        assert a["data-category"] == action.category
    for trump in rules.trumps:
        assert by_anchor[f"trump-{trump.id}"]["data-frames"].split() == list(trump.frames)
    for fog in rules.frame_fogs:
        assert by_anchor[f"fog-{fog.id}"]["data-frames"].split() == list(fog.frames)


def test_groups_follow_the_declared_order(rules: Rules) -> None:
    page = all_page(rules)
    sections = {s.anchor: s for s in page.sections}
    assert [g.title for g in sections["actions"].groups] == [
        g for g in rules.action_groups if any(a.group == g for a in rules.format_actions)]
    assert [g.title for g in sections["frame-actions"].groups] == [
        g for g in rules.frame_action_groups if any(a.group == g for a in rules.frame_actions)]
    for group in sections["actions"].groups:
        assert all(ev.entry.group == group.title for ev in group.entries)


def test_filter_data_matches_table_3_1(rules: Rules, docs: dict[str, Doc], pages: dict[str, str]) -> None:
    raw = re.search(r'<script type="application/json" id="filter-data">(.*?)</script>', pages["html/all.html"], re.S)
    assert raw is not None
    data = json.loads(raw.group(1))
    assert {f["id"]: f["formats"] for f in data["frames"]} == {f.id: list(f.formats) for f in rules.frames}
    for fmt in rules.formats:
        offered = [f["id"] for f in data["frames"] if fmt.id in f["formats"]]
        assert offered == [f.id for f in rules.frames_for_format(fmt.id)]
    buttons = [a for tag, a in docs["html/all.html"].elements if tag == "button" and "data-formats" in a]
    assert {b["data-value"]: b["data-formats"].split() for b in buttons} == {f.id: list(f.formats) for f in rules.frames}


# ---- what an entry shows ------------------------------------------------------------------------

def test_action_entry_shows_its_fields(rules: Rules, docs: dict[str, Doc]) -> None:
    doc = docs["html/all.html"]
    for action in rules.actions:
        text = doc.text(f"act-{action.id}")
        assert action.name in text and f"[{action.category}]" in text
        assert action.shorthand in text
        for piece in (action.key_card, action.target, action.activation_condition, action.trigger_condition, action.note):
            if piece:
                assert for_readers(piece) in text, (action.id, piece)
        if action.note:
            assert "※" in text
        if action.cost:
            assert "$" in text


def test_cost_letters_are_badges_with_their_meaning(rules: Rules, pages: dict[str, str]) -> None:
    html = pages["html/all.html"]
    for cost in rules.costs:
        assert f'class="cost-letter cost-{cost.letter}" title="{cost.letter} ({cost.name}): {cost.payment}"' in html
    hero = rules.action("hero-summon")
    block = _article_html(html, "act-hero-summon")
    assert block.count('class="cost-letter') == len(hero.cost)


def _article_html(html: str, anchor: str) -> str:
    m = re.search(rf'<article [^>]*id="{re.escape(anchor)}".*?</article>', html, re.S)
    assert m is not None, anchor
    return m.group(0)


def test_effect_structure_is_kept(rules: Rules, pages: dict[str, str]) -> None:
    html = _article_html(pages["html/all.html"], "act-damage-judgement")
    assert 'class="list list--numbered"' in html
    assert 'class="list list--lettered" type="A"' in html
    # the lettered list is nested inside the numbered one
    assert html.index("list--numbered") < html.index("list--lettered")
    nested = [b for b in rules.action("damage-judgement").effect if isinstance(b, TextList)]
    assert nested and html.count("<li>") >= sum(len(b.items) for b in nested)


def test_changed_entries_are_marked(rules: Rules, docs: dict[str, Doc]) -> None:
    doc = docs["html/all.html"]
    badge = f"{rules.edition.version} で変更"
    entries = [("act", a) for a in rules.actions] + [("char", c) for c in rules.characters] \
        + [("fog", f) for f in rules.fogs] + [("trump", t) for t in rules.trumps]
    changed = [e for _, e in entries if rules.is_changed(e)]
    assert changed, "the data has entries changed in this edition"
    for prefix, e in entries:
        assert (badge in doc.text(f"{prefix}-{e.id}")) == rules.is_changed(e), e.id


def test_rulings_are_shown_where_they_apply(rules: Rules, docs: dict[str, Doc]) -> None:
    doc = docs["html/all.html"]
    prefixes = {"action": "act", "character": "char", "fog": "fog", "trump": "trump"}
    shown = 0
    for ruling in rules.rulings:
        for ref in ruling.applies_to:
            kind, _, id = ref.partition(":")
            if kind in prefixes:
                text = doc.text(f"{prefixes[kind]}-{id}")
                assert "裁定" in text and ruling.title in text and ruling.ruling in text
                shown += 1
    assert shown > 0


def test_characters_fogs_trumps_show_their_fields(rules: Rules, docs: dict[str, Doc]) -> None:
    doc = docs["html/all.html"]
    for c in rules.characters:
        text = doc.text(f"char-{c.id}")
        assert for_readers(c.key_card) in text
        for label in c.labels:
            assert f"<{label.name}>" in text
            if label.condition:
                assert label.condition in text
        for ability in c.abilities:
            assert ability.name in text and ability.text in text
        if c.size:
            assert c.size in text
    for f in rules.fogs:
        text = doc.text(f"fog-{f.id}")
        assert for_readers(f.key_card) in text and for_readers(f.ability) in text and rules.action(f.placed_by).name in text
    for t in rules.trumps:
        text = doc.text(f"trump-{t.id}")
        assert for_readers(t.key_card) in text and for_readers(t.ability) in text
        if t.grants_label:
            assert f"<{t.grants_label}>" in text
        if t.enables:
            assert rules.action(t.enables).name in text


def test_availability_and_frames(rules: Rules, docs: dict[str, Doc]) -> None:
    doc = docs["html/all.html"]
    for action in rules.format_actions:
        text = doc.text(f"act-{action.id}")
        for fmt in rules.formats:
            mark = "○" if fmt.id in action.formats else "×"
            assert f"{fmt.name}{mark}" in text, (action.id, fmt.id)
    for action in rules.frame_actions:
        text = doc.text(f"act-{action.id}")
        assert all(rules.frame(f).name in text for f in action.frames)
        assert "○" not in text and "×" not in text


def test_story_and_flavour_are_collapsible(rules: Rules, pages: dict[str, str]) -> None:
    with_story = [a for a in rules.actions if a.story]
    assert with_story
    for action in with_story:
        html = _article_html(pages["html/all.html"], f"act-{action.id}")
        assert '<details class="story">' in html
        if action.flavor_speaker:
            assert f"〜{action.flavor_speaker}〜" in html


def test_suits_and_labels_are_styled() -> None:
    markup = InlineMarkup(["アタッカー"])
    html = str(markup("♡A と ♠K と ◇2 と ♣3 と ♥4 と ♦5、<アタッカー> を持つ <未知>"))
    assert html.count('class="suit suit-red"') == 4
    assert html.count('class="suit suit-black"') == 2
    assert '<span class="label">&lt;アタッカー&gt;</span>' in html
    assert "&lt;未知&gt;" in html and "<未知>" not in html


def test_links_to_entries_resolve_only_within_the_page(docs: dict[str, Doc]) -> None:
    for rel, doc in docs.items():
        ids = {a["id"] for _, a in doc.elements if "id" in a}
        for tag, a in doc.elements:
            href = a.get("href", "")
            if tag == "a" and href.startswith("#"):
                assert href[1:] in ids, (rel, href)


# ---- safety, assets, determinism -----------------------------------------------------------------

def test_definition_text_is_escaped(rules: Rules) -> None:
    action = rules.actions[0]
    evil = dataclasses.replace(action, name='<script>alert("x")</script>', note="<img src=x onerror=alert(1)>",
                               effect=("<b>bold</b> & ♡",))
    rules2 = dataclasses.replace(rules, actions=(evil,) + rules.actions[1:], _index={})
    html = render_pages(rules2)["html/all.html"]
    assert "<script>alert" not in html and "<img src=x" not in html and "<b>bold</b>" not in html
    assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
    assert "&lt;b&gt;bold&lt;/b&gt; &amp; " in html


def test_no_remote_assets(site: tuple[Path, list[Path]]) -> None:
    _, written = site
    for path in written:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"""(src|href)=["']?(https?:)?//""", text), path
        assert "@import" not in text and "url(http" not in text, path


def test_local_links_exist(rules: Rules, site: tuple[Path, list[Path]]) -> None:
    out, written = site
    html_files = [p for p in written if p.suffix == ".html"]
    pdf_names = {f"blackpoker-{p.key}{suffix}.pdf" for p in list_pages(rules) for suffix in ("", "-2up", "-booklet")}
    for path in html_files:
        doc = Doc(path.read_text(encoding="utf-8"))
        for tag, a in doc.elements:
            ref = a.get("href") or a.get("src")
            if tag not in ("a", "link", "script") or not ref or ref.startswith("#"):
                continue
            target = (path.parent / ref.split("?")[0].split("#")[0]).resolve()
            if target.parent == out.resolve():  # the rulebook's pages (test_every_entry_links_to_its_full_text…,
                # the help panels' sections: test_actionlist_help.py)
                assert target.name in ("index.html", "format.html", "frame.html", "common.html", "core.html"), (path, ref)
                continue
            if target.parent == (out / "play").resolve():  # the play page and the tutorial (their own steps)
                assert target.name in ("index.html", "tutorial.html"), (path, ref)
                continue
            if target.suffix == ".pdf":
                assert target.name in pdf_names and target.parent.name == "pdf", (path, ref)
            else:
                assert target.is_file(), (path, ref)


def test_build_writes_the_official_paths(site: tuple[Path, list[Path]]) -> None:
    out, written = site
    rel = sorted(str(p.relative_to(out)) for p in written)
    for name in ("lite", "std", "pro", "mast", "all"):
        assert f"actionlist/html/{name}.html" in rel
    assert "actionlist/index.html" in rel
    assert all((out / r).is_file() for r in rel)


def test_index_lists_every_list_and_edition(rules: Rules, pages: dict[str, str]) -> None:
    index = pages["index.html"]
    assert rules.edition.edition in index and rules.edition.release in index
    for page in list_pages(rules):
        assert f'href="html/{page.filename}"' in index
        for suffix in ("", "-2up", "-booklet"):
            assert f'href="pdf/{page.pdf_stem}{suffix}.pdf"' in index


def test_pages_name_the_japanese_font_first(pages: dict[str, str], site: tuple[Path, list[Path]]) -> None:
    out, _ = site
    css = (out / "actionlist/html/assets/actionlist.css").read_text(encoding="utf-8")
    assert "--font: var(--bp-font-sans);" in css  # the stacks come from the page's head (render/fonts.py)
    for page in ("html/lite.html", "index.html"):
        head = pages[page].split("</head>", 1)[0]
        assert re.search(r'--bp-font-sans:\s*"BIZ UDPGothic"', head) and re.search(r'--bp-font-even:\s*"BIZ UDGothic"', head)
    assert "@media print" in css and "@media (max-width" in css
    assert '<meta name="viewport"' in pages["html/lite.html"]


def test_rendering_is_deterministic(rules: Rules, pages: dict[str, str]) -> None:
    assert render_pages(rules) == pages


def test_every_id_on_every_list_page_is_unique(pages: dict[str, str]) -> None:
    from htmlcheck import repeated_ids
    assert pages
    for name, page in pages.items():
        assert repeated_ids(page) == [], name


def test_ranges_are_set_with_the_books_tilde_on_every_list_page(pages: dict[str, str]) -> None:
    import re
    for name, page in pages.items():
        text = re.sub(r"<script.*?</script>|<style.*?</style>|<[^>]+>", "", page, flags=re.S)
        assert "~" not in text, name


def test_every_entry_links_to_its_full_text_in_the_rulebook(rules: Rules, site: tuple[Path, list[Path]],
                                                            built_rulebook: tuple[Path, Path]) -> None:
    """Issue 14, item 5: each entry of each HTML list opens its entry in the rulebook; each list page and the
    hub link to the rulebook."""
    out, written = site
    book = built_rulebook[0]
    pages = [p for p in written if p.parent.name == "html" and p.suffix == ".html"]
    assert len(pages) == len(list_pages(rules)) == 6  # four formats, エクストラ, all
    for path in pages:
        doc = Doc(path.read_text(encoding="utf-8"))
        entries = [a["id"] for tag, a in doc.elements if tag == "article" and "entry" in (a.get("class") or "").split()]
        links = {a["href"] for tag, a in doc.elements if tag == "a" and "entry-book" in (a.get("class") or "")}
        assert len(links) == len(entries) > 0, path.name
        for href in links:
            target = (path.parent / href.split("#")[0]).resolve()
            assert target.parent == out.resolve() and target.name in ("format.html", "frame.html"), href
            assert f'id="{href.split("#")[1]}"' in (book / target.name).read_text(encoding="utf-8"), href
        assert any(tag == "a" and a.get("href") == "../../index.html" for tag, a in doc.elements), path.name
    hub = Doc((out / "actionlist" / "index.html").read_text(encoding="utf-8"))
    assert any(tag == "a" and a.get("href") == "../index.html" for tag, a in hub.elements)


def test_the_lists_have_the_mark_as_icon(site: tuple[Path, list[Path]]) -> None:
    out, written = site
    assert out / "actionlist" / "html" / "assets" / "bp-mark.svg" in written
    for path in [p for p in written if p.suffix == ".html"]:
        doc = Doc(path.read_text(encoding="utf-8"))
        icons = [a["href"] for tag, a in doc.elements if tag == "link" and a.get("rel") == "icon"]
        assert len(icons) == 1 and (path.parent / icons[0]).resolve() == (out / "actionlist/html/assets/bp-mark.svg").resolve()


def test_the_extra_frame_has_its_own_list(rules: Rules, docs: dict[str, Doc]) -> None:
    """Issue 14, item 7: like the official site's extra.html, the entries the エクストラ frame adds: its frame
    actions, its fogs and its five trumps, and nothing of the formats."""
    extra = rules.frame("extra")
    page = next(p for p in list_pages(rules) if p.key == "extra")
    assert page.scope == "frame" and page.title == extra.name
    expected = ({f"act-{a}" for a in extra.actions} | {f"trump-{t}" for t in extra.trumps}
                | {f"fog-{f.id}" for f in rules.frame_fogs if "extra" in f.frames})
    assert page.anchors == expected and len(extra.trumps) == 5
    shown = {a["id"] for tag, a in docs["html/extra.html"].elements if tag == "article"}
    assert shown == expected
