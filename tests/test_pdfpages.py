"""A PDF's pages counted from its page tree's root (``render/pdfpages.py``), the same number pypdf counts."""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject, NameObject, NumberObject

from blackpoker.render.pdfpages import page_count


def _pdf(path: Path, pages: int) -> Path:
    writer = PdfWriter()
    for _ in range(pages):
        writer.add_blank_page(width=100, height=100)
    writer.write(path)
    return path


@pytest.mark.parametrize("pages", [0, 1, 7, 120])
def test_the_count_is_the_number_of_pages(tmp_path: Path, pages: int) -> None:
    pdf = _pdf(tmp_path / "a.pdf", pages)
    assert page_count(pdf) == pages == len(PdfReader(pdf).pages)


def test_the_count_does_not_load_the_pages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    pdf = _pdf(tmp_path / "a.pdf", 30)

    def flattening(*args: object, **kwargs: object) -> None:
        raise AssertionError("the page tree was flattened to count the pages")

    monkeypatch.setattr(PdfReader, "_flatten", flattening)
    assert page_count(pdf) == 30


def test_a_root_without_a_count_is_counted_the_long_way(tmp_path: Path) -> None:
    writer = PdfWriter()
    for _ in range(3):
        writer.add_blank_page(width=100, height=100)
    pages = writer.root_object["/Pages"].get_object()
    assert isinstance(pages, DictionaryObject)
    pages[NameObject("/Count")] = NumberObject(-1)
    writer.write(tmp_path / "odd.pdf")
    assert page_count(tmp_path / "odd.pdf") == 3
