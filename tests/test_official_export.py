"""``blackpoker export --format official``: our definitions in the official layout, and the round trips
official → import → export (the same data, field by field) and definitions → export → import (the same model)."""

from __future__ import annotations

import dataclasses
import json
import re
import shutil
import subprocess
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
import yaml

from blackpoker.core import model as m
from blackpoker.core.loader import load_rules
from blackpoker.core.paths import DEFINITIONS
from blackpoker.official import convert as cv
from blackpoker.official.exporter import export_official
from blackpoker.official.importer import definitions_texts, import_official
from blackpoker.official.reader import read_official
from clirun import run_cli

OFFICIAL = Path(__file__).parent / "data" / "official"


def plain(value: Any) -> Any:
    """A model as plain data without the origins (where each entry was read), to compare two loads."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: plain(getattr(value, f.name)) for f in dataclasses.fields(value)
                if f.name not in ("origin", "_index")}
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, frozenset):
        return sorted(plain(v) for v in value)
    return value


def write_files(folder: Path, files: dict[str, str | bytes]) -> None:
    for name, data in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(data.encode("utf-8") if isinstance(data, str) else data)


def import_into(official: Path, out: Path) -> m.Rules:
    files, problems = read_official(official)
    assert problems == []
    result = import_official(files, DEFINITIONS)
    assert [str(e) for e in result.errors] == []
    write_files(out, dict(definitions_texts(result)) | {k: v.read_bytes() for k, v in result.pictures.items()})
    return load_rules(out)


def test_our_definitions_exported_and_imported_back_are_the_same_model(tmp_path: Path) -> None:
    rules = load_rules(DEFINITIONS)
    write_files(tmp_path / "official", export_official(rules))
    again = import_into(tmp_path / "official", tmp_path / "defs")
    # an import never declares itself simulated (the official files have no such field): the only difference
    assert rules.edition.simulated and not again.edition.simulated
    unsimulated = dataclasses.replace(rules, edition=dataclasses.replace(rules.edition, simulated=False))
    assert plain(again) == plain(unsimulated)


def test_an_import_exported_and_imported_again_is_the_same_model(tmp_path: Path) -> None:
    first = import_into(OFFICIAL / "full", tmp_path / "first")
    write_files(tmp_path / "official", export_official(first))
    second = import_into(tmp_path / "official", tmp_path / "second")
    assert plain(second) == plain(first)


# --- official → import → export gives back the same data ---------------------------------------------------
# What the import normalises, and so what the original is compared as: formats as a comma list in format order
# (',,pro,mast' → 'pro,mast'); versions with their v ('8.0' → 'v8.0') and update lists as 'v8.1, v9.0'; readings
# in hiragana; key cards spaced canonically ('を 2枚' → 'を2枚'; the export writes 〜 and ♢ as the files do); list
# numbers and letters in effects counted from 1 (A) with one space after the mark; text without surrounding
# blank space; numbers (charSize: 26) as text. The export writes a ruby for every entry (the reading it has).

def _effect(text: str) -> str:
    lines = []
    counters: dict[int, int] = {}
    for line in text.strip().splitlines():
        dashes = len(line) - len(line.lstrip("-")) if line.strip() != "---" else 0
        body = line[dashes:]
        for level in [k for k in counters if k > dashes]:
            del counters[level]
        if match := re.match(r"^[0-9０-９]+[.．]\s*(.*)$", body):
            counters[dashes] = counters.get(dashes, 0) + 1
            body = f"{counters[dashes]}. {match[1]}"
        elif match := re.match(r"^([A-Z])[.．]\s*(.*)$", body):
            body = f"{match[1]}. {match[2]}"
        elif body.startswith("・"):
            body = "・" + body[1:].strip()
        else:
            counters.pop(dashes, None)
        lines.append("-" * dashes + body)
    return "\n".join(lines)


def _key(text: str) -> str:
    return text if text == cv.RARE_KEY else cv.to_official_key(cv.read_key_card(text)[0])


NORMALISE: dict[str, Callable[[Any], object]] = {
    "format": lambda v: cv.write_formats(tuple(cv.read_formats(v)[0])),
    "since": lambda v: cv.read_version(str(v))[0],
    "update": lambda v: cv.write_versions(tuple(cv.read_versions(str(v))[0])),
    "ruby": cv.hiragana,
    "actKey": _key, "charKey": _key, "fogKey": _key, "trumpKey": _key,
    "actEffect": _effect,
}


def _normalised(entry: dict[str, Any]) -> dict[str, Any]:
    return {k: NORMALISE.get(k, lambda v: str(v).strip())(v) for k, v in entry.items()}


def _lists(data: dict[str, Any]) -> dict[str, Any]:
    out = {}
    for key, item_key in (("actList", "acts"), ("charList", "chars"), ("fogList", "fogs"), ("trumpList", "trumps")):
        if key in data:
            out[key] = [(g["type"], [_normalised(e) for e in g[item_key]]) for g in data[key]]
    return out


def test_the_full_fixture_comes_back_field_by_field(tmp_path: Path) -> None:
    rules = import_into(OFFICIAL / "full", tmp_path / "defs")
    exported = export_official(rules)
    for name in ("act.yaml", "act-frame.yaml"):
        original = yaml.safe_load((OFFICIAL / "full" / name).read_text(encoding="utf-8"))
        back = yaml.safe_load(exported[name])
        assert back["data"] == {k: str(v) for k, v in original["data"].items()}
        expected, got = _lists(original), _lists(back)
        assert list(got) == list(expected)
        for key in expected:
            assert [g for g, _ in got[key]] == [g for g, _ in expected[key]]
            for (_g, want), (_h, have) in zip(expected[key], got[key], strict=True):
                for w, h in zip(want, have, strict=True):
                    if "ruby" not in w:  # the export writes the reading it has
                        w = {**w, "ruby": h["ruby"]}
                    assert h == w
    trump_data = yaml.safe_load(exported["act-frame.yaml"])["trumpData"]
    original = yaml.safe_load((OFFICIAL / "full" / "act-frame.yaml").read_text(encoding="utf-8"))["trumpData"]
    assert trump_data == {k: v.strip() for k, v in original.items()}
    frames = yaml.safe_load((OFFICIAL / "full" / "frame.yaml").read_text(encoding="utf-8"))
    back_frames = yaml.safe_load(exported["frame.yaml"])
    assert back_frames["data"] == frames["data"]
    # a frame's ruby that its name already reads as is not written (the import derives it again)
    assert back_frames["frames"] == [{k: str(v).strip() for k, v in f.items()
                                      if not (k == "ruby" and v == cv.default_reading(f["name"]))} for f in frames["frames"]]
    assert json.loads(exported["version.json"]) == json.loads((OFFICIAL / "full" / "version.json").read_text(encoding="utf-8"))
    for picture in ("images/tarot/swords-02.png", "images/tarot/emperor.png", "images/entry16.png"):
        assert exported[picture] == (OFFICIAL / "full" / picture).read_bytes()


@pytest.mark.parametrize("quirk", sorted(p.name for p in (OFFICIAL / "quirks").iterdir()))
def test_each_quirk_comes_back_as_the_same_model(quirk: str, tmp_path: Path) -> None:
    folder = tmp_path / "official"
    shutil.copytree(OFFICIAL / "minimal", folder)
    for path in (OFFICIAL / "quirks" / quirk).iterdir():
        shutil.copy(path, folder / path.name)
    first = import_into(folder, tmp_path / "first")
    write_files(tmp_path / "back", export_official(first))
    assert plain(import_into(tmp_path / "back", tmp_path / "second")) == plain(first)


# --- the command ----------------------------------------------------------------------------------------------

def run(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return run_cli(*args, cwd=cwd)


def test_export_official_writes_the_four_files_and_json_stays_the_default(tmp_path: Path) -> None:
    result = run("export", str(DEFINITIONS), "--format", "official", "-o", "official", cwd=tmp_path)
    assert result.returncode == 0, result.stderr
    assert result.stderr == "wrote official: act-frame.yaml, act.yaml, frame.yaml, version.json\n"
    assert sorted(p.name for p in (tmp_path / "official").iterdir()) == [
        ".blackpoker-official", "act-frame.yaml", "act.yaml", "frame.yaml", "version.json"]
    act = yaml.safe_load((tmp_path / "official" / "act.yaml").read_text(encoding="utf-8"))
    assert act["data"] == {"id": "act", "ver": "第8.1版", "lastupdate": "2025/6/x"}
    generation = next(a for g in act["actList"] for a in g["acts"] if a["actName"] == "世代交代")
    assert generation["actId"] == "nextGeneration"
    again = run("export", str(DEFINITIONS), "--format", "official", "-o", "official", cwd=tmp_path)
    assert again.returncode == 0, again.stderr  # its own folder is replaced
    default = run("export", str(DEFINITIONS), cwd=tmp_path)
    assert default.returncode == 0 and json.loads(default.stdout)["ruleset"]["version"] == "v8.1"


def test_export_official_needs_a_folder_and_refuses_a_users_folder(tmp_path: Path) -> None:
    missing = run("export", str(DEFINITIONS), "--format", "official", cwd=tmp_path)
    assert missing.returncode == 2 and "--format official writes a folder: give it with -o DIR" in missing.stderr
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "act.yaml").write_text("mine\n", encoding="utf-8")
    refused = run("export", str(DEFINITIONS), "--format", "official", "-o", "mine", cwd=tmp_path)
    assert refused.returncode == 2
    assert refused.stderr == ("mine: not empty and not made by this command (no .blackpoker-official in it); it is "
                              "replaced whole: choose a new or empty folder\n")
    assert (tmp_path / "mine" / "act.yaml").read_text(encoding="utf-8") == "mine\n"
