"""The output does not depend on Python's string hashing: set and dict orders must never reach a page."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

# In a fresh interpreter: the JSON export, the action lists' HTML and every scenario's play-by-play, hashed.
SCRIPT = """
import hashlib, sys, tempfile
from pathlib import Path
from blackpoker import load_rules
from blackpoker.core.export import export_json
from blackpoker.render.actionlist.html import build_html
from blackpoker.sim.scenario import load_scenario, run_scenario
rules = load_rules()
digest = hashlib.sha256(export_json(rules).encode())
with tempfile.TemporaryDirectory() as out:
    for path in sorted(build_html(rules, Path(out))):
        digest.update(str(path.relative_to(out)).encode() + path.read_bytes())
for path in sorted(Path(sys.argv[1]).rglob("*.yaml")):
    digest.update("\\n".join(run_scenario(rules, load_scenario(path, rules, str(path))).transcript).encode())
print(digest.hexdigest())
"""


def _digest(seed: str) -> str:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    result = subprocess.run([sys.executable, "-c", SCRIPT, str(ROOT / "scenarios")], env=env,
                            capture_output=True, text=True, check=True)
    return result.stdout.strip()


@pytest.mark.build  # every action list's HTML, in two processes
def test_output_is_identical_under_different_hash_seeds() -> None:
    digests = {seed: _digest(seed) for seed in ("0", "1", "4242")}
    assert len(set(digests.values())) == 1, digests
    assert len(next(iter(digests.values()))) == 64
