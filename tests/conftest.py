"""Fixtures shared by the test files: one rulebook build per test run, for every test that only reads it."""

from __future__ import annotations

from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS
from blackpoker.render.rulebook import build_rulebook


@pytest.fixture(scope="session")
def built_rulebook(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One full rulebook build (HTML, PDF, booklet) of definitions/ for the whole run; -W: any warning fails it.
    (site, Sphinx work folder.) Tests must not write into it: copy it first."""
    out = tmp_path_factory.mktemp("rulebook") / "site"
    work = tmp_path_factory.mktemp("rulebook-work")
    build_rulebook(DEFINITIONS, out, pdf=True, work_dir=work)
    return out, work
