"""What each list shows: pages → sections → groups → entries, derived from the rules model only.

Templates stay dumb: every decision about which entry goes on which page, in which order and under which
heading is made here, in pure functions that tests can call without rendering anything.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import Literal

from blackpoker.core.kinds import KIND, official_anchors, rulebook_page
from blackpoker.core.model import Action, Character, Entry, Fog, Rules, Ruling, Trump

Kind = Literal["action", "character", "fog", "trump"]
ALL = "all"



@dataclass(frozen=True)
class EntryView:
    """One entry as a list shows it: the model object plus what the page needs to place and filter it."""

    kind: Kind
    entry: Entry
    changed: bool
    rulings: tuple[Ruling, ...]

    @property
    def id(self) -> str:
        return self.entry.id

    @property
    def anchor(self) -> str:
        return KIND[self.kind].anchor_of(self.entry.id)

    @property
    def official_anchors(self) -> tuple[str, ...]:
        """The official site's anchors of the entry, which the web page answers to as well (core/kinds.py)."""
        return official_anchors(self.entry)

    @property
    def name(self) -> str:
        return self.entry.name

    @property
    def rulebook_page(self) -> str:
        """The rulebook page with the entry's full text (``format``, ``frame``)."""
        return rulebook_page(self.entry)

    @property
    def category(self) -> str:
        return self.entry.category

    @property
    def formats(self) -> tuple[str, ...]:
        return getattr(self.entry, "formats", ())

    @property
    def frames(self) -> tuple[str, ...]:
        return getattr(self.entry, "frames", ())

    @property
    def is_frame_entry(self) -> bool:
        """Frame actions, frame fogs and trumps: shown only when one of their frames is chosen."""
        return bool(self.frames)


@dataclass(frozen=True)
class Group:
    anchor: str
    title: str
    entries: tuple[EntryView, ...]


@dataclass(frozen=True)
class Section:
    anchor: str
    title: str
    groups: tuple[Group, ...]

    @property
    def entries(self) -> tuple[EntryView, ...]:
        return tuple(e for g in self.groups for e in g.entries)


@dataclass(frozen=True)
class ListPage:
    """One action list: ``key`` is a format id, a frame id or ``all``; ``filename`` is relative to the html folder.
    ``scope``: ``format`` (one format's entries), ``frame`` (the entries one frame adds) or ``all``."""

    key: str
    title: str
    sections: tuple[Section, ...]
    scope: str = "format"

    @property
    def filename(self) -> str:
        return f"{self.key}.html"

    @property
    def pdf_stem(self) -> str:
        return f"blackpoker-{self.key}"

    @property
    def entries(self) -> tuple[EntryView, ...]:
        return tuple(e for s in self.sections for e in s.entries)

    @property
    def anchors(self) -> frozenset[str]:
        return frozenset(e.anchor for e in self.entries)

    @property
    def categories(self) -> tuple[str, ...]:
        """Distinct categories in page order (the category filter's options)."""
        return tuple(dict.fromkeys(e.category for e in self.entries))


def entry_view(rules: Rules, kind: Kind, entry: Entry) -> EntryView:
    return EntryView(kind, entry, rules.is_changed(entry), rules.rulings_for(KIND[kind].ruling_ref(entry.id)))


def _ordered_groups(keys: Iterable[str], order: Sequence[str]) -> list[str]:
    """Groups in the declared order; any undeclared group follows, in order of first appearance."""
    present = list(dict.fromkeys(keys))
    return [g for g in order if g in present] + [g for g in present if g not in order]


def _section(rules: Rules, anchor: str, title: str, kind: Kind, entries: Sequence[Entry],
             group_of: Callable[[Entry], str], order: Sequence[str] = ()) -> Section:
    views = [entry_view(rules, kind, e) for e in entries]
    titles = _ordered_groups((group_of(e) for e in entries), order)
    groups = tuple(
        Group(f"{anchor}-{i + 1}", title_, tuple(v for v in views if group_of(v.entry) == title_))
        for i, title_ in enumerate(titles))
    return Section(anchor, title, groups)


def _action_group(entry: Entry) -> str:
    assert isinstance(entry, (Action, Trump))
    return entry.group


def _category(entry: Entry) -> str:
    return entry.category


def _list_group(entry: Entry) -> str:
    """A character's or fog's list section: its group where the edition gives one (切札♠K 魔王), else its type."""
    return getattr(entry, "group", None) or entry.category


def format_sections(rules: Rules, actions: Sequence[Action], characters: Sequence[Character],
                    fogs: Sequence[Fog]) -> tuple[Section, ...]:
    return tuple(s for s in (
        _section(rules, "actions", "アクションリスト", "action", actions, _action_group, rules.action_groups),
        _section(rules, "characters", "キャラクターリスト", "character", characters, _list_group),
        _section(rules, "fogs", "フォグリスト", "fog", fogs, _list_group),
    ) if s.groups)


def frame_sections(rules: Rules) -> tuple[Section, ...]:
    return tuple(s for s in (
        _section(rules, "frame-actions", "フレームアクションリスト", "action", rules.frame_actions, _action_group,
                 rules.frame_action_groups),
        _section(rules, "frame-characters", "フレームキャラクターリスト", "character",
                 [c for c in rules.characters if c.frames], _list_group),
        _section(rules, "frame-fogs", "フレームフォグリスト", "fog", rules.frame_fogs, _list_group),
        _section(rules, "trumps", "切札リスト", "trump", rules.trumps, _action_group),
    ) if s.groups)


def format_page(rules: Rules, format_id: str) -> ListPage:
    """Exactly one format's actions, characters and fogs (no frame entries)."""
    return ListPage(format_id, rules.format(format_id).name, format_sections(
        rules, rules.actions_in_format(format_id), rules.characters_in_format(format_id),
        rules.fogs_in_format(format_id)))


def all_page(rules: Rules) -> ListPage:
    """Every entry of every format and frame, for the filterable list and the 'all' PDF."""
    sections = format_sections(rules, rules.format_actions, [c for c in rules.characters if c.formats],
                               rules.format_fogs)
    return ListPage(ALL, "全リスト", sections + frame_sections(rules), scope=ALL)


def frame_page(rules: Rules, frame_id: str) -> ListPage:
    """The entries one frame adds: its actions, characters, fogs and trumps (the official Extra-only list)."""
    frame = rules.frame(frame_id)
    sections = tuple(s for s in (
        _section(rules, "frame-actions", "フレームアクションリスト", "action",
                 [rules.action(a) for a in frame.actions], _action_group, rules.frame_action_groups),
        _section(rules, "frame-characters", "フレームキャラクターリスト", "character",
                 [rules.character(c) for c in frame.characters], _list_group),
        _section(rules, "frame-fogs", "フレームフォグリスト", "fog",
                 [f for f in rules.frame_fogs if frame_id in f.frames], _list_group),
        _section(rules, "trumps", "切札リスト", "trump", [rules.trump(t) for t in frame.trumps], _action_group),
    ) if s.groups)
    return ListPage(frame.id, frame.name, sections, scope="frame")


def list_pages(rules: Rules) -> tuple[ListPage, ...]:
    """The per-format pages in format order, a page for each frame that brings its own cards (切札: エクストラ,
    as the official lists have it), then the full list."""
    frames = tuple(frame_page(rules, f.id) for f in rules.frames if f.trumps)
    return tuple(format_page(rules, f.id) for f in rules.formats) + frames + (all_page(rules),)
