"""Checks on the hand-written chapters (intro, common, core, history): structure, anchors and typography.

The prose is transcribed from the v8.1 rulebook; these tests pin its outline (the v8.1 table of contents),
the bracketed steps of the core flow that Fig. "コアフロー" and "誘発チェック" draw, and the placement of the
rulings, so an edit that drops a section, a step or a ruling fails here rather than in a reader's hands.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[1] / "source"
CHAPTERS = {"intro": "ch-intro", "common": "ch-common", "core": "ch-core", "history": "ch-history"}

# The v8.1 outline (inventory §1) of the four prose chapters, in order.
OUTLINE = {
    "intro": ["1-1", "1-2", "1-3", "1-4", "1-4-1", "1-5"],
    "common": ["2-1", "2-2", "2-3", "2-4", "2-5", "2-5-1", "2-6", "2-7", "2-8", "2-8-1", "2-8-2", "2-8-3",
               "2-8-4", "2-9", "2-9-1", "2-9-2", "2-9-3", "2-10", "2-10-1", "2-10-2", "2-10-3", "2-10-4",
               "2-10-5", "2-10-6", "2-11", "2-11-1", "2-11-2", "2-11-3", "2-11-4", "2-11-5"],
    "core": ["6-1", "6-1-1", "6-1-2", "6-1-3", "6-1-4", "6-1-5", "6-1-6", "6-1-7", "6-1-8", "6-1-9", "6-2",
             "6-2-1", "6-2-2", "6-2-3", "6-2-4", "6-3", "6-4", "6-4-1", "6-4-2", "6-5"],
    "history": ["8-1", "8-1-1", "8-1-2", "8-1-3", "8-1-4", "8-1-5", "8-1-6", "8-2", "8-2-1", "8-2-2", "8-2-3",
                "8-2-4", "8-2-5", "8-2-6", "8-2-7", "8-3"],
}


@pytest.fixture(scope="module")
def texts() -> dict[str, str]:
    return {name: (SOURCE / f"{name}.md").read_text(encoding="utf-8") for name in CHAPTERS}


def labels_before_headings(text: str) -> list[tuple[str, int]]:
    """(label, heading level) for every ``(label)=`` line directly followed by a Markdown heading."""
    found = re.findall(r"^\((?P<label>[a-z0-9-]+)\)=\n(?P<hashes>#+) ", text, flags=re.M)
    return [(label, len(hashes)) for label, hashes in found]


@pytest.mark.parametrize("name", list(CHAPTERS))
def test_outline_follows_v81(texts: dict[str, str], name: str) -> None:
    pairs = labels_before_headings(texts[name])
    assert pairs[0] == (CHAPTERS[name], 1)
    sections = [(label, level) for label, level in pairs[1:]]
    assert [label for label, _ in sections] == [f"sec-{n}" for n in OUTLINE[name]]
    for label, level in sections:
        depth = label.count("-")  # sec-2-10 -> 2 parts -> level 2
        assert level == depth, f"{label} is a level-{level} heading"


@pytest.mark.parametrize("name", list(CHAPTERS))
def test_every_heading_has_a_label(texts: dict[str, str], name: str) -> None:
    headings = re.findall(r"^#+ .*$", texts[name], flags=re.M)
    assert len(headings) == len(labels_before_headings(texts[name]))
    assert not [h for h in headings if re.match(r"#+ [0-9]", h)], "section numbers come from Sphinx"


def rubric_steps(text: str) -> list[str]:
    return re.findall(r"^```\{rubric\} \[([0-9-]+)\]", text, flags=re.M)


def test_core_flow_steps_in_order(texts: dict[str, str]) -> None:
    steps = rubric_steps(texts["core"])
    flow = [s for s in steps if "-" not in s]
    assert flow == [str(i) for i in range(1, 17)]
    check = [s for s in steps if s.count("-") == 1]
    assert check == [f"6-{i}" for i in range(1, 13)]
    assert [s for s in steps if s.startswith("6-5-")] == [f"6-5-{i}" for i in range(1, 7)]
    assert [s for s in steps if s.startswith("6-10-")] == [f"6-10-{i}" for i in range(1, 10)]


def test_each_step_has_its_label(texts: dict[str, str]) -> None:
    for step in rubric_steps(texts["core"]):
        assert f"(flow-{step})=\n```{{rubric}} [{step}]" in texts["core"]


def test_v81_resolution_step_15(texts: dict[str, str]) -> None:
    assert "```{rubric} [15] 最後のリクエストを解決" in texts["core"]
    assert "ステージから取出し" not in texts["core"]


def section_body(text: str, label: str) -> str:
    start = text.index(f"({label})=")
    nxt = re.search(r"^\(sec-[0-9-]+\)=$", text[start + 1:], flags=re.M)
    return text[start: start + 1 + nxt.start()] if nxt else text[start:]


@pytest.mark.parametrize(("name", "label", "arg"), [
    ("common", "sec-2-11-1", "section:2.11.1"),
    ("core", "sec-6-4-1", "section:6.4.1"),
    ("core", "sec-6-4-2", "section:6.4.2"),
])
def test_rulings_are_in_their_sections(texts: dict[str, str], name: str, label: str, arg: str) -> None:
    assert f"```{{bp-rulings}} {arg}\n```" in section_body(texts[name], label)


def test_ability_ruling_follows_the_example(texts: dict[str, str]) -> None:
    body = section_body(texts["core"], "sec-6-4-2")
    assert body.index("合計+5の修正") < body.index("{bp-rulings} section:6.4.2") < body.index("\n互いに矛盾する場合\n")


@pytest.mark.parametrize(("name", "directive"), [
    ("common", "{bp-table} card-numbers"), ("common", "{bp-table} zones"), ("common", "{bp-table} costs"),
    ("common", "{bp-table} disclosure-levels"), ("common", "{bp-table} disclosure"), ("common", "{bp-figure} card-layout"),
    ("common", "{bp-figure} charge-drive"), ("common", "{bp-figure} request-stack-1"),
    ("common", "{bp-figure} request-stack-2"), ("common", "{bp-figure} request-stack-3"),
    ("core", "{bp-figure} core-flow"), ("core", "{bp-figure} trigger-check"), ("history", "{bp-changes}"),
])
def test_generated_content_is_placed(texts: dict[str, str], name: str, directive: str) -> None:
    assert texts[name].count(f"```{directive}\n") == 1


def test_the_disclosure_levels_come_before_the_sentence_that_leads_to_the_table(texts: dict[str, str]) -> None:
    """The book's order in 2.11.1: the levels, then 「完全公開の情報であれば…」, then each place (issue 14)."""
    body = section_body(texts["common"], "sec-2-11-1")
    assert body.index("{bp-table} disclosure-levels") < body.index("完全公開の情報であれば") < body.index(
        "{bp-table} disclosure\n")


def test_the_book_leads_to_the_frame_actions_with_its_own_sentence() -> None:
    frame = (SOURCE / "frame.md").read_text(encoding="utf-8")
    body = section_body(frame, "sec-5-3-1")
    assert body.rstrip().endswith("各フレームで追加で使えるアクションについては次を参照してください。")
    assert "フレームで追加されるアクションです。" not in frame  # not the book's


def test_changes_close_chapter_8(texts: dict[str, str]) -> None:
    tail = section_body(texts["history"], "sec-8-3")
    assert "```{bp-changes}" in tail and tail.rstrip().endswith("```")


@pytest.mark.parametrize("name", list(CHAPTERS))
def test_no_source_artefacts(texts: dict[str, str], name: str) -> None:
    text = texts[name]
    assert not re.search(r"\b(Fig|Table)\. ?[0-9]", text), "figures and tables are referenced with {numref}"
    assert not re.search(r"[0-9] [\u3040-\u30ff\u4e00-\u9fff]", text), "PDF spaces between a digit and Japanese"
    for artefact in ("スポード", "関カウンター", "J,O,K", "▲", "♥", "♦", "節囲", "コンポーネン の", "コンポーネンの"):
        assert artefact not in text


def test_v81_additions_present(texts: dict[str, str]) -> None:
    common = texts["common"]
    for rubric in ("解決は墓地移動までを含む", "ステージ上で効果を発揮", "キーカードを墓地に移す"):
        assert f"```{{rubric}} {rubric}" in section_body(common, "sec-2-10-4")
    assert "K (KeyDrive)" in section_body(common, "sec-2-10-4")
    assert "パターン 1: フェイズ系" in section_body(common, "sec-2-10-6")
    assert "リクエストを処理すること" in section_body(texts["core"], "sec-6-1-4")
