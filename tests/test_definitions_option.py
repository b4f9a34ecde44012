"""One way to say which rules: every command that reads rules takes --definitions DIR, with the same default and
the same error when the folder is missing."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from blackpoker.core.paths import ROOT
from clirun import run_cli

COMMANDS = (("check",), ("export",), ("build",), ("serve",), ("sim", "run", "record.json"), ("sim", "play"),
            ("sim", "replay", "record.json"), ("sim", "balance"))
MISSING = ("nowhere: no such definitions folder; expected a folder of definitions (ruleset.yaml, actions.yaml …): "
           "give it with --definitions DIR\n")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    """The command as ``python -m blackpoker`` runs it, in this process (tests/clirun.py)."""
    return run_cli(*args, cwd=cwd)


@pytest.mark.parametrize("command", COMMANDS, ids=[" ".join(c[:2]) for c in COMMANDS])
def test_every_command_takes_definitions_and_refuses_a_missing_folder(command: tuple[str, ...], tmp_path: Path) -> None:
    (tmp_path / "record.json").write_text("{}", encoding="utf-8")
    result = run(*command, "--definitions", "nowhere", cwd=tmp_path)
    assert (result.returncode, result.stdout, result.stderr) == (2, "", MISSING)


def test_sim_play_reads_its_formats_and_frames_from_the_rules(tmp_path: Path) -> None:
    result = run("sim", "play", "--format", "expert", "--definitions", str(ROOT / "definitions"), cwd=tmp_path)
    assert result.returncode == 2
    assert result.stderr.endswith("error: --format: 'expert' is not a format of v8.1; expected one of lite, std, pro, "
                                  "mast, all\n")
    result = run("sim", "play", "--frame", "galaxy", "--definitions", str(ROOT / "definitions"), cwd=tmp_path)
    assert result.returncode == 2
    assert "error: --frame: 'galaxy' is not a frame of v8.1; expected one of none, entry20, pack, rarepack, " \
           "strategy, extra, all\n" in result.stderr


def test_the_default_is_said_when_it_is_not_here(tmp_path: Path) -> None:
    """No definitions/ in the current folder: the toolkit's own definitions are read, and the command says so."""
    result = run("check", cwd=tmp_path)
    assert result.returncode == 0 and result.stdout.startswith("v8.1 ok:")
    assert result.stderr.startswith("note: no definitions/ here: reading the definitions the toolkit carries (")
    assert result.stderr.splitlines()[0].endswith("); give others with --definitions DIR")
