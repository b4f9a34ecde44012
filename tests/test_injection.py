"""Text from the definitions never becomes markup: a payload in every string field the checks accept, then every
page of the site in Chromium (rulebook, search and lists alike) and the text of every PDF (issue 13, item 2)."""

from __future__ import annotations

import ast
import shutil
import subprocess
import threading
from collections.abc import Iterator
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import pytest
import yaml

from blackpoker.core.errors import DefinitionErrors, PathPart
from blackpoker.core.loader import definition_files, load_rules
from blackpoker.core.paths import DEFINITIONS, PACKAGE, SCENARIOS
from blackpoker.pipeline.build import build
from blackpoker.render.officialpaths import RULEBOOK_PDFS
from blackpoker.sim.gaps import coverage_problems
from blackpoker.sim.scenario import load_scenario, run_scenario
from browsers import MARKS

MARK = "data-bp-injected"
# closes an attribute of either quote, then opens an element that runs script if the text is read as HTML
PAYLOAD = f"\"'><img src=x {MARK} onerror=\"window.bpInjected=1\">"

pytestmark = [
    pytest.mark.slow,
    pytest.mark.build,
    *MARKS,
    pytest.mark.skipif(shutil.which("pdftotext") is None, reason="poppler-utils (pdftotext) is not installed"),
]

Leaf = tuple[str, tuple[PathPart, ...]]

# Fields every reader sees in some page or PDF: each must carry the payload in at least one entry.
MUST = {
    ("ruleset.yaml", ("ruleset", "title")), ("ruleset.yaml", ("ruleset", "edition")),
    ("ruleset.yaml", ("ruleset", "subtitle")), ("ruleset.yaml", ("ruleset", "author")),
    ("ruleset.yaml", ("ruleset", "release")), ("ruleset.yaml", ("ruleset", "copyright")),
    ("ruleset.yaml", ("zones", "description")), ("ruleset.yaml", ("flows", "steps", "text")),
    ("ruleset.yaml", ("costs", "name")), ("ruleset.yaml", ("disclosure_levels", "name")),
    ("actions.yaml", ("actions", "effect", "numbered", "text")), ("frame-actions.yaml", ("actions", "note")),
    ("actions.yaml", ("actions", "flavor")), ("actions.yaml", ("actions", "story")),
    ("actions.yaml", ("actions", "group")), ("characters.yaml", ("characters", "abilities", "text")),
    ("characters.yaml", ("characters", "story")), ("fogs.yaml", ("fogs", "ability")),
    ("trumps.yaml", ("trumps", "ability")), ("frames.yaml", ("frames", "name")),
    ("frames.yaml", ("frames", "setup")), ("frame-actions.yaml", ("actions", "effect")),
    ("rulings.yaml", ("rulings", "title")), ("rulings.yaml", ("rulings", "ruling")),
}


def _leaves(data: Any, path: tuple[PathPart, ...] = ()) -> Iterator[tuple[PathPart, ...]]:
    if isinstance(data, dict):
        for key, value in data.items():
            yield from _leaves(value, (*path, key))
    elif isinstance(data, list):
        for i, value in enumerate(data):
            yield from _leaves(value, (*path, i))
    elif isinstance(data, str):
        yield path


def _get(data: Any, path: tuple[PathPart, ...]) -> Any:
    for part in path:
        data = data[part]
    return data


def _set(data: Any, path: tuple[PathPart, ...], value: str) -> None:
    _get(data, path[:-1])[path[-1]] = value


def _kind(leaf: Leaf) -> tuple[str, tuple[str, ...]]:
    return leaf[0], tuple(p for p in leaf[1] if isinstance(p, str))


def _failures(folder: Path) -> str:
    """What the build's scenario step would report for the definitions in ``folder`` (empty when all pass)."""
    rules = load_rules(folder, extra_checks=(coverage_problems,))
    out = []
    for path in sorted(SCENARIOS.rglob("*.yaml")):
        try:
            result = run_scenario(rules, load_scenario(path, rules))
        except DefinitionErrors as exc:
            out.append(str(exc))
            continue
        out.extend(e.line() for e in result.expectations if not e.passed)
    return "\n".join(out)


def _quoted(source: Path) -> str:
    """The string literals of a module that its code uses: comments and docstrings only talk about the rules
    (「第8.1版 says …」), so a text they name may still carry the payload."""
    tree = ast.parse(source.read_text(encoding="utf-8"))
    documents = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, documents) and node.body and isinstance(node.body[0], ast.Expr)
                  and isinstance(node.body[0].value, ast.Constant)}
    return "\n".join(node.value for node in ast.walk(tree) if isinstance(node, ast.Constant)
                     and isinstance(node.value, str) and id(node) not in docstrings)


def inject(folder: Path) -> set[Leaf]:
    """Append the payload to every string of the definitions in ``folder`` that the checks let carry it.

    Left alone: texts the checks refuse with it (ids, versions, cards, names other entries quote) and those the
    scenarios or the simulator quote (a renamed action fails a scenario: not the renderers' concern).
    """
    simulator = "\n".join(_quoted(p) for p in sorted((PACKAGE / "sim").glob("*.py")))
    docs = {f.name: yaml.safe_load(f.read_text(encoding="utf-8")) for f in definition_files(folder)}
    carrying = {(name, p) for name, d in docs.items() for p in _leaves(d)
                if len(_get(d, p)) < 4 or _get(d, p) not in simulator}  # a short word is quoted by chance
    for name, p in carrying:
        _set(docs[name], p, _get(docs[name], p) + PAYLOAD)

    def original(leaf: Leaf) -> str:
        return str(_get(docs[leaf[0]], leaf[1])).removesuffix(PAYLOAD)

    for _ in range(20):
        for name, d in docs.items():
            (folder / name).write_text(yaml.safe_dump(d, allow_unicode=True, sort_keys=False), encoding="utf-8")
        refused = set()
        try:
            failures = _failures(folder)
        except DefinitionErrors as exc:
            for error in exc.errors:
                name, at = Path(error.file).name, tuple(error.path)
                here = {(n, p) for n, p in carrying if n == name and (p[:len(at)] == at or at[:len(p)] == p)}
                # an error elsewhere (a character no effect makes any more): the texts its message quotes
                refused |= here or {leaf for leaf in carrying if original(leaf) + PAYLOAD in error.message}
            assert refused, exc
        else:
            if not failures:
                return carrying
            # a scenario quotes a name (「アップ」 requested, a label expected): the names its failures quote
            refused = {leaf for leaf in carrying if len(original(leaf)) >= 2 and original(leaf) in failures}
            assert refused, failures
        for name, p in refused:
            _set(docs[name], p, original((name, p)))
        carrying -= refused
    raise AssertionError("the definitions never passed the checks and the scenarios")


def test_no_text_from_the_definitions_becomes_markup_in_any_page_or_pdf(tmp_path: Path,
                                                                       request: pytest.FixtureRequest) -> None:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    carrying = inject(defs)
    kinds = {_kind(leaf) for leaf in carrying}
    assert kinds >= MUST, MUST - kinds
    assert len(carrying) > 250, len(carrying)

    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, cache_dir=tmp_path / "cache")
    pages = sorted(out.rglob("*.html"))
    assert len(pages) >= 17
    probe = f"""() => ({{
        elements: [...document.querySelectorAll('[{MARK}], [onerror]')].map(e => e.outerHTML.slice(0, 200)),
        ran: window.bpInjected === 1,
        shown: (document.body.innerText.match(/{MARK}/g) || []).length,
        title: document.title.includes('{MARK}')}})"""
    # served over HTTP, as a reader gets it: the search page fetches the pages it quotes passages from
    server = ThreadingHTTPServer(("127.0.0.1", 0), partial(SimpleHTTPRequestHandler, directory=str(out)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    root = f"http://127.0.0.1:{server.server_address[1]}/"
    browser = request.getfixturevalue("browser")  # the worker's Chromium (tests/browsers.py), once the site is built
    with server:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        seen = {}
        for path in pages:
            page.goto(root + path.relative_to(out).as_posix())
            seen[path.relative_to(out).as_posix()] = page.evaluate(probe)
        # the search page lists matches with their titles and passages: search for the payload's words
        page.goto(root + "search.html?q=img")
        page.wait_for_function("document.querySelectorAll('#search-results li').length > 0")
        seen["search.html?q=img"] = page.evaluate(probe)
        page.close()
        server.shutdown()
    assert not errors, errors
    for name, found in seen.items():
        assert found["elements"] == [] and not found["ran"], (name, found)
        assert found["title"], name  # the title (ruleset.yaml's title and edition) is shown as text
    assert all(seen[name]["shown"] > 0 for name in seen), {n: f["shown"] for n, f in seen.items()}

    copies = {out / moved.path for moved in RULEBOOK_PDFS}  # the book's PDFs again, under the official names
    pdfs = sorted(p for p in out.rglob("*.pdf") if p not in copies)
    assert len(pdfs) == 2 + 3 * 6  # the book and its booklet; six lists, each A5, 2-up and booklet
    for pdf in pdfs:
        text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True,
                              text=True).stdout
        assert MARK in text and "onerror" in text, pdf.name  # printed as text, never laid out as an element
