"""Make the definitions of another edition from an official act.yaml and the current edition's definitions.

The official act.yaml holds an edition's format entries (actions, characters, fogs); everything else (the
frames, their actions and trumps, the tables, the rulings) is taken from the base. This is how
``editions/v8.2/`` was made, once, from the official repository's act.yaml of 第8.2版 and ``definitions/``:

    .venv/bin/python scripts/make_edition.py ../shared/official/act.yaml editions/v8.2 --simulated

It runs ``blackpoker export --format official`` on the base, puts the given act.yaml in place of the base's,
and runs ``blackpoker import`` on the result (with the base as ``--base``), so the edition is exactly what the
import makes of it. The official files themselves are not kept: the import's ``official-source/`` (the files as
read, for a byte-for-byte export) is removed, as nothing in the official layout belongs in the repository.
``--simulated`` then declares the edition played by the simulator (``simulated: true``).
"""

from __future__ import annotations

import argparse
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
BLACKPOKER = [sys.executable, "-m", "blackpoker"]
SIMULATED = ("  simulated: false\n", "  simulated: true\n")
SOURCE = "official-source"  # what the import keeps of the official files


def make(act: Path, out: Path, base: Path, *, simulated: bool) -> None:
    with tempfile.TemporaryDirectory(prefix="make-edition-") as tmp:
        official = Path(tmp) / "official"
        subprocess.run([*BLACKPOKER, "export", str(base), "--format", "official", "-o", str(official)], check=True)
        shutil.copyfile(act, official / "act.yaml")
        (official / "version.json").unlink()  # the edition is act.yaml's (data: ver, lastupdate)
        result = subprocess.run([*BLACKPOKER, "import", str(official), "-o", str(out), "--base", str(base)],
                                capture_output=True, text=True)
        notes = sum(line.startswith("note:") for line in result.stderr.splitlines())
        print("\n".join(line for line in result.stderr.splitlines() if not line.startswith("note:")),
              f"({notes} notes)", sep="\n", file=sys.stderr)
        if result.returncode != 0:
            sys.exit(result.returncode)
    if (out / SOURCE).is_dir():
        shutil.rmtree(out / SOURCE)
    if simulated:
        ruleset = out / "ruleset.yaml"
        text = ruleset.read_text(encoding="utf-8")
        if SIMULATED[0] not in text:
            sys.exit(f"{ruleset}: no '{SIMULATED[0].strip()}' to replace")
        ruleset.write_text(text.replace(*SIMULATED), encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("act", type=Path, help="the official act.yaml of the edition")
    parser.add_argument("out", type=Path, help="the definitions folder to write (replaced whole)")
    parser.add_argument("--base", type=Path, default=ROOT / "definitions", help="the current edition")
    parser.add_argument("--simulated", action="store_true", help="declare the edition played by the simulator")
    args = parser.parse_args()
    make(args.act, args.out, args.base, simulated=args.simulated)


if __name__ == "__main__":
    main()
