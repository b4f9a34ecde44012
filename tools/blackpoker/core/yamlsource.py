"""YAML loading that remembers where every node is, so errors can name file, line and column."""

from __future__ import annotations

import errno
import hashlib
import marshal
import stat
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import yaml

from blackpoker.core.errors import DefinitionError, PathPart

try:  # the C loader is 5-10x faster; PyYAML wheels ship it
    from yaml import CSafeLoader as _BaseLoader
except ImportError:  # pragma: no cover
    from yaml import SafeLoader as _BaseLoader  # type: ignore[assignment]  # the pure loader of the same interface


class _Loader(_BaseLoader):
    """Safe YAML without timestamp resolution: '2025-06' and dates stay strings, as the schemas expect."""


_Loader.yaml_implicit_resolvers = {
    first: [(tag, regexp) for tag, regexp in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in _BaseLoader.yaml_implicit_resolvers.items()
}


@dataclass
class SourceFile:
    """A parsed YAML file: its data, and the position (1-based line, column) of every node by data path."""

    name: str
    data: Any
    positions: dict[tuple[PathPart, ...], tuple[int, int]] = field(default_factory=dict)
    key_positions: dict[tuple[PathPart, ...], tuple[int, int]] = field(default_factory=dict)

    def locate(self, path: tuple[PathPart, ...], *, key: bool = False) -> tuple[int, int]:
        """The position of the node at ``path``, or of its nearest ancestor that exists.

        With ``key=True`` a mapping entry is located at its key rather than at its value.
        """
        probe = tuple(path)
        while True:
            if key and probe in self.key_positions:
                return self.key_positions[probe]
            if probe in self.positions:
                return self.positions[probe]
            if not probe:
                return (1, 1)
            probe = probe[:-1]

    def error(self, path: tuple[PathPart, ...], message: str, *, key: bool = False) -> DefinitionError:
        """A located error at a YAML path of this file: every problem a user sees names its file, line and column."""
        line, column = self.locate(path, key=key)
        return DefinitionError(self.name, line, column, tuple(path), message)


def _mark(node: yaml.Node) -> tuple[int, int]:
    return (node.start_mark.line + 1, node.start_mark.column + 1)


MAX_DEPTH = 64  # nesting levels; the deepest definition (an effect's sub-list) needs about eight
CORE_TAGS = frozenset(f"tag:yaml.org,2002:{t}" for t in ("str", "int", "float", "bool", "null", "seq", "map"))


def _structure_problem(text: str, name: str) -> DefinitionError | None:
    """What the definitions never need and a hostile file could abuse, found on the event stream (the parser is
    not recursive, so this runs before anything is composed): deep nesting (a recursion crash), aliases (a
    billion-laughs bomb, a self-referencing loop) and tags outside the YAML core schema."""
    depth = 0
    for event in yaml.parse(text, Loader=_Loader):
        mark = event.start_mark
        where = (mark.line + 1, mark.column + 1) if mark is not None else (1, 1)
        if isinstance(event, yaml.AliasEvent):
            return DefinitionError(name, *where, (), f"the alias '*{event.anchor}' is not supported; "
                                   "expected the value written out (anchors, aliases and '<<' merges are not read)")
        if isinstance(event, yaml.ScalarEvent) and event.value == "<<" and event.implicit[0]:
            return DefinitionError(name, *where, (), "the merge key '<<' is not supported; expected the fields "
                                   "written out")
        tag = getattr(event, "tag", None)
        if tag is not None and tag not in CORE_TAGS and tag != "!":
            return DefinitionError(name, *where, (), f"the tag '{tag[:40]}' is not supported; expected plain YAML")
        if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
            depth += 1
            if depth > MAX_DEPTH:
                return DefinitionError(name, *where, (), f"nested more than {MAX_DEPTH} levels deep; "
                                       "expected the shallow structure of the schema")
        elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
            depth -= 1
    return None


def _build(node: yaml.Node, path: tuple[PathPart, ...], src: SourceFile, loader: _Loader,
           problems: list[DefinitionError]) -> Any:
    """Construct plain data from a node tree, recording positions and rejecting duplicate keys."""
    src.positions[path] = _mark(node)
    if isinstance(node, yaml.MappingNode):
        result: dict[Any, Any] = {}
        for key_node, value_node in node.value:
            known = len(problems)
            key = _scalar(key_node, path, src, loader, problems) if isinstance(key_node, yaml.ScalarNode) else key_node
            if not isinstance(key, str):
                if len(problems) == known:  # not refused already
                    shown = repr(key)[:40] if isinstance(key_node, yaml.ScalarNode) else "a list or mapping"
                    problems.append(DefinitionError(src.name, *_mark(key_node), path,
                                                    f"mapping key {shown} must be a string"))
                key = f"?{len(result)}"
            child = path + (key,)
            if key in result:
                problems.append(DefinitionError(src.name, *_mark(key_node), child,
                                                f"duplicate key '{key}' (first at line {src.key_positions[child][0]})"))
                continue
            src.key_positions[child] = _mark(key_node)
            result[key] = _build(value_node, child, src, loader, problems)
        return result
    if isinstance(node, yaml.SequenceNode):
        return [_build(item, path + (i,), src, loader, problems) for i, item in enumerate(node.value)]
    return _scalar(node, path, src, loader, problems)


MAX_INTEGER = 2**63 - 1  # any count, number or seed an input holds; JSON readers and the export agree on it
_INT, _FLOAT = "tag:yaml.org,2002:int", "tag:yaml.org,2002:float"


def _scalar(node: yaml.Node, path: tuple[PathPart, ...], src: SourceFile, loader: _Loader,
            problems: list[DefinitionError]) -> Any:
    """A scalar, checked once where it is read (the one rule for input): text without control, bidi or
    zero-width characters and in composed form (NFC), so look-alikes cannot be told apart only by the bytes;
    integers within ±(2**63 - 1) and finite numbers. A refused value becomes None beside a located problem."""
    if node.tag == _INT and len(str(node.value)) > 40:  # refused unread: Python converts at most 4,300 digits
        problems.append(DefinitionError(src.name, *_mark(node), path, f"a number of {len(str(node.value)):,} "
                                        f"characters; expected an integer of at most {MAX_INTEGER:,}"))
        return None
    value = loader.construct_object(node, deep=True)
    problem = value_problem(value)
    if problem is not None:
        problems.append(DefinitionError(src.name, *_mark(node), path, problem))
        return None
    return value


def value_problem(value: object) -> str | None:
    """What the one rule for input refuses in a single value (see :func:`_scalar`), or None."""
    import math
    import unicodedata

    from blackpoker.core.errors import invisible_character
    if isinstance(value, bool):
        return None
    if isinstance(value, int) and abs(value) > MAX_INTEGER:
        return f"the number is out of range; expected an integer of at most {MAX_INTEGER:,}"
    if isinstance(value, float) and not math.isfinite(value):
        return "not a finite number; expected a number"
    if isinstance(value, str):
        found = invisible_character(value)
        if found is not None:
            return (f"the text holds {found[1]} at character {found[0] + 1}; expected visible text (control, "
                    "bidi and zero-width characters are not allowed, even as escapes)")
        if not unicodedata.is_normalized("NFC", value):
            return (f"the text is not in composed form (NFC); expected it written as "
                    f"'{unicodedata.normalize('NFC', value)[:40]}'")
    return None


def _open_quote(text: str, problem: yaml.Mark | None) -> tuple[int, int, int] | None:
    """The last quoted value before a parser error that spans lines (start line, column, end line): most often
    a quote left open that a later quote closed. None when there is none (the error is where the parser says)."""
    if problem is None:
        return None
    found = None
    try:
        for token in yaml.scan(text, Loader=yaml.SafeLoader):
            if token.start_mark.index >= problem.index:
                break
            if isinstance(token, yaml.ScalarToken) and token.style in ("'", '"') \
                    and token.end_mark.line > token.start_mark.line:
                found = (token.start_mark.line, token.start_mark.column, token.end_mark.line)
    except yaml.YAMLError:
        pass
    return found


MAX_BYTES = 10 * 2**20  # one input file; the largest definitions file is about 40 KB


def read_input(path: Path, limit: int = MAX_BYTES) -> bytes:
    """The bytes of an input file, at most ``limit`` + 1 of them. Anything but a regular file (a device
    such as /dev/zero, a pipe, a folder) is refused unread, as an OSError naming it: that is the machine's
    state, not a mistake in the text (exit 1, like a file that cannot be read)."""
    info = path.stat()
    if not stat.S_ISREG(info.st_mode):
        raise OSError(errno.EINVAL, "not a regular file (a device, a pipe or a folder); expected a YAML file",
                      str(path))
    with path.open("rb") as f:
        return f.read(limit + 1)


def _position(before: str) -> tuple[int, int]:
    """Line and column (1-based) of the character that follows ``before``."""
    return before.count("\n") + 1, len(before) - (before.rfind("\n") + 1) + 1


def parse_yaml(path: Path, display_name: str, folder: Path | None = None) -> tuple[SourceFile | None, list[DefinitionError]]:
    """Parse one file. A syntax error comes back as a located DefinitionError, never as an exception; a file
    that cannot be read raises OSError (the environment, not the text). With ``folder``, a file that resolves
    outside it (a link out of the definitions) is refused unread."""
    src = SourceFile(display_name, None)
    if folder is not None and not path.resolve().is_relative_to(folder.resolve()):
        return None, [DefinitionError(display_name, 1, 1, (), "is a link to a file outside its folder; expected a "
                                      "file in the folder (it is not read)")]
    data = read_input(path)
    if len(data) > MAX_BYTES:
        return None, [DefinitionError(display_name, 1, 1, (), f"the file is larger than {MAX_BYTES // 2**20} MB; "
                                      "expected a definitions or scenario file (the limit guards the build)")]
    key = hashlib.sha256(data).digest() if len(data) <= PARSED_CACHE_BYTES else None
    if key is not None and key in _PARSED:
        _PARSED.move_to_end(key)
        return _parsed_copy(display_name, _PARSED[key]), []
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line, column = _position(data[:exc.start].decode("utf-8", errors="replace"))
        return None, [DefinitionError(display_name, line, column, (), f"not UTF-8 text: {exc.reason} "
                                      f"(byte 0x{data[exc.start]:02x}); expected a file saved as UTF-8")]
    loader = _Loader(text)
    problems: list[DefinitionError] = []
    try:
        refused = _structure_problem(text, display_name)
        if refused is not None:
            return None, [refused]
        node = loader.get_single_node()
        if node is None:
            return None, [DefinitionError(display_name, 1, 1, (), "the file is empty; expected a mapping")]
        src.data = _build(node, (), src, loader, problems)
    except yaml.MarkedYAMLError as exc:
        # a token the scanner could not finish (an unclosed quote, a key without ':') is reported where it
        # starts, with where the scanner gave up; a parser error where the structure broke
        start = exc.context_mark if isinstance(exc, yaml.scanner.ScannerError) else None
        mark = start or exc.problem_mark or exc.context_mark
        line, column = (mark.line + 1, mark.column + 1) if mark else (1, 1)
        what = exc.problem or "invalid YAML"
        if exc.context:
            what = f"{exc.context}: {what}" if exc.problem else exc.context
        if start is not None and exc.problem_mark is not None and exc.problem_mark.line != start.line:
            what += f" (at line {exc.problem_mark.line + 1}, column {exc.problem_mark.column + 1})"
        opened = _open_quote(text, exc.problem_mark) if start is None else None
        if opened is not None:  # a quote left open ran on to a later quote, where the structure broke
            line, column = opened[0] + 1, opened[1] + 1
            what = (f"the quoted value that starts here runs on to line {opened[2] + 1}: an unclosed quote? "
                    f"(there: {what})")
        return None, [DefinitionError(display_name, line, column, (), f"YAML syntax error: {what}")]
    except yaml.reader.ReaderError as exc:  # a character YAML does not allow (NUL, a control character)
        # libyaml counts bytes of the UTF-8 text, the pure-Python reader characters
        before = text[:exc.position] if exc.encoding == "unicode" else data[:exc.position].decode("utf-8", "replace")
        line, column = _position(before)
        return None, [DefinitionError(display_name, line, column, (), f"the character U+{exc.character:04X} is "
                                      "not allowed in YAML; expected text (remove it)")]
    except yaml.YAMLError as exc:
        return None, [DefinitionError(display_name, 1, 1, (), f"YAML error: {exc}")]
    finally:
        loader.dispose()
    if key is not None and not problems:
        _PARSED[key] = (marshal.dumps(src.data), src.positions, src.key_positions)
        if len(_PARSED) > PARSED_CACHE_FILES:
            _PARSED.popitem(last=False)
        src.positions, src.key_positions = dict(src.positions), dict(src.key_positions)
    return src, problems


# Files parsed cleanly, by their bytes: the same bytes give the same data and positions wherever the file lies, and
# one process reads the same files many times (the scenarios for each step and check, a copy of the definitions
# with one file edited, the official importer's base). Only small files, so that the cache never holds a large
# ruleset; each caller gets its own copy (the data is marshalled), so what one changes no other sees.
PARSED_CACHE_FILES = 256
PARSED_CACHE_BYTES = 256 * 2**10
_Parsed = tuple[bytes, dict[tuple[PathPart, ...], tuple[int, int]], dict[tuple[PathPart, ...], tuple[int, int]]]
_PARSED: OrderedDict[bytes, _Parsed] = OrderedDict()


def _parsed_copy(display_name: str, parsed: _Parsed) -> SourceFile:
    data, positions, key_positions = parsed
    return SourceFile(display_name, marshal.loads(data), dict(positions), dict(key_positions))
