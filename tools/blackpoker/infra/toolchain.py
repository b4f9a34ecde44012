"""What changes the build's output besides its input files: the Python, the installed packages and the fonts.

Cache keys include it, so upgrading Sphinx or WeasyPrint, or installing or removing a font, renders again
instead of reusing output made with the old ones.
"""

from __future__ import annotations

import functools
import hashlib
import os
import sys
from importlib.metadata import distributions

FONT_DIRS = ("/usr/share/fonts", "/usr/local/share/fonts", "~/.fonts", "~/.local/share/fonts")


@functools.lru_cache(maxsize=1)
def toolchain() -> str:
    """Python's version, every installed distribution's name and version, and a digest of the font files
    (names, sizes and times: reading every font would cost more than a no-change build)."""
    packages = sorted({f"{d.name}=={d.version}" for d in distributions()})
    fonts = hashlib.sha256()
    for folder in FONT_DIRS:
        for root, dirs, files in os.walk(os.path.expanduser(folder)):
            dirs.sort()
            for name in sorted(files):
                stat = os.stat(os.path.join(root, name))
                fonts.update(f"{root}/{name} {stat.st_size} {stat.st_mtime_ns}\n".encode())
    digest = hashlib.sha256("\n".join(packages).encode()).hexdigest()[:16]
    return f"python {sys.version.split()[0]} packages {digest} fonts {fonts.hexdigest()[:16]}"
