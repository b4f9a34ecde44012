"""Where the project's files are: the package runs from a checkout (editable install)."""

from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
DEFINITIONS = ROOT / "definitions"
SCHEMAS = ROOT / "schemas"
TEMPLATES = ROOT / "templates"
SOURCE = ROOT / "source"
