"""What the extension's directives share: the loaded model, the failure that carries every located
problem, and the digest file of the ruleset without its prose."""

from __future__ import annotations

from pathlib import Path
from typing import Any, cast

import yaml
from sphinx.config import Config
from sphinx.errors import SphinxError
from sphinx.util.docutils import SphinxDirective

from blackpoker.core.errors import DefinitionError
from blackpoker.core.loader import FILES
from blackpoker.core.model import Rules


class DefinitionsFailed(SphinxError):
    """The definitions do not load: the build stops with every ``file:line:col: …`` problem."""

    category = "BlackPoker definitions error"

    def __init__(self, errors: tuple[DefinitionError, ...]) -> None:
        self.errors = errors
        super().__init__("\n" + "\n".join(str(e) for e in errors))


def rules_of(config: Config) -> Rules:
    """The model loaded for this build (kept as a config value so directives reach it without the app)."""
    return cast(Rules, config.blackpoker_rules)  # set by setup() from the loaded model


class RulesDirective(SphinxDirective):
    """A directive that reads the model and makes its page depend on every definition file."""

    @property
    def rules(self) -> Rules:
        return rules_of(self.config)

    def note_definitions(self, prose: bool = True) -> None:
        """Make this page depend on the definitions; ``prose=False`` for a page that never shows an entry's
        story or flavour text, so editing those does not read it again (it depends on the rest only)."""
        if not prose:
            self.env.note_dependency(str(_without_prose_file(Path(self.env.doctreedir))))
            return
        folder = Path(self.config.blackpoker_definitions)
        for f in FILES:
            self.env.note_dependency(str((folder / f.name).resolve()))


def _without_prose_file(doctrees: Path) -> Path:
    return doctrees / "bp-rules-without-prose.sha256"


def without_prose_digest(env: Any) -> str:
    """The digest written by :func:`_write_without_prose` for this build."""
    return _without_prose_file(Path(env.doctreedir)).read_text(encoding="utf-8").strip()


def read_yaml_list(path: Path, key: str, what: str, error: type[ValueError]) -> list[Any]:
    """The list under ``key`` of a YAML file of the rulebook's source (the errata, the index terms); ``error``
    with the file named when it cannot be read or holds no such list. Its items are the caller's to check."""
    try:
        data: Any = yaml.safe_load(path.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError) as exc:
        raise error(f"{path}: cannot read {what}: {exc}") from None
    items = data.get(key) if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise error(f"{path}: expected a mapping with {'an' if key[0] in 'aeiou' else 'a'} '{key}' list")
    return items
