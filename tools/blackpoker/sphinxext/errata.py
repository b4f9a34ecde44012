"""``{bp-errata}``: the 正誤表, every place where the rulebook's text differs from the printed v8.1 book on purpose.

The entries are ``source/errata.yaml`` (section, the book's words, how the rulebook shows them, why). The same file
is what the book test (tests/test_book_text.py) accepts as a known difference, so no deviation is silent: either
the rulebook has the book's sentence, or this table tells the reader where and why it does not.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docutils import nodes

from blackpoker.sphinxext import render as r
from blackpoker.sphinxext.ruleset import RulesDirective, read_yaml_list


@dataclass(frozen=True)
class Erratum:
    section: str
    book: tuple[str, ...]
    shown: str
    reason: str


class ErrataError(ValueError):
    """A malformed errata file; the message names the file and the item."""


def read_errata(path: Path) -> list[Erratum]:
    items = read_yaml_list(path, "errata", "the errata", ErrataError)
    out = []
    for i, item in enumerate(items):
        ok = (isinstance(item, dict) and all(isinstance(item.get(k), str) and item[k] for k in ("section", "shown", "reason"))
              and isinstance(item.get("book"), list) and all(isinstance(b, str) and b for b in item["book"]))
        if not ok:
            raise ErrataError(f"{path}: errata[{i}]: expected section, shown and reason (non-empty strings) and book "
                              "(a list of the book's words, may be empty)")
        out.append(Erratum(item["section"], tuple(item["book"]), item["shown"], item["reason"]))
    return out


class ErrataDirective(RulesDirective):
    """The table: 節 (linked), 書籍の記載, 本書での扱い, 理由."""

    def run(self) -> list[nodes.Node]:
        path = Path(self.env.srcdir) / self.config.blackpoker_errata
        self.env.note_dependency(str(path))
        try:
            errata = read_errata(path)
        except ErrataError as exc:
            raise self.error(str(exc)) from None
        rows: list[list[r.Cell]] = []
        for e in errata:
            section = nodes.paragraph()
            section += r.ref("sec-" + e.section.replace(".", "-"), e.section)
            book = "、".join(f"「{b}」" for b in e.book) or "(なし)"
            rows.append([section, book, e.shown, e.reason])
        return [r.table(["節", "書籍の記載", "本書での扱い", "理由"], rows, classes=["bp-errata"])]
