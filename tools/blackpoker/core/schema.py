"""JSON Schema validation of the definition files, with errors a maintainer can act on."""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any, cast

from jsonschema import Draft7Validator, validators
from jsonschema.exceptions import ValidationError, best_match
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

from blackpoker.core.errors import DefinitionError, PathPart
from blackpoker.core.paths import SCHEMAS
from blackpoker.core.yamlsource import SourceFile


@lru_cache(maxsize=4)
def _registry(schema_dir: Path) -> Registry:
    resources = []
    for path in sorted(schema_dir.glob("*.schema.json")):
        contents = json.loads(path.read_text(encoding="utf-8"))
        resources.append((path.name, Resource.from_contents(contents, default_specification=DRAFT7)))
    return Registry().with_resources(resources)


@lru_cache(maxsize=64)
def anchored(pattern: str) -> re.Pattern[str]:
    """A schema pattern as JSON Schema means it: a final ``$`` ends the text (in Python's ``re`` it also matches
    before a final newline, so ``id: "up\\n"`` would pass and break the build later)."""
    if pattern.endswith("$") and not pattern.endswith("\\$"):
        pattern = pattern[:-1] + r"\Z"
    return re.compile(pattern)


def _pattern(validator: Any, pattern: str, instance: Any, schema: Mapping[str, Any]) -> Iterator[ValidationError]:
    if isinstance(instance, str) and not anchored(pattern).search(instance):
        yield ValidationError(f"{instance!r} does not match {pattern!r}")


# Draft 7 with the pattern keyword anchored as JSON Schema means it (see ``anchored``).
Validator = validators.extend(Draft7Validator, {"pattern": _pattern})  # type: ignore[no-untyped-call]  # untyped in stubs


@lru_cache(maxsize=16)
def validator_for(schema_name: str, schema_dir: Path = SCHEMAS) -> Any:
    """The validator of one schema file, with the other schema files resolvable by name."""
    schema = json.loads((schema_dir / schema_name).read_text(encoding="utf-8"))
    Draft7Validator.check_schema(schema)
    return Validator(schema, registry=_registry(schema_dir))


EXCERPT = 60  # characters of a bad value an error quotes: enough to find it, never a whole file


def _quote(value: Any) -> str:
    text = f"'{value}'" if isinstance(value, str) else json.dumps(value, ensure_ascii=False)
    return text if len(text) <= EXCERPT else text[:EXCERPT - 1] + "…"


_TYPE_NAMES = {"string": "a string", "array": "a list", "object": "a mapping", "integer": "a whole number",
               "boolean": "true or false", "null": "null", "number": "a number"}


def _describe_types(expected: Any) -> str:
    types = expected if isinstance(expected, list) else [expected]
    return " or ".join(_TYPE_NAMES.get(str(t), str(t)) for t in types)


def _expected(error: ValidationError) -> Any:
    """The failed keyword's value in the schema (jsonschema types it as possibly unset)."""
    return error.validator_value


def _schema(error: ValidationError) -> Mapping[str, Any]:
    """The (sub)schema the error is about; a boolean schema has no keywords."""
    return error.schema if isinstance(error.schema, Mapping) else {}


_HOLDS = {str: "text", int: "a number", float: "a number", bool: "true or false", list: "a list", dict: "a mapping"}


def _not_this_file(instance: Any, schema: Mapping[str, Any], expected: Any) -> str:
    """A file whose whole content is of the wrong type (``sim run /etc/passwd``: one line of text): what it holds
    and what the command expects, never a word of it."""
    holds = "nothing (null)" if instance is None else _HOLDS.get(type(instance), type(instance).__name__)
    what = schema.get("title")
    fields = [str(name) for name in schema.get("required", ())]
    wanted = _describe_types(expected) + (f" with {', '.join(fields)}" if fields else "")
    return f"the file holds {holds}, not {_describe_types(expected)}; expected " + (
        f"{what}: {wanted}" if isinstance(what, str) and what else wanted)


def _exclusive_pair(error: ValidationError) -> tuple[str, str] | None:
    """A oneOf of the shape 'either A or B, not both' (formats/frames, cards/min_cards)."""
    names = []
    for branch in _expected(error):
        required = branch.get("required", [])
        if len(required) != 1 or "not" not in branch:
            return None
        names.append(required[0])
    return (names[0], names[1]) if len(names) == 2 else None


def _message(error: ValidationError) -> tuple[str, bool]:
    """The message for one error, and whether it is about a key rather than a value."""
    v, expected, instance = error.validator, _expected(error), cast(Any, error.instance)
    if v == "enum":
        return f"{_quote(instance)} is not one of " + ", ".join(_quote(x) for x in expected), False
    if v == "required":
        missing = [name for name in expected if isinstance(instance, dict) and name not in instance]
        return "missing required field " + ", ".join(f"'{m}'" for m in missing), False
    if v == "additionalProperties":
        allowed = sorted(_schema(error).get("properties", {}))
        extra = sorted(set(instance) - set(allowed)) if isinstance(instance, dict) else []
        return (f"unknown field {', '.join(repr(e) for e in extra)}; expected one of " + ", ".join(allowed)), True
    if v == "type" and not error.absolute_path:  # the whole file: quoting it would quote any file given by mistake
        return _not_this_file(instance, _schema(error), expected), False
    if v == "type":
        found = type(instance).__name__ if instance is not None else "null"
        return f"{_quote(instance)} is {found}; expected {_describe_types(expected)}", False
    if v == "pattern":
        hint = _schema(error).get("description", f"text matching {expected}")
        return f"{_quote(instance)} is not valid; expected {hint[0].lower() + hint[1:]}", False
    if v == "dependencies":
        return error.message.replace("is a dependency of", "is required together with"), False
    if v == "uniqueItems":
        return "has duplicate items; every item must be unique", False
    if v == "minItems":
        return f"has {len(instance)} item(s); expected at least {expected}", False
    if v == "maxItems":
        return f"has {len(instance)} item(s); expected at most {expected}", False
    if v == "minLength":
        return "is empty; expected text", False
    if v == "oneOf":
        pair = _exclusive_pair(error)
        if pair and isinstance(instance, dict):
            a, b = pair
            if a in instance and b in instance:
                return f"has both '{a}' and '{b}'; expected exactly one of them", False
            return f"has neither '{a}' nor '{b}'; expected exactly one of them", False
    return error.message, False


def _leaf(error: ValidationError) -> ValidationError:
    """Descend into oneOf/anyOf to the error that best explains what is wrong."""
    if error.validator in ("oneOf", "anyOf") and error.context and _exclusive_pair(error) is None:
        # A string-or-object branch: report against the branch whose type matches the value.
        typed = [e for e in error.context if e.validator != "type"]
        return _leaf(best_match(typed or error.context))
    return error


def validate(src: SourceFile, schema_name: str, schema_dir: Path = SCHEMAS) -> Iterator[DefinitionError]:
    """Every schema violation of one parsed file, each located at its YAML node."""
    try:  # the same data against the same schema: the same violations (see _VIOLATIONS)
        key = (schema_name, str(schema_dir), hashlib.sha256(json.dumps(src.data).encode()).digest())
    except (TypeError, ValueError):  # not JSON data (the schema refuses it anyway): validated each time
        key = None
    found = _VIOLATIONS.get(key) if key is not None else None
    if found is None:
        found = tuple(_violations(src.data, schema_name, schema_dir))
        if key is not None:
            _VIOLATIONS[key] = found
            if len(_VIOLATIONS) > VIOLATIONS_CACHE:
                del _VIOLATIONS[next(iter(_VIOLATIONS))]
    for path, message, at_key in found:
        yield src.error(path, message, key=at_key)


# Validation is most of a load's time, and one process validates the same data many times (the scenarios for each
# step and check, a copy of the definitions with one file edited): what each schema found in each data, by digest.
VIOLATIONS_CACHE = 512
_VIOLATIONS: dict[tuple[str, str, bytes], tuple[tuple[tuple[PathPart, ...], str, bool], ...]] = {}


def _violations(data: Any, schema_name: str, schema_dir: Path) -> Iterator[tuple[tuple[PathPart, ...], str, bool]]:
    """Every schema violation of ``data``: where (a data path), what, and whether it is located at the key."""
    validator = validator_for(schema_name, schema_dir)
    for raw in validator.iter_errors(data):
        error = _leaf(raw)
        path = tuple(error.absolute_path)
        message, at_key = _message(error)
        if error.validator == "additionalProperties" and isinstance(error.instance, dict):
            allowed = set(_schema(error).get("properties", {}))
            for extra in sorted(set(error.instance) - allowed):
                yield path + (extra,), message.replace(message.split(";")[0], f"unknown field '{extra}'"), True
            continue
        yield path, message, at_key
