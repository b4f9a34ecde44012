"""Every page on a 390×844 phone and a 1280×900 desktop, in Chromium (issue 22, item 1): the page never scrolls
sideways; every board is whole in its box (no sideways scrolling); every figure is whole, or on a phone, where it
must scroll, says so (its cue shows); on the desktop nothing is wider than the column; no text of a figure or a
board under 11 px.

``BLACKPOKER_TEST_SITE=DIR`` runs it over an already built site (the whole of ``make``'s output) instead."""

from __future__ import annotations

import os
import shutil
from pathlib import Path
from typing import Any

import pytest

from blackpoker import load_rules
from blackpoker.render.actionlist.html import build_html
from browsers import MARKS

pytestmark = [*MARKS, pytest.mark.build]  # reads the shared rulebook build (its module fixtures keep its tests together)

MEASURE = """() => {
  const vw = document.documentElement.clientWidth, out = {page: document.documentElement.scrollWidth, vw, bad: []};
  const column = document.querySelector('article') || document.querySelector('main') || document.body;
  const col = column.getBoundingClientRect();
  const scale = svg => svg.getBoundingClientRect().width / (svg.viewBox.baseVal?.width || svg.getBoundingClientRect().width);
  const smallest = svg => Math.min(...[...svg.querySelectorAll('text')].map(t =>
      parseFloat(t.getAttribute('font-size') || getComputedStyle(t).fontSize) * scale(svg)));
  for (const svg of document.querySelectorAll('svg.bp-board')) {
    const box = svg.closest('.bp-figure-scroll') || svg.parentElement, r = svg.getBoundingClientRect();
    const name = svg.querySelector('title')?.textContent;
    if (box.scrollWidth > box.clientWidth + 1 || r.right > vw + 0.5) out.bad.push(['board cut', name, Math.round(r.width)]);
    if (smallest(svg) < 10.99) out.bad.push(['board text', name, smallest(svg)]);
  }
  for (const fig of document.querySelectorAll('figure.bp-figure')) {
    const svg = fig.querySelector('svg'), box = fig.querySelector('.bp-figure-scroll');
    if (!svg || !box) continue;
    const scrolls = box.scrollWidth > box.clientWidth + 1, r = svg.getBoundingClientRect();
    const cue = fig.querySelector('.bp-scroll-cue');
    const cued = cue && cue.getBoundingClientRect().height > 0;  // on a phone a figure may scroll if it says so
    if (scrolls && (vw > 1000 || !cued)) out.bad.push(['figure cut', fig.id, Math.round(r.width), Math.round(box.clientWidth)]);
    if (!scrolls && r.right > Math.min(vw, col.right) + 0.5) out.bad.push(['figure past the column', fig.id, Math.round(r.right)]);
    if (smallest(svg) < 10.99) out.bad.push(['figure text', fig.id, smallest(svg)]);
  }
  return out;
}"""


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    given = os.environ.get("BLACKPOKER_TEST_SITE")
    if given:
        return Path(given)
    built: tuple[Path, Path] = request.getfixturevalue("built_rulebook")
    copy = tmp_path_factory.mktemp("layout") / "site"
    shutil.copytree(built[0], copy)
    build_html(load_rules(), copy)  # the action lists' step: actionlist/index.html (the hub) and actionlist/html/
    return copy


def _pages(site: Path) -> list[Path]:
    pages = sorted(p for p in site.glob("*.html") if p.name not in ("genindex.html",))
    return pages + sorted((site / "actionlist").glob("**/*.html"))


@pytest.mark.parametrize(("width", "height"), [(390, 844), (1280, 900)])
def test_every_page_fits_its_screen(browser: Any, site: Path, width: int, height: int) -> None:
    context = browser.new_context(viewport={"width": width, "height": height})
    page = context.new_page()
    problems, boards = [], 0
    for path in _pages(site):
        page.goto(path.as_uri())
        found = page.evaluate(MEASURE)
        boards += page.locator("svg.bp-board").count()
        if found["page"] > width:
            problems.append((path.name, "the page scrolls sideways", found["page"]))
        problems += [(path.name, *bad) for bad in found["bad"]]
    context.close()
    assert boards >= 100  # the chapters' and the report's boards were measured
    assert not problems, "\n".join(map(str, problems[:40])) + f"\n({len(problems)} in all)"


STYLES = """() => {
  const pick = sel => [...document.querySelectorAll(sel)].filter(e => e.getClientRects().length);
  const style = e => getComputedStyle(e);
  return {
    lineBreak: style(document.documentElement).lineBreak,
    headings: pick('h1, h2, h3, th, td, figcaption').map(e => style(e).wordBreak),
    paragraphs: pick('article p').slice(0, 20).map(e => style(e).textWrap || style(e).textWrapStyle),
    font: style(document.body).fontFamily,
  };
}"""


def test_japanese_typography(browser: Any, site: Path) -> None:
    """Issue 22, items 6 and 7: strict line breaking, headings and cells that break between phrases only, paragraphs
    that avoid a lone last line, and a Japanese font first in the stack, on every rulebook page."""
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    for path in sorted(site.glob("*.html")):
        page.goto(path.as_uri())
        found = page.evaluate(STYLES)
        assert found["lineBreak"] == "strict", path.name
        assert set(found["headings"]) <= {"auto-phrase"}, (path.name, set(found["headings"]))
        assert all("pretty" in w for w in found["paragraphs"]), (path.name, found["paragraphs"][:3])
        assert found["font"].lstrip('"').startswith("BIZ UDPGothic"), (path.name, found["font"])
    context.close()


def _luminance(css: str) -> float:
    r, g, b = (int(x) for x in css[css.index("(") + 1:css.index(")")].split(",")[:3])
    return (0.2126 * r + 0.7152 * g + 0.0722 * b) / 255


def test_a_dark_device_gets_dark_pages_everywhere(browser: Any, site: Path) -> None:
    """Issue 22, item 6: the rulebook, the list hub and every list follow a dark device (dark ground, light
    text), not only the rulebook."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    lists = sorted((site / "actionlist" / "html").glob("*.html"))
    assert lists, "no action list was built"
    pages = [site / "index.html", site / "actionlist" / "index.html", *lists]
    for path in pages:
        page.goto(path.as_uri())
        ground, ink = page.evaluate("""() => {
            const paint = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
                if (c !== 'rgba(0, 0, 0, 0)') return c; } return 'rgb(255, 255, 255)'; };
            const p = document.querySelector('main p, article p, .entry p, p') || document.body;
            return [paint(p), getComputedStyle(p).color]; }""")
        assert _luminance(ground) < 0.25 and _luminance(ink) > 0.45, (path.name, ground, ink)
    context.close()


def test_the_balance_report_is_dark_on_a_dark_phone_with_its_plots_on_paper(browser: Any, tmp_path: Path) -> None:
    """Issue 22, item 8: the balance report follows a dark device (its plots keep their white paper) and a phone
    never scrolls the page sideways."""
    from click.testing import CliRunner

    from blackpoker.cli.main import cli
    out = CliRunner().invoke(cli, ["sim", "balance", "--regulation", "lite", "--policies", "greedy,random",
                                   "--games", "2", "--workers", "1", "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme="dark")
    page = context.new_page()
    page.goto((tmp_path / "report.html").as_uri())
    ground, ink, plot, wide = page.evaluate("""() => [getComputedStyle(document.body).backgroundColor,
        getComputedStyle(document.body).color, getComputedStyle(document.querySelector('figure svg')).backgroundColor,
        document.documentElement.scrollWidth]""")
    context.close()
    assert _luminance(ground) < 0.25 and _luminance(ink) > 0.6 and plot == "rgb(255, 255, 255)", (ground, ink, plot)
    assert wide <= 390


PLOT_TEXT = """() => [...document.querySelectorAll('figure svg')].map(svg => {
  // matplotlib draws each text as glyph paths in a group scaled by its size / 100 (svg.fonttype = path)
  const shown = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
  const sizes = [...svg.querySelectorAll('g[transform*="scale("]')].map(g =>
      parseFloat(/scale\\(([0-9.]+)/.exec(g.getAttribute('transform'))[1]) * 100 * shown);
  return [svg.closest('figure').querySelector('figcaption')?.textContent || '', Math.min(...sizes), sizes.length];
})"""


def test_the_balance_report_s_plot_labels_are_at_least_11_px_on_a_phone(browser: Any, tmp_path: Path) -> None:
    """Issue 22, item 8: the plots' labels (axes, ticks, legends, names) read at 11 px or more as a 390 px phone
    shows them (they were 6 px: a 6.4-inch plot shrunk to the column)."""
    from click.testing import CliRunner

    from blackpoker.cli.main import cli
    out = CliRunner().invoke(cli, ["sim", "balance", "--regulation", "lite", "--regulation", "mast+extra",
                                   "--policies", "greedy,random", "--games", "2", "--workers", "1",
                                   "--out", str(tmp_path)])
    assert out.exit_code == 0, out.output
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((tmp_path / "report.html").as_uri())
    plots = page.evaluate(PLOT_TEXT)
    context.close()
    assert len(plots) >= 5 and all(count > 5 for _, _, count in plots), plots
    small = [(name, round(size, 1)) for name, size, _ in plots if size < 11]
    assert small == [], small


LOOK = """() => {
  const paint = e => { for (; e; e = e.parentElement) { const c = getComputedStyle(e).backgroundColor;
      if (c !== 'rgba(0, 0, 0, 0)') return c; } return 'rgb(255, 255, 255)'; };
  const head = document.querySelector('.mobile-header') || document.querySelector('.topbar');
  const style = getComputedStyle(head);
  return {page: paint(document.body),
          header: [paint(head), style.color, style.borderBottomWidth, style.borderBottomColor],
          font: getComputedStyle(document.body).fontFamily};
}"""


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_action_lists_have_the_rulebook_s_header_background_and_fonts(browser: Any, site: Path, scheme: str) -> None:
    """Issue 22, item 6: the hub and every list show the rulebook's page colour, its header's colours and rule, and
    its font stack (render/fonts.py), light and dark, on a phone and a desktop (they had a beige page under a
    black bar)."""
    pages = [site / "actionlist" / "index.html", *sorted((site / "actionlist" / "html").glob("*.html"))]
    for width in (390, 1280):
        context = browser.new_context(viewport={"width": width, "height": 900}, color_scheme=scheme)
        page = context.new_page()
        page.goto((site / "index.html").as_uri())
        book = page.evaluate(LOOK)
        for path in pages:
            page.goto(path.as_uri())
            assert page.evaluate(LOOK) == book, (path.name, width)
        context.close()


TITLE_LINES = """(edition) => [...document.querySelectorAll('.sidebar-brand-text')].map(el => {
  // the line each character of the title is set on (its top), read from a range over each text node's characters
  const tops = [];
  const walk = document.createTreeWalker(el, NodeFilter.SHOW_TEXT);
  for (let node = walk.nextNode(); node; node = walk.nextNode()) {
    for (let i = 0; i < node.length; i++) {
      const range = document.createRange(); range.setStart(node, i); range.setEnd(node, i + 1);
      const rect = range.getClientRects()[0];
      if (rect) tops.push([node.data[i], Math.round(rect.top)]);
    }
  }
  const text = tops.map(t => t[0]).join('');
  const at = text.indexOf(edition);
  return [text, at < 0 ? [] : [...new Set(tops.slice(at, at + edition.length).map(t => t[1]))]];
})"""


@pytest.mark.parametrize("width", [390, 1280])
def test_the_sidebar_title_never_breaks_inside_the_edition(browser: Any, site: Path, width: int) -> None:
    """Issue 22, item 7: the sidebar's title broke as 「第｜8.1版」; the edition is one word, on one line."""
    edition = load_rules().edition.edition
    context = browser.new_context(viewport={"width": width, "height": 900})
    page = context.new_page()
    page.goto((site / "index.html").as_uri())
    if width < 1000:  # furo's drawer: open it, so the title is laid out as a reader sees it
        page.click("label.toggle-button[for='__navigation'], .nav-overlay-icon", timeout=5000)
    found = page.evaluate(TITLE_LINES, edition)
    context.close()
    assert found and all(edition in text and len(lines) == 1 for text, lines in found), found
