"""The guided tutorial (``play/tutorial.html``): its lessons verified by the simulator and written as JSON.

Every lesson of ``tutorial/`` is read and played through here (``sim/scenario/lesson.py``): a lesson whose
moves the rules no longer allow, or whose listed mistakes they no longer refuse, stops the build with the file,
line and column. The page runs the same engine in the browser as the play page does (``play/worker.js``,
``play/tutorial.py``); the rulebook's sections a refusal names are linked from the map written into the page.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

from blackpoker.core.model import Rules
from blackpoker.core.paths import TEMPLATES, TUTORIAL
from blackpoker.infra.fsutil import write_atomic
from blackpoker.render.pages import page_environment
from blackpoker.sim.scenario.lesson import Lesson, load_lessons

PAGE = "tutorial.html"  # in play/, beside the play page: the same worker, styles and engine
STATIC = ("tutorial.js", "tutorial.css")
LESSONS = "tutorial/lessons.json"
LABEL = re.compile(r"^\(sec-(\d+(?:-\d+)*)\)=\s*\n+#+ +(.+?)\s*$", re.MULTILINE)  # a numbered section in source/*.md


def section_links(prose: Path) -> dict[str, dict[str, str]]:
    """Each numbered section of the rulebook → its address from ``play/`` (page and anchor) and its title."""
    links: dict[str, dict[str, str]] = {}
    for page in sorted(prose.glob("*.md")):
        for m in LABEL.finditer(page.read_text(encoding="utf-8")):
            links[m[1].replace("-", ".")] = {"href": f"../{page.stem}.html#sec-{m[1]}", "title": m[2]}
    return links


def lesson_data(stem: str, lesson: Lesson) -> dict[str, Any]:
    """A lesson as the page's engine reads it (``play/tutorial.py``): the position and each step's decision."""
    from blackpoker.play.position import encode_state
    from blackpoker.sim.record import encode_decision
    from blackpoker.sim.requests import regulation_name
    from blackpoker.sim.state import PLAYER_NAMES
    return {"id": stem, "title": lesson.title, "section": lesson.section, "level": regulation_name(lesson.start),
            "learner": PLAYER_NAMES[lesson.learner], "goal": lesson.goal, "done": lesson.done,
            "state": encode_state(lesson.start),
            "steps": [{"player": PLAYER_NAMES[s.player], "say": s.say, "hint": s.hint,
                       "decision": encode_decision(s.player, s.decision)} for s in lesson.steps]}


def render_page(rules: Rules, lessons: list[dict[str, Any]], sections: dict[str, dict[str, str]]) -> str:
    env = page_environment(TEMPLATES / "play")
    levels: dict[str, list[dict[str, Any]]] = {}
    for lesson in lessons:
        levels.setdefault(lesson["level"], []).append(lesson)
    return env.get_template(PAGE).render(
        edition=rules.edition, levels=levels,
        sections_json=json.dumps(sections, ensure_ascii=False, sort_keys=True))


def build_tutorial(rules: Rules, out_dir: Path, prose: Path, folder: Path = TUTORIAL) -> tuple[list[Path], int]:
    """Write the tutorial's page, script, styles and lessons into ``out_dir/play`` (the files, and how many
    lessons); raises :class:`DefinitionErrors` (located) when a lesson does not fit the rules."""
    lessons = [lesson_data(stem, lesson) for stem, lesson in load_lessons(rules, folder)]
    root = out_dir / "play"
    written: list[Path] = []

    def write(rel: str, data: str | bytes) -> None:
        write_atomic(root / rel, data)
        written.append(root / rel)

    write(PAGE, render_page(rules, lessons, section_links(prose)))
    for name in STATIC:
        write(name, (TEMPLATES / "play" / "static" / name).read_bytes())
    write(LESSONS, json.dumps(lessons, ensure_ascii=False, separators=(",", ":")))
    return written, len(lessons)
