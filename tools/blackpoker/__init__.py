"""BlackPoker rules toolkit: one validated model of the rules, and everything rendered from it."""

from blackpoker import native

native.install()  # before any compiled module is imported: stale extensions must not be

from blackpoker.core.errors import DefinitionError, DefinitionErrors  # noqa: E402
from blackpoker.core.loader import load_rules  # noqa: E402
from blackpoker.core.model import Rules  # noqa: E402

__all__ = ["DefinitionError", "DefinitionErrors", "Rules", "load_rules"]
__version__ = "0.1.0"
