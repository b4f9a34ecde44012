"""Which of the package's source files a piece of work runs: the modules it names and all they import.

A build step's cache key covers exactly this code, so editing one module invalidates only the steps that
run it (editing the preview server invalidates none). Imports are read from the source (imports inside
functions too), so the closure cannot miss a module that is imported lazily.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable
from functools import cache
from pathlib import Path

from blackpoker.core.paths import PACKAGE

ROOT_PACKAGE = "blackpoker"


def module_file(module: str) -> Path | None:
    """The source file of ``blackpoker.…`` module ``module`` (a package's ``__init__.py``), if there is one."""
    parts = module.split(".")
    if parts[0] != ROOT_PACKAGE:
        return None
    base = PACKAGE.joinpath(*parts[1:])
    for candidate in (base.with_suffix(".py"), base / "__init__.py"):
        if candidate.is_file():
            return candidate
    return None


@cache
def _imports(path: Path, mtime_ns: int) -> frozenset[str]:
    """The ``blackpoker`` modules one file imports, wherever in the file (``mtime_ns`` keys the memo)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_bytes(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.add(node.module)
            found.update(f"{node.module}.{alias.name}" for alias in node.names)  # submodules imported by name
    return frozenset(name for name in found if name.split(".")[0] == ROOT_PACKAGE)


def code_closure(modules: Iterable[str]) -> list[Path]:
    """The files of ``modules``, of every module they import, transitively, and of the packages holding them."""
    seen: set[Path] = set()
    named: set[str] = set()  # each name looked up once: the files import the same modules many times over
    pending = list(modules)
    while pending:
        parts = pending.pop().split(".")
        for depth in range(1, len(parts) + 1):  # importing a.b.c runs a/__init__ and a/b/__init__ too
            name = ".".join(parts[:depth])
            if name in named:
                continue
            named.add(name)
            path = module_file(name)
            if path is None or path in seen:
                continue
            seen.add(path)
            pending.extend(_imports(path, path.stat().st_mtime_ns))
    return sorted(seen)


def module_names(files: Iterable[Path]) -> list[str]:
    """The ``blackpoker.…`` names of these source files (a package by its name), as :func:`code_closure` gives them."""
    names = []
    for file in files:
        parts = file.relative_to(PACKAGE).with_suffix("").parts
        names.append(".".join((ROOT_PACKAGE, *(parts[:-1] if parts[-1] == "__init__" else parts))))
    return names
