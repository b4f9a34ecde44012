"""The play page (``play/``): the page, its scripts, the engine's sources as a zip and the vendored Pyodide runtime.

The page runs the simulator in the browser: a Web Worker loads Pyodide from ``play/pyodide/`` (the npm package
``pyodide`` at the version and integrity hash of ``templates/play/pyodide.lock.json``, fetched once by
``blackpoker fetch-pyodide`` into the user's cache, see ``pipeline/pyodide.py``: the build never goes to the
network), unpacks ``play/blackpoker.zip`` (the pure-Python sources of ``blackpoker.play.browser`` and every module
it imports, never a compiled one) and reads the rules from the site's ``blackpoker-rules.json``. A later visit
restores the engine the first one kept (``static/snapshot.js``).
"""

from __future__ import annotations

import json
import shutil
import zipfile
from pathlib import Path
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.core.paths import PACKAGE, SCENARIOS, TEMPLATES
from blackpoker.infra.fsutil import write_atomic
from blackpoker.pipeline.code import code_closure
from blackpoker.pipeline.pyodide import runtime, runtime_files
from blackpoker.render.pages import page_environment

TEMPLATE_DIR = TEMPLATES / "play"
STATIC = ("play.js", "engine.js", "worker.js", "snapshot.js", "play.css")
ENGINE = "blackpoker.play.browser"  # the worker's entry point: the zip holds it and all it imports
PLAY_DIR = "play"
OPPONENTS = (("greedy", "貪欲法 (初心者向け)"), ("random", "ランダム"), ("ismcts", "情報集合モンテカルロ木探索"))
# the default answers within about a second even on a slow phone: 16 simulations, none started after 0.5 s (the game's
# record keeps every decision, so a game replays the same whatever the device's speed)
STRENGTHS = (("ismcts:4", "弱い (4回)"), ("ismcts:16/500ms", "ふつう (16回以内)"), ("ismcts:48", "強い (48回)"))
DEFAULT_STRENGTH = "ismcts:16/500ms"


def engine_sources() -> list[Path]:
    """The ``.py`` files the worker imports: the entry point's closure (imports read from the sources)."""
    return [path for path in code_closure((ENGINE,)) if path.suffix == ".py"]


def engine_zip() -> bytes:
    """The engine's sources as a zip with fixed dates and order, so the same sources give the same bytes."""
    import io
    buffer = io.BytesIO()
    with zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED) as archive:
        for path in sorted(engine_sources()):
            info = zipfile.ZipInfo(path.relative_to(PACKAGE.parent).as_posix(), date_time=(1980, 1, 1, 0, 0, 0))
            info.compress_type = zipfile.ZIP_DEFLATED
            info.external_attr = 0o644 << 16
            archive.writestr(info, path.read_bytes())
    return buffer.getvalue()


EXAMPLES = "examples"  # the rulebook's worked examples (scenarios/examples/), each playable from its start


def example_positions(rules: Rules, scenarios: Path = SCENARIOS) -> dict[str, dict[str, Any]]:
    """Each worked example's starting position (``scenarios``: the folder of the build's scenarios, core/paths.py's
    scenarios_folder) as the scenario runner sets it up, by the scenario's file stem (the rulebook's
    「この局面から遊ぶ」 opens ``play/index.html?example=STEM``). An example the edition cannot play
    (``simulated: false``) or one about a refused setup has no position."""
    from blackpoker.play.position import encode_state
    from blackpoker.sim.scenario import build_start, load_scenario, unverified
    out: dict[str, dict[str, Any]] = {}
    for path in sorted((scenarios / EXAMPLES).glob("*.yaml")):
        name = f"scenarios/{EXAMPLES}/{path.name}"
        if unverified(rules, path, name) is not None:
            continue
        scenario = load_scenario(path, rules, display_name=name)
        try:
            state = build_start(scenario, rules, record=True)
        except Exception:  # a scenario about a refused setup: no position to play from
            continue
        out[path.stem] = {"title": scenario.title, "section": str(scenario.section), "state": encode_state(state)}
    return out


def regulations(rules: Rules) -> list[dict[str, Any]]:
    """Each format with the frames Table 3.1 allows it (the definitions' frames list their formats)."""
    return [{"id": f.id, "name": f.name, "frames": [{"id": fr.id, "name": fr.name} for fr in rules.frames_for_format(f.id)]}
            for f in rules.formats]


def render_page(rules: Rules) -> str:
    rt = runtime()
    return page_environment(TEMPLATE_DIR).get_template("index.html").render(
        edition=rules.edition, regulations=regulations(rules), opponents=OPPONENTS, strengths=STRENGTHS,
        default_strength=DEFAULT_STRENGTH, runtime_version=rt.version,
        regulations_json=json.dumps(regulations(rules), ensure_ascii=False))


def build_play(rules: Rules, out_dir: Path, scenarios: Path = SCENARIOS, *, runtime_too: bool = True) -> list[Path]:
    """Write ``play/``: the page, its static files, the engine's zip, the starting positions of the worked examples
    in ``scenarios`` and (unless ``runtime_too`` is False, for tests of the pages' links) the runtime."""
    root = out_dir / PLAY_DIR
    written: list[Path] = []

    def write(rel: str, data: str | bytes) -> None:
        path = root / rel
        write_atomic(path, data)
        written.append(path)

    sources = runtime_files() if runtime_too else []
    write("index.html", render_page(rules))
    for name in STATIC:
        write(name, (TEMPLATE_DIR / "static" / name).read_bytes())
    write("blackpoker.zip", engine_zip())
    for stem, position in example_positions(rules, scenarios).items():
        write(f"{EXAMPLES}/{stem}.json", json.dumps(position, ensure_ascii=False, separators=(",", ":")))
    for source in sources:
        if source.name == PACKAGE_INDEX:
            write(f"pyodide/{source.name}", package_index(source.read_text(encoding="utf-8")))
            continue
        target = root / "pyodide" / source.name
        target.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, target)
        written.append(target)
    return written


PACKAGE_INDEX = "pyodide-lock.json"  # Pyodide's index of its packages, read by loadPyodide at every start


def package_index(text: str) -> str:
    """Pyodide's package index without its packages: the engine loads none (pure Python and the standard library),
    so the page need not download and parse the index of some 300 (0.1 MB)."""
    index = json.loads(text)
    return json.dumps({**index, "packages": {}}, separators=(",", ":"))
