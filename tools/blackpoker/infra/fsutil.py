"""File writing that never leaves half-written output behind."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

FILE_MODE, FOLDER_MODE = 0o644, 0o755  # what a published site's files and folders get, whatever the umask


def make_publishable(root: Path) -> None:
    """Give every file under ``root`` mode 0644 and every folder 0755, so any web server can serve them."""
    root.chmod(FOLDER_MODE)
    for path in root.rglob("*"):
        if not path.is_symlink():
            path.chmod(FOLDER_MODE if path.is_dir() else FILE_MODE)


def remove_tree(path: Path) -> None:
    """Remove a folder the build made, read-only content included (a user or a tool may have made files or
    folders read-only, even mode 000); raise OSError, naming the path, if it still cannot be removed."""
    import shutil
    import stat
    tried: set[str] = set()

    def writable_and_retry(_function: Any, failed: str, exc: Any) -> None:
        # ``_function`` may be os.open or os.scandir (a folder that cannot be read), which cannot simply be
        # called again: the failed path is made accessible and removed here, whole, whatever failed on it
        error = exc[1] if isinstance(exc, tuple) else exc
        try:
            os.lstat(failed)
        except FileNotFoundError:  # removed here already, from the call that failed inside it
            return
        except OSError:
            pass
        if failed in tried:  # made accessible once and still failing: not ours to force
            raise error
        tried.add(failed)
        parent = os.path.dirname(failed)
        os.chmod(parent, os.stat(parent).st_mode | stat.S_IWUSR | stat.S_IXUSR)
        if not os.path.islink(failed) and os.path.isdir(failed):
            os.chmod(failed, os.stat(failed).st_mode | stat.S_IWUSR | stat.S_IXUSR | stat.S_IRUSR)
            shutil.rmtree(failed, onerror=writable_and_retry)
        elif os.path.lexists(failed):
            os.unlink(failed)

    if path.is_symlink() or path.is_file():
        path.unlink()
    elif path.exists():
        shutil.rmtree(path, onerror=writable_and_retry)


def exchange(a: Path, b: Path) -> bool:
    """Swap two existing paths in one atomic step (Linux ``renameat2(RENAME_EXCHANGE)``): at every moment each
    name holds a complete tree. False where the system cannot (another OS, an old kernel, some file systems)."""
    import ctypes
    import errno
    try:
        renameat2 = ctypes.CDLL(None, use_errno=True).renameat2
    except (AttributeError, OSError):
        return False
    at_fdcwd, rename_exchange = -100, 2
    if renameat2(at_fdcwd, os.fsencode(a), at_fdcwd, os.fsencode(b), rename_exchange) == 0:
        return True
    code = ctypes.get_errno()
    if code in (errno.ENOSYS, errno.EINVAL, errno.ENOTSUP):
        return False
    raise OSError(code, os.strerror(code), str(b))


def write_atomic(path: Path, data: bytes | str) -> None:
    """Write to a temporary file beside ``path`` and rename it into place."""
    path.parent.mkdir(parents=True, exist_ok=True)
    payload = data.encode("utf-8") if isinstance(data, str) else data
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        os.fchmod(fd, FILE_MODE)  # mkstemp makes 0600: a web server running as another user could not read it
        with os.fdopen(fd, "wb") as f:
            f.write(payload)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
