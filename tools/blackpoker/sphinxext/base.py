"""What the extension's directives share: the loaded model, the failure that carries every located
problem, and the digest file of the ruleset without its prose."""

from __future__ import annotations

from pathlib import Path
from typing import Any

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
    return config.blackpoker_rules  # type: ignore[no-any-return]


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
