"""The compiled simulator: which modules mypyc compiles, and whether the compiled ones may be used.

``make`` compiles the simulator's hot modules with mypyc (``scripts/build_native.py``) into C extensions beside
their sources, which Python imports in preference to the ``.py`` files. That is only right while the extensions
were built from the sources as they are now: a maintainer who edits the engine and runs ``blackpoker`` without
``make`` must get the edited code, not a stale extension. So the build writes a manifest of the hashes of every
source the compiled code was built from (the simulator and the rules core it reads), and :func:`install`, run
first thing when ``blackpoker`` is imported, sends every compiled module back to its ``.py`` source when any of
those files differs, when the manifest is missing, or when ``BLACKPOKER_PURE`` is set. It is all or nothing: the
compiled modules call each other directly, so a mix of compiled and source modules would hold two copies of a class.
"""

from __future__ import annotations

import ast
import hashlib
import importlib.machinery
import importlib.util
import json
import os
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

PACKAGE = Path(__file__).resolve().parent
MANIFEST = PACKAGE / "native.json"
GROUP = "blackpoker_native"  # the shared library mypyc builds for the group: blackpoker_native__mypyc
PURE_VARIABLE = "BLACKPOKER_PURE"

# The modules self-play and the policies spend their time in (the scenario runner, the balance study and the rules
# model stay Python: the model is read by the renderers and the Sphinx extension, which use ``vars()`` on its
# records). Each must type-check strictly and avoid what native classes lack (``__dict__``).
COMPILED = (
    "blackpoker.core.cards",
    "blackpoker.core.frozen",
    "blackpoker.core.keycard",
    "blackpoker.core.targets",
    "blackpoker.sim.abilities",
    "blackpoker.sim.decisions",
    "blackpoker.sim.draw",
    "blackpoker.sim.effects",
    "blackpoker.sim.engine",
    "blackpoker.sim.frame_effects",
    "blackpoker.sim.frames",
    "blackpoker.sim.game_errors",
    "blackpoker.sim.lookup",
    "blackpoker.sim.observe",
    "blackpoker.sim.ops",
    "blackpoker.sim.policies.base",
    "blackpoker.sim.policies.determinize",
    "blackpoker.sim.policies.greedy",
    "blackpoker.sim.policies.ismcts",
    "blackpoker.sim.policies.observation",
    "blackpoker.sim.policies.uniform",
    "blackpoker.sim.requests",
    "blackpoker.sim.selfplay",
    "blackpoker.sim.setup",
    "blackpoker.sim.state",
    "blackpoker.sim.text",
    "blackpoker.sim.wording",
)
def source_of(module: str) -> Path:
    """The ``.py`` file of a module of the package (``__init__.py`` for a package)."""
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path / "__init__.py" if path.is_dir() else path.with_suffix(".py")


def _imports(module: str) -> set[str]:
    """The modules of the package that ``module`` imports (anywhere in it: under ``TYPE_CHECKING`` and in
    functions too, as the compiler reads those types), each named as its file is: ``from blackpoker.sim import
    lookup`` is ``blackpoker.sim.lookup``, ``from blackpoker.core.model import Rules`` is ``blackpoker.core.model``."""
    found: set[str] = set()
    package = module if source_of(module).name == "__init__.py" else module.rpartition(".")[0]
    for node in ast.walk(ast.parse(source_of(module).read_bytes(), str(source_of(module)))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:  # relative: from the package, one level up per dot after the first
                parts = package.split(".")
                base = ".".join(parts[:len(parts) - node.level + 1] + ([base] if base else []))
            for alias in node.names:
                found.add(f"{base}.{alias.name}" if _exists(f"{base}.{alias.name}") else base)
    return {name for name in found if name.split(".")[0] == PACKAGE.name and _exists(name)}


def _exists(module: str) -> bool:
    path = PACKAGE.parent.joinpath(*module.split("."))
    return path.with_suffix(".py").is_file() or (path / "__init__.py").is_file()


def sources() -> list[str]:
    """What the compiled code was built from: the compiled modules and every module of the package they import,
    directly or not. An edit of any of them makes the extensions stale; an edit elsewhere (the scenario runner,
    the renderers) does not."""
    seen: set[str] = set()
    todo = list(COMPILED)
    while todo:
        module = todo.pop()
        if module not in seen:
            seen.add(module)
            todo.extend(_imports(module) - seen)
    return sorted(source_of(m).relative_to(PACKAGE).as_posix() for m in seen)


def fingerprint(paths: Sequence[str] | None = None) -> dict[str, str]:
    """The SHA-256 of each source (by path relative to the package; default :func:`sources`); a missing file has
    none."""
    out: dict[str, str] = {}
    for name in sources() if paths is None else paths:
        try:
            out[name] = hashlib.sha256((PACKAGE / name).read_bytes()).hexdigest()
        except OSError:
            out[name] = "missing"
    return out


def manifest(hashes: dict[str, str]) -> dict[str, object]:
    """What the build writes beside the extensions (and :func:`status` compares)."""
    return {"python": sys.implementation.cache_tag, "modules": list(COMPILED), "sources": hashes}


def status() -> str:
    """``"compiled"`` when the extensions are used, else why not (a short English phrase, for maintainers)."""
    if os.environ.get(PURE_VARIABLE):
        return f"pure Python: {PURE_VARIABLE} is set"
    if not all(_extension(m) for m in COMPILED):
        return "pure Python: not compiled (run make)"
    try:
        built = json.loads(MANIFEST.read_text(encoding="utf-8"))
        recorded = built["sources"]
    except (OSError, ValueError, KeyError, TypeError):
        return "pure Python: no manifest of the compiled modules (run make)"
    # Only the files the build recorded are hashed (no import graph at every start): a change of what the
    # compiled code imports is itself an edit of a recorded file.
    if not isinstance(recorded, dict) or built != manifest(fingerprint(list(recorded))):
        return "pure Python: the compiled modules are older than their sources (run make)"
    return "compiled"


_chosen: str | None = None  # what install() found


def chosen() -> str:
    """What this process runs: :func:`status` as :func:`install` found it when ``blackpoker`` was imported."""
    return _chosen if _chosen is not None else status()


def install() -> None:
    """Import the sources instead of the extensions unless :func:`status` says they are current."""
    global _chosen
    if _chosen is None:
        _chosen = status()
        if _chosen != "compiled":
            sys.meta_path.insert(0, _SourceFinder())


def _extension(module: str) -> Path | None:
    """The built extension of a module, if there is one."""
    stem = source_of(module).with_suffix("")
    for suffix in importlib.machinery.EXTENSION_SUFFIXES:
        candidate = stem.with_name(stem.name + suffix)
        if candidate.exists():
            return candidate
    return None


class _SourceFinder:
    """A meta path finder that finds the compiled modules' ``.py`` sources (before the path finder, which would
    prefer the extension beside them)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> importlib.machinery.ModuleSpec | None:
        if fullname not in COMPILED:
            return None
        return importlib.util.spec_from_file_location(fullname, source_of(fullname))
