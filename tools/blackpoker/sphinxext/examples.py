"""``{bp-examples} 2.10.4``: the book's worked examples of a section, played by the simulator; and
``{bp-verification}``: the verification report (検証レポート) of every scenario, for maintainers.

Every scenario in the examples folder (the book's worked examples) whose ``section`` is the argument is run at
build time; its Japanese play-by-play is shown at that place, with one line saying it was verified, linking to
its entry in the report. The report shows every scenario the build verifies (the examples, the frame setups, the
per-action ones and a project's own, whatever their folder: :func:`report_folders`), named by its path in the
project's scenarios folder, with its section and every checked expectation. An example whose expectation no longer holds stops the
build with the scenario's file and the failing expectation, so a rules change cannot silently break an example.

Loading and playing scenarios is the costliest part of reading a page, and a page with examples is read
again whenever any definition shown on it changes. So the environment keeps, per scenario file, its section
and what it showed, keyed by the file's bytes and the ruleset without its prose: an edited flavour text
plays nothing again, and an edited scenario plays only itself.
"""

from __future__ import annotations

import hashlib
import html
import os
import re
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from docutils import nodes
from sphinx import addnodes
from sphinx.config import Config
from sphinx.errors import SphinxError

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.kinds import anchor
from blackpoker.core.model import Action, Character, Fog, Rules, Trump
from blackpoker.core.paths import scenarios_folder
from blackpoker.sphinx_private import kept
from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.ruleset import RulesDirective, without_prose_digest

if TYPE_CHECKING:  # the simulator itself is imported when an example is played
    from blackpoker.sim.scenario import Scenario


class ExampleFailed(SphinxError):
    category = "BlackPoker example failed"


@dataclass(frozen=True)
class PlayedExample:
    """What the page shows of one passing scenario."""

    path: str
    title: str
    section: str
    lines: tuple[str, ...]  # the play-by-play, for readers
    checks: tuple[str, ...]  # each checked expectation as the report shows it (PASS …)
    transcript: tuple[str, ...]  # the play-by-play with the checks where they were made, for the report
    before: str = ""  # the starting position, as a board (SVG)
    after: str = ""  # the position at the end
    unverified: str = ""  # why an edition that is not simulated could not play it (nothing else is shown then)

    @property
    def example_label(self) -> str:
        """The label of the example in the book's text."""
        return f"ex-{Path(self.path).stem.lower()}"

    def place(self, root: Path) -> str:
        """Where its file is, as the report names it: its path in the project's scenarios folder ``root``
        (``examples/e03-….yaml``, ``mine/deep/x.yaml``, ``x.yaml``); a file elsewhere (a folder given by
        configuration) by its folder's name and its own."""
        path = Path(self.path)
        try:
            return path.relative_to(root.resolve()).as_posix()
        except ValueError:
            return f"{path.parent.name}/{path.name}"

    def folder(self, root: Path) -> str:
        """Its folder in the project's scenarios folder (``examples``, ``mine/deep``; "" for the folder itself)."""
        return self.place(root).rpartition("/")[0]

    def report_label(self, root: Path) -> str:
        """The label of the scenario in the verification report: ``vr-`` and its place, ``/`` read as ``-``
        (``vr-examples-e03-…``, ``vr-mine-deep-x``, ``vr-x``)."""
        return "vr-" + self.place(root).removesuffix(".yaml").replace("/", "-").lower()


def load(path: Path, rules: Rules) -> Scenario:
    from blackpoker.sim.scenario import load_scenario
    try:
        return load_scenario(path, rules, display_name=str(path))
    except DefinitionErrors as exc:
        raise ExampleFailed("\n" + str(exc)) from None


def play(rules: Rules, scenario: Scenario) -> PlayedExample:
    """Run one example; raise ExampleFailed (with the failing expectations) if it no longer holds."""
    from blackpoker.sim.scenario import run_scenario
    try:
        result = run_scenario(rules, scenario)
    except DefinitionErrors as exc:  # a reference that does not resolve at its step, located
        raise ExampleFailed("\n" + str(exc)) from None
    if not result.passed:
        failed = [e for e in result.expectations if not e.passed]
        detail = "\n".join(f"  {e.line()}" for e in failed) or "  (no expectation was checked)"
        raise ExampleFailed(f"{scenario.path}: the example 「{scenario.title}」 no longer holds:\n{detail}")
    from blackpoker.render.board import ability_lines, board_svg
    from blackpoker.sim.scenario import build_start
    try:
        start = build_start(scenario, rules)
    except Exception:  # a scenario about a refused setup has no starting position to draw
        start = None
    # an example of 6.4.2 is about the abilities it starts with: the play-by-play opens with them
    abilities = ability_lines(start) if start is not None else []
    opening = ("はじめに有効な能力(古い順):", *("　" + line for line in abilities)) if abilities else ()
    transcript = opening + tuple(with_ruling_titles(rules, line) for line in result.transcript if not line.startswith("# "))
    checks = tuple(e.line() for e in result.expectations)
    lines = tuple(_narrated(line) for line in transcript if not _is_check(line))
    # the checks the play-by-play does not show where they were made (a refused decision's rule): after it
    inline = Counter(line.strip() for line in transcript if _is_check(line))
    rest = []
    for check in checks:
        if inline[check] > 0:
            inline[check] -= 1
        else:
            rest.append(check)
    if rest:
        transcript += ("その他の確認 (拒否された判断など):", *("　" + check for check in rest))
    # the report's check lines in words, not Python values
    words = {e.line(): e.readable_line() for e in result.expectations}
    transcript = tuple(line[:len(line) - len(line.lstrip())] + words.get(line.strip(), line.strip()) for line in transcript)
    checks = tuple(words.get(check, check) for check in checks)
    title = with_ruling_titles(rules, scenario.title)
    before = board_svg(start, f"例「{title}」のはじめの局面") if start is not None else ""
    after = (board_svg(result.state, f"例「{title}」の結果の局面", before=start)
             if result.state is not None and start is not None else "")
    return PlayedExample(str(Path(scenario.path).resolve()), title, str(scenario.section), lines, checks,
                         transcript, before, after)


def not_played(rules: Rules, path: Path) -> PlayedExample | None:
    """The scenario as the report shows one that an edition with ``simulated: false`` cannot verify; None when
    it can be played."""
    from blackpoker.sim.scenario import unverified
    found = unverified(rules, path)
    if found is None:
        return None
    return PlayedExample(str(path), found.title, found.section, (), (), (), unverified=found.reason)


RULING_ID = re.compile(r"裁定 ([a-z0-9]+(?:-[a-z0-9]+)*)")


def with_ruling_titles(rules: Rules, text: str) -> str:
    """「裁定 multiple-blockers」 (a scenario's or a rule message's way to name a ruling) as a reader reads it:
    「裁定「複数のブロッカーが負けた場合」」. An id the rules do not know stays as written."""
    def title(found: re.Match[str]) -> str:
        try:
            return f"裁定「{rules.ruling(found.group(1)).title}」"
        except KeyError:
            return found.group(0)
    return RULING_ID.sub(title, text)


REFUSED = re.compile(r"^(\S+): 不正な判断 — (.*)$")


def _narrated(line: str) -> str:
    """A play-by-play line as the book tells it: a refused decision (the example shows the rule refusing it) reads
    「× A はこの判断ができません(理由)」, not the report's 「A: 不正な判断 — 理由」."""
    found = REFUSED.match(line.strip())
    return f"× {found.group(1)} はこの判断ができません({found.group(2)})" if found else line


def _is_check(line: str) -> bool:
    return line.strip().startswith(("PASS ", "FAIL "))


class Examples:
    """The scenario files of the example folders, each loaded and played at most once per content.

    Kept in the environment between builds: ``sections`` (file → its bytes' digest and its section) and
    ``played`` (file → digest, ruleset digest, what it showed).
    """

    def __init__(self) -> None:
        self.sections: dict[str, tuple[str, str]] = {}
        self.played: dict[str, tuple[str, str, PlayedExample]] = {}
        self.loaded: dict[tuple[str, str, str], Scenario] = {}  # this build's loaded scenarios (not kept)

    def __getstate__(self) -> dict[str, Any]:
        return {**self.__dict__, "loaded": {}}

    def merge(self, other: Examples) -> None:
        """Take what another reading process loaded and played (entries are keyed by file and content)."""
        self.sections.update(other.sections)
        self.played.update(other.played)

    def scenario(self, path: Path, digest: str, rules: Rules, ruleset: str) -> Scenario:
        key = (str(path), digest, ruleset)
        if key not in self.loaded:
            self.loaded[key] = load(path, rules)
        return self.loaded[key]

    def every(self, folders: str, rules: Rules, ruleset: str) -> list[PlayedExample]:
        """Every scenario in ``folders`` (joined by os.pathsep), played, in folder then file order."""
        files = [p.resolve() for folder in folders.split(os.pathsep) for p in sorted(Path(folder).glob("*.yaml"))]
        shown = []
        for path in files:
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            shown.append(self._played(path, digest, rules, ruleset))
        return shown

    def _played(self, path: Path, digest: str, rules: Rules, ruleset: str) -> PlayedExample:
        name = str(path)
        kept = self.played.get(name)
        if kept is None or kept[:2] != (digest, ruleset):
            shown = not_played(rules, path) or play(rules, self.scenario(path, digest, rules, ruleset))
            kept = self.played[name] = (digest, ruleset, shown)
        return kept[2]

    def _section(self, path: Path, digest: str, rules: Rules, ruleset: str) -> str:
        missing = not_played(rules, path)
        return missing.section if missing else str(self.scenario(path, digest, rules, ruleset).section)

    def of_section(self, folders: str, section: str, rules: Rules, ruleset: str) -> list[PlayedExample]:
        """The examples of ``section`` in ``folders`` (joined by os.pathsep), in folder then file order."""
        files = [p.resolve() for folder in folders.split(os.pathsep) for p in sorted(Path(folder).glob("*.yaml"))]
        shown = []
        for path in files:
            name = str(path)
            digest = hashlib.sha256(path.read_bytes()).hexdigest()
            if self.sections.get(name, ("",))[0] != digest:
                self.sections[name] = (digest, self._section(path, digest, rules, ruleset))
            if self.sections[name][1] != section:
                continue
            shown.append(self._played(path, digest, rules, ruleset))
        return shown


VERIFIED = "✓ シミュレーターで検証済み"
UNVERIFIED = "シミュレーターで未検証"


def _boards(example: PlayedExample, root: Path) -> nodes.raw:
    """The starting position and the end, side by side where there is room (one under the other on a phone)."""
    cells = "".join(f'<figure class="bp-board-figure"><div class="bp-figure-scroll">{svg}</div>'
                    f"<figcaption>{html.escape(caption)}</figcaption></figure>"
                    for svg, caption in ((example.before, "はじめ"), (example.after, "結果")))
    play = ""
    if example.folder(root) == EXAMPLES:  # the play page opens at the example's start (pipeline/playpage.py writes it)
        href = f"play/index.html?example={quote(Path(example.path).stem)}"
        play = f'<p class="bp-play-from"><a href="{html.escape(href)}">この局面から遊ぶ</a></p>'
    return nodes.raw("", f'<div class="bp-boards">{cells}</div>{play}', format="html")


def _verified(example: PlayedExample, root: Path) -> list[nodes.Node]:
    """The mark after an example's title: on the site it links to the report; the printed book, which has no
    report, prints none."""
    mark, classes = (UNVERIFIED, ["bp-unverified"]) if example.unverified else (VERIFIED, ["bp-verified"])
    on_site = addnodes.only(expr="not singlehtml")
    on_site += nodes.Text(" ")
    on_site += nodes.inline("", "", r.ref(example.report_label(root), mark), classes=classes)
    return [on_site]


class ExamplesDirective(RulesDirective):
    """Render every example of one section; fail the build on any failing expectation."""

    required_arguments = 1

    def run(self) -> list[nodes.Node]:
        section = self.arguments[0]
        folders = self.config.blackpoker_examples
        self.note_definitions(prose=False)
        examples: Examples = kept(self.env, "bp_examples", Examples)
        found = examples.of_section(folders, section, self.rules, without_prose_digest(self.env))
        if not found:
            raise self.error(f"no example scenario in {folders} has section '{section}'")
        root = scenarios_root(self.config)
        out: list[nodes.Node] = []
        for example in found:
            self.env.note_dependency(example.path)
            box = nodes.container(classes=["bp-example"])
            title = nodes.rubric("", "", *r.suited(f"例: {example.title}"), *_verified(example, root))
            r.target_title(title, example.example_label, self.state.document)
            box += title
            box += _played(example, example.lines, ["bp-playbyplay"], root)
            out.append(box)
        return out


def _played(example: PlayedExample, lines: tuple[str, ...], classes: list[str], root: Path) -> list[nodes.Node]:
    """What an example shows below its title, in the book and in the report alike: why it could not be verified,
    or its boards and its play-by-play (``lines``)."""
    if example.unverified:
        return [_not_verified(example)]
    text = "\n".join(lines)
    return [*([_boards(example, root)] if example.before else []), nodes.literal_block(text, text, classes=classes)]


def section_label(section: str) -> str:
    """The label of a numbered section (source/*.md: ``(sec-2-10-4)=``)."""
    return "sec-" + section.replace(".", "-")


def _chapter(example: PlayedExample) -> int:
    head = example.section.split(".")[0]
    return int(head) if head.isdigit() else 0


def report_labels(every: list[PlayedExample], root: Path) -> dict[str, str]:
    """Each scenario's label in the report, by its file: its place's (:meth:`PlayedExample.report_label`), and for
    a place that reads as an earlier one's (``deep-ours.yaml`` beside ``deep/ours.yaml``) the same with ``-2``,
    ``-3``…: every scenario listed has a label of its own. (The book's examples come first, so the labels their
    marks link to are never changed.)"""
    labels: dict[str, str] = {}
    used: set[str] = set()
    for example in every:
        label = base = example.report_label(root)
        count = 1
        while label in used:
            count += 1
            label = f"{base}-{count}"
        used.add(label)
        labels[example.path] = label
    return labels


def _report_index(every: list[PlayedExample], labels: dict[str, str]) -> list[nodes.Node]:
    """The report's index: by status (what could not be verified first), then by chapter, each scenario a link."""
    out: list[nodes.Node] = [nodes.rubric("", "この報告の目次(状態別・章別)", classes=["bp-report-index-title"])]
    unverified = [e for e in every if e.unverified]
    status = nodes.paragraph(classes=["bp-report-status"])
    status += nodes.Text(f"状態: 検証済み {len(every) - len(unverified)} 件 ・ 未検証 {len(unverified)} 件")
    out.append(status)
    if unverified:
        listing = nodes.bullet_list(classes=["bp-report-unverified-list"])
        for e in unverified:
            listing += nodes.list_item("", nodes.paragraph("", "", r.ref(labels[e.path], f"未検証: {e.title}")))
        out.append(listing)
    chapters = nodes.bullet_list(classes=["bp-report-index"])
    for chapter in sorted({_chapter(e) for e in every}):
        mine = sorted((e for e in every if _chapter(e) == chapter),
                      key=lambda e: [int(x) if x.isdigit() else 0 for x in e.section.split(".")])
        item = nodes.list_item()
        head = nodes.paragraph("", f"第{chapter}章({len(mine)} 件)" if chapter else f"その他({len(mine)} 件)")
        item += head
        inner = nodes.bullet_list()
        for e in mine:
            mark = UNVERIFIED if e.unverified else "✓"
            inner += nodes.list_item("", nodes.paragraph("", "", nodes.Text(f"{e.section} "),
                                                         r.ref(labels[e.path], e.title), nodes.Text(f" {mark}")))
        item += inner
        chapters += item
    out.append(chapters)
    return out


def _not_verified(example: PlayedExample) -> nodes.paragraph:
    text = f"この定義ではシミュレーターで再生できないため、検証していません。理由: {example.unverified}"
    return nodes.paragraph(text, text, classes=["bp-report-unverified"])


EXAMPLES = "examples"  # the book's worked examples, in the project's scenarios folder
FOLDERS = {EXAMPLES: "ルールブックの例", "frames": "フレームのセットアップとフレームアクション", "actions": "アクション"}


def scenarios_root(config: Config) -> Path:
    """The project's scenarios folder for this build's definitions (core/paths.py), which scenarios are named in."""
    return scenarios_folder(Path(config.blackpoker_definitions))


def report_folders(root: Path) -> list[Path]:
    """Every folder the report shows, each for the scenarios directly in it: the examples, the frames and the
    actions first (as they are named, there or not), then every other folder under ``root`` that holds a scenario,
    at any depth, by its path, and ``root`` itself last. Together they hold every scenario the build verifies
    (every ``*.yaml`` under ``root``), each once."""
    first = [root / name for name in FOLDERS]
    others = sorted({p.parent for p in root.rglob("*.yaml")} - {root, *first},
                    key=lambda folder: folder.relative_to(root).parts)
    return [*first, *others, root]


class VerificationDirective(RulesDirective):
    """``{bp-verification}``: every scenario of ``blackpoker_report``'s folders, with every checked expectation."""

    def run(self) -> list[nodes.Node]:
        folders = self.config.blackpoker_report
        self.note_definitions(prose=False)
        examples: Examples = kept(self.env, "bp_examples", Examples)
        every = examples.every(folders, self.rules, without_prose_digest(self.env))
        root = scenarios_root(self.config)
        played = [e for e in every if not e.unverified]
        out: list[nodes.Node] = []
        summary = nodes.paragraph("", f"{len(played)} のシナリオ、{sum(len(e.checks) for e in played)} の確認項目が"
                                      "すべて成功しています (ビルドのたびにシミュレーターで実行)。")
        out.append(summary)
        if not self.rules.edition.simulated:
            out.extend(_not_simulated(self.rules, len(every) - len(played)))
        labels = report_labels(every, root)
        out.extend(_report_index(every, labels))
        folder = None
        for example in every:
            self.env.note_dependency(example.path)
            if example.folder(root) != folder:
                folder = example.folder(root)
                heading = FOLDERS.get(folder, folder or root.name)  # the scenarios folder itself by its name
                out.append(nodes.rubric("", heading, classes=["bp-report-folder"]))
            box = nodes.container(classes=["bp-report"])
            title = nodes.rubric("", "", *r.suited(example.title))
            r.target_title(title, labels[example.path], self.state.document)
            box += title
            where = nodes.paragraph(classes=["bp-report-where"])
            checked = UNVERIFIED if example.unverified else f"{len(example.checks)} 項目を確認"
            where += nodes.Text("節 ")
            where += r.ref(section_label(example.section), example.section)
            where += nodes.Text(f" ・ {checked} ・ scenarios/{example.place(root)}")
            if folder == EXAMPLES:
                where += nodes.Text(" ・ ")
                where += r.ref(example.example_label, "本文の例へ")
            box += where
            box += _played(example, example.transcript, ["bp-playbyplay", "bp-report-log"], root)
            out.append(box)
        return out + self.design_notes()

    def design_notes(self) -> list[nodes.Node]:
        """補足: the designers' notes of the entries (the official devNote), for the maintainers who check them."""
        every: list[Action | Character | Fog | Trump] = [*self.rules.actions, *self.rules.characters,
                                                         *self.rules.fogs, *self.rules.trumps]
        entries = [e for e in every if e.design_note]
        if not entries:
            return []
        self.note_definitions()  # the notes are prose: this page reads them (the scenarios above stay cached)
        out: list[nodes.Node] = [nodes.rubric("", "補足 (設計メモ)", classes=["bp-report-folder"])]
        table = nodes.definition_list(classes=["bp-design-notes"])
        for e in entries:
            term, definition = nodes.term(), nodes.definition()
            term += r.ref(anchor(e), e.name)
            definition += r.para(e.design_note or "")
            table += nodes.definition_list_item("", term, definition)
        out.append(table)
        return out


def _not_simulated(rules: Rules, unverified: int) -> list[nodes.Node]:
    """For an edition with ``simulated: false``: what the simulator does not cover, entry by entry, and how many
    scenarios could not be verified (each is marked below)."""
    from blackpoker.sim.gaps import coverage_gaps
    gaps = coverage_gaps(rules)
    shown = [g.text for g in gaps if g.text]
    out: list[nodes.Node] = [nodes.rubric("", "シミュレーターが扱わない定義", classes=["bp-report-folder"])]
    intro = ("この版の定義は、シミュレーターがすべてを扱う版ではないと宣言しています。次の定義はルールブックと"
             "アクションリストに載りますが、シミュレーターでは検証していません。")
    out.append(nodes.paragraph(intro, intro))
    items = nodes.bullet_list(classes=["bp-report-gaps"])
    for text in shown:
        items += nodes.list_item("", nodes.paragraph(text, text))
    if shown:
        out.append(items)
    code_only = len(gaps) - len(shown)
    notes = [f"シミュレーターにだけあり、この定義にはないアクションやフレームが {code_only} 件あります。"] if code_only else []
    if unverified:
        notes.append(f"この定義では再生できないシナリオが {unverified} 件あります (次の一覧に「未検証」と理由を示します)。")
    if not shown and not code_only:
        notes.append("シミュレーターが扱わない定義はありません。")
    out.extend(nodes.paragraph(n, n) for n in notes)
    return out
