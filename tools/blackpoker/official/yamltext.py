"""YAML text as people write it: keys in the given order, Japanese as is, multi-line strings as ``|-`` blocks."""

from __future__ import annotations

from typing import Any

import yaml


class _Dumper(yaml.SafeDumper):
    """Block style everywhere, literal blocks for text with line breaks, lists indented under their key."""

    def increase_indent(self, flow: bool = False, indentless: bool = False) -> None:
        super().increase_indent(flow, False)


def _str(dumper: yaml.SafeDumper, value: str) -> yaml.ScalarNode:
    if "\n" in value:
        return dumper.represent_scalar("tag:yaml.org,2002:str", value, style="|")
    return dumper.represent_scalar("tag:yaml.org,2002:str", value)


def _list(dumper: yaml.SafeDumper, value: list[object]) -> yaml.SequenceNode:
    """Short lists of ids on one line (formats: [std, pro, mast]), as the definitions write them."""
    flow = all(isinstance(v, str) and v.isascii() and v.isprintable() for v in value) and \
        sum(len(str(v)) + 2 for v in value) < 100
    return dumper.represent_sequence("tag:yaml.org,2002:seq", value, flow_style=flow)


_Dumper.add_representer(str, _str)
_Dumper.add_representer(list, _list)


def dump(data: Any, schema_line: str | None = None) -> str:
    """The YAML text of ``data``; with ``schema_line``, the file starts with it (our definitions name their schema
    on their first line)."""
    text = yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False, width=10_000,
                     default_flow_style=False)
    return (schema_line + "\n" if schema_line else "") + text
