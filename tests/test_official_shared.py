"""The official repository's own files, unmodified (../shared/official): they import, check and export back byte
for byte, and an edit of one value changes only that value's lines. Skipped where the folder is absent."""

from __future__ import annotations

import difflib
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from blackpoker.core.loader import load_rules
from blackpoker.core.paths import DEFINITIONS, ROOT

SHARED = ROOT.parent / "shared" / "official"
FILES = ("act.yaml", "act-frame.yaml", "frame.yaml", "version.json")

pytestmark = pytest.mark.skipif(not (SHARED / "act.yaml").is_file(),
                                reason=f"the official files are not at {SHARED} (../shared/official)")


def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "blackpoker", *args], cwd=cwd, capture_output=True, text=True,
                          timeout=300, env={"PYTHONPATH": str(ROOT / "tools"), "PATH": "/usr/bin:/bin",
                                            "BLACKPOKER_PURE": "1"})


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, subprocess.CompletedProcess[str]]:
    folder = tmp_path_factory.mktemp("shared")
    result = run("import", str(SHARED), "-o", "defs", "--base", str(DEFINITIONS), cwd=folder)
    return folder, result


def _entries(path: Path) -> int:
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    lists = ("actList", "charList", "fogList", "trumpList")
    return sum(len(g[k]) for key in lists for g in data.get(key) or () for k in g if k != "type") + \
        len(data.get("frames") or ())


def test_every_entry_imports_with_headers_and_trump_data(imported: tuple[Path, subprocess.CompletedProcess[str]]
                                                         ) -> None:
    folder, result = imported
    assert result.returncode == 0, result.stderr[-3000:]
    official = sum(_entries(SHARED / name) for name in ("act.yaml", "act-frame.yaml", "frame.yaml"))
    rules = load_rules(folder / "defs")
    from_frame_yaml = [f for f in rules.frames if f.name.replace(" ", "") in
                       {x["name"].replace(" ", "") for x in yaml.safe_load((SHARED / "frame.yaml").read_text())["frames"]}]
    ours = len(rules.actions) + len(rules.characters) + len(rules.fogs) + len(rules.trumps) + len(from_frame_yaml)
    assert official == ours == 144
    assert rules.trump_about is not None and rules.trump_about.description.startswith("切札は、")
    headers = dict(rules.edition.official)
    assert dict(headers["act"])["ver"] == "第8.2版" and dict(headers["act_frame"])["ver"] == "第9.0版 フレーム編"
    assert rules.edition.version == "v9.0" and not rules.edition.simulated
    # エクストラ is named by act-frame.yaml only: it comes from the base, with a warning
    assert "extra" in {f.id for f in rules.frames}
    assert "warning: actList[0].acts[0].frame: frame 'エクストラ' is not in frame.yaml: taken from the base" in result.stderr
    # named abilities written 「名前（…）」; full-width digits in a key card, with a note
    magician = rules.character("magician")
    assert [(a.name, a.text[:8]) for a in magician.abilities] == [("魔力増加", "このキャラクター")]
    assert "actKey: key card with half-width digits: '同じ数字を２枚' → '同じ数字を2枚'" in result.stderr
    # a missing ruby: the base's reading, else from the name, else a warning
    assert rules.action("damage-judgement").reading == "だめーじはんてい"
    assert "trumpName: no ruby, and neither the base nor the name '革命' gives a reading" in result.stderr
    # every value normalised for our definitions is a located note: numbers read as text, the final line break
    # of a | block, spaces at the end of an effect's lines
    assert "charList[0].chars[0].charSize: the number 11 read as the text '11'" in result.stderr
    assert "trumps[0].trumpAbility: spaces or line breaks around the text dropped (the final line break of a | " \
           "block)" in result.stderr
    assert "actList[2].acts[9].actEffect: spaces at the end of line 2, 3, 7 dropped" in result.stderr
    # the rulings left out are named, one per line
    left = [line for line in result.stderr.splitlines() if line.endswith(": left out")]
    assert len(left) == 2 and all(line.startswith("note: rulings.yaml: ruling ") for line in left)


def test_check_and_json_export_accept_the_import(imported: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    folder, _ = imported
    check = run("check", "defs", cwd=folder)
    assert check.returncode == 0, check.stderr[-3000:]
    assert check.stdout.startswith("v9.0 ok: 5 frames, 93 actions")
    export = run("export", "defs", "-o", "rules.json", cwd=folder)
    assert export.returncode == 0, export.stderr[-2000:]


def test_export_writes_the_files_back_byte_for_byte(imported: tuple[Path, subprocess.CompletedProcess[str]]) -> None:
    folder, _ = imported
    result = run("export", "defs", "--format", "official", "-o", "back", cwd=folder)
    assert result.returncode == 0, result.stderr[-2000:]
    for name in FILES:
        assert (folder / "back" / name).read_bytes() == (SHARED / name).read_bytes(), name


def test_an_edit_of_one_value_changes_only_its_lines(imported: tuple[Path, subprocess.CompletedProcess[str]],
                                                     tmp_path: Path) -> None:
    folder, _ = imported
    defs = tmp_path / "defs"
    shutil.copytree(folder / "defs", defs)
    actions = defs / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    assert text.count("自分のターンを終了し、対戦相手にターンを渡す。") == 1
    actions.write_text(text.replace("自分のターンを終了し、対戦相手にターンを渡す。", "自分のターンを終了し、相手にターンを渡す。"),
                       encoding="utf-8")
    result = run("export", "defs", "--format", "official", "-o", "back", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]
    for name in FILES:
        before = (SHARED / name).read_text(encoding="utf-8").splitlines()
        after = (tmp_path / "back" / name).read_text(encoding="utf-8").splitlines()
        changed = [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
                   if line[:1] in "+-" and not line.startswith(("+++", "---"))]
        expected = ["-        3. 自分のターンを終了し、対戦相手にターンを渡す。",
                    "+        3. 自分のターンを終了し、相手にターンを渡す。"] if name == "act.yaml" else []
        assert changed == expected, name


def test_the_simulator_plays_every_regulation_of_the_import(imported: tuple[Path, subprocess.CompletedProcess[str]]
                                                            ) -> None:
    """Never a crash on an edition check accepts: what the simulator cannot play is named once and not offered."""
    folder, _ = imported
    for frame in ("none", "all"):
        result = run("sim", "play", "--games", "3", "--format", "all", "--frame", frame, "--definitions", "defs",
                     cwd=folder)
        assert result.returncode == 0, result.stderr[-3000:]
        notes = [line for line in result.stderr.splitlines() if line.startswith("note: v9.0: not simulated")]
        kinds = {line.split("(")[1].split(",")[0] for line in notes}
        assert {"no effect", "activation condition", "trigger", "target"} <= kinds
        assert len(notes) == len(kinds)  # each kind named once
    assert "マスター + エクストラ: games: 3" in result.stdout


def test_added_removed_and_retyped_values_keep_the_rest_of_the_text(
        imported: tuple[Path, subprocess.CompletedProcess[str]], tmp_path: Path) -> None:
    """A number stays a number, a new field goes where the official order puts it, a removed entry takes its
    group with it when it was the group's last, and a new entry joins the end of its group."""
    folder, _ = imported
    defs = tmp_path / "defs"
    shutil.copytree(folder / "defs", defs)

    def replace(name: str, old: str, new: str) -> None:
        text = (defs / name).read_text(encoding="utf-8")
        assert text.count(old) == 1, old
        (defs / name).write_text(text.replace(old, new), encoding="utf-8")

    trumps = yaml.safe_load((defs / "trumps.yaml").read_text(encoding="utf-8"))["trumps"]
    last_ditch = next(t for t in trumps if t["name"] == "悪あがき")
    text = (defs / "trumps.yaml").read_text(encoding="utf-8")
    start = text.index(f"  - id: {last_ditch['id']}\n")
    end = text.index("\n  - id: ", start + 1) + 1
    (defs / "trumps.yaml").write_text(text[:start] + text[end:], encoding="utf-8")
    frames = (defs / "frames.yaml").read_text(encoding="utf-8")
    (defs / "frames.yaml").write_text(frames.replace(f"      - {last_ditch['id']}\n", ""), encoding="utf-8")
    replace("characters.yaml", "    reading: まおう\n", "    reading: まおう\n    story: 魔王の物語。\n")
    chars = (defs / "characters.yaml").read_text(encoding="utf-8")
    at = chars.index("  - id: reanimator\n")
    size = chars.index("    size: '11'\n", at)
    (defs / "characters.yaml").write_text(chars[:size] + "    size: '12'\n" + chars[size + 15:], encoding="utf-8")
    with (defs / "actions.yaml").open("a", encoding="utf-8") as f:
        f.write("\n  - id: meteor\n    name: メテオ\n    reading: めてお\n    category: 通常魔法\n    group: 通常魔法\n"
                "    trigger: direct\n    speed: normal\n    timing: main\n    key_card: ♡A~10\n    effect:\n"
                "      - 対戦相手に2点ダメージを与える。\n    introduced: v9.0\n    formats: [mast]\n")
    result = run("export", "defs", "--format", "official", "-o", "back", cwd=tmp_path)
    assert result.returncode == 0, result.stderr[-2000:]

    def changes(name: str) -> list[str]:
        before = (SHARED / name).read_text(encoding="utf-8").splitlines()
        after = (tmp_path / "back" / name).read_text(encoding="utf-8").splitlines()
        return [line for line in difflib.unified_diff(before, after, lineterm="", n=0)
                if line[:1] in "+-" and not line.startswith(("+++", "---"))]

    frame_changes = changes("act-frame.yaml")
    assert "-      charSize: 11" in frame_changes and "+      charSize: 12" in frame_changes
    assert "+      story: 魔王の物語。" in frame_changes
    removed = [line for line in frame_changes if line.startswith("-")]
    assert removed[0] == "-      charSize: 11" and "-  - type: 切札♣10 悪あがき" in removed
    assert len([line for line in frame_changes if line.startswith("+")]) == 2
    assert changes("act.yaml") == ["+    - format: mast", "+      actName: メテオ", "+      ruby: めてお",
                                   "+      actId: meteor", "+      actType: 通常魔法", "+      actTrigger: 直接",
                                   "+      actSpeed: 通常", "+      actTime: メイン", "+      actKey: ♡A〜10",
                                   "+      actEffect: 対戦相手に2点ダメージを与える。", "+      since: v9.0", "+"]
    assert changes("frame.yaml") == [] and changes("version.json") == []
