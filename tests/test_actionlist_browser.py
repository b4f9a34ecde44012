"""The full list in a real browser (Debian Chromium through Playwright): filters, deep links, phone width."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING
from urllib.parse import quote

import pytest

from blackpoker import load_rules
from blackpoker.core.model import Rules
from blackpoker.render.actionlist.html import build_html
from browsers import MARKS

if TYPE_CHECKING:
    from playwright.sync_api import Browser, Page

pytestmark = [
    *MARKS,
]

VISIBLE = "els => els.filter(e => e.checkVisibility()).map(e => e.id)"


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def all_html(rules: Rules, tmp_path_factory: pytest.TempPathFactory) -> str:
    out = tmp_path_factory.mktemp("site")
    build_html(rules, out)
    return (out / "actionlist" / "html" / "all.html").resolve().as_uri()


@pytest.fixture()
def page(browser: Browser) -> Iterator[Page]:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    pg = context.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    yield pg
    context.close()
    assert not errors, errors


def visible(pg: Page) -> set[str]:
    return set(pg.eval_on_selector_all("article.entry", VISIBLE))


def format_entries(rules: Rules, fmt: str) -> set[str]:
    return ({f"act-{a.id}" for a in rules.actions_in_format(fmt)} | {f"char-{c.id}" for c in rules.characters_in_format(fmt)}
            | {f"fog-{f.id}" for f in rules.fogs_in_format(fmt)})


def frame_entries(rules: Rules, frame_id: str) -> set[str]:
    frame = rules.frame(frame_id)
    return ({f"act-{a}" for a in frame.actions} | {f"fog-{f}" for f in frame.fogs} | {f"trump-{t}" for t in frame.trumps})


def test_deep_link_by_id_shows_exactly_the_format(rules: Rules, all_html: str, page: Page) -> None:
    page.goto(all_html + "?format=lite")
    assert visible(page) == format_entries(rules, "lite")
    assert page.text_content("#active-filter") == rules.format("lite").name
    assert page.text_content("#visible-count") == str(len(format_entries(rules, "lite")))


def test_deep_link_with_japanese_names(rules: Rules, all_html: str, page: Page) -> None:
    mast, extra = rules.format("mast"), rules.frame("extra")
    page.goto(f"{all_html}?format={quote(mast.name)}&frame={quote(extra.name)}")
    shown = visible(page)
    added = frame_entries(rules, "extra")
    assert added and shown == format_entries(rules, "mast") | added
    # the frame adds exactly the entries that name it
    assert added == {f"act-{a.id}" for a in rules.frame_actions if "extra" in a.frames} | \
        {f"fog-{f.id}" for f in rules.frame_fogs if "extra" in f.frames} | {f"trump-{t.id}" for t in rules.trumps}
    assert page.text_content("#active-filter") == f"{mast.name} + {extra.name}"
    assert page.url.endswith("?format=mast&frame=extra")


def test_an_address_that_cannot_be_shown_says_why_on_the_page(rules: Rules, all_html: str, page: Page) -> None:
    """?format=lite&frame=extra: the Extra frame is not played in Lite (Table 3.1); the page says so instead of
    dropping the frame silently, and quotes an unknown name as text, never as markup (issue 14, item 7)."""
    lite, extra = rules.format("lite"), rules.frame("extra")
    assert "lite" not in extra.formats
    page.goto(all_html + "?format=lite&frame=extra")
    notice = page.locator("#filter-notice")
    assert notice.is_visible()
    assert f"{extra.name} は{lite.name}では使えないフレームです" in (notice.text_content() or "")
    assert visible(page) == format_entries(rules, "lite")
    page.goto(all_html + "?format=%3Cb%3Ex%3C%2Fb%3E")
    assert "フォーマット「<b>x</b>」はありません" in (page.text_content("#filter-notice") or "")
    assert page.locator("#filter-notice b").count() == 0
    page.click("[data-filter=format] button[data-value=lite]")
    assert not notice.is_visible()  # a new choice clears it
    page.goto(all_html + "?format=lite")
    assert not page.locator("#filter-notice").is_visible()


def test_clicking_filters_combines_them_and_updates_the_url(rules: Rules, all_html: str, page: Page) -> None:
    page.goto(all_html)
    # without a frame, no frame entry is shown
    assert visible(page) == {f"act-{a.id}" for a in rules.format_actions} | {f"char-{c.id}" for c in rules.characters} \
        | {f"fog-{f.id}" for f in rules.format_fogs}
    std = rules.format("std")
    page.click('[data-filter="format"] button[data-value="std"]')
    assert visible(page) == format_entries(rules, "std")
    # only the frames that support the format are offered (Table 3.1)
    for frame in rules.frames:
        enabled = page.is_enabled(f'[data-filter="frame"] button[data-value="{frame.id}"]')
        assert enabled == ("std" in frame.formats), frame.id
    page.click('[data-filter="frame"] button[data-value="pack"]')
    assert visible(page) == format_entries(rules, "std") | frame_entries(rules, "pack")
    # and a chosen frame offers only its formats
    for fmt in rules.formats:
        assert page.is_enabled(f'[data-filter="format"] button[data-value="{fmt.id}"]') == (fmt.id in rules.frame("pack").formats)
    page.click('[data-filter="category"] button[data-value="召喚"]')
    expected = {e for e in format_entries(rules, "std") | frame_entries(rules, "pack")
                if e.startswith("act-") and rules.action(e[4:]).category == "召喚"}
    assert expected and visible(page) == expected
    assert page.text_content("#active-filter") == f"{std.name} + {rules.frame('pack').name} ・ 召喚"
    # empty groups and sections are hidden, with their table-of-contents entries
    assert not page.is_visible("#actions-1")  # 基本
    assert not page.is_visible("#characters")
    assert not page.is_visible('#toc li[data-section="characters"]')
    assert page.url.endswith("?format=std&frame=pack&category=" + quote("召喚"))
    # the same state comes back from the link
    page.goto(page.url)
    assert visible(page) == expected
    page.click("#filter-reset")
    assert page.url.endswith("all.html")


def test_without_javascript_everything_is_visible(rules: Rules, all_html: str, browser: Browser) -> None:
    context = browser.new_context(java_script_enabled=False)
    pg = context.new_page()
    pg.goto(all_html + "?format=lite")
    total = len(rules.actions) + len(rules.characters) + len(rules.fogs) + len(rules.trumps)
    assert len(visible(pg)) == total
    assert not pg.is_visible("#filters")
    context.close()


def test_phone_width_has_no_horizontal_scroll(all_html: str, browser: Browser, tmp_path: Path) -> None:
    context = browser.new_context(viewport={"width": 375, "height": 812}, device_scale_factor=2)
    pg = context.new_page()
    pg.goto(all_html + "?format=mast&frame=extra#act-damage-judgement")
    assert pg.evaluate("document.documentElement.scrollWidth") <= 375
    pg.screenshot(path=str(tmp_path / "phone.png"))
    assert (tmp_path / "phone.png").stat().st_size > 0
    # the table of contents is a drawer behind the 目次 button
    assert not pg.is_visible("#toc a[href='#act-end']") or pg.evaluate(
        "document.getElementById('toc').getBoundingClientRect().left >= 375")
    pg.click("#toc-toggle")
    # it slides in (a .2 s transition): waited for until it is in the window, not a fixed 300 ms
    pg.wait_for_function("document.getElementById('toc').getBoundingClientRect().left < 375", timeout=5_000)
    context.close()


def test_a_reference_to_a_help_panel_opens_it(all_html: str, page: Page) -> None:
    page.goto(all_html)
    assert page.evaluate("document.getElementById('help-bulwark-placement').open") is False
    page.click("#act-bulwark-set a.help-ref")
    assert page.evaluate("document.getElementById('help-bulwark-placement').open") is True
    assert page.locator("#help-bulwark-placement figure svg").is_visible()
    page.goto(all_html.replace("all.html", "mast.html") + "#help-trigger")  # a link from elsewhere opens it too
    assert page.evaluate("document.getElementById('help-trigger').open") is True
