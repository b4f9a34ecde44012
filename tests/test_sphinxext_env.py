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
from sphinx.environment import BuildEnvironment
from sphinx.testing.util import SphinxTestApp

from blackpoker import sphinxext
from blackpoker.core.paths import DEFINITIONS
from blackpoker.sphinx_private import documents_read
from blackpoker.sphinxext.examples import Examples
from sphinxroots import ROOTS, page, root_copy, warnings_of


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


def _count_reads(folder: Path, make_app: Callable[..., SphinxTestApp], monkeypatch: pytest.MonkeyPatch,
                 use_domain: bool) -> int:
    """How often the numref root (tests/roots/test-numref) read the page of the figure while it was built."""
    reads: Counter[str] = Counter()
    original = BuildEnvironment.get_doctree

    def counting(self: BuildEnvironment, docname: str) -> Any:
        reads[docname] += 1
        return original(self, docname)

    monkeypatch.setattr(BuildEnvironment, "get_doctree", counting)
    app = make_app("html", srcdir=root_copy("numref", folder), freshenv=True,
                   confoverrides={"bp_test_shared_numref": use_domain})
    app.build()
    app.cleanup()  # the next build's application registers Sphinx's nodes afresh
    return reads["a"]


def test_numref_reads_each_target_doctree_once(tmp_path: Path, make_app: Callable[..., SphinxTestApp],
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Sphinx reads the target page again for every numref; the domain shares one read per run. If a Sphinx
    change bypasses ``env.get_doctree`` or the domain, the counts below tell."""
    references = (ROOTS / "test-numref" / "b.rst").read_text(encoding="utf-8").count(":numref:`fig-a`")
    assert references == 6
    plain = _count_reads(tmp_path / "plain", make_app, monkeypatch, use_domain=False)
    shared = _count_reads(tmp_path / "shared", make_app, monkeypatch, use_domain=True)
    assert plain >= references  # Sphinx's own way: once per reference (so the test measures something)
    assert shared <= plain - references + 1


def _kept_by_numref(folder: Path, make_app: Callable[..., SphinxTestApp], release: bool) -> tuple[str, dict[str, Any]]:
    """Page b of the root tests/roots/test-numrefkept, and what the build held at its end."""
    app = make_app("html", srcdir=root_copy("numrefkept", folder), freshenv=True,
                   confoverrides={"bp_test_release": release})
    app.build()
    kept: dict[str, Any] = dict(app.config._raw_config["KEPT"])
    app.cleanup()
    return (app.outdir / "b.html").read_text(encoding="utf-8"), kept


def test_the_web_pages_keep_no_numref_doctree_and_no_pickle(tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """Issue 25, item 10: the shared target doctree was the format page whole (0.5 GB at 5,000 actions), held for
    the rest of the web pages' build; the lookups need only each labelled node, without its children."""
    plain, kept_plain = _kept_by_numref(tmp_path / "plain", make_app, release=False)
    page, kept = _kept_by_numref(tmp_path / "shared", make_app, release=True)
    assert page == plain
    assert kept_plain["pickled"] == ["a", "b", "index"]  # Sphinx keeps every pickle it loaded (the test measures something)
    assert kept["pickled"] == []  # release_pickles: none kept
    assert "1.1 Big section" in page  # the numbers were resolved (the test measures something)
    assert 0 < kept["nodes"] < 30  # the section, the code block (with its caption and text) and a's title: not 300 paragraphs
    assert kept["documents"] == 0  # no node leads back to the doctree


def _single_page(folder: Path, make_app: Callable[..., SphinxTestApp], release: bool) -> tuple[str, dict[str, Any]]:
    """The single page of the root tests/roots/test-singlepage, and what the build held at its end."""
    app = make_app("singlehtml", srcdir=root_copy("singlepage", folder), freshenv=True,
                   confoverrides={"bp_test_release": release})
    app.build()
    kept: dict[str, Any] = dict(app.config._raw_config["KEPT"])
    app.cleanup()
    return page(app), kept


def test_the_single_page_keeps_no_document_twice_and_is_the_same_page(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """Issue 25, item 10: at scale Sphinx held every document as read, its pickle and a copy of each while it
    assembled the single page; the page is the same without them."""
    plain, kept_plain = _single_page(tmp_path / "plain", make_app, release=False)
    released, kept = _single_page(tmp_path / "released", make_app, release=True)
    assert kept_plain["read"] == 3 and kept_plain["pickled"] == ["a", "b", "index"]  # Sphinx's own way (the test measures something)
    # only the root document is loaded again afterwards (the page's own navigation), not the chapters
    assert kept == {"read": 0, "pickled": ["index"], "shadowed": False}
    assert released == plain


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
