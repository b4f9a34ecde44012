"""A content-keyed store of build outputs: a step whose inputs did not change is copied, not re-rendered.

A key is the SHA-256 of every input file (path and bytes) plus any extra strings (versions, options). The
store keeps one entry per step: its key and the files it produced, relative to the site root.
"""

from __future__ import annotations

import hashlib
import shutil
from collections.abc import Iterable
from pathlib import Path

from blackpoker.pipeline.fsutil import write_atomic


def fingerprint(roots: Iterable[Path], *extra: str, suffixes: tuple[str, ...] | None = None) -> str:
    """SHA-256 over the files under ``roots`` (sorted, with their paths) and ``extra``."""
    digest = hashlib.sha256()
    for value in extra:
        digest.update(value.encode("utf-8") + b"\0")
    for root in sorted(roots):
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts or (suffixes and path.suffix not in suffixes):
                continue
            digest.update(str(path.relative_to(root.parent)).encode("utf-8") + b"\0")
            digest.update(path.read_bytes())
            digest.update(b"\0")
    return digest.hexdigest()


def _copy(source: Path, target: Path) -> None:
    """A copy, never a hard link: an edit of a published file must not reach the cache, nor the next build."""
    target.parent.mkdir(parents=True, exist_ok=True)
    shutil.copyfile(source, target)


class StepCache:
    """``cache_dir/<step>/key`` and ``cache_dir/<step>/files/…``."""

    def __init__(self, cache_dir: Path) -> None:
        self.dir = cache_dir

    def parts(self, step: str) -> list[str]:
        """The part-cache keys the stored output of ``step`` was made from (kept while it is current)."""
        path = self.dir / step / "parts"
        return path.read_text(encoding="utf-8").split() if path.is_file() else []

    def restore(self, step: str, key: str, site: Path) -> list[Path] | None:
        """Put the cached files of ``step`` into ``site`` if they were made with ``key``; else None."""
        entry = self.dir / step
        key_file = entry / "key"
        if not key_file.is_file() or key_file.read_text(encoding="utf-8") != key:
            return None
        files = []
        root = entry / "files"
        for source in sorted(p for p in root.rglob("*") if p.is_file()):
            target = site / source.relative_to(root)
            _copy(source, target)
            files.append(target)
        return files

    def store(self, step: str, key: str, site: Path, files: Iterable[Path], parts: Iterable[str] = ()) -> None:
        """Remember ``files`` (inside ``site``) as the output of ``step`` for ``key``, made from ``parts``."""
        entry = self.dir / step
        fresh = self.dir / f".{step}.new"
        shutil.rmtree(fresh, ignore_errors=True)
        for path in files:
            _copy(path, fresh / "files" / path.relative_to(site))
        write_atomic(fresh / "parts", "\n".join(parts))
        write_atomic(fresh / "key", key)
        shutil.rmtree(entry, ignore_errors=True)
        fresh.rename(entry)
