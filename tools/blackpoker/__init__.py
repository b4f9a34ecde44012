"""BlackPoker rules toolkit: one validated model of the rules, and everything rendered from it."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from blackpoker import native

native.install()  # before any compiled module is imported: stale extensions must not be

if TYPE_CHECKING:
    from blackpoker.core.errors import DefinitionError, DefinitionErrors
    from blackpoker.core.loader import load_rules
    from blackpoker.core.model import Rules

__all__ = ["DefinitionError", "DefinitionErrors", "Rules", "load_rules"]
__version__ = "0.1.0"


def __getattr__(name: str) -> Any:
    """The names above, imported on first use: the loader needs PyYAML and jsonschema, which the play page's
    engine (the simulator in the browser, ``blackpoker.play``) has not, and never asks for."""
    if name == "load_rules":
        from blackpoker.core.loader import load_rules
        return load_rules
    if name in ("DefinitionError", "DefinitionErrors"):
        from blackpoker.core import errors
        return getattr(errors, name)
    if name == "Rules":
        from blackpoker.core.model import Rules
        return Rules
    raise AttributeError(f"module 'blackpoker' has no attribute {name!r}")
