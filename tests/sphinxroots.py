"""Sphinx's own test support (``sphinx.testing``) for the extension's directive tests: tiny Sphinx projects in
``tests/roots/test-NAME/`` (a conf.py and a few pages that use the extension), each built in a second or two
instead of the whole rulebook.

A test names its root with Sphinx's marker and takes Sphinx's ``app`` fixture (a ``SphinxTestApp``, not built yet):

    @pytest.mark.sphinx("html", testroot="tables")
    def test_x(app: SphinxTestApp) -> None:
        app.build()

The fixture copies the root into the run's temporary folder (``srcdir=`` in the marker names the copy, for a test
that edits it) and builds it there. Roots read the v8.1 definitions; a test that gives other definitions, made in
its own ``tmp_path``, takes Sphinx's ``make_app`` fixture with a copy of the root (:func:`root_copy`) and
``confoverrides={"blackpoker_definitions": …}``.

This module is loaded as a plugin by conftest.py. It takes Sphinx's fixtures one by one rather than the whole
``sphinx.testing.fixtures`` plugin, whose autouse module-scoped fixture would sit in every test of the suite and
tie each test file to one pytest-xdist worker (conftest.py groups the tests that share a module fixture).
"""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
from docutils import nodes
from sphinx.testing.fixtures import (  # noqa: F401  # fixtures: pytest finds them by name in this plugin
    DEFAULT_ENABLED_MARKERS,
    app,
    app_params,
    make_app,
    shared_result,
    sphinx_test_tempdir,
    test_params,
)
from sphinx.testing.util import SphinxTestApp

ROOTS = Path(__file__).resolve().parent / "roots"


def pytest_configure(config: pytest.Config) -> None:
    for marker in DEFAULT_ENABLED_MARKERS:  # `sphinx(...)` and `test_params(...)`, as Sphinx's plugin registers them
        config.addinivalue_line("markers", marker)


@pytest.fixture(scope="session")
def rootdir() -> Path:
    """Where Sphinx's ``app`` fixture finds ``test-NAME`` for ``testroot="NAME"``."""
    return ROOTS


def root_copy(name: str, folder: Path) -> Path:
    """A copy of the root ``test-NAME`` in ``folder`` (made), to edit and build with ``make_app(srcdir=…)``."""
    shutil.copytree(ROOTS / f"test-{name}", folder)
    return folder


def book_root(folder: Path, pages: tuple[str, ...] = ("common", "verification")) -> Path:
    """A small book in ``folder`` (made): the lists' root (every list, so every entry a page links to is there)
    with ``pages`` of the examples' root (``common``: the examples of 2.10.4; ``verification``: the report)."""
    root_copy("lists", folder)
    for name in pages:
        shutil.copy(ROOTS / "test-examples" / f"{name}.md", folder / f"{name}.md")
    index = folder / "index.md"
    text = index.read_text(encoding="utf-8")
    assert "frame\n```" in text, "tests/roots/test-lists/index.md: its toctree should end with frame"
    index.write_text(text.replace("frame\n```", "\n".join(("frame", *pages, "```"))), encoding="utf-8")
    return folder


def warnings_of(built: SphinxTestApp) -> list[str]:
    """What the build reported (warnings and errors), one message per item, without colours, with the root's
    folder left out of the locations and without the category Sphinx adds (``index.md:7: ERROR: …``)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", built.warning.getvalue()).replace(f"{built.srcdir}/", "")
    return [re.sub(r" \[[a-z.]+\]$", "", line) for line in text.splitlines() if line.strip()]


def but_the_report_s_links(warnings: list[str]) -> list[str]:
    """``warnings`` but the report's links to the sections and worked examples of the whole rulebook, which a root
    that shows one section of examples does not have (``verification.md:3: WARNING: undefined label: 'sec-6-4-2'``)."""
    return [w for w in warnings
            if not re.fullmatch(r"verification\.md:\d+: WARNING: undefined label: '(sec|ex)-[0-9a-z-]+'", w)]


def doctree(built: SphinxTestApp, docname: str = "index") -> nodes.document:
    """A page of the built root as its writer gets it: references resolved, post-transforms applied."""
    return built.env.get_and_resolve_doctree(docname, built.builder, tags=built.tags)


def page(built: SphinxTestApp, docname: str = "index") -> str:
    """A written HTML page of the built root."""
    return (Path(built.outdir) / f"{docname}.html").read_text(encoding="utf-8")


def text_of(html: str) -> str:
    """A page's text without its tags (entities left as written)."""
    return re.sub(r"<[^>]+>", "", html)


def line_of(built: SphinxTestApp, docname: str, needle: str) -> int:
    """The line of the root's page ``docname`` (Markdown) where ``needle`` first appears: where a directive's
    error is reported."""
    lines = (Path(built.srcdir) / f"{docname}.md").read_text(encoding="utf-8").splitlines()
    return next(number for number, line in enumerate(lines, start=1) if needle in line)
