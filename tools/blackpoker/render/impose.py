"""Imposition: 2-up sheets and saddle-stitch booklets from a PDF of equal pages (pypdf only, no TeX).

Each source page is wrapped once as a Form XObject and placed on sheets twice its width, so A5 portrait
pages land on A4 landscape sheets. Placement is by reference, without re-parsing content streams.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from pypdf import PageObject, PdfReader, PdfWriter
from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, IndirectObject, NameObject, StreamObject

from blackpoker.render.pypdf_private import add_indirect

Side = tuple[int | None, int | None]  # (left page, right page), 0-based; None is a blank


def two_up_order(n: int) -> list[Side]:
    """Pages in reading order, two per side: (0, 1), (2, 3), …; an odd last page has a blank beside it."""
    return [(i, i + 1 if i + 1 < n else None) for i in range(0, n, 2)]


def booklet_order(n: int, *, blank_back: bool = False) -> list[Side]:
    """Saddle-stitch order for n pages, padded with blanks to a multiple of 4.

    Sheet s has its front (m-1-2s, 2s) and its back (2s+1, m-2-2s), where m is the padded count; printed
    double-sided (flip on the short edge), folded and stacked, the pages read 1, 2, 3, …
    ``blank_back``: the outside back cover is always blank (a book's last page, its index, is not its cover).
    """
    if n <= 0:
        return []
    m = -(-(n + blank_back) // 4) * 4

    def page(i: int) -> int | None:
        return i if i < n else None

    sides: list[Side] = []
    for s in range(m // 4):
        sides.append((page(m - 1 - 2 * s), page(2 * s)))
        sides.append((page(2 * s + 1), page(m - 2 - 2 * s)))
    return sides


def as_xobject(writer: PdfWriter, page: PageObject) -> IndirectObject:
    contents = page.get_contents()
    data = contents.get_data() if contents is not None else b""
    xobject = StreamObject()
    xobject.set_data(data)
    resources = page.get("/Resources")
    xobject.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([FloatObject(float(v)) for v in page.mediabox]),
        # clone into the writer: otherwise fonts stay references into the reader
        NameObject("/Resources"): resources.get_object().clone(writer) if resources is not None else DictionaryObject(),
    })
    return add_indirect(writer, xobject.flate_encode())


def impose(source: Path, target: Path, sides: Sequence[Side] | None = None, *, mode: str = "booklet") -> list[Side]:
    """Write ``target`` with the pages of ``source`` laid out two per sheet side; returns the layout used."""
    pages = list(PdfReader(source).pages)
    if not pages:
        raise ValueError(f"{source} has no pages")
    return impose_pages(pages, target, sides, mode=mode)


def impose_pages(pages: Sequence[PageObject], target: Path, sides: Sequence[Side] | None = None, *,
                 mode: str = "booklet") -> list[Side]:
    """Like :func:`impose`, from pages already in memory (those of a PDF just joined: no parsing again).
    ``mode``: ``booklet``, ``book-booklet`` (a blank outside back cover) or ``2up``."""
    width, height = float(pages[0].mediabox.width), float(pages[0].mediabox.height)
    if sides is None:
        sides = (two_up_order(len(pages)) if mode == "2up"
                 else booklet_order(len(pages), blank_back=mode == "book-booklet"))
    writer = PdfWriter()
    cache: dict[int, IndirectObject] = {}
    for side in sides:
        sheet = writer.add_blank_page(width=2 * width, height=height)
        xobjects = DictionaryObject()
        ops = []
        for slot, index in enumerate(side):
            if index is None:
                continue
            if index not in cache:
                cache[index] = as_xobject(writer, pages[index])
            box = pages[index].mediabox
            name = f"/P{slot}"
            xobjects[NameObject(name)] = cache[index]
            ops.append(f"q 1 0 0 1 {slot * width - float(box.left):.4f} {-float(box.bottom):.4f} cm {name} Do Q")
        sheet[NameObject("/Resources")] = DictionaryObject({NameObject("/XObject"): xobjects})
        stream = DecodedStreamObject()
        stream.set_data("\n".join(ops).encode())
        sheet[NameObject("/Contents")] = add_indirect(writer, stream)
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    with open(tmp, "wb") as f:
        writer.write(f)
    tmp.replace(target)
    return list(sides)
