"""Every page on a 390×844 phone and a 1280×900 desktop, in Chromium (issue 22, item 1): the page never scrolls
sideways; every board is whole in its box (no sideways scrolling); every figure is whole, or on a phone, where it
must scroll, says so (its cue shows); on the desktop nothing is wider than the column; no text of a figure or a
board under 11 px.

``BLACKPOKER_TEST_SITE=DIR`` runs it over an already built site (the whole of ``make``'s output) instead."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blackpoker import load_rules
from blackpoker.render.actionlist.html import build_html
from browsers import MARKS, module_browser

pytestmark = [*MARKS, pytest.mark.build, pytest.mark.xdist_group("rulebook")]  # reads the shared rulebook build

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
def browser() -> Iterator[Any]:
    yield from module_browser()


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory, request: pytest.FixtureRequest) -> Path:
    given = os.environ.get("BLACKPOKER_TEST_SITE")
    if given:
        return Path(given)
    built: tuple[Path, Path] = request.getfixturevalue("built_rulebook")
    copy = tmp_path_factory.mktemp("layout") / "site"
    shutil.copytree(built[0], copy)
    build_html(load_rules(), copy / "actionlist" / "html")
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
