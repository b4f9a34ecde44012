"""The README's picture of the package's layers, drawn from the import contracts in pyproject.toml.

``tests/test_layers.py`` checks that the README shows exactly this picture; after a change of the contracts,
``.venv/bin/python tests/layer_picture.py --write`` redraws it in the README.
"""

from __future__ import annotations

import re
import sys
import textwrap
import tomllib
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
BEGIN = "<!-- layers: drawn from the import contracts in pyproject.toml by tests/layer_picture.py, which test_layers.py runs -->"
END = "<!-- /layers -->"
INNER = 50  # characters inside the box


def contracts(pyproject: str) -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = tomllib.loads(pyproject)["tool"]["importlinter"]["contracts"]
    return found


def layer_rows(pyproject: str) -> list[list[str]]:
    """The ``layers`` contract's layers, top to bottom, each as its independent siblings."""
    (layers,) = [c for c in contracts(pyproject) if c["type"] == "layers"]
    return [[name.strip() for name in layer.split("|")] for layer in layers["layers"]]


def _cells(row: list[str]) -> tuple[list[int], list[str]]:
    """Where the row's inner borders fall (columns inside the box) and its cells' text."""
    width = (INNER - (len(row) - 1)) // len(row)
    borders = [(i + 1) * (width + 1) - 1 for i in range(len(row) - 1)]
    edges = [0, *[b + 1 for b in borders], INNER + 1]
    texts = [f" {name}".ljust(edges[i + 1] - edges[i] - 1) for i, name in enumerate(row)]
    if any(len(text) > edges[i + 1] - edges[i] - 1 for i, text in enumerate(texts)):
        raise ValueError(f"a name of {row} is too long for the picture: widen INNER")
    return borders, texts


def _rule(left: str, right: str, above: list[int], below: list[int], up: str, down: str, both: str) -> str:
    line = []
    for column in range(INNER):
        if column in above and column in below:
            line.append(both)
        elif column in above:
            line.append(up)
        elif column in below:
            line.append(down)
        else:
            line.append("─")
    return left + "".join(line) + right


def picture(pyproject: str) -> str:
    """The layers as a box, top to bottom, then what the third-party contracts forbid whom."""
    rows = layer_rows(pyproject)
    lines = ["blackpoker: each layer imports only the layers under it; side by side, never each other;",
             "no import cycle between sibling packages or modules anywhere."]
    previous: list[int] | None = None
    for row in rows:
        borders, texts = _cells(row)
        if previous is None:
            lines.append(_rule("┌", "┐", [], borders, "┴", "┬", "┼"))
        else:
            lines.append(_rule("├", "┤", previous, borders, "┴", "┬", "┼"))
        lines.append("│" + "│".join(texts) + "│")
        previous = borders
    lines.append(_rule("└", "┘", previous or [], [], "┴", "┬", "┼"))
    for contract in contracts(pyproject):
        if contract["type"] != "forbidden":
            continue
        forbidden = [m for m in contract["forbidden_modules"] if not m.startswith("blackpoker")]
        if not forbidden:
            continue
        sources = [m.removeprefix("blackpoker.") for m in contract["source_modules"]]
        who = f"{', '.join(sources[:-1])} and {sources[-1]} never import" if len(sources) > 1 else f"{sources[0]} never imports"
        lines.extend(textwrap.wrap(f"{who}: {', '.join(forbidden)}", 100,
                                   subsequent_indent="    "))
    return "\n".join(lines) + "\n"


def block(pyproject: str) -> str:
    """The README's block: the markers around the picture as a text code block."""
    return f"{BEGIN}\n```text\n{picture(pyproject)}```\n{END}"


def readme_block(readme: str) -> str | None:
    """The block the README holds now (None when it has none)."""
    match = re.search(re.escape(BEGIN) + r".*?" + re.escape(END), readme, re.S)
    return match.group(0) if match else None


def main() -> int:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    if sys.argv[1:] == ["--write"]:
        readme = README.read_text(encoding="utf-8")
        current = readme_block(readme)
        if current is None:
            print(f"README.md has no block between {BEGIN!r} and {END!r}", file=sys.stderr)
            return 1
        README.write_text(readme.replace(current, block(pyproject)), encoding="utf-8")
        return 0
    print(picture(pyproject), end="")
    return 0


if __name__ == "__main__":
    sys.exit(main())
