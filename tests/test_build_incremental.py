"""The real build, end to end: an edit re-renders only what shows it, and the result equals a cold build.

Slow (three builds, from a copy of the run's shared build), but it is the guarantee behind the caches: editing
one action's flavour text renders one batch of action-list entries and one group of the book's chapter 4 again;
making it longer adds the lists' frames and what shows page numbers that moved; every output that shows the text
shows the new one, and the site is byte for byte the site a build from nothing makes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.build import CACHE, build
from blackpoker.render.pdfparts import PartCache
from sites import BuiltSite, copy_site

OLD = "「防壁の次は兵士を出します。これが戦術の基本です。」"
NEW = "「防壁の次は兵士を出します。これが戦術の基本だぜ。」"


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _text(pdf: Path) -> str:
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    return re.sub(r"\s+", "", text)


@pytest.mark.build
@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_an_entry_edit_rerenders_only_what_shows_it_and_equals_a_cold_build(tmp_path: Path,
                                                                            built_site: BuiltSite) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    out = tmp_path / "site"
    copy_site(built_site, out)  # the build of these definitions, and its cache, as a first build leaves them
    parts = PartCache(tmp_path / CACHE / "parts")
    before = parts.keys()
    kinds = {k.rsplit("-", 1)[0] for k in before}
    assert kinds >= {"chapter-format", "entries-actions~0", "frame-all", "cover-all", "front"}
    groups = sorted(k.rsplit("-", 1)[0] for k in before if k.startswith("chapter-format"))
    # the chapter's start (with the list's first group, which needs no page of its own) and three more groups
    assert groups == ["chapter-format", *(f"chapter-format~{i}" for i in range(1, 4))], groups

    actions = defs / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    assert OLD in text
    actions.write_text(text.replace(OLD, NEW), encoding="utf-8")
    lines: list[str] = []
    build(defs, out, progress=lines.append)

    rendered = sorted(k.rsplit("-", 1)[0] for k in parts.keys() - before)
    # one group of chapter 4's action list (the book starts each group on a page) and one batch of entries
    assert len(rendered) == 2 and re.fullmatch(r"chapter-format(~\d+)?", rendered[0]), rendered
    assert re.fullmatch(r"entries-actions~\d+", rendered[1]), rendered  # nothing else was laid out again
    assert not any("unchanged" in line for line in lines if "rulebook" in line or "action lists" in line)
    # the scenarios never read a flavour text: they are not played again
    assert any("verified scenarios: unchanged" in line for line in lines), lines

    # the same entry grows by some lines: the lists' frames (cheap: boxes) are laid out again, the entry's
    # batch and book group too; nothing else but what shows page numbers that moved (covers, contents, index)
    before = parts.keys()
    longer = NEW.replace("だぜ。」", "だぜ。" + "防壁を並べ、兵士を出し、攻撃する。" * 6 + "」")
    actions.write_text(text.replace(OLD, longer), encoding="utf-8")
    build(defs, out, progress=lambda _: None)
    rendered = sorted(k.rsplit("-", 1)[0] for k in parts.keys() - before)
    frames = [k for k in rendered if k.startswith("frame-")]
    assert frames == ["frame-all", "frame-lite", "frame-mast", "frame-pro", "frame-std"], rendered
    others = [k for k in rendered if not k.startswith("frame-")]
    assert all(re.fullmatch(r"entries-actions~\d+|chapter-format~\d+|chapter-sakuin|front|cover-\w+|folio", k)
               for k in others), rendered
    assert len([k for k in others if k.startswith("entries-")]) == 1, rendered

    new, old = re.sub(r"\s+", "", NEW.removesuffix("」")), re.sub(r"\s+", "", OLD)  # the edits' common start
    pdfs = [out / "blackpoker.pdf", out / "blackpoker-booklet.pdf",
            *sorted((out / "actionlist" / "pdf").glob("blackpoker-*.pdf"))]
    assert len(pdfs) == 2 + 3 * 6  # the book and its booklet; six lists, each A5, 2-up and booklet
    for pdf in pdfs:
        if "-extra" in pdf.name:  # エクストラ's own list shows no format action
            continue
        shown = _text(pdf)
        assert new in shown and old not in shown, pdf.name
    for page in (out / "format.html", out / "actionlist" / "html" / "all.html"):
        html = page.read_text(encoding="utf-8")
        assert longer in html and OLD not in html, page.name

    cold = tmp_path / "cold"
    build(defs, cold, progress=lambda _: None, cache_dir=tmp_path / "cold-cache")
    assert _snapshot(out) == _snapshot(cold)
