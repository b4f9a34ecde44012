"""第8.2版 beside 第8.1版: editions/v8.2 checks as a simulated edition, self-play keeps its invariants in every
regulation, every scenario written for both editions passes under v8.2 too, and an effect worded in a way the
simulator does not know is a located gap, never played with the old effect."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from blackpoker.core.loader import check_rules, load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import DEFINITIONS, ROOT, SCENARIOS
from blackpoker.sim.effects import simulates
from blackpoker.sim.engine import legal_decisions
from blackpoker.sim.files import editions_of
from blackpoker.sim.gaps import coverage_gaps
from blackpoker.sim.scenario import load_scenario, run_scenario, unverified
from blackpoker.sim.selfplay import self_play
from blackpoker.sim.wording import KNOWN, wording_known

V82 = ROOT / "editions" / "v8.2"


@pytest.fixture(scope="module")
def v82() -> Rules:
    return load_rules(V82)


def regulations(rules: Rules) -> list[tuple[str, str | None]]:
    pairs: list[tuple[str, str | None]] = [(f.id, None) for f in rules.formats]
    return pairs + [(f.id, fr.id) for f in rules.formats for fr in rules.frames_for_format(f.id)]


def test_v82_is_a_simulated_edition_with_no_gap(v82: Rules) -> None:
    checked = check_rules(V82)
    assert checked.warnings == () and v82.edition.simulated
    assert (v82.edition.version, v82.edition.edition) == ("v8.2", "第8.2版")
    assert coverage_gaps(v82) == []


def test_v82_holds_v82s_texts(v82: Rules) -> None:
    assert "リクエスト" in "".join(str(b) for b in v82.action("counter").effect)
    assert v82.action("royal-straight-flush").note is None
    assert v82.action("generation-change").category == "誘発魔法"
    assert "サイズが" in str(v82.action("sword-rain").effect[0])


@pytest.mark.parametrize("regulation", range(14))
def test_self_play_keeps_invariants_in_every_v82_regulation(v82: Rules, regulation: int) -> None:
    regs = regulations(v82)
    assert len(regs) == 14
    fmt, frame = regs[regulation]
    stats = self_play(v82, fmt, 12, seed=8200, frame=frame)
    assert stats.failures == [] and sum(stats.winners.values()) == 12


def test_every_scenario_for_both_editions_passes_under_v82(v82: Rules) -> None:
    paths = sorted(SCENARIOS.rglob("*.yaml"))
    both = [p for p in paths if {"v8.1", "v8.2"} <= set(editions_of(_data(p)))]
    assert len(both) >= 100
    failed = []
    for path in both:
        assert unverified(v82, path) is None
        if not run_scenario(v82, load_scenario(path, v82)).passed:
            failed.append(path.name)
    assert failed == []


def _data(path: Path) -> object:
    import yaml
    return yaml.safe_load(path.read_text(encoding="utf-8"))


def test_a_scenario_for_another_edition_only_is_not_verified(tmp_path: Path) -> None:
    rules = load_rules(DEFINITIONS)
    text = next(SCENARIOS.rglob("*.yaml")).read_text(encoding="utf-8").replace("ruleset: [v8.1, v8.2]", "ruleset: v8.2")
    (tmp_path / "only-v82.yaml").write_text(text, encoding="utf-8")
    found = unverified(rules, tmp_path / "only-v82.yaml")
    assert found is not None and found.reason == "このシナリオは v8.2 のルール用で、この定義は v8.1 です"


def test_both_wordings_of_each_changed_effect_are_known(v82: Rules) -> None:
    v81 = load_rules(DEFINITIONS)
    for action_id in KNOWN:
        assert wording_known(v81.action(action_id)) and wording_known(v82.action(action_id))


def test_an_unknown_wording_is_a_gap_and_never_offered(v82: Rules) -> None:
    """停戦 reworded so that its effect says something else: a located gap (an error for a simulated edition), and
    the simulator does not offer it, rather than playing it with the effect it knows."""
    ceasefire = v82.action("ceasefire")
    reworded = dataclasses.replace(ceasefire, effect=("対象のリクエストを無効にし、そのキーカードを手札に戻す。",))
    rules = dataclasses.replace(v82, actions=tuple(reworded if a.id == "ceasefire" else a for a in v82.actions))
    [gap] = [g for g in coverage_gaps(rules) if "ceasefire" in g.message]
    assert gap.origin.path[-1] == "effect" and "効果の文言" in gap.text
    assert not simulates("ceasefire", rules) and simulates("ceasefire", v82)
    from blackpoker.sim.setup import new_game
    state = new_game(rules, "pro", 0)
    assert all(getattr(d, "action_id", None) != "ceasefire" for d in legal_decisions(state))


SHARED_ACT = ROOT.parent / "shared" / "official" / "act.yaml"


@pytest.mark.skipif(not SHARED_ACT.is_file(), reason="the official files are not at ../shared/official")
def test_v82_is_what_the_import_makes_of_the_official_act_yaml(tmp_path: Path) -> None:
    """scripts/make_edition.py on the unmodified official act.yaml gives editions/v8.2 but for its two hand
    edits (simulated: true; ruling soldier-number-size, about 第8.1版's wording, left out), and no file in the
    official layout."""
    import subprocess
    import sys
    out = tmp_path / "v8.2"
    subprocess.run([sys.executable, str(ROOT / "scripts" / "make_edition.py"), str(SHARED_ACT), str(out),
                    "--simulated"], check=True, capture_output=True)
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*") if p.is_file())
    kept = sorted(p.relative_to(V82).as_posix() for p in V82.rglob("*") if p.is_file())
    assert made == kept and not any(name.startswith("official-source") for name in made)
    for name in made:
        if name != "rulings.yaml":
            assert (out / name).read_bytes() == (V82 / name).read_bytes(), name
    fresh = load_rules(out)
    assert [r.id for r in fresh.rulings if r.id != "soldier-number-size"] == [r.id for r in load_rules(V82).rulings]


def test_v82_s_lists_set_its_full_width_colons_as_the_book_sets_colons(v82: Rules, tmp_path: Path) -> None:
    """Issue 22, item 7: one colon in what readers see. v8.2's official text writes 「タイプ：速攻魔法」 and
    「(防壁：bulwark)」; its lists set them 「タイプ: 速攻魔法」, as the printed v8.1 book and the toolkit's own labels
    do (core/typography.py), and show no full-width colon."""
    import html as htmllib
    import re

    from blackpoker.render.actionlist.html import build_html
    assert any("：" in (c.text or "") for ch in v82.characters for c in ch.abilities)
    build_html(v82, tmp_path)
    pages = sorted((tmp_path / "actionlist").glob("**/*.html"))
    assert pages
    for page in pages:
        text = re.sub(r"<(script|style)\b.*?</\1>", "", page.read_text(encoding="utf-8"), flags=re.S)
        shown = htmllib.unescape(re.sub(r"<[^>]+>", "", text))
        assert "：" not in shown, (page.name, shown[max(0, shown.find("：") - 30):shown.find("：") + 10])
    assert "タイプ: 速攻魔法" in (tmp_path / "actionlist" / "html" / "all.html").read_text(encoding="utf-8")
