"""The assembled site (rulebook + action lists + play page + tutorial) has no dangling link or anchor and loads nothing remote."""

from __future__ import annotations

import re
import shutil
import urllib.parse
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.paths import DEFINITIONS, prose_folder
from blackpoker.pipeline.playpage import build_play
from blackpoker.pipeline.rulebook import BOOKLET_NAME, PDF_NAME
from blackpoker.pipeline.tutorialpage import build_tutorial
from blackpoker.render.actionlist.html import build_html
from blackpoker.render.actionlist.pdf import pdf_paths
from blackpoker.render.actionlist.view import list_pages

# Furo's footer credit is a plain link, not a resource the page loads.
ALLOWED_REMOTE = {"https://github.com/pradyunsg/furo"}


@pytest.fixture(scope="module")
def site(built_rulebook: tuple[Path, Path], tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, set[Path]]:
    out = tmp_path_factory.mktemp("site") / "site"
    shutil.copytree(built_rulebook[0], out)  # the shared build stays as it was
    rules = load_rules()
    build_html(rules, out)
    build_play(rules, out, runtime_too=False)  # the rulebook's examples link to it; the runtime has no link
    build_tutorial(rules, out, prose_folder(DEFINITIONS))  # the hub, the rulebook's top and the play page link to it
    # PDFs are slow and tested elsewhere; here they only need to be the files the links expect.
    pdfs = {out / PDF_NAME, out / BOOKLET_NAME}
    for page in list_pages(rules):
        pdfs.update(pdf_paths(out, page))
    return out, {p.resolve() for p in pdfs}


def test_every_link_and_anchor_resolves(site: tuple[Path, set[Path]]) -> None:
    out, pdfs = site
    ids: dict[Path, set[str]] = {}
    problems = []
    pages = sorted(out.rglob("*.html"))
    assert len(pages) > 15
    for page in pages:
        text = page.read_text(encoding="utf-8")
        for href in re.findall(r'(?:href|src)="([^"]+)"', text):
            if re.match(r"^[a-z]+:", href) and not href.startswith("file:"):
                if href not in ALLOWED_REMOTE and not href.startswith(("mailto:", "javascript:", "data:")):
                    problems.append(f"{page.relative_to(out)}: remote {href}")
                continue
            url = urllib.parse.urlsplit(href)
            target = page if not url.path else (page.parent / urllib.parse.unquote(url.path)).resolve()
            if url.path and not target.exists() and target not in pdfs:
                problems.append(f"{page.relative_to(out)}: missing {href}")
                continue
            if url.fragment.startswith("lesson=") and target.name == "tutorial.html":  # the tutorial's own route
                if f'data-lesson="{url.fragment.removeprefix("lesson=")}"' not in target.read_text(encoding="utf-8"):
                    problems.append(f"{page.relative_to(out)}: no lesson for {href}")
                continue
            if url.fragment and target.suffix == ".html" and target.exists():
                if target not in ids:
                    ids[target] = set(re.findall(r'\bid="([^"]+)"', target.read_text(encoding="utf-8")))
                if urllib.parse.unquote(url.fragment) not in ids[target]:
                    problems.append(f"{page.relative_to(out)}: no anchor for {href}")
    assert problems == []


def test_the_appendix_links_every_list(site: tuple[Path, set[Path]]) -> None:
    out, _ = site
    appendix = (out / "appendix.html").read_text(encoding="utf-8")
    for target in ("actionlist/html/all.html", "actionlist/pdf/blackpoker-all.pdf",
                   "actionlist/pdf/blackpoker-all-2up.pdf", PDF_NAME, BOOKLET_NAME):
        assert target in appendix
