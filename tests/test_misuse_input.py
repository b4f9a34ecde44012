"""One rule for input (issue 25, items 9, 11, 14): every text an input holds is checked once, where it is read
(core/yamlsource.py, shared by the definitions, scenarios, game records and the official files): no control,
bidi or zero-width characters, even written as YAML escapes; text in composed form (NFC); integers within range.
Every message goes through one function (core/errors.printable) that escapes what a terminal interprets."""

from __future__ import annotations

import ast
import shutil
import subprocess
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.errors import DefinitionError, DefinitionErrors, printable
from blackpoker.core.paths import DEFINITIONS, SCENARIOS
from blackpoker.core.yamlsource import parse_yaml
from clirun import run_cli

HOSTILE = {
    "osc52": r'"\e]52;c;ZWNobyBwd25lZA==\a\e[2J"',
    "nul": r'"a\0b"',
    "del": r'"a\x7fb"',
    "nel": r'"a\x85b"',
    "bidi": r'"a\u202eb"',
    "zero-width": r'"スラ\u200bッシュ"',
    "line separator": r'"a\u2028b"',
    "carriage return": r'"OK\rFAIL"',
}


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return run_cli(*args)


def _defs(tmp_path: Path, old: str, new: str, file: str = "actions.yaml") -> Path:
    defs = tmp_path / "definitions"
    if not defs.exists():
        shutil.copytree(DEFINITIONS, defs)
    path = defs / file
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new, 1), encoding="utf-8")
    return defs


@pytest.mark.parametrize("kind", sorted(HOSTILE))
def test_a_control_character_written_as_an_escape_is_a_located_error(tmp_path: Path, kind: str) -> None:
    defs = _defs(tmp_path, "    flavor: 「まずは、防壁を出す。話はそれからだ。」", f"    flavor: {HOSTILE[kind]}")
    with pytest.raises(DefinitionErrors) as caught:
        load_rules(defs)
    [error] = caught.value.errors
    assert error.file.endswith("actions.yaml") and error.line == 150 and error.path[-1] == "flavor"
    assert "expected visible text" in error.message


def test_check_prints_no_control_character_to_the_terminal(tmp_path: Path) -> None:
    defs = _defs(tmp_path, "    name: エンド", "    name: " + HOSTILE["osc52"])
    _defs(tmp_path, "    flavor: 「まずは、防壁を出す。話はそれからだ。」", "    flavor: " + HOSTILE["bidi"])
    result = _run("check", str(defs))
    assert result.returncode == 2, result.stderr
    assert "actions.yaml:6:" in result.stderr and "actions.yaml:150:" in result.stderr
    assert not any(printable(c) != c for c in result.stderr.replace("\n", "")), repr(result.stderr)


def test_printable_escapes_what_a_terminal_interprets() -> None:
    hostile = "name\x1b]52;c;AAAA\x07\x1b[2J\r\nOK \u202e\u200b\x85\x7f\x00\ttab"
    shown = printable(hostile)
    assert shown == ("name\\u001b]52;c;AAAA\\u0007\\u001b[2J\\u000d\\u000aOK \\u202e\\u200b\\u0085\\u007f\\u0000"
                     "\\u0009tab")
    assert printable("line\nnext\x1b", newlines=True) == "line\nnext\\u001b"
    assert printable("スラッシュ ♠A") == "スラッシュ ♠A"
    error = DefinitionError("a\x1b.yaml", 1, 2, ("x\x07",), "bad 'v\x1b[2J'")
    assert "\x1b" not in str(error) and "\x07" not in str(error)


def test_names_that_differ_only_by_normalisation_are_refused(tmp_path: Path) -> None:
    """``ガード`` written decomposed (カ + U+3099) would be a second action of the same look (item 14)."""
    import unicodedata
    decomposed = unicodedata.normalize("NFD", "ドロー")
    assert decomposed != "ドロー"
    defs = _defs(tmp_path, "    name: ドロー", f"    name: {decomposed}")
    with pytest.raises(DefinitionErrors) as caught:
        load_rules(defs)
    [error] = caught.value.errors
    assert error.line == 38 and "composed form (NFC)" in error.message and "ドロー" in error.message


@pytest.mark.parametrize("mark", ["\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad", "\u034f", "\u3164",
                                  "\ufe0f", "\U000e0100", "\u180b", "\U000e0041"])
def test_names_that_differ_only_by_a_zero_width_character_are_refused(tmp_path: Path, mark: str) -> None:
    """A second ``ドロー`` with an invisible character inside, written as it is (not as an escape): every
    default-ignorable character is refused, not only the format ones (U+200B…): the combining grapheme joiner,
    the Hangul filler and the variation selectors are letters or marks to Unicode's categories, shown as nothing."""
    defs = _defs(tmp_path, "    name: エンド", f"    name: ド{mark}ロー")
    result = _run("check", str(defs))
    assert result.returncode == 2, result.stderr
    assert f"actions.yaml:6:11: actions[0].name: the text holds U+{ord(mark):04X} (" in result.stderr
    assert "1 problem found" in result.stderr and mark not in result.stderr
    shown = printable(f"ド{mark}ロー")  # \u200b, \U000e0100: escapes Python reads back
    assert mark not in shown and ast.literal_eval(f'"{shown}"') == f"ド{mark}ロー"


@pytest.mark.parametrize("number", ["1" * 5000, "0x" + "f" * 200_000, "-" + "9" * 30, "9223372036854775808",
                                    ".inf", ".nan"])
def test_a_number_out_of_range_is_a_located_error(tmp_path: Path, number: str) -> None:
    defs = _defs(tmp_path, "  players: 2", f"  players: {number}", "ruleset.yaml")
    result = _run("check", str(defs))
    assert result.returncode == 2, result.stderr
    assert "ruleset.yaml:12:" in result.stderr and "internal error" not in result.stderr
    result = _run("export", str(defs))
    assert result.returncode == 2 and result.stdout == ""


@pytest.mark.parametrize(("old", "new", "says"), [
    ("  released: 2025-06", "  released: 2026-13-99", "ruleset.yaml:10:13: ruleset.released: '2026-13-99' is not a "
     "day of the calendar (there is no month 13); expected YYYY-MM or YYYY-MM-DD"),
    ("  released: 2025-06", "  released: 2025-02-29", "there is no day 29 in 2025-02"),
    ("  released: 2025-06", "  released: 2025-00", "there is no month 0"),
    ("card_numbers:\n", "official:\n  act: {ver: 第8.1版, lastupdate: 2026/13/99}\ncard_numbers:\n",
     "ruleset.yaml:18:33: official.act.lastupdate: '2026/13/99' is not a day of the calendar (there is no month "
     "13); expected YYYY/M/D"),
])
def test_a_date_that_is_no_day_of_the_calendar_is_a_located_error(tmp_path: Path, old: str, new: str,
                                                                  says: str) -> None:
    """The schema sees only a date's shape; ``released`` becomes the export's ``release_date`` and each official
    header's ``lastupdate`` is written back by ``export --format official`` (issue 25)."""
    defs = _defs(tmp_path, old, new, "ruleset.yaml")
    result = _run("check", str(defs))
    assert result.returncode == 2, result.stderr
    assert says in result.stderr and "1 problem found" in result.stderr
    result = _run("export", str(defs))
    assert result.returncode == 2 and result.stdout == ""


def test_a_scenario_or_record_seed_out_of_range_is_a_located_error(tmp_path: Path) -> None:
    scenario = tmp_path / "s.yaml"
    scenario.write_text((SCENARIOS / "actions" / "search-return.yaml").read_text(encoding="utf-8")
                        .replace("  seed: 7", "  seed: " + "7" * 5000, 1), encoding="utf-8")
    result = _run("sim", "run", str(scenario))
    assert result.returncode == 2, result.stderr
    assert "s.yaml:8:" in result.stderr and "internal error" not in result.stderr
    record = tmp_path / "r.json"
    record.write_text('{"ruleset": "v8.1", "format": "std", "seed": ' + "1" * 5000 + ', "decisions": []}',
                      encoding="utf-8")
    result = _run("sim", "replay", str(record))
    assert result.returncode == 2, result.stderr
    assert "r.json:1:" in result.stderr and "internal error" not in result.stderr


@pytest.mark.parametrize("kind", ["osc52", "zero-width"])
def test_every_reader_shares_the_rule(tmp_path: Path, kind: str) -> None:
    """Scenarios, records and the official files are read by the same function."""
    path = tmp_path / "x.yaml"
    path.write_text(f"title: {HOSTILE[kind]}\nlist:\n  - {{{HOSTILE[kind]}: 1}}\n", encoding="utf-8")
    src, problems = parse_yaml(path, "x.yaml")
    assert src is not None and [(p.line, p.path) for p in problems] == [(1, ("title",)), (3, ("list", 0))]


@pytest.mark.build
def test_the_book_pdfs_title_is_the_edition_as_written(tmp_path: Path) -> None:
    """Sphinx strips tags from the single page's title (``title|striptags``, the raw ``html_title``): an edition
    whose text looks like markup lost it in the book PDF's /Title (issue 25, item 14)."""
    import io

    from pypdf import PdfReader

    from blackpoker.core.paths import SOURCE
    from blackpoker.pipeline.rulebook import sphinx_job
    from blackpoker.render.book import split_single_page
    from blackpoker.render.pdfparts import layout

    title, edition = "BlackPoker <b>公式</b> &amp; ルール", "第<i>8.1</i>版 &lt;x&gt;"
    defs = _defs(tmp_path, "  title: BlackPoker 公式ルール", f"  title: '{title}'", "ruleset.yaml")
    _defs(tmp_path, "  edition: 第8.1版", f"  edition: '{edition}'", "ruleset.yaml")
    work = tmp_path / "work"
    sphinx_job("singlehtml", defs, SOURCE, work, None)
    single = work / "single" / "index.html"
    front = split_single_page(single.read_text(encoding="utf-8")).front_html()
    pdf = layout(front, single.parent.resolve().as_uri() + "/").write_pdf()
    metadata = PdfReader(io.BytesIO(pdf)).metadata
    assert metadata is not None and metadata.title == f"{title} {edition}"


@pytest.mark.parametrize("escape", [r"\u001b]52;c;ZWNobyBwd25lZA==\u0007\u001b[2J", r"\u200b", r"\u0085"])
def test_a_game_record_s_json_escape_is_held_to_the_same_rule(tmp_path: Path, escape: str) -> None:
    """JSON escapes a record writes (\\u001b …) are read as the characters they name and refused where read,
    like YAML's: located, exit 2, nothing raw printed to the terminal."""
    record = tmp_path / "r.json"
    record.write_text('{"ruleset": "v8.1",\n "format": "std' + escape + '", "seed": 1, "decisions": []}',
                      encoding="utf-8")
    result = _run("sim", "replay", str(record))
    assert result.returncode == 2, result.stderr
    assert "r.json:2:" in result.stderr and "internal error" not in result.stderr, result.stderr
    assert not any(printable(c) != c for c in result.stderr.replace("\n", "")), repr(result.stderr)
