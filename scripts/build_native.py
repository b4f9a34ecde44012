"""Compile the simulator's hot modules with mypyc into C extensions beside their sources (``make`` runs this).

Quick when nothing changed: the manifest of source hashes (``tools/blackpoker/native.json``) says the extensions
are current. Otherwise the old extensions and the manifest are removed first, the modules of
``blackpoker.native.COMPILED`` are compiled as one group (they call each other directly), and the manifest is
written last, so an interrupted or failed build leaves the simulator running its Python sources, never a
stale or partial extension. ``--check`` only prints the state.

Usage: .venv/bin/python scripts/build_native.py [--check]
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
os.environ["BLACKPOKER_PURE"] = "1"  # this process must not load the extensions it replaces
sys.path.insert(0, str(TOOLS))

from blackpoker import native  # noqa: E402


def built_files() -> list[Path]:
    """Every extension a build of the group leaves in the source tree."""
    return sorted(p for pattern in ("blackpoker/**/*.so", f"{native.GROUP}__mypyc*.so") for p in TOOLS.glob(pattern))


def build() -> None:
    from mypyc.build import mypycify  # the locked mypy's compiler
    from setuptools import setup

    sources = native.fingerprint()
    native.MANIFEST.unlink(missing_ok=True)
    for old in built_files():
        old.unlink()
    with tempfile.TemporaryDirectory(prefix="blackpoker-native-") as tmp:
        cwd = Path.cwd()
        os.chdir(TOOLS)  # build_ext --inplace puts each extension at its module's path from here
        try:
            modules = mypycify([str(native.source_of(m).relative_to(TOOLS)) for m in native.COMPILED],
                               opt_level="3", group_name=native.GROUP, target_dir=str(Path(tmp) / "c"))
            setup(name="blackpoker-native", ext_modules=modules, script_args=[
                "--quiet", "build_ext", "--inplace", "--parallel", str(os.cpu_count() or 1),
                "--build-temp", str(Path(tmp) / "temp"), "--build-lib", str(Path(tmp) / "lib")])
        finally:
            os.chdir(cwd)
    if native.fingerprint() != sources:
        raise SystemExit("build_native: a source changed during the build; run it again")
    text = json.dumps(native.manifest(sources), indent=1, sort_keys=True) + "\n"
    partial = native.MANIFEST.with_suffix(".json.partial")
    partial.write_text(text, encoding="utf-8")
    partial.replace(native.MANIFEST)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--check", action="store_true", help="print whether the extensions are current, build nothing")
    args = parser.parse_args()
    os.environ.pop("BLACKPOKER_PURE")
    state = native.status()
    if args.check or state == "compiled":
        print(f"simulator: {state}")
        return
    start = time.perf_counter()
    print(f"simulator: compiling {len(native.COMPILED)} modules with mypyc ({state.split(': ', 1)[1]})", flush=True)
    build()
    print(f"simulator: {native.status()} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
