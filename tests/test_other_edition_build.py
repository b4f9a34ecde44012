"""``blackpoker build`` end to end on definitions other than the repository's: an edition that declares
``simulated: false``, holds an action the simulator does not know (メテオ) and gives explicit official ids. The
site is published with the action in the rulebook and the lists, the report lists what is not simulated, every
official anchor resolves on the entry's pages and every official path leads there. The build is the session's
``other_edition`` (conftest.py), with v8.2 beside it: test_editions_build.py reads it too."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from blackpoker.core.kinds import anchor, named_entries, official_anchors, rulebook_page
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.render.officialpaths import RULEBOOK_PDFS, moved_pages, same_paths
from htmlcheck import ids_of, ids_on_disk, redirect_route
from sites import OtherEdition

pytestmark = [pytest.mark.slow, pytest.mark.build]


@pytest.fixture(scope="module")
def built(other_edition: OtherEdition) -> tuple[Path, Rules, list[str]]:
    """The edition's site (the shared build's root: v8.2 is in its folder), its rules and what the build said."""
    return other_edition.site, load_rules(other_edition.definitions), list(other_edition.lines)


def test_the_unsimulated_action_is_published_and_reported(built: tuple[Path, Rules, list[str]]) -> None:
    site, _, lines = built
    assert lines[0] == ("checked definitions: v8.1, 49 actions; not simulated: 1 action without an effect "
                        "(simulated: false; `blackpoker check` lists them)")
    assert any("verified scenarios: 102 scenarios pass" in line for line in lines)  # it plays all it can
    assert ids_of((site / "format.html").read_text(encoding="utf-8"))["act-meteor"] == 1
    for page in ("mast", "all"):
        assert ids_of((site / "actionlist" / "html" / f"{page}.html").read_text(encoding="utf-8"))["act-meteor"] == 1
    assert "act-meteor" not in (site / "actionlist" / "html" / "pro.html").read_text(encoding="utf-8")
    report = (site / "verification.html").read_text(encoding="utf-8")
    assert "シミュレーターが扱わない定義" in report and "アクション「メテオ」: 効果をシミュレーターが扱いません" in report
    exported = json.loads((site / "blackpoker-rules.json").read_text(encoding="utf-8"))
    assert exported["ruleset"]["simulated"] is False
    assert {"id": "meteor", "official_id": "meteor"}.items() <= next(
        a for a in exported["actions"] if a["id"] == "meteor").items()


def test_every_official_anchor_resolves_on_the_entrys_pages(built: tuple[Path, Rules, list[str]]) -> None:
    site, rules, _ = built
    rulebook = {p.name: ids_of(p.read_text(encoding="utf-8")) for p in site.glob("*.html")}
    lists = {p.name: ids_of(p.read_text(encoding="utf-8")) for p in (site / "actionlist" / "html").glob("*.html")}
    for ids in [*rulebook.values(), *lists.values()]:
        assert [i for i, n in ids.items() if n > 1] == []
    for entry in named_entries(rules):
        names = (anchor(entry), *official_anchors(entry))
        for name in names:
            assert [p for p, ids in rulebook.items() if ids[name]] == [f"{rulebook_page(entry)}.html"], name
        for page, ids in lists.items():
            if ids[anchor(entry)]:
                assert all(ids[name] == 1 for name in names), (page, names)
    assert rulebook["frame.html"]["frame-extraFrame"] == 1 and lists["all.html"]["char-heroUnit"] == 1


def test_every_official_path_leads_to_the_content(built: tuple[Path, Rules, list[str]]) -> None:
    site, rules, _ = built
    ids = ids_on_disk()
    for path in same_paths(rules):
        assert (site / path).is_file(), path
    for moved in RULEBOOK_PDFS:
        assert (site / moved.path).read_bytes() == (site / moved.target).read_bytes()
    for moved in moved_pages(rules):
        page = (site / moved.path).read_text(encoding="utf-8")
        assert (site / moved.target).is_file()
        folder = (site / moved.path).parent
        if moved.by_entry:
            for entry in named_entries(rules):
                for name in (anchor(entry), *official_anchors(entry)):
                    landing = (folder / redirect_route(page, name)).resolve()
                    assert ids(landing)[name] == 1, (moved.path, name)
        else:
            assert (folder / redirect_route(page, "x")).resolve() == (site / moved.target).resolve()
