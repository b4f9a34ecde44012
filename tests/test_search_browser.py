"""The rulebook's search page in Chromium finds the game's own terms and opens them (issue 14, item 3): every entry
name and every 索引 term typed whole has its own place as the first hit; the first half of an entry's name
finds it too."""

from __future__ import annotations

import html
import math
import re
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest

from blackpoker import load_rules
from blackpoker.core.kinds import anchor
from blackpoker.core.model import Entry, Frame, Rules
from blackpoker.core.paths import SOURCE
from blackpoker.sphinxext.index import read_terms
from browsers import MARKS

pytestmark = [
    *MARKS,
]


class _Quiet(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def served(built_rulebook: tuple[Path, Path]) -> Iterator[tuple[Path, str]]:
    """The shared build's rulebook over HTTP, as it is (the tests only read it: no copy)."""
    site = built_rulebook[0]
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(_Quiet, directory=str(site)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    with server:
        yield site, f"http://127.0.0.1:{server.server_address[1]}/"
        server.shutdown()


# The hits the search page lists for each query, in order, with Sphinx's own ``Search.performSearch`` (which the
# page's start calls with the address's ``?q=``): each query's list emptied, the query performed, and its hits read
# once the search finished listing them (its summary says so). One round trip for all the queries of a test.
LISTED = """async (queries) => {
  const out = {};
  for (const query of queries) {
    document.getElementById('search-results').replaceChildren();
    Search.performSearch(query);
    while (!document.querySelector('#search-results .search-summary:not(:empty)')) {
      await new Promise((r) => setTimeout(r, 5));
    }
    out[query] = [...document.querySelectorAll('#search-results ul.search li > a')].map((e) => e.getAttribute('href'));
  }
  return out;
}"""
# The hits' passages are fetched page by page: not needed to rank them. Their pages are answered empty in the page
# (as a passage-less hit's), without a round trip to Playwright per hit; the search page itself is not fetched.
NO_PASSAGES = """(() => {
  const fetched = window.fetch;
  window.fetch = (resource, ...rest) => {
    const url = new URL(String(resource instanceof Request ? resource.url : resource), location.href);
    return url.pathname.endsWith('.html') && !url.pathname.endsWith('/search.html')
      ? Promise.resolve(new Response('')) : fetched(resource, ...rest);
  };
})();"""


class Hits:
    """The hits the search page lists for a query, in order (``hits(query)``). A query is typed once per module:
    the site does not change, so the tests that look up the same names (every entry's name, whole) read the same
    page's answer. The page is opened once and each query is handed to Sphinx's own ``Search.performSearch``
    (LISTED), a test's queries together (``ask(queries)``); the first query is also opened by its address, and
    both must list the same hits (a page load per query cost a minute: the index is read again each time)."""

    def __init__(self, page: Any, root: str) -> None:
        self.page, self.root = page, root
        self.answered: dict[str, list[str]] = {}

    def listed(self) -> list[str]:
        self.page.wait_for_selector("#search-results .search-summary:not(:empty)")
        return [str(a) for a in self.page.eval_on_selector_all(
            "#search-results ul.search li > a", "els => els.map(e => e.getAttribute('href'))")]

    def ask(self, queries: list[str]) -> None:
        """Every query of QUERIES not yet answered, in one round trip of the page."""
        if not self.answered and queries:  # the first query by its address, as the search box sends it, then as the others
            self.page.goto(self.root + "search.html?q=" + queries[0])
            by_address = self.listed()
            answer = self.page.evaluate(LISTED, [queries[0]])[queries[0]]
            assert answer == by_address, (queries[0], by_address)
            self.answered[queries[0]] = answer
        todo = list(dict.fromkeys(q for q in queries if q not in self.answered))
        if todo:
            self.answered.update(self.page.evaluate(LISTED, todo))

    def __call__(self, query: str) -> list[str]:
        self.ask([query])
        return list(self.answered[query])


@pytest.fixture(scope="module")
def search(served: tuple[Path, str], browser: Any) -> Iterator[Hits]:
    """The search page's hits (``Hits``), with the hits' pages answered empty in the page (NO_PASSAGES)."""
    _, root = served
    page = browser.new_page()
    page.add_init_script(NO_PASSAGES)
    yield Hits(page, root)
    page.close()


def _entries(rules: Rules) -> tuple[Entry | Frame, ...]:
    return (*rules.actions, *rules.characters, *rules.fogs, *rules.trumps, *rules.frames)


def _places(rules: Rules) -> list[tuple[str, str]]:
    """(what a reader types, the anchor it must open): every entry name and every 索引 term."""
    names = [(e.name, anchor(e)) for e in _entries(rules)]
    return names + [(t.term, t.label) for t in read_terms(SOURCE / "index-terms.yaml")]


def test_every_entry_name_and_index_term_opens_its_own_place_as_the_first_hit(
        rules: Rules, served: tuple[Path, str], search: Any) -> None:
    """A name two entries share (アップ: an action and a fog) gives both as the first two hits."""
    site, _ = served
    places: dict[str, set[str]] = {}
    for text, label in _places(rules):
        places.setdefault(text, set()).add(label)
    assert len(places) >= 100
    search.ask(list(places))
    wrong = []
    for text, labels in places.items():
        found = search(text)
        first = found[:len(labels)]
        if len(set(found)) != len(found):  # issue 22, item 5: no place listed twice (チャンス gave 6.1.5 twice)
            wrong.append(f"{text}: a place listed twice: {found}")
            continue
        if {h.rpartition("#")[2] for h in first} != labels:
            wrong.append(f"{text}: {sorted(labels)} expected first, got {found[:4]}")
            continue
        for hit in first:
            target = site / hit.split("#")[0]
            assert f'id="{hit.rpartition("#")[2]}"' in target.read_text(encoding="utf-8"), (text, hit)
    assert wrong == [], "\n".join(wrong)


def test_the_first_half_of_an_entry_s_name_finds_it(rules: Rules, search: Any) -> None:
    missing = {}
    parts = {e: e.name[:math.ceil(len(e.name) / 2)] for e in _entries(rules)}
    search.ask(list(parts.values()))
    for e, part in parts.items():
        found = search(part)
        if not any(h.endswith("#" + anchor(e)) for h in found):
            missing[e.name] = (part, found[:3])
    assert missing == {}


def test_a_hit_s_passage_reads_the_names_without_their_readings(rules: Rules, served: tuple[Path, str],
                                                                browser: Any) -> None:
    """Sphinx's passage under a hit is the page's text: without bp-search.js a name's ruby reading is glued to
    it (「世代交代せだいこうたい」). If Sphinx renames or stops using Search.htmlToText, this fails."""
    change = rules.action("generation-change")
    page = browser.new_page()
    page.goto(served[1] + "search.html?q=" + change.name)
    page.wait_for_selector("#search-results p.context")
    passages = page.eval_on_selector_all("#search-results p.context", "els => els.map(e => e.textContent)")
    page.close()
    assert any(change.name in p for p in passages), passages
    glued = [p for p in passages if change.reading in p]
    assert glued == [], glued


def test_a_passage_is_prose_never_a_picture_s_labels(served: tuple[Path, str], browser: Any) -> None:
    """Issue 22, item 5: the boards and figures are SVG text in the page; a hit's passage never quotes them."""
    page = browser.new_page()
    page.goto(served[1] + "search.html?q=手札")
    # every passage fetched: the search finished listing its hits, and each hit without a description has its own
    page.wait_for_function("""() => document.querySelector('#search-results .search-summary')?.textContent
        && [...document.querySelectorAll('#search-results ul.search > li')].every(
            li => li.querySelector(':scope > span, :scope > p.context'))""")
    passages = page.eval_on_selector_all("#search-results p.context", "els => els.map(e => e.textContent)")
    page.close()
    assert passages
    board = [p for p in passages if re.search(r"ライフ \d+ (枚 )?・ 手札|はじめから変わったところ|チャンス: [AB]", p)]
    assert board == [], board[:3]


def test_a_reading_finds_its_entry_in_hiragana_and_katakana(rules: Rules, search: Any) -> None:
    """Issue 22, item 5: 「へいししょうかん」 and 「ヘイシショウカン」 open 兵士召喚; a katakana name's hiragana reading
    (あっぷ) opens アップ."""
    from blackpoker.sphinxext.kana import to_hiragana, to_katakana
    picked = [e for e in _entries(rules) if e.reading and to_katakana(e.reading) != e.name][:6]
    picked += [e for e in _entries(rules) if e.reading and to_katakana(e.reading) == e.name][:2]
    assert len(picked) == 8
    queries = {e: sorted({to_hiragana(e.reading), to_katakana(e.reading)} - {e.name}) for e in picked}
    search.ask([q for qs in queries.values() for q in qs])
    for e, qs in queries.items():
        for query in qs:
            hits = search(query)
            assert hits and hits[0].endswith("#" + anchor(e)), (query, hits[:3])


def _article_text(path: Path) -> str:
    """A page's own text (its <article>, without the theme's navigation), with the names' readings left out."""
    text = path.read_text(encoding="utf-8")
    start = text.find("<article")
    text = text[start:text.find("</article>", start)] if start >= 0 else ""
    return html.unescape(re.sub(r"<[^>]+>", "", re.sub(r"<rt>.*?</rt>", "", text)))


def test_an_entry_name_finds_its_entry_first_then_every_page_that_mentions_it(
        rules: Rules, served: tuple[Path, str], search: Any) -> None:
    """Issue 22, item 5: 世代交代 gave its entry and hid the pages that mention it (common.html, 2.8.4): Sphinx
    looks a query up whole, while the index had only the words 世代 and 交代. Every entry name typed whole gives
    every page whose text names it (after its entry: the first test)."""
    site, _ = served
    pages = {p.name: _article_text(p) for p in site.glob("*.html") if p.name not in ("search.html", "genindex.html")}
    missing = {}
    search.ask([e.name for e in _entries(rules)])
    for e in _entries(rules):
        found = search(e.name)
        listed = {h.split("#")[0] for h in found}
        mentions = {name for name, text in pages.items() if e.name in text}
        if mentions - listed:
            missing[e.name] = sorted(mentions - listed)
    assert missing == {}
    change = search(rules.action("generation-change").name)
    assert "common.html" in {h.split("#")[0] for h in change}, change
