"""The command line as a user meets it: exit codes, output, no tracebacks. The real command (``run``,
``_blackpoker``) where a process of its own matters (the summary and JSON on a real stdout, the console script, a
full disk, a busy port); the rest in-process (tests/clirun.py: the same main(), exit codes and messages)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import IO

from blackpoker.core.paths import DEFINITIONS, ROOT
from clirun import run_cli


def run(*args: str, cwd: Path = ROOT) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blackpoker", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=120)


def test_check_prints_the_summary() -> None:
    result = run("check")
    assert result.returncode == 0, result.stderr
    assert result.stdout.startswith("v8.1 ok: 5 frames, 48 actions (37 format + 11 frame), 6 characters, 4 fogs, 5 trumps")
    assert "lite 19/5/2; std 25/6/2; pro 31/6/2; mast 37/6/3" in result.stdout


def test_check_on_a_corrupted_copy_points_at_the_line(tmp_path: Path) -> None:
    copy = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, copy)
    actions = copy / "actions.yaml"
    lines = actions.read_text(encoding="utf-8").splitlines(keepends=True)
    number = next(i for i, line in enumerate(lines, 1) if line == "    timing: main\n")
    lines[number - 1] = "    timing: ずっと\n"
    actions.write_text("".join(lines), encoding="utf-8")

    result = run_cli("check", "defs", cwd=tmp_path)
    assert result.returncode == 2
    assert result.stdout == ""
    assert result.stderr.splitlines() == [
        f"defs/actions.yaml:{number}:13: actions[0].timing: 'ずっと' is not one of 'main', 'quick'",
        "1 problem found in the definitions.",
    ]
    assert "Traceback" not in result.stderr


def test_check_on_broken_yaml_has_no_traceback(tmp_path: Path) -> None:
    copy = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, copy)
    (copy / "fogs.yaml").write_text("fogs: [\n  - id: up\n", encoding="utf-8")
    result = run_cli("check", str(copy))
    assert result.returncode == 2
    assert "fogs.yaml:" in result.stderr and "YAML syntax error" in result.stderr
    assert "Traceback" not in result.stderr


def test_export_prints_json_and_writes_files_atomically(tmp_path: Path) -> None:
    result = run("export")
    assert result.returncode == 0, result.stderr
    document = json.loads(result.stdout)
    assert len(document["actions"]) == 48 and document["ruleset"]["version"] == "v8.1"

    target = tmp_path / "out" / "rules.json"
    result = run("export", "-o", str(target))
    assert result.returncode == 0 and json.loads(target.read_text(encoding="utf-8")) == document
    assert [p.name for p in target.parent.iterdir()] == ["rules.json"]  # no temporary file left


def test_failed_export_leaves_the_previous_file(tmp_path: Path) -> None:
    target = tmp_path / "rules.json"
    target.write_text("previous", encoding="utf-8")
    copy = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, copy)
    (copy / "ruleset.yaml").write_text("ruleset: {}\n", encoding="utf-8")
    result = run_cli("export", str(copy), "-o", str(target))
    assert result.returncode == 2
    assert target.read_text(encoding="utf-8") == "previous"


def test_module_and_console_script_agree() -> None:
    script = Path(sys.executable).with_name("blackpoker")
    result = subprocess.run([str(script), "--help"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0 and "check" in result.stdout and "export" in result.stdout


def test_check_fails_when_an_action_has_no_simulator_effect(tmp_path: Path) -> None:
    copy = tmp_path / "defs"
    shutil.copytree(DEFINITIONS, copy)
    actions = copy / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace("  - id: ambush\n", "  - id: ambush-two\n"),
                       encoding="utf-8")
    result = run_cli("check", "defs", cwd=tmp_path)
    assert result.returncode == 2
    lines = result.stderr.splitlines()
    assert any(re.match(r"defs/actions\.yaml:\d+:5: actions\[36\]: simulator: action 'ambush-two' has no effect "
                        r"in the simulator$", line) for line in lines), lines
    assert any("simulator: effect 'ambush' has no action in the definitions" in line for line in lines), lines


def test_export_refuses_to_replace_a_link_or_a_device(tmp_path: Path) -> None:
    """`export -o` writes regular files only: a symlink or a device node is left as it is (issue 13, item 15)."""
    victim = tmp_path / "victim.txt"
    victim.write_text("keep me", encoding="utf-8")
    link = tmp_path / "link.json"
    link.symlink_to(victim)
    for target in (link, Path("/dev/null")):
        result = run_cli("export", "-o", str(target))
        assert result.returncode == 2, result.stderr
        assert "is not a regular file" in result.stderr and "Traceback" not in result.stderr
    assert link.is_symlink() and victim.read_text(encoding="utf-8") == "keep me"
    assert Path("/dev/null").is_char_device()


def _blackpoker(*args: str, cwd: Path | None = None,
                stdout: int | IO[str] | None = subprocess.PIPE) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blackpoker", *args], cwd=cwd, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, timeout=120)


def test_environment_problems_are_one_line_with_the_path_and_exit_1(tmp_path: Path) -> None:
    """Not the toolkit's bugs (exit 70): an output folder that cannot be made, a full disk, a busy port
    (issue 13, item 16)."""
    import socket
    built = _blackpoker("build", "--out", "/proc/blackpoker-site")
    assert built.returncode == 1, built.stderr
    assert built.stderr.strip().splitlines()[-1].startswith("/proc/") and "Traceback" not in built.stderr
    with open("/dev/full", "w") as full:
        exported = _blackpoker("export", stdout=full)
    assert exported.returncode == 1 and exported.stderr.strip() == "No space left on device", exported.stderr
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        served = _blackpoker("serve", "--out", str(tmp_path / "site"), "--port", str(port))
    assert served.returncode == 1, served.stderr
    assert served.stderr.strip() == f"127.0.0.1:{port}: Address already in use"


def test_nonsense_game_counts_are_refused() -> None:
    played = run_cli("sim", "play", "--games", "-5")
    assert played.returncode == 2 and "-5 is not in the range x>=1" in played.stderr


def test_build_refuses_a_label_condition_the_simulator_does_not_know_at_its_place(tmp_path: Path) -> None:
    """The build plays the scenarios: a condition text it cannot evaluate is a located error (exit 2) before
    anything is built, not a KeyError in one scenario (issue 13, item 2's payload run found it)."""
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    chars = defs / "characters.yaml"
    text = chars.read_text(encoding="utf-8")
    assert "condition: キーカードに A が含まれる場合のみ}" in text
    chars.write_text(text.replace("condition: キーカードに A が含まれる場合のみ}", "condition: 月が満ちている場合のみ}"),
                     encoding="utf-8")
    line = 1 + text[:text.index("キーカードに A が含まれる場合のみ}")].count("\n")
    out = tmp_path / "site"
    built = run_cli("build", "--definitions", str(defs), "--out", str(out))
    assert built.returncode == 2, built.stderr
    assert f"characters.yaml:{line}:" in built.stderr and "'月が満ちている場合のみ' is not simulated" in built.stderr
    assert "Traceback" not in built.stderr and not out.exists()
