"""Pictures are data, not documents: what a picture from the definitions may hold before any renderer sees it.

A PNG or JPEG must be what its name says and have at most ``MAX_PIXELS`` pixels (a small file can decode to
gigabytes: a "PNG bomb"); its size is read from its header, nothing is decoded. An SVG is a document that can
reference files and addresses, run scripts and define entities: only a safe subset is accepted (no document
type or entities, no script or foreign content, no event handlers, every link within the picture: ``#id``),
and its text (titles, descriptions, metadata, attributes, comments) holds nothing a terminal or a page would
interpret instead of showing: it is published and copied as it is.
Each check returns the problem in words, or None.
"""

from __future__ import annotations

import re
import struct
import xml.etree.ElementTree as ET

from blackpoker.core.errors import invisible_character

MAX_PIXELS = 25_000_000  # about 5000 x 5000: far more than a card's picture needs, far less than a bomb's
MAX_SIDE = 20_000

_SVG = "http://www.w3.org/2000/svg"
_XHTML = "http://www.w3.org/1999/xhtml"
# SVG elements that draw or structure a picture; everything that scripts, embeds documents or animates is absent
SVG_ELEMENTS = frozenset({
    "svg", "g", "defs", "title", "desc", "metadata", "symbol", "use", "switch", "path", "rect", "circle", "ellipse",
    "line", "polyline", "polygon", "text", "tspan", "textPath", "linearGradient", "radialGradient", "stop",
    "clipPath", "mask", "pattern", "marker", "style", "filter", "feBlend", "feColorMatrix", "feComponentTransfer",
    "feComposite", "feFlood", "feGaussianBlur", "feMerge", "feMergeNode", "feMorphology", "feOffset",
    "feFuncR", "feFuncG", "feFuncB", "feFuncA", "feDropShadow",
})
_URL = re.compile(r"url\(\s*(['\"]?)\s*([^)'\"]*)", re.IGNORECASE)


def picture_problem(data: bytes, media_type: str) -> str | None:
    """What makes ``data`` (of ``media_type``) unfit to be shown, or None."""
    if media_type == "image/png":
        return _raster(_png_size(data), "PNG")
    if media_type == "image/jpeg":
        return _raster(_jpeg_size(data), "JPEG")
    if media_type == "image/svg+xml":
        return svg_problem(data)
    return f"{media_type} is not a picture type the rulebook shows"


def _raster(size: tuple[int, int] | None, kind: str) -> str | None:
    if size is None:
        return f"is not a {kind} file (its header does not read as one)"
    width, height = size
    if width <= 0 or height <= 0 or width > MAX_SIDE or height > MAX_SIDE or width * height > MAX_PIXELS:
        return (f"is {width} x {height} pixels; a picture may have at most {MAX_PIXELS:,} pixels and "
                f"{MAX_SIDE:,} on a side")
    return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    if data[:8] != b"\x89PNG\r\n\x1a\n" or data[12:16] != b"IHDR" or len(data) < 24:
        return None
    width, height = struct.unpack(">II", data[16:24])
    return int(width), int(height)


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    """The frame header's size (the first SOFn marker), walking the segments from the start."""
    if data[:2] != b"\xff\xd8":
        return None
    at = 2
    while at + 4 <= len(data):
        if data[at] != 0xFF:
            return None
        marker = data[at + 1]
        if marker == 0xFF:  # fill byte
            at += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # no length
            at += 2
            continue
        length = int.from_bytes(data[at + 2:at + 4], "big")
        if 0xC0 <= marker <= 0xCF and marker not in (0xC4, 0xC8, 0xCC):
            if at + 9 > len(data):
                return None
            height, width = struct.unpack(">HH", data[at + 5:at + 9])
            return int(width), int(height)
        if length < 2:
            return None
        at += 2 + length
    return None


def svg_problem(data: bytes) -> str | None:
    """Whether an SVG stays within the safe subset; the first thing outside it, in words."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        return "is not UTF-8 text; expected an SVG file"
    if re.search(r"<!(DOCTYPE|ENTITY)", text, re.IGNORECASE):
        return "declares a document type or entities; an SVG picture may not (save it as plain SVG)"
    problem = _hidden_text(text)
    if problem:
        return problem
    try:
        root = ET.fromstring(text)
    except ET.ParseError as exc:
        return f"is not well-formed SVG ({exc})"
    if root.tag != f"{{{_SVG}}}svg":
        return "is not an SVG document (its root is not <svg> in the SVG namespace)"
    for element in root.iter():
        namespace, _, name = element.tag[1:].partition("}") if element.tag.startswith("{") else ("", "", element.tag)
        for where, value in ((f"the text of <{name}>", element.text), (f"the text after <{name}>", element.tail),
                             *((f"the {k.rpartition('}')[2]} of <{name}>", v) for k, v in element.attrib.items())):
            found = invisible_character(value) if value else None  # a character reference: &#x9b; &#x202e; &#13;
            if found is not None:
                return f"{where} holds {found[1]}; {_VISIBLE}"
        if namespace == _SVG and name not in SVG_ELEMENTS:
            return f"has a <{name}> element; an SVG picture may not script, embed or link (only drawing elements)"
        if namespace in ("", _XHTML):
            return f"has a <{name}> element outside the SVG namespace"
        for attribute, value in element.attrib.items():
            local = attribute.rpartition("}")[2]
            if local.lower().startswith("on"):
                return f"has an event handler ({local} on <{name}>); an SVG picture may not script"
            if local == "href" and not value.strip().startswith("#"):
                return f"<{name}> refers to {value[:60]!r}; an SVG picture may refer only to its own parts (#id)"
            problem = _css_problem(value, f"the {local} of <{name}>")
            if problem:
                return problem
        if name == "style" and element.text:
            problem = _css_problem(element.text, "a <style>")
            if problem:
                return problem
    return None


_VISIBLE = ("expected visible text (an SVG picture's titles, descriptions, metadata and attributes are published "
            "and copied as they are: no control, bidi or zero-width characters, even as character references)")


def _hidden_text(text: str) -> str | None:
    """The first character of the file's text that the one rule for input refuses (see core/errors.py), with
    its line and column: in a comment or a name as much as in a title. Line breaks of any convention (CR LF
    too, which the XML parser makes LF) and tabs are text; a byte order mark may open the file."""
    for number, line in enumerate(text.removeprefix("\ufeff").split("\n"), start=1):
        found = invisible_character(line.replace("\r", " "))
        if found is not None:
            return f"holds {found[1]} at line {number}, column {found[0] + 1}; {_VISIBLE}"
    return None


def _css_problem(css: str, where: str) -> str | None:
    if "\\" in css:  # a CSS escape can spell url( or @import past any check
        return f"{where} has a backslash (a CSS escape); an SVG picture's styles are plain text"
    if "@import" in css.lower() or re.search(r"\bsrc\(", css, re.IGNORECASE):
        return f"{where} imports a style sheet; an SVG picture may not load anything"
    for match in _URL.finditer(css):
        if not match.group(2).strip().startswith("#"):
            return f"{where} refers to {match.group(2)[:60]!r}; an SVG picture may refer only to its own parts (#id)"
    return None
