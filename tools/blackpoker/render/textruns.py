"""Long texts handed to WeasyPrint in runs of bounded length, so laying out a text takes time linear in its length.

WeasyPrint (70) encodes the whole text of a text box again for every line it sets from it
(``box.text.encode()`` in ``skip_first_whitespace``, ``split_text_box`` and ``split_inline_level``) and decodes
what remains of it: a paragraph of n characters costs n for each of its lines, n² in all. One flavour text laid
out alone took 0.46 s at 100 KB, 3.25 s at 300 KB and 31.9 s at 1 MB, whether it has break opportunities or not.

So no text node WeasyPrint reads is longer than :data:`RUN` characters: a longer one is cut into sibling inline
elements (``<bp-run>``, which no stylesheet names), each line then costs at most a run (1 MB: 4.0 s instead of
31.9 s). The lines are the same: WeasyPrint breaks a line across inline boxes as within one, and the cuts are
placed where no shaping joins the characters on either side (see :func:`cuts`); a word may move by a few
hundredths of a point (a space beside a cut is not kerned with its neighbour). One difference remains: a line
that holds a cut and a character drawn from a fallback font (one the text's fonts lack) may be a fraction of a
point taller, since each inline box gets its own half-leading. Only a text longer than a run is touched, so
every ordinary page is laid out from the very HTML it was before.
"""

from __future__ import annotations

import html as html_lib
import re
import unicodedata

RUN = 10_000  # characters of a text node, at most (a line holds about 40; a 30 KB text is never cut)
ELEMENT = "bp-run"
# a document's pieces: comments, elements whose content is not text (kept whole), tags, text
_PIECES = re.compile(r"<!--.*?-->|<(script|style|title|textarea)\b[^>]*>.*?</\1\s*>|<[^>]*>|[^<]+", re.S | re.I)
_UNIT = re.compile(r"&#?\w+;|.", re.S)  # one character as a reader sees it: a character reference or a character
# Characters a line may not start with under line-break: strict (small kana, prolonged sound and iteration
# marks): a cut before one is no break opportunity, so none is made there.
_NO_START = frozenset("ぁぃぅぇぉっゃゅょゎゕゖァィゥェォッャュョヮヵヶㇰㇱㇲㇳㇴㇵㇶㇷㇸㇹㇺㇻㇼㇽㇾㇿーゝゞヽヾ々〻")
_JOINING = frozenset({"Cf", "Cs", "Co", "Cc", "Zl", "Zp"})  # joiners and what is no text: never beside a cut
_ATTACHED = _JOINING | {"Mn", "Mc", "Me"}  # combining marks and selectors go with the character before them
_VOICED = frozenset("\uff9e\uff9f")  # half-width (sound) voiced marks: letters, but drawn with the kana before them


def bounded_text(html: str, run: int = RUN) -> str:
    """``html`` with every text node longer than ``run`` characters cut into runs of at most ``run``."""
    if re.search(f"[^<]{{{run + 1}}}", html) is None:  # the usual page: nothing to cut, not even parsed
        return html
    out: list[str] = []
    for piece in _PIECES.finditer(html):
        text = piece.group(0)
        if piece.group(1) is None and not text.startswith("<") and len(text) > run:
            out.append("".join(f"<{ELEMENT}>{part}</{ELEMENT}>" for part in split_text(text, run)))
        else:
            out.append(text)
    return "".join(out)


def split_text(text: str, run: int = RUN) -> list[str]:
    """``text`` (HTML text, character references kept whole) in parts of at most ``run`` characters where a cut
    can be made (see :func:`cuts`); a stretch with no such place stays whole."""
    units = _UNIT.findall(text)
    chars = [html_lib.unescape(u) if len(u) > 1 else u for u in units]
    parts: list[str] = []
    start = 0
    for end in cuts(chars, run):
        parts.append("".join(units[start:end]))
        start = end
    parts.append("".join(units[start:]))
    return parts


def cuts(chars: list[str], run: int) -> list[int]:
    """Where to cut a text of these characters into runs of at most ``run`` (where none can, as close as can be).

    The best place in the last half of a run: after a space (before a word); else between two ideographic
    characters where a line may break (no kerning or ligature joins them); else between any two characters that
    are not shaped together (no combining mark, joiner or selector after the cut, no space beside it).
    """
    found: list[int] = []
    start = 0
    while len(chars) - start > run:
        best: tuple[int, int] | None = None  # (rank, index)
        for i in range(start + run, start + run // 2, -1):
            rank = _rank(chars[i - 1], chars[i])
            if rank is not None and (best is None or rank < best[0]):
                best = (rank, i)
                if rank == 0:
                    break
        at = best[1] if best is not None else _first(chars, range(start + run // 2, start, -1)) or _first(
            chars, range(start + run + 1, len(chars)))
        if at is None:
            break
        found.append(at)
        start = at
    return found


def _first(chars: list[str], places: range) -> int | None:
    return next((i for i in places if _rank(chars[i - 1], chars[i]) is not None), None)


def _rank(before: str, after: str) -> int | None:
    """How good a cut between two characters is (0 best), or None where none may be made."""
    if unicodedata.category(after) in _ATTACHED or after in _VOICED or unicodedata.category(before) in _JOINING:
        return None
    if after == " ":
        return 0 if not before.isspace() else None
    if after.isspace() or before.isspace():
        return None
    if (_wide(before) and _wide(after) and unicodedata.category(after) == "Lo" and after not in _NO_START
            and unicodedata.category(before) not in ("Ps", "Pi")):
        return 1
    return 2


def _wide(c: str) -> bool:
    return unicodedata.east_asian_width(c) in ("W", "F")
