"""The GitHub Actions workflow cannot run here: check its syntax and that it runs the README's commands."""

from __future__ import annotations

import re

import yaml

from blackpoker.core.paths import ROOT


def _readme_commands() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## The two commands.*?```sh\n(.*?)```", readme, re.S)
    assert block, "README lost its two commands"
    return [line.split("#")[0].strip() for line in block.group(1).splitlines() if line.strip()]


def test_readme_has_exactly_two_commands() -> None:
    assert _readme_commands() == ["make", "make test"]


def test_ci_runs_the_readme_test_command() -> None:
    script = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert re.search(r"^make test$", script, re.M)


def test_workflow_is_valid_and_calls_the_readme_commands() -> None:
    workflow = yaml.safe_load((ROOT / ".github" / "workflows" / "pages.yml").read_text(encoding="utf-8"))
    triggers = workflow[True] if True in workflow else workflow["on"]  # YAML 1.1 reads `on` as true
    assert "push" in triggers and "workflow_dispatch" in triggers
    build, deploy = workflow["jobs"]["build"], workflow["jobs"]["deploy"]
    runs = [step["run"] for step in build["steps"] if "run" in step]
    for command in _readme_commands():
        assert command in runs
    uses = [step.get("uses", "") for job in (build, deploy) for step in job["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact@") for u in uses)
    assert any(u.startswith("actions/deploy-pages@") for u in uses)
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    upload = next(s for s in build["steps"] if s.get("uses", "").startswith("actions/upload-pages-artifact@"))
    assert upload["with"]["path"] == "build/site"
