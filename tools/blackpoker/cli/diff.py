"""``blackpoker diff OLD NEW``: what changed between two rule sources (definitions folders or official files)."""

from __future__ import annotations

import sys
from pathlib import Path

import click

from blackpoker.cli.common import EXIT_DATA_ERROR, definitions_folder, report_definition_errors
from blackpoker.core.editiondiff import EntryChange, FieldChange, RulesDiff, marked
from blackpoker.core.errors import DefinitionErrors

_folder = click.Path(file_okay=False, path_type=Path)


@click.command("diff")
@click.argument("old", type=_folder)
@click.argument("new", type=_folder)
@click.option("--base", type=_folder, default=None,
              help="Definitions for what official files do not hold (default: definitions/).")
@click.option("--html", "html", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="Also write the differences as one self-contained HTML page (Japanese).")
@click.option("--typography", is_flag=True, help="Show the texts of typography-only changes too.")
def diff(old: Path, new: Path, base: Path | None, html: Path | None, typography: bool) -> None:
    """Entries added, removed and changed between OLD and NEW (each a definitions folder or a folder of the
    official act.yaml …), field by field, changed characters marked [-old-] {+new+}; typography-only changes
    (width, ◇/♢, ~/〜, spaces, line breaks) counted apart."""
    from blackpoker.core.editiondiff import diff_rules
    from blackpoker.official.source import load_source
    base_folder = definitions_folder(base)
    try:
        rules = [load_source(folder, base_folder) for folder in (old, new)]
    except DefinitionErrors as exc:
        report_definition_errors(exc)
    result = diff_rules(*rules)
    click.echo(text_report(result, str(old), str(new), typography=typography), nl=False)
    for warning in result.version_warnings():
        click.echo(f"warning: {warning}", err=True)
    if html is not None:
        from blackpoker.infra.fsutil import write_atomic
        from blackpoker.render.diffpage import diff_html
        if html.is_symlink() or (html.exists() and not html.is_file()):
            click.echo(f"{html}: is not a regular file (a link, a device or a folder); refusing to replace it",
                       err=True)
            sys.exit(EXIT_DATA_ERROR)
        write_atomic(html, diff_html(result))
        click.echo(f"wrote {html}", err=True)


def _who(change: EntryChange) -> str:
    was = f", was {change.old.name}" if change.old.name != change.new.name else ""
    return f"{change.new.kind_name} {change.new.name} ({change.new.id}{was})"


def _field(f: FieldChange) -> list[str]:
    lines = [f"  {f.label}{' (typography only)' if f.typography else ''}"]
    for sign, runs, left, right in (("-", f.old_runs, "[-", "-]"), ("+", f.new_runs, "{+", "+}")):
        text = marked(runs, left, right) if runs else "(none)"
        lines.extend(f"    {sign} {line}" for line in text.split("\n"))
    return lines


def text_report(result: RulesDiff, old: str, new: str, *, typography: bool = False) -> str:
    """The terminal summary: counts, then every change of wording with its texts, the typography-only changes
    by entry and field, and the entries added and removed."""
    o, n = result.old, result.new
    lines = [f"{old} ({o.edition}, {o.version}) → {new} ({n.edition}, {n.version})",
             f"{len(result.changed)} entries changed: {result.wording_changes} changes of wording in "
             f"{len(result.reworded)} entries, {result.typography_changes} of typography only; "
             f"{len(result.added)} added, {len(result.removed)} removed"]
    if result.reworded:
        lines += ["", "Changes of wording:"]
        for change in result.reworded:
            lines.append(_who(change))
            for f in change.wording:
                lines.extend(_field(f))
    typographic = [c for c in result.changed if c.typography]
    if typographic:
        lines += ["", "Typography only (width, ◇/♢, ~/〜, spaces, line breaks):"]
        for change in typographic:
            if typography:
                lines.append(_who(change))
                for f in change.typography:
                    lines.extend(_field(f))
            else:
                lines.append(f"{_who(change)}: {'、'.join(f.label for f in change.typography)}")
    for heading, refs in (("Added:", result.added), ("Removed:", result.removed)):
        if refs:
            lines += ["", heading, *(f"{r.kind_name} {r.name} ({r.id})" for r in refs)]
    return "\n".join(lines) + "\n"
