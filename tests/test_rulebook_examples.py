"""The book's worked examples are shown in the rulebook at their sections, as readers read them; every scenario,
with every checked expectation, is in the verification report; a broken one fails the build."""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from sphinx.testing.util import SphinxTestApp

import sphinxroots
from blackpoker.core.model import Rules
from blackpoker.core.paths import ROOT, SOURCE
from blackpoker.sim.scenario import Scenario
from blackpoker.sphinxext.examples import ExampleFailed
from sphinxroots import book_root, but_the_report_s_links, root_copy, warnings_of

EXAMPLES = ROOT / "scenarios" / "examples"
FRAMES = ROOT / "scenarios" / "frames"  # every frame setup and frame action: in the verification report
ACTIONS = ROOT / "scenarios" / "actions"


def _sections(*folders: Path) -> dict[str, list[str]]:
    by_section: dict[str, list[str]] = {}
    for path in [p for folder in folders or (EXAMPLES,) for p in sorted(folder.glob("*.yaml"))]:
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        by_section.setdefault(str(data["section"]), []).append(data["title"])
    return by_section


def test_every_example_section_has_its_place_in_the_text() -> None:
    placed = set()
    for page in SOURCE.glob("*.md"):
        placed.update(re.findall(r"^```\{bp-examples\} (\S+)$", page.read_text(encoding="utf-8"), re.M))
    assert set(_sections()) == placed
    assert sum(len(t) for t in _sections().values()) >= 21


@pytest.fixture(scope="module")
def site(built_rulebook: tuple[Path, Path]) -> Path:
    return built_rulebook[0]


def _text(html: str) -> str:
    import html as htmllib
    return htmllib.unescape(re.sub(r"<[^>]+>", "", html))


def _as_read(title: str, rules: Rules) -> str:
    """A scenario's title as the book prints it: 「裁定 multiple-blockers」 names the ruling by its Japanese title."""
    return re.sub(r"裁定 ([a-z0-9-]+)", lambda found: f"裁定「{rules.ruling(found[1]).title}」", title)


def test_each_example_is_rendered_with_its_play_by_play(site: Path) -> None:
    from blackpoker import load_rules
    rules = load_rules()
    html = "".join(p.read_text(encoding="utf-8") for p in site.glob("*.html") if p.name != "verification.html")
    text = _text(html)
    for titles in _sections().values():
        for title in titles:
            assert f"例: {_as_read(title, rules)}" in text, title
    # issue 22: a reader reads a ruling's title, never its English id (some examples' titles name one)
    assert any(_as_read(t, rules) != t for ts in _sections().values() for t in ts)
    assert all(f"裁定 {ruling.id}" not in text for ruling in rules.rulings)
    assert html.count('class="bp-verified') == sum(len(t) for t in _sections().values())
    # each drawn as a board at its start and at its end (a refused setup has no position to draw)
    refused = sum("setup_error" in p.read_text(encoding="utf-8") for p in EXAMPLES.glob("*.yaml"))
    assert html.count('class="bp-svg bp-board"') == 2 * (sum(len(t) for t in _sections().values()) - refused)
    for title in (t for ts in _sections(FRAMES).values() for t in ts):  # frames: the report's, not the book's
        assert f"例: {title}" not in text, title


# what test logs look like: checked expectations, Python reprs, ASCII card codes, scenario file names
TEST_OUTPUT = re.compile(r"\b(PASS|FAIL) |'cards'|True\}|(?<![A-Za-z])[SHDC](10|[2-9AJQK])(?![A-Za-z0-9])|\.yaml")


def test_no_test_output_reaches_a_reader(site: Path, built_rulebook: tuple[Path, Path]) -> None:
    """Issue 14, item 1: the book's examples read as play-by-play only; the checks are in the report."""
    import subprocess
    for page in sorted(site.glob("*.html")):
        if page.name in ("verification.html", "search.html"):
            continue
        main = page.read_text(encoding="utf-8")
        main = re.sub(r"<(script|style)\b.*?</\1>", "", main, flags=re.S)
        found = TEST_OUTPUT.search(_text(main))
        assert found is None, (page.name, _text(main)[max(0, found.start() - 40):found.end() + 40])
    pdf = site / "blackpoker.pdf"
    text = subprocess.run(["pdftotext", "-enc", "UTF-8", str(pdf), "-"], check=True, capture_output=True,
                          text=True).stdout
    found = TEST_OUTPUT.search(text)
    assert found is None, text[max(0, found.start() - 40):found.end() + 40]
    # issue 22: the printed book has no report, so it neither names it nor prints the site's marks that link to it
    # (「✓ シミュレーターで検証済み」, 「シミュレーターで未検証」); every example is printed all the same
    assert [word for word in ("検証レポート", "検証済み", "未検証") if word in text] == []
    assert text.count("例: ") >= sum(len(t) for t in _sections().values())


def test_the_verification_report_shows_every_scenario_and_check_linked_both_ways(site: Path) -> None:
    from blackpoker import load_rules
    from blackpoker.sim.scenario import load_scenario, run_scenario

    report = (site / "verification.html").read_text(encoding="utf-8")
    text = _text(report)
    rules = load_rules()
    checks = 0
    for folder in (EXAMPLES, FRAMES, ACTIONS):
        for path in sorted(folder.glob("*.yaml")):
            result = run_scenario(rules, load_scenario(path, rules))
            checks += len(result.expectations)
            label = f"vr-{folder.name}-{path.stem.lower()}"
            assert f'id="{label}"' in report, label
            assert f"{len(result.expectations)} 項目を確認" in text and path.name in text
            if folder == EXAMPLES:  # each way: the example links to its report entry and back
                assert f'href="#ex-{path.stem.lower()}"' not in report
                assert f'href="common.html#ex-{path.stem.lower()}"' in report or f"#ex-{path.stem.lower()}\"" in report
                assert any(f'href="verification.html#{label}"' in p.read_text(encoding="utf-8")
                           for p in site.glob("*.html")), label
    # each check in words (issue 22, item 8): 「✓ 墓地.A: ◇9、♠3」, never a Python value
    assert text.count("✓ ") >= checks > 300 and "PASS " not in text
    assert not re.search(r"\[\{'|': \[|'kind'|True\b|False\b", text)


def test_a_changed_expectation_fails_the_build(tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """On the examples' root (tests/roots/test-examples shows the examples of 2.10.4, E1 among them)."""
    examples = tmp_path / "examples"
    shutil.copytree(EXAMPLES, examples)
    e01 = next(examples.glob("e01-*.yaml"))
    text = e01.read_text(encoding="utf-8")
    assert "stage: []" in text and "section: 2.10.4" in text
    e01.write_text(text.replace("stage: []", "stage: [アップ]", 1), encoding="utf-8")
    app = make_app("html", srcdir=root_copy("examples", tmp_path / "root"), freshenv=True,
                   confoverrides={"blackpoker_examples": str(examples)})
    with pytest.raises(ExampleFailed) as raised:
        app.build()
    message = str(raised.value)
    assert "e01-" in message and "no longer holds" in message and "FAIL stage" in message


@pytest.mark.slow  # three builds of a small book and every example and frame played: ten seconds, not the fast loop's
def test_examples_are_played_again_only_when_their_scenarios_or_the_rules_change(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make_app: Callable[..., SphinxTestApp]) -> None:
    """On a small book (sphinxroots.book_root: the lists, the examples of 2.10.4, the report), built again in its
    kept environment as the rulebook is."""
    import os

    from blackpoker.sphinxext import examples

    defs, folder = tmp_path / "definitions", tmp_path / "examples"
    shutil.copytree(ROOT / "definitions", defs)
    shutil.copytree(EXAMPLES, folder)
    played: list[str] = []
    real = examples.play

    def counting(rules: Rules, scenario: Scenario) -> examples.PlayedExample:
        played.append(str(scenario.section))
        return real(rules, scenario)

    monkeypatch.setattr(examples, "play", counting)
    root = book_root(tmp_path / "root")

    def build() -> str:
        app = make_app("html", srcdir=root, confoverrides={
            "blackpoker_definitions": str(defs), "blackpoker_examples": str(folder),
            "blackpoker_report": os.pathsep.join([str(folder), str(FRAMES)])})
        app.build()
        app.cleanup()  # the next build's application registers Sphinx's nodes afresh
        assert but_the_report_s_links(warnings_of(app)) == []
        return sphinxroots.page(app, "format") + sphinxroots.page(app, "common")

    build()
    assert sorted(played) == sorted(s for s, titles in _sections(EXAMPLES, FRAMES).items() for _ in titles)  # once each
    played.clear()

    # a flavour text: the list that shows it is read again, nothing is played
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


def test_the_report_has_an_index_by_status_and_chapter_and_links_its_sections(built_rulebook: tuple[Path, Path]) -> None:
    """Issue 22, item 8: the report opens with an index (status, then chapter by chapter, each scenario a link),
    and each scenario's 「節 2.10.4」 links to that section."""
    report = (built_rulebook[0] / "verification.html").read_text(encoding="utf-8")
    assert "この報告の目次(状態別・章別)" in report and "状態: 検証済み" in report
    index = report[report.index("この報告の目次"):report.index("bp-report-folder")]
    assert len(re.findall(r'href="#vr-[a-z]+-[^"]+"', index)) > 100
    for chapter in (2, 4, 5, 6):
        assert f"第{chapter}章(" in index
    assert re.search(r'節 <a class="reference internal" href="common.html#sec-2-10-4"', report)
