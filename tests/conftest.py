"""Fixtures shared by the test files: one rulebook build per test run, for every test that only reads it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.rulebook import build_rulebook

# The property and fuzz tests have fixed budgets (max_examples); in CI they also draw the same examples on every
# run, so a red CI is a change of the code, not of luck. Locally each run explores new inputs.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


@pytest.fixture(scope="session")
def built_rulebook(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """One full rulebook build (HTML, PDF, booklet) of definitions/ for the whole run; -W: any warning fails it.
    (site, Sphinx work folder.) Tests must not write into it: copy it first."""
    out = tmp_path_factory.mktemp("rulebook") / "site"
    work = tmp_path_factory.mktemp("rulebook-work")
    build_rulebook(DEFINITIONS, out, pdf=True, work_dir=work)
    return out, work
