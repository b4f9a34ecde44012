"""Every public class, function and method of the rules core, the simulator and the official conversion says why it is
there: a newcomer reads the docstring, not the body."""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("core", "sim", "official")


def _undocumented(path: Path) -> list[str]:
    out: list[str] = []

    def visit(body: list[ast.stmt], prefix: str) -> None:
        for node in body:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and not node.name.startswith("_"):
                if ast.get_docstring(node) is None:
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno}: {prefix}{node.name}")
            elif isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                if ast.get_docstring(node) is None:
                    out.append(f"{path.relative_to(ROOT)}:{node.lineno}: class {prefix}{node.name}")
                visit(node.body, f"{prefix}{node.name}.")

    visit(ast.parse(path.read_text(encoding="utf-8")).body, "")
    return out


def test_every_public_class_and_function_of_core_sim_and_official_has_a_docstring() -> None:
    missing = [line for package in PACKAGES
               for path in sorted((ROOT / "tools" / "blackpoker" / package).rglob("*.py"))
               for line in _undocumented(path)]
    assert not missing, "public classes and functions without a docstring (say why they are there):\n" + "\n".join(missing)
