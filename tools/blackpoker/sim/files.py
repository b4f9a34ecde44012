"""Reading the simulator's own files (scenarios, game records): one way to parse, validate against their
schema and check that they were written for the loaded ruleset, with every problem located."""

from __future__ import annotations

from pathlib import Path

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.schema import validate
from blackpoker.core.yamlsource import SourceFile, parse_yaml


def read_checked(path: Path, schema: str, rules: Rules, display_name: str | None = None) -> SourceFile:
    """The file parsed and valid against ``schema``, for the loaded ruleset's version; raises
    :class:`DefinitionErrors` with located problems."""
    # a link that leads out of the file's own folder (to /etc/passwd) is refused unread, as in the definitions
    src, problems = parse_yaml(path, display_name or str(path), folder=path.parent)
    if src is None or problems:
        raise DefinitionErrors(problems)
    errors = list(validate(src, schema))
    if errors:
        raise DefinitionErrors(errors)
    if src.data["ruleset"] != rules.edition.version:
        raise DefinitionErrors([src.error(("ruleset",), f"'{src.data['ruleset']}' is not the loaded ruleset "
                                                        f"'{rules.edition.version}'")])
    return src
