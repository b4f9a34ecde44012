"""Builds at the same time: one at a time per output folder, and builds of different folders (sharing the
cache and the Sphinx work area's parent) each publish exactly what they would alone.

Slow (seven full builds), but it is the promise that `make serve` and `make` may run together. The builds are of
the small rules project (tests/projects/small), seconds each: what is asserted (locks, a shared cache, kept
Sphinx environments crossed over) holds for any rules. Each build is a process of its own, forked from an
interpreter that imported the toolkit and Sphinx once (tests/buildforks.py): the builds alone from one, the builds
at the same time from another, with another hash seed.
"""

from __future__ import annotations

import os
import queue
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from blackpoker.infra.locks import lock_path
from blackpoker.pipeline.build import MARKER
from buildforks import Build, Forks, two_seeds
from sites import small_project

OLD = "「防壁の次は兵士を出します。これが戦術の基本です。」"
NEW = "「防壁の次は兵士を出します。これが戦術の基本だぜ。」"
ENV = {**os.environ, "PYTHONUNBUFFERED": "1"}

pytestmark = [pytest.mark.build, pytest.mark.slow]


def _modified(tmp_path: Path) -> Path:
    """A second copy of the small project, with one action's flavour text changed."""
    target = small_project(tmp_path / "modified")
    path = target / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    assert OLD in text
    path.write_text(text.replace(OLD, NEW, 1), encoding="utf-8")
    return target


@pytest.fixture(scope="module")
def builders() -> Iterator[tuple[Forks, Forks]]:
    """Two build servers with different hash seeds: the builds alone, and the builds at the same time, so what
    two builds at once publish is compared with what each publishes alone under another seed."""
    alone, together = two_seeds()
    with Forks(env=ENV, seed=alone) as first, Forks(env=ENV, seed=together) as second:
        yield first, second


def _start(builder: Forks, definitions: Path, out: Path) -> Build:
    """``blackpoker build`` in a process of its own, its stdout and stderr merged into ``stdout``."""
    return builder.start("build", "--definitions", str(definitions), "--out", str(out))


def _finish(process: Build) -> str:
    output, _ = process.communicate(timeout=900)
    assert process.returncode == 0, output
    return output


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != MARKER}


def _differences(site: Path, reference: dict[str, bytes]) -> list[str]:
    got = _snapshot(site)
    return sorted(name for name in got.keys() | reference.keys() if got.get(name) != reference.get(name))


def test_two_builds_of_different_definitions_at_once_each_publish_their_own_site(
        tmp_path: Path, builders: tuple[Forks, Forks]) -> None:
    alone, together = builders
    original, modified = small_project(tmp_path / "original"), _modified(tmp_path)
    serial = tmp_path / "serial"  # each alone, with a cache of its own (beside its output folder)
    _finish(_start(alone, original, serial / "original" / "site"))
    _finish(_start(alone, modified, serial / "modified" / "site"))
    original_site, modified_site = _snapshot(serial / "original" / "site"), _snapshot(serial / "modified" / "site")
    assert original_site != modified_site
    assert any(NEW.encode() in data for data in modified_site.values())

    shared = tmp_path / "shared"  # both outputs in one folder: one cache, cold
    a, b = _start(together, original, shared / "a"), _start(together, modified, shared / "b")
    assert a.pid != b.pid and a.poll() is None and b.poll() is None  # two processes at once
    _finish(a), _finish(b)
    assert _differences(shared / "a", original_site) == []
    assert _differences(shared / "b", modified_site) == []

    # warm, and crossed over: each output's kept Sphinx environment and the cache entries hold the other text
    a, b = _start(together, modified, shared / "a"), _start(together, original, shared / "b")
    _finish(a), _finish(b)
    assert _differences(shared / "a", modified_site) == []
    assert _differences(shared / "b", original_site) == []


def _lines_until(process: Build, prefix: str, timeout: float = 300) -> list[str]:
    """The process's lines up to the first that starts with prefix; a reader thread, so that a build that
    never says it waits fails the test instead of hanging it."""
    assert process.stdout is not None
    stream, lines = process.stdout, queue.Queue[str]()

    def read() -> None:
        for line in iter(stream.readline, ""):
            lines.put(line)
            if line.startswith(prefix):
                return
        lines.put("")  # end of output

    threading.Thread(target=read, daemon=True).start()
    said: list[str] = []
    deadline = time.monotonic() + timeout
    while not said or not said[-1].startswith(prefix):
        try:
            line = lines.get(timeout=max(0.0, deadline - time.monotonic()))
        except queue.Empty:
            pytest.fail(f"no line starting with {prefix!r} within {timeout:.0f} s: {said}")
        assert line, f"the output ended without a line starting with {prefix!r}: {said}"
        said.append(line)
    return said


HOLDER = """
import sys, time
from pathlib import Path
from blackpoker.infra.locks import output_lock
with output_lock(Path(sys.argv[1]), print):
    Path(sys.argv[2]).touch()
    while not Path(sys.argv[3]).exists():
        time.sleep(0.05)
"""


def test_a_second_build_of_one_output_waits_for_the_first_and_says_so(tmp_path: Path,
                                                                      builders: tuple[Forks, Forks]) -> None:
    definitions = small_project(tmp_path / "project")
    out = tmp_path / "site"
    holding, release = tmp_path / "holding", tmp_path / "release"
    holder = subprocess.Popen([sys.executable, "-c", HOLDER, str(out), str(holding), str(release)], env=ENV)
    try:
        while not holding.exists():
            assert holder.poll() is None, "the lock holder ended early"
            time.sleep(0.05)
        build = _start(builders[0], definitions, out)
        assert build.stdout is not None
        # the inputs are checked before the lock (bad input fails fast, without waiting): one line per
        # definitions folder and warning, however many editions there are; then the build says it waits
        before = _lines_until(build, "waiting: ")
        assert all(line.startswith(("checked ", "warning: ")) for line in before[:-1]), before
        assert "waiting: another build is writing" in before[-1] and f"process {holder.pid}" in before[-1], before
        assert build.poll() is None and not out.exists()  # it waits: nothing written yet
        release.touch()
        _finish(build)
        assert (out / MARKER).is_file()
    finally:
        release.touch()
        holder.wait(timeout=60)
    assert lock_path(out).exists()  # kept beside the site for the next build
