"""The run's one full build of definitions/ (the session fixture ``built_site`` in conftest.py), made once for all
pytest-xdist workers, and how a test takes a copy it may change: the build mechanics tests start from it instead
of building the same site again; the rulebook's tests read its rulebook step. And the small rules project
(tests/projects/small) that builds in seconds, for the tests whose assertions hold for any rules: a copy of it to
edit and build."""

from __future__ import annotations

import json
import os
import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest
from filelock import FileLock

from blackpoker.core.paths import DEFINITIONS, ROOT
from blackpoker.pipeline.build import CACHE, build

SMALL = Path(__file__).resolve().parent / "projects" / "small"  # its definitions/ and its prose, source/


def small_project(folder: Path) -> Path:
    """A copy of the small rules project in ``folder`` (its definitions and, beside them, its prose with the
    toolkit's Sphinx configuration, static files and templates as files, not links), to edit and build; returns
    its definitions folder."""
    for name in ("definitions", "source"):
        shutil.copytree(SMALL / name, folder / name)
    return folder / "definitions"


def small_in_place(project: Path) -> None:
    """Make a project as `blackpoker init` writes it (v8.1 whole) the small project: its definitions and pages
    replace v8.1's; everything else `init` wrote (layout, schemas, scenarios, the Sphinx configuration, static
    files and templates) stays, so a build of it takes seconds and still reads the project as `init` made it."""
    for page in (project / "source").glob("*.md"):
        page.unlink()
    for name in ("definitions", "source"):
        for file in (SMALL / name).glob("*.*"):
            if file.suffix in (".yaml", ".md"):
                shutil.copy(file, project / name / file.name)


@dataclass(frozen=True)
class BuiltSite:
    """A cold build of definitions/ (every step, the editions of editions/ in their folders): the site, with the
    build's cache beside it, and what the build said."""

    site: Path
    lines: tuple[str, ...]


def build_site(folder: Path) -> BuiltSite:
    lines: list[str] = []
    build(DEFINITIONS, folder / "site", progress=lines.append)
    return BuiltSite(folder / "site", tuple(lines))


def shared_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """The run's full build, once for all workers: under pytest-xdist the first worker that needs it builds it in
    the run's common temporary folder (the workers' folders are beside each other in it), holding a lock; a
    worker that needs it meanwhile waits for it, which costs little: the build's own pool keeps both cores busy
    but for its short serial stretches. Then every test that reads it can run on either worker. Without
    pytest-xdist: a build of its own."""
    if not os.environ.get("PYTEST_XDIST_WORKER"):
        return build_site(tmp_path_factory.mktemp("built-site"))
    root = tmp_path_factory.getbasetemp().parent / "built-site"
    said = root / "lines.json"  # written last: the build is whole
    with FileLock(f"{root}.lock"):
        if said.is_file():
            return BuiltSite(root / "site", tuple(json.loads(said.read_text(encoding="utf-8"))))
        shutil.rmtree(root, ignore_errors=True)  # what a failed attempt left
        root.mkdir()
        built = build_site(root)
        said.write_text(json.dumps(built.lines), encoding="utf-8")
        return built


def rulebook_of(built: BuiltSite, folder: Path) -> tuple[Path, Path]:
    """The rulebook step of the shared build, as ``build_rulebook`` leaves it: the files the step published (the
    pages, the book and its booklet, as the step cache holds them) and a Sphinx work folder in ``folder`` whose
    ``single`` is the step's single page and ``parts`` the rendered parts the book was joined from."""
    cache = built.site.parent / CACHE
    [entry] = (cache / "steps" / "rulebook").iterdir()  # one build made this cache: one entry
    [work] = (cache / "work").glob("*/rulebook")  # one output folder: one kept environment
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "single").symlink_to(work / "single", target_is_directory=True)
    (folder / "parts").symlink_to(cache / "parts", target_is_directory=True)
    return entry / "files", folder


def copy_cache(built: BuiltSite, cache: Path) -> None:
    """The step and part cache of the shared build into ``cache``: a build that uses it reuses every step whose
    inputs are unchanged (keys hold no absolute path). The Sphinx environments stay: each belongs to one output
    folder."""
    shutil.copytree(built.site.parent / CACHE, cache, ignore=shutil.ignore_patterns("work"))


def copy_site(built: BuiltSite, out: Path) -> None:
    """The shared site into ``out`` and its cache beside it, as if a build of ``out`` had made them."""
    shutil.copytree(built.site, out, symlinks=True)
    copy_cache(built, out.parent / CACHE)


@dataclass(frozen=True)
class OtherEdition:
    """A build of definitions other than the repository's, with the editions of editions/ beside them (see
    :func:`other_edition_site`): the site, its definitions, what the build said and its seconds."""

    site: Path
    definitions: Path
    lines: tuple[str, ...]
    seconds: float


WORDING = ("数字分加算される。その印として", "数字分だけ加算される。その印として")  # an edit of v8.1's wording


def other_edition_site(built: BuiltSite, root: Path) -> OtherEdition:
    """v8.1 edited into another edition (tests/editions.py: ``simulated: false``, メテオ that the simulator has no
    effect for, explicit official ids; and one action's wording changed) beside a copy of editions/, built from a
    copy of the cache of the run's build of both editions: what the edit leaves unchanged (v8.2's steps, the PDF
    parts that show no changed entry) is reused, as a maintainer's next build reuses it. One build for the tests of such an edition's site
    (test_other_edition_build.py) and of an edit in v8.1 that must run nothing of v8.2 (test_editions_build.py)."""
    from editions import edition
    definitions = edition(root / "definitions", simulated=False, official_ids=True)
    actions = definitions / "actions.yaml"  # and a wording changed (an entry v8.2 has too)
    text = actions.read_text(encoding="utf-8")
    assert text.count(WORDING[0]) == 1, WORDING
    actions.write_text(text.replace(*WORDING), encoding="utf-8")
    shutil.copytree(ROOT / "editions", root / "editions")
    copy_cache(built, root / "cache")
    lines: list[str] = []
    report = build(definitions, root / "site", progress=lines.append, cache_dir=root / "cache")
    return OtherEdition(root / "site", definitions, tuple(lines), report.seconds)


def keep_the_runtime(monkeypatch: pytest.MonkeyPatch) -> None:
    """For a test that moves HOME: the play page's Pyodide runtime is named where it is (``BLACKPOKER_PYODIDE``),
    since a build without it stops (the runtime lives in the user's cache, under the real home)."""
    from blackpoker.pipeline.pyodide import RUNTIME_VARIABLE, runtime
    monkeypatch.setenv(RUNTIME_VARIABLE, str(runtime().folder))
