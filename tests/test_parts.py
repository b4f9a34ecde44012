"""PDFs joined from separately rendered parts: links across parts, one outline, named destinations, stamps."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from pypdf import PdfReader

from blackpoker.render.pdfparts import Bookmark, Part, PartCache, Stamp, _nest, join, part_key, render_part, with_stand_ins

CSS = "<style>@page { size: A6; margin: 10mm; } h1 { bookmark-level: 1; } h2 { bookmark-level: 2; }</style>"


def _doc(body: str) -> str:
    return f'<!doctype html><html lang="ja"><head><meta charset="utf-8"><title>t</title>{CSS}</head><body>{body}</body></html>'


def _part(cache: PartCache, body: str) -> Part:
    data, info = render_part(_doc(body), "file:///")
    return cache.put(part_key("test", body), data, info)


def test_stand_ins_cover_exactly_the_missing_link_targets() -> None:
    html, names = with_stand_ins(_doc('<p id="here"><a href="#here">a</a> <a href="#there">b</a></p>'))
    assert names == {"there"}
    assert html.count('id="there"') == 1 and 'class="bp-stand-ins"' in html
    untouched, none = with_stand_ins(_doc('<p id="x"><a href="#x">a</a></p>'))
    assert none == frozenset() and "bp-stand-ins" not in untouched


def test_pieces_of_a_box_split_over_pages_are_recorded_when_asked_for(tmp_path: Path) -> None:
    from blackpoker.render.pdfparts import PartInfo

    body = '<div id="long">' + "".join(f"<p>line {i}</p>" for i in range(60)) + '</div><p id="after">end</p>'
    _, plain = render_part(_doc(body), "file:///")
    data, info = render_part(_doc(body), "file:///", pieces=True)
    assert info.pages >= 3 and plain.anchors == info.anchors and plain.continued == ()
    assert [a.page for a in info.continued] == list(range(1, info.pages))
    assert all(a.name == "long" for a in info.continued)
    top = info.continued[0].y  # the top of the page body: each later piece starts there, the last ends sooner
    assert all(abs(a.y - top) < 0.01 for a in info.continued) and info.continued[-1].height < info.continued[0].height
    assert PartInfo.from_json(info.to_json()) == info
    assert "continued" not in plain.to_json()  # a record without pieces is as it was


def test_bookmarks_nest_by_level_like_weasyprint() -> None:
    marks = [Bookmark(level, str(i), 0, 0, 0, True) for i, level in enumerate([1, 2, 3, 2, 1, 3])]
    tree = _nest(marks)
    assert [b.label for b, _ in tree] == ["0", "4"]
    assert [b.label for b, _ in tree[0][1]] == ["1", "3"]
    assert [b.label for b, _ in tree[0][1][0][1]] == ["2"]
    assert [b.label for b, _ in tree[1][1]] == ["5"]  # a skipped level is not a level


def test_joined_parts_link_across_parts_with_one_outline(tmp_path: Path) -> None:
    cache = PartCache(tmp_path / "cache")
    first = _part(cache, '<h1 id="one">One</h1><p><a href="#two">to two</a></p>')
    second = _part(cache, '<h1 id="two">Two</h1><h2 id="two-a">Two A</h2><p><a href="#one">back</a></p>')
    assert "two" not in [a.name for a in first.info.anchors]  # a stand-in is not an anchor of the part
    info = join([first, second], tmp_path / "joined.pdf")

    reader = PdfReader(tmp_path / "joined.pdf")
    assert len(reader.pages) == info.pages == 2
    dests = {name: reader.get_destination_page_number(d) for name, d in reader.named_destinations.items()}
    assert dests == {"one": 0, "two": 1, "two-a": 1}
    links = [(n, str(a.get_object()["/Dest"])) for n, p in enumerate(reader.pages) for a in p.get("/Annots") or []]
    assert links == [(0, "two"), (1, "one")]
    outline = reader.outline
    assert [o.title for o in outline if not isinstance(o, list)] == ["One", "Two"]
    nested = outline[2]
    assert isinstance(nested, list) and len(nested) == 1 and [o.title for o in nested if not isinstance(o, list)] == ["Two A"]


def test_a_stamp_draws_another_page_and_brings_its_marks(tmp_path: Path) -> None:
    cache = PartCache(tmp_path / "cache")
    base = _part(cache, '<h1 id="base">Base</h1>')
    extra = _part(cache, '<h2 id="x.inner">Stamped</h2>')
    join([base], tmp_path / "stamped.pdf", stamps=[Stamp(0, extra, 0, 0.0, -100.0, "x.")])
    reader = PdfReader(tmp_path / "stamped.pdf")
    assert "Stamped" in reader.pages[0].extract_text()
    assert set(reader.named_destinations) == {"base", "inner"}
    drawn = next(a for a in extra.info.anchors if a.name == "x.inner")
    top = reader.named_destinations["inner"].top
    assert top is not None and float(top) == pytest.approx(drawn.y - 100.0, abs=0.01)


def test_a_part_s_pdf_is_parsed_once_per_thread_and_joins_the_same_from_it(tmp_path: Path) -> None:
    """part_reader keeps a parsed part for the thread's next join (a worker stamps the same entry batches into
    several lists): the same reader in the thread, its own in another thread, a new one for a part written again;
    and a join from a kept reader writes the same bytes as one from a reader of its own."""
    from concurrent.futures import ThreadPoolExecutor

    from blackpoker.render.pdfparts import part_reader

    cache = PartCache(tmp_path / "cache")
    base = _part(cache, '<h1 id="base">Base</h1><p><a href="#x.inner">to the stamp</a></p>')
    extra = _part(cache, '<h2 id="x.inner">Stamped</h2><p><a href="https://example.com/">out</a></p>')
    stamps = [Stamp(0, extra, 0, 0.0, -100.0, "x."), Stamp(0, extra, 0, 0.0, -200.0, "x.")]

    def joined(name: str) -> bytes:
        join([base], tmp_path / name, stamps=stamps)
        return (tmp_path / name).read_bytes()

    with ThreadPoolExecutor(1) as fresh:  # a thread that has read neither part
        alone = fresh.submit(joined, "alone.pdf").result()
    first = part_reader(extra.pdf)
    assert part_reader(extra.pdf) is first
    assert [joined(f"again-{n}.pdf") for n in range(2)] == [alone, alone]  # from the kept readers
    assert part_reader(extra.pdf) is first and part_reader(base.pdf) is part_reader(base.pdf)
    with ThreadPoolExecutor(1) as other:
        assert other.submit(part_reader, extra.pdf).result() is not first
    data, info = render_part(_doc('<h2 id="x.inner">Changed</h2>'), "file:///")
    cache.put(extra.pdf.name.removesuffix(".pdf"), data, info)  # the same part's file written again
    again = part_reader(extra.pdf)
    assert again is not first and "Changed" in again.pages[0].extract_text()


def test_cache_keeps_only_what_is_retained(tmp_path: Path) -> None:
    cache = PartCache(tmp_path / "cache")
    kept = _part(cache, "<p>kept</p>")
    _part(cache, "<p>dropped</p>")
    key = kept.pdf.name.removesuffix(".pdf")
    cache.retain([key])
    assert cache.keys() == {key}
    got = cache.get(key)
    assert got is not None and got.info == kept.info


def test_weasyprint_is_never_used_from_two_threads_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """In one process (the Inline runner, a list per thread) concurrent layouts corrupted Pango's state ("GLib:
    corrupted double-linked list"), and a long entry's pieces came out elsewhere than measured (issue 25, item 5):
    every layout and write holds one lock."""
    import threading
    import time
    from concurrent.futures import ThreadPoolExecutor

    from weasyprint import HTML
    from weasyprint.document import Document

    inside, most = 0, 0
    guard = threading.Lock()

    def counted(original: Any) -> Any:
        def run(*args: Any, **kwargs: Any) -> Any:
            nonlocal inside, most
            with guard:
                inside += 1
                most = max(most, inside)
            try:
                time.sleep(0.05)  # long enough for the other threads to come in, were they let in
                return original(*args, **kwargs)
            finally:
                with guard:
                    inside -= 1
        return run

    monkeypatch.setattr(HTML, "render", counted(HTML.render))
    monkeypatch.setattr(Document, "write_pdf", counted(Document.write_pdf))
    with ThreadPoolExecutor(4) as threads:
        parts = list(threads.map(lambda n: render_part(_doc(f"<p>{n}</p>" * 30), "file:///"), range(8)))
    assert most == 1
    assert all(info.pages == parts[0][1].pages for _, info in parts)


def test_a_part_is_parsed_again_for_its_links_only_when_it_links_to_the_site_s_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A book part's links to the site's files are rebased (pdfparts.relative_links parses and writes the PDF again);
    a part without such a link (most chapters: links within the book, to other sites) is written as it was laid
    out, not parsed again."""
    import blackpoker.render.pdfparts as pdfparts

    base, site = tmp_path.as_uri() + "/", "https://example.org/rules/"
    rebased: list[bytes] = []
    original = pdfparts.relative_links

    def counting(pdf: bytes, at: str, to: str | None = None) -> bytes:
        rebased.append(pdf)
        return original(pdf, at, to)

    monkeypatch.setattr(pdfparts, "relative_links", counting)
    elsewhere = _doc('<h1 id="a">A</h1><p><a href="#a">here</a> <a href="https://example.com/x.html">there</a></p>')
    data, _ = render_part(elsewhere, base, rebase=pdfparts.Rebase(base, site))
    assert rebased == []
    assert data == render_part(elsewhere, base)[0]  # as laid out
    assert _uris(data) == ["https://example.com/x.html"]

    linked = _doc('<p><a href="actionlist/pdf/all.pdf">the list</a> <a href="https://example.com/x.html">there</a></p>')
    data, _ = render_part(linked, base, rebase=pdfparts.Rebase(base, site))
    assert len(rebased) == 1
    assert _uris(render_part(linked, base)[0]) == [f"{base}actionlist/pdf/all.pdf", "https://example.com/x.html"]
    assert _uris(data) == [f"{site}actionlist/pdf/all.pdf", "https://example.com/x.html"]
    data, _ = render_part(linked, base, rebase=pdfparts.Rebase(base, None))
    assert _uris(data) == ["actionlist/pdf/all.pdf", "https://example.com/x.html"]  # no site: relative to its root


def _uris(pdf: bytes) -> list[str]:
    import io

    return [str(annot.get_object()["/A"]["/URI"]) for page in PdfReader(io.BytesIO(pdf)).pages
            for annot in page.get("/Annots") or [] if "/A" in annot.get_object()]
