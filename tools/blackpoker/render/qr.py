"""QR codes for print (segno, generated locally): a printed list carries one to its web version."""

from __future__ import annotations

import segno
from markupsafe import Markup


def qr_svg(text: str, title: str) -> Markup:
    """An inline SVG QR code of ``text`` (error correction M, a quiet zone of 2 modules), sized by CSS."""
    code = segno.make(text, error="m", micro=False)
    return Markup(code.svg_inline(border=2, omitsize=True, title=title, svgclass="qr", lineclass=None))
