"""Installs that fit their users: the engine and the checks without the site's libraries, the packaged v8.1
definitions, and `blackpoker init`, which starts a rules project from them."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import sysconfig
import tomllib
from importlib.metadata import distribution
from pathlib import Path

import pytest
from packaging.requirements import Requirement
from packaging.utils import canonicalize_name

from blackpoker.core.paths import DEFINITIONS, ROOT, SOURCE
from clirun import run_cli
from sites import small_in_place
from wheels import WHEEL_GROUP, BuiltDist, pip_into, venv_without_pip

PROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
SITE_ONLY = ("sphinx", "weasyprint", "matplotlib", "pypdf", "jinja2", "furo", "myst_parser", "segno", "rich",
             "docutils")


def run(*args: str, cwd: Path, timeout: int = 300) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blackpoker", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=timeout)


def test_the_base_is_the_engine_and_the_checks_and_the_site_is_an_extra() -> None:
    base = {canonicalize_name(Requirement(r).name) for r in PROJECT["dependencies"]}
    assert base == {"click", "jsonschema", "pyyaml", "referencing"}
    site = {canonicalize_name(Requirement(r).name) for r in PROJECT["optional-dependencies"]["site"]}
    assert {"sphinx", "weasyprint", "matplotlib", "pypdf", "jinja2", "furo", "myst-parser", "segno", "rich"} <= site
    assert PROJECT["optional-dependencies"]["full"] == ["blackpoker[site,cluster]"]


def _pins(lock: Path) -> dict[str, str]:
    return {canonicalize_name(m[1]): m[2] for m in re.finditer(r"^([A-Za-z0-9][A-Za-z0-9._-]*)==(\S+) \\$",
                                                                  lock.read_text(encoding="utf-8"), re.M)}


def test_the_runtime_lock_is_the_development_lock_without_the_tools() -> None:
    """requirements-runtime.lock (base + site, for "install the lock, then the wheel with --no-deps") pins the
    same versions as requirements.lock, with hashes, and none of the test or cluster packages."""
    runtime, development = _pins(ROOT / "requirements-runtime.lock"), _pins(ROOT / "requirements.lock")
    assert runtime and all(development.get(name) == pinned for name, pinned in runtime.items())
    for tool in ("pytest", "mypy", "ruff", "hypothesis", "playwright", "import-linter", "build", "dask", "distributed"):
        assert tool not in runtime, tool
    for needed in ("sphinx", "weasyprint", "pyyaml", "jsonschema", "click"):
        assert needed in runtime, needed
    assert (ROOT / "requirements-runtime.lock").read_text(encoding="utf-8").count("--hash=sha256:") >= len(runtime)


def test_init_starts_a_project_that_checks_and_plays_its_scenarios(tmp_path: Path) -> None:
    """In-process (tests/clirun.py: the same main() as the command): nothing here needs a process of its own."""
    made = run_cli("init", "rules", cwd=tmp_path)
    assert made.returncode == 0, made.stderr
    project = tmp_path / "rules"
    for name in ("definitions/actions.yaml", "definitions/README.md", "schemas/actions.schema.json",
                 "scenarios/examples", "source/intro.md", "source/conf.py", "README.md", ".github/workflows/check.yml", ".gitignore"):
        assert (project / name).exists(), name
    for file in DEFINITIONS.glob("*.yaml"):  # the packaged v8.1, byte for byte
        assert (project / "definitions" / file.name).read_bytes() == file.read_bytes()
    workflow = (project / ".github" / "workflows" / "check.yml").read_text(encoding="utf-8")
    assert "blackpoker check definitions" in workflow and "@VERSION@" not in workflow
    assert "@VERSION@" not in (project / "README.md").read_text(encoding="utf-8")
    checked = run_cli("check", cwd=project)
    assert checked.returncode == 0, checked.stderr
    assert checked.stdout.startswith("v8.1 ok:")
    played = run_cli("sim", "run", "--quiet", "scenarios/examples", cwd=project)
    assert played.returncode == 0, played.stdout + played.stderr
    assert "PASS" in played.stdout and "FAIL" not in played.stdout


@pytest.mark.build
def test_init_gives_the_project_its_own_prose_that_its_build_publishes(tmp_path: Path) -> None:
    """The rulebook's prose is the project's: an edited sentence of ``source/`` is in the built page. The project
    `init` made keeps its layout, Sphinx configuration, static files and templates, but takes the small rules
    project's definitions and pages (tests/projects/small), so its build takes seconds; the wheel's test
    (test_packaging.py) builds a project made so by the installed package."""
    assert run("init", "rules", cwd=tmp_path).returncode == 0
    project = tmp_path / "rules"
    intro = project / "source" / "intro.md"
    assert intro.read_bytes() == (SOURCE / "intro.md").read_bytes() and (project / "source" / "conf.py").is_file()
    small_in_place(project)
    common = project / "source" / "common.md"
    sentence = "この一文はこのプロジェクトの散文にだけある。"
    common.write_text(common.read_text(encoding="utf-8") + f"\n{sentence}\n", encoding="utf-8")
    built = run("build", "--definitions", "definitions", "--out", "site", cwd=project, timeout=1800)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    assert sentence in (project / "site" / "common.html").read_text(encoding="utf-8")
    assert not any(sentence in page.read_text(encoding="utf-8") for page in SOURCE.glob("*.md"))  # the toolkit's own prose untouched


def test_init_refuses_a_folder_that_holds_anything(tmp_path: Path) -> None:
    (tmp_path / "rules").mkdir()
    (tmp_path / "rules" / "notes.txt").write_text("mine", encoding="utf-8")
    refused = run_cli("init", "rules", cwd=tmp_path)  # in-process (tests/clirun.py): the same exit and message
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1 and "not an empty folder" in refused.stderr
    assert [p.name for p in (tmp_path / "rules").iterdir()] == ["notes.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["rules"]  # no staging folder left


def _closure(names: list[str]) -> list[str]:
    """The distributions ``names`` need, theirs too (markers of this interpreter, no extras)."""
    seen: dict[str, str] = {}
    todo = list(names)
    while todo:
        dist = distribution(todo.pop())
        name = canonicalize_name(dist.metadata["Name"])
        if name in seen:
            continue
        seen[name] = dist.metadata["Name"]
        for text in dist.requires or ():
            requirement = Requirement(text)
            if requirement.marker is None or requirement.marker.evaluate():  # this interpreter, no extra
                todo.append(requirement.name)
    return list(seen.values())


def _copy_installed(names: list[str], purelib: Path) -> None:
    """Copy installed distributions (their files and metadata) into another environment's site-packages."""
    here = Path(sysconfig.get_paths()["purelib"])
    for name in names:
        for file in distribution(name).files or ():
            source = Path(str(file.locate()))
            if source.is_file() and source.is_relative_to(here) and "__pycache__" not in file.parts:
                (purelib / file).parent.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, purelib / file)


@pytest.mark.slow
@pytest.mark.xdist_group(WHEEL_GROUP)
def test_the_wheel_alone_plays_and_checks_without_the_site_libraries(built_dist: BuiltDist, tmp_path: Path) -> None:
    """The wheel (the run's one build of it, tests/wheels.py), installed into a bare venv (no pip of its own: the
    outer pip installs into it) with its base dependencies only (the locked test environment's own copies, so
    nothing is fetched), plays, checks, starts a project, and asks for the site extra to build."""
    venv = tmp_path / "venv"
    venv_without_pip(venv)
    python = str(venv / "bin" / "python")
    purelib = Path(subprocess.run([python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"],
                                  check=True, capture_output=True, text=True).stdout.strip())
    _copy_installed(_closure([Requirement(r).name for r in PROJECT["dependencies"]]), purelib)
    installed = pip_into(venv, "install", "--quiet", "--no-deps", "--no-index", str(built_dist.wheel))
    assert installed.returncode == 0, installed.stderr
    consistent = pip_into(venv, "check")
    assert consistent.returncode == 0, consistent.stdout  # the wheel's base dependencies are all there
    missing = subprocess.run([python, "-c", "import importlib.util as u; print([m for m in "
                              f"{SITE_ONLY!r} if u.find_spec(m)])"], capture_output=True, text=True, check=True)
    assert missing.stdout.strip() == "[]"

    tool = str(venv / "bin" / "blackpoker")
    work = tmp_path / "elsewhere"
    work.mkdir()
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "BLACKPOKER_PURE")}

    def use(*args: str, cwd: Path = work) -> subprocess.CompletedProcess[str]:
        return subprocess.run([tool, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)

    played = use("sim", "play", "--games", "3", "--seed", "1", "--format", "mast", "--frame", "extra")
    assert played.returncode == 0, played.stderr
    assert "games: 3" in played.stdout or "3 games" in played.stdout, played.stdout
    checked = use("check")  # no definitions here: the packaged v8.1
    assert checked.returncode == 0 and checked.stdout.startswith("v8.1 ok:"), checked.stderr
    assert use("init", "rules").returncode == 0
    assert use("check", cwd=work / "rules").stdout.startswith("v8.1 ok:")
    built = use("build", "--definitions", "rules/definitions", "--out", "site")
    assert built.returncode == 1 and "pip install 'blackpoker[site]'" in built.stderr, built.stderr
    assert len(built.stderr.splitlines()) == 1 and not (work / "site").exists()
