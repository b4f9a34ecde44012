"""Where an edition's action lists stand on a site that publishes several editions: the switcher between
editions, the way to the rulebook and to the 版の違い pages, all as paths relative to the list pages.

The current edition is at the site's root (today's paths); every other under its own folder (``v8.2/``). An
edition without a rulebook of its own links to the current edition's."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class EditionLink:
    version: str  # v8.2
    label: str  # 第8.2版
    root: str  # its folder in the site: "" (the current edition) or "v8.2/"


@dataclass(frozen=True)
class ChangesLink:
    label: str  # 版の違い 第8.1版 → 第8.2版
    path: str  # from the site's root: changes/v8.1-v8.2.html


@dataclass(frozen=True)
class ListSite:
    """This edition's place among the site's editions; ``ListSite()`` is a site of one edition."""

    version: str = ""
    root: str = ""  # this edition's folder in the site
    editions: tuple[EditionLink, ...] = ()  # every edition, in order; empty for a site of one edition
    changes: tuple[ChangesLink, ...] = ()  # the 版の違い pages between this edition and its neighbours
    book: str = ""  # the folder of the rulebook these lists link to (this edition's, or the current one's)
    own_book: bool = True  # False: the rulebook is another edition's (entries do not link to their text there)

    def up(self, depth: int) -> str:
        """From a page ``depth`` folders below this edition's root up to the site's root."""
        return "../" * (depth + self.root.count("/"))

    def book_root(self, depth: int) -> str:
        return self.up(depth) + self.book

    def switch(self, depth: int, page: str) -> list[tuple[EditionLink, str, bool]]:
        """Each edition with the address of the same page in it (``page`` from the edition's root) and whether
        it is this one."""
        return [(e, self.up(depth) + e.root + page, e.version == self.version) for e in self.editions]

    def describe(self) -> str:
        """Everything the pages show of the other editions (a cache key: their content is not part of it)."""
        return repr(self)


ONE_EDITION = ListSite()  # a site of one edition: no switcher, the rulebook its own
