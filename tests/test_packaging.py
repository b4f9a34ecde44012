"""The package installs on its own: package data, the lock, and a wheel that checks and builds from anywhere."""

from __future__ import annotations

import os
import re
import subprocess
import sysconfig
import tomllib
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from blackpoker.core import paths
from blackpoker.core.paths import ROOT
from sites import small_in_place
from wheels import WHEEL_GROUP, BuiltDist, pip_into, venv_without_pip

DATA_FOLDERS = ("definitions", "schemas", "templates", "source", "scenarios", "tutorial")
LOCK = ROOT / "requirements.lock"
PIP_LOCK = ROOT / "requirements-pip.lock"
PIN = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+)")


def _locked(lock: Path = LOCK) -> dict[str, str]:
    """Package name (canonical) -> pinned version, from a lock (requirements.lock unless named); every pin must carry
    hashes."""
    pins: dict[str, str] = {}
    lines = lock.read_text(encoding="utf-8").splitlines()
    for number, line in enumerate(lines):
        match = PIN.match(line)
        if match:
            assert line.endswith("\\") and "--hash=sha256:" in lines[number + 1], f"{match[1]} is pinned without hashes"
            pins[canonicalize_name(match[1])] = match[2]
    return pins


def _declared() -> list[Requirement]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    extras = project["optional-dependencies"]
    return [Requirement(r) for r in (*project["dependencies"], *extras["site"], *extras["test"])]


@pytest.mark.parametrize("name", DATA_FOLDERS)
def test_package_data_is_the_repository_folder(name: str) -> None:
    """The package's data folder links to the repository folder editors use, so there is one copy to edit."""
    link = ROOT / "tools" / "blackpoker" / "data" / name
    assert link.is_symlink() and os.readlink(link) == f"../../../{name}"
    assert link.resolve() == (ROOT / name).resolve()
    assert getattr(paths, name.upper()) == (ROOT / name).resolve()
    assert any((ROOT / name).iterdir())


def test_build_inputs_resolve_in_the_checkout() -> None:
    assert paths.CHECKOUT
    assert paths.existing_inputs(("tools/blackpoker/sim", "source/conf.py", "pyproject.toml", "nothing/here")) == [
        ROOT / "tools/blackpoker/sim", ROOT / "source/conf.py", ROOT / "pyproject.toml"]


def test_lock_covers_every_declared_dependency() -> None:
    """Every package pyproject.toml names is locked, at a version its range allows."""
    locked = _locked()
    for requirement in _declared():
        name = canonicalize_name(requirement.name)
        assert name in locked, f"{requirement.name} is declared but not in requirements.lock (run `make lock`)"
        assert requirement.specifier.contains(locked[name], prereleases=True), (
            f"requirements.lock pins {name}=={locked[name]}, outside {requirement} (run `make lock`)")


def test_installed_versions_equal_the_lock() -> None:
    """The environment the tests run in is the locked one, pip included: a drifted package is named here."""
    drift = []
    for name, pinned in sorted({**_locked(), **_locked(PIP_LOCK)}.items()):
        try:
            installed = version(name)
        except PackageNotFoundError:
            installed = "not installed"
        if installed != pinned:
            drift.append(f"{name}: locked {pinned}, installed {installed}")
    assert not drift, "the environment differs from requirements.lock (run `make setup`):\n" + "\n".join(drift)


@pytest.mark.build
@pytest.mark.slow
@pytest.mark.xdist_group(WHEEL_GROUP)
def test_wheel_installs_and_builds_from_another_folder(built_dist: BuiltDist, tmp_path: Path) -> None:
    """`python -m build` makes a wheel and an sdist; the wheel, installed into a fresh venv, starts a rules project
    (`blackpoker init`) in a folder that is not the checkout, checks it, plays its worked examples and builds it.
    The build is of the project with the small project's definitions and pages in place of v8.1's (everything else
    as `init` wrote it: schemas, scenarios, Sphinx configuration, static files, templates), so it takes seconds:
    what it shows (the installed package finds every file a build of a project of its own reads, and publishes
    every kind of output) holds for any rules, and v8.1's content is built from the same files by the run's shared
    build (test_install.py holds `init`'s definitions to the packaged ones byte for byte). The venv reaches the
    locked packages of the test environment (test_installed_versions_equal_the_lock holds them to the lock)
    through a path entry, which does not run that environment's editable install of the checkout. The archives
    are the run's one build of them (tests/wheels.py); the venv has no pip of its own (the outer one installs)."""
    wheel, sdist = built_dist.wheel, built_dist.sdist
    _assert_archives_hold_the_data(wheel, sdist)

    venv = tmp_path / "venv"
    venv_without_pip(venv)
    ask = "import sysconfig; print(sysconfig.get_paths()['purelib'])"
    purelib = Path(subprocess.run([str(venv / "bin" / "python"), "-c", ask], check=True, capture_output=True,
                                  text=True).stdout.strip())
    (purelib / "locked-test-packages.pth").write_text(sysconfig.get_paths()["purelib"] + "\n", encoding="utf-8")
    installed = pip_into(venv, "install", "--quiet", "--no-deps", str(wheel))
    assert installed.returncode == 0, installed.stderr

    work = tmp_path / "elsewhere"
    work.mkdir()
    tool = str(venv / "bin" / "blackpoker")
    env = dict(os.environ)
    made = subprocess.run([tool, "init", "project"], check=False, cwd=work, env=env, capture_output=True, text=True)
    assert made.returncode == 0, made.stderr
    checked = subprocess.run([tool, "check", "project/definitions"], check=False, cwd=work, env=env, capture_output=True, text=True)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("v8.1 ok:")
    played = subprocess.run([tool, "sim", "run", "--quiet", "scenarios/examples"], check=False, cwd=work / "project",
                            env=env, capture_output=True, text=True)  # the installed simulator, the project's examples
    assert played.returncode == 0, played.stdout + played.stderr
    assert "PASS" in played.stdout and "FAIL" not in played.stdout
    fetched = subprocess.run([tool, "fetch-pyodide", "--check"], check=False, cwd=work, env=env, capture_output=True,
                             text=True)  # the play page's runtime is fetched by the installed package, not a script
    assert fetched.returncode in (0, 1) and "Pyodide" in fetched.stdout + fetched.stderr, fetched.stderr
    small_in_place(work / "project")
    built = subprocess.run([tool, "build", "--definitions", "project/definitions", "--out", "site"], check=False, cwd=work,
                           env=env, capture_output=True, text=True)
    assert built.returncode == 0, built.stderr
    for name in ("index.html", "blackpoker.pdf", "actionlist/pdf/blackpoker-all.pdf", "blackpoker-rules.json",
                 "play/tutorial.html", "play/tutorial/lessons.json"):
        assert (work / "site" / name).is_file(), name
    where = subprocess.run([str(venv / "bin" / "python"), "-c", "import blackpoker; print(blackpoker.__file__)"],
                           cwd=work, capture_output=True, text=True, check=True).stdout
    assert Path(where).is_relative_to(venv)


def _assert_archives_hold_the_data(wheel: Path, sdist: Path) -> None:
    import tarfile
    import zipfile

    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    with tarfile.open(sdist) as tar:
        in_sdist = {name.split("/", 1)[1] for name in tar.getnames() if "/" in name}
    for name in DATA_FOLDERS:
        for file in (ROOT / name).rglob("*"):
            if file.is_file() and "__pycache__" not in file.parts:
                relative = file.relative_to(ROOT).as_posix()
                assert f"blackpoker/data/{relative}" in in_wheel, relative
                assert f"tools/blackpoker/data/{relative}" in in_sdist, relative
    for name in ("requirements.lock", "requirements-pip.lock", "definitions/actions.yaml", "Makefile"):
        assert name in in_sdist, name
