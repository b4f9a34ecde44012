"""The rules' worked examples are shown in the rulebook at their sections, and a broken one fails the build."""

from __future__ import annotations

import re
import shutil
from pathlib import Path

import pytest
import yaml

from blackpoker.core.paths import ROOT, SOURCE
from blackpoker.render.rulebook import build_rulebook

EXAMPLES = ROOT / "scenarios" / "examples"
FRAMES = ROOT / "scenarios" / "frames"  # every frame setup and frame action, shown in chapter 5


def _sections() -> dict[str, list[str]]:
    by_section: dict[str, list[str]] = {}
    for path in sorted(EXAMPLES.glob("*.yaml")) + sorted(FRAMES.glob("*.yaml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        by_section.setdefault(str(data["section"]), []).append(data["title"])
    return by_section


def test_every_example_section_has_its_place_in_the_text() -> None:
    placed = set()
    for page in SOURCE.glob("*.md"):
        placed.update(re.findall(r"^```\{bp-examples\} (\S+)$", page.read_text(encoding="utf-8"), re.M))
    assert set(_sections()) == placed
    assert sum(len(t) for t in _sections().values()) >= 21
    assert {"5.3.1", "5.3.2", "5.3.3", "5.3.4"} <= placed


@pytest.fixture(scope="module")
def site(built_rulebook: tuple[Path, Path]) -> Path:
    return built_rulebook[0]


def test_each_example_is_rendered_with_its_play_by_play(site: Path) -> None:
    import html as htmllib
    html = "".join(p.read_text(encoding="utf-8") for p in site.glob("*.html"))
    text = htmllib.unescape(re.sub(r"<[^>]+>", "", html))
    for titles in _sections().values():
        for title in titles:
            assert f"例: {title}" in text, title
    assert html.count('class="bp-verified') == sum(len(t) for t in _sections().values())


def test_a_changed_expectation_fails_the_build(tmp_path: Path) -> None:
    examples = tmp_path / "examples"
    shutil.copytree(EXAMPLES, examples)
    e01 = next(examples.glob("e01-*.yaml"))
    text = e01.read_text(encoding="utf-8")
    assert "stage: []" in text
    e01.write_text(text.replace("stage: []", "stage: [アップ]", 1), encoding="utf-8")
    with pytest.raises(Exception) as raised:
        build_rulebook(ROOT / "definitions", tmp_path / "site", pdf=False, work_dir=tmp_path / "work",
                       overrides={"blackpoker_examples": str(examples)})
    message = str(getattr(raised.value, "messages", "")) + str(raised.value)
    assert "e01-" in message and "no longer holds" in message and "FAIL stage" in message


def test_examples_are_played_again_only_when_their_scenarios_or_the_rules_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import os

    from blackpoker.pipeline.jobs import Inline
    from blackpoker.sphinxext import examples

    defs, folder = tmp_path / "definitions", tmp_path / "examples"
    shutil.copytree(ROOT / "definitions", defs)
    shutil.copytree(EXAMPLES, folder)
    played: list[str] = []
    real = examples.play

    def counting(rules, scenario):  # type: ignore[no-untyped-def]
        played.append(str(scenario.section))
        return real(rules, scenario)

    monkeypatch.setattr(examples, "play", counting)
    site = tmp_path / "site"

    def build() -> str:
        build_rulebook(defs, site, pdf=False, work_dir=tmp_path / "work", runner=Inline(), environment="same code",
                       overrides={"blackpoker_examples": os.pathsep.join([str(folder), str(FRAMES)])})
        return (site / "format.html").read_text(encoding="utf-8") + (site / "common.html").read_text(encoding="utf-8")

    build()
    assert sorted(played) == sorted(s for s, titles in _sections().items() for _ in titles)  # each one once
    played.clear()

    # a flavour text: chapter 4 (which shows it, and examples 4.3.1 and 4.3.2) is read again, nothing is played
    actions = defs / "actions.yaml"
    actions.write_text(actions.read_text(encoding="utf-8").replace("これが戦術の基本です。", "これが戦術の基本だ。"),
                       encoding="utf-8")
    assert "これが戦術の基本だ。" in build()
    assert played == []

    # a scenario's file: it alone is played again, and shows the change
    e01 = next(folder.glob("e01-*.yaml"))
    data = yaml.safe_load(e01.read_text(encoding="utf-8"))
    e01.write_text(e01.read_text(encoding="utf-8").replace(data["title"], data["title"] + "(改)", 1), encoding="utf-8")
    assert f"{data['title']}(改)" in build()
    assert played == [str(data["section"])]
