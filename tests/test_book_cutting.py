"""How the book's single page is cut into parts (render/book.py), on small hand-written pages."""

from __future__ import annotations

import pytest

from blackpoker.render.book import cut_at_page_groups, running_head, split_single_page
from blackpoker.render.bookruns import open_elements

HEAD = ('<html><head><title>t</title></head><body><section class="print-cover"><p class="print-title">'
        'ブラック&amp;ポーカー</p></section><nav class="print-toc">toc</nav>')
TAIL = "</body></html>"


def chapter(name: str, title: str, body: str = "") -> str:
    return (f'<span id="document-{name}"></span><section id="{name}"><h2>{title}'
            f'<a class="headerlink" href="#x">¶</a></h2>{body}</section>')


def test_a_page_is_cut_at_every_document_marker() -> None:
    page = HEAD + chapter("intro", "1. はじめに") + chapter("core", "2. コアルール") + TAIL
    book = split_single_page(page)
    assert [name for name, _ in book.chapters] == ["intro", "core"]
    assert book.before + "".join(html for _, html in book.chapters) + book.after == page
    assert book.title == "ブラック&ポーカー"
    assert book.after == TAIL


def test_the_last_chapter_ends_with_its_own_section_even_when_sections_nest() -> None:
    nested = "<section><h3>a</h3><section><h4>b</h4></section></section>"
    page = HEAD + chapter("only", "1. 章", nested) + "<div>after</div>" + TAIL
    book = split_single_page(page)
    assert book.chapters[0][1].endswith(nested + "</section>")
    assert book.after == "<div>after</div>" + TAIL


@pytest.mark.parametrize("page", [HEAD + "<p>no chapters</p>" + TAIL,
                                  HEAD + '<span id="document-x"></span><section><p>never closed' + TAIL])
def test_a_page_that_cannot_be_cut_is_refused(page: str) -> None:
    with pytest.raises(ValueError):
        split_single_page(page)


def test_page_groups_cut_a_chapter_and_each_piece_reopens_its_elements_without_ids() -> None:
    body = ('<section id="s"><div class="box" id="d"><p class="bp-page-group">A</p>one'
            '<p class="x bp-page-group">B</p>two</div></section>')
    pieces = cut_at_page_groups("ch", body)
    assert [name for name, _ in pieces] == ["ch", "ch~1", "ch~2"]
    assert pieces[0][1] == '<section id="s"><div class="box" id="d">'
    reopened = '<section style="margin-top: 0; padding-top: 0; border-top-width: 0"><div class="box" style='
    assert pieces[1][1].startswith(reopened) and 'id="' not in pieces[1][1].split("<p")[0]
    assert pieces[2][1].endswith("two</div></section>")


def test_open_elements_skips_void_and_closed_tags() -> None:
    assert open_elements('<div><br><img src="x"/><p>a</p><span id="k">') == (
        '<div style="margin-top: 0; padding-top: 0; border-top-width: 0">'
        '<span style="margin-top: 0; padding-top: 0; border-top-width: 0">')
    assert open_elements("<div><p>x</p></div>") == ""


def test_running_head_is_the_title_without_the_pilcrow_link() -> None:
    assert running_head(chapter("c", "2. コア&amp;ルール")) == "2. コア&ルール"
    assert running_head("<p>no heading</p>") == ""
