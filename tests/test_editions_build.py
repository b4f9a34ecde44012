"""The site publishes every edition: 第8.1版 at the root as before, 第8.2版 under v8.2/ with its action lists
(HTML and PDF), its JSON and its verified scenarios, a switcher on every list page, and 版の違い between them; an
edit in 第8.1版 runs nothing of 第8.2版. The run's shared full build (`built_site`: definitions/ with editions/
beside it), then v8.1 edited into another edition from its cache (`other_edition`, which test_other_edition_build.py
reads too)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from htmlcheck import ids_of
from sites import BuiltSite, OtherEdition

pytestmark = [pytest.mark.slow, pytest.mark.build]  # full builds of both editions


@pytest.fixture
def site(built_site: BuiltSite) -> tuple[Path, list[str]]:
    return built_site.site, list(built_site.lines)


def test_v81_at_the_root_and_v82_in_its_folder(site: tuple[Path, list[str]]) -> None:
    out, lines = site
    assert (out / "index.html").is_file() and (out / "actionlist" / "html" / "all.html").is_file()
    assert json.loads((out / "blackpoker-rules.json").read_text(encoding="utf-8"))["ruleset"]["version"] == "v8.1"
    v82 = out / "v8.2"
    assert json.loads((v82 / "blackpoker-rules.json").read_text(encoding="utf-8"))["ruleset"]["version"] == "v8.2"
    for page in ("lite", "std", "pro", "mast", "extra", "all"):
        assert (v82 / "actionlist" / "html" / f"{page}.html").is_file()
        assert (v82 / "actionlist" / "pdf" / f"blackpoker-{page}.pdf").is_file()
    assert not (v82 / "index.html").exists()  # no prose of its own: no rulebook
    assert any("verified scenarios [第8.2版]: 102 scenarios pass" in line for line in lines), lines
    assert any(line.startswith("warning: アクション 停戦 (ceasefire): its wording changed") for line in lines)


def test_every_list_page_switches_edition_and_links_the_changes(site: tuple[Path, list[str]]) -> None:
    out, _ = site
    for edition, up in (("", "../../"), ("v8.2/", "../../../")):
        for page in ("mast", "all"):
            text = (out / edition / "actionlist" / "html" / f"{page}.html").read_text(encoding="utf-8")
            assert f'href="{up}actionlist/html/{page}.html"' in text
            assert f'href="{up}v8.2/actionlist/html/{page}.html"' in text
            assert f'href="{up}changes/v8.1-v8.2.html"' in text
            assert f'href="{up}index.html">ルールブック' in text  # the one rulebook, at the root
    v82 = (out / "v8.2" / "actionlist" / "html" / "all.html").read_text(encoding="utf-8")
    assert ids_of(v82)["act-sword-rain"] == 1 and "サイズがキーカードの合計値以下" in v82
    assert "entry-book" not in v82  # v8.1's rulebook is not v8.2's text


def test_the_changes_page_links_into_v82(site: tuple[Path, list[str]]) -> None:
    out, _ = site
    page = (out / "changes" / "v8.1-v8.2.html").read_text(encoding="utf-8")
    assert "版の違い 第8.1版 → 第8.2版" in page and "文言の変更 20箇所" in page
    assert 'href="../v8.2/actionlist/html/all.html#act-ceasefire"' in page
    assert (out / "changes" / "../v8.2/actionlist/html/all.html").resolve().is_file()


def test_an_edit_in_v81_runs_nothing_of_v82(other_edition: OtherEdition) -> None:
    """v8.1 edited (a wording changed, an action added, official ids, ``simulated: false``), both built from the
    cache of their build: v8.1's steps run again, v8.2's are all reused."""
    lines = list(other_edition.lines)
    print("\n".join(lines), f"\nafter an edit in v8.1: {other_edition.seconds:.1f} s")
    v82 = [line for line in lines if "[第8.2版]" in line]
    assert len(v82) == 3 and all(line.startswith("  = ") and "unchanged" in line for line in v82), lines
    v81 = [line for line in lines if line.startswith("  ✓ ") and "[第8.2版]" not in line]
    assert any(line.startswith("  ✓ action lists (HTML + PDF)") for line in v81), lines  # it did run v8.1's
    page = (other_edition.site / "changes" / "v8.1-v8.2.html").read_text(encoding="utf-8")  # from the edited v8.1
    assert "メテオ" in page.partition('<h2 id="removed">')[2].partition("</ul>")[0]
