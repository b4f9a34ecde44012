"""Long texts are laid out in work linear in their length, and in the same lines (render/textruns.py; issue 25, item 5).

The work is counted, not timed: the characters of text WeasyPrint goes through as it sets each line (the text
box it splits, whole); before the runs, a paragraph of n characters cost n per line.
"""

from __future__ import annotations

import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from blackpoker.render.pdfparts import layout
from blackpoker.render.textruns import ELEMENT, RUN, bounded_text, split_text

SENTENCE = "防壁を並べ、兵士を出し、攻撃する。この順番を忘れないように。"


def text_of(kind: str, chars: int) -> str:
    """Text of about ``chars`` characters: a punctuated Japanese sentence, numbered tokens with few break
    opportunities (the benchmark's two kinds), English words, or words with combining marks and references."""
    if kind == "sentence":
        unit = SENTENCE
    elif kind == "tokens":
        return "".join(f"〔{i:04d}〕あいうえおかきくけこ" for i in range(chars // 16 + 1))[:chars]
    elif kind == "english":
        unit = "The quick brown fox jumps over the lazy dog; AVAST, Wolfgang! "
    else:
        unit = "cafe\u0301 na\u0308ive &amp; e\u0301te\u0301 &lt;&#x00E9;&gt; ｶﾞｷﾞ がぎ "
    return (unit * (chars // len(unit) + 1))[:chars]


def page(text: str, align: str = "left") -> str:
    return ('<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>@page { size: A5; margin: 12mm } '
            f'html {{ font-family: "BIZ UDPGothic"; font-size: 8pt; line-height: 1.5 }} p {{ text-align: {align} }}'
            f"</style></head><body><h1>題</h1><p>「{text}」</p><p>後</p></body></html>")


@pytest.fixture
def line_work(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """The characters of every text box WeasyPrint splits a line from (its per-line work), as laid out."""
    from weasyprint.layout import inline

    seen: list[int] = []
    split = inline.split_text_box

    def counted(context: object, box: object, *args: object, **kwargs: object) -> object:
        seen.append(len(box.text))  # type: ignore[attr-defined]  # a WeasyPrint TextBox
        return split(context, box, *args, **kwargs)
    monkeypatch.setattr(inline, "split_text_box", counted)
    yield seen


@pytest.mark.parametrize("kind", ["sentence", "tokens"])
def test_a_long_text_is_laid_out_in_work_linear_in_its_length(kind: str, line_work: list[int]) -> None:
    per_char = {}
    small, large = 2 * RUN, 6 * RUN
    for chars in (small, large):
        line_work.clear()
        document = layout(page(text_of(kind, chars)), "file:///nonexistent/")
        assert len(document.pages) > 3
        per_char[chars] = sum(line_work) / chars
    # linear: the same work per character at three times the length (before: three times as much per character)
    assert per_char[large] <= 1.3 * per_char[small], per_char
    assert max(line_work) <= RUN + 2  # no text box longer than a run (its quotes beside it)


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


def _words(pdf: Path) -> list[tuple[str, tuple[float, ...]]]:
    """Each word of the PDF and its box (points)."""
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    return [(m[5], tuple(float(v) for v in m.groups()[:4])) for m in _WORD.finditer(out)]


@pytest.mark.parametrize("kind", ["sentence", "tokens", "english", "marks"])
@pytest.mark.parametrize("align", ["left", "justify"])
def test_a_text_in_runs_is_set_in_the_same_lines(kind: str, align: str, tmp_path: Path) -> None:
    from weasyprint import HTML

    html = page(text_of(kind, 8_000), align)
    cut = bounded_text(html, run=60)
    assert cut.count(f"<{ELEMENT}>") > 80
    one, runs = tmp_path / "one.pdf", tmp_path / "runs.pdf"
    HTML(string=html).write_pdf(one)
    HTML(string=cut).write_pdf(runs)
    words, expected = _words(runs), _words(one)
    assert [w for w, _ in words] == [w for w, _ in expected]  # the same lines, each with the same words
    # … where they were, to a fifth of a point (a space beside a cut is not kerned with its neighbour, and a
    # justified line shares its spacing out box by box): 0.07 mm
    assert all(abs(a - b) < 0.2 for (_, box), (_, other) in zip(words, expected, strict=True)
               for a, b in zip(box, other, strict=True))


def test_only_long_texts_are_cut_and_nothing_else_changes() -> None:
    style = "<style>" + "p { color: red } " * 300 + "</style>"
    ordinary = f"<html><head>{style}</head><body><p>{'短い文。' * 100}</p></body></html>"
    assert bounded_text(ordinary) == ordinary  # nothing longer than a run: the same HTML
    text = text_of("marks", 5_000)
    long = f"<html><head>{style}</head><body><p title=\"{'x' * 3000}\">{text}</p></body></html>"
    cut = bounded_text(long, run=100)
    assert style in cut and f"title=\"{'x' * 3000}\"" in cut  # styles and attributes as they were
    assert cut.replace(f"<{ELEMENT}>", "").replace(f"</{ELEMENT}>", "") == long  # the same text
    parts = re.findall(f"<{ELEMENT}>(.*?)</{ELEMENT}>", cut)
    assert len(parts) > 20
    for part in parts:
        assert len(re.sub(r"&#?\w+;", "_", part)) <= 100
        assert not re.search(r"&#?\w*$", part)  # a character reference is never cut
        assert part[0] not in "\u0301\u0308\uff9e"  # no mark parted from its letter
    for part in parts[:-1]:
        assert not part[-1].isspace()  # a cut goes before a space: the space is kerned with the word after it


def test_a_stretch_with_nowhere_to_cut_stays_whole() -> None:
    marks = "e" + "\u0301" * 500
    assert split_text("a" * 50 + marks + "b" * 50, run=100) == ["a" * 50, marks, "b" * 50]
