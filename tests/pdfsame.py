"""Helpers for tests: do two PDFs look the same and carry the same outline, destinations and links? Does
any text sit on other text?"""

from __future__ import annotations

import html
import re
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image, ImageChops
from pypdf import PdfReader


def _differ(x: Path, y: Path, tolerance: int, stray: int) -> bool:
    diff = ImageChops.difference(Image.open(x).convert("L"), Image.open(y).convert("L"))
    over = sum(diff.histogram()[tolerance + 1:])
    low, high = diff.getextrema()  # one band ("L"): (min, max)
    assert not isinstance(high, tuple)
    return over > stray or high > 2 * tolerance


def pages_that_differ(a: Path, b: Path, dpi: int = 40, tolerance: int = 48, stray: int = 0) -> list[int]:
    """1-based numbers of the pages whose rasters differ (and every page beyond the shorter PDF).

    A pixel may differ by ``tolerance`` (of 255) in grey: the same line drawn at a position equal but for
    the last float digit can land on the other side of a pixel edge and be antialiased a little otherwise.
    ``stray`` pixels may differ by up to twice that: a glyph drawn from another font subset can be
    antialiased a little otherwise too. A moved line, a missing word or another page break changes hundreds.
    """
    with tempfile.TemporaryDirectory() as tmp:
        for name, pdf in (("a", a), ("b", b)):
            subprocess.run(["pdftoppm", "-r", str(dpi), "-png", str(pdf), f"{tmp}/{name}"], check=True)
        left = sorted(Path(tmp).glob("a-*.png"))
        right = sorted(Path(tmp).glob("b-*.png"))
        differ = [n for n, (x, y) in enumerate(zip(left, right, strict=False), start=1) if _differ(x, y, tolerance, stray)]
        return differ + list(range(min(len(left), len(right)) + 1, max(len(left), len(right)) + 1))


def structure(pdf: Path) -> dict[str, object]:
    """Outline (depth, title, page, position), named destinations and links, rounded to 0.01 pt."""
    reader = PdfReader(pdf)
    outline: list[tuple[int, str, int | None, float, float]] = []

    def walk(items: list[Any], depth: int) -> None:  # pypdf's outline: destinations and nested lists
        for item in items:
            if isinstance(item, list):
                walk(item, depth + 1)
            else:
                outline.append((depth, item.title, reader.get_destination_page_number(item),
                                round(float(item.left or 0), 2), round(float(item.top or 0), 2)))
    walk(reader.outline, 0)
    dests = {name: (reader.get_destination_page_number(d), round(float(d.left or 0), 2), round(float(d.top or 0), 2))
             for name, d in reader.named_destinations.items()}
    links = []
    for number, page in enumerate(reader.pages):
        for annot in page.get("/Annots") or []:
            annot = annot.get_object()
            action = annot.get("/A")
            target = annot.get("/Dest") or (action.get_object().get("/URI") if action is not None else None)
            links.append((number, tuple(round(float(v), 2) for v in annot["/Rect"]), str(target)))
    return {"outline": outline, "dests": dests, "links": sorted(links), "info": dict(reader.metadata or {})}


_WORD = re.compile(r'<word xMin="([\d.]+)" yMin="([\d.]+)" xMax="([\d.]+)" yMax="([\d.]+)">(.*?)</word>')


def words_drawn_over_words(pdf: Path) -> list[tuple[int, str, str]]:
    """(page, word, word) for every two words whose boxes overlap by more than a third of the smaller.

    Set text never does that; a float left uncleared or a box drawn in the wrong place does (the words of
    one index group printed over the next, say). Hidden text counts too, since a reader's search finds it.
    """
    out = subprocess.run(["pdftotext", "-bbox", str(pdf), "-"], check=True, capture_output=True, text=True).stdout
    found = []
    for number, page in enumerate(out.split("<page ")[1:], start=1):
        words = [(float(m[1]), float(m[2]), float(m[3]), float(m[4]), html.unescape(m[5])) for m in _WORD.finditer(page)]
        found += [(number, words[i][4], words[j][4]) for i, j in overlapping(words)]
    return found


Box = tuple[float, float, float, float, str]  # x0, y0, x1, y1, the word


def overlapping(words: list[Box]) -> list[tuple[int, int]]:
    """Every pair (i, j), i < j, of words whose boxes overlap by more than 1 pt each way and by more than a third
    of the smaller box, in the order of i, then j. Swept left to right: two boxes overlap more than 1 pt across
    only if the one that starts later starts more than 1 pt before the other ends, so each word is compared only
    with the words that start under it (a book page of single characters had every pair compared: 10 s a book)."""
    order = sorted(range(len(words)), key=lambda k: words[k][0])
    pairs = []
    for n, i in enumerate(order):
        ax0, ay0, ax1, ay1, _ = words[i]
        for j in order[n + 1:]:
            bx0, by0, bx1, by1, _ = words[j]
            if bx0 >= ax1 - 1:  # this one and every later one start too far right to overlap by more than 1 pt
                break
            w, h = min(ax1, bx1) - max(ax0, bx0), min(ay1, by1) - max(ay0, by0)
            smaller = min((ax1 - ax0) * (ay1 - ay0), (bx1 - bx0) * (by1 - by0))
            if w > 1 and h > 1 and w * h > smaller / 3:
                pairs.append((min(i, j), max(i, j)))
    return sorted(pairs)
