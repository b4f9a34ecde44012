"""The package's wheel and sdist, built once per run (``python -m build``: the sdist, then the wheel from it) for
the tests that install or read them (test_packaging.py, test_install.py): each only reads the archives, and a build
costs seconds of CPU. Those tests share one xdist group (WHEEL_GROUP), so the archives are built once."""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from blackpoker.core.paths import ROOT

WHEEL_GROUP = "wheels.py::built_dist"


@dataclass(frozen=True)
class BuiltDist:
    wheel: Path
    sdist: Path


@pytest.fixture(scope="session")
def built_dist(tmp_path_factory: pytest.TempPathFactory) -> BuiltDist:
    dist = tmp_path_factory.mktemp("dist")
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(ROOT)], check=True,
                   capture_output=True)
    return BuiltDist(next(dist.glob("blackpoker-*.whl")), next(dist.glob("blackpoker-*.tar.gz")))


def venv_without_pip(venv: Path) -> None:
    """A venv made without pip: ensurepip costs seconds, and the outer pip serves it (``pip_into``)."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True)


def pip_into(venv: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The outer pip aimed at a venv (``--python``: pip runs under the venv's interpreter, so the scripts it writes
    start that interpreter and ``check`` sees its packages), without PYTHONPATH, which would show pip a checkout's
    metadata (``tools/*.egg-info``, which ``python -m build`` leaves) as an installed blackpoker."""
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    return subprocess.run([sys.executable, "-m", "pip", "--python", str(venv / "bin" / "python"),
                           "--disable-pip-version-check", *args], env=env, capture_output=True, text=True)
