"""What every drawn card shares, in the boards and in the book's figures: the font, the inks, and the one look of
a face-down card (a blue-grey back with an inner frame), so a reader learns it once."""

from __future__ import annotations

FONT = "'BIZ UDPGothic', 'BIZ UDGothic', 'Noto Sans CJK JP', sans-serif"
INK, PAPER, RED = "#222", "#fff", "#b0202a"
BACK_FILL, BACK_EDGE = "#6f7f9f", "#e8ecf3"


def back(x: float, y: float, w: float, h: float, *, edge: str = INK, width: float = 1, radius: float = 3,
         extra: str = "") -> str:
    """A face-down card with its top-left corner at (x, y): the outline in ``edge``, the back inside.
    ``extra``: attributes added to the outline (a transform, say)."""
    inset = max(2.0, min(w, h) * 0.12)
    return (f'<rect x="{x:.1f}" y="{y:.1f}" width="{w}" height="{h}" rx="{radius}" fill="{BACK_FILL}" '
            f'stroke="{edge}" stroke-width="{width}"{extra}/>'
            f'<rect x="{x + inset:.1f}" y="{y + inset:.1f}" width="{w - 2 * inset:.1f}" height="{h - 2 * inset:.1f}" '
            f'rx="{max(radius - 1, 1)}" fill="none" stroke="{BACK_EDGE}" stroke-width="0.8"{extra}/>')
