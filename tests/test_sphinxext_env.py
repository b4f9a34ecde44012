"""The Sphinx extension's own state: kept right under parallel reading, and numref's shared doctrees."""

from __future__ import annotations

from collections import Counter
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import pytest
from sphinx.application import Sphinx
from sphinx.environment import BuildEnvironment
from sphinx.util.docutils import docutils_namespace

from blackpoker import sphinxext
from blackpoker.sphinxext.examples import Examples


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
