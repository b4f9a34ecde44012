"""The build orchestrator: atomic replacement, caching of unchanged steps, failures that change nothing.

These tests swap the real steps for small ones that write a file derived from the definitions, so they run
in a second; the end-to-end build is covered by the action-list and rulebook tests.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.loader import load_rules
from blackpoker.core.paths import ROOT
from blackpoker.infra.fsutil import remove_tree
from blackpoker.pipeline import build as build_module
from blackpoker.pipeline.build import MARKER, BuildError, OutputRefused, Step, build
from sites import keep_the_runtime, small_project


def _names(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    rules = load_rules(definitions)
    target = staging / "names" / "actions.txt"
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text("\n".join(a.name for a in rules.actions), encoding="utf-8")
    return [target], ""


def _flavors(definitions: Path, staging: Path) -> tuple[list[Path], str]:
    rules = load_rules(definitions)
    if any(a.flavor and "FAIL" in a.flavor for a in rules.actions):
        raise RuntimeError("a flavour says FAIL")
    target = staging / "flavors.txt"
    target.write_text("\n".join(a.flavor or "" for a in rules.actions), encoding="utf-8")
    return [target], ""


@pytest.fixture
def defs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The small rules project's definitions (what the orchestrator does holds for any rules), with two steps."""
    monkeypatch.setattr(build_module, "STEPS", (Step("names", "names", _names), Step("flavors", "flavors", _flavors)))
    return small_project(tmp_path)


def _edit(defs: Path, old: str, new: str) -> None:
    path = defs / "actions.yaml"
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")


def _snapshot(out: Path) -> dict[str, bytes]:
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*")) if p.is_file() and p.name != MARKER}


def test_build_writes_every_step(defs: Path, tmp_path: Path) -> None:
    lines: list[str] = []
    report = build(defs, tmp_path / "site", progress=lines.append, jobs=1)
    assert sorted(_snapshot(tmp_path / "site")) == ["flavors.txt", "names/actions.txt"]
    assert report.files == 2 and {r.name for r in report.results} == {"names", "flavors"}
    assert any("✓ names" in line for line in lines)
    assert [p.name for p in tmp_path.glob(".site.*")] == [".site.lock"]  # no staging or old tree left behind


def test_unchanged_steps_are_reused_and_an_edit_rerenders_the_steps_that_read_it(defs: Path, tmp_path: Path) -> None:
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    lines: list[str] = []
    build(defs, out, progress=lines.append, jobs=1)
    assert sum("unchanged" in line for line in lines) == 2

    _edit(defs, "「防壁の次は兵士を出します。", "「防壁の次に兵士を出します。")
    lines.clear()
    report = build(defs, out, progress=lines.append, jobs=1)
    assert "防壁の次に兵士" in (out / "flavors.txt").read_text(encoding="utf-8")
    assert {r.name for r in report.results if r.detail != "unchanged"} == {"names", "flavors"}


def test_two_builds_are_byte_identical(defs: Path, tmp_path: Path) -> None:
    build(defs, tmp_path / "a", progress=lambda _: None, jobs=1, cache_dir=tmp_path / "cache-a")
    build(defs, tmp_path / "b", progress=lambda _: None, jobs=1, cache_dir=tmp_path / "cache-b")
    assert _snapshot(tmp_path / "a") == _snapshot(tmp_path / "b")


@pytest.mark.parametrize("old, new, error, match", [
    ("「防壁の次は兵士を出します。", "「FAIL", BuildError, "flavors: RuntimeError: a flavour says FAIL"),
    ("  timing: main\n", "  timing: ずっと\n", DefinitionErrors, "'ずっと' is not one of 'main', 'quick'"),
], ids=["failing step", "bad definitions"])
def test_a_failed_build_leaves_the_previous_output(defs: Path, tmp_path: Path, old: str, new: str,
                                                   error: type[Exception], match: str) -> None:
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    before = _snapshot(out)
    _edit(defs, old, new)
    with pytest.raises(error, match=match):
        build(defs, out, progress=lambda _: None, jobs=1)
    assert _snapshot(out) == before
    assert [p.name for p in tmp_path.glob(".site.*")] == [".site.lock"]


def test_published_files_are_readable_by_any_web_server_whatever_the_umask(defs: Path, tmp_path: Path) -> None:
    """Files 0644 and folders 0755 even under umask 077 (issue 13, item 15)."""
    import os
    import stat
    previous = os.umask(0o077)
    try:
        build(defs, tmp_path / "site", progress=lambda _: None, jobs=1)
    finally:
        os.umask(previous)
    out = tmp_path / "site"
    modes = {str(p.relative_to(out)): stat.S_IMODE(p.stat().st_mode) for p in [out, *out.rglob("*")]}
    assert modes == {".": 0o755, "names": 0o755, "names/actions.txt": 0o644, "flavors.txt": 0o644, MARKER: 0o644}


def test_an_output_that_cannot_be_replaced_is_a_build_error_naming_it(defs: Path, tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """If the old site cannot be moved aside, the build says so with the path (exit 1), not as a crash."""
    import errno
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    real_rename = Path.rename

    def refuse(self: Path, target: Path) -> Path:
        if self == out:
            raise OSError(errno.ENOTEMPTY, "Directory not empty", str(target))
        return real_rename(self, target)

    monkeypatch.setattr(Path, "rename", refuse)
    monkeypatch.setattr(build_module, "exchange", lambda a, b: False)  # the two-rename way, where it can fail so
    with pytest.raises(BuildError, match=r"could not replace .*site: Directory not empty \(.*/\.site\.build-[^/]*/old\)"):
        build(defs, out, progress=lambda _: None, jobs=1)
    assert sorted(_snapshot(out)) == ["flavors.txt", "names/actions.txt"]  # the last good site is still there


def test_the_build_replaces_only_a_folder_it_made(defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--out may name a new folder, an empty one or an earlier site (its marker); never the user's files
    (issue 13, item 4)."""
    def quiet(out: Path) -> None:
        build(defs, out, progress=lambda _: None, jobs=1)
    quiet(tmp_path / "new" / "site")
    assert (tmp_path / "new" / "site" / MARKER).is_file()
    quiet(tmp_path / "new" / "site")  # its own site: replaced
    (tmp_path / "empty").mkdir()
    quiet(tmp_path / "empty")

    mine = tmp_path / "mine"
    mine.mkdir()
    (mine / "thesis.txt").write_text("years of work", encoding="utf-8")
    work = tmp_path / "work"
    (work / "sub").mkdir(parents=True)
    monkeypatch.chdir(work / "sub")
    home = tmp_path / "home"
    (home / "x").mkdir(parents=True)
    keep_the_runtime(monkeypatch)  # the play page's Pyodide stays where make fetched it, under the real home
    monkeypatch.setenv("HOME", str(home))
    for out, reason in ((mine, "not a site made by blackpoker build"), (defs, "the definitions"),
                        (defs.parent, "the definitions"), (work / "sub", "the current folder"),
                        (work, "the current folder"), (home, "your home folder"),
                        (ROOT, "the repository"), (Path("."), "the current folder")):
        with pytest.raises(OutputRefused, match=reason):
            quiet(out)
    assert (mine / "thesis.txt").read_text(encoding="utf-8") == "years of work"
    assert (defs / "actions.yaml").is_file()


def test_the_command_line_refuses_a_dangerous_out_with_exit_2(tmp_path: Path) -> None:
    from clirun import run_cli
    result = run_cli("build", "--out", ".", cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    assert "is or contains the current folder" in result.stderr and "Traceback" not in result.stderr


def test_an_edited_published_file_is_restored_by_the_next_build(defs: Path, tmp_path: Path) -> None:
    """Published files are copies, not hard links into the cache: editing one changes neither the cache nor the
    next build's output (issue 13, item 14)."""
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    before = _snapshot(out)
    with (out / "flavors.txt").open("a", encoding="utf-8") as f:
        f.write("x")
    lines: list[str] = []
    build(defs, out, progress=lines.append, jobs=1)
    assert any("unchanged" in line for line in lines)  # copied from the cache, not run again
    assert _snapshot(out) == before


def test_the_site_is_swapped_in_one_step_so_a_crash_leaves_a_complete_site(
        defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The new and the old tree exchange names atomically; a build killed right after the swap, before the old tree
    is removed, leaves the new site complete under the output name (issue 13, item 11)."""
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    _edit(defs, "エンド", "エンドX")
    real_remove = remove_tree

    def killed(path: Path) -> None:
        if path.name.startswith(".site.build-"):  # the scratch folder, with the old site, after the exchange
            raise KeyboardInterrupt
        real_remove(path)

    monkeypatch.setattr(build_module, "remove_tree", killed)
    with pytest.raises(KeyboardInterrupt):
        build(defs, out, progress=lambda _: None, jobs=1)
    assert "エンドX" in (out / "names" / "actions.txt").read_text(encoding="utf-8")
    assert sorted(_snapshot(out)) == ["flavors.txt", "names/actions.txt"]


def test_without_an_atomic_exchange_the_two_renames_still_replace_the_site(
        defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    monkeypatch.setattr(build_module, "exchange", lambda a, b: False)
    _edit(defs, "エンド", "エンドY")
    build(defs, out, progress=lambda _: None, jobs=1)
    assert "エンドY" in (out / "names" / "actions.txt").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.glob(".site.*")] == [".site.lock"]


def test_a_folder_that_cannot_be_removed_is_reported_and_blocks_no_later_build(
        defs: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Read-only content in the old site (or anything else that keeps it from being removed): the new site
    is published, the build names the folder left behind, and the next build works (issue 13, item 12)."""
    import errno
    out = tmp_path / "site"
    build(defs, out, progress=lambda _: None, jobs=1)
    real_remove = remove_tree

    def stuck(path: Path) -> None:
        if path.name.startswith(".site.build-"):
            raise PermissionError(errno.EACCES, "Permission denied", str(path / "site" / "names"))
        real_remove(path)

    monkeypatch.setattr(build_module, "remove_tree", stuck)
    _edit(defs, "エンド", "エンドZ")
    said: list[str] = []
    build(defs, out, progress=said.append, jobs=1)
    assert "エンドZ" in (out / "names" / "actions.txt").read_text(encoding="utf-8")
    warning = [line for line in said if line.startswith("warning: could not remove")]
    assert len(warning) == 1 and "Permission denied" in warning[0] and "remove it by hand" in warning[0]
    monkeypatch.setattr(build_module, "remove_tree", real_remove)
    _edit(defs, "エンドZ", "エンドW")
    build(defs, out, progress=lambda _: None, jobs=1)  # not wedged; and the leftover is cleared
    assert "エンドW" in (out / "names" / "actions.txt").read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.glob(".site.*")] == [".site.lock"]


def test_the_step_cache_keeps_the_newest_entries_and_the_parts_they_were_made_from(tmp_path: Path) -> None:
    import os

    from blackpoker.infra.cache import StepCache
    site = tmp_path / "site"
    (site / "f.txt").parent.mkdir()
    (site / "f.txt").write_text("x", encoding="utf-8")
    cache = StepCache(tmp_path / "steps")
    keys = [f"{n:064x}" for n in range(5)]
    for n, key in enumerate(keys):
        cache.store("step", key, site, [site / "f.txt"], [f"part-{n}"])
        os.utime(tmp_path / "steps" / "step" / key, (n, n))  # entry n last used at time n
    cache.store("step", keys[0], site, [site / "f.txt"], ["part-0"])  # stored twice: the first entry stays
    assert cache.restore("step", keys[1], tmp_path / "restored") == [tmp_path / "restored" / "f.txt"]  # now newest
    assert cache.retain() == {"part-1", "part-3", "part-4"}
    assert sorted(p.name for p in (tmp_path / "steps" / "step").iterdir()) == sorted([keys[1], keys[3], keys[4]])
    assert cache.restore("step", keys[0], tmp_path / "again") is None


def test_the_cache_is_cleaned_only_when_no_other_build_uses_it(tmp_path: Path) -> None:
    from blackpoker.infra.locks import CacheLease
    building, cleaning = CacheLease(tmp_path), CacheLease(tmp_path)
    with building.shared(), cleaning.alone() as alone:
        assert not alone
    with cleaning.alone() as alone:
        assert alone
