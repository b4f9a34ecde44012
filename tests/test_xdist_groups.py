"""The tests that share a build run on one worker (tests/xdistgroups.py): a small suite under ``-n 2 --dist
loadgroup``, with this project's scheduler and, as a canary, with pytest-xdist's own, whose groups pytest 9 loses."""

from __future__ import annotations

import os
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

import pytest

pytest.importorskip("xdist")

CONFTEST = '''
import pytest
import xdistgroups

def pytest_configure(config):
    xdistgroups.configure(config)

@pytest.hookimpl(optionalhook=True)
def pytest_xdist_make_scheduler(config, log):
    return xdistgroups.make_scheduler(config, log)
'''

SUITE = '''
import os
import pytest

def _ran(group):
    with open(os.environ["RAN"], "a") as f:
        f.write(f"{group} {os.environ['PYTEST_XDIST_WORKER']}\\n")

@pytest.mark.xdist_group("one")
@pytest.mark.parametrize("n", range(6))
def test_one(n):
    _ran("one")

@pytest.mark.xdist_group("two")
@pytest.mark.parametrize("n", range(6))
def test_two(n):
    _ran("two")

@pytest.mark.parametrize("n", range(6))
def test_free(n):
    _ran("free")
'''


def _workers(tmp_path: Path, ours: bool) -> dict[str, set[str]]:
    """Which workers ran each group's tests."""
    suite = tmp_path / ("ours" if ours else "xdist")
    suite.mkdir()
    (suite / "test_suite.py").write_text(SUITE, encoding="utf-8")
    if ours:
        (suite / "conftest.py").write_text(CONFTEST, encoding="utf-8")
    ran = suite / "ran.txt"
    env = {**os.environ, "RAN": str(ran), "PYTHONPATH": str(Path(__file__).parent)}
    env.pop("PYTEST_XDIST_WORKER", None)  # this test may itself run in a worker
    env.pop("BLACKPOKER_TEST_GROUPS", None)
    env.pop("PYTEST_ADDOPTS", None)  # the outer run's options (--cpu-report) are not the inner suite's
    done = subprocess.run([sys.executable, "-m", "pytest", "-n", "2", "--dist", "loadgroup", "-q", "-p",
                           "no:cacheprovider", "-p", "no:randomly", "--rootdir", str(suite), str(suite)],
                          cwd=suite, env=env, capture_output=True, text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    workers: dict[str, set[str]] = defaultdict(set)
    for line in ran.read_text(encoding="utf-8").splitlines():
        group, worker = line.split()
        workers[group].add(worker)
    return workers


def test_each_group_runs_on_one_worker(tmp_path: Path) -> None:
    ours = _workers(tmp_path, ours=True)
    assert len(ours["one"]) == 1 and len(ours["two"]) == 1, dict(ours)


@pytest.mark.slow  # a second small suite: the whole suite notices an xdist that keeps its groups again
def test_xdist_s_own_loadgroup_still_loses_the_groups(tmp_path: Path) -> None:
    """The canary: when pytest-xdist keeps its groups again under this pytest, tests/xdistgroups.py can go."""
    theirs = _workers(tmp_path, ours=False)
    assert len(theirs["one"]) > 1 or len(theirs["two"]) > 1, (
        f"pytest-xdist's own --dist loadgroup kept each group on one worker ({dict(theirs)}): it works with this "
        "pytest again, so tests/xdistgroups.py and its hooks in conftest.py are no longer needed")


DUMP = '''
def pytest_collection_finish(session):
    for item in session.items:
        marker = item.get_closest_marker("xdist_group")
        print("GROUP", item.nodeid, marker.args[0] if marker else "-")
'''


def test_the_tests_of_a_session_build_are_one_group_across_files(tmp_path: Path) -> None:
    """``other_edition`` (conftest.py) is read by two files: their tests of it are one group, so one worker builds
    it once; the same files' other tests are in no group of it (test_editions_build.py's read the shared build)."""
    (tmp_path / "groupsdump.py").write_text(DUMP, encoding="utf-8")
    tests = Path(__file__).parent
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(tmp_path), os.environ.get("PYTHONPATH", "")])}
    env.pop("PYTEST_ADDOPTS", None)
    done = subprocess.run([sys.executable, "-m", "pytest", "--collect-only", "-q", "-p", "no:cacheprovider", "-p",
                           "groupsdump", "-n", "0", str(tests / "test_other_edition_build.py"),
                           str(tests / "test_editions_build.py")], cwd=tests.parent, env=env, capture_output=True,
                          text=True, timeout=120, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    groups = dict(line.split()[1:] for line in done.stdout.splitlines() if line.startswith("GROUP "))
    other = {test for test, group in groups.items() if group == "other_edition"}
    assert {t.partition("::")[0] for t in other} == {"tests/test_other_edition_build.py", "tests/test_editions_build.py"}
    assert other == {t for t in groups if t.startswith("tests/test_other_edition_build.py")} | {
        "tests/test_editions_build.py::test_an_edit_in_v81_runs_nothing_of_v82"}
    assert all(groups[t] == "-" for t in groups.keys() - other), groups
