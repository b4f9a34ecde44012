"""Official links in a real browser (Debian Chromium through Playwright): an official anchor scrolls to its
entry, and a redirect page at an official path lands on the page that shows the entry, fragment kept."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import TYPE_CHECKING

import pytest

from blackpoker import load_rules
from blackpoker.render.actionlist.html import build_html
from blackpoker.render.officialpaths import write_redirects
from browsers import MARKS

if TYPE_CHECKING:
    from playwright.sync_api import Browser

pytestmark = [
    *MARKS,
]

# the top of the element a fragment names (its entry, for an empty official anchor), once the page settled
TOP = """() => { const e = document.getElementById(decodeURIComponent(location.hash.slice(1)));
  return e ? (e.closest('article.entry') || e).getBoundingClientRect().top : null; }"""


@pytest.fixture(scope="module")
def site(built_rulebook: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("official") / "site"
    shutil.copytree(built_rulebook[0], out)
    rules = load_rules()
    build_html(rules, out)
    write_redirects(rules, out)
    return out


@pytest.mark.parametrize(("path", "lands"), [
    ("actionlist/html/all.html#act-nextGeneration", "actionlist/html/all.html#act-nextGeneration"),
    ("actionlist/html/v6-ex.html#trump-s2", "actionlist/html/extra.html#trump-s2"),
    ("auto/actionlist.html#act-nextgeneration", "format.html#act-nextgeneration"),
    ("auto/actionlist.html#act-trapcounter", "frame.html#act-trapcounter"),  # a frame action: the frame chapter
    ("auto/framelist.html#frame-entry20", "frame.html#frame-entry20"),
])
def test_an_official_link_lands_on_its_entry(browser: Browser, site: Path, path: str, lands: str) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda e: errors.append(str(e)))
    page.goto((site / path.split("#")[0]).as_uri() + "#" + path.split("#")[1])
    page.wait_for_url((site / lands.split("#")[0]).as_uri() + "#" + lands.split("#")[1])
    page.wait_for_load_state("load")
    # scrolled to, near the top of the window, once fonts and pictures have settled
    settled = page.wait_for_function(f"() => {{ const top = ({TOP})(); return top !== null && top >= 0 && top < 450; }}",
                                     timeout=10_000)
    context.close()
    assert settled and not errors, errors
