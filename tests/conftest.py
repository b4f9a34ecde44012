"""Fixtures shared by the test files: one rulebook build and one full site build per test run, for every test that
reads them or starts from them; and the marks that keep the fast loop fast (`make test-fast`: no `build`, no
`browser`, no `slow`)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

import xdistgroups
from sites import BuiltSite, OtherEdition, other_edition_site, rulebook_of, shared_site

# Sphinx's test fixtures and the directive tests' roots (tests/roots/); the browser tests' Chromium, engine site
# and warm context, one per worker (tests/browsers.py); the package's wheel and sdist, built once (tests/wheels.py)
pytest_plugins = ("sphinxroots", "browsers", "cpuusage", "wheels")

# The property and fuzz tests have fixed budgets (max_examples); in CI they also draw the same examples on every
# run, so a red CI is a change of the code, not of luck. Locally each run explores new inputs.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


# Fixtures that are a full build (or a copy of one): a test that uses one, directly or through another fixture, is
# marked `build` here, so the mark cannot be forgotten. A test that builds in its body carries the mark itself.
BUILD_FIXTURES = frozenset({"built_rulebook", "built_site", "built", "long_built", "other_edition"})
SHARED_FIXTURES = frozenset({"built_rulebook", "built_site"})  # the run's one full build, for every worker


# Module-scoped fixtures too cheap to matter when two workers both make them (the loader caches the rules).
CHEAP_FIXTURES = frozenset({"rules"})
# Caches of parts that several builds of a module share (each finds what the ones before laid out): the tests that
# use one, directly or through a build fixture, are one group, so they run on one worker and the cache is made once.
CACHE_FIXTURES = frozenset({"long_parts"})


def _group(item: pytest.Item) -> str | None:
    """The pytest-xdist group of a test: the tests of a module's build fixture share a worker, so it is built once
    (and those of a cache its builds share, CACHE_FIXTURES, so it is filled once); the tests of a session build
    fixture (``other_edition``), whatever their module, share one too; so do the other tests of a module that share
    a module fixture (rendered pages, a kept engine); the rest go wherever a worker is free (the browser, the engine
    site and its warm context are the worker's: tests/browsers.py). The run's shared build (``built_site``, and
    ``built_rulebook`` read from it) needs no group: it is made once for all workers (sites.shared_site)."""
    given = item.get_closest_marker("xdist_group")  # a test that asks for a build at run time says so itself
    if given is not None:
        return str(given.args[0])
    names = set(getattr(item, "fixturenames", ()))
    cached = sorted(names & CACHE_FIXTURES)
    if cached:
        return f"{item.path.name}::{'+'.join(cached)}"
    info = getattr(item, "_fixtureinfo", None)
    defs = info.name2fixturedefs if info is not None else {}
    built = sorted(names & (BUILD_FIXTURES - SHARED_FIXTURES))
    session = [n for n in built if n in defs and defs[n][-1].scope == "session"]
    if session:  # one group for every module that uses it, or each worker would build it
        return "+".join(session)
    if built:
        return f"{item.path.name}::{'+'.join(built)}"
    if any(n in defs and defs[n][-1].scope in ("module", "package") for n in names - CHEAP_FIXTURES):
        return item.path.name
    return None


def _weight(item: pytest.Item) -> int:
    """Run order under pytest-xdist, longest first, so no worker is left alone with a long one at the end: the
    tests that read the run's shared build (the first of them makes it, with both cores), the tests that run
    several full builds (`build` and `slow`: minutes each), the other builds, the browser's groups, then the rest
    (seconds each), which fill the gaps."""
    if SHARED_FIXTURES & set(getattr(item, "fixturenames", ())):
        return 0
    if item.get_closest_marker("build"):
        return 1 if item.get_closest_marker("slow") else 2
    return 3 if item.get_closest_marker("browser") else 4


def pytest_configure(config: pytest.Config) -> None:
    xdistgroups.configure(config)


@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object:
    """The groups below kept on one worker each (tests/xdistgroups.py: xdist's own loadgroup loses them)."""
    return xdistgroups.make_scheduler(config, log)


@pytest.hookimpl(tryfirst=True)  # before pytest-xdist reads the groups
def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        if BUILD_FIXTURES & set(getattr(item, "fixturenames", ())):
            item.add_marker(pytest.mark.build)
        group = _group(item)
        if group is not None and item.get_closest_marker("xdist_group") is None:
            item.add_marker(pytest.mark.xdist_group(group))
    if os.environ.get("PYTEST_XDIST_WORKER"):
        items.sort(key=_weight)  # stable: within a weight, the files' order


@pytest.fixture(scope="session")
def built_site(tmp_path_factory: pytest.TempPathFactory) -> BuiltSite:
    """One full build of definitions/ (every step and edition) for the whole run and all its workers
    (sites.shared_site), its cache beside it, and what it said: the build mechanics tests compare with it or start
    from a copy (sites.copy_site, sites.copy_cache) rather than building the same site again. Tests must not write
    into it."""
    return shared_site(tmp_path_factory)


@pytest.fixture(scope="session")
def built_rulebook(built_site: BuiltSite, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """The rulebook (HTML, PDF, booklet; Sphinx ran with -W: any warning failed it) of the shared full build, as
    ``build_rulebook`` leaves it: (its published files, a Sphinx work folder with the single page and the book's
    parts). Tests must not write into either: copy first."""
    return rulebook_of(built_site, tmp_path_factory.mktemp("rulebook-work"))


@pytest.fixture(scope="session")
def other_edition(built_site: BuiltSite, tmp_path_factory: pytest.TempPathFactory) -> OtherEdition:
    """One build of v8.1 edited into another edition, with v8.2 beside it, from the shared build's cache
    (sites.other_edition_site), for the tests of that edition's site and of an edit that runs nothing of v8.2. Its
    tests are one xdist group (``_group``), so it is built once per run. Tests must not write into it."""
    return other_edition_site(built_site, tmp_path_factory.mktemp("other-edition"))
