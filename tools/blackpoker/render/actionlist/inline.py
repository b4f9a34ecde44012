"""Inline markup for definition text: suits in their colours and <labels> styled, escaped first.

The text is split into tokens on the raw string and every piece is escaped before it is wrapped, so a
definition can never inject markup, whatever it contains.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping

from markupsafe import Markup, escape

from blackpoker.core.cards import RED_SUITS, SYMBOL_SUITS


def _suit_class(symbol: str) -> str:
    return "suit-red" if SYMBOL_SUITS[symbol] in RED_SUITS else "suit-black"


class InlineMarkup:
    """Turns a plain text into safe HTML; ``labels`` are the rules' label names (2.8.1)."""

    def __init__(self, labels: Iterable[str], help_refs: Mapping[str, str] | None = None) -> None:
        names = sorted(set(labels), key=len, reverse=True)
        label_pattern = "|".join(re.escape(n) for n in names) or r"(?!)"
        suits = "".join(re.escape(s) for s in SYMBOL_SUITS)
        self._help = dict(help_refs or {})  # 「title」 in a text → a link to the help panel with that id
        help_pattern = "|".join(re.escape(t) for t in sorted(self._help, key=len, reverse=True)) or r"(?!)"
        self._pattern = re.compile(rf"(?P<label><(?:{label_pattern})>)|(?P<suit>[{suits}])"
                                   rf"|「(?P<help>{help_pattern})」")

    def __call__(self, text: str | None) -> Markup:
        if text is None:
            return Markup("")
        out: list[str] = []
        last = 0
        for m in self._pattern.finditer(text):
            out.append(escape(text[last:m.start()]))
            token = escape(m.group())
            if m.group("label"):
                out.append(Markup('<span class="label">{}</span>').format(token))
            elif m.group("help"):
                out.append(Markup('<a class="help-ref" href="#{}">{}</a>').format(self._help[m.group("help")], token))
            else:
                out.append(Markup('<span class="suit {}">{}</span>').format(_suit_class(m.group()), token))
            last = m.end()
        out.append(escape(text[last:]))
        return Markup("").join(out)
