"""The play page's Pyodide runtime from the package (``pipeline/pyodide.py``, ``blackpoker fetch-pyodide``), so an
install from the wheel can fetch it; a build without it stops at once with one line that says what to run."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.pyodide import RUNTIME_VARIABLE, RuntimeMissing, current, runtime, runtime_files
from clirun import run_cli


def _run(args: list[str], tmp_path: Path, **env: str) -> subprocess.CompletedProcess[str]:
    """The command as ``python -m blackpoker`` runs it, in this process (tests/clirun.py), with ``env`` set."""
    return run_cli(*args, cwd=tmp_path, env=env)


def test_a_build_without_the_runtime_stops_before_any_work_with_one_line(tmp_path: Path) -> None:
    empty = tmp_path / "no-runtime"
    empty.mkdir()
    done = _run(["build", "--definitions", str(DEFINITIONS), "--no-editions", "--out", str(tmp_path / "site")], tmp_path,
                **{RUNTIME_VARIABLE: str(empty)})
    assert done.returncode == 1, done.stderr
    said = [line for line in done.stderr.splitlines() if not line.startswith("checked definitions")]
    assert len(said) == 1, done.stderr
    assert said[0].startswith("error: the play page's Pyodide ") and "run `blackpoker fetch-pyodide`" in said[0]
    assert "Traceback" not in done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == ["no-runtime"], "nothing was written"


def test_the_runtime_check_names_the_command(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(RUNTIME_VARIABLE, str(tmp_path))
    with pytest.raises(RuntimeMissing, match=r"is not in BLACKPOKER_PYODIDE=.*run `blackpoker fetch-pyodide`"):
        runtime_files()
    assert not current(runtime())
    for name in runtime().files:
        (tmp_path / name).write_bytes(b"x")
    assert len(runtime_files()) == len(runtime().files) and current(runtime())  # the user's own folder


def test_fetch_check_and_a_fetch_without_npm_are_one_line_and_exit_1(tmp_path: Path) -> None:
    empty = tmp_path / "runtime"
    empty.mkdir()
    checked = _run(["fetch-pyodide", "--check"], tmp_path, **{RUNTIME_VARIABLE: str(empty)})
    assert checked.returncode == 1 and len(checked.stderr.splitlines()) == 1, checked.stderr
    assert "is not in" in checked.stderr and "run `blackpoker fetch-pyodide`" in checked.stderr
    # a fresh cache and no npm on the PATH: one line that says how to get npm, and no folder half-written
    cache = tmp_path / "cache"
    no_npm = _run(["fetch-pyodide"], tmp_path, XDG_CACHE_HOME=str(cache), PATH=str(tmp_path / "bin"),
                  **{RUNTIME_VARIABLE: ""})
    assert no_npm.returncode == 1 and len(no_npm.stderr.splitlines()) == 1, no_npm.stderr
    assert no_npm.stderr.startswith("error: npm is not installed")
    assert not (cache / "blackpoker" / "pyodide" / runtime().version).exists()


@pytest.mark.skipif(not current(runtime()), reason="the Pyodide runtime is not fetched here (run make)")
def test_fetch_is_quick_when_the_runtime_is_there(tmp_path: Path) -> None:
    done = _run(["fetch-pyodide"], tmp_path)
    assert done.returncode == 0 and done.stdout.startswith(f"Pyodide {runtime().version} is at "), done.stderr


@pytest.mark.skipif(not current(runtime()), reason="the Pyodide runtime is not fetched here (run make)")
def test_the_page_gets_pyodides_package_index_without_the_packages(tmp_path: Path) -> None:
    """The engine loads no Pyodide package: the vendored index lists none (0.1 MB less to fetch and parse at every
    start), and keeps the runtime's own description, which loadPyodide reads."""
    from blackpoker.core.loader import load_rules
    from blackpoker.pipeline.playpage import build_play
    build_play(load_rules(), tmp_path)
    fetched = json.loads((runtime().folder / "pyodide-lock.json").read_text(encoding="utf-8"))
    vendored = json.loads((tmp_path / "play" / "pyodide" / "pyodide-lock.json").read_text(encoding="utf-8"))
    assert fetched["packages"] and vendored == {"info": fetched["info"], "packages": {}}
    for name in runtime().files:
        if name != "pyodide-lock.json":
            assert (tmp_path / "play" / "pyodide" / name).read_bytes() == (runtime().folder / name).read_bytes()
