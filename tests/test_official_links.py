"""The official site's links keep working: every page that shows an entry answers to its official anchors
(``#act-nextGeneration``, the tutorial's ``#act-nextgeneration``) as well as ours, exactly once, and every
official path leads to the same content (a redirect page, keeping the fragment, or a copy of a PDF)."""

from __future__ import annotations

import posixpath
from pathlib import Path

import pytest

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.kinds import anchor, named_entries, official_anchors, rulebook_page
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.core.paths import DEFINITIONS
from blackpoker.render.actionlist.html import render_pages
from blackpoker.render.officialpaths import RULEBOOK_PDFS, moved_pages, redirect_page, same_paths, write_redirects
from editions import OFFICIAL_IDS, edition
from htmlcheck import ids_of, ids_on_disk, redirect_route


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules(DEFINITIONS)


@pytest.fixture(scope="module")
def renamed(tmp_path_factory: pytest.TempPathFactory) -> Rules:
    """The definitions with explicit official ids on one entry of every kind."""
    return load_rules(edition(tmp_path_factory.mktemp("official") / "defs", simulated=None, meteor=False,
                              official_ids=True))


def test_explicit_official_ids_are_read(rules: Rules, renamed: Rules) -> None:
    ours = {e.id: e.official_id for e in named_entries(rules) if e.official_id}  # definitions/ gives some itself
    assert ours["generation-change"] == "nextGeneration" and ours["pack-open"] == "packopen"
    given = {(e.id, e.official_id) for e in named_entries(renamed) if e.official_id}
    changed = {entry_id: official for _, entry_id, official in OFFICIAL_IDS}
    assert given == {(i, changed.get(i, o)) for i, o in ours.items()} | set(changed.items())
    assert official_anchors(renamed.action("attack")) == ("act-attackAction", "act-attackaction")
    assert official_anchors(renamed.frame("extra")) == ("frame-extraFrame", "frame-extraframe")


def test_an_official_anchor_that_leads_to_another_entry_is_refused(tmp_path: Path) -> None:
    defs = edition(tmp_path / "defs", simulated=None, meteor=False)
    actions = defs / "actions.yaml"
    text = actions.read_text(encoding="utf-8")
    actions.write_text(text.replace("  - id: attack\n", "  - id: attack\n    official_id: block\n"), encoding="utf-8")
    line = actions.read_text(encoding="utf-8").splitlines().index("    official_id: block") + 1
    with pytest.raises(DefinitionErrors) as caught:
        load_rules(defs)
    assert [str(e).split(":", 1)[1] for e in caught.value.errors] == [
        f"{line}:18: actions[3].official_id: the official anchor 'act-block' of action 'attack' is also the anchor "
        "of action 'block'; expected an official_id that leads to one entry only"]


def _check_list_pages(rules: Rules) -> int:
    """Every action-list page that shows an entry has its official anchors once each; returns how many checked."""
    checked = 0
    entries = [e for e in named_entries(rules)]
    for name, page in render_pages(rules).items():
        ids = ids_of(page)
        assert [i for i, n in ids.items() if n > 1] == [], name
        for entry in entries:
            if ids[anchor(entry)] == 0:
                continue
            for official in official_anchors(entry):
                assert ids[official] == 1, (name, official)
                checked += 1
    return checked


def test_action_lists_answer_to_official_anchors(rules: Rules) -> None:
    assert _check_list_pages(rules) > 100
    all_page = render_pages(rules)["html/all.html"]
    assert '<span id="act-nextGeneration"></span><span id="act-nextgeneration"></span>' in all_page


def test_action_lists_answer_to_explicit_official_ids(renamed: Rules) -> None:
    assert _check_list_pages(renamed) > 100
    all_page = ids_of(render_pages(renamed)["html/all.html"])
    for kind, official in (("act", "changeOfGeneration"), ("act", "openPack"), ("char", "heroUnit"),
                           ("fog", "upCard"), ("trump", "spadeTwo")):
        assert all_page[f"{kind}-{official}"] == 1 and all_page[f"{kind}-{official.lower()}"] == 1


def _check_rulebook(site: Path, rules: Rules) -> None:
    """Each entry's page (and only one page per anchor) has its anchor and its official anchors once each."""
    pages = {p: ids_of(p.read_text(encoding="utf-8")) for p in site.glob("*.html")}
    for entry in named_entries(rules):
        page = site / f"{rulebook_page(entry)}.html"
        for name in (anchor(entry), *official_anchors(entry)):
            assert pages[page][name] == 1, (page.name, name)
            assert [p.name for p, ids in pages.items() if ids[name]] == [page.name], name


@pytest.mark.slow
def test_rulebook_pages_answer_to_official_anchors(built_rulebook: tuple[Path, Path], rules: Rules) -> None:
    site, _ = built_rulebook
    _check_rulebook(site, rules)
    # empty elements inside the entry's title, beside its own id
    assert ('id="act-generation-change"><span id="act-nextGeneration"></span><span id="act-nextgeneration">'
            '</span>') in (site / "format.html").read_text(encoding="utf-8")
    assert official_anchors(rules.frame("entry20")) == ()  # the same as ours: nothing more on the frame's page


def test_redirect_pages_keep_the_fragment_and_find_every_entry(rules: Rules, renamed: Rules, tmp_path: Path,
                                                              built_rulebook: tuple[Path, Path]) -> None:
    site, _ = built_rulebook
    ids = ids_on_disk()
    for ruleset in (rules, renamed):
        for moved in moved_pages(ruleset):
            page = redirect_page(ruleset, moved)
            target = posixpath.relpath(moved.target, posixpath.dirname(moved.path))
            assert f'<meta http-equiv="refresh" content="0; url={target}">' in page
            assert f'<link rel="canonical" href="https://blackpoker.github.io/BlackPoker/master/{moved.target}">' in page
            assert "location.replace(t+h)" in page and "http" not in page.split("<script>")[1].split("</script>")[0]
            if not moved.by_entry:
                continue
            folder = Path(moved.path).parent
            for entry in named_entries(ruleset):
                for name in (anchor(entry), *official_anchors(entry)):
                    landing = (site / folder / redirect_route(page, name)).resolve()
                    if ruleset is rules:  # the built rulebook is of definitions/
                        assert ids(landing)[name] == 1, (moved.path, name)
                    assert landing.name == f"{rulebook_page(entry)}.html"
    written = write_redirects(rules, tmp_path)
    assert sorted(p.relative_to(tmp_path).as_posix() for p in written) == sorted(m.path for m in moved_pages(rules))
    assert {m.path for m in moved_pages(rules)} >= {"auto/actionlist.html", "auto/frameActionlist.html",
                                                    "auto/framelist.html", "actionlist/html/v6-lite.html",
                                                    "actionlist/html/v6-ex.html"}


def test_the_rulebook_pdfs_official_names(built_rulebook: tuple[Path, Path]) -> None:
    site, _ = built_rulebook
    for moved in RULEBOOK_PDFS:
        assert (site / moved.target).is_file(), moved.target
    assert "blackpoker.pdf" in same_paths(load_rules(DEFINITIONS))
