"""``--dist loadgroup`` that works with this pytest: the tests marked ``xdist_group`` with one name run on one
worker, so a module's build or another module-scoped fixture is made once per run. (The run's full build,
``built_site``, is shared by the workers themselves: tests/sites.py.)

pytest-xdist 3.8 groups tests by a suffix it appends to each test's id in the worker (``…::test@group``), by
assigning ``item._nodeid``; pytest 9 keeps the id elsewhere, so the suffix is lost, every test becomes a group of
its own and each worker made every shared build again (CI at c53d879: ``built_site`` and ``built_rulebook`` built
twice). Here each worker writes every test's group into a file the controller named, and the controller's
scheduler (xdist's public ``pytest_xdist_make_scheduler`` hook, the loadscope scheduler with its scope function
replaced, as xdist's own loadgroup does) reads it. tests/test_xdist_groups.py runs a small suite to show it.
"""

from __future__ import annotations

import json
import os
import shutil
import tempfile
from pathlib import Path
from typing import Any

import pytest

VARIABLE = "BLACKPOKER_TEST_GROUPS"  # the file, named by the controller; its workers inherit the environment


def _grouping(config: pytest.Config) -> bool:
    return bool(config.pluginmanager.hasplugin("xdist")) and config.getoption("dist", "no") == "loadgroup"


def configure(config: pytest.Config) -> None:
    """In the controller of a ``--dist loadgroup`` run: a fresh file for the workers to write the groups into; in
    its workers: the hook that writes them, after every other (xdist's own included)."""
    if os.environ.get("PYTEST_XDIST_WORKER"):
        if os.environ.get(VARIABLE):
            config.pluginmanager.register(_Recorder(), "blackpoker-test-groups")
    elif _grouping(config):
        folder = Path(tempfile.mkdtemp(prefix="bp-test-groups-"))
        os.environ[VARIABLE] = str(folder / "groups.json")
        config.add_cleanup(lambda: shutil.rmtree(folder, ignore_errors=True))


class _Recorder:
    @pytest.hookimpl(trylast=True)
    def pytest_collection_modifyitems(self, items: list[pytest.Item]) -> None:
        record(items, os.environ[VARIABLE])


def record(items: list[pytest.Item], target: str) -> None:
    """Each test's group (by its id, as the worker reports it) into the controller's file."""
    groups = {}
    for item in items:
        marks = sorted({str(m.args[0] if m.args else m.kwargs.get("name", "default"))
                        for m in item.iter_markers("xdist_group")})
        if marks:
            groups[item.nodeid] = "_".join(marks)
    scratch = Path(f"{target}.{os.environ['PYTEST_XDIST_WORKER']}")
    scratch.write_text(json.dumps(groups), encoding="utf-8")
    scratch.replace(target)  # whole or not at all: every worker writes the same groups


def make_scheduler(config: pytest.Config, log: Any) -> Any:
    """The controller's scheduler for ``--dist loadgroup``; None for another mode (xdist chooses)."""
    if not _grouping(config):
        return None
    from xdist.scheduler import LoadScopeScheduling

    class GroupScheduling(LoadScopeScheduling):  # type: ignore[misc]  # xdist is untyped here
        """xdist's loadscope, a test's scope being its group (read from the workers' file), else the test."""

        groups: dict[str, str] | None = None

        def _split_scope(self, nodeid: str) -> str:
            if self.groups is None:  # the workers wrote it before they reported their collections
                self.groups = json.loads(Path(os.environ[VARIABLE]).read_text(encoding="utf-8"))
            return self.groups.get(nodeid, nodeid)

    return GroupScheduling(config, log)
