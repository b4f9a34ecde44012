"""The package's layers: the import contracts in pyproject.toml hold, and no module imports itself round about."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import grimp
import pytest

from layer_picture import block, layer_rows, picture, readme_block

ROOT = Path(__file__).resolve().parents[1]
LINT_IMPORTS = Path(sys.executable).with_name("lint-imports")


def strongly_connected(graph: grimp.ImportGraph) -> list[list[str]]:
    """Tarjan's algorithm over direct imports (imports inside functions count): every cycle's modules."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []

    def visit(module: str) -> None:
        index[module] = low[module] = len(index)
        stack.append(module)
        on_stack.add(module)
        for imported in sorted(graph.find_modules_directly_imported_by(module)):
            if imported not in index:
                visit(imported)
                low[module] = min(low[module], low[imported])
            elif imported in on_stack:
                low[module] = min(low[module], index[imported])
        if low[module] == index[module]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == module:
                    break
            if len(component) > 1:
                found.append(sorted(component))

    for module in sorted(graph.modules):
        if module not in index:
            visit(module)
    return found


def test_the_import_contracts_hold() -> None:
    result = subprocess.run([str(LINT_IMPORTS), "--no-cache"], cwd=ROOT, capture_output=True, text=True)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "0 broken" in result.stdout


def test_the_package_has_no_import_cycle() -> None:
    assert strongly_connected(grimp.build_graph("blackpoker", cache_dir=None)) == []


@pytest.mark.parametrize(("edges", "cycles"), [
    ({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}, [["a", "b", "c"]]),
    ({"a": {"b"}, "b": {"c"}, "c": set()}, []),
    ({"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c"}}, [["a", "b"], ["c", "d"]]),
])
def test_the_cycle_finder_finds_cycles(edges: dict[str, set[str]], cycles: list[list[str]]) -> None:
    graph = grimp.ImportGraph()
    for module in edges:
        graph.add_module(module)
    for importer, imported in edges.items():
        for target in imported:
            graph.add_import(importer=importer, imported=target)
    assert sorted(strongly_connected(graph)) == cycles


@pytest.mark.parametrize(("contract", "files", "reported"), [
    ("layers", {"core/bad_import.py": "import blackpoker.pipeline.build\n"},
     "blackpoker.core.bad_import -> blackpoker.pipeline.build"),
    ("layers", {"sphinxext/bad_import.py": "import blackpoker.pipeline.rulebook\n"},
     "blackpoker.sphinxext.bad_import -> blackpoker.pipeline.rulebook"),
    ("layers", {"sim/bad_import.py": "import blackpoker.official.reader\n"},
     "blackpoker.sim.bad_import -> blackpoker.official.reader"),
    ("layers", {"infra/bad_import.py": "import blackpoker.core.paths\n"},
     "blackpoker.infra.bad_import -> blackpoker.core.paths"),
    ("acyclic", {"sim/bad_import.py": "import blackpoker.sim.balance.study\n",
                 "sim/balance/bad_import.py": "import blackpoker.sim.bad_import\n"},
     "- .balance -> .bad_import (1 import)"),
    ("engine-libraries", {"sim/bad_import.py": "import jinja2\n"}, "blackpoker.sim.bad_import -> jinja2"),
    ("engine-libraries", {"official/bad_import.py": "import click\n"}, "blackpoker.official.bad_import -> click"),
])
def test_a_forbidden_import_breaks_a_contract(tmp_path: Path, contract: str, files: dict[str, str], reported: str) -> None:
    """The contracts are live: each is broken by one import it forbids (checked on a copy of the package)."""
    copy = tmp_path / "tools"
    subprocess.run(["cp", "-r", str(ROOT / "tools"), str(copy)], check=True)
    for name, text in files.items():
        (copy / "blackpoker" / name).write_text(text)
    (tmp_path / "pyproject.toml").write_text((ROOT / "pyproject.toml").read_text(encoding="utf-8"), encoding="utf-8")
    result = subprocess.run([str(LINT_IMPORTS), "--no-cache", "--contract", contract], cwd=tmp_path, capture_output=True,
                            text=True, env={"PYTHONPATH": str(copy), "PATH": "/usr/bin:/bin"})
    assert result.returncode == 1, result.stdout + result.stderr
    assert "0 kept, 1 broken" in result.stdout
    assert reported in result.stdout, result.stdout


def test_checking_definitions_and_loading_the_build_do_not_load_the_engine() -> None:
    """`blackpoker check` and the build read what the simulator covers (sim.gaps), not the game itself."""
    code = ("import sys\n"
            "from blackpoker.cli.common import load\n"
            "import blackpoker.pipeline.build\n"
            "rules = load(None, simulator=True)\n"
            "assert rules.actions\n"
            "print(sorted(m for m in sys.modules if m.startswith('blackpoker.sim.')))\n")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True,
                            env={**os.environ, "BLACKPOKER_PURE": "1"})
    assert result.returncode == 0, result.stderr
    loaded = result.stdout
    assert "blackpoker.sim.gaps" in loaded
    assert "blackpoker.sim.engine" not in loaded and "blackpoker.sim.selfplay" not in loaded, loaded


def test_every_module_has_its_own_file_name() -> None:
    """A name says which module it is (``render.py`` in two packages made readers open the wrong one)."""
    names: dict[str, list[str]] = {}
    for path in sorted((ROOT / "tools" / "blackpoker").rglob("*.py")):
        if path.name != "__init__.py":
            names.setdefault(path.name, []).append(path.relative_to(ROOT).as_posix())
    assert {name: paths for name, paths in names.items() if len(paths) > 1} == {}


def test_the_simulators_names_load_on_first_use() -> None:
    import blackpoker.sim as sim
    from blackpoker.sim import engine, gaps

    assert [name for name in sim.__all__ if getattr(sim, name, None) is None] == []
    assert sim.apply is engine.apply and sim.missing_effects is gaps.missing_effects
    missing = "nothing"
    with pytest.raises(AttributeError, match="no attribute 'nothing'"):
        getattr(sim, missing)


def test_the_readme_shows_the_layers_as_the_contracts_state_them() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert readme_block(readme) == block(pyproject), "redraw it: .venv/bin/python tests/layer_picture.py --write"


def test_the_layer_contract_names_every_package_and_the_picture_follows_it() -> None:
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    named = {name for row in layer_rows(pyproject) for name in row}
    package = ROOT / "tools" / "blackpoker"
    children = {p.name for p in package.iterdir() if (p / "__init__.py").is_file() and p.name != "data"}
    children |= {p.stem for p in package.glob("*.py") if p.name != "__init__.py"}
    assert named == children
    swapped = pyproject.replace('"sphinxext | play",\n    "render",', '"render",\n    "sphinxext | play",')
    assert swapped != pyproject and picture(swapped) != picture(pyproject)
    assert picture(swapped).index("│ render ") < picture(swapped).index("│ sphinxext ")
