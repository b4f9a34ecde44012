"""Compile the simulator's hot modules with mypyc into C extensions beside their sources (``make`` runs this).

Quick when nothing changed: the manifest of source hashes (``tools/blackpoker/native.json``) says the extensions
are current. Otherwise the old extensions and the manifest are removed first, the modules of
``blackpoker.native.COMPILED`` are compiled as one group (they call each other directly), and the manifest is
written last, so an interrupted or failed build leaves the simulator running its Python sources, never a
stale or partial extension. ``--check`` only prints the state.

Compiling is a speed-up, not a requirement: without a working C compiler and the Python headers (probed first,
with a one-line C file, so their absence costs no mypyc run) or when the compilation fails, it prints one warning
(the compiler's output goes to ``build/native.log``) and exits 0, and the simulator runs its Python sources.
``BLACKPOKER_NATIVE=require`` (set by CI, which must prove that the simulator compiles) makes that an error, exit 1.

Usage: .venv/bin/python scripts/build_native.py [--check]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
TOOLS = ROOT / "tools"
os.environ["BLACKPOKER_PURE"] = "1"  # this process must not load the extensions it replaces
sys.path.insert(0, str(TOOLS))

from blackpoker import native  # noqa: E402

LOG = ROOT / "build" / "native.log"
REQUIRE_VARIABLE = "BLACKPOKER_NATIVE"  # "require": a simulator that cannot be compiled is an error


class CompileFailed(Exception):
    """The C compiler is missing or failed (its output is in :data:`LOG`)."""


@contextlib.contextmanager
def output_to_log() -> Iterator[None]:
    """Send this process's and its children's (the compiler's) output to :data:`LOG`: a failed compilation is
    one warning line, not pages of compiler errors."""
    LOG.parent.mkdir(parents=True, exist_ok=True)
    sys.stdout.flush()
    sys.stderr.flush()
    saved = os.dup(1), os.dup(2)
    with LOG.open("w", encoding="utf-8") as log:
        os.dup2(log.fileno(), 1)
        os.dup2(log.fileno(), 2)
        try:
            yield
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
            os.dup2(saved[0], 1)
            os.dup2(saved[1], 2)
            os.close(saved[0])
            os.close(saved[1])


def probe_compiler() -> None:
    """Compile a one-line C file that includes ``Python.h`` with the compiler the build would use (``CC``, else
    the one Python was built with, as setuptools chooses), so a missing compiler or missing headers is found in a
    moment."""
    import shlex
    import subprocess
    import sysconfig

    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    with tempfile.TemporaryDirectory(prefix="blackpoker-probe-") as tmp:
        source = Path(tmp) / "probe.c"
        source.write_text("#include <Python.h>\nint blackpoker_probe(void) { return 0; }\n", encoding="utf-8")
        try:
            done = subprocess.run([*command, "-c", str(source), "-o", str(Path(tmp) / "probe.o"),
                                   f"-I{sysconfig.get_paths()['include']}"], check=False)
        except OSError as error:
            raise CompileFailed(f"no C compiler ({command[0]}: {error.strerror})") from None
        if done.returncode:
            raise CompileFailed(f"the C compiler or the Python headers are missing ({command[0]} failed on a "
                                "file that includes Python.h)")


def built_files() -> list[Path]:
    """Every extension a build of the group leaves in the source tree."""
    return sorted(p for pattern in ("blackpoker/**/*.so", f"{native.GROUP}__mypyc*.so") for p in TOOLS.glob(pattern))


def build() -> None:
    """Compile the group (output to :data:`LOG`); CompileFailed when the compiler fails, leaving no extension."""
    with output_to_log():
        try:
            compile_group()
        except (Exception, SystemExit) as error:  # setuptools reports a failed compiler as SystemExit("error: …")
            for partial in built_files():
                partial.unlink()
            raise CompileFailed(f"the compilation failed ({str(error).strip() or type(error).__name__})") from None


def compile_group() -> None:
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
    try:
        with output_to_log():
            probe_compiler()
        print(f"simulator: compiling {len(native.COMPILED)} modules with mypyc ({state.split(': ', 1)[1]})",
              flush=True)
        build()
    except CompileFailed as error:
        required = os.environ.get(REQUIRE_VARIABLE) == "require"
        print(f"{'error' if required else 'warning'}: simulator not compiled: {error}; see "
              f"{LOG.relative_to(ROOT)}. " + (f"{REQUIRE_VARIABLE}=require asks for it." if required else
                                              "It runs from its Python sources (about 3x slower); "
                                              f"{REQUIRE_VARIABLE}=require makes this an error."), file=sys.stderr)
        raise SystemExit(1 if required else 0) from None
    print(f"simulator: {native.status()} in {time.perf_counter() - start:.0f} s")


if __name__ == "__main__":
    main()
