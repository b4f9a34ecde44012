"""Every figure of the rulebook on a 390×844 phone, light and dark, in Chromium (issue 14, item 4): no text smaller
than 11 px (a wide figure scrolls sideways in its own box, the page never does), and in dark mode each figure
keeps its paper, so black lines and arrows stay visible (screenshot pixels)."""

from __future__ import annotations

import io
from pathlib import Path
from typing import Any

import pytest

from browsers import MARKS

PAGES = ("common", "core", "frame")

pytestmark = [
    *MARKS,
]

MEASURE = """() => [...document.querySelectorAll('figure.bp-figure svg')].map(svg => {
    const box = svg.getBoundingClientRect();
    const scale = box.width / svg.viewBox.baseVal.width;
    const sizes = [...svg.querySelectorAll('text')].map(t => parseFloat(t.getAttribute('font-size')
        || getComputedStyle(t).fontSize));
    const scroller = svg.closest('.bp-figure-scroll');
    return {id: svg.closest('figure').id, smallest: Math.min(...sizes) * scale,
            background: getComputedStyle(svg).backgroundColor,
            scrolls: scroller.scrollWidth > scroller.clientWidth + 1, width: box.width};
})"""


@pytest.fixture(scope="module")
def site(built_rulebook: tuple[Path, Path]) -> Path:
    """The shared build's rulebook, as it is (the tests only read it: no copy)."""
    return built_rulebook[0]


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_figure_is_legible_on_a_phone(browser: Any, site: Path, scheme: str) -> None:
    from PIL import Image, ImageStat

    context = browser.new_context(viewport={"width": 390, "height": 844}, color_scheme=scheme)
    page = context.new_page()
    seen = 0
    for name in PAGES:
        page.goto((site / f"{name}.html").as_uri())
        assert page.evaluate("document.documentElement.scrollWidth") <= 390, name  # the page never scrolls sideways
        for fig in page.evaluate(MEASURE):
            seen += 1
            assert fig["smallest"] >= 11 - 0.01, (name, fig)
            if scheme == "dark":
                assert fig["background"] == "rgb(255, 255, 255)", (name, fig)
            svg = page.locator(f"#{fig['id']} svg")
            svg.scroll_into_view_if_needed()
            clip = svg.evaluate("""svg => {  // the part of the figure one sees: its box, the screen
                const a = svg.getBoundingClientRect(), b = svg.closest('.bp-figure-scroll').getBoundingClientRect();
                const x = Math.max(a.left, b.left, 0), y = Math.max(a.top, b.top, 0);
                return {x, y, width: Math.min(a.right, b.right, innerWidth) - x,
                        height: Math.min(a.bottom, b.bottom, innerHeight) - y};
            }""")
            shot = Image.open(io.BytesIO(page.screenshot(clip=clip))).convert("L")
            # drawn for paper: on a light ground in both schemes, with dark lines and text on it
            assert ImageStat.Stat(shot).mean[0] > 130, (name, fig["id"], scheme)
            darkest = shot.getextrema()[0]  # one band ("L"): (min, max)
            assert not isinstance(darkest, tuple) and darkest < 90, (name, fig["id"], scheme)
    context.close()
    assert seen >= 9  # 2.1, 2.2, 2.3, the two flows of chapter 6, five frame layouts


def test_a_figure_wider_than_a_phone_scrolls_sideways_in_its_box(browser: Any, site: Path) -> None:
    context = browser.new_context(viewport={"width": 390, "height": 844})
    page = context.new_page()
    page.goto((site / "core.html").as_uri())
    flows = {f["id"]: f for f in page.evaluate(MEASURE)}
    assert flows["fig-core-flow"]["scrolls"] and flows["fig-core-flow"]["width"] > 390
    context.close()
