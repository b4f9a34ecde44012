"""The play page in a real browser (Chromium through Playwright, served over HTTP): whole games against each
opponent by clicking offered moves, at phone and desktop sizes, with no console error; the browser's game is the
same game in CPython; undo, save, load, the link and ``blackpoker sim replay``; keyboard only."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from blackpoker.core.loader import load_rules
from blackpoker.core.model import Rules
from blackpoker.play.browser import final_state
from blackpoker.play.session import resume
from browsers import MARKS, EnginePage, module_browser
from playsite import make_site, runtime_missing, served

pytestmark = [*MARKS, pytest.mark.skipif(runtime_missing() is not None, reason=str(runtime_missing()))]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LOAD_TIMEOUT = 120_000  # ms: Pyodide compiles its WebAssembly on the first load (seconds on a busy machine)
READY = "document.querySelector('[data-game-over]') || (!document.body.classList.contains('busy') && " \
        "document.querySelector('#moves button[data-move]'))"


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture(scope="module")
def base(rules: Rules, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    site = make_site(rules, tmp_path_factory.mktemp("site"))
    with served(site) as address:
        yield address + "play/index.html"


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    yield from module_browser()


Page = EnginePage


def start_game(pg: Any, opponent: str, seed: int, *, fmt: str = "lite", frame: str = "", strength: str | None = None,
               starts: str = "human") -> None:
    pg.select_option("#format", fmt)
    pg.select_option("#frame", frame)
    pg.select_option("#opponent", opponent)
    if strength:
        pg.select_option("#strength", strength)
    pg.select_option("#starts", starts)
    pg.fill("#seed", str(seed))
    pg.click("#start")
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT)


def click_move(pg: Any, rng: random.Random) -> None:
    """Click one offered move at random: open the card and action it sits under first, as a person would."""
    buttons = pg.query_selector_all("#moves button[data-move]")
    pick = rng.choice(buttons)
    for summary in pick.evaluate_handle("""b => { const out = []; for (let d = b.closest('details'); d;
        d = d.parentElement.closest('details')) if (!d.open) out.unshift(d.querySelector(':scope > summary'));
        return out; }""").get_properties().values():
        summary.as_element().click()
    pick.click()
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT)


def play_to_the_end(pg: Any, seed: int, limit: int = 3000) -> int:
    rng = random.Random(seed)
    clicks = 0
    while not pg.query_selector("[data-game-over]"):
        assert clicks < limit, "the game did not end"
        click_move(pg, rng)
        clicks += 1
    return clicks


def same_game_in_cpython(rules: Rules, p: Page) -> dict[str, Any]:
    record = p.ask({"command": "record"})["record"]
    browser_state = p.ask({"command": "final"})["state"]
    assert final_state(resume(rules, record).state) == browser_state
    return dict(record)


@pytest.mark.parametrize(("opponent", "strength", "viewport"), [
    ("random", None, PHONE), ("random", None, DESKTOP),
    ("greedy", None, PHONE), ("greedy", None, DESKTOP),
    ("ismcts", "ismcts:4", PHONE), ("ismcts", "ismcts:4", DESKTOP),
], ids=["random-390", "random-1280", "greedy-390", "greedy-1280", "ismcts-390", "ismcts-1280"])
def test_a_whole_game_by_clicking_offered_moves(browser: Any, base: str, rules: Rules, opponent: str,
                                                strength: str | None, viewport: dict[str, int]) -> None:
    p = Page(browser, viewport)
    pg = p.open(base)
    start_game(pg, opponent, 40 + viewport["width"], strength=strength)
    play_to_the_end(pg, viewport["width"])
    over = pg.locator("[data-game-over]")
    winner = over.get_attribute("data-game-over")
    assert winner in ("A", "B")
    assert f"{winner}の勝利" in over.inner_text()
    record = same_game_in_cpython(rules, p)
    assert record["result"]["winner"] == winner
    assert pg.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "no sideways scrolling"
    assert not p.errors, p.errors
    p.context.close()


def test_frames_allowed_by_table_3_1_only(browser: Any, base: str, rules: Rules) -> None:
    p = Page(browser, PHONE)
    pg = p.open(base)
    for fmt in rules.formats:
        pg.select_option("#format", fmt.id)
        offered = pg.eval_on_selector_all("#frame option", "os => os.map(o => o.value)")
        assert offered == ["", *(f.id for f in rules.frames_for_format(fmt.id))]
    start_game(pg, "greedy", 3, fmt="mast", frame="extra")
    play_to_the_end(pg, 3)
    same_game_in_cpython(rules, p)
    assert not p.errors, p.errors
    p.context.close()


def test_undo_save_load_link_and_the_command_line(browser: Any, base: str, rules: Rules, tmp_path: Path) -> None:
    p = Page(browser, DESKTOP, accept_downloads=True)
    pg = p.open(base)
    start_game(pg, "greedy", 77)
    rng = random.Random(1)
    for _ in range(3):
        click_move(pg, rng)
    before = p.ask({"command": "record"})["record"]["decisions"]
    click_move(pg, rng)
    pg.click("#undo")
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT)
    assert p.ask({"command": "record"})["record"]["decisions"] == before
    play_to_the_end(pg, 2)
    winner = pg.get_attribute("[data-game-over]", "data-game-over")

    with pg.expect_download() as download:
        pg.click("#save")
    saved = tmp_path / "game.json"
    download.value.save_as(saved)
    done = subprocess.run([sys.executable, "-m", "blackpoker", "sim", "replay", str(saved)], capture_output=True,
                          text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr  # 1 when the end differs from the recorded result
    record = json.loads(saved.read_text(encoding="utf-8"))
    assert record["result"]["winner"] == winner
    final = p.ask({"command": "final"})["state"]

    pg.click("#share")
    pg.wait_for_function("location.hash.startsWith('#game=')")
    link = pg.evaluate("location.href")
    q = Page(browser, PHONE)
    other = q.open(link)
    other.wait_for_selector("[data-game-over]", timeout=LOAD_TIMEOUT)
    assert q.ask({"command": "final"})["state"] == final

    pg.click("#again")
    pg.set_input_files("#load", str(saved))
    pg.wait_for_selector("[data-game-over]", timeout=LOAD_TIMEOUT)
    assert p.ask({"command": "final"})["state"] == final
    assert not p.errors and not q.errors, p.errors + q.errors
    p.context.close()
    q.context.close()


def test_keyboard_only(browser: Any, base: str) -> None:
    p = Page(browser, PHONE)
    pg = p.open(base)
    pg.focus("#format")
    for _ in range(5):  # → フレーム, 相手, (強さ: disabled, skipped) 先攻, シード, 対戦を始める
        pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.id") == "start"
    pg.keyboard.press("Enter")
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT)
    made = 0
    for _ in range(40):
        if pg.query_selector("[data-game-over]"):
            break
        pg.focus("#moves")
        # tab to the first offered move, opening a card or action on the way with Enter (a big hand opens many:
        # the budget is generous, and Enter is pressed only on a move, never on a link that would leave the page)
        for _ in range(600):
            pg.keyboard.press("Tab")
            tag = pg.evaluate("[document.activeElement.tagName, document.activeElement.dataset.move ?? null, "
                              "document.activeElement.parentElement.open ?? null]")
            if tag[0] == "BUTTON" and tag[1] is not None:
                break
            if tag[0] == "SUMMARY" and not tag[2]:
                pg.keyboard.press("Enter")
        assert tag[0] == "BUTTON" and tag[1] is not None, f"no offered move reached by Tab (last: {tag})"
        pg.keyboard.press("Enter")
        pg.wait_for_function(READY, timeout=LOAD_TIMEOUT)
        made += 1
    assert made >= 10
    assert p.ask({"command": "record"})["record"]["decisions"]
    assert not p.errors, p.errors
    p.context.close()


def test_play_from_every_worked_example(browser: Any, base: str, rules: Rules) -> None:
    """The rulebook's 「この局面から遊ぶ」 link opens the page at the example's start (the scenario's own setup)."""
    from blackpoker.core.paths import SCENARIOS
    from blackpoker.sim.scenario import build_start, load_scenario
    stems = sorted(p.stem for p in (SCENARIOS / "examples").glob("*.yaml"))
    p = Page(browser, PHONE)
    pg = p.open(f"{base}?example={stems[0]}")
    pg.wait_for_selector("#example-title:not([hidden])", timeout=LOAD_TIMEOUT)
    for stem in stems:
        position = pg.evaluate("s => fetch(`examples/${s}.json`).then(r => r.json())", stem)
        answer = p.ask({"command": "position", "position": position, "opponent": "greedy"})
        assert answer["ok"], (stem, answer)
        start = build_start(load_scenario(SCENARIOS / "examples" / f"{stem}.yaml", rules), rules)
        assert p.ask({"command": "final"})["state"] == final_state(start), stem
    pg.goto(f"{base}?example={stems[1]}")
    pg.wait_for_function("window.bpPlay && window.bpPlay.ready", timeout=LOAD_TIMEOUT)
    pg.wait_for_selector("#example-title:not([hidden])", timeout=LOAD_TIMEOUT)
    start = build_start(load_scenario(SCENARIOS / "examples" / f"{stems[1]}.yaml", rules), rules)
    assert p.ask({"command": "final"})["state"] == final_state(start)
    play_to_the_end(pg, 5)
    assert not p.errors, p.errors
    p.context.close()
