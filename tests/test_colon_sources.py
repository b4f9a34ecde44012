"""One colon style (issue 22, item 7): the book sets an ASCII colon, and so does every page. The rulebook's pages
and the book are scanned after a build (test_rulebook.py); the play page, the tutorial and the action lists are
written from these sources, so none of them may spell the full-width colon. (Text from the definitions goes
through core/typography.py, which sets its colons; the official files' own 「完全公開：」 is read in official/.)"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
SOURCES = ("templates", "tutorial", "source/_static", "tools/blackpoker/play", "tools/blackpoker/sim",
           "tools/blackpoker/render", "tools/blackpoker/pipeline", "tools/blackpoker/sphinxext")
TEXT = {".py", ".html", ".js", ".css", ".yaml", ".json", ".j2", ".svg"}


def test_no_page_source_spells_the_full_width_colon() -> None:
    found = []
    for folder in SOURCES:
        for path in sorted((ROOT / folder).rglob("*")):
            if path.suffix in TEXT and path.is_file() and "：" in (text := path.read_text(encoding="utf-8")):
                line = text[:text.index("：")].count("\n") + 1
                found.append(f"{path.relative_to(ROOT)}:{line}")
    assert not found, "a full-width colon where readers see an ASCII one: " + ", ".join(found)
