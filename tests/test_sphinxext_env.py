"""The Sphinx extension's own state: kept right under parallel reading, and numref's shared doctrees."""

from __future__ import annotations

import os
import shutil
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.testing.util import SphinxTestApp
from sphinx.util.docutils import docutils_namespace

from blackpoker import sphinxext
from blackpoker.core.paths import DEFINITIONS
from blackpoker.sphinx_private import documents_read
from blackpoker.sphinxext.examples import Examples
from sphinxroots import page, root_copy, warnings_of


def _env(**state: Any) -> Any:
    env = SimpleNamespace()
    env.__dict__.update(state)
    return env


def test_a_purged_document_forgets_its_inputs() -> None:
    env = _env(bp_inputs={"a": {"x": "1"}, "b": {"y": "2"}})
    sphinxext._purge_doc(None, env, "a")  # type: ignore[arg-type]  # no app: the handler does not use it
    sphinxext._purge_doc(None, env, "never-read")  # type: ignore[arg-type]  # no app: the handler does not use it
    assert env.bp_inputs == {"b": {"y": "2"}}


def test_merge_takes_the_reading_process_s_documents_only() -> None:
    main = _env(bp_inputs={"a": {"x": "1"}})
    theirs = Examples()
    theirs.sections["/s.yaml"] = ("d", "2.3")
    other = _env(bp_inputs={"b": {"y": "2"}, "c": {"z": "3"}}, bp_examples=theirs)
    sphinxext._merge_info(None, main, {"b"}, other)  # type: ignore[arg-type]  # no app: the handler does not use it
    assert main.bp_inputs == {"a": {"x": "1"}, "b": {"y": "2"}}
    assert main.bp_examples.sections == {"/s.yaml": ("d", "2.3")}


def test_examples_merge_keeps_both_sides() -> None:
    ours, theirs = Examples(), Examples()
    ours.sections["/a.yaml"] = ("1", "2.1")
    theirs.sections["/b.yaml"] = ("2", "2.2")
    ours.merge(theirs)
    assert set(ours.sections) == {"/a.yaml", "/b.yaml"}


REFERENCES = 6

CONF = """
from blackpoker.sphinx_private import numref_domain
numfig = True
extensions = []
def setup(app):
    if USE_DOMAIN:
        app.add_domain(numref_domain(), override=True)
"""


def _count_reads(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, use_domain: bool) -> int:
    src = tmp_path / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(f"USE_DOMAIN = {use_domain}\n" + CONF, encoding="utf-8")
    (src / "index.rst").write_text("Index\n=====\n\n.. toctree::\n\n   a\n   b\n", encoding="utf-8")
    (src / "a.rst").write_text("A\n=\n\n.. _fig-a:\n\n.. figure:: missing.png\n\n   Caption\n", encoding="utf-8")
    refs = "\n\n".join(f"See :numref:`fig-a` ({i})." for i in range(REFERENCES))
    (src / "b.rst").write_text(f"B\n=\n\n{refs}\n", encoding="utf-8")
    reads: Counter[str] = Counter()
    original = BuildEnvironment.get_doctree

    def counting(self: BuildEnvironment, docname: str) -> Any:
        reads[docname] += 1
        return original(self, docname)

    monkeypatch.setattr(BuildEnvironment, "get_doctree", counting)
    with docutils_namespace():  # a Sphinx app registers nodes process-wide: leave none for later tests
        app = Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"), "html",
                     status=None, warning=None, freshenv=True)
        app.build()
    return reads["a"]


def test_numref_reads_each_target_doctree_once(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Sphinx reads the target page again for every numref; the domain shares one read per run. If a Sphinx
    change bypasses ``env.get_doctree`` or the domain, the counts below tell."""
    plain = _count_reads(tmp_path / "plain", monkeypatch, use_domain=False)
    shared = _count_reads(tmp_path / "shared", monkeypatch, use_domain=True)
    assert plain >= REFERENCES  # Sphinx's own way: once per reference (so the test measures something)
    assert shared <= plain - REFERENCES + 1


NUMREF_CONF = """
from blackpoker.sphinx_private import numref_domain, release_pickles
numfig = True
extensions = []
KEPT = {}
def _probe(app, exc):
    KEPT["pickled"] = sorted(app.env._pickled_doctree_cache)
    targets = app.builder.__dict__.get("_bp_numref_doctrees", {}).get("a")
    if targets is None:
        return
    KEPT["nodes"] = sum(1 for node in targets.ids.values() for _ in node.findall())
    KEPT["documents"] = sum(1 for node in targets.ids.values() for part in node.findall() if getattr(part, "_document", None))
def setup(app):
    if USE_DOMAIN:
        app.add_domain(numref_domain(), override=True)
        app.connect("env-updated", release_pickles)
        app.connect("doctree-resolved", release_pickles)
    app.connect("build-finished", _probe)
"""


def _probed_build(tmp_path: Path, builder: str, conf: str, pages: dict[str, str], page: str) -> tuple[str, dict[str, Any]]:
    """Build ``pages`` (name → reST) with ``conf``; the HTML of ``page`` and what the conf's probe put in KEPT."""
    src = tmp_path / "src"
    src.mkdir(parents=True)
    (src / "conf.py").write_text(conf, encoding="utf-8")
    for name, text in pages.items():
        (src / f"{name}.rst").write_text(text, encoding="utf-8")
    with docutils_namespace():
        app = Sphinx(str(src), str(src), str(tmp_path / "out"), str(tmp_path / "doctrees"), builder,
                     status=None, warning=None, freshenv=True)
        app.build()
        kept: dict[str, Any] = dict(app.config._raw_config["KEPT"])
    return (tmp_path / "out" / f"{page}.html").read_text(encoding="utf-8"), kept


def _numref_page(tmp_path: Path, use_domain: bool) -> tuple[str, dict[str, Any]]:
    paragraphs = "\n\n".join(f"Paragraph {i} of *a*." for i in range(300))
    return _probed_build(tmp_path, "html", f"USE_DOMAIN = {use_domain}\n" + NUMREF_CONF, {
        "index": "Index\n=====\n\n.. toctree::\n   :numbered:\n\n   a\n   b\n",
        "a": "A\n=\n\n.. _sec-big:\n\nBig section\n-----------\n\n" + paragraphs + "\n\n"
             ".. _code-a:\n\n.. code-block:: text\n   :caption: Code\n\n   x = 1\n",
        "b": "B\n=\n\nSee :numref:`sec-big`, :numref:`{number} {name} <sec-big>` and :numref:`code-a`.\n",
    }, "b")


def test_the_web_pages_keep_no_numref_doctree_and_no_pickle(tmp_path: Path) -> None:
    """Issue 25, item 10: the shared target doctree was the format page whole (0.5 GB at 5,000 actions), held for
    the rest of the web pages' build; the lookups need only each labelled node, without its children."""
    plain, kept_plain = _numref_page(tmp_path / "plain", use_domain=False)
    page, kept = _numref_page(tmp_path / "shared", use_domain=True)
    assert page == plain
    assert kept_plain["pickled"] == ["a", "b", "index"]  # Sphinx keeps every pickle it loaded (the test measures something)
    assert kept["pickled"] == []  # release_pickles: none kept
    assert "1.1 Big section" in page  # the numbers were resolved (the test measures something)
    assert 0 < kept["nodes"] < 30  # the section, the code block (with its caption and text) and a's title: not 300 paragraphs
    assert kept["documents"] == 0  # no node leads back to the doctree


SINGLE_CONF = """
from blackpoker import sphinx_private
numfig = True
extensions = []
KEPT = {}
def _probe(app, exc):
    KEPT["read"] = len(app.env._write_doc_doctree_cache)
    KEPT["pickled"] = sorted(app.env._pickled_doctree_cache)
    KEPT["shadowed"] = "get_doctree" in app.env.__dict__
def setup(app):
    if RELEASE:
        app.add_domain(sphinx_private.numref_domain(), override=True)
        app.connect("env-updated", sphinx_private.release_read_doctrees)
        app.connect("write-started", sphinx_private.assemble_without_copies)
        app.connect("doctree-resolved", sphinx_private.release_assembled_sources)
    app.connect("build-finished", _probe)
"""


def _single_page(tmp_path: Path, release: bool) -> tuple[str, dict[str, Any]]:
    return _probed_build(tmp_path, "singlehtml", f"RELEASE = {release}\n" + SINGLE_CONF, {
        "index": "Index\n=====\n\n.. toctree::\n\n   a\n   b\n",
        "a": "A\n=\n\n.. _fig-a:\n\n.. figure:: missing.png\n\n   Caption\n\n"
             + "\n\n".join(f"Paragraph {i} of *a*." for i in range(50)) + "\n",
        "b": "B\n=\n\nSee :numref:`fig-a` and :ref:`fig-a`.\n",
    }, "index")


def test_the_single_page_keeps_no_document_twice_and_is_the_same_page(tmp_path: Path) -> None:
    """Issue 25, item 10: at scale Sphinx held every document as read, its pickle and a copy of each while it
    assembled the single page; the page is the same without them."""
    plain, kept_plain = _single_page(tmp_path / "plain", release=False)
    page, kept = _single_page(tmp_path / "released", release=True)
    assert kept_plain["read"] == 3 and kept_plain["pickled"] == ["a", "b", "index"]  # Sphinx's own way (the test measures something)
    # only the root document is loaded again afterwards (the page's own navigation), not the chapters
    assert kept == {"read": 0, "pickled": ["index"], "shadowed": False}
    assert page == plain


def test_a_definition_changed_under_an_old_time_is_read_again_and_nothing_else_is(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """Content, not times: a definitions file copied back with its old time still changes the page that shows it
    and no other; a build with nothing changed reads nothing again (tests/roots/test-incremental)."""
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    root = root_copy("incremental", tmp_path / "root")

    def build() -> tuple[str, dict[str, int]]:
        app = make_app("html", srcdir=root, confoverrides={"blackpoker_definitions": str(defs)})
        app.build()
        app.cleanup()  # the next build's application registers Sphinx's nodes afresh
        assert warnings_of(app) == []
        return page(app, "format"), dict(documents_read(app.env))

    _, first = build()
    _, again = build()
    assert again == first  # nothing changed: nothing read again
    fogs = defs / "fogs.yaml"
    before = fogs.stat()
    old = "キーカードの数字分加算される。"
    assert old in fogs.read_text(encoding="utf-8")
    fogs.write_text(fogs.read_text(encoding="utf-8").replace(old, "キーカードの数字だけ加算される。", 1), encoding="utf-8")
    os.utime(fogs, ns=(before.st_atime_ns, before.st_mtime_ns))  # as a copy that keeps its times would leave it
    shown, edited = build()
    assert "キーカードの数字だけ加算される。" in shown
    assert {doc for doc in edited if edited[doc] != first[doc]} == {"format"}  # the page of the fogs, alone
