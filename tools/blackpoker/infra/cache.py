"""A content-keyed store of build outputs: a step whose inputs did not change is copied, not re-rendered.

A key is the SHA-256 of every input file (path and bytes) plus any extra strings (versions, options). The
store keeps, per step and key, the files the step produced, relative to the site root.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
import tempfile
from collections.abc import Iterable
from pathlib import Path

from blackpoker.infra.fsutil import write_atomic

_KEY = re.compile("[0-9a-f]{64}")  # a step entry's name: its key


def fingerprint(roots: Iterable[Path], *extra: str, suffixes: tuple[str, ...] | None = None,
                skip_suffixes: tuple[str, ...] = ()) -> str:
    """SHA-256 over the files under ``roots`` (sorted, with their paths; only ``suffixes`` if given, none of
    ``skip_suffixes``) and ``extra``."""
    digest = hashlib.sha256()
    for value in extra:
        digest.update(value.encode("utf-8") + b"\0")
    for root in sorted(roots):
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts or (suffixes and path.suffix not in suffixes) or path.suffix in skip_suffixes:
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
    """``cache_dir/<step>/<key>/files/…`` and ``…/<key>/parts``: one entry per step and key.

    An entry is written into a temporary folder and renamed into place whole, and never changed after: a build
    that finds an entry finds it complete, whatever other builds do meanwhile. Old entries are removed by
    :meth:`retain`, which the build calls only when no other build uses the cache.
    """

    KEEP = 3  # entries kept per step: the newest used, so builds of a few outputs or branches stay warm

    def __init__(self, cache_dir: Path) -> None:
        self.dir = cache_dir

    def _entry(self, step: str, key: str) -> Path:
        return self.dir / step / key

    def restore(self, step: str, key: str, site: Path) -> list[Path] | None:
        """Put the cached files of ``step`` into ``site`` if they were made with ``key``; else None."""
        entry = self._entry(step, key)
        if not entry.is_dir():
            return None
        os.utime(entry)  # most recently used: kept by retain
        files = []
        root = entry / "files"
        for source in sorted(p for p in root.rglob("*") if p.is_file()):
            target = site / source.relative_to(root)
            _copy(source, target)
            files.append(target)
        return files

    def store(self, step: str, key: str, site: Path, files: Iterable[Path], parts: Iterable[str] = ()) -> None:
        """Remember ``files`` (inside ``site``) as the output of ``step`` for ``key``, made from ``parts``."""
        entry = self._entry(step, key)
        entry.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=entry.parent, prefix=".new-"))
        try:
            for path in files:
                _copy(path, fresh / "files" / path.relative_to(site))
            (fresh / "files").mkdir(exist_ok=True)
            write_atomic(fresh / "parts", "\n".join(parts))
            fresh.chmod(0o755)
            fresh.rename(entry)
        except OSError:
            if not entry.is_dir():  # not another build that stored the same entry first
                raise
        finally:
            shutil.rmtree(fresh, ignore_errors=True)

    def retain(self) -> set[str]:
        """Remove all but the ``KEEP`` most recently used entries of each step (and any half-written one);
        return the part-cache keys the kept entries were made from. Only with the cache to oneself."""
        parts: set[str] = set()
        if not self.dir.is_dir():
            return parts
        for step in (p for p in self.dir.iterdir() if p.is_dir()):
            entries = sorted((p for p in step.iterdir() if p.is_dir()), key=lambda p: p.stat().st_mtime_ns, reverse=True)
            kept = [p for p in entries if _KEY.fullmatch(p.name)][: self.KEEP]
            for entry in (p for p in step.iterdir() if p not in kept):  # and what older versions kept here
                if entry.is_dir() and not entry.is_symlink():
                    shutil.rmtree(entry, ignore_errors=True)
                else:
                    entry.unlink(missing_ok=True)
            for entry in kept:
                listing = entry / "parts"
                parts.update(listing.read_text(encoding="utf-8").split() if listing.is_file() else ())
        return parts
