"""The play page's Pyodide runtime: which one (the lock), where it is kept, and fetching it once.

The lock is ``templates/play/pyodide.lock.json`` (the npm package ``pyodide``, its exact version and the
registry's integrity hash of its tarball). ``blackpoker fetch-pyodide`` (which ``make`` runs) fetches the tarball
with ``npm pack`` (the registry's own client), checks it against the locked hash and unpacks only the files the page
needs into the user's cache, ``~/.cache/blackpoker/pyodide/VERSION/``; the build copies them from there and never
goes to the network. It lives in the package, not in ``scripts/``, so that an install from the wheel (pipx) can
fetch the runtime too.
"""

from __future__ import annotations

import base64
import hashlib
import json
import os
import shutil
import subprocess
import tarfile
import tempfile
from dataclasses import dataclass
from pathlib import Path

from blackpoker.core.paths import TEMPLATES

LOCK = TEMPLATES / "play" / "pyodide.lock.json"
RUNTIME_VARIABLE = "BLACKPOKER_PYODIDE"  # a folder holding the runtime's files, instead of the fetched one
MARK = ".integrity"  # in the runtime's folder: the integrity hash of the tarball its files came from
FETCH_COMMAND = "blackpoker fetch-pyodide"


class RuntimeMissing(Exception):
    """The Pyodide runtime was not fetched: the message (one line) says what to run."""


class FetchFailed(Exception):
    """The runtime could not be fetched (no npm, no network, a tarball that is not the locked one): one line."""


@dataclass(frozen=True)
class Runtime:
    version: str
    integrity: str
    files: tuple[str, ...]
    folder: Path


def runtime() -> Runtime:
    """The locked runtime and where it is kept: the user's cache (``$XDG_CACHE_HOME/blackpoker/pyodide/VERSION``,
    default ``~/.cache/…``), shared by every checkout and build folder, as pip's cache is; ``BLACKPOKER_PYODIDE``
    names another folder."""
    lock = json.loads(LOCK.read_text(encoding="utf-8"))
    version = lock["version"]
    given = os.environ.get(RUNTIME_VARIABLE)
    cache = Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache")
    folder = Path(given) if given else cache / "blackpoker" / "pyodide" / version
    return Runtime(version, lock["integrity"], tuple(lock["files"]), folder)


def runtime_files() -> list[Path]:
    """The runtime's files; raises :class:`RuntimeMissing` when one is absent."""
    rt = runtime()
    paths = [rt.folder / name for name in rt.files]
    missing = [p.name for p in paths if not p.is_file()]
    if missing:
        where = f"{RUNTIME_VARIABLE}={rt.folder}" if os.environ.get(RUNTIME_VARIABLE) else str(rt.folder)
        raise RuntimeMissing(f"the play page's Pyodide {rt.version} is not in {where} ({len(missing)} of its "
                             f"{len(rt.files)} files missing): run `{FETCH_COMMAND}` once (it uses npm), or `make`")
    return paths


def current(rt: Runtime) -> bool:
    """Whether the runtime's folder holds the files of the locked tarball (a folder named by
    ``BLACKPOKER_PYODIDE`` is the user's: holding the files is enough, and it is never fetched over)."""
    if os.environ.get(RUNTIME_VARIABLE):
        return all((rt.folder / name).is_file() for name in rt.files)
    mark = rt.folder / MARK
    return (mark.is_file() and mark.read_text(encoding="utf-8").strip() == rt.integrity
            and all((rt.folder / name).is_file() for name in rt.files))


def integrity_of(data: bytes) -> str:
    """The npm registry's integrity string of a tarball."""
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def fetch(rt: Runtime) -> int:
    """Fetch, check and unpack the locked tarball into ``rt.folder`` (replaced whole, never half-written);
    answers the unpacked files' bytes. Raises :class:`FetchFailed`."""
    if shutil.which("npm") is None:
        raise FetchFailed("npm is not installed (Debian: apt-get install npm); the play page needs it once, "
                          f"to fetch Pyodide {rt.version}")
    rt.folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=rt.folder.parent, prefix=".fetch-") as scratch:
        work = Path(scratch)
        done = subprocess.run(["npm", "pack", f"pyodide@{rt.version}", "--pack-destination", str(work), "--silent"],
                              capture_output=True, text=True, cwd=work, check=False)
        tarballs = list(work.glob("*.tgz"))
        if done.returncode != 0 or len(tarballs) != 1:
            reason = (done.stderr.strip().splitlines() or ["no tarball"])[-1]
            raise FetchFailed(f"npm pack pyodide@{rt.version} failed: {reason}")
        data = tarballs[0].read_bytes()
        if integrity_of(data) != rt.integrity:
            raise FetchFailed(f"pyodide@{rt.version}'s tarball has integrity {integrity_of(data)}, not the locked "
                              f"{rt.integrity}; nothing was unpacked")
        staging = work / "runtime"
        staging.mkdir()
        with tarfile.open(tarballs[0], "r:gz") as archive:
            for name in rt.files:
                source = archive.extractfile(archive.getmember(f"package/{name}"))
                if source is None:
                    raise FetchFailed(f"package/{name} in pyodide@{rt.version}'s tarball is not a file")
                (staging / name).write_bytes(source.read())
        (staging / MARK).write_text(rt.integrity + "\n", encoding="utf-8")
        if rt.folder.exists():
            shutil.rmtree(rt.folder)
        staging.rename(rt.folder)
    return sum((rt.folder / name).stat().st_size for name in rt.files)
