"""pypdf's private API that ``render/pypdf_private.py`` relies on: a pypdf change must fail here, loudly."""

from __future__ import annotations

import inspect
import io

from pypdf import PdfReader, PdfWriter
from pypdf.generic import DecodedStreamObject, IndirectObject, NameObject

from blackpoker.render.pypdf_private import add_indirect


def test_pypdf_still_has_add_object_with_the_signature_we_call() -> None:
    assert hasattr(PdfWriter, "_add_object"), "pypdf removed PdfWriter._add_object: update render/pypdf_private.py"
    assert list(inspect.signature(PdfWriter._add_object).parameters) == ["self", "obj"]


def test_add_indirect_returns_a_reference_that_survives_writing() -> None:
    writer = PdfWriter()
    page = writer.add_blank_page(width=100, height=100)
    stream = DecodedStreamObject()
    stream.set_data(b"0 0 m 10 10 l S")
    ref = add_indirect(writer, stream)
    assert isinstance(ref, IndirectObject)
    assert ref.get_object() is stream
    page[NameObject("/Contents")] = ref
    out = io.BytesIO()
    writer.write(out)
    contents = PdfReader(io.BytesIO(out.getvalue())).pages[0].get_contents()
    assert contents is not None and contents.get_data() == b"0 0 m 10 10 l S"


def test_only_the_private_module_calls_private_pypdf() -> None:
    """Every other module uses pypdf's public API."""
    from pathlib import Path
    package = Path(__file__).resolve().parents[1] / "tools" / "blackpoker"
    offenders = [str(p.relative_to(package)) for p in package.rglob("*.py")
                 if p.name != "pypdf_private.py" and ("._add_object" in p.read_text(encoding="utf-8")
                                                      or "._root_object" in p.read_text(encoding="utf-8"))]
    assert offenders == []
