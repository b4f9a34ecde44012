"""A long action list's frame is laid out in runs of bounded size (render/bookruns.py, as the book's action
chapter; issue 25, item 10), and the list still looks exactly like the same list laid out as one document: the
same pages, text (page numbers and running heads included), outline, destinations and links. On the small
project with a few hand-written actions of different lengths, so it runs in seconds."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest
from pypdf import PdfReader

from blackpoker.render.actionlist.pdf import FRAME_ENTRY
from blackpoker.render.bookruns import MARK, entries_of, entry_names, run_html

SMALL = Path(__file__).parent / "projects" / "small" / "definitions"
ADDED = 40


def action(n: int) -> str:
    """A 基本 action of one to four effect lines, some long: boxes of different heights, so pages end in
    different places."""
    lines = "".join(f"  - {'対戦相手に1点のダメージを与える。' * (1 + (n * 7 + k) % 6)}\n" for k in range(1 + n % 4))
    return (f"- id: test-{n:03d}\n  name: 試験{n:03d}\n  reading: しけん\n  category: 基本\n  group: 基本\n"
            f"  trigger: direct\n  speed: normal\n  timing: main\n  effect:\n{lines}  introduced: v8.1\n"
            "  formats:\n  - lite\n")


def test_a_frame_s_boxes_are_entries_known_by_their_ids() -> None:
    box = '<article class="entry entry--action" id="{}" style="height: 10px; visibility: hidden{}"></article>'
    text = ('<section class="group"><div class="keep"><h3>G</h3>' + box.format("a", "") + "</div>\n"
            + box.format("b", "") + "\n" + box.format("c", "") + box.format("c--part-1", "; break-before: page")
            + box.format("d", "") + "</section>")
    entries = entries_of(text, FRAME_ENTRY)
    assert [text[s:e].split('"')[3] for s, e in entries.spans] == ["a", "b", "c", "c--part-1", "d"]
    # not after the headings' block; not a box that forces its own page break (a document's start would drop it)
    assert entries.cuttable == (False, False, True, False, True)
    assert entry_names(text, entries, 2, None) == {"c": 2, "c--part-1": 3, "d": 4}
    run = run_html(text, entries, 2, 4, '<section class="group">')
    assert MARK not in run  # the boxes are known by their own ids
    assert run.startswith('<section class="group"><article class="entry entry--action" id="c" '
                          'style="margin-top: 0; height: 10px; visibility: hidden">')
    assert 'id="d"' not in run


@pytest.mark.slow
def test_a_long_list_s_frame_laid_out_in_runs_looks_exactly_like_one_document(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import blackpoker.render.actionlist.pdf as pdf
    from blackpoker import load_rules
    from blackpoker.infra.jobs import Inline
    from blackpoker.render.pdfparts import PartCache
    from pdfsame import pages_that_differ, structure

    definitions = tmp_path / "definitions"
    shutil.copytree(SMALL, definitions)
    with (definitions / "actions.yaml").open("a", encoding="utf-8") as f:
        f.write("".join(action(n) for n in range(ADDED)))
    rules = load_rules(definitions)
    monkeypatch.setattr(pdf, "FOLIO_PAGES", 3)  # several folios too
    builder = pdf.ListsBuilder(rules, Inline(), PartCache(tmp_path / "parts"), run_bytes=1_500)
    page = next(p for p in builder.pages if p.key == "lite")
    builder.pages = (page,)
    builder.build(tmp_path / "site")
    runs = [key for key in builder.used if key.startswith("frame-lite@")]
    assert len(runs) >= 4, builder.used
    built = pdf.pdf_paths(tmp_path / "site", page)[0]
    pages = len(PdfReader(built).pages)
    assert pages >= 8
    for key in runs:  # each run keeps a few pages, not the list
        assert 1 <= len(PdfReader(PartCache(tmp_path / "parts")._path(key, ".pdf")).pages) <= 4, key
    folios = {key for key in builder.used if key.startswith("frame-folio")}
    assert len(folios) == -(-pages // 3)

    reference = tmp_path / "reference.pdf"
    pdf.render_documents(rules, (page,))["lite"].write_pdf(reference)
    assert len(PdfReader(reference).pages) == pages
    assert pages_that_differ(reference, built) == []
    assert structure(built) == structure(reference)  # outline, destinations, links

    def text(path: Path) -> list[str]:
        out = subprocess.run(["pdftotext", "-layout", "-enc", "UTF-8", str(path), "-"], check=True,
                             capture_output=True, text=True).stdout
        return out.split("\f")
    assert text(built) == text(reference)  # the page numbers ("5 / 12") and running heads too
    assert f"{pages} / {pages}" in text(built)[pages - 1]
