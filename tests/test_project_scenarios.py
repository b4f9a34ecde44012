"""A rules project's own scenarios are the ones its build reads (core/paths.py: scenarios_folder): the project's
``scenarios/`` beside its definitions when it has one, else the toolkit's. The build's scenarios step, the
rulebook's worked examples and verification report, the play page's starting positions, the cache keys and the
preview's watch list all follow that one choice, so a scenario a maintainer edits or adds is verified and shown.
"""

from __future__ import annotations

import re
import shutil
from collections.abc import Callable
from pathlib import Path

import pytest
import yaml
from sphinx.testing.util import SphinxTestApp

from blackpoker.core.loader import load_rules
from blackpoker.core.paths import DEFINITIONS, ROOT, SCENARIOS, scenarios_folder
from blackpoker.pipeline import build as build_module
from blackpoker.pipeline.build import STEPS, BuildError, build, build_inputs, step_key
from blackpoker.pipeline.playpage import example_positions
from blackpoker.sphinxext.examples import ExampleFailed
from sites import small_project
from sphinxroots import page, root_copy, warnings_of

E03 = SCENARIOS / "examples" / "e03-damage-beyond-life.yaml"
E03_TITLE = "ライフが残り1枚のときに5点のダメージを受けると1点だけ受ける"
OURS = "このプロジェクトだけの例、投擲でライフ1枚の相手に勝つ"


def _project(folder: Path, *scenarios: tuple[str, str]) -> Path:
    """A rules project in ``folder``: v8.1's definitions and a ``scenarios/`` of its own holding ``scenarios``
    (path in the folder, text); returns its definitions folder."""
    shutil.copytree(DEFINITIONS, folder / "definitions")
    for name, text in scenarios:
        (folder / "scenarios" / name).parent.mkdir(parents=True, exist_ok=True)
        (folder / "scenarios" / name).write_text(text, encoding="utf-8")
    return folder / "definitions"


def _section(path: Path) -> str:
    return str(yaml.safe_load(path.read_text(encoding="utf-8"))["section"])


def _ours(expect_life: int = 0) -> str:
    """The toolkit's example E3 retitled as the project's own; an expected life other than 0 fails."""
    return (E03.read_text(encoding="utf-8").replace(E03_TITLE, OURS).replace("example: E3\n", "")
            .replace("life: {B: 0}", f"life: {{B: {expect_life}}}"))


def test_the_scenarios_a_build_reads_are_the_projects_own_when_it_has_them(tmp_path: Path) -> None:
    assert scenarios_folder(DEFINITIONS) == SCENARIOS  # the toolkit's checkout: definitions/ beside scenarios/
    assert scenarios_folder(ROOT / "editions" / "v8.2") == SCENARIOS  # another edition: the project's
    shutil.copytree(DEFINITIONS, tmp_path / "definitions")
    assert scenarios_folder(tmp_path / "definitions") == SCENARIOS  # no scenarios of its own: the toolkit's
    (tmp_path / "scenarios").mkdir()
    assert scenarios_folder(tmp_path / "definitions") == tmp_path / "scenarios"
    (tmp_path / "editions" / "v8.2").mkdir(parents=True)
    assert scenarios_folder(tmp_path / "editions" / "v8.2") == tmp_path / "scenarios"


def test_a_failing_project_scenario_stops_the_scenarios_step_naming_its_file(tmp_path: Path) -> None:
    definitions = _project(tmp_path, ("examples/ours.yaml", _ours()), ("mine/broken.yaml", _ours(expect_life=3)))
    with pytest.raises(RuntimeError) as info:
        build_module._scenarios(definitions, tmp_path / "staging")
    report = str(info.value)
    assert report.startswith("1 of 2 scenarios fail:\n"), report  # the project's two, none of the toolkit's
    assert "scenarios/mine/broken.yaml: FAIL life.B" in report, report
    (tmp_path / "scenarios" / "mine" / "broken.yaml").write_text(_ours(), encoding="utf-8")
    assert build_module._scenarios(definitions, tmp_path / "staging") == ([], "2 scenarios pass")


def test_the_scenarios_folder_is_keyed_and_watched(tmp_path: Path) -> None:
    """An edit of a project scenario runs the steps that read scenarios again (not the others) and the preview
    watches the project's folder, not the toolkit's."""
    definitions = _project(tmp_path, ("examples/ours.yaml", _ours()))
    watched = build_inputs(definitions)
    assert tmp_path / "scenarios" in watched and not any(p.is_relative_to(SCENARIOS) for p in watched)
    rules = load_rules(definitions)
    before = {s.name: step_key(s, definitions, rules) for s in STEPS}
    (tmp_path / "scenarios" / "examples" / "ours.yaml").write_text(_ours() + "# 改\n", encoding="utf-8")
    after = {s.name: step_key(s, definitions, rules) for s in STEPS}
    changed = {name for name in before if before[name] != after[name]}
    assert changed == {"scenarios", "rulebook", "play"}, changed


def test_the_play_page_offers_the_projects_examples(tmp_path: Path) -> None:
    definitions = _project(tmp_path, ("examples/ours.yaml", _ours()))
    positions = example_positions(load_rules(definitions), scenarios_folder(definitions))
    assert list(positions) == ["ours"] and positions["ours"]["title"] == OURS


def _examples_root(tmp_path: Path, make_app: Callable[..., SphinxTestApp], definitions: Path) -> SphinxTestApp:
    """The examples' root (tests/roots/test-examples: the examples of 2.10.4 and the report) built for the project
    of ``definitions``, its scenarios chosen by default, as the rulebook's are."""
    app = make_app("html", srcdir=root_copy("examples", tmp_path / "root"), freshenv=True,
                   confoverrides={"blackpoker_definitions": str(definitions)})
    try:
        app.build()
    finally:
        app.cleanup()  # a next build's application registers Sphinx's nodes afresh
    return app


def test_the_rulebook_shows_and_reports_a_project_example(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """The rulebook's worked examples and its verification report are the project's: an example it adds is
    shown at its section and reported as verified (so is one in a folder of its own); with an expectation that
    fails, the rulebook stops, naming the file. (On the examples' root, which shows 2.10.4: the project has the
    examples of that section, one scenario of the toolkit's frames and actions, and one folder of its own.)"""
    definitions = _project(tmp_path / "project", ("examples/zz-ours.yaml", _ours()), ("mine/ours-too.yaml", _ours()))
    scenarios = tmp_path / "project" / "scenarios"
    shown = [f"examples/{p.name}" for p in sorted((SCENARIOS / "examples").glob("*.yaml")) if _section(p) == "2.10.4"]
    for name in (*shown, "frames/01-setup-entry20.yaml", "actions/counter.yaml"):
        (scenarios / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy(SCENARIOS / name, scenarios / name)
    app = _examples_root(tmp_path, make_app, definitions)
    assert warnings_of(app) == []
    common = page(app, "common")
    assert f"例: {OURS}" in common and 'id="ex-zz-ours"' in common
    report = page(app, "verification")
    assert 'id="vr-examples-zz-ours"' in report and "scenarios/examples/zz-ours.yaml" in report
    entry = report[report.index('id="vr-examples-zz-ours"'):]
    assert "項目を確認" in entry[:2000] and "未検証" not in entry[:2000]
    assert report.index('id="vr-actions-') < report.index('id="vr-mine-ours-too"')

    (scenarios / "examples" / "zz-ours.yaml").write_text(_ours(expect_life=3), encoding="utf-8")
    with pytest.raises(ExampleFailed) as raised:
        _examples_root(tmp_path / "again", make_app, definitions)
    message = str(raised.value)
    assert "zz-ours.yaml" in message and "no longer holds" in message, message


def test_the_report_lists_every_scenario_the_build_verifies_whatever_its_folder(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """A scenario placed directly in the project's scenarios/ folder, or two folders down, is verified by the build
    and listed in the report like any other, under its folder, with its file and a label of its own."""
    definitions = _project(tmp_path / "project", ("examples/ours.yaml", _ours()), ("top.yaml", _ours()),
                           ("mine/deep/ours.yaml", _ours()), ("deep/ours.yaml", _ours()), ("deep-ours.yaml", _ours()))
    assert build_module._scenarios(definitions, tmp_path / "staging")[1] == "5 scenarios pass"  # what the build verifies
    app = _examples_root(tmp_path, make_app, definitions)
    assert warnings_of(app) == []
    report = page(app, "verification")
    assert "5 のシナリオ" in report
    # each with a label of its own, even where two places read alike (deep/ours.yaml, deep-ours.yaml)
    for label, where in (("vr-examples-ours", "examples/ours.yaml"), ("vr-top", "top.yaml"),
                         ("vr-mine-deep-ours", "mine/deep/ours.yaml"), ("vr-deep-ours", "deep/ours.yaml"),
                         ("vr-deep-ours-2", "deep-ours.yaml")):
        entry = report[report.index(f'id="{label}"'):]
        assert f"scenarios/{where}" in entry[:2000] and "項目を確認" in entry[:2000], label
    headings = re.findall(r'<p class="bp-report-folder rubric">([^<]+)</p>', report)
    assert headings == ["ルールブックの例", "deep", "mine/deep", "scenarios"], headings


@pytest.mark.build
def test_the_build_of_a_project_stops_at_its_own_malformed_scenario(tmp_path: Path) -> None:
    """A whole build (the small project, seconds) reads the project's scenarios: a malformed one of its own stops
    it with the problem located in that file, and the previous site stays. (The small project does not simulate,
    so its well-formed scenarios are left unverified; one that does not parse is still refused, located.)"""
    definitions = small_project(tmp_path)
    build(definitions, tmp_path / "site", progress=lambda _: None)
    before = sorted(p.relative_to(tmp_path / "site") for p in (tmp_path / "site").rglob("*"))
    bad = tmp_path / "scenarios" / "examples" / "ours.yaml"
    bad.parent.mkdir(parents=True)
    bad.write_text(_ours().replace("format: lite", "format: [lite"), encoding="utf-8")  # the bracket never closes
    with pytest.raises(BuildError) as info:
        build(definitions, tmp_path / "site", progress=lambda _: None)
    assert re.search(r"scenarios/examples/ours\.yaml:[0-9]+:[0-9]+: YAML syntax error", str(info.value)), str(info.value)
    assert sorted(p.relative_to(tmp_path / "site") for p in (tmp_path / "site").rglob("*")) == before


def test_a_failing_scenario_only_the_report_shows_stops_the_rulebook_naming_its_file(
        tmp_path: Path, make_app: Callable[..., SphinxTestApp]) -> None:
    """A scenario directly in scenarios/ is played by the report like the others: one that no longer holds stops the
    rulebook with its file and its failing expectation, as the build's scenarios step does."""
    definitions = _project(tmp_path / "project", ("examples/ours.yaml", _ours()), ("broken.yaml", _ours(expect_life=3)))
    with pytest.raises(ExampleFailed) as raised:
        _examples_root(tmp_path, make_app, definitions)
    message = str(raised.value)
    assert "scenarios/broken.yaml" in message and "no longer holds" in message and "FAIL life.B" in message, message
