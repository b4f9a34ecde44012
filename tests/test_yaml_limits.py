"""Hostile YAML gets a located error and exit 2 at once: no crash, no recursion error, no bomb (issue 13, item 5)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from blackpoker.core.paths import DEFINITIONS

# (text appended to ruleset.yaml, line of the error counted from the first appended line, column, message start)
CASES = [
    ("loop: &r [*r]", 0, 11, "the alias '*r' is not supported"),
    ("x: " + "[" * 50_000, 0, 67, "nested more than 64 levels deep"),
    ("x: " + "[" * 1_000 + "]" * 1_000, 0, 67, "nested more than 64 levels deep"),
    ('a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n'
     "c: [*b,*b,*b,*b,*b,*b,*b,*b,*b]", 1, 8, "the alias '*a' is not supported"),
    ("a: !!python/object/apply:os.system [ls]", 0, 4, "the tag 'tag:yaml.org,2002:python/object/apply:os' is not"),
    ("c:\n  <<: {x: 2}", 1, 3, "the merge key '<<' is not supported"),
]


@pytest.mark.parametrize(("appended", "line", "column", "expected"), CASES,
                         ids=["loop", "deep-line", "deep", "bomb", "tag", "merge"])
def test_hostile_yaml_is_refused_and_located(tmp_path: Path, appended: str, line: int, column: int,
                                             expected: str) -> None:
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    ruleset = defs / "ruleset.yaml"
    lines = len(ruleset.read_text(encoding="utf-8").splitlines())
    with ruleset.open("a", encoding="utf-8") as f:
        f.write(appended + "\n")
    result = subprocess.run([sys.executable, "-m", "blackpoker", "check", "defs"], capture_output=True, text=True,
                            cwd=tmp_path, timeout=120)
    assert result.returncode == 2, result.stderr[-500:]
    assert result.stderr.splitlines()[0].startswith(f"defs/ruleset.yaml:{lines + 1 + line}:{column}: {expected}")
    assert "Traceback" not in result.stderr
