"""Write an official YAML file back as it was, changing only what changed.

The official files carry what our definitions do not keep: comments, quoting, block styles, spacing, key order,
number types. So the export does not print them anew when it has the text they were imported from: it compares
what the export makes of the definitions as imported (``old``) with what it makes of them now (``new``), and
edits the original text only where the two differ, value by value at the value's span. An unchanged import is
written back byte for byte, and an edit of one field changes only that value's lines.

Entries are matched by their official id (``actId``, ``charId``, ``fogId``, ``trumpId``, ``frameId``), wherever
their list group is; headers (``data``) and ``trumpData`` key by key. An entry that is new is added at the end of
its group (or of its list), one that is gone is removed with its lines.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import yaml

from blackpoker.official.yamltext import dump

_LOADER = getattr(yaml, "CSafeLoader", yaml.SafeLoader)  # libyaml's marks carry the same character indexes
ID_KEYS = ("actId", "charId", "fogId", "trumpId", "frameId")
GROUP_LISTS = {"actList": "acts", "charList": "chars", "fogList": "fogs", "trumpList": "trumps"}
LIST_OF = {"actId": "actList", "charId": "charList", "fogId": "fogList", "trumpId": "trumpList", "frameId": "frames"}
MAPPINGS = ("data", "trumpData")


@dataclass
class _Edit:
    start: int
    end: int
    text: str


def entries(data: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """Every entry of an official file's data as (its list group, its official id, its fields)."""
    for list_key, item_key in GROUP_LISTS.items():
        for group in data.get(list_key) or ():
            for entry in group.get(item_key) or ():
                yield group.get("type", ""), _identity(entry), entry
    for frame in data.get("frames") or ():
        yield "", _identity(frame), frame


def _identity(entry: dict[str, Any]) -> str:
    for key in ID_KEYS:
        if key in entry:
            return f"{key}:{entry[key]}"
    return ""


def splice(original: str, old: dict[str, Any], new: dict[str, Any], order: dict[str, tuple[str, ...]],
           old_all: dict[str, dict[str, Any]], new_all: dict[str, dict[str, Any]]) -> str:
    """``original`` with the differences between ``old`` and ``new`` (this file's export data before and after)
    applied. ``old_all``/``new_all`` hold every file's entries by identity, so an entry the export places in
    another file still counts as unchanged; ``order`` gives each entry kind's official field order (for a
    field that is added)."""
    root = yaml.compose(original, Loader=_LOADER)
    if not isinstance(root, yaml.MappingNode):
        return dump(new)
    text = _Text(original)
    edits: list[_Edit] = []
    top = {k.value: v for k, v in root.value}
    for key in MAPPINGS:
        node = top.get(key)
        if isinstance(node, yaml.MappingNode):
            edits += text.mapping(node, old.get(key) or {}, new.get(key) or {}, tuple(new.get(key) or ()))
    seen: set[str] = set()
    removed: dict[yaml.Node, list[_Edit]] = {}  # by group (a node: hashed by identity): the removals of its entries
    sizes: dict[yaml.Node, int] = {}  # by group: how many entries it has
    for list_key in (*GROUP_LISTS, "frames"):
        node = top.get(list_key)
        if not isinstance(node, yaml.SequenceNode):
            continue
        for item, group, size in _items(node, list_key):
            ident = _identity({k.value: v.value for k, v in item.value if isinstance(v, yaml.ScalarNode)})
            seen.add(ident)
            was, now = old_all.get(ident), new_all.get(ident)
            if was is None:  # not converted (kept going past a problem): left as it is
                continue
            if now is None:
                removed.setdefault(group, []).append(text.remove_item(item))
                sizes[group] = size
                continue
            kind = ident.split(":", 1)[0]
            edits += text.mapping(item, was, now, order.get(kind, tuple(now)))
    for group_node, gone in removed.items():  # a group whose every entry is gone goes with them (not the frames)
        size = sizes[group_node]
        whole = len(gone) == size and size > 0 and group_node is not top.get("frames")
        edits += [text.remove_item(group_node)] if whole else gone
    for group_name, ident, entry in entries(new):
        if ident in seen or old_all.get(ident) == entry:
            continue
        edits.append(text.append_entry(top, group_name, entry))
    return text.apply(edits)


def _items(node: yaml.SequenceNode, list_key: str) -> Iterator[tuple[yaml.MappingNode, yaml.Node, int]]:
    """Each entry of a list, with its group (the list itself for frames) and the group's number of entries."""
    if list_key == "frames":
        frames = [item for item in node.value if isinstance(item, yaml.MappingNode)]
        yield from ((item, node, len(frames)) for item in frames)
        return
    for group in node.value:
        if not isinstance(group, yaml.MappingNode):
            continue
        for k, v in group.value:
            if k.value == GROUP_LISTS[list_key] and isinstance(v, yaml.SequenceNode):
                found = [item for item in v.value if isinstance(item, yaml.MappingNode)]
                yield from ((item, group, len(found)) for item in found)


class _Text:
    """The original text and where its values are."""

    def __init__(self, text: str) -> None:
        self.text = text

    def line_start(self, index: int) -> int:
        return self.text.rfind("\n", 0, index) + 1

    def column(self, index: int) -> int:
        return index - self.line_start(index)

    def value_end(self, node: yaml.Node) -> int:
        """Where a value's own text ends: a block scalar's last non-blank line (its trailing blank lines and
        comments stay where they are), else the node's end."""
        if isinstance(node, yaml.ScalarNode) and node.style in ("|", ">"):
            body = self.text[node.start_mark.index:node.end_mark.index]
            lines = body.split("\n")
            while len(lines) > 1 and not lines[-1].strip():
                lines.pop()
            return node.start_mark.index + len("\n".join(lines))
        if isinstance(node, (yaml.MappingNode, yaml.SequenceNode)) and node.value:
            last = node.value[-1]
            return self.value_end(last[1] if isinstance(last, tuple) else last)
        return node.end_mark.index

    def mapping(self, node: yaml.MappingNode, old: dict[str, Any], new: dict[str, Any],
                order: tuple[str, ...]) -> list[_Edit]:
        edits: list[_Edit] = []
        present = {k.value: (k, v) for k, v in node.value}
        indent = self.column(node.value[0][0].start_mark.index) if node.value else 2
        for key, (key_node, value_node) in present.items():
            if old.get(key) == new.get(key):
                continue
            if key not in new:
                start = self.line_start(key_node.start_mark.index)
                end = self.value_end(value_node)
                end = end + 1 if self.text[end:end + 1] == "\n" else end
                edits.append(_Edit(start, end, ""))
            else:
                edits.append(self.replace(value_node, new[key], indent))
        for key in new:
            if key in present or old.get(key) == new.get(key):
                continue
            earlier = [k for k in order[:order.index(key)] if k in present] if key in order else list(present)
            after = present[earlier[-1]][1] if earlier else None
            line = f"{key}: {self.render(new[key], indent, None)}"
            if after is None:
                at = self.line_start(node.value[0][0].start_mark.index) if node.value else node.start_mark.index
                edits.append(_Edit(at, at, " " * indent + line + "\n"))
            else:
                at = self.value_end(after)
                edits.append(_Edit(at, at, "\n" + " " * indent + line))
        return edits

    def replace(self, node: yaml.Node, value: Any, indent: int) -> _Edit:
        """The value's span rewritten in the style the original used, where it can hold the new value."""
        style = (node.style or None) if isinstance(node, yaml.ScalarNode) else None  # libyaml: '' for plain
        end = self.value_end(node)
        if style in ("|", ">") and isinstance(value, str):
            header = self.text[node.start_mark.index:self.text.index("\n", node.start_mark.index)]
            body = self.text[self.text.index("\n", node.start_mark.index) + 1:end]
            inner = next((len(line) - len(line.lstrip(" ")) for line in body.split("\n") if line.strip()), indent + 2)
            lines = [(" " * inner + line) if line else "" for line in value.split("\n")]
            return _Edit(node.start_mark.index, end, header.replace(">", "|") + "\n" + "\n".join(lines))
        if style is None and node.tag.endswith((":int", ":float")) and isinstance(value, str) \
                and re.fullmatch(r"[0-9]+(\.[0-9]+)?", value):  # a number stays a number (charSize: 11)
            return _Edit(node.start_mark.index, end, value)
        return _Edit(node.start_mark.index, end, self.render(value, indent, style))

    def render(self, value: Any, indent: int, style: str | None) -> str:
        if isinstance(value, str) and "\n" in value:
            return "|-\n" + "\n".join((" " * (indent + 2) + line) if line else "" for line in value.split("\n"))
        if isinstance(value, str) and style == "'":
            return "'" + value.replace("'", "''") + "'"
        if isinstance(value, str) and style == '"':
            return yaml.dump(value, default_style='"', allow_unicode=True, width=10_000).rstrip("\n")
        out = yaml.dump(value, Dumper=yaml.SafeDumper, allow_unicode=True, width=10_000, default_flow_style=True)
        return out.removesuffix("\n...\n").rstrip("\n")

    def remove_item(self, item: yaml.Node) -> _Edit:
        """A sequence item's lines, from its dash to its last value, and the blank lines after it."""
        dash = self.text.rfind("-", 0, item.start_mark.index)
        start = self.line_start(dash)
        end = self.value_end(item)
        match = re.compile(r"[ \t]*\n(?:[ \t]*\n)*").match(self.text, end)
        return _Edit(start, match.end() if match else end, "")

    def append_entry(self, top: dict[str, yaml.Node], group: str, entry: dict[str, Any]) -> _Edit:
        """A new entry after the last one of its group, or as a new group at the end of its list."""
        list_key = next((LIST_OF[key] for key in ID_KEYS if key in entry), "frames")
        node = top.get(list_key)
        if isinstance(node, yaml.SequenceNode) and list_key != "frames":
            for g in node.value:
                fields = {k.value: v for k, v in g.value} if isinstance(g, yaml.MappingNode) else {}
                items = fields.get(GROUP_LISTS[list_key])
                if getattr(fields.get("type"), "value", None) == group and isinstance(items, yaml.SequenceNode) \
                        and items.value:
                    return self._after(items.value[-1], [entry])
            last = node.value[-1]
            return self._after(last, [{"type": group, GROUP_LISTS[list_key]: [entry]}])
        if isinstance(node, yaml.SequenceNode) and node.value:
            return self._after(node.value[-1], [entry])
        block = dump({list_key: [{"type": group, GROUP_LISTS[list_key]: [entry]}] if list_key != "frames"
                      else [entry]})
        end = len(self.text)
        return _Edit(end, end, ("" if self.text.endswith("\n") else "\n") + "\n" + block)

    def _after(self, last: yaml.Node, items: list[Any]) -> _Edit:
        dash = self.text.rfind("-", 0, last.start_mark.index)
        column = self.column(dash)
        block = dump(items).rstrip("\n")
        indented = "\n".join((" " * column + line) if line else "" for line in block.split("\n"))
        end = self.value_end(last)
        return _Edit(end, end, "\n\n" + indented)

    def apply(self, edits: list[_Edit]) -> str:
        out = self.text
        for edit in sorted(edits, key=lambda e: (e.start, e.end), reverse=True):
            out = out[:edit.start] + edit.text + out[edit.end:]
        return out
