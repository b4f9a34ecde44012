"""The site's own pages (the play page, the tutorial, 版の違い) open with one shared head (templates/shared/head.html),
rendered by one environment that escapes everything and refuses an undefined name; its edits reach every such page
(the build steps that write them list the shared folder as an input)."""

from __future__ import annotations

import re

import pytest
from jinja2 import UndefinedError

from blackpoker.core.paths import TEMPLATES
from blackpoker.pipeline.build import CHANGES_INPUTS, STEPS
from blackpoker.render.pages import page_environment

PAGES = ("play/index.html", "play/tutorial.html", "diff/diff.html")
HEAD = ('<meta charset="utf-8">', '<meta name="viewport" content="width=device-width, initial-scale=1">',
        '<meta name="color-scheme" content="light dark">')


@pytest.mark.parametrize("page", PAGES)
def test_each_page_includes_the_shared_head_and_repeats_none_of_it(page: str) -> None:
    text = (TEMPLATES / page).read_text(encoding="utf-8")
    assert text.count('{% include "head.html" %}') == 1
    for line in (*HEAD, "<title>", "{{ bp_fonts }}"):
        assert line not in text, line


def test_the_head_renders_escaped_and_strict() -> None:
    env = page_environment(TEMPLATES / "play")
    page = env.from_string('{% with title = t, icon = "a.svg" %}{% include "head.html" %}{% endwith %}')
    html = page.render(t="<b>対戦</b>")
    assert all(line in html for line in HEAD)
    assert "<title>&lt;b&gt;対戦&lt;/b&gt;</title>" in html and '<link rel="icon" href="a.svg"' in html
    assert re.search(r"<style>.*--bp-font-sans", html, re.S), "the one font stack"
    with pytest.raises(UndefinedError):
        env.from_string('{% include "head.html" %}').render()


def test_the_steps_that_write_those_pages_are_keyed_by_the_shared_folder() -> None:
    inputs = {step.name: step.inputs for step in STEPS}
    assert "templates/shared" in inputs["play"] and "templates/shared" in inputs["tutorial"]
    assert "templates/shared" in CHANGES_INPUTS
