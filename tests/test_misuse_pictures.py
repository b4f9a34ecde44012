"""Pictures are data, not documents (issue 25, items 2 and 8): an SVG stays within a safe subset, a raster
picture is checked for its pixel count, and WeasyPrint reads nothing outside the build's own files."""

from __future__ import annotations

import base64
import shutil
import struct
import threading
import zlib
from http.server import BaseHTTPRequestHandler, HTTPServer
from pathlib import Path

import pytest

from blackpoker import load_rules
from blackpoker.core.errors import DefinitionErrors, printable
from blackpoker.core.paths import DEFINITIONS
from blackpoker.core.pictures import MAX_PIXELS, picture_problem
from clirun import run_cli

SVG = '<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 14">{}</svg>'


def _png(width: int, height: int) -> bytes:
    """A PNG whose header says ``width`` x ``height`` (the data is a stub: only the header is read)."""
    ihdr = struct.pack(">IIBBBBB", width, height, 8, 0, 0, 0, 0)
    chunk = b"IHDR" + ihdr
    return (b"\x89PNG\r\n\x1a\n" + struct.pack(">I", len(ihdr)) + chunk
            + struct.pack(">I", zlib.crc32(chunk)) + b"\0\0\0\0IEND\xaeB`\x82")


def _jpeg(width: int, height: int) -> bytes:
    return (b"\xff\xd8" + b"\xff\xe0\x00\x10JFIF\x00\x01\x01\x00\x00\x01\x00\x01\x00\x00"
            + b"\xff\xc0\x00\x11\x08" + struct.pack(">HH", height, width) + b"\x03" + b"\x00" * 9 + b"\xff\xd9")


@pytest.mark.parametrize("inner", [
    '<image href="file:///etc/passwd" width="10" height="10"/>',
    '<image xlink:href="http://127.0.0.1:9/x.png" width="10" height="10"/>',
    '<use href="other.svg#a"/>',
    '<script>alert(1)</script>',
    '<rect width="1" height="1" onload="alert(1)"/>',
    '<rect width="1" height="1" style="fill: url(http://example.com/x)"/>',
    '<rect width="1" height="1" fill="url(\'file:///etc/passwd\')"/>',
    '<style>@import "file:///etc/passwd";</style>',
    '<style>rect { fill: u\\72l(file:///etc/passwd) }</style>',
    '<foreignObject><div xmlns="http://www.w3.org/1999/xhtml">x</div></foreignObject>',
    '<a href="javascript:alert(1)"><rect width="1" height="1"/></a>',
    '<animate attributeName="href" to="http://x"/>',
])
def test_an_svg_outside_the_safe_subset_is_refused(inner: str) -> None:
    assert picture_problem(SVG.format(inner).encode(), "image/svg+xml") is not None


def test_an_svg_with_entities_is_refused() -> None:
    bomb = '<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaa">]><svg xmlns="http://www.w3.org/2000/svg">&a;</svg>'
    assert "entities" in (picture_problem(bomb.encode(), "image/svg+xml") or "")


@pytest.mark.parametrize("inner", [
    '<rect width="10" height="14" fill="#c00"/>',
    '<defs><linearGradient id="g"><stop offset="0" stop-color="red"/></linearGradient></defs>'
    '<rect width="10" height="14" fill="url(#g)"/><use href="#g"/><use xlink:href="#g"/>',
    '<style>rect { fill: #333 }</style><title>スラッシュ</title><text x="1" y="5">♠</text>',
])
def test_a_drawing_svg_is_accepted(inner: str) -> None:
    assert picture_problem(SVG.format(inner).encode(), "image/svg+xml") is None


# What a terminal or a page interprets, in the text an SVG carries along: titles, descriptions, metadata,
# attributes, comments; written as it is or as a character reference (which the XML parser turns into it)
HIDDEN = {
    "osc52 in a title": "<title>\u009d52;c;ZWNobyBwd25lZA==\u009c</title>",
    "escape in a title": "<title>\x1b[2J</title>",
    "carriage return reference": "<desc>OK&#13;FAIL</desc>",
    "csi reference in metadata": "<metadata><x xmlns='urn:x'>a&#x9b;2J</x></metadata>",
    "zero width in a title": "<title>スラ\u200bッシュ</title>",
    "bidi reference in an attribute": '<rect width="1" height="1" aria-label="&#x202e;abc"/>',
    "next line in a comment": "<!-- a\u0085b -->",
    "delete in a text": '<text x="1" y="5">a\x7fb</text>',
    "line separator after an element": "<g/>\u2028",
    "zero width joiner in a name": '<rect width="1" height="1" data-a\u200d="x"/>',
}


@pytest.mark.parametrize("kind", sorted(HIDDEN))
def test_an_svg_whose_text_a_terminal_would_interpret_is_refused(kind: str) -> None:
    """Such a picture is refused rather than stripped: it is published and exported as it is (its bytes are the
    picture), and a title that changes when the tool touches it is no longer the author's."""
    problem = picture_problem(SVG.format(HIDDEN[kind]).encode(), "image/svg+xml")
    assert problem is not None and "expected visible text" in problem, problem
    assert printable(problem) == problem  # the message itself quotes nothing a terminal interprets


def test_an_svg_as_editors_save_it_is_accepted() -> None:
    """A byte order mark, CR LF line breaks, tabs and line breaks written as references are text."""
    svg = ("\ufeff<?xml version='1.0' encoding='UTF-8'?>\r\n" + SVG.format(
        "\r\n\t<title>スラッシュ</title>\r\n\t<desc>一行目&#10;二行目&#9;</desc>\r\n"
        '\t<metadata><x xmlns="urn:x">©</x></metadata><rect width="1" height="1" style="fill:#333;&#10;"/>\r\n'))
    assert picture_problem(svg.encode(), "image/svg+xml") is None


def test_an_svg_with_hidden_text_is_a_located_error_that_prints_nothing_raw(tmp_path: Path) -> None:
    defs = _with_picture(tmp_path, "slash.svg", SVG.format(HIDDEN["osc52 in a title"]).encode())
    with pytest.raises(DefinitionErrors) as caught:
        load_rules(defs)
    [error] = caught.value.errors
    assert error.file.endswith("trumps.yaml") and error.line > 1 and "images/slash.svg" in error.message
    assert "U+009D" in error.message and "line 1, column" in error.message
    result = run_cli("check", str(defs))
    assert result.returncode == 2 and "trumps.yaml:" in result.stderr and "U+009D" in result.stderr
    assert printable(result.stderr, newlines=True) == result.stderr
    assert "\u009d" not in result.stdout + result.stderr


def test_raster_pictures_are_checked_for_pixels_and_kind() -> None:
    assert picture_problem(_png(600, 840), "image/png") is None
    assert picture_problem(_jpeg(600, 840), "image/jpeg") is None
    bomb = picture_problem(_png(13_000, 13_000), "image/png")
    assert bomb is not None and "13000 x 13000 pixels" in bomb and f"{MAX_PIXELS:,}" in bomb
    assert picture_problem(_jpeg(13_000, 13_000), "image/jpeg") is not None
    assert picture_problem(_png(1, 2**31), "image/png") is not None
    assert "not a PNG" in (picture_problem(b"GIF89a....", "image/png") or "")
    assert "not a JPEG" in (picture_problem(_png(10, 10), "image/jpeg") or "")


def _with_picture(tmp_path: Path, name: str, data: bytes) -> Path:
    defs = tmp_path / "definitions"
    shutil.copytree(DEFINITIONS, defs)
    (defs / "images").mkdir()
    (defs / "images" / name).write_bytes(data)
    trumps = defs / "trumps.yaml"
    text = trumps.read_text(encoding="utf-8")
    trumps.write_text(text.replace("    introduced: ex3.4.0\n", f"    introduced: ex3.4.0\n    image: images/{name}\n", 1),
                      encoding="utf-8")
    return defs


@pytest.mark.parametrize(("name", "data", "says"), [
    ("slash.svg", SVG.format('<image href="file:///etc/passwd" width="10" height="10"/>').encode(), "<image>"),
    ("slash.png", _png(13_000, 13_000), "pixels"),
    ("slash.jpg", b"<svg/>", "not a JPEG"),
])
def test_a_bad_picture_is_a_located_error(tmp_path: Path, name: str, data: bytes, says: str) -> None:
    defs = _with_picture(tmp_path, name, data)
    with pytest.raises(DefinitionErrors) as caught:
        load_rules(defs)
    [error] = caught.value.errors
    assert error.file.endswith("trumps.yaml") and error.line > 1 and says in error.message
    assert f"images/{name}" in error.message


class _Counter(BaseHTTPRequestHandler):
    hits: list[str] = []

    def do_GET(self) -> None:
        _Counter.hits.append(self.path)
        self.send_response(404)
        self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        return


def test_weasyprint_reads_nothing_outside_the_build(tmp_path: Path) -> None:
    """Whatever an SVG inside the HTML names (a picture the safe subset would refuse, reaching the layout some
    other way), the layout fetches nothing from the network and reads no file outside its folder."""
    from blackpoker.render.pdfparts import layout, local_fetcher
    server = HTTPServer(("127.0.0.1", 0), _Counter)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    secret = tmp_path / "secret.png"
    secret.write_bytes(_png(1, 1))
    site = tmp_path / "site"
    site.mkdir()
    (site / "own.css").write_text("p { color: red }", encoding="utf-8")
    try:
        address = f"http://127.0.0.1:{server.server_address[1]}/x.png"
        svg = SVG.format(f'<image href="{address}" width="10" height="10"/>'
                         f'<image href="{secret.as_uri()}" width="10" height="10"/>')
        html = (f'<html><body><img src="data:image/svg+xml;base64,{base64.b64encode(svg.encode()).decode()}">'
                f'<img src="{address}"><img src="{secret.as_uri()}"></body></html>')
        layout(html, site.as_uri() + "/").write_pdf()
        assert _Counter.hits == []
        fetch = local_fetcher(site.as_uri() + "/")
        for refused in (secret.as_uri(), address, "file:///etc/passwd", (site / ".." / "secret.png").as_uri(),
                        "ftp://127.0.0.1/x"):
            with pytest.raises(ValueError, match="refused"):
                fetch(refused)
        assert fetch((site / "own.css").as_uri()).read() == b"p { color: red }"
    finally:
        server.shutdown()
