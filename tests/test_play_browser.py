"""The play page in a real browser (Chromium through Playwright, served over HTTP): whole games against each
opponent by clicking offered moves, at phone and desktop sizes, with no console error; the browser's game is the
same game in CPython; undo, save, load, the link and ``blackpoker sim replay``; keyboard only."""

from __future__ import annotations

import json
import random
import re
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
from browsers import MARKS, POLL, PRESS, PYODIDE_LOAD, EnginePage
from playsite import runtime_missing, served

pytestmark = [*MARKS, pytest.mark.skipif(runtime_missing() is not None, reason=str(runtime_missing()))]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LOAD_TIMEOUT = PYODIDE_LOAD
# Every test is a unit of its own for pytest-xdist: the site, the browser and the warm context it uses are the
# worker's (tests/browsers.py), so the games spread over the workers.
MOVES = "#moves button[data-move]"
READY = "document.querySelector('[data-game-over]') || (!document.body.classList.contains('busy') && " \
        "document.querySelector('#moves button[data-move]'))"


@pytest.fixture(scope="module")
def rules() -> Rules:
    return load_rules()


@pytest.fixture
def site(engine_site: Path) -> Path:
    return engine_site


@pytest.fixture
def base(engine_address: str) -> str:
    return engine_address + "play/index.html"


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
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT, polling=POLL)


# Once the page waits for the person: null when the game is over, else for each offered move the number of closed
# cards and actions it sits under. One round trip: the page polls itself (a person's pace is not needed).
OFFERED = """async ([selector, limit]) => {
  const end = performance.now() + limit;
  for (;;) {
    if (document.querySelector('[data-game-over]')) return null;
    const moves = document.body.classList.contains('busy') ? [] : [...document.querySelectorAll(selector)];
    if (moves.length) return moves.map((b) => {
      let closed = 0;
      for (let d = b.closest('details'); d; d = d.parentElement.closest('details')) if (!d.open) closed++;
      return closed;
    });
    if (performance.now() > end) throw new Error('the page never offered a move nor ended the game');
    await new Promise((r) => setTimeout(r, 10));
  }
}"""


def offered(pg: Any) -> list[int] | None:
    return pg.evaluate(OFFERED, [MOVES, LOAD_TIMEOUT])  # type: ignore[no-any-return]


def click_move(pg: Any, rng: random.Random, moves: list[int] | None = None) -> list[int] | None:
    """Click one offered move at random: open the card and action it sits under first, as a person would; then
    what the page offers (``offered``). ``rng.randrange(n)`` draws as ``rng.choice`` of n moves did: a seed plays
    the same game."""
    moves = offered(pg) if moves is None else moves
    assert moves is not None, "the game is over"
    index = rng.randrange(len(moves))
    pick = pg.locator(MOVES).nth(index)
    closed = pick.locator("xpath=ancestor::details[not(@open)]/summary")  # outermost first (document order)
    for _ in range(moves[index]):
        closed.first.click()
    pick.click()
    return offered(pg)


# One move in one round trip, as click_move makes it (the closed card and action it sits under opened first,
# outermost first, each pressed as a person would: PRESS), then what the page offers (OFFERED).
PLAY = """async ([selector, index, offered, limit]) => {
  const press = PRESS;
  const pick = document.querySelectorAll(selector)[index];
  const closed = [];
  for (let d = pick.closest('details'); d; d = d.parentElement.closest('details')) if (!d.open) closed.unshift(d);
  if (closed.length !== offered) throw new Error(`under ${closed.length} closed cards and actions, not ${offered}`);
  for (const d of closed) press(d.querySelector(':scope > summary'));
  press(pick);
  return await (OFFERED)([selector, limit]);
}""".replace("OFFERED", OFFERED).replace("PRESS", PRESS)


def play_move(pg: Any, rng: random.Random, moves: list[int]) -> list[int] | None:
    """``click_move`` in one round trip of the page (PLAY): the same draw, so the same game."""
    index = rng.randrange(len(moves))
    return pg.evaluate(PLAY, [MOVES, index, moves[index], LOAD_TIMEOUT])  # type: ignore[no-any-return]


LOG_AT_END = """() => { const log = document.getElementById('log');
  return log.scrollHeight > log.clientHeight && log.scrollTop + log.clientHeight >= log.scrollHeight - 1; }"""


def play_to_the_end(pg: Any, seed: int, limit: int = 3000, clicked: int = 4) -> int:
    """The first CLICKED moves by Playwright's clicks (``click_move``), the rest in the page (``play_move``)."""
    rng = random.Random(seed)
    clicks = 0
    moves = offered(pg)
    while moves is not None:
        assert clicks < limit, "the game did not end"
        moves = click_move(pg, rng, moves) if clicks < clicked else play_move(pg, rng, moves)
        clicks += 1
    return clicks


def same_game_in_cpython(rules: Rules, p: Page) -> dict[str, Any]:
    record = p.ask({"command": "record"})["record"]
    browser_state = p.ask({"command": "final"})["state"]
    assert final_state(resume(rules, record).state) == browser_state
    return dict(record)


class Reused:
    """The play page for a test that starts a game from the settings: the page an earlier such test of the worker
    left behind when it passed, back at the settings through the page's own 「新しい対局」 (#again), else a new page
    of ``warm`` (a restore of the engine: about 2 s of CPU). ``keep()`` at the test's end, after its last check,
    leaves the page to the next such test; a failed test's page is closed."""

    def __init__(self, spare: list[Page], warm: Any, base: str) -> None:
        self.spare, self.warm, self.base = spare, warm, base
        self.p: Page | None = None

    def open(self, viewport: dict[str, int]) -> tuple[Page, Any]:
        if self.spare:
            p = self.spare.pop()
            p.page.set_viewport_size(viewport)
            p.page.click("#again")
            assert p.page.locator("#game").is_hidden() and p.page.is_enabled("#start")
            # Nothing of the last game stays behind to be taken for the next one's (READY would see its end).
            assert p.page.locator("#result > *, #moves > *, #board > *, #log > *").count() == 0
        else:
            p = Page(self.warm, viewport)
            p.open(self.base)
        self.p = p
        return p, p.page

    def keep(self) -> None:
        assert self.p is not None
        self.spare.append(self.p)
        self.p = None


@pytest.fixture(scope="module")
def spare() -> Iterator[list[Page]]:
    pages: list[Page] = []
    yield pages
    for p in pages:
        p.close()


@pytest.fixture
def reused(spare: list[Page], warm: Any, base: str) -> Iterator[Reused]:
    r = Reused(spare, warm, base)
    yield r
    if r.p is not None:
        r.p.close()


@pytest.mark.parametrize(("opponent", "strength", "viewport"), [
    pytest.param(opponent, strength, viewport, id=f"{opponent}-{viewport['width']}")
    for opponent, strength in (("random", None), ("greedy", None), ("ismcts", "ismcts:4"))
    for viewport in (PHONE, DESKTOP)])
def test_a_whole_game_by_clicking_offered_moves(reused: Reused, rules: Rules, opponent: str, strength: str | None,
                                                viewport: dict[str, int]) -> None:
    """On a later visit (the engine restored: ``warm``), each game after the worker's first from the page's
    「新しい対局」 (``Reused``); test_frames_allowed_by_table_3_1_only plays a whole game on a first visit."""
    p, pg = reused.open(viewport)
    start_game(pg, opponent, 40 + viewport["width"], strength=strength)
    play_to_the_end(pg, viewport["width"])
    over = pg.locator("[data-game-over]")
    winner = over.get_attribute("data-game-over")
    assert winner in ("A", "B")
    assert f"{winner}の勝利" in over.inner_text()
    record = same_game_in_cpython(rules, p)
    assert record["result"]["winner"] == winner
    assert pg.evaluate("document.documentElement.scrollWidth") <= viewport["width"], "no sideways scrolling"
    # the play-by-play, longer than its box by now, shows its newest line (play.js scrolls it after each view)
    pg.wait_for_function(LOG_AT_END, timeout=5000, polling=POLL)
    assert not p.errors, p.errors
    reused.keep()


def test_frames_allowed_by_table_3_1_only(browser: Any, base: str, rules: Rules) -> None:
    """A first visit (a context of its own: Python booted, not restored) plays a whole game too."""
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
    p.close()


def test_undo_save_load_link_and_the_command_line(reused: Reused, warm: Any, rules: Rules, tmp_path: Path) -> None:
    p, pg = reused.open(DESKTOP)  # the context accepts downloads (Playwright's default)
    start_game(pg, "greedy", 77)
    rng = random.Random(1)
    for _ in range(3):
        click_move(pg, rng)
    before = p.ask({"command": "record"})["record"]["decisions"]
    click_move(pg, rng)
    pg.click("#undo")
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT, polling=POLL)
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
    pg.wait_for_function("location.hash.startsWith('#game=')", polling=POLL)
    link = pg.evaluate("location.href")
    q = Page(warm, PHONE)
    other = q.open(link)
    other.wait_for_selector("[data-game-over]", timeout=LOAD_TIMEOUT)
    assert q.ask({"command": "final"})["state"] == final

    pg.click("#again")
    assert pg.text_content("#status") == "設定を選んで「対戦を始める」を押してください。"  # not the last game's news
    # the file control is the page's own Japanese button (the browser's says "Choose File" in its own language)
    assert pg.locator("#load").is_hidden()
    assert pg.locator("#open-saved").inner_text() == "保存した対局を開く…"
    with pg.expect_file_chooser() as chooser:
        pg.click("#open-saved")
    chooser.value.set_files(str(saved))
    pg.wait_for_selector("[data-game-over]", timeout=LOAD_TIMEOUT)
    assert p.ask({"command": "final"})["state"] == final
    assert not p.errors and not q.errors, p.errors + q.errors
    q.close()
    reused.keep()


IN_MOVES = "document.getElementById('moves').contains(document.activeElement)"
# the focused element: its tag, the move it plays (a move's button), whether it is a card's or an action's closed
# summary (Enter opens it), whether it lies in a card
FOCUSED = ("(e => [e.tagName, e.dataset.move ?? null, e.tagName === 'SUMMARY' && !e.parentElement.open && "
           "e.parentElement.matches('details.key-group, details.action'), !!e.closest('details.key-group')])"
           "(document.activeElement)")


def test_keyboard_only(warm: Any, base: str) -> None:
    """On a page of its own: the settings as a first visitor finds them (a reused page keeps the last game's)."""
    p = Page(warm, PHONE)
    pg = p.open(base)
    pg.focus("#format")
    for _ in range(5):  # → フレーム, 相手, (強さ: disabled, skipped) 先攻, シード, 対戦を始める
        pg.keyboard.press("Tab")
    assert pg.evaluate("document.activeElement.id") == "start"
    pg.keyboard.press("Enter")
    pg.wait_for_function(READY, timeout=LOAD_TIMEOUT, polling=POLL)
    made = from_cards = 0
    for turn in range(40):
        if pg.query_selector("[data-game-over]"):
            break
        # after a move the page puts the focus on the first offered move or card (focusMoves); at the start, or
        # when the computer's answer replaced it, a keyboard user tabs into the moves
        for _ in range(60):
            if pg.evaluate(IN_MOVES):
                break
            pg.keyboard.press("Tab")
        assert pg.evaluate(IN_MOVES), "Tab never reaches the offered moves"
        # every other turn a move from a card (and its action) opened with Enter, else the first move offered;
        # Enter is pressed only on a move or a closed card or action, never on a link that would leave the page
        into_cards = turn % 2 == 0 and pg.evaluate("document.querySelectorAll('#moves details.key-group').length") > 0
        for _ in range(300):
            tag, move, closed_card, in_card = pg.evaluate(FOCUSED)
            if tag == "BUTTON" and move is not None and (in_card or not into_cards):
                break
            if closed_card:
                pg.keyboard.press("Enter")
            pg.keyboard.press("Tab")
        assert tag == "BUTTON" and move is not None, f"no offered move reached by Tab (last: {tag})"
        pg.keyboard.press("Enter")
        pg.wait_for_function(READY, timeout=LOAD_TIMEOUT, polling=POLL)
        made += 1
        from_cards += in_card
    assert made >= 10
    assert from_cards >= 3, from_cards  # moves reached by opening a card with Enter
    assert p.ask({"command": "record"})["record"]["decisions"]
    assert not p.errors, p.errors
    p.close()


def test_play_from_every_worked_example(warm: Any, base: str, rules: Rules) -> None:
    """The rulebook's 「この局面から遊ぶ」 link opens the page at the example's start (the scenario's own setup)."""
    from blackpoker.core.paths import SCENARIOS
    from blackpoker.sim.scenario import build_start, load_scenario
    stems = sorted(p.stem for p in (SCENARIOS / "examples").glob("*.yaml"))
    p = Page(warm, PHONE)
    pg = p.open(f"{base}?example={stems[0]}")
    pg.wait_for_selector("#example-title:not([hidden])", timeout=LOAD_TIMEOUT)
    for stem in stems:
        position = pg.evaluate("s => fetch(`examples/${s}.json`).then(r => r.json())", stem)
        answer = p.ask({"command": "position", "position": position, "opponent": "greedy"})
        assert answer["ok"], (stem, answer)
        start = build_start(load_scenario(SCENARIOS / "examples" / f"{stem}.yaml", rules), rules)
        assert p.ask({"command": "final"})["state"] == final_state(start), stem
    pg.goto(f"{base}?example={stems[1]}")
    pg.wait_for_function("window.bpPlay && window.bpPlay.ready", timeout=LOAD_TIMEOUT, polling=POLL)
    pg.wait_for_selector("#example-title:not([hidden])", timeout=LOAD_TIMEOUT)
    start = build_start(load_scenario(SCENARIOS / "examples" / f"{stems[1]}.yaml", rules), rules)
    assert p.ask({"command": "final"})["state"] == final_state(start)
    play_to_the_end(pg, 5)
    assert not p.errors, p.errors
    p.close()


KEPT = ("caches.open('blackpoker-play').then(c => c.keys()).then(ks => ks.map(r => r.url)"
        ".filter(u => u.includes('/play/engine-snapshot/')))")


def test_a_later_visit_restores_the_kept_engine(browser: Any, base: str, rules: Rules) -> None:
    """The canary of snapshot.js (Pyodide's memory snapshots): the first visit keeps the started engine in Cache
    Storage, a later visit restores it instead of booting Python and plays the same games; a kept engine that
    cannot be restored is dropped and the page starts in full."""
    p = Page(browser, DESKTOP)
    pg = p.open(base)
    assert "restored" not in pg.evaluate("window.bpPlay.phases")
    pg.wait_for_function("window.bpPlay.kept", timeout=LOAD_TIMEOUT, polling=POLL)
    later = p.context.new_page()
    later.goto(base)
    later.wait_for_function("window.bpPlay && window.bpPlay.ready", timeout=LOAD_TIMEOUT, polling=POLL)
    phases = later.evaluate("window.bpPlay.phases")
    assert "restored" in phases and "runtime" not in phases, phases
    p.page = later
    later.on("console", lambda m: p.errors.append(m.text) if m.type == "error" else None)
    # the restored engine plays the same game as CPython: its first moves here (whole games on a restored engine,
    # this opponent's among them: test_a_whole_game_by_clicking_offered_moves, in the warm context)
    start_game(later, "ismcts", 11, strength="ismcts:4")
    rng = random.Random(11)
    moves = offered(later)
    for _ in range(12):
        if moves is None:
            break
        moves = click_move(later, rng, moves)
    assert len(same_game_in_cpython(rules, p)["decisions"]) >= 12

    assert not p.errors, p.errors
    p.close()


SHAPE = ("k => caches.open('blackpoker-play').then(c => c.match(k)).then(r => r ? r.arrayBuffer()"
         ".then(b => [b.byteLength, new Uint32Array(b, 0, 1)[0]]) : null)")  # its length and its magic number


@pytest.mark.parametrize("damaged", ["new Uint8Array(4096)", "b.slice(0, b.byteLength - 4096)",  # cut short
                                     "new Uint8Array(b.byteLength)"],  # as long, but not a snapshot
                         ids=["short", "cut", "zeros"])
def test_a_damaged_kept_engine_is_dropped(warm: Any, base: str, damaged: str) -> None:
    """In the worker's ``warm`` context, no first visit of its own: it leaves a good engine kept again (it asserts
    so), as the other pages of ``warm`` expect; one that fails midway leaves a damaged one, which the next page of
    ``warm`` drops (what this test checks), so the tests after it still pass."""
    p = Page(warm, PHONE)
    pg = p.open(base)
    assert "restored" in pg.evaluate("window.bpPlay.phases"), "an engine is kept"
    [key] = pg.evaluate(KEPT)
    kept = pg.evaluate(SHAPE, key)
    assert kept[0] > 16 * 2**20
    pg.evaluate(f"k => caches.open('blackpoker-play').then(c => c.match(k).then(r => r.arrayBuffer())"
                f".then(b => c.put(k, new Response({damaged}))))", key)
    assert pg.evaluate(SHAPE, key) not in (None, kept)
    again = p.open(base)
    phases = again.evaluate("window.bpPlay.phases")
    assert "restored" not in phases and "runtime" in phases, phases
    # the damaged one is dropped before the start, and a good one kept once the page is ready
    again.wait_for_function("window.bpPlay.kept", timeout=LOAD_TIMEOUT, polling=POLL)
    assert again.evaluate(SHAPE, key) == kept, "a good engine is kept again"
    assert not p.errors, p.errors
    p.close()


def _plays_a_few_moves(browser: Any, address: str, site: Path) -> Page:
    """The page at ADDRESS/play (no slash) plays; every link it carries stays within the site's address and
    resolves there (the rulebook's pages, which the test site does not build, are only checked to stay within)."""
    p = Page(browser, PHONE)
    pg = p.open(address + "play")
    assert pg.url == address + "play/", pg.url
    start_game(pg, "greedy", 5)
    rng = random.Random(5)
    for _ in range(4):
        click_move(pg, rng)
    links = {link.split("#")[0] for link in pg.eval_on_selector_all("a[href]", "as => as.map(a => a.href)")
             if not link.startswith(address + "play/#")}
    assert all(link.startswith(address) for link in links), links
    assert address + "actionlist/html/all.html" in links, links
    for link in links:
        if (site / link[len(address):]).is_file():
            assert pg.evaluate("u => fetch(u).then(r => r.status)", link) == 200, link
    return p


def test_under_a_subfolder_as_on_github_pages(browser: Any, site: Path) -> None:
    """GitHub Pages serves a project's site at /REPO/: the page, its worker, the runtime and the rules load from
    there, and /REPO/play (no slash) leads to it."""
    with served(site, prefix="/repo/") as address:
        p = _plays_a_few_moves(browser, address, site)
        assert not p.errors, p.errors
        p.close()


SERVE = """import sys
from collections.abc import Iterator
from pathlib import Path
from blackpoker.core.paths import DEFINITIONS
from blackpoker.pipeline.serve import Outcome, serve
serve(DEFINITIONS, Path(sys.argv[1]), port=0, rebuild=lambda: Outcome(True, "built"), echo=lambda s: print(s, flush=True))
"""


def test_under_make_serve(browser: Any, site: Path) -> None:
    """``blackpoker serve`` (``make serve``; here with a rebuild that does nothing, in a child process) serves the
    page, with its reload script, at /play (no slash) too."""
    child = subprocess.Popen([sys.executable, "-c", SERVE, str(site)], stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        said = [child.stdout.readline() for _ in range(3)]  # its address, and the watcher's first (no-op) build
        address = next(filter(None, (re.search(r"serving .* at (http://127\.0\.0\.1:\d+/)", line) for line in said)), None)
        assert address, said
        p = _plays_a_few_moves(browser, address.group(1), site)
        assert "/__build" in p.page.content(), "the preview's reload script is in the page"
        assert not p.errors, p.errors
        p.close()
    finally:
        child.kill()
        child.wait()
