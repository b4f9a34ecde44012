"""The real build, end to end: an edit re-renders only what shows it, and the result equals a cold build.

Slow (three full builds), but it is the guarantee behind the caches: editing one action's flavour text
renders one group of action-list entries and one group of the book's chapter 4 again, every output that shows the text
shows the new one, and the site is byte for byte the site a build from nothing makes.
"""

from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

import pytest

from blackpoker.build import build
from blackpoker.paths import DEFINITIONS
from blackpoker.pdfparts import PartCache

OLD = "「防壁の次は兵士を出します。これが戦術の基本です。」"
NEW = "「防壁の次は兵士を出します。これが戦術の基本だぜ。」"


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file()}


def _text(pdf: Path) -> str:
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    return re.sub(r"\s+", "", text)


@pytest.mark.slow
@pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed")
def test_an_entry_edit_rerenders_only_what_shows_it_and_equals_a_cold_build(tmp_path: Path) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None)
    parts = PartCache(tmp_path / ".cache" / "parts")
    before = parts.keys()
    assert {k.rsplit("-", 1)[0] for k in before} >= {"chapter-format", "entries-actions", "frame-all", "front"}
    groups = sorted(k.rsplit("-", 1)[0] for k in before if k.startswith("chapter-format"))
    assert groups == ["chapter-format", *(f"chapter-format~{i}" for i in range(1, 5))], groups  # 4 groups

    actions = defs / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    assert OLD in text
    actions.write_text(text.replace(OLD, NEW), encoding="utf-8")
    lines: list[str] = []
    build(defs, out, progress=lines.append)

    rendered = sorted(k.rsplit("-", 1)[0] for k in parts.keys() - before)
    # one group of chapter 4's action list (the book starts each group on a page) and one group of entries
    assert len(rendered) == 2 and re.fullmatch(r"chapter-format(~\d+)?", rendered[0]), rendered
    assert rendered[1] == "entries-actions", rendered  # nothing else was laid out again
    assert not any("unchanged" in line for line in lines if "rulebook" in line or "action lists" in line)

    new, old = re.sub(r"\s+", "", NEW), re.sub(r"\s+", "", OLD)
    pdfs = [out / "blackpoker.pdf", out / "blackpoker-booklet.pdf",
            *sorted((out / "actionlist" / "pdf").glob("blackpoker-*.pdf"))]
    assert len(pdfs) == 17
    for pdf in pdfs:
        shown = _text(pdf)
        assert new in shown and old not in shown, pdf.name
    for page in (out / "format.html", out / "actionlist" / "html" / "all.html"):
        html = page.read_text(encoding="utf-8")
        assert NEW in html and OLD not in html, page.name

    cold = tmp_path / "cold"
    build(defs, cold, progress=lambda _: None, cache_dir=tmp_path / "cold-cache")
    assert _snapshot(out) == _snapshot(cold)
