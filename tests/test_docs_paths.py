"""The repository stands alone: no tracked file points into a particular machine's folders.

The rule: a tracked text file must not name a path under a user's or a workspace's folder (``/work/…``,
``/root/…``, ``/home/…``, ``/Users/…``, ``C:\\Users\\…``) nor the development notes kept outside the repository
(``shared/spec``). Well-known system locations that code looks in (``/usr/bin/chromium``, ``/usr/share/fonts``,
``/etc/…``, ``/tmp``) are not the project's documents and are allowed, and so is ``/home/pyodide``, the home folder
of Pyodide's own in-browser file system, where the play page's worker unpacks the engine. Documents refer to what the repository
holds: the rulebook's sections, the scenario files, the definitions. This file, which spells the rule out,
is the one file not scanned.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

from blackpoker.core.paths import ROOT

FORBIDDEN = re.compile(r"(?<![\w.~-])/(?:work|root|home(?!/pyodide/)|Users)/|shared[/]spec|\b[A-Za-z]:\\Users\\")


def _tracked_text_files() -> list[Path]:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout
    files = [ROOT / name for name in listed.decode("utf-8").split("\0") if name]
    return [f for f in files if f.is_file() and not f.is_symlink() and f.resolve() != Path(__file__).resolve()]


def _offending_lines(path: Path) -> list[str]:
    data = path.read_bytes()
    if b"\0" in data:
        return []  # binary (fonts, images)
    text = data.decode("utf-8", errors="replace")
    return [f"{path.relative_to(ROOT)}:{number}: {line.strip()}"
            for number, line in enumerate(text.splitlines(), start=1) if FORBIDDEN.search(line)]


def test_no_tracked_file_names_a_machine_path() -> None:
    files = _tracked_text_files()
    assert len(files) > 100  # the listing worked: definitions, sources, scenarios, code, tests
    offending = [line for path in files for line in _offending_lines(path)]
    assert not offending, "paths outside the repository:\n" + "\n".join(offending)


def test_the_rule_catches_machine_paths_and_allows_system_ones() -> None:
    caught = ["see /work/shared/notes.md", "(/root/.cache/x)", "`/home/alice/rules.md`", "/Users/bob/x",
              "notes in shared" + "/spec/rules.md", r"C:\Users\carol\x"]
    allowed = ["/usr/bin/chromium", "/usr/share/fonts", "/etc/fonts/fonts.conf", "/tmp/site", "/home/pyodide/engine",
               "tools/blackpoker/core/paths.py", "https://example.org/home/page", "scenarios/examples/e01.yaml"]
    assert [s for s in caught if not FORBIDDEN.search(s)] == []
    assert [s for s in allowed if FORBIDDEN.search(s)] == []
