"""The font stacks of every output, in one place: the web pages, the PDFs, the figures and the balance report.

Japanese fonts lead (BIZ UD, installed by ``scripts/setup-system.sh``), then the Japanese fonts a reader's own
system may have, then the generic family. Stylesheets never name a font: they use the custom properties of
:func:`stylesheet` (``var(--bp-font-sans)``), which each renderer puts in the page (a ``<style>`` in the head,
or ``_static/bp-fonts.css`` in the rulebook), so the browsers and WeasyPrint read the same stacks.
"""

from __future__ import annotations

# Proportional kana: the running text.
SANS = ("BIZ UDPGothic", "BIZ UDGothic", "Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", "Meiryo")
# Even-width kana with a real bold: headings, bold text, shorthands, tables of figures.
EVEN = ("BIZ UDGothic", "BIZ UDPGothic", "Noto Sans CJK JP", "Hiragino Sans", "Yu Gothic", "Meiryo")
GENERIC = "sans-serif"
# matplotlib takes the first installed family of a list that has no generic family; DejaVu Sans ships with it.
PLOTS = ("BIZ UDGothic", "BIZ UDPGothic", "IPAexGothic", "Noto Sans CJK JP", "DejaVu Sans")

STYLESHEET_NAME = "bp-fonts.css"  # the rulebook's copy of :func:`stylesheet`, in its ``_static`` folder


def css_family(families: tuple[str, ...], quote: str = '"') -> str:
    """A CSS ``font-family`` value: the families quoted, then the generic family (``'`` for an SVG attribute)."""
    return ", ".join([*(f"{quote}{name}{quote}" for name in families), GENERIC])


def stylesheet() -> str:
    """The custom properties every stylesheet takes its fonts from, on ``:root`` (WeasyPrint's page margin boxes
    inherit them too)."""
    return f":root {{ --bp-font-sans: {css_family(SANS)}; --bp-font-even: {css_family(EVEN)}; }}\n"
