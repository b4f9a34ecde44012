"""Files beside the output and unreadable folders: a build removes only its own scratch folders, and folders it
cannot read do not stop it (issue 25, items 1 and 4)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from blackpoker.pipeline import build as build_module
from blackpoker.pipeline.build import _remove_leftovers
from sites import SMALL, keep_the_runtime, small_project

ALIENS = (".bashrc.old", ".project.staging", ".config.build-2024", ".other.build-abcd1234", ".site.build-2024",
          ".site.export", ".site.old.keep")


@pytest.mark.parametrize("name", ["*", "dir*", "[s]ite", "?ite", "**", "site"])
def test_leftover_clean_up_never_matches_a_pattern(tmp_path: Path, name: str) -> None:
    """An output name with glob characters is compared as text: no hidden file or folder of anyone else goes."""
    for alien in ALIENS:
        (tmp_path / alien).mkdir()
        (tmp_path / alien / "keep").write_text("x", encoding="utf-8")
    (tmp_path / ".bashrc.old.file").write_text("x", encoding="utf-8")
    ours = [f".{name}.build-a1b2c3_d", f".{name}.staging", f".{name}.old", f".{name}.step-rulebook"]
    for leftover in ours:
        (tmp_path / leftover / "deep").mkdir(parents=True)
    _remove_leftovers(tmp_path / name)
    left = sorted(p.name for p in tmp_path.iterdir())
    assert left == sorted([*ALIENS, ".bashrc.old.file"])


def test_a_build_named_with_a_star_leaves_its_neighbours(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole build, interrupted by nothing: its clean-up of leftovers keeps hidden folders beside it."""
    from blackpoker.pipeline.build import Step, build

    def one(_definitions: Path, staging: Path) -> tuple[list[Path], str]:
        (staging / "one.txt").write_text("1", encoding="utf-8")
        return [staging / "one.txt"], ""

    monkeypatch.setattr(build_module, "STEPS", (Step("one", "one", one),))
    for alien in ALIENS:
        (tmp_path / alien).mkdir()
    build(SMALL / "definitions", tmp_path / "*", progress=lambda _: None, jobs=1, cache_dir=tmp_path / "cache")
    assert (tmp_path / "*" / "one.txt").read_text(encoding="utf-8") == "1"
    assert all((tmp_path / alien).is_dir() for alien in ALIENS)


# Run first in the child of :func:`_unprivileged`: as root, drop the two capabilities that let root read, enter
# and write any folder, from every set and from the bounding set (so no program the child starts gets them back
# on exec), as capsh --drop does; the child then meets mode 000 as any user does. Only Linux's capget/capset
# and prctl, through ctypes: the CI container runs as root and has no capsh.
_DROP_ROOTS_FILE_CAPABILITIES = """
import ctypes, os, sys
if os.geteuid() == 0:
    libc = ctypes.CDLL(None, use_errno=True)
    class _Header(ctypes.Structure):
        _fields_ = [("version", ctypes.c_uint32), ("pid", ctypes.c_int)]
    class _Data(ctypes.Structure):
        _fields_ = [("effective", ctypes.c_uint32), ("permitted", ctypes.c_uint32), ("inheritable", ctypes.c_uint32)]
    DAC_OVERRIDE, DAC_READ_SEARCH, PR_CAPBSET_DROP = 1, 2, 24
    header, data = _Header(0x20080522, 0), (_Data * 2)()
    for cap in (DAC_OVERRIDE, DAC_READ_SEARCH):
        libc.prctl(PR_CAPBSET_DROP, cap, 0, 0, 0)  # fails without CAP_SETPCAP: then only this process drops it
    if libc.capget(ctypes.byref(header), data) != 0:
        sys.exit(f"capget failed: {os.strerror(ctypes.get_errno())}")
    mask = ~((1 << DAC_OVERRIDE) | (1 << DAC_READ_SEARCH)) & 0xFFFFFFFF
    data[0].effective &= mask
    data[0].permitted &= mask
    data[0].inheritable &= mask
    if libc.capset(ctypes.byref(header), data) != 0:
        sys.exit(f"capset failed: {os.strerror(ctypes.get_errno())}")
"""


def _unprivileged(code: str, *args: str) -> subprocess.CompletedProcess[str]:
    """Run Python ``code`` (with ``args``) without the capabilities that let root read any folder (as any user
    would)."""
    if sys.platform != "linux":
        pytest.skip("dropping root's file capabilities needs Linux")
    return subprocess.run([sys.executable, "-c", _DROP_ROOTS_FILE_CAPABILITIES + code, *args], capture_output=True,
                          text=True, timeout=120, check=False)


def test_remove_tree_removes_folders_of_mode_000(tmp_path: Path) -> None:
    """A folder no one may read or enter, deep in the old site: removed, no TypeError from the retry."""
    scratch = tmp_path / ".site.build-abcdefgh"
    (scratch / "site" / "a" / "locked" / "inner").mkdir(parents=True)
    (scratch / "site" / "a" / "locked" / "inner" / "f.txt").write_text("x", encoding="utf-8")
    (scratch / "site" / "a" / "closed").mkdir()
    (scratch / "site" / "a" / "closed" / "g.txt").write_text("x", encoding="utf-8")
    (scratch / "site" / "a" / "locked" / "inner").chmod(0)
    (scratch / "site" / "a" / "locked").chmod(0)
    (scratch / "site" / "a" / "closed").chmod(0o100)  # may enter, not list
    (scratch / "site").chmod(0o500)
    result = _unprivileged("from pathlib import Path; from blackpoker.infra.fsutil import remove_tree; "
                           f"remove_tree(Path({str(scratch)!r}))")
    assert result.returncode == 0, result.stderr
    assert not scratch.exists()


# the command line's build, its steps one that writes one file: what is tested is the swap and the clean-up
_BUILD_ONE_FILE = """
from blackpoker.pipeline import build as build_module
def one(_definitions, staging):
    (staging / "new.txt").write_text("new", encoding="utf-8")
    return [staging / "new.txt"], ""
build_module.STEPS = (build_module.Step("new", "new", one),)
try:
    os.listdir(sys.argv[-1])
except PermissionError:
    pass
else:
    sys.exit("the folder of mode 000 could be read: the test would prove nothing")
from blackpoker.cli.main import main
sys.argv = ["blackpoker", *sys.argv[1:-1]]
main()
"""


def test_a_build_over_a_site_holding_a_folder_of_mode_000_publishes_and_leaves_no_scratch(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The previous site (and a leftover of an interrupted build) hold folders no one may read or enter: the
    command publishes the new site, exits 0 (it exited 70 with ``TypeError: open() missing required argument
    'flags'`` from remove_tree's retry, after publishing) and leaves no scratch folder beside it (issue 25,
    item 4)."""
    from blackpoker.pipeline.build import Step, build

    def old(_definitions: Path, staging: Path) -> tuple[list[Path], str]:
        (staging / "old.txt").write_text("old", encoding="utf-8")
        return [staging / "old.txt"], ""

    monkeypatch.setattr(build_module, "STEPS", (Step("old", "old", old),))
    out = tmp_path / "site"
    build(SMALL / "definitions", out, progress=lambda _: None, jobs=1, editions=())
    (out / "a" / "locked" / "inner").mkdir(parents=True)
    (out / "a" / "locked" / "inner" / "f.txt").write_text("x", encoding="utf-8")
    (out / "closed").mkdir()
    (out / "closed" / "g.txt").write_text("x", encoding="utf-8")
    leftover = tmp_path / ".site.build-abcd1234"  # an interrupted build's, with its own locked folder
    (leftover / "site" / "locked").mkdir(parents=True)
    for folder, mode in ((out / "a" / "locked" / "inner", 0), (out / "a" / "locked", 0), (out / "closed", 0o100),
                         (leftover / "site" / "locked", 0)):
        folder.chmod(mode)
    result = _unprivileged(_BUILD_ONE_FILE, "build", "--definitions", str(SMALL / "definitions"),
                           "--out", str(out), "--no-editions", str(out / "a" / "locked"))
    assert result.returncode == 0, result.stderr
    assert "internal error" not in result.stderr and "warning: could not remove" not in result.stderr
    assert sorted(p.relative_to(out).as_posix() for p in out.rglob("*")) == [".blackpoker-site", "new.txt"]
    assert sorted(p.name for p in tmp_path.iterdir()) == [".blackpoker-cache", ".site.lock", "site"]


# --- the cache is untrusted (item 3) -------------------------------------------------------------------------

def _one_step(monkeypatch: pytest.MonkeyPatch) -> None:
    """The build is this one step; builds given ``editions=()`` run it for the current edition only (another
    edition would run it too, under a cache entry of its own whose "unchanged" would hide whether the damaged
    entry's step ran again)."""
    from blackpoker.pipeline.build import Step

    def export(definitions: Path, staging: Path) -> tuple[list[Path], str]:
        target = staging / "blackpoker-rules.json"
        target.write_text("{" + '"a": 1, ' * 400 + '"end": 1}', encoding="utf-8")
        (staging / "sub").mkdir()
        (staging / "sub" / "b.txt").write_text("b" * 100, encoding="utf-8")
        return [target, staging / "sub" / "b.txt"], ""

    monkeypatch.setattr(build_module, "STEPS", (Step("export", "export", export),))


@pytest.mark.parametrize("damage", ["truncated", "changed", "extra file", "missing file", "stray file", "no digests",
                                    "a link"])
def test_a_damaged_step_entry_is_rebuilt_with_one_warning(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                         damage: str) -> None:
    from blackpoker.pipeline.build import build
    _one_step(monkeypatch)
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(SMALL / "definitions", out, progress=lambda _: None, jobs=1, cache_dir=cache, editions=())
    good = (out / "blackpoker-rules.json").read_bytes()
    [entry] = list((cache / "steps" / "export").iterdir())
    published = entry / "files" / "blackpoker-rules.json"
    if damage == "truncated":
        published.write_bytes(good[:1000])
    elif damage == "changed":
        published.write_bytes(good.replace(b'"a"', b'"z"', 1))
    elif damage == "extra file":
        (entry / "files" / "evil.html").write_text("<script>", encoding="utf-8")
    elif damage == "missing file":
        (entry / "files" / "sub" / "b.txt").unlink()
    elif damage == "stray file":
        shutil.rmtree(entry)
        entry.write_text("not an entry", encoding="utf-8")
    elif damage == "no digests":
        (entry / "digests.json").unlink()
    else:
        published.unlink()
        published.symlink_to(tmp_path / "elsewhere.json")
        (tmp_path / "elsewhere.json").write_bytes(good)
    said: list[str] = []
    build(SMALL / "definitions", out, progress=said.append, jobs=1, cache_dir=cache, editions=())
    assert (out / "blackpoker-rules.json").read_bytes() == good
    assert (out / "sub" / "b.txt").read_text(encoding="utf-8") == "b" * 100
    assert not (out / "evil.html").exists()
    warnings = [line for line in said if "damaged cache entry" in line]
    assert len(warnings) == 1, said
    assert not any("unchanged" in line for line in said)  # the step ran again
    said.clear()
    build(SMALL / "definitions", out, progress=said.append, jobs=1, cache_dir=cache, editions=())  # and the new entry is good
    assert any("unchanged" in line for line in said) and not any("damaged" in line for line in said)


@pytest.mark.parametrize("damage", ["truncated", "record", "pdf is a folder"])
def test_a_damaged_part_is_never_used(tmp_path: Path, damage: str) -> None:
    from blackpoker.render.pdfparts import PartCache, PartInfo
    warned: list[str] = []
    cache = PartCache(tmp_path / "parts", warn=warned.append)
    info = PartInfo(1, (), ())
    part = cache.put("chapter-" + "ab" * 32, b"%PDF-1.7\n" + b"x" * 5000 + b"\n%%EOF\n", info)
    assert cache.get("chapter-" + "ab" * 32) == part and not warned
    if damage == "truncated":
        part.pdf.write_bytes(part.pdf.read_bytes()[:1000])
    elif damage == "record":
        part.pdf.with_suffix(".json").write_text("{", encoding="utf-8")
    else:
        part.pdf.unlink()
        part.pdf.mkdir()
    assert cache.get("chapter-" + "ab" * 32) is None
    assert len(warned) == 1 and "damaged cache entry" in warned[0]
    again = cache.put("chapter-" + "ab" * 32, b"%PDF-1.7\nnew\n%%EOF\n", info)
    assert cache.get("chapter-" + "ab" * 32) == again and len(warned) == 1


# --- where a build writes (item 14) ---------------------------------------------------------------------------

def test_the_cache_beside_an_output_in_the_home_folder_is_the_toolkits_own(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--out ~/site``: the cache is ``~/.blackpoker-cache``, never ``~/.cache`` (other programs' folder)."""
    from blackpoker.pipeline.build import build
    _one_step(monkeypatch)
    home = tmp_path / "home"
    home.mkdir()
    keep_the_runtime(monkeypatch)  # the play page's Pyodide stays where make fetched it, under the real home
    monkeypatch.setenv("HOME", str(home))
    build(SMALL / "definitions", Path("~/site").expanduser(), progress=lambda _: None, jobs=1)
    assert (home / "site" / "blackpoker-rules.json").is_file()
    assert not (home / ".cache").exists()
    assert (home / ".blackpoker-cache" / "steps" / "export").is_dir()


@pytest.mark.parametrize("inside", ["images", "images/site", "sub/deeper"])
def test_an_output_inside_the_definitions_is_refused(tmp_path: Path, inside: str) -> None:
    from blackpoker.pipeline.build import OutputRefused, check_output
    defs = tmp_path / "definitions"
    shutil.copytree(Path(__file__).parents[1] / "definitions", defs)
    with pytest.raises(OutputRefused, match="inside the definitions"):
        check_output(defs / inside, defs)
    assert not (defs / inside).exists()


def _tree(folder: Path) -> dict[str, bytes | None]:
    return {p.relative_to(folder).as_posix(): p.read_bytes() if p.is_file() else None for p in folder.rglob("*")}


@pytest.mark.parametrize("out", ["definitions/images", "definitions/images/site", "definitions/../definitions/x"])
def test_the_command_line_refuses_an_output_inside_the_definitions(tmp_path: Path, out: str) -> None:
    """``blackpoker build --out definitions/images``: exit 2 and one line that says why, before the rules are
    read; nothing written beside or inside the definitions (no cache, no lock, no scratch folder), nothing
    deleted from the folder it names."""
    from clirun import run_cli
    defs = tmp_path / "definitions"
    shutil.copytree(SMALL / "definitions", defs)
    (defs / "images").mkdir()
    (defs / "images" / "slash.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    before = _tree(tmp_path)
    result = run_cli("build", "--out", out, cwd=tmp_path)
    assert result.returncode == 2, result.stderr
    [line] = result.stderr.splitlines()
    assert "the output folder is inside the definitions" in line and "choose a folder outside them" in line
    assert _tree(tmp_path) == before


# --- a large file beside the pictures (item 8) and pictures added while the preview runs (item 13) ---------------

def test_an_unused_huge_file_beside_the_pictures_is_never_read_whole(tmp_path: Path) -> None:
    import tracemalloc

    from blackpoker.core.loader import load_rules
    from blackpoker.infra.cache import fingerprint
    from blackpoker.pipeline.build import STEPS, build_inputs, step_key
    defs = small_project(tmp_path)  # what is measured is the picture's reading, not the rules' loading
    (defs / "images").mkdir()
    with (defs / "images" / "huge.png").open("wb") as f:  # sparse: 1 GB that takes no disk
        f.truncate(2**30)
    tracemalloc.start()
    try:
        rules = load_rules(defs)
        keys = [step_key(step, defs, rules) for step in STEPS]
        watched = fingerprint(build_inputs(defs), max_bytes=2**20)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(set(keys)) == len(keys) and watched
    assert peak < 200 * 2**20, f"{peak / 2**20:.0f} MB"


def test_the_preview_sees_a_picture_added_after_it_started(tmp_path: Path) -> None:
    from blackpoker.infra.cache import fingerprint
    from blackpoker.pipeline.build import build_inputs
    defs = tmp_path / "definitions"
    shutil.copytree(Path(__file__).parents[1] / "definitions", defs)
    roots = build_inputs(defs)  # computed once, when the preview starts: no images/ yet
    before = fingerprint(roots, max_bytes=2**20)
    (defs / "images").mkdir()
    (defs / "images" / "new.svg").write_text('<svg xmlns="http://www.w3.org/2000/svg"/>', encoding="utf-8")
    assert fingerprint(roots, max_bytes=2**20) != before


# --- an index longer than the folio made for it (item 10) ----------------------------------------------------------

def test_a_book_whose_index_outgrows_the_early_folio_is_still_joined(
        built_rulebook: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """5,000 actions make an index of more pages than the folio made early for it: the folio is made again for
    the real count (the build failed: "the index takes more than 16 pages; raise FOLIO_SPARE")."""
    from pypdf import PdfReader

    from blackpoker.infra.jobs import Inline
    from blackpoker.render import book
    from blackpoker.render.pdfparts import PartCache
    site, work = built_rulebook
    shutil.copytree(work / "parts", tmp_path / "parts")  # every chapter as the full build rendered it
    monkeypatch.setattr(book, "FOLIO_SPARE", -10**6)  # the early folio: far too short for the book
    builder = book.BookBuilder(work / "single" / "index.html", Inline(), PartCache(tmp_path / "parts"))
    builder.build(tmp_path / "book.pdf")
    assert len(PdfReader(tmp_path / "book.pdf").pages) == len(PdfReader(site / "blackpoker.pdf").pages)


def test_a_key_is_the_same_wherever_the_definitions_are(tmp_path: Path) -> None:
    """The same files give the same cache key whether the definitions sort before or after the toolkit's code:
    a copy of the definitions in /tmp/pytest-… beside a toolkit in /tmp/cirun/… took every step of its second
    edition as changed (the files were hashed in the order of their absolute paths)."""
    from blackpoker.infra.cache import fingerprint
    code = tmp_path / "m-toolkit" / "tools"
    code.mkdir(parents=True)
    (code / "step.py").write_text("STEP = 1\n", encoding="utf-8")
    keys = []
    for place in ("a-before", "z-after"):
        definitions = tmp_path / place / "definitions"
        definitions.mkdir(parents=True)
        (definitions / "actions.yaml").write_text("actions: []\n", encoding="utf-8")
        keys.append(fingerprint([definitions / "actions.yaml", code], "export"))
    assert keys[0] == keys[1]


@pytest.mark.build
def test_a_build_after_every_cached_part_was_cut_short_rebuilds_them_and_publishes_whole_pdfs(
        tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """Item 3, end to end: every laid-out part in the cache truncated, and the steps' own entries gone, so the
    rulebook and the lists are made again from the parts. The build discards the damaged parts (one warning each),
    lays them out again and publishes the PDFs it first made, byte for byte, instead of failing on a PDF it cannot
    parse."""
    from blackpoker.pipeline.build import build
    defs = small_project(tmp_path / "project")
    out, cache = tmp_path / "site", tmp_path / "cache"
    build(defs, out, progress=lambda _: None, cache_dir=cache, editions=())
    first = {p.relative_to(out): p.read_bytes() for p in out.rglob("*.pdf")}
    assert len(first) >= 4, first.keys()
    parts = sorted((cache / "parts").rglob("*.pdf"))
    assert len(parts) >= 5, parts
    for part in parts:
        part.write_bytes(part.read_bytes()[:1000])
    shutil.rmtree(cache / "steps")
    capfd.readouterr()
    build(defs, out, progress=lambda _: None, cache_dir=cache, editions=())
    warned = [line for line in capfd.readouterr().err.splitlines() if "damaged cache entry" in line]
    assert len(warned) == len(parts), warned  # the workers' warnings, one for each part
    assert all("rendered again" in line for line in warned), warned
    assert {p.relative_to(out): p.read_bytes() for p in out.rglob("*.pdf")} == first
