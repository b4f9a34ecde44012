"""How many pages a PDF has, read from its page tree's root instead of from every page.

pypdf's ``len(reader.pages)`` flattens the page tree: it loads every page object (and what each inherits) to count
them, which for the action lists and the book of 5,000 actions holds hundreds of MB in the build's main process
just to print "N PDFs, M pages". The root of the page tree states the count (``/Count``, PDF 32000-1 §7.7.3.2);
the toolkit reads only PDFs it wrote, whose root always has it, and counts the pages the long way otherwise.
"""

from __future__ import annotations

from pathlib import Path


def page_count(path: Path) -> int:
    """The number of pages of the PDF at ``path``."""
    from pypdf import PdfReader
    from pypdf.generic import DictionaryObject, NumberObject

    with path.open("rb") as stream:
        reader = PdfReader(stream)
        tree = reader.root_object["/Pages"].get_object()
        count = tree.get("/Count") if isinstance(tree, DictionaryObject) else None
        if isinstance(count, NumberObject) and int(count) >= 0:
            return int(count)
        return len(reader.pages)
