"""What the fuzz tests do to valid data: every path into it, and a few random edits (replace, delete, duplicate)."""

from __future__ import annotations

import copy
from typing import Any

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
