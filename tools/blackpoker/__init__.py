"""BlackPoker rules toolkit: one validated model of the rules, and everything rendered from it."""

from blackpoker.core.errors import DefinitionError, DefinitionErrors
from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules

__all__ = ["DefinitionError", "DefinitionErrors", "Rules", "load_rules"]
__version__ = "0.1.0"
