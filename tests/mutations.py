"""What the fuzz tests do to valid data: every path into it, and a few random edits (replace, delete, duplicate)."""

from __future__ import annotations

import copy
import json
import unicodedata
from typing import Any

import yaml
from hypothesis import strategies as st


def data_paths(node: Any, prefix: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
    """Every path into nested dicts and lists, the empty path (the whole) first."""
    out = [prefix]
    if isinstance(node, dict):
        for k, v in node.items():
            out += data_paths(v, prefix + (k,))
    elif isinstance(node, list):
        for i, v in enumerate(node):
            out += data_paths(v, prefix + (i,))
    return out


def mutate(draw: st.DrawFn, data: Any, values: st.SearchStrategy[Any],
           actions: tuple[str, ...] = ("replace", "delete", "duplicate")) -> Any:
    """A copy of ``data`` with one to three edits at drawn paths: a value replaced by one of ``values``, deleted,
    or (in a list) duplicated at the end."""
    data = copy.deepcopy(data)
    for _ in range(draw(st.integers(1, 3))):
        paths = [p for p in data_paths(data) if p]
        if not paths:
            break
        path = draw(st.sampled_from(paths))
        parent = data
        for part in path[:-1]:
            parent = parent[part]
        action = draw(st.sampled_from(actions))
        if action == "replace":
            parent[path[-1]] = draw(values)
        elif action == "delete":
            del parent[path[-1]]
        elif isinstance(parent, list):
            parent.append(copy.deepcopy(parent[path[-1]]))
    return data


class Digits(str):
    """A number written out in full, however long: dumped as a plain YAML or JSON number, not as text (Python
    makes no text of an integer past 4,300 digits, so a fuzzer cannot hold one as an int)."""


class _Dumper(yaml.SafeDumper):
    pass


_Dumper.add_representer(Digits, lambda dumper, value: dumper.represent_scalar("tag:yaml.org,2002:int", str(value)))


def dump_yaml(data: Any) -> str:
    """``data`` as YAML, as the fuzzers write it (a :class:`Digits` as a number)."""
    return yaml.dump(data, Dumper=_Dumper, allow_unicode=True, sort_keys=False)


def dump_json(data: Any) -> str:
    """``data`` as JSON (a :class:`Digits` as a number)."""
    numbers: list[str] = []

    def collect(node: Any) -> None:
        if isinstance(node, Digits):
            numbers.append(str(node))
        elif isinstance(node, dict):
            for value in node.values():
                collect(value)
        elif isinstance(node, list):
            for value in node:
                collect(value)

    collect(data)
    text = json.dumps(data, ensure_ascii=False)
    for number in numbers:
        text = text.replace(json.dumps(number), number)
    return text


# What a careless or hostile file holds where a value is expected, besides what the strategies draw at random:
# control and terminal escapes, bidi and invisible characters, decomposed (NFD) look-alikes, numbers past Python's
# 4,300-digit limit, empty and space-only text, a date that is no day of the calendar.
HOSTILE_VALUES: list[str] = [
    "", " ", "\u3000", "\t", "\n", "\x1b]52;c;ZWNobyBwd25lZA==\x07\x1b[2J", "a\x00b", "a\x7fb", "a\x85b", "OK\rFAIL",
    "a\u202eb", "a\u2028b", "ス\u200bラ", "ド\u200dロー", "\ufeffドロー", "ド\u034fロー", "♠\ufe0fA", "か\u3099",
    unicodedata.normalize("NFD", "ドロー"), "2026-13-99", "2026/13/99",
    Digits("1" * 5000), Digits("-" + "9" * 4301), Digits("0x" + "f" * 5000),
]
HOSTILE = st.sampled_from(HOSTILE_VALUES)
