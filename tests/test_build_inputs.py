"""One declared list of what a build reads (the steps in pipeline/build.py): the cache keys, the kept Sphinx
environment and the preview all derive from it, so an edit of any input kind shows, and an incremental build
equals a clean one byte for byte.

The end-to-end test edits a copy of the checkout (definitions, an action-list template, a document, the
rulebook's CSS, a worked example, the code) and after each edit compares the incremental site with a build
that has no step cache and no Sphinx environment. It is slow (a dozen builds), so the copy's definitions and
prose are the small rules project's (tests/projects/small): what it asserts holds for any rules, and each of
its builds takes seconds instead of minutes. The builds are forked children of interpreters that imported the
toolkit and Sphinx once (tests/buildforks.py): the incremental builds of one, the clean ones of another, with
another hash seed.
"""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from blackpoker.core.loader import load_rules
from blackpoker.core.paths import DEFINITIONS, PACKAGE, ROOT, SCENARIOS, SCHEMAS, SOURCE, TEMPLATES, prose_folder
from blackpoker.infra import toolchain as toolchain_module
from blackpoker.pipeline import build as build_module
from blackpoker.pipeline.build import CACHE, MARKER, STEPS, build_inputs, kept_state_key, step_key
from blackpoker.pipeline.code import code_closure
from buildforks import Forks, two_seeds
from clirun import run_cli
from sites import SMALL, small_project


def test_the_preview_watches_every_file_a_step_reads() -> None:
    watched = build_inputs(DEFINITIONS)
    assert {p.resolve() for p in DEFINITIONS.glob("*.yaml")} <= set(watched)
    assert (DEFINITIONS / "README.md").resolve() not in watched  # the folder's other files are not read

    def covered(path: Path) -> bool:
        return any(path == root or path.is_relative_to(root) for root in watched)

    data = [p for folder in (SCHEMAS, TEMPLATES, SOURCE, SCENARIOS) for p in folder.rglob("*") if p.is_file()
            and not p.is_relative_to(TEMPLATES / "project")]  # what `blackpoker init` writes: no step reads it
    code = code_closure(m for step in STEPS for m in step.code)
    assert data and all(covered(p) for p in data), [p for p in data if not covered(p)]
    assert all(covered(p) for p in code)
    assert not covered(PACKAGE / "pipeline" / "serve.py")  # the preview's own code changes no output


def test_a_new_toolchain_changes_every_step_key_and_the_sphinx_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    rules = load_rules(DEFINITIONS)
    before = {s.name: step_key(s, DEFINITIONS, rules) for s in STEPS}
    environment = kept_state_key(next(s for s in STEPS if s.name == "rulebook"))
    monkeypatch.setattr(toolchain_module, "toolchain", lambda: "python 3.99 packages other fonts other")
    after = {s.name: step_key(s, DEFINITIONS, rules) for s in STEPS}
    assert all(before[name] != after[name] for name in before)
    assert kept_state_key(next(s for s in STEPS if s.name == "rulebook")) != environment


def test_the_sphinx_environment_follows_configuration_but_not_documents(tmp_path: Path) -> None:
    source = tmp_path / "source"  # a project's own prose, beside its definitions (as `blackpoker init` makes it)
    shutil.copytree(SOURCE, source)
    definitions = tmp_path / "definitions"
    step = build_module.Step("rulebook", "rulebook", inputs=("source",))
    first = kept_state_key(step, definitions)
    (source / "intro.md").write_text("changed", encoding="utf-8")
    assert kept_state_key(step, definitions) == first  # Sphinx reads a changed document again by itself
    (source / "_static" / "bp.css").write_text("body {}", encoding="utf-8")
    assert kept_state_key(step, definitions) != first


def test_a_project_with_its_own_prose_builds_and_watches_it(tmp_path: Path) -> None:
    """``source/`` beside the definitions (with its conf.py) is the prose the build reads, keys and the preview
    watches; without it, the packaged prose."""
    definitions = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, definitions)
    assert prose_folder(definitions) == SOURCE
    assert SOURCE in build_inputs(definitions)  # folders are watched whole
    shutil.copytree(SOURCE, tmp_path / "source")
    assert prose_folder(definitions) == tmp_path / "source"
    watched = build_inputs(definitions)
    assert tmp_path / "source" in watched
    assert not any(p.is_relative_to(SOURCE) for p in watched)
    rules = load_rules(definitions)
    before = {s.name: step_key(s, definitions, rules) for s in STEPS}
    (tmp_path / "source" / "intro.md").write_text("変えた", encoding="utf-8")
    after = {s.name: step_key(s, definitions, rules) for s in STEPS}
    assert before["rulebook"] != after["rulebook"] and before["export"] == after["export"]


def test_the_small_project_checks_has_its_own_prose_and_is_small() -> None:
    """The build mechanics tests' project (tests/projects/small): `check` accepts it, its prose is its own with the
    toolkit's configuration and static files, and it is small enough that its builds take seconds."""
    checked = run_cli("check", "--definitions", str(SMALL / "definitions"))
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("v8.1 ok: 1 frames, 7 actions"), checked.stdout
    assert prose_folder(SMALL / "definitions") == SMALL / "source"
    for name in ("conf.py", "_static", "_templates"):  # links, so the small site is configured as the real one
        assert (SMALL / "source" / name).resolve() == SOURCE / name, name
    rules = load_rules(SMALL / "definitions")
    assert not rules.edition.simulated and len(rules.actions) <= 10 and [f.id for f in rules.formats] == ["lite"]


# --- end to end, in a copy of the checkout ------------------------------------------------------------

@pytest.fixture(scope="module")
def checkout(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The toolkit's code and data as a checkout has them (the package's data folders are links to the copy's
    folders), with the small project's definitions and prose in place of v8.1's."""
    copy = tmp_path_factory.mktemp("checkout")
    ignore = shutil.ignore_patterns("__pycache__", "*.egg-info")
    for name in ("tools", "schemas", "templates", "scenarios"):
        shutil.copytree(ROOT / name, copy / name, symlinks=True, ignore=ignore)
    small_project(copy)
    shutil.copy(ROOT / "pyproject.toml", copy)
    return copy


@pytest.fixture(scope="module")
def builders(checkout: Path) -> Iterator[tuple[Forks, Forks]]:
    """Where the builds run: forked children of two interpreters that imported the copy's toolkit (tests/buildforks.py),
    the incremental builds in one and the clean ones in the other, each with its own hash seed, so an incremental
    build is compared with a clean one made under another seed (as when each build was a new interpreter)."""
    env = {**os.environ, "PYTHONPATH": str(checkout / "tools")}
    incremental, clean = two_seeds()
    with Forks(env=env, seed=incremental, cwd=checkout) as first, Forks(env=env, seed=clean, cwd=checkout) as second:
        assert first.package == second.package == checkout / "tools" / "blackpoker"  # the copy's code, not ours
        yield first, second


def _build(builder: Forks, checkout: Path, out: Path, *, code_edited: bool = False) -> str:
    """A build of the copy; a fresh interpreter runs it once the copy's code is edited (the server's is stale)."""
    done = builder.run("build", "--out", str(out), cwd=checkout)
    assert done.returncode == 0, f"hash seed {builder.seed}: {done.stderr}"
    assert done.fresh == code_edited, "the build ran stale code" if code_edited else "the build was not forked"
    return done.stderr


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != MARKER}


def _reference(builder: Forks, checkout: Path, folder: Path, parts: Path, *, code_edited: bool) -> dict[str, bytes]:
    """A build with no step cache and no Sphinx environment; the rendered PDF parts (keyed by their HTML, CSS
    and toolchain) are shared, or a dozen builds would render every page again."""
    shutil.copytree(parts, folder / CACHE / "parts")
    _build(builder, checkout, folder / "site", code_edited=code_edited)
    return _snapshot(folder / "site")


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text, f"{old!r} is no longer in {path}"
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


EDITS = [  # (what, file, old, new, a published file that must change)
    ("definitions", "definitions/ruleset.yaml", "edition: 第8.1版", "edition: 第8.1版改", "index.html"),
    ("action-list template", "templates/actionlist/static/actionlist.css", "}", "}\n.edited { color: red; }",
     "actionlist/html/assets/actionlist.css"),
    ("document", "source/common.md", "BlackPoker", "BlackPoker（改）", "common.html"),
    ("rulebook CSS", "source/_static/bp.css", "}", "}\n.edited { color: red; }", "_static/bp.css"),
    ("worked example", "scenarios/examples/e03-damage-beyond-life.yaml", "title: ", "title: 改 ", None),
    ("code", "tools/blackpoker/render/actionlist/__init__.py", '"""', '"""Edited. ', None),
]


@pytest.mark.build
@pytest.mark.slow  # a dozen full builds
def test_after_an_edit_of_every_input_kind_an_incremental_build_equals_a_clean_one(
        checkout: Path, builders: tuple[Forks, Forks], tmp_path: Path) -> None:
    incremental, clean = builders
    site = tmp_path / "incremental" / "site"
    _build(incremental, checkout, site)
    code_edited = False
    for n, (what, name, old, new, shows) in enumerate(EDITS):
        before = _snapshot(site)
        _edit(checkout / name, old, new)
        code_edited = code_edited or name.startswith("tools/")
        _build(incremental, checkout, site, code_edited=code_edited)
        after = _snapshot(site)
        if shows is not None:
            assert after.get(shows) != before.get(shows), f"the {what} edit does not show in {shows}"
        reference = _reference(clean, checkout, tmp_path / f"clean-{n}", tmp_path / "incremental" / CACHE / "parts",
                               code_edited=code_edited)
        differ = sorted(k for k in after.keys() | reference.keys() if after.get(k) != reference.get(k))
        assert differ == [], (f"after the {what} edit, the incremental build (hash seed {incremental.seed}) differs "
                              f"from a clean one (hash seed {clean.seed}): {differ}")
