"""Where the project's files are: the one module that knows, for a checkout and an installed package alike.

The data the tool reads (the v8.1 definitions, JSON Schemas, Jinja templates, the rulebook's Sphinx source,
the verified scenarios and the tutorial's lessons) is package data under ``blackpoker/data/`` and is found with
:mod:`importlib.resources`. In a checkout those six folders are symbolic links to the repository's
``definitions/``, ``schemas/``, ``templates/``, ``source/``, ``scenarios/`` and ``tutorial/`` (the paths editors and
maintainers use); building a wheel or an sdist copies the files they point at. Paths are resolved, so a
checkout sees the repository folders themselves.

The definitions a command reads are whatever folder the user names, else ``definitions/`` of the current
folder, else these packaged ones (:data:`DEFINITIONS`: the checkout's ``definitions/``, or v8.1 as the wheel
carries it, which ``blackpoker init`` copies into a new rules project). A build of such a project reads the
prose and the scenarios beside its definitions (:func:`prose_folder`, :func:`scenarios_folder`), else the toolkit's.
"""

from __future__ import annotations

from importlib.resources import files
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[1]


def _data(name: str) -> Path:
    folder = files("blackpoker").joinpath("data", name)
    if not isinstance(folder, Path):  # e.g. a zipped install: Sphinx and WeasyPrint need real files
        raise RuntimeError(
            f"blackpoker's package data must be installed as files, not in {folder}")
    return folder.resolve()


DEFINITIONS = _data("definitions")
SCHEMAS = _data("schemas")
TEMPLATES = _data("templates")
SOURCE = _data("source")
SCENARIOS = _data("scenarios")
TUTORIAL = _data("tutorial")  # the guided tutorial's lessons

# The repository around the package, when running from a checkout (editable install).
ROOT = PACKAGE.parents[1]
CHECKOUT = (ROOT / "pyproject.toml").is_file() and (ROOT / "tools" / "blackpoker").resolve() == PACKAGE

_DATA_FOLDERS = {"definitions": DEFINITIONS, "schemas": SCHEMAS, "templates": TEMPLATES, "source": SOURCE, "scenarios": SCENARIOS,
                "tutorial": TUTORIAL}


def build_input(name: str) -> Path | None:
    """A build input named as in the checkout (``tools/blackpoker/sim``, ``source/conf.py``,
    ``pyproject.toml``), wherever it lives; None for what only a checkout has (``pyproject.toml``)."""
    if CHECKOUT:
        return ROOT / name
    first, _, rest = name.partition("/")
    if name.startswith("tools/blackpoker"):
        return PACKAGE / name.removeprefix("tools/blackpoker").lstrip("/")
    if first in _DATA_FOLDERS:
        return _DATA_FOLDERS[first] / rest if rest else _DATA_FOLDERS[first]
    return None


def prose_folder(definitions: Path) -> Path:
    """The rulebook's prose a build of ``definitions`` reads: the project's own ``source/`` beside the definitions
    folder when it holds a Sphinx configuration (``blackpoker init`` copies one there, for the maintainer to
    edit), else the prose the toolkit carries."""
    own = Path(definitions).resolve().parent / "source"
    return own if (own / "conf.py").is_file() else SOURCE


EDITIONS = "editions"  # beside the current edition's definitions: the other editions' definitions folders


def scenarios_folder(definitions: Path) -> Path:
    """The scenarios a build of ``definitions`` verifies and shows (the rulebook's worked examples, the
    verification report, the play page's starting positions): the project's own ``scenarios/`` beside the
    definitions folder when there is one (``blackpoker init`` copies the toolkit's there, for the maintainer to
    edit and add to), else the scenarios the toolkit carries. Another edition's folder (``editions/v8.2``) reads
    the scenarios of the project it belongs to, beside ``editions/``. In a checkout both answers are
    ``scenarios/``."""
    parent = Path(definitions).resolve().parent
    own = (parent.parent if parent.name == EDITIONS else parent) / "scenarios"
    return own if own.is_dir() else SCENARIOS


def existing_inputs(names: tuple[str, ...], definitions: Path | None = None) -> list[Path]:
    """The build inputs among ``names`` that this install has, in order (for cache keys and watching); the
    prose (``source/…``) and the scenarios (``scenarios/…``) those a build of ``definitions`` reads (see
    :func:`prose_folder` and :func:`scenarios_folder`; None: the toolkit's)."""
    own = {} if definitions is None else {"source": prose_folder(definitions), "scenarios": scenarios_folder(definitions)}

    def located(name: str) -> Path | None:
        first, _, rest = name.partition("/")
        if first in own:
            return own[first] / rest if rest else own[first]
        return build_input(name)
    return [path for path in map(located, names) if path is not None and path.exists()]
