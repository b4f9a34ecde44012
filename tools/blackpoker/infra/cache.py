"""A content-keyed store of build outputs: a step whose inputs did not change is copied, not re-rendered.

A key is the SHA-256 of every input file (path and bytes) plus any extra strings (versions, options). The
store keeps, per step and key, the files the step produced, relative to the site root, and the SHA-256 of each.

The cache is untrusted: a disk, a crash of another program or a user may have changed it. Every file restored is
checked against its recorded digest after it is copied (what is checked is what is published); an entry that
does not match, lists other files than it holds or is not a folder is discarded with one warning line, and the
step runs again.
"""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import tempfile
from collections.abc import Callable, Iterable
from pathlib import Path

from blackpoker.infra.fsutil import write_atomic

_KEY = re.compile("[0-9a-f]{64}")  # a step entry's name: its key


def fingerprint(roots: Iterable[Path], *extra: str, suffixes: tuple[str, ...] | None = None,
                skip_suffixes: tuple[str, ...] = (), max_bytes: int | None = None) -> str:
    """SHA-256 over the files under ``roots`` (sorted, with their paths; only ``suffixes`` if given, none of
    ``skip_suffixes``) and ``extra``. Files are read in blocks; with ``max_bytes``, a larger file counts by its
    size and modification time instead (a watcher's view of a file no build reads whole)."""
    digest = hashlib.sha256()
    for value in extra:
        digest.update(value.encode("utf-8") + b"\0")
    # in the order of the names hashed, not of the absolute paths: the same files give the same key wherever the
    # definitions are (a copy beside the toolkit or in /tmp would otherwise order them before or after its code)
    entries: list[tuple[str, bytes]] = []
    for root in roots:
        files = [root] if root.is_file() else sorted(p for p in root.rglob("*") if p.is_file())
        for path in files:
            if "__pycache__" in path.parts or (suffixes and path.suffix not in suffixes) or path.suffix in skip_suffixes:
                continue
            info = path.stat()
            if max_bytes is not None and info.st_size > max_bytes:
                content = f"{info.st_size} {info.st_mtime_ns}".encode()
            else:
                content = bytes.fromhex(file_digest(path))
            entries.append((str(path.relative_to(root.parent)), content))
    for name, content in sorted(entries):
        digest.update(name.encode("utf-8") + b"\0" + content + b"\0")
    return digest.hexdigest()


def file_digest(path: Path) -> str:
    """The SHA-256 of a file's bytes, read in blocks (a file of any size in little memory)."""
    with path.open("rb") as f:
        return hashlib.file_digest(f, "sha256").hexdigest()


def discard(path: Path) -> None:
    """Remove a damaged cache entry (a folder, a file or a link): renamed aside first, so no build sees it half
    removed; gone already (another build discarded it) is fine."""
    aside = path.with_name(f".bad-{os.getpid()}-{path.name}")
    try:
        path.rename(aside)
    except FileNotFoundError:
        return
    if aside.is_dir() and not aside.is_symlink():
        shutil.rmtree(aside, ignore_errors=True)
    else:
        aside.unlink(missing_ok=True)


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

    def restore(self, step: str, key: str, site: Path, warn: Callable[[str], None] = print) -> list[Path] | None:
        """Put the cached files of ``step`` into ``site`` if they were made with ``key`` and are intact; else None
        (a damaged entry is discarded, saying so through ``warn``, and none of its files is left in ``site``)."""
        entry = self._entry(step, key)
        if not (entry.exists() or entry.is_symlink()):
            return None
        files: list[Path] = []
        problem = self._check(entry)
        if problem is None:
            root = entry / "files"
            recorded: dict[str, str] = json.loads((entry / self.DIGESTS).read_text(encoding="utf-8"))
            try:
                for name, expected in sorted(recorded.items()):
                    target = site / name
                    _copy(root / name, target)
                    files.append(target)
                    if file_digest(target) != expected:
                        problem = f"{name} is not the file that was stored"
                        break
            except OSError as exc:  # removed or changed meanwhile
                problem = f"{exc.strerror or exc}"
        if problem is not None:
            for target in files:
                target.unlink(missing_ok=True)
            discard(entry)
            warn(f"warning: a damaged cache entry was discarded ({entry}: {problem}); the step runs again")
            return None
        os.utime(entry)  # most recently used: kept by retain
        return files

    DIGESTS = "digests.json"  # in an entry: every file's path (relative to files/) and SHA-256

    def _check(self, entry: Path) -> str | None:
        """What is wrong with an entry's shape (not its files' bytes), or None."""
        if entry.is_symlink() or not entry.is_dir():
            return "not a folder"
        listing = entry / self.DIGESTS
        try:
            recorded = json.loads(listing.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            return f"no readable {self.DIGESTS}"
        if not isinstance(recorded, dict) or not all(isinstance(v, str) for v in recorded.values()):
            return f"{self.DIGESTS} is not a list of digests"
        root = entry / "files"
        if root.is_symlink() or not root.is_dir():
            return "no files folder"
        held = {p.relative_to(root).as_posix(): p for p in root.rglob("*") if not p.is_dir() or p.is_symlink()}
        if set(held) != set(recorded):
            return "it holds other files than it lists"
        if any(p.is_symlink() or not p.is_file() for p in held.values()):
            return "a file is a link or not a regular file"
        return None

    def store(self, step: str, key: str, site: Path, files: Iterable[Path], parts: Iterable[str] = ()) -> None:
        """Remember ``files`` (inside ``site``) as the output of ``step`` for ``key``, made from ``parts``."""
        entry = self._entry(step, key)
        entry.parent.mkdir(parents=True, exist_ok=True)
        fresh = Path(tempfile.mkdtemp(dir=entry.parent, prefix=".new-"))
        try:
            digests = {}
            for path in files:
                name = path.relative_to(site).as_posix()
                _copy(path, fresh / "files" / name)
                digests[name] = file_digest(fresh / "files" / name)
            (fresh / "files").mkdir(exist_ok=True)
            write_atomic(fresh / "parts", "\n".join(parts))
            write_atomic(fresh / self.DIGESTS, json.dumps(digests, sort_keys=True, indent=0))
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
