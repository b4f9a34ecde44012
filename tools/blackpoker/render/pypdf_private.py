"""The one place that calls pypdf's private API, for what its public API cannot do yet.

pypdf has no public way to add an arbitrary object (a content stream, a Form XObject, a resource dictionary,
a copied annotation) to a writer as an indirect object; its own public methods use ``_add_object`` for that.
``tests/test_pypdf_private.py`` fails loudly when pypdf renames it or changes what it returns.
"""

from __future__ import annotations

from pypdf import PdfWriter
from pypdf.generic import IndirectObject, PdfObject


def add_indirect(writer: PdfWriter, obj: PdfObject) -> IndirectObject:
    """Add ``obj`` to ``writer`` as a new indirect object and return the reference to it."""
    return writer._add_object(obj)
