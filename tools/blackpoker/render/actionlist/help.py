"""The action lists' help panels (the official lists' 「防壁の置き方」 and 「誘発する場合」): the rulebook's own
sections, read from its Markdown source, so the text lives in one place and reads the same in both.

Only the little Markdown those sections use is understood (paragraphs, bullet lists, a note box, a figure,
``{ref}`` and a bracketed ``{numref}``); anything else is a :class:`HelpSourceError`, not a silent loss.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

from markupsafe import Markup, escape

from blackpoker.core.model import Rules
from blackpoker.core.paths import SOURCE
from blackpoker.render.figure_svg import bulwark_placement_svg


@dataclass(frozen=True)
class PanelSource:
    anchor: str  # the panel's id on the list page
    title: str  # as the effects refer to it: 「防壁の置き方」参照
    page: str  # the rulebook page (source file stem)
    label: str  # the section's label in that file


PANELS = (
    PanelSource("help-bulwark-placement", "防壁の置き方", "common", "sec-2-11-3"),
    PanelSource("help-trigger", "誘発する場合", "core", "sec-6-4-1"),
)

# what the panels read, as project paths (the build rebuilds the lists when one changes)
HELP_SOURCES = tuple(sorted({f"source/{p.page}.md" for p in PANELS}))

# the figures a panel may show, by their name in the source's ``{bp-figure}`` blocks
_FIGURES = {"bulwark-placement": bulwark_placement_svg}


class HelpSourceError(Exception):
    """The rulebook section a panel shows is missing or uses Markdown the panel cannot show."""


@dataclass(frozen=True)
class HelpPanel:
    anchor: str
    title: str
    rulebook_href: str  # from the list pages (actionlist/html/)
    body: Markup


_FENCE = re.compile(r"^```\{(?P<name>[\w-]+)\}\s*(?P<arg>.*)$")
_REF = re.compile(r"\{ref\}`(?P<text>[^`<]+?)\s*<[^`>]+>`")
_NUMREF_NOTE = re.compile(r"\s*[(（]\{numref\}`[^`]+`[)）]")


def _inline(text: str, where: str) -> Markup:
    text = _NUMREF_NOTE.sub("", text)  # 「…配置してください。(図2.7)」: the figure is beside the text
    text = _REF.sub(lambda m: m.group("text"), text)
    if "{" in text or "`" in text:
        raise HelpSourceError(f"{where}: a role the help panel cannot show: {text}")
    return escape(text)


def _section_lines(path: Path, label: str) -> tuple[str, list[str]]:
    """The section's heading and its lines, up to the next label, heading or rubric."""
    lines = path.read_text(encoding="utf-8").splitlines()
    try:
        start = lines.index(f"({label})=")
    except ValueError:
        raise HelpSourceError(f"{path.name}: no section labelled ({label})=") from None
    heading = lines[start + 1]
    if not heading.startswith("#"):
        raise HelpSourceError(f"{path.name}:{start + 2}: the label ({label})= is not followed by a heading")
    body = []
    for line in lines[start + 2:]:
        if re.match(r"^(\(\S+\)=|#|```\{rubric\})", line):
            break
        body.append(line)
    return heading.lstrip("#").strip(), body


def _render(rules: Rules, path: Path, lines: list[str], title: str, page_href: str) -> Markup:
    out: list[Markup] = []
    items: list[Markup] = []
    i = 0

    def flush_items() -> None:
        if items:
            out.append(Markup("<ul>{}</ul>").format(Markup("").join(Markup("<li>{}</li>").format(x) for x in items)))
            items.clear()

    while i < len(lines):
        line, where = lines[i], f"{path.name} ({title})"
        fence = _FENCE.match(line)
        if line.startswith("- "):
            items.append(_inline(line[2:], where))
        elif fence and fence.group("name") == "bp-figure":
            flush_items()
            name = fence.group("arg").strip()
            caption = next((x.split(":", 2)[2].strip() for x in lines[i + 1:i + 3] if x.startswith(":caption:")), title)
            if name not in _FIGURES:  # a flow chart: a link to it in the rulebook, where it can be enlarged
                out.append(Markup('<p class="help-figure-link"><a href="{}#fig-{}">図「{}」をルールブックで見る</a></p>')
                           .format(page_href, name, caption))
            else:
                out.append(Markup('<figure class="help-figure"><div class="help-figure-scroll">{}</div>'
                                  "<figcaption>{}</figcaption></figure>").format(
                                      Markup(_FIGURES[name](rules, caption)), caption))
            while lines[i] != "```":
                i += 1
        elif line.startswith(":::{admonition}"):
            flush_items()
            note_title = line.removeprefix(":::{admonition}").strip()
            i += 1
            note: list[str] = []
            while lines[i] != ":::":
                if lines[i].strip() and not lines[i].startswith(":class:"):
                    note.append(lines[i])
                i += 1
            out.append(Markup('<aside class="help-note"><b>{}</b> {}</aside>').format(
                note_title, _inline("".join(note), where)))
        elif fence or line.startswith(":::"):
            raise HelpSourceError(f"{where}: a block the help panel cannot show: {line}")
        elif line.strip():
            flush_items()
            out.append(Markup("<p>{}</p>").format(_inline(line, where)))
        else:
            flush_items()
        i += 1
    flush_items()
    return Markup("").join(out)


def help_panels(rules: Rules, source: Path = SOURCE, *, book: str = "../../") -> tuple[HelpPanel, ...]:
    """The panels, each with its section's text and figure and a link to the section in the rulebook (``book``:
    the rulebook's folder from the list pages)."""
    panels = []
    for p in PANELS:
        path = source / f"{p.page}.md"
        heading, lines = _section_lines(path, p.label)
        page_href = f"{book}{p.page}.html"
        panels.append(HelpPanel(p.anchor, p.title, f"{page_href}#{p.label}",
                                _render(rules, path, lines, heading, page_href)))
    return tuple(panels)
