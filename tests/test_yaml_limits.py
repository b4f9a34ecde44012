"""Hostile YAML gets a located error and exit 2 at once: no crash, no recursion error, no bomb (issue 13, item 5)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from blackpoker.core.paths import DEFINITIONS
from clirun import run_cli

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
    result = run_cli("check", "defs", cwd=tmp_path)
    assert result.returncode == 2, result.stderr[-500:]
    assert result.stderr.splitlines()[0].startswith(f"defs/ruleset.yaml:{lines + 1 + line}:{column}: {expected}")
    assert "Traceback" not in result.stderr


def _check(defs: Path) -> subprocess.CompletedProcess[str]:
    return run_cli("check", defs.name, cwd=defs.parent)


@pytest.mark.parametrize(("insert", "expected"), [
    (b"\x00", "the character U+0000 is not allowed in YAML"),
    (b"\x07", "the character U+0007 is not allowed in YAML"),
    (b"\xff", "not UTF-8 text: invalid start byte (byte 0xff)"),
], ids=["nul", "control", "not-utf8"])
def test_a_bad_byte_is_located_at_its_line_and_column(tmp_path: Path, insert: bytes, expected: str) -> None:
    """Not at 1:1 with a byte offset: the line and column an editor shows (item 18)."""
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    fogs = defs / "fogs.yaml"
    lines = fogs.read_bytes().split(b"\n")
    lines[9] = "日本".encode() + insert + lines[9][len("日本".encode()):]  # line 10, after two characters
    fogs.write_bytes(b"\n".join(lines))
    result = _check(defs)
    assert result.returncode == 2, result.stderr
    assert result.stderr.splitlines()[0] == f"defs/fogs.yaml:10:3: {expected}" + result.stderr.splitlines()[0].split(expected, 1)[1]
    assert "Traceback" not in result.stderr


def test_a_file_over_the_size_limit_is_refused_unparsed(tmp_path: Path) -> None:
    from blackpoker.core.yamlsource import MAX_BYTES
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    with (defs / "ruleset.yaml").open("a", encoding="utf-8") as f:
        f.write("# " + "x" * MAX_BYTES + "\n")
    result = _check(defs)
    assert result.returncode == 2
    assert result.stderr.splitlines()[0].startswith("defs/ruleset.yaml:1:1: the file is larger than 10 MB")


def test_a_scenario_that_is_a_device_is_a_one_line_environment_error(tmp_path: Path) -> None:
    """A link to /dev/zero would be read for ever: refused unread, as a link out of its folder (exit 2, issue 25
    item 12); a pipe in the folder itself is the machine's state: refused unread, exit 1 (item 16)."""
    link = tmp_path / "zero.yaml"
    link.symlink_to("/dev/zero")
    result = run_cli("sim", "run", str(link))
    assert result.returncode == 2, result.stderr
    assert "is a link to a file outside its folder" in result.stderr and "(it is not read)" in result.stderr
    pipe = tmp_path / "pipe.yaml"
    os.mkfifo(pipe)
    result = run_cli("sim", "run", str(pipe))
    assert result.returncode == 1, result.stderr
    assert result.stderr.strip() == f"{pipe}: not a regular file (a device, a pipe or a folder); expected a YAML file"


def test_an_unreadable_definitions_file_is_a_one_line_environment_error(tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch,
                                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Permissions are the machine's state, not the text's: exit 1 and the path (item 16). As root no file is
    unreadable, so reading it is made to fail the way the system fails it."""
    import errno

    from blackpoker.cli.main import main
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    target = defs / "fogs.yaml"
    real_open = Path.open

    def refusing_open(self: Path, *args: Any, **kwargs: Any) -> Any:  # Path.open's many overloads
        if self == target:
            raise PermissionError(errno.EACCES, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refusing_open)
    monkeypatch.setattr(sys, "argv", ["blackpoker", "check", str(defs)])
    with pytest.raises(SystemExit) as stopped:
        main()
    assert stopped.value.code == 1
    assert capsys.readouterr().err.strip() == f"{target}: Permission denied"


def test_files_of_the_definitions_folder_that_are_not_definitions_are_not_read(tmp_path: Path) -> None:
    """An extra file (notes, a link to a device) changes no build key and cannot fail the build (item 16)."""
    from blackpoker.core.loader import load_rules
    from blackpoker.pipeline.build import STEPS, step_key
    defs = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, defs)
    rules = load_rules(defs)
    before = [step_key(s, defs, rules) for s in STEPS]
    (defs / "notes.txt").write_text("memo", encoding="utf-8")
    (defs / "zero").symlink_to("/dev/zero")
    assert [step_key(s, defs, rules) for s in STEPS] == before
    fogs = defs / "fogs.yaml"
    fogs.write_text(fogs.read_text(encoding="utf-8") + "\n", encoding="utf-8")
    assert [step_key(s, defs, rules) for s in STEPS] != before


def test_an_unclosed_quote_is_reported_where_it_opens(tmp_path: Path) -> None:
    """Not where the parser gave up: at the end of the file, or at the later quote that closed it."""
    from blackpoker.core.yamlsource import parse_yaml
    lines = [f"key{i}: value {i}" for i in range(1, 30)]
    for where, quote in ((24, "'"), (5, '"')):
        text = lines[:]
        text[where - 1] = f"key{where}: {quote}value"
        path = tmp_path / "f.yaml"
        path.write_text("\n".join(text) + "\n", encoding="utf-8")
        src, problems = parse_yaml(path, "f.yaml")
        assert src is None and [(p.line, p.column) for p in problems] == [(where, len(f"key{where}: ") + 1)]
    text = lines[:]
    text[23], text[26] = "key24: 'value", "key27: 'closed'"
    path.write_text("\n".join(text) + "\n", encoding="utf-8")
    _, problems = parse_yaml(path, "f.yaml")
    assert [(p.line, p.column) for p in problems] == [(24, 8)]
    assert "the quoted value that starts here runs on to line 27: an unclosed quote?" in problems[0].message
