"""Reading the simulator's own files (scenarios, game records): one way to parse, validate against their
schema and check that they were written for the loaded ruleset, with every problem located."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from blackpoker.core.errors import DefinitionErrors
from blackpoker.core.model import Rules
from blackpoker.core.schema import validate
from blackpoker.core.yamlsource import SourceFile, parse_yaml


def read_checked(path: Path, schema: str, rules: Rules, display_name: str | None = None) -> SourceFile:
    """The file parsed and valid against ``schema``, for the loaded ruleset's version; raises
    :class:`DefinitionErrors` with located problems."""
    # a link that leads out of the file's own folder (to /etc/passwd) is refused unread, as in the definitions
    return checked(parsed(path, display_name), schema, rules)


def parsed(path: Path, display_name: str | None = None) -> SourceFile:
    """The file parsed (not yet validated); raises :class:`DefinitionErrors` with located problems."""
    src, problems = parse_yaml(path, display_name or str(path), folder=path.parent)
    if src is None or problems:
        raise DefinitionErrors(problems)
    return src


def checked(src: SourceFile, schema: str, rules: Rules) -> SourceFile:
    """A parsed file valid against ``schema``, for the loaded ruleset's version (see :func:`read_checked`)."""
    errors = list(validate(src, schema))
    if errors:
        raise DefinitionErrors(errors)
    if rules.edition.version not in editions_of(src.data):
        raise DefinitionErrors([src.error(("ruleset",), f"'{', '.join(editions_of(src.data))}' is not the loaded "
                                                        f"ruleset '{rules.edition.version}'")])
    return src


def editions_of(data: Any) -> tuple[str, ...]:
    """The editions a scenario or record says it holds in: its ``ruleset``, one version or a list of them."""
    value = data.get("ruleset") if isinstance(data, dict) else None
    if isinstance(value, str):
        return (value,)
    if isinstance(value, list):
        return tuple(str(v) for v in value)
    return ()
