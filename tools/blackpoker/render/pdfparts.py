"""PDFs made of separately rendered, cached parts: render a part, keep it by content hash, join the parts.

WeasyPrint lays out a document in one go, so an edit anywhere costs the whole document. The book and the
action lists are therefore made of parts (a book chapter; a section's action-list entries; a list's frame)
cached under the SHA-256 of everything they show (HTML, CSS, engine versions), and joined with pypdf:

* links between parts keep working: a part gets an invisible stand-in for every anchor it links to but does
  not contain, so WeasyPrint keeps the link (a named destination); the joined PDF then names the real ones;
* the outline (bookmarks) and the named destinations are rebuilt from what WeasyPrint reported per part;
* a page of another part can be stamped onto a page, as a Form XObject (content is not parsed), with its
  links, bookmarks and anchors: the book's page numbers come from a "folio" document of numbered empty
  pages (so a chapter does not depend on how many pages precede it), the action lists' entries are
  stamped into the boxes their frame keeps for them.

Coordinates kept here are PDF points from the bottom-left corner of the page, as WeasyPrint writes them.
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from blackpoker.infra.cache import discard, file_digest
from blackpoker.infra.fsutil import write_atomic

if TYPE_CHECKING:
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import IndirectObject, TreeObject
    from weasyprint.document import Document

RECIPE = "bp-parts-3"  # bump when the way parts are rendered changes, so old cache entries are not reused
STAND_INS = "bp-stand-ins"
PX_TO_PT = 0.75  # WeasyPrint: 72 PDF points per 96 CSS pixels


@dataclass(frozen=True)
class Anchor:
    name: str
    page: int  # 0-based, within the part (or the joined document)
    x: float  # the top-left corner of the element's border box
    y: float
    height: float = 0.0  # of the border box, in CSS px exactly as laid out


@dataclass(frozen=True)
class Bookmark:
    level: int
    label: str
    page: int
    x: float
    y: float
    open: bool


@dataclass(frozen=True)
class PartInfo:
    """What a rendered part holds besides its pages: its real anchors and its bookmarks, in page order.

    ``continued``: where an anchored box split over pages goes on (one anchor per later page it is on, with
    the height of its piece there); recorded only for parts rendered with ``pieces=True``.
    """

    pages: int
    anchors: tuple[Anchor, ...]
    bookmarks: tuple[Bookmark, ...]
    continued: tuple[Anchor, ...] = ()

    def to_json(self) -> str:
        data = asdict(self)
        if not self.continued:  # most parts: their records stay as they were before pieces were recorded
            del data["continued"]
        return json.dumps(data, ensure_ascii=False, sort_keys=True)

    @classmethod
    def from_json(cls, text: str) -> PartInfo:
        data = json.loads(text)
        return cls(data["pages"], tuple(Anchor(**a) for a in data["anchors"]),
                   tuple(Bookmark(**b) for b in data["bookmarks"]),
                   tuple(Anchor(**a) for a in data.get("continued", ())))


@dataclass(frozen=True)
class Part:
    """A rendered part in the cache: its PDF file and what it holds."""

    pdf: Path
    info: PartInfo


def css_string(text: str) -> str:
    """A CSS string literal (double-quoted; anything but letters, digits and a few marks escaped)."""
    return '"' + "".join(c if c.isalnum() or c in " ・()[].,-/_:" or ord(c) > 0x7f else f"\\{ord(c):06x}"
                         for c in text) + '"'


def digest(*values: str | bytes) -> str:
    """SHA-256 over the values (each length-prefixed, so concatenations cannot collide)."""
    h = hashlib.sha256()
    for value in values:
        data = value.encode("utf-8") if isinstance(value, str) else value
        h.update(len(data).to_bytes(8, "big"))
        h.update(data)
    return h.hexdigest()


def part_key(kind: str, *values: str | bytes) -> str:
    """A cache key that says what the part is (``chapter-format-…``), for people looking at the cache."""
    return f"{kind}-{digest(kind, *values)}"


def engine_version() -> str:
    """What changes the bytes of a rendered part besides its content: the recipe, the toolchain (versions and
    installed fonts)."""
    from blackpoker.infra.toolchain import toolchain
    return f"{RECIPE} {toolchain()}"


def _to_stderr(line: str) -> None:
    import sys
    print(line, file=sys.stderr)


class PartCache:
    """``<dir>/<key[:2]>/<key>.pdf`` + ``.json``; entries are written atomically, so a crash leaves none half.

    The ``.json`` records the PDF's SHA-256: a part whose PDF does not match it (truncated, changed), whose record
    cannot be read or that is not a pair of files is discarded with one warning line (through ``warn``) and
    rendered again; it is never joined into a PDF.
    """

    DIGEST = "pdf_sha256"  # the record's field beside the PartInfo

    def __init__(self, folder: Path, warn: Callable[[str], None] | None = None) -> None:
        self.dir = folder
        self.warn = warn or _to_stderr

    def _path(self, key: str, suffix: str) -> Path:
        return self.dir / key.rsplit("-", 1)[-1][:2] / f"{key}{suffix}"

    def get(self, key: str) -> Part | None:
        pdf, meta = self._path(key, ".pdf"), self._path(key, ".json")
        if not (meta.exists() or meta.is_symlink()):  # none, or its PDF being written: the record comes last
            return None
        problem = None
        try:
            if pdf.is_symlink() or meta.is_symlink() or not (pdf.is_file() and meta.is_file()):
                problem = "not a PDF and its record"
            else:
                text = meta.read_text(encoding="utf-8")
                data, info = json.loads(text), PartInfo.from_json(text)
                if data.get(self.DIGEST) != file_digest(pdf):
                    problem = "the PDF is not the one that was stored"
        except (OSError, ValueError, KeyError, TypeError, AttributeError) as exc:
            problem = f"unreadable record ({type(exc).__name__})"
        if problem is not None:
            for path in (meta, pdf):
                discard(path)
            self.warn(f"warning: a damaged cache entry was discarded ({pdf}: {problem}); the part is rendered again")
            return None
        return Part(pdf, info)

    def put(self, key: str, data: bytes, info: PartInfo) -> Part:
        pdf = self._path(key, ".pdf")
        write_atomic(pdf, data)
        record = json.loads(info.to_json())
        record[self.DIGEST] = hashlib.sha256(data).hexdigest()
        # last: its presence marks a complete entry
        write_atomic(self._path(key, ".json"), json.dumps(record, ensure_ascii=False, sort_keys=True))
        return Part(pdf, info)

    def retain(self, keys: Iterable[str]) -> None:
        """Delete every entry whose key is not in ``keys`` (called after a successful build)."""
        keep = set(keys)
        if not self.dir.is_dir():
            return
        for path in self.dir.glob("*/*"):
            if path.name.rsplit(".", 1)[0] not in keep:
                path.unlink(missing_ok=True)

    def keys(self) -> set[str]:
        """Every complete entry's key."""
        return {p.name.rsplit(".", 1)[0] for p in self.dir.glob("*/*.json")} if self.dir.is_dir() else set()


# --- rendering ----------------------------------------------------------------------------------------

_HREF = re.compile(r'href="#([^"]+)"')
_ID = re.compile(r'\bid="([^"]+)"')
_BODY = re.compile(r"<body[^>]*>")


def with_stand_ins(html: str) -> tuple[str, frozenset[str]]:
    """Add an invisible anchor for every in-document link target this HTML does not define.

    WeasyPrint drops links to anchors it cannot find; with a stand-in it keeps them as named destinations,
    which the joined PDF then resolves to the real anchor in another part. Returns the HTML and the
    stand-in names (they are not real anchors of this part).
    """
    missing = sorted(set(_HREF.findall(html)) - set(_ID.findall(html)))
    if not missing:
        return html, frozenset()
    spans = "".join(f'<div id="{name}"></div>' for name in missing)
    block = (f'<div class="{STAND_INS}" style="position: absolute; left: 0; top: 0; width: 0; height: 0; '
             f'overflow: hidden">{spans}</div>')
    match = _BODY.search(html)
    if match is None:
        raise ValueError("a part's HTML has no <body>")
    return html[:match.end()] + block + html[match.end():], frozenset(missing)


def part_info(document: Document, stand_ins: frozenset[str] = frozenset(), *, pieces: bool = False) -> PartInfo:
    """Anchors and bookmarks of a laid-out document, in PDF points (as WeasyPrint writes them).

    With ``pieces``, also where each anchored box split over pages goes on (:attr:`PartInfo.continued`).
    """
    anchors: list[Anchor] = []
    continued: list[Anchor] = []
    bookmarks: list[Bookmark] = []
    seen: set[str] = set()
    for number, page in enumerate(document.pages):
        height = page.height
        for name, (x, y, _right, bottom) in page.anchors.items():
            if name in stand_ins:
                continue
            anchor = Anchor(name, number, x * PX_TO_PT, (height - y) * PX_TO_PT, bottom - y)
            if name not in seen:
                seen.add(name)
                anchors.append(anchor)
            elif pieces:
                continued.append(anchor)
        for level, label, (x, y), state in page.bookmarks:
            bookmarks.append(Bookmark(level, label, number, x * PX_TO_PT, (height - y) * PX_TO_PT, state != "closed"))
    return PartInfo(len(document.pages), tuple(anchors), tuple(bookmarks), tuple(continued))


def quiet_weasyprint() -> None:
    """WeasyPrint's progress lines and its warnings about Sphinx's web CSS are noise in a build.

    Called before WeasyPrint is first imported: the import already logs (its default stylesheets), and a
    worker that ran Sphinx before has a root logger that prints INFO (a Pygments style plugin configures it).
    """
    import logging
    for name in ("weasyprint", "weasyprint.progress", "fontTools"):
        logging.getLogger(name).setLevel(logging.ERROR)


_FONTS: list[object] = []
# WeasyPrint (Pango, GLib and the one font configuration below) is not safe to use from two threads at once: in
# one process (the Inline runner, whose callers render a list per thread) concurrent layouts corrupted Pango's
# state ("corrupted double-linked list") and laid out an entry's pieces elsewhere than measured. Every use of
# the engine holds this lock; worker processes each hold their own.
ENGINE_LOCK = threading.RLock()


def _font_config() -> object:
    """One font configuration per process: WeasyPrint then finds and loads each font once, not per part."""
    if not _FONTS:
        quiet_weasyprint()
        from weasyprint.text.fonts import FontConfiguration
        _FONTS.append(FontConfiguration())
    return _FONTS[0]


@dataclass(frozen=True)
class Rebase:
    """Links to the site's files, which WeasyPrint writes as absolute URIs under ``base`` (the work folder), made
    absolute under ``site`` (relative without one): see :func:`relative_links`."""

    base: str
    site: str | None


def links_under(document: Document, base: str) -> bool:
    """Whether a laid-out document links to an address under ``base``: the links WeasyPrint writes as URIs are
    its pages' external links, with the same addresses."""
    return any(kind == "external" and target.startswith(base)
               for page in document.pages for kind, target, *_ in page.links)


def written(document: Document, rebase: Rebase | None = None) -> bytes:
    """The PDF of a laid-out document (the caller holds :data:`ENGINE_LOCK`), its links rebased (``rebase``): the
    PDF is parsed again for that only when the document has such a link (most of the book's chapters have none)."""
    data: bytes = document.write_pdf()
    if rebase is not None and links_under(document, rebase.base):
        return relative_links(data, rebase.base, rebase.site)
    return data


def render_part(html: str, base_url: str, *, pieces: bool = False, rebase: Rebase | None = None,
                ) -> tuple[bytes, PartInfo]:
    """Lay out and write one part (runs in a worker process); ``pieces``: see :func:`part_info`; ``rebase``: see
    :func:`written`."""
    html, stand_ins = with_stand_ins(html)
    with ENGINE_LOCK:
        document = layout(html, base_url)
        return written(document, rebase), part_info(document, stand_ins, pieces=pieces)


def layout(html: str, base_url: str) -> Document:
    """Lay out without writing; WeasyPrint reads only what :func:`local_fetcher` allows, and no text longer than a
    run (textruns.py: its time per line grows with a text's length); each stylesheet is parsed once per process
    and the HTML parser's patterns compiled once (weasyprint_private.py). A caller that goes on to write the document
    (``write_pdf``) holds :data:`ENGINE_LOCK` around both."""
    quiet_weasyprint()
    from weasyprint import HTML

    from blackpoker.render.textruns import bounded_text
    from blackpoker.render.weasyprint_private import keep_html_patterns, share_stylesheets

    share_stylesheets()  # each stylesheet parsed once per process, not once per part
    keep_html_patterns()  # the HTML parser's patterns compiled once, not once per call

    with ENGINE_LOCK:
        return HTML(string=bounded_text(html), base_url=base_url, url_fetcher=local_fetcher(base_url)).render(
            font_config=_font_config())


def local_fetcher(base_url: str) -> Any:
    """A WeasyPrint URL fetcher that reads only ``data:`` addresses and the files under the document's own folder
    (``base_url``) or the toolkit's templates and sources: whatever a page or a picture names (``file:///etc/…``, ``http://…``)
    is refused, so a build reads nothing outside its inputs and fetches nothing from the network."""
    from urllib.parse import unquote, urlsplit
    from urllib.request import url2pathname

    from weasyprint.urls import URLFetcher

    from blackpoker.core.paths import SOURCE, TEMPLATES

    base = Path(url2pathname(unquote(urlsplit(base_url).path))) if base_url.startswith("file:") else Path(base_url)
    roots = [base.resolve(), TEMPLATES, SOURCE]

    class LocalFetcher(URLFetcher):  # type: ignore[misc]  # weasyprint is untyped: its class is Any
        scope = tuple(str(root) for root in roots)  # documents with the same scope share parsed stylesheets

        def fetch(self, url: str, headers: Any = None) -> Any:
            parts = urlsplit(url)
            scheme = parts.scheme.lower()
            if scheme == "data":
                return super().fetch(url, headers)
            if scheme == "file" and parts.netloc in ("", "localhost"):
                path = Path(url2pathname(unquote(parts.path))).resolve()
                if any(path.is_relative_to(root) for root in roots):
                    return super().fetch(url, headers)
            raise ValueError(f"refused: the build reads only its own files ({url[:80]})")

    return LocalFetcher(allowed_protocols=("data", "file"), allow_redirects=False)


# --- joining ------------------------------------------------------------------------------------------

READERS_BYTES = 16 * 2**20  # the parsed parts kept per thread for stamping: at most this much PDF (see part_reader)
_READERS = threading.local()


def part_reader(pdf: Path) -> PdfReader:
    """A stamped part's PDF parsed, kept for the next join in this thread (pypdf's readers are not safe to share
    between threads): the action lists stamp the same entry batches (and a long entry's pieces) into every list
    that shows them, and a worker joins several lists, so each is parsed once per worker, not once per list. A
    join only reads from a reader (what it takes is cloned into its writer). Keyed by the file as it is on disk
    (inode, size, time), so a part written again is read again; the least recently used are dropped beyond
    :data:`READERS_BYTES` of files, so a worker's memory stays bounded."""
    from pypdf import PdfReader

    stat = pdf.stat()
    key = (str(pdf), stat.st_ino, stat.st_size, stat.st_mtime_ns)
    kept: OrderedDict[tuple[str, int, int, int], PdfReader] | None = getattr(_READERS, "kept", None)
    if kept is None:
        kept = _READERS.kept = OrderedDict()
    reader = kept.get(key)
    if reader is not None:
        kept.move_to_end(key)
        return reader
    reader = kept[key] = PdfReader(pdf)
    while sum(size for _, _, size, _ in kept) > READERS_BYTES and len(kept) > 1:
        kept.popitem(last=False)
    return reader


Outline = tuple[Bookmark, list[Any]]  # a bookmark and its children (Outline items: recursive)


def _nest(bookmarks: Sequence[Bookmark]) -> list[Outline]:
    """Bookmarks as a tree, by level, the way WeasyPrint nests them (a skipped level is not a level)."""
    root: list[Outline] = []
    stack: list[tuple[int, list[Outline]]] = [(0, root)]
    for bookmark in bookmarks:
        while len(stack) > 1 and stack[-1][0] >= bookmark.level:
            stack.pop()
        children: list[Outline] = []
        stack[-1][1].append((bookmark, children))
        stack.append((bookmark.level, children))
    return root


@dataclass(frozen=True)
class Stamp:
    """Draw page ``page`` of ``part`` over page ``target`` of the document, moved by (dx, dy) points.

    The stamped page brings its links, its bookmarks and its anchors (``prefix`` is cut from their names).
    """

    target: int
    part: Part
    page: int
    dx: float
    dy: float
    prefix: str = ""


def join(parts: Sequence[Part], target: Path, *, stamps: Sequence[Stamp] = (), metadata_from: int = 0,
         impositions: Sequence[tuple[Path, str]] = ()) -> PartInfo:
    """Write the parts' pages in order into ``target``, with one outline and one set of named destinations.

    ``stamps`` are drawn over the joined pages (page numbers from a folio, entries into their boxes). The
    document information (title, author, language) is the one of part ``metadata_from``. Each of
    ``impositions`` (file, "2up", "booklet" or "book-booklet") is written from the joined pages too. Returns the joined
    document's anchors and bookmarks.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, DictionaryObject, Fit, FloatObject, NameObject, NumberObject, TextStringObject

    writer = PdfWriter()
    anchors: list[Anchor] = []
    bookmarks: list[Bookmark] = []
    offset = 0
    info_source = None
    for index, part in enumerate(parts):
        reader = PdfReader(part.pdf)  # read once: a list's frame, a chapter of the book
        if len(reader.pages) != part.info.pages:
            raise ValueError(f"{part.pdf} has {len(reader.pages)} pages, its record says {part.info.pages}")
        for page in reader.pages:
            writer.add_page(page)
        anchors += [Anchor(a.name, a.page + offset, a.x, a.y, a.height) for a in part.info.anchors]
        bookmarks += [Bookmark(b.level, b.label, b.page + offset, b.x, b.y, b.open) for b in part.info.bookmarks]
        offset += part.info.pages
        if index == metadata_from:
            info_source = reader

    if stamps:
        more_anchors, more_bookmarks = _stamp(writer, stamps)
        anchors += more_anchors
        if more_bookmarks:  # in reading order: by page, then from the top (stamps fill boxes of their own)
            bookmarks = sorted(bookmarks + more_bookmarks, key=lambda b: (b.page, -b.y))

    # named destinations: the first occurrence of each name, sorted as WeasyPrint writes them
    first: dict[str, Anchor] = {}
    for anchor in anchors:
        first.setdefault(anchor.name, anchor)
    for name in sorted(first):
        a = first[name]
        writer.add_named_destination_array(TextStringObject(name), ArrayObject([
            writer.pages[a.page].indirect_reference, NameObject("/XYZ"),
            FloatObject(round(a.x, 6)), FloatObject(round(a.y, 6)), NumberObject(0)]))

    def add(tree: list[Outline], parent: TreeObject | IndirectObject | None) -> None:
        for bookmark, children in tree:
            item = writer.add_outline_item(title=bookmark.label, page_number=bookmark.page, parent=parent,
                                           fit=Fit.xyz(round(bookmark.x, 6), round(bookmark.y, 6), 0),
                                           is_open=bookmark.open)
            add(children, item)
    add(_nest(bookmarks), None)

    if info_source is not None:
        meta: dict[str, object] = dict(info_source.metadata or {})
        writer.add_metadata({k: str(v) for k, v in meta.items()})
        root = info_source.trailer["/Root"].get_object()
        assert isinstance(root, DictionaryObject)
        lang = root.get("/Lang")
        if lang is not None:
            writer.root_object[NameObject("/Lang")] = TextStringObject(str(lang))
    target.parent.mkdir(parents=True, exist_ok=True)
    tmp = target.with_name(f".{target.name}.tmp")
    with open(tmp, "wb") as f:
        writer.write(f)
    tmp.replace(target)
    if impositions:
        from blackpoker.render.impose import impose_pages
        for imposed, mode in impositions:
            impose_pages(list(writer.pages), imposed, mode=mode)
    return PartInfo(offset, tuple(anchors), tuple(bookmarks))


def _stamp(writer: PdfWriter, stamps: Sequence[Stamp]) -> tuple[list[Anchor], list[Bookmark]]:
    """Draw each stamp as a Form XObject (its content is not parsed) and carry over its links and marks."""
    from pypdf.generic import ArrayObject, DecodedStreamObject, DictionaryObject, FloatObject, NameObject

    from blackpoker.render.impose import as_xobject
    from blackpoker.render.pypdf_private import add_indirect

    def stream(data: bytes) -> IndirectObject:
        s = DecodedStreamObject()
        s.set_data(data)
        return add_indirect(writer, s)

    readers: dict[Path, PdfReader] = {}
    xobjects: dict[tuple[Path, int], object] = {}
    by_page: dict[int, list[Stamp]] = {}
    for stamp in stamps:
        by_page.setdefault(stamp.target, []).append(stamp)
    anchors: list[Anchor] = []
    bookmarks: list[Bookmark] = []
    save = stream(b"q\n")
    for number, page_stamps in sorted(by_page.items()):
        page = writer.pages[number]
        resources = page["/Resources"].get_object()
        assert isinstance(resources, DictionaryObject)
        own = DictionaryObject({k: v for k, v in resources.items()})  # a part's pages share one dict
        names = DictionaryObject(resources.get("/XObject", DictionaryObject()).get_object())
        ops = [b"\nQ"]
        annots = ArrayObject(page.get("/Annots") or [])
        for i, stamp in enumerate(page_stamps):
            if stamp.part.pdf not in readers:
                readers[stamp.part.pdf] = part_reader(stamp.part.pdf)
            reader = readers[stamp.part.pdf]
            key = (stamp.part.pdf, stamp.page)
            if key not in xobjects:
                xobjects[key] = as_xobject(writer, reader.pages[stamp.page])
            name = f"/BpStamp{i}"
            names[NameObject(name)] = xobjects[key]
            ops.append(f"q 1 0 0 1 {stamp.dx:.6f} {stamp.dy:.6f} cm {name} Do Q".encode())
            for annot in reader.pages[stamp.page].get("/Annots") or []:
                copy = annot.get_object().clone(writer)
                x1, y1, x2, y2 = (float(v) for v in copy["/Rect"])
                copy[NameObject("/Rect")] = ArrayObject([FloatObject(round(v, 6)) for v in (
                    x1 + stamp.dx, y1 + stamp.dy, x2 + stamp.dx, y2 + stamp.dy)])
                annots.append(add_indirect(writer, copy))
            for a in stamp.part.info.anchors:
                if a.page == stamp.page and a.name.startswith(stamp.prefix) and a.name != stamp.prefix.rstrip("."):
                    anchors.append(Anchor(a.name[len(stamp.prefix):], number, a.x + stamp.dx, a.y + stamp.dy, a.height))
            for b in stamp.part.info.bookmarks:
                if b.page == stamp.page:
                    bookmarks.append(Bookmark(b.level, b.label, number, b.x + stamp.dx, b.y + stamp.dy, b.open))
        own[NameObject("/XObject")] = names
        page[NameObject("/Resources")] = add_indirect(writer, own)
        contents = page["/Contents"]
        existing = list(content) if isinstance(content := contents.get_object(), ArrayObject) else [contents]
        page[NameObject("/Contents")] = ArrayObject([save, *existing, stream(b"\n".join(ops) + b"\n")])
        if annots:
            page[NameObject("/Annots")] = annots
    return anchors, bookmarks


def relative_links(pdf: bytes, base: str, site: str | None = None) -> bytes:
    """WeasyPrint writes links to the site's other files as absolute file:// URIs into the work folder.

    Make them absolute under ``site`` (the published address), so they work in a downloaded PDF, or, with no
    site, relative to the site root (where the book PDF is published); either way the bytes do not depend on
    where the build ran.
    """
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import NameObject, TextStringObject

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(pdf)))
    changed = False
    for page in writer.pages:
        for annot in page.get("/Annots") or []:
            action = annot.get_object().get("/A")
            uri = action.get_object().get("/URI") if action is not None else None
            if isinstance(uri, str) and uri.startswith(base):
                action.get_object()[NameObject("/URI")] = TextStringObject((site or "") + uri[len(base):])
                changed = True
    if not changed:
        return pdf
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()
