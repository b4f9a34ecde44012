"""Several editions on one site: the current edition at the site's root (today's paths), every other one in a
folder of its own (``v8.2/``) with its action lists (HTML and PDF), its JSON and its verified scenarios, and a
版の違い page for each pair of consecutive editions (core/editiondiff.py), under ``changes/``.

The other editions are the definitions folders in ``editions/`` beside the current one's (the repository's
``editions/v8.2``), or those the build is given. An edition without prose of its own has no rulebook: its lists
link to the current edition's. Each edition's steps are keyed by its own definitions, so an edit in one edition
runs nothing of another; only what the switcher shows of the others (their versions and names) is shared.
"""

from __future__ import annotations

import hashlib
import re
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol, TypeVar

from blackpoker.core.editiondiff import EntryRef, RulesDiff, diff_rules
from blackpoker.core.errors import DefinitionError, DefinitionErrors
from blackpoker.core.kinds import KIND
from blackpoker.core.loader import display_path
from blackpoker.core.model import Rules
from blackpoker.core.paths import EDITIONS
from blackpoker.render.actionlist.switcher import ChangesLink, EditionLink, ListSite


class NamedStep(Protocol):
    """A build step as this module sees it (pipeline/build.py's Step)."""

    @property
    def name(self) -> str: ...

    @property
    def title(self) -> str: ...


S = TypeVar("S", bound=NamedStep)
OTHER_STEPS = ("export", "scenarios", "actionlists")  # what another edition publishes (no rulebook of its own)
SWITCHER_STEPS = ("actionlists",)  # the steps whose pages show the switcher


def other_editions(definitions: Path) -> list[Path]:
    """The definitions folders in ``editions/`` beside ``definitions`` (each with a ruleset.yaml)."""
    folder = definitions.resolve().parent / EDITIONS
    if not folder.is_dir() or folder == definitions.resolve():
        return []
    return sorted(p for p in folder.iterdir() if (p / "ruleset.yaml").is_file() and p.resolve() != definitions.resolve())


def version_order(version: str) -> tuple[int, ...]:
    """v8.2 → (8, 2): editions in the order they were published."""
    return tuple(int(n) for n in re.findall(r"[0-9]+", version))


@dataclass(frozen=True)
class Edition:
    definitions: Path
    rules: Rules

    @property
    def version(self) -> str:
        return self.rules.edition.version


@dataclass(frozen=True)
class Job:
    """One step of one edition."""

    step: NamedStep
    edition: Edition
    site: ListSite
    current: bool

    @property
    def definitions(self) -> Path:
        return self.edition.definitions

    @property
    def rules(self) -> Rules:
        return self.edition.rules

    @property
    def cache_name(self) -> str:
        return self.step.name if self.current else f"{self.step.name}@{self.edition.version}"

    @property
    def folder_name(self) -> str:
        return self.step.name if self.current else f"{self.step.name}-{self.edition.version}"

    @property
    def title(self) -> str:
        return self.step.title if self.current else f"{self.step.title} [{self.rules.edition.edition}]"

    def key(self, step_key: str) -> str:
        """The step's cache key, with what its pages show of the other editions."""
        if self.step.name not in SWITCHER_STEPS or not self.site.editions:
            return step_key
        return hashlib.sha256(f"{step_key}\0{self.site.describe()}".encode()).hexdigest()


@dataclass(frozen=True)
class Changes:
    old: Edition
    new: Edition
    diff: RulesDiff
    link: ChangesLink


@dataclass
class EditionPlan:
    current: Edition
    others: list[Edition]
    sites: dict[str, ListSite] = field(default_factory=dict)
    changes: list[Changes] = field(default_factory=list)

    def jobs(self, steps: Sequence[S]) -> Iterator[tuple[S, Job]]:
        """Every step of the current edition, then those of each other edition."""
        for step in steps:
            yield step, Job(step, self.current, self.sites[self.current.version], True)
        for edition in self.others:
            for step in steps:
                if step.name in OTHER_STEPS:
                    yield step, Job(step, edition, self.sites[edition.version], False)

    @property
    def warnings(self) -> list[str]:
        """Entries reworded between consecutive editions with no new 更新バージョン."""
        return [w for c in self.changes for w in c.diff.version_warnings()]

    def write_changes(self, site: Path) -> list[Path]:
        """The 版の違い pages, written into the site."""
        from blackpoker.infra.fsutil import write_atomic
        from blackpoker.render.actionlist.view import list_pages
        from blackpoker.render.diffpage import Link, diff_html
        written = []
        for c in self.changes:
            root = self.sites[c.new.version].root
            anchors = list_pages(c.new.rules)[-1].anchors

            def link(ref: EntryRef, root: str = root, anchors: frozenset[str] = anchors) -> str | None:
                anchor = KIND[ref.kind].anchor_of(ref.id)
                return f"../{root}actionlist/html/all.html#{anchor}" if anchor in anchors else None

            back = Link(f"../{root}actionlist/index.html", f"{c.new.rules.edition.edition}のアクションリスト")
            path = site / c.link.path
            write_atomic(path, diff_html(c.diff, link=link, back=back))
            written.append(path)
        return written


def plan_editions(current: Edition, others: Sequence[Edition]) -> EditionPlan:
    """Where each edition goes, what its switcher shows, and the changes between consecutive editions."""
    seen = {current.version: current.definitions}
    for edition in others:
        if edition.version in seen:
            raise DefinitionErrors([DefinitionError(display_path(edition.definitions, "ruleset.yaml"), 1, 1, (),
                                                    f"edition {edition.version} is also {seen[edition.version]}; "
                                                    "every published edition needs its own version")])
        seen[edition.version] = edition.definitions
    plan = EditionPlan(current, sorted(others, key=lambda e: version_order(e.version)))
    if not others:
        plan.sites[current.version] = ListSite(current.version)
        return plan
    ordered = sorted([current, *others], key=lambda e: version_order(e.version))
    roots = {e.version: "" if e is current else f"{e.version}/" for e in ordered}
    for old, new in zip(ordered, ordered[1:], strict=False):
        link = ChangesLink(f"版の違い {old.rules.edition.edition} → {new.rules.edition.edition}",
                           f"changes/{old.version}-{new.version}.html")
        plan.changes.append(Changes(old, new, diff_rules(old.rules, new.rules), link))
    links = tuple(EditionLink(e.version, e.rules.edition.edition, roots[e.version]) for e in ordered)
    for e in ordered:
        near = tuple(c.link for c in plan.changes if e in (c.old, c.new))
        plan.sites[e.version] = ListSite(e.version, roots[e.version], links, near, "", e is current)
    return plan
