"""The rulebook is the printed book's text (issue 14, item 2): every sentence of chapters 1–3 and 6 is shown, or
listed in ``source/errata.yaml``, which the reader sees as the 正誤表.

The printed v8.1 book's text (tests/data/book-v8.1.txt) is canonical but jumbled (pages merged in pairs), so the
sentences are taken, chapter by chapter, from the clean v8.0 site text (tests/data/site-v8.0.txt) and kept when
v8.1 still has them word for word; a sentence v8.1 changed is then not checked here (the inventory's §13 lists
those changes, and the definitions hold them).
"""

from __future__ import annotations

import html
import re
import unicodedata
from pathlib import Path

import pytest

from blackpoker.core.paths import SOURCE
from blackpoker.sphinxext.errata import read_errata

DATA = Path(__file__).parent / "data"
# chapters 1–3 and 6 of the v8.0 text (1-based line numbers, end excluded)
CHAPTERS = ((55, 741), (2355, 2881))


# the printed book's text writes some marks as its typesetting source did (TeX) or as the PDF extraction read them
_MARKS = (("\\to", "→"), ("\\sim", "~"), ("\\Diamond", "◇"), ("rightarrow", "→"), ("$", ""), ("heartsuit", "♡"), ("diamondsuit", "◇"),
          ("spadesuit", "♠"), ("clubsuit", "♣"), ("◊", "◇"), ("♦", "◇"), ("♥", "♡"), ("“", '"'), ("”", '"'))


def _norm(text: str) -> str:
    """Comparable text: NFKC, no whitespace (the PDF text breaks lines and spaces words), one tilde, one kind of
    quotes and suits, no label brackets (the lists write <速攻>, the book's fields 速攻)."""
    text = unicodedata.normalize("NFKC", text)
    for mark, same in _MARKS:
        text = text.replace(mark, same)
    return re.sub(r"[\s<>]+", "", text).replace("～", "~").replace("**", "").replace("\\", "")


def sentences(text: str) -> list[str]:
    """The sentences of a text, one per line part ending in 。 or per list item; headings and references left out."""
    out = []
    for line in unicodedata.normalize("NFKC", text).splitlines():
        if re.match(r"^\s*(\d+(\.\d+)+\s|\(?(Table|Fig)|第\s*\d+\s*章)", line):
            continue  # a numbered heading, a table or figure caption or reference (the figure test), a chapter
        line = re.sub(r"^\s*(注釈|例)\s*:\s*", "", line)
        line = re.sub(r"^\s*(?:(?:[-・*•·]|\d+\.(?!\d)|[A-Z]\.(?![A-Z]))\s*)+", "", line)  # 「- 1. 」: marks of lists
        out += [n for n in map(_norm, re.split(r"。", line))
                if len(n) >= 10 and not re.fullmatch(r"\((Table|Fig\.)[\d.]+\)", n)]
    return out


def _shown(site: Path) -> str:
    """The rulebook's text as a reader reads it: no readings (ruby), no marks of ours (裁定 marks), not the 正誤表
    (which quotes the book's words where the rulebook differs)."""
    text = ""
    for page in sorted(site.glob("*.html")):
        if page.name in ("verification.html", "search.html"):
            continue
        s = page.read_text(encoding="utf-8")
        s = re.sub(r"<(script|style)\b.*?</\1>|<rt>.*?</rt>|<sup class=\"bp-amended-mark\">.*?</sup>"
                   r"|<table class=\"[^\"]*bp-errata.*?</table>", "", s, flags=re.S)  # the 正誤表 quotes the book
        text += _norm(html.unescape(re.sub(r"<[^>]+>", "", s)))
    return text


@pytest.fixture(scope="module")
def book_sentences() -> list[str]:
    lines = (DATA / "site-v8.0.txt").read_text(encoding="utf-8").splitlines()
    v81 = _norm((DATA / "book-v8.1.txt").read_text(encoding="utf-8"))
    chapters = "\n".join(line for start, end in CHAPTERS for line in lines[start - 1:end - 1])
    return [s for s in sentences(chapters) if s in v81]


def test_the_chapters_are_where_the_test_reads_them() -> None:
    lines = (DATA / "site-v8.0.txt").read_text(encoding="utf-8").splitlines()
    assert lines[CHAPTERS[0][0] - 1] == "第 1 章" and lines[CHAPTERS[1][0] + 1] == "コアルール"
    assert lines[CHAPTERS[0][1] - 1].startswith("第 4 章") or "フォーマット" in lines[CHAPTERS[0][1]]


def test_every_sentence_of_the_book_is_shown_or_listed_as_an_erratum(
        built_rulebook: tuple[Path, Path], book_sentences: list[str]) -> None:
    assert len(book_sentences) > 400
    shown = _shown(built_rulebook[0])
    listed = {n for e in read_errata(SOURCE / "errata.yaml") for words in e.book for n in sentences(words)}
    missing = [s for s in book_sentences if s not in shown and s not in listed]
    assert missing == [], "\n".join(missing)
    # every erratum is needed: its words are really not shown as the book has them
    assert [w for w in listed if w in shown] == []


def test_every_erratum_is_shown_to_the_reader(built_rulebook: tuple[Path, Path]) -> None:
    appendix = html.unescape((built_rulebook[0] / "appendix.html").read_text(encoding="utf-8"))
    errata = read_errata(SOURCE / "errata.yaml")
    assert errata
    for e in errata:
        assert e.shown in appendix and e.reason in appendix
        assert all(f"「{words}」" in appendix for words in e.book)


# The printed book's page furniture: running heads and folios (「第2章共通ルール6.4、コアフロー99」), the cover's and
# colophon's release lines, the download addresses, a table's or figure's number on its own
_FURNITURE = re.compile(r"^\d*第\d+章|第\d+章\S*\d+$|^BlackPoker[,.]リリース|^release:|^https?://|リリース\d{4}/\d+/x"
                        r"|^\d+(\.\d+)+\.?\S*\d+$|^\((Table|Fig\.?)[\d.]+\)$")
# where the rulebook lays the book's line out otherwise, its parts still read word for word: a table row
# (「完全公開: … 個人公開: …」), an entry's field (「ラベル: アタッカー, ブロッカー」), a list the PDF put on one line
_PARTS = re.compile(r"[:\-,、()]|\.(?=v)|(?=(?:完全公開|個人公開|非公開|タイミング):)")


def _laid_out_otherwise(sentence: str, shown: str) -> bool:
    parts = [p for p in _PARTS.split(sentence) if len(p) >= 2]
    return len(parts) > 1 and all(p in shown for p in parts)


def _unreadable() -> dict[str, tuple[str | None, str]]:
    """The book's garbled sentences: normalised words → (how they read, normalised, or None; why)."""
    out = {}
    for line in (DATA / "book-v8.1-unreadable.tsv").read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#"):
            words, reading, why = line.split("\t")
            out[_norm(words)] = (None if reading == "-" else _norm(reading), why)
    return out


def test_every_sentence_of_the_v81_book_is_shown_listed_or_read_through_its_garbling(
        built_rulebook: tuple[Path, Path]) -> None:
    """Every sentence of the printed v8.1 book (all chapters: the entries' texts too, as the rulebook shows every
    chapter), its sentences changed or added since v8.0 included: shown word for word (or laid out as a table, a
    field, a list), or listed in the 正誤表, or garbled by the PDF's text and then shown as it reads."""
    shown = _shown(built_rulebook[0])
    listed = {n for e in read_errata(SOURCE / "errata.yaml") for words in e.book for n in sentences(words)}
    book = [s for s in sentences((DATA / "book-v8.1.txt").read_text(encoding="utf-8")) if not _FURNITURE.search(s)]
    assert len(book) > 1200
    unreadable = _unreadable()
    missing = [s for s in book if s not in shown and s not in listed and not _laid_out_otherwise(s, shown)
               and not any(s.startswith(words) for words in unreadable)]
    assert missing == [], "\n".join(missing)
    for words, (reading, why) in unreadable.items():
        assert any(s.startswith(words) for s in book), f"not in the book's text: {words}"  # no stale line
        assert reading is None or reading in shown or _laid_out_otherwise(reading, shown), (words, reading, why)
