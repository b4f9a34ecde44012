"""A long list of entry cards is laid out in runs of bounded size (render/bookruns.py; issue 25, item 10), and the
book still looks exactly like the single page laid out as one document: the same pages, folios, contents and
index page numbers, outline, destinations and links. On a small hand-written single page, so it runs in seconds."""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from blackpoker.core.paths import SOURCE
from blackpoker.infra.jobs import Inline
from blackpoker.render.book import BookBuilder, render_pdf
from blackpoker.render.bookruns import MARK, entries_of, run_end, run_html
from blackpoker.render.fonts import stylesheet
from blackpoker.render.pdfparts import PartCache

ENTRIES = 70


def entry(n: int) -> str:
    """A card of one to four fields, some long: cards of different heights, so pages end in different places."""
    fields = "".join(f"<dt>効果{k}</dt><dd><p>{'対戦相手に1点ダメージを与える。' * (1 + (n * 7 + k) % 9)}</p></dd>"
                     for k in range(1 + n % 4))
    return (f'<div class="bp-entry docutils container">\n<p class="bp-entry-title rubric" id="e-{n}">試験魔法{n:03d}'
            f'</p>\n<dl class="bp-fields field-list">{fields}</dl>\n</div>\n')


def single_page(folder: Path) -> Path:
    """Cover, contents, a short chapter, a chapter with a long list (two groups), an index of every entry."""
    static = folder / "_static"
    static.mkdir(parents=True)
    shutil.copy(SOURCE / "_static" / "print.css", static / "print.css")
    (static / "fonts.css").write_text(stylesheet(), encoding="utf-8")
    chapters = [("intro", "1. はじめに", "<p>" + "ルールの説明。" * 40 + "</p>"),
                ("list", "2. リスト", '<p>リストの前の文。</p><div class="bp-list docutils container">'
                 '<p class="bp-group rubric">通常魔法</p>\n' + "".join(entry(n) for n in range(ENTRIES // 2))
                 + '<p class="bp-group bp-page-group rubric">特殊魔法</p>\n' + "".join(entry(n) for n in range(ENTRIES // 2, ENTRIES))
                 + "</div><p>リストの後の文。</p>"),
                ("sakuin", "3. 索引", '<div class="bp-index-columns"><ul class="bp-index-list">' + "".join(
                    f'<li><p><a class="reference internal" href="#e-{n}">試験魔法{n:03d}</a></p></li>'
                    for n in range(ENTRIES)) + "</ul></div>")]
    toc = "".join(f'<li class="toctree-l1"><a class="reference internal" href="#document-{name}">{title}</a></li>'
                  for name, title, _ in chapters)
    body = "".join(f'<span id="document-{name}"></span><section id="{name}"><h2>{title}</h2>{text}</section>'
                   for name, title, text in chapters)
    page = ('<!DOCTYPE html><html lang="ja"><head><meta charset="utf-8"><title>試験の本</title>'
            '<link rel="stylesheet" type="text/css" href="_static/fonts.css" />'
            '<link rel="stylesheet" type="text/css" href="_static/print.css" /></head><body><div class="body">'
            '<section class="print-cover"><p class="print-title">試験の本</p></section>'
            f'<nav class="print-toc"><h1>目次</h1><ul>{toc}</ul></nav>'
            f'<section id="book">{body}</section></div></body></html>')
    single = folder / "index.html"
    single.write_text(page, encoding="utf-8")
    return single


def test_entries_are_found_with_where_a_page_may_start() -> None:
    text = ('<p class="rubric">A</p>\n<div class="bp-entry x"><div>in</div></div>\n<div class="bp-entry">b</div>'
            '<p>between</p><div class="bp-entry">c<div class="bp-entry">nested</div></div>')
    entries = entries_of(text)
    assert [text[s:e] for s, e in entries.spans] == [
        '<div class="bp-entry x"><div>in</div></div>', '<div class="bp-entry">b</div>',
        '<div class="bp-entry">c<div class="bp-entry">nested</div></div>']
    assert entries.cuttable == (False, True, False)  # the first; after its neighbour; after other content


def test_a_run_marks_its_entries_and_one_that_goes_on_starts_inside_its_elements_without_its_margin() -> None:
    text = "<div>" + "".join(f'<div class="bp-entry">{n}{"x" * 50}</div>' for n in range(6)) + "</div>"
    entries = entries_of(text)
    stop = run_end(entries, 0, 150)
    assert stop == 2  # the first entry 150 bytes or more after the start (entries of 79 bytes from byte 5)
    assert run_end(entries, 0, 10) == 2  # at least two entries in a run
    head = run_html(text, entries, 0, stop)
    assert head.startswith("<div>") and head.count(MARK) == 2 and 'id="bp-cut-1"' in head
    tail = run_html(text, entries, 2, None, "<div>")
    assert tail.startswith('<div><div class="bp-entry" id="bp-cut-2" style="margin-top: 0">2')
    assert tail.endswith("</div></div>") and tail.count(MARK) == 4
    assert run_end(entries, 4, 150) is None


@pytest.mark.slow
def test_a_long_list_laid_out_in_runs_looks_exactly_like_one_document(tmp_path: Path) -> None:
    from pdfsame import pages_that_differ, structure

    single = single_page(tmp_path / "single")
    reference = tmp_path / "reference.pdf"
    render_pdf(single, reference)
    book = BookBuilder(single, Inline(), PartCache(tmp_path / "parts"), run_bytes=6_000)
    book.build(tmp_path / "book.pdf")
    runs = [key for key in book.used if "@" in key]
    assert len(runs) >= 4, book.used  # both groups' chapter went in runs
    reader = PdfReader(tmp_path / "book.pdf")
    assert len(reader.pages) == len(PdfReader(reference).pages)
    for key in runs:  # each run keeps a few pages, not the list
        pages = len(PdfReader(PartCache(tmp_path / "parts")._path(key, ".pdf")).pages)
        assert 1 <= pages <= 4, key
    assert pages_that_differ(reference, tmp_path / "book.pdf", dpi=30, stray=24) == []
    assert structure(tmp_path / "book.pdf") == structure(reference)
    # the folios go on from run to run, and the index gives the page each entry is on
    text = [page.extract_text() for page in reader.pages]
    index = "".join(subprocess.run(["pdftotext", "-layout", "-f", str(n), "-l", str(n), str(tmp_path / "book.pdf"),
                                    "-"], check=True, capture_output=True, text=True).stdout
                    for n in range(len(text) - 2, len(text) + 1))
    given = {int(n): int(page) for n, page in re.findall(r"試験魔法(\d{3}) \.+ (\d+)", index)}
    assert len(given) == ENTRIES
    for n, page in given.items():
        assert f"試験魔法{n:03d}" in text[page - 1] and text[page - 1].rstrip().endswith(str(page)), n
