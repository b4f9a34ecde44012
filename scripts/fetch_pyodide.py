"""Fetch the play page's Pyodide runtime (``make`` runs this): the npm package at the locked version, its tarball
checked against the locked integrity hash, and only the files the page needs unpacked.

The lock is ``templates/play/pyodide.lock.json``; the runtime goes to ``~/.cache/blackpoker/pyodide/VERSION/`` (see
``blackpoker.pipeline.playpage.runtime``). Quick when that folder already holds the files of the locked tarball (its
``.integrity`` file records which). The tarball is fetched with ``npm pack`` (the registry's own client); a
failure is one line and exit 1, and nothing half-written is left.

Usage: .venv/bin/python scripts/fetch_pyodide.py [--check]
"""

from __future__ import annotations

import argparse
import base64
import hashlib
import shutil
import subprocess
import sys
import tarfile
import tempfile
from pathlib import Path

from blackpoker.pipeline.playpage import Runtime, runtime

MARK = ".integrity"


def current(rt: Runtime) -> bool:
    mark = rt.folder / MARK
    return (mark.is_file() and mark.read_text(encoding="utf-8").strip() == rt.integrity
            and all((rt.folder / name).is_file() for name in rt.files))


def integrity_of(data: bytes) -> str:
    return "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode("ascii")


def fetch(rt: Runtime) -> None:
    if shutil.which("npm") is None:
        raise SystemExit("fetch_pyodide: npm is not installed (apt-get install npm); the play page needs it once, "
                         "to fetch the Pyodide runtime")
    rt.folder.parent.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory(dir=rt.folder.parent, prefix=".fetch-") as scratch:
        work = Path(scratch)
        done = subprocess.run(["npm", "pack", f"pyodide@{rt.version}", "--pack-destination", str(work), "--silent"],
                              capture_output=True, text=True, cwd=work, check=False)
        tarballs = list(work.glob("*.tgz"))
        if done.returncode != 0 or len(tarballs) != 1:
            reason = (done.stderr.strip().splitlines() or ["no tarball"])[-1]
            raise SystemExit(f"fetch_pyodide: npm pack pyodide@{rt.version} failed: {reason}")
        data = tarballs[0].read_bytes()
        if integrity_of(data) != rt.integrity:
            raise SystemExit(f"fetch_pyodide: pyodide@{rt.version}'s tarball has integrity {integrity_of(data)}, "
                             f"not the locked {rt.integrity}; nothing was unpacked")
        staging = work / "runtime"
        staging.mkdir()
        with tarfile.open(tarballs[0], "r:gz") as archive:
            for name in rt.files:
                member = archive.getmember(f"package/{name}")
                source = archive.extractfile(member)
                if source is None:
                    raise SystemExit(f"fetch_pyodide: package/{name} in the tarball is not a file")
                (staging / name).write_bytes(source.read())
        (staging / MARK).write_text(rt.integrity + "\n", encoding="utf-8")
        if rt.folder.exists():
            shutil.rmtree(rt.folder)
        staging.rename(rt.folder)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="only say whether the runtime is fetched")
    args = parser.parse_args()
    rt = runtime()
    if current(rt):
        print(f"fetch_pyodide: Pyodide {rt.version} is at {rt.folder}")
        return 0
    if args.check:
        print(f"fetch_pyodide: Pyodide {rt.version} is not fetched (run make)")
        return 1
    fetch(rt)
    size = sum((rt.folder / name).stat().st_size for name in rt.files)
    print(f"fetch_pyodide: Pyodide {rt.version} ({size / 1e6:.1f} MB) checked and unpacked to {rt.folder}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
