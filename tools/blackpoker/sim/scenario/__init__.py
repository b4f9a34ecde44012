"""Scenarios: a starting position, a script of decisions and expectations, read from located YAML.

A malformed file gives ``file:line:col: path: message`` (schema errors and the simulator's own checks alike);
``run_scenario`` plays the script and checks every expectation, returning a Japanese play-by-play.
The package reads in the order of a scenario's life: ``load`` (``refs`` for what its text names), ``start``,
``run``, ``expect``.
"""

from blackpoker.sim.scenario.coverage import Unverified, unverified
from blackpoker.sim.scenario.expect import ExpectationResult, ScenarioResult
from blackpoker.sim.scenario.lesson import Lesson, LessonStep, load_lesson, load_lessons
from blackpoker.sim.scenario.load import load_scenario
from blackpoker.sim.scenario.refs import Scenario
from blackpoker.sim.scenario.run import run_scenario
from blackpoker.sim.scenario.start import build_start

__all__ = ["ExpectationResult", "Lesson", "LessonStep", "Scenario", "ScenarioResult", "Unverified", "build_start",
           "load_lesson", "load_lessons", "load_scenario", "run_scenario", "unverified"]
