"""The compiled simulator (``blackpoker.native``): used after ``make``, never when stale, and playing the same games
as the Python sources."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from blackpoker import native

ROOT = Path(__file__).resolve().parent.parent
PROBE = ("import blackpoker.native as n, blackpoker.sim.engine as e, blackpoker.core.cards as c; "
         "print(n.chosen()); print(e.__file__); print(c.__file__)")


def _probe(tools: Path, **env: str) -> list[str]:
    """What a fresh process importing ``blackpoker`` from ``tools`` runs: the state, and two modules' files."""
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    result = subprocess.run([sys.executable, "-c", PROBE], env=dict(environ, PYTHONPATH=str(tools), **env),
                            capture_output=True, text=True, check=True, cwd=tools)
    return result.stdout.splitlines()


REQUIRED = os.environ.get("BLACKPOKER_NATIVE") == "require"  # CI sets it: there the simulator must be compiled
# Where make could not compile (no C compiler: it warned and went on), the tests of the compiled code skip, saying why.
needs_compiled = pytest.mark.skipif(
    not REQUIRED and native.status() == "pure Python: not compiled (run make)",
    reason="the simulator is not compiled here (make warned: no working C compiler); BLACKPOKER_NATIVE=require "
           "(as in CI) makes this a failure")


@needs_compiled
def test_after_make_the_simulator_runs_compiled() -> None:
    if os.environ.get(native.PURE_VARIABLE):
        pytest.fail(f"{native.PURE_VARIABLE} is set: the compiled simulator is not tested")
    assert native.chosen() == "compiled"
    import blackpoker.sim.engine
    assert not blackpoker.sim.engine.__file__.endswith(".py")


@pytest.fixture
def copied_tools(tmp_path: Path) -> Path:
    """A copy of the built package (sources, extensions, manifest), to edit."""
    tools = tmp_path / "tools"
    shutil.copytree(ROOT / "tools", tools, ignore=shutil.ignore_patterns("__pycache__"))
    return tools


def test_the_manifest_holds_what_the_compiled_modules_import_and_nothing_else() -> None:
    """The compiled modules, the rules model they read and its own imports; not the scenario runner, the
    renderers, the loader or the command line, whose edits must not send the simulator back to its sources."""
    sources = native.sources()
    assert {native.source_of(m).relative_to(native.PACKAGE).as_posix() for m in native.COMPILED} < set(sources)
    assert {"core/model.py", "core/keycard.py", "core/errors.py"} <= set(sources)
    assert not [s for s in sources if s.startswith(("sim/scenario/", "sim/balance/", "render/", "pipeline/", "cli/"))
                or s in ("core/loader.py", "sim/match.py", "sim/replay.py", "native.py", "__init__.py")]


@needs_compiled
def test_an_edit_outside_what_was_compiled_keeps_the_compiled_simulator(copied_tools: Path) -> None:
    with (copied_tools / "blackpoker" / "sim" / "scenario" / "run.py").open("a", encoding="utf-8") as f:
        f.write("\n# edited\n")
    state, engine, _cards = _probe(copied_tools)
    assert state == "compiled" and not engine.endswith(".py")


@pytest.mark.parametrize("compiler", ["/bin/false", "no-such-c-compiler"])
@pytest.mark.parametrize("required", [False, True])
def test_without_a_working_compiler_make_warns_once_and_the_sources_run(tmp_path: Path, compiler: str,
                                                                          required: bool) -> None:
    """make runs scripts/build_native.py: with the C compiler failing or absent it says so in one line and
    exits 0 (the simulator runs its Python sources), unless BLACKPOKER_NATIVE=require asks for the compiled one."""
    shutil.copytree(ROOT / "tools", tmp_path / "tools", ignore=shutil.ignore_patterns("__pycache__", "*.so"))
    (tmp_path / "tools" / "blackpoker" / "native.json").unlink(missing_ok=True)
    (tmp_path / "scripts").mkdir()
    shutil.copy(ROOT / "scripts" / "build_native.py", tmp_path / "scripts")
    environ = {k: v for k, v in os.environ.items() if k not in (native.PURE_VARIABLE, "BLACKPOKER_NATIVE")}
    result = subprocess.run([sys.executable, "scripts/build_native.py"], capture_output=True, text=True, cwd=tmp_path,
                            env=dict(environ, CC=compiler, **({"BLACKPOKER_NATIVE": "require"} if required else {})))
    assert result.returncode == (1 if required else 0), result.stderr
    assert result.stdout == "" and len(result.stderr.splitlines()) == 1, result.stdout + result.stderr
    assert result.stderr.startswith("error: simulator not compiled" if required else "warning: simulator not compiled")
    assert "build/native.log" in result.stderr and (tmp_path / "build" / "native.log").is_file()
    assert not list((tmp_path / "tools").rglob("*.so"))
    state, engine, _cards = _probe(tmp_path / "tools")
    assert state == "pure Python: not compiled (run make)" and engine.endswith("sim/engine.py")


@needs_compiled
def test_a_copy_of_the_built_package_runs_compiled(copied_tools: Path) -> None:
    state, engine, cards = _probe(copied_tools)
    assert state == "compiled" and not engine.endswith(".py") and not cards.endswith(".py")


@needs_compiled
@pytest.mark.parametrize("edited", ["sim/engine.py", "core/model.py"])
def test_an_edited_source_is_run_from_its_python_not_from_the_stale_extension(copied_tools: Path, edited: str) -> None:
    """An edit of a compiled module, or of a module the compiled code reads (the model), makes every compiled
    module run from its source until the next ``make``: all or nothing, never a mix."""
    with (copied_tools / "blackpoker" / edited).open("a", encoding="utf-8") as f:
        f.write("\n# edited\n")
    state, engine, cards = _probe(copied_tools)
    assert state == "pure Python: the compiled modules are older than their sources (run make)"
    assert engine.endswith("sim/engine.py") and cards.endswith("core/cards.py")


@needs_compiled
def test_a_missing_manifest_or_the_variable_means_the_python_sources(copied_tools: Path) -> None:
    assert _probe(copied_tools, BLACKPOKER_PURE="1")[0] == "pure Python: BLACKPOKER_PURE is set"
    (copied_tools / "blackpoker" / "native.json").unlink()
    state, engine, _cards = _probe(copied_tools)
    assert state.startswith("pure Python: no manifest") and engine.endswith(".py")


def test_no_interpreted_class_extends_a_compiled_one() -> None:
    """A compiled class cannot be subclassed by interpreted code ("interpreted classes cannot inherit from
    compiled", raised only when such an object is made, so only the compiled run of the path that makes one would
    show it): every subclass of a class of a compiled module must be compiled too."""
    import importlib
    import inspect
    import pkgutil

    import blackpoker

    found = []
    for info in pkgutil.walk_packages(blackpoker.__path__, "blackpoker."):
        if info.name in native.COMPILED or info.name.endswith("__main__"):
            continue
        module = importlib.import_module(info.name)
        for name, cls in vars(module).items():
            if inspect.isclass(cls) and cls.__module__ == info.name:
                found += [f"{info.name}.{name} extends {base.__module__}.{base.__name__}" for base in cls.__mro__[1:]
                          if base.__module__ in native.COMPILED]
    assert not found, "compile these modules too (native.COMPILED) or drop the compiled base: " + "; ".join(found)


def test_the_python_sources_play_the_golden_games_too() -> None:
    """The compiled run is checked by test_sim_golden.py in this process; the sources in another one."""
    result = subprocess.run([sys.executable, str(ROOT / "tests" / "test_sim_golden.py"), "--check", "lite", "mast",
                             "lite+entry20", "mast+extra"], env=dict(os.environ, BLACKPOKER_PURE="1"),
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr


def test_records_pickle_whether_compiled_or_not() -> None:
    """Rules, states and observations cross processes (the build's workers, Dask) and are kept in the Sphinx
    environment: a compiled frozen record must load again (it refused to before ``core/frozen.py``)."""
    import pickle

    from blackpoker import load_rules
    from blackpoker.sim.engine import apply, legal_decisions
    from blackpoker.sim.match import play_match
    from blackpoker.sim.policies.observation import observe
    from blackpoker.sim.setup import new_game

    rules = load_rules()
    assert pickle.loads(pickle.dumps(rules)) == rules
    state = new_game(rules, "mast", 5, frame="extra")
    seen_pending = seen_stage = False
    for _ in range(400):
        if state.winner is not None:
            break
        state = apply(state, legal_decisions(state)[-1])
        copy = pickle.loads(pickle.dumps(state))
        assert copy.players == state.players and copy.stage == state.stage and copy.pending == state.pending
        assert pickle.loads(pickle.dumps(observe(state, 0))) == observe(state, 0)
        seen_pending |= state.pending is not None
        seen_stage |= bool(state.stage)
    assert seen_pending and seen_stage
    record, summary, _end = play_match(rules, "mast", "extra", 3, ("greedy", "random"))
    assert pickle.loads(pickle.dumps((record, summary))) == (record, summary)


MATCHES = ("import hashlib; from blackpoker import load_rules; from blackpoker.sim.match import play_match; "
           "rules = load_rules(); "
           "print([hashlib.sha256(repr([(p, str(d)) for p, d in play_match(rules, f, fr, seed, pair)[0].players])"
           ".encode()).hexdigest() for f, fr, pair in (('lite', None, ('ismcts:4', 'random')), "
           "('mast', 'extra', ('greedy', 'ismcts:4'))) for seed in (0, 1)])")


@pytest.mark.slow  # many games, twice
def test_the_policies_play_the_same_games_compiled_and_from_the_sources() -> None:
    """ISMCTS and greedy are compiled with the engine: the same seeds must give the same decisions both ways."""
    environ = {k: v for k, v in os.environ.items() if k != native.PURE_VARIABLE}
    runs = [subprocess.run([sys.executable, "-c", MATCHES], capture_output=True, text=True, check=True, cwd=ROOT,
                           env=dict(environ, **({native.PURE_VARIABLE: "1"} if pure else {}))).stdout
            for pure in (False, True)]
    assert runs[0] == runs[1] and runs[0].count("'") == 8
