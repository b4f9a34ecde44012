"""The action lists' help panels (issue 14, item 7): 「防壁の置き方」 with its figure and 「誘発する場合」, the
rulebook's own sections shown on every list page, linked from the entries that refer to them."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.model import Action, Rules, iter_text
from blackpoker.core.paths import SOURCE
from blackpoker.render.actionlist.help import HELP_SOURCES, PANELS, HelpSourceError, help_panels
from blackpoker.render.actionlist.html import render_pages
from blackpoker.render.actionlist.view import list_pages


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def pages(rules: Rules) -> dict[str, str]:
    return render_pages(rules)


def _text(html: str) -> str:
    return re.sub(r"\s+", "", re.sub(r"<[^>]+>", "", re.sub(r"<svg\b.*?</svg>", "", html, flags=re.S)))


def test_each_panel_shows_its_rulebook_section_word_for_word(rules: Rules) -> None:
    common = (SOURCE / "common.md").read_text(encoding="utf-8")
    bulwark, trigger = help_panels(rules)
    # the section's sentences as the rulebook's source has them (the figure reference left out)
    for sentence in ("防壁を場に出す際は、次のルールに従って配置してください。", "防壁を置く際は、ライフ側に寄せて配置してください。",
                     "防壁の左右の入れ替えは行わないでください。"):
        assert sentence in common and sentence in _text(bulwark.body)
    assert "<svg" in bulwark.body and "<figcaption>防壁の置き方</figcaption>" in bulwark.body
    assert "誘発したリクエストを一時的に溜めておくバッファという領域があります。" in _text(trigger.body)
    # a flow chart is linked, not drawn; no MyST markup reaches the reader
    assert 'href="../../core.html#fig-trigger-check"' in trigger.body
    for panel in (bulwark, trigger):
        assert not re.search(r"\{\w+\}|`|numref|:::", str(panel.body)), panel.body


def test_every_list_page_has_the_panels_and_their_rulebook_links_resolve(
        rules: Rules, pages: dict[str, str], built_rulebook: tuple[Path, Path]) -> None:
    site = built_rulebook[0]
    for page in list_pages(rules):
        html = pages[f"html/{page.filename}"]
        for p in PANELS:
            assert html.count(f'id="{p.anchor}"') == 1, (page.filename, p.anchor)
        for href in re.findall(r'href="\.\./\.\./([^"#]+)#([^"]+)"', html):
            target = (site / href[0]).read_text(encoding="utf-8")
            assert f'id="{href[1]}"' in target, href


def test_an_entry_s_reference_to_a_panel_links_to_it(rules: Rules, pages: dict[str, str]) -> None:
    html = pages["html/mast.html"]
    referring = [a for a in rules.actions_in_format("mast") if any("「防壁の置き方」" in t for t in _texts(a))]
    assert len(referring) >= 3  # 防壁設置, エース召喚, 防壁補充 … as the rules print them
    article = re.search(r'<article[^>]*id="act-bulwark-set".*?</article>', html, flags=re.S)
    assert article and '<a class="help-ref" href="#help-bulwark-placement">「防壁の置き方」</a>' in article.group()
    assert html.count('class="help-ref"') == sum(sum(t.count("「防壁の置き方」") for t in _texts(a)) for a in referring)


def _texts(action: Action) -> list[str]:
    """The texts of an entry the list shows through its inline markup (effect, note)."""
    return [*iter_text(action.effect), action.note or ""]


def test_the_lists_rebuild_when_a_panel_s_section_changes() -> None:
    from blackpoker.pipeline.build import STEPS
    step = next(s for s in STEPS if s.name == "actionlists")
    assert set(HELP_SOURCES) <= set(step.inputs) and "source/common.md" in HELP_SOURCES


def test_a_section_the_panel_cannot_show_is_an_error_not_a_loss(rules: Rules, tmp_path: Path) -> None:
    src = tmp_path / "source"
    src.mkdir()
    (src / "core.md").write_text((SOURCE / "core.md").read_text(encoding="utf-8"), encoding="utf-8")
    common = (SOURCE / "common.md").read_text(encoding="utf-8")
    (src / "common.md").write_text(common.replace("(sec-2-11-3)=", "(sec-moved)="), encoding="utf-8")
    with pytest.raises(HelpSourceError, match=r"common.md: no section labelled \(sec-2-11-3\)="):
        help_panels(rules, src)
    (src / "common.md").write_text(common.replace("- 防壁の左右の入れ替えは行わないでください。",
                                                  "- 防壁の左右の入れ替えは{term}`行わない`でください。"), encoding="utf-8")
    with pytest.raises(HelpSourceError, match="a role the help panel cannot show"):
        help_panels(rules, src)
