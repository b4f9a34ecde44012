"""Stylesheets parsed once per process (``render/weasyprint_private.py``): a part parses only the sheets no part
before it had, the parts look exactly as with WeasyPrint's own parsing, and a WeasyPrint change fails here."""

from __future__ import annotations

import inspect
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import tinycss2  # type: ignore[import-untyped]  # WeasyPrint's CSS parser: no stubs

from blackpoker.render import weasyprint_private
from blackpoker.render.pdfparts import ENGINE_LOCK, layout, render_part


def test_weasyprint_still_makes_a_documents_sheets_the_way_we_replace() -> None:
    import weasyprint
    import weasyprint.css as css_module

    layout("<!doctype html><html><body></body></html>", "file:///")  # puts the stand-in in
    assert getattr(css_module.CSS, "wrapped", None) is weasyprint.CSS, "weasyprint.css no longer finds CSS by name"
    source = inspect.getsource(css_module.find_stylesheets)
    assert source.count("CSS(") == 2, "find_stylesheets makes its sheets differently: check weasyprint_private.py"
    css_class: Any = weasyprint.CSS
    assert set(inspect.signature(css_class).parameters) >= weasyprint_private._ARGUMENTS
    assert {"matcher", "page_rules", "layers"} <= set(vars(css_class(string="p { color: red }")))
    render_source = inspect.getsource(css_module.StyleFor)
    assert "sheet.page_rules" in render_source and "sheet.matcher.match" in render_source


@pytest.fixture
def parsed(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[str]]:
    """The texts tinycss2 parses as stylesheets (WeasyPrint's every parse of a <style> or a linked file)."""
    texts: list[str] = []
    by_text, by_bytes = tinycss2.parse_stylesheet, tinycss2.parse_stylesheet_bytes

    def text(css: str, *args: Any, **kwargs: Any) -> Any:
        texts.append(css)
        return by_text(css, *args, **kwargs)

    def data(css: bytes, *args: Any, **kwargs: Any) -> Any:
        texts.append(css.decode("utf-8"))
        return by_bytes(css, *args, **kwargs)

    monkeypatch.setattr(tinycss2, "parse_stylesheet", text)
    monkeypatch.setattr(tinycss2, "parse_stylesheet_bytes", data)
    yield texts


LINKED = "@page { size: A6; margin: 12mm; } p { color: #336; } .x { font-weight: bold !important; }\n"


def _page(tmp_path: Path, n: int, extra: str = "") -> str:
    return (f'<!doctype html><html lang="ja"><head><meta charset="utf-8"><style>h1 {{ color: #a00 }}</style>'
            f'<link rel="stylesheet" href="print.css"><style>@page {{ margin: {n + 5}mm; }}{extra}</style></head>'
            f'<body><h1>見出し {n}</h1><p class="x" style="font-weight: normal">本文 {n}</p></body></html>')


def test_parts_parse_only_the_sheets_no_part_before_them_had(tmp_path: Path, parsed: list[str]) -> None:
    (tmp_path / "print.css").write_text(LINKED, encoding="utf-8")
    base = tmp_path.as_uri() + "/"
    layout(_page(tmp_path, 0), base)
    first = list(parsed)
    assert LINKED in first and "h1 { color: #a00 }" in first  # a new process's first part parses its sheets
    parsed.clear()
    for n in range(1, 5):
        layout(_page(tmp_path, n), base)
    # each later part parses only its own <style>, not the linked file or the <style> every part has
    assert sorted(parsed) == sorted(f"@page {{ margin: {n + 5}mm; }}" for n in range(1, 5))


def test_an_edited_linked_stylesheet_is_parsed_again(tmp_path: Path, parsed: list[str]) -> None:
    sheet = tmp_path / "print.css"
    sheet.write_text(LINKED, encoding="utf-8")
    base = tmp_path.as_uri() + "/"
    layout(_page(tmp_path, 0), base)
    edited = LINKED.replace("#336", "#633")  # the same size, and maybe the same time: a different text
    times = sheet.stat().st_atime_ns, sheet.stat().st_mtime_ns
    sheet.write_text(edited, encoding="utf-8")
    os.utime(sheet, ns=times)
    parsed.clear()
    layout(_page(tmp_path, 0), base)
    assert parsed == [edited]


def test_a_sheet_that_adds_a_counter_style_to_its_document_is_parsed_for_each_part(tmp_path: Path,
                                                                                 parsed: list[str]) -> None:
    (tmp_path / "print.css").write_text(LINKED, encoding="utf-8")
    base = tmp_path.as_uri() + "/"
    counter = "@counter-style thumbs { system: cyclic; symbols: '*'; suffix: ' '; } ol { list-style: thumbs; }"
    for _ in range(3):
        layout(_page(tmp_path, 1, counter), base)
    assert sum(text.endswith(counter) for text in parsed) >= 3
    assert parsed.count(LINKED) == 1


@pytest.mark.parametrize("extra", ["", "@counter-style thumbs { system: cyclic; symbols: '*'; suffix: ' '; }"
                                   " ol { list-style: thumbs; }", "@page :first { margin: 3mm; }"])
def test_parts_look_exactly_as_with_weasyprints_own_parsing(tmp_path: Path, extra: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """@page rules in several sheets, !important against a style attribute, a sheet that adds a counter style."""
    import weasyprint.css as css_module

    (tmp_path / "print.css").write_text(LINKED, encoding="utf-8")
    base = tmp_path.as_uri() + "/"
    html = _page(tmp_path, 1, extra).replace("</body>", "<ol><li>一</li><li>二</li></ol></body>")
    render_part(_page(tmp_path, 0, "@page :first { margin: 1mm; }"), base)  # a part before with the same sheets
    shared = [render_part(html, base)[0] for _ in range(2)]
    with ENGINE_LOCK:  # WeasyPrint's own parsing, for this part only
        monkeypatch.setattr(css_module, "CSS", css_module.CSS.wrapped)
        monkeypatch.setattr(weasyprint_private, "share_stylesheets", lambda: None)
        own = render_part(html, base)[0]
        monkeypatch.undo()
    assert shared[0] == shared[1] == own


def test_the_html_parser_still_looks_its_patterns_up_the_way_we_fill_them() -> None:
    """tinyhtml5's ``chars_until`` looks its module-level cache up by ``(characters, opposite)``; a release that
    renames the cache or keys it otherwise makes :func:`keep_html_patterns` useless and fails here."""
    from tinyhtml5 import inputstream  # type: ignore[import-untyped]

    source = inspect.getsource(inputstream.HTMLUnicodeInputStream.chars_until)
    assert "characters_until_regex[(characters, opposite)]" in source, "tinyhtml5 keys its patterns otherwise"
    assert isinstance(inputstream.characters_until_regex, dict)


def test_the_html_parser_compiles_each_pattern_once_and_parses_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    import re
    from xml.etree import ElementTree

    import tinyhtml5
    from tinyhtml5 import inputstream

    html = ("<!doctype html><html><head><style>p { color: red }</style></head><body>"
            + "".join(f'<p class="c{n}" data-n="{n}">本文 {n} &amp; &lt;b&gt;<!-- {n} --><br></p>\n' for n in range(300))
            + "<script>if (a < b) {}</script><textarea>x &amp; y</textarea></body></html>")
    monkeypatch.setattr(inputstream, "characters_until_regex", {})
    compiled: list[str] = []
    real_compile = re.compile

    def counting(pattern: str, *args: Any) -> Any:
        compiled.append(pattern)
        return real_compile(pattern, *args)

    monkeypatch.setattr(inputstream.re, "compile", counting)
    theirs = ElementTree.tostring(tinyhtml5.parse(html))
    assert len(compiled) > 300, "tinyhtml5 now keeps its patterns: keep_html_patterns can go"
    compiled.clear()
    weasyprint_private.keep_html_patterns()
    ours = ElementTree.tostring(tinyhtml5.parse(html))
    assert ours == theirs
    assert 0 < len(compiled) == len(set(compiled)) <= 10
    assert all(isinstance(key[0], (str, tuple, frozenset)) for key in inputstream.characters_until_regex)
