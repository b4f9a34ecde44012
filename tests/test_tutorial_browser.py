"""The guided tutorial in a real browser (Chromium through Playwright, over HTTP, on the play page's site): a
scripted learner completes every lesson by clicking cards, actions, ways to pay, passes and answers, at phone and
desktop sizes with no console error; progress survives a reload; a wrong move shows the rules' refusal with a
link to its section; a legal move that is not the lesson's shows the hint; one lesson by keyboard only; on the
whole site (the shared rulebook build), the top page leads to the tutorial and a refusal's link to its section."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from blackpoker.core.paths import SOURCE
from browsers import MARKS, POLL, PRESS, PYODIDE_LOAD, EnginePage
from playsite import runtime_missing, served
from sites import BuiltSite

pytestmark = [*MARKS, pytest.mark.skipif(runtime_missing() is not None, reason=str(runtime_missing()))]

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 900}
LOAD_TIMEOUT = PYODIDE_LOAD
IDLE = "!document.body.classList.contains('busy')"


@pytest.fixture
def base(engine_address: str) -> str:
    """The tutorial of the worker's engine site (tests/browsers.py), whose pages open in ``warm`` (the engine kept
    by a first visit, restored: the first visit itself is test_play_browser.py's)."""
    return engine_address + "play/tutorial.html"


class Page(EnginePage):
    """The tutorial page (``window.bpTutorial``)."""

    def __init__(self, where: Any, viewport: dict[str, int], **options: Any) -> None:
        super().__init__(where, viewport, "bpTutorial", **options)

    def step(self) -> str:
        return str(self.page.text_content("#step-count"))


# the lesson L opened and its first view drawn (the page's own mark of the lesson it shows)
OPENED = f"l => !document.getElementById('lesson').hidden && {IDLE} && " \
         "document.getElementById('lesson').dataset.lessonShown === l"


def shown(pg: Any, lesson: str) -> None:
    """Wait for LESSON's first view: the page marks the lesson it has drawn (the last lesson's view stays on the
    page until the engine answers, and the link's hashchange comes after the click)."""
    pg.wait_for_function(OPENED, arg=lesson, timeout=LOAD_TIMEOUT, polling=POLL)


def open_lesson(pg: Any, lesson: str) -> None:
    pg.click(f'[data-lesson="{lesson}"]')
    shown(pg, lesson)


def make_the_lessons_move(p: Page) -> None:
    """Click the lesson's move as a learner would: its key cards, then the action, then the way to pay and target;
    or the pass button, or the answer (the move comes from the page's 「答えを見る」 command)."""
    pg = p.page
    answer = p.ask({"command": "lesson-answer"})["result"]
    before = p.step()
    if answer["pass"]:
        pg.click("[data-pass]")
    elif answer["choose"]:
        pg.click(f'#answers [data-move="{answer["move"]}"]')
    else:
        for pick in answer["picks"]:
            pg.click(f'#free [data-pick="{pick}"]')
        pg.click(f'#actions [data-action="{answer["action"]}"]')
        pg.wait_for_function(IDLE, polling=POLL)
        if pg.is_visible("#variants"):
            pg.click(f'#variants [data-move="{answer["move"]}"]')
    pg.wait_for_function(f"{IDLE} && document.querySelector('#step-count').textContent !== {before!r}"
                         " || document.querySelector('[data-lesson-done]')", timeout=LOAD_TIMEOUT, polling=POLL)
    assert not pg.query_selector("#feedback [data-refusal], #feedback [data-hint]"), pg.text_content("#feedback")


# make_the_lessons_move in one round trip of the page, each click a person's (browsers.PRESS), each element
# waited for as Playwright's click waits for it; then the step's end, and no refusal nor hint.
LESSONS_MOVE = """async ([answer, before, limit]) => {
  const end = performance.now() + limit;
  const until = async (test, what) => {
    while (!test()) {
      if (performance.now() > end) throw new Error(`never: ${what}`);
      await new Promise((r) => setTimeout(r, 10));
    }
  };
  const idle = () => !document.body.classList.contains('busy');
  const press = async (selector) => {
    const ready = () => { const e = document.querySelector(selector); return e && e.checkVisibility() && !e.disabled; };
    await until(ready, selector);
    (PRESS)(document.querySelector(selector));
  };
  if (answer.pass) await press('[data-pass]');
  else if (answer.choose) await press(`#answers [data-move="${answer.move}"]`);
  else {
    for (const pick of answer.picks) await press(`#free [data-pick="${pick}"]`);
    await press(`#actions [data-action="${answer.action}"]`);
    await until(idle, 'idle');
    if (document.getElementById('variants').checkVisibility()) await press(`#variants [data-move="${answer.move}"]`);
  }
  await until(() => idle() && document.querySelector('#step-count').textContent !== before
                    || document.querySelector('[data-lesson-done]'), 'the next step');
  const wrong = document.querySelector('#feedback [data-refusal], #feedback [data-hint]');
  return wrong ? document.querySelector('#feedback').textContent : null;
}""".replace("PRESS", PRESS)


def press_the_lessons_move(p: Page) -> None:
    """``make_the_lessons_move`` made in the page (LESSONS_MOVE)."""
    answer = p.ask({"command": "lesson-answer"})["result"]
    wrong = p.page.evaluate(LESSONS_MOVE, [answer, p.step(), LOAD_TIMEOUT])
    assert wrong is None, wrong


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["390", "1280"])
def test_a_scripted_learner_completes_every_lesson_by_clicking(warm: Any, base: str, viewport: dict[str, int]) -> None:
    """The first two lessons' moves by Playwright's clicks, the rest's in the page (``press_the_lessons_move``)."""
    p = Page(warm, viewport)
    pg = p.open(base)
    lessons = [lesson["id"] for lesson in pg.evaluate("window.bpTutorial.lessons()")]
    assert len(lessons) >= 8
    for number, lesson in enumerate(lessons):
        open_lesson(pg, lesson)
        for _ in range(40):
            if pg.query_selector(f'[data-lesson-done="{lesson}"]'):
                break
            (make_the_lessons_move if number < 2 else press_the_lessons_move)(p)
        assert pg.query_selector(f'[data-lesson-done="{lesson}"]'), lesson
        assert pg.is_visible("#instruction") and "完了" in p.step()
        pg.click("#to-list")
    assert pg.text_content("#progress-summary") == f"{len(lessons)} レッスン中 {len(lessons)} 完了"
    # progress is kept in this browser: a new visit shows every lesson done
    pg.reload()
    pg.wait_for_function("window.bpTutorial && window.bpTutorial.ready", timeout=LOAD_TIMEOUT, polling=POLL)
    assert [m.text_content() for m in pg.query_selector_all("[data-done-for]")] == ["✓ 完了"] * len(lessons)
    assert pg.evaluate("JSON.parse(localStorage.getItem('blackpoker-tutorial')).done.length") == len(lessons)
    scroll = pg.evaluate("document.documentElement.scrollWidth")
    assert scroll <= viewport["width"], "the page does not scroll sideways"
    assert p.errors == []
    p.close()


def test_a_wrong_move_shows_the_rules_refusal_and_its_section(reused: Reused) -> None:
    p, pg = reused.open(DESKTOP, "dark", "02-bulwark")
    # a summon without a charged bulwark: the engine's own refusal, with the rulebook's section
    pg.click('#hand [data-card="S5"]')
    pg.click('#actions [data-action="soldier-summon"]')
    pg.wait_for_selector("#feedback [data-refusal]")
    refusal = pg.text_content("#feedback [data-refusal]")
    assert "ルールではできません" in refusal and "2.10.2: コスト B を 1 回支払う必要があります" in refusal
    link = pg.query_selector("#feedback [data-section]")
    assert link.get_attribute("data-section") == "2.10.2"
    href = link.get_attribute("href")
    assert href == "../common.html#sec-2-10-2" and link.text_content() == "ルールブック 2.10.2「コストの種類」を読む"
    assert p.step() == "ステップ 1 / 3", "a refused move does not advance"
    assert pg.get_attribute('#hand [data-card="S5"]', "aria-pressed") == "true", "the chosen card stays chosen"
    # the link leads to the section (the rulebook is not built here: its page's source has the label)
    assert "(sec-2-10-2)=" in (SOURCE / "common.md").read_text(encoding="utf-8")
    # a legal move that is not the lesson's: the step's hint
    pg.click("[data-pass]")
    pg.wait_for_selector("#feedback [data-hint]")
    assert "このレッスンの手ではありません" in pg.text_content("#feedback")
    assert "ヒント: 手札の ◇3 だけを選んで「防壁設置」を選んでください。" in pg.text_content("#feedback")
    # 答えを見る says the move in words
    pg.click("#show-answer")
    pg.wait_for_function("document.querySelector('#feedback').textContent.includes('答え')", polling=POLL)
    assert "手札の ◇3 を選んでから「防壁設置」を選ぶ" in pg.text_content("#feedback")
    # every visible text of the page is Japanese (no English key, card code or file name)
    text = pg.evaluate("document.body.innerText")
    for english in ("soldier-summon", "bulwark-set", "undefined", "null", "Error"):
        assert english not in text, english
    assert p.errors == []
    reused.keep()


def test_a_lesson_by_keyboard_only(warm: Any, base: str) -> None:
    p = Page(warm, PHONE)
    pg = p.open(base)

    def tab_to(selector: str, limit: int = 400) -> None:
        for _ in range(limit):
            pg.keyboard.press("Tab")
            if pg.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                return
        raise AssertionError(f"Tab never reached {selector}")

    tab_to('[data-lesson="01-setup"]')
    pg.keyboard.press("Enter")
    shown(pg, "01-setup")
    for _ in range(10):
        if pg.query_selector('[data-lesson-done="01-setup"]'):
            break
        answer = p.ask({"command": "lesson-answer"})["result"]
        before = p.step()
        if answer["pass"]:
            tab_to("[data-pass]")
        elif answer["choose"]:
            tab_to(f'#answers [data-move="{answer["move"]}"]')
        else:
            for code in answer["keys"]:
                tab_to(f'#hand [data-card="{code}"]')
                pg.keyboard.press("Space")
            tab_to(f'#actions [data-action="{answer["action"]}"]')
        pg.keyboard.press("Enter")
        pg.wait_for_function(f"{IDLE} && document.querySelector('#step-count').textContent !== {before!r}"
                             " || document.querySelector('[data-lesson-done]')", timeout=LOAD_TIMEOUT, polling=POLL)
    assert pg.query_selector('[data-lesson-done="01-setup"]')
    assert p.errors == []
    p.close()


def test_from_the_rulebook_to_a_refusal_and_back_to_its_section(browser: Any, built_site: BuiltSite) -> None:
    """On the whole site (the run's shared full build: the rulebook, the lists, the play page and the tutorial): the
    top page leads to the tutorial, and a refusal's section link opens the rulebook at that section."""
    with served(built_site.site) as address:
        p = Page(browser, PHONE)
        pg = p.page
        pg.goto(address + "index.html")
        pg.click("text=はじめての BlackPoker(チュートリアル)")
        pg.wait_for_function("window.bpTutorial && window.bpTutorial.ready", timeout=LOAD_TIMEOUT, polling=POLL)
        open_lesson(pg, "10-entry20-bulwark-block")
        pg.click('#hand [data-card="C5"]')
        pg.click('#actions [data-action="soldier-summon"]')
        pg.wait_for_selector("#feedback [data-refusal]")
        assert "タイミングがメインの「兵士召喚」は自分のターンにしか起こせません" in pg.text_content("#feedback [data-refusal]")
        pg.click("#feedback [data-section]")
        pg.wait_for_load_state()
        assert pg.url.endswith("/common.html#sec-2-10-1")
        heading = pg.evaluate("document.getElementById(location.hash.slice(1)).querySelector('h1, h2, h3, h4').textContent")
        assert heading.startswith("2.10.1") and "アクションが持つ項目" in heading
        assert p.errors == []
        p.close()


ENGLISH = ("field:", "card:", "character:", "request:", "player:", "soldier-summon", "counter", "undefined", "null",
           "Error")


def open_at(p: Page, base: str, lesson: str) -> Any:
    pg = p.open(base + f"#lesson={lesson}")
    shown(pg, lesson)
    return pg


class Reused:
    """The tutorial at a lesson, for a test that starts there: the page an earlier such test of the worker left
    behind when it passed, taken back to the list and into the lesson through the page's own links (#to-list, the
    lesson's button), else a new page of ``warm`` opened at ``#lesson=`` (a restore of the engine: about 1 s of
    CPU). ``keep()`` at the test's end, after its last check, leaves the page to the next such test; a failed
    test's page is closed."""

    def __init__(self, spare: list[Page], warm: Any, base: str) -> None:
        self.spare, self.warm, self.base = spare, warm, base
        self.p: Page | None = None

    def open(self, viewport: dict[str, int], scheme: str, lesson: str) -> tuple[Page, Any]:
        if self.spare:
            p = self.spare.pop()
            pg = p.page
            pg.set_viewport_size(viewport)
            pg.emulate_media(color_scheme=scheme)
            pg.click("#to-list")
            assert pg.is_visible("#lesson-list") and pg.is_hidden("#lesson")
            assert pg.get_attribute("#lesson", "data-lesson-shown") is None  # no lesson is taken as shown
            pg.click(f'[data-lesson="{lesson}"]')
            shown(pg, lesson)
        else:
            p = Page(self.warm, viewport, color_scheme=scheme)
            pg = open_at(p, base=self.base, lesson=lesson)
        self.p = p
        return p, pg

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


def try_a_field_card(pg: Any, press: str = "click") -> None:
    """05: the learner's soldier ♠4 as the key card of 兵士召喚: the rules' refusal, its section and the entry."""
    soldier = pg.locator("#own [data-pick]", has_text="♠4")
    getattr(soldier, press)()
    getattr(pg.locator('#actions [data-action="soldier-summon"]'), press)()
    pg.wait_for_selector("#feedback [data-refusal]")


def try_a_wrong_target(pg: Any, press: str = "click") -> None:
    """07: カウンター with ♣9, discarding ◇2, aimed at player B instead of a request on the stage."""
    getattr(pg.locator('#hand [data-card="C9"]'), press)()
    getattr(pg.locator('#actions [data-action="counter"]'), press)()
    pg.wait_for_selector("#variants [data-try]")
    getattr(pg.locator('#variants [data-slot="discards"][data-choice="card:D2"]'), press)()
    getattr(pg.locator('#variants [data-slot="targets"]', has_text="プレイヤー B"), press)()
    getattr(pg.locator("#variants [data-try]"), press)()
    pg.wait_for_selector("#feedback [data-refusal]")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_field_card_tried_as_a_key_card_is_refused_with_its_rule(reused: Reused, scheme: str) -> None:
    p, pg = reused.open(PHONE, scheme, "05-attack-block")
    assert [b.text_content() for b in pg.query_selector_all("#own [data-pick]")] == [
        "場 Aの一般兵[♠4](チャージ)", "場 Aの一般兵[♠9](チャージ)"], "the learner's soldiers, not the opponent's"
    try_a_field_card(pg)
    refusal = pg.text_content("#feedback [data-refusal]")
    assert "2.10.1: 「兵士召喚」のキーカードは手札から選びます(場のキャラクターではありません)" in refusal
    assert pg.get_attribute("#feedback [data-section]", "href") == "../common.html#sec-2-10-1"
    entry = pg.locator("#feedback a", has_text="アクションリストで「兵士召喚」を見る")
    assert entry.get_attribute("href") == "../actionlist/html/all.html#act-soldier-summon"
    assert pg.locator("#own [data-pick]", has_text="♠4").get_attribute("aria-pressed") == "true"
    assert p.step() == "ステップ 1 / 6", "a refused move does not advance"
    text = pg.evaluate("document.body.innerText")
    assert not [word for word in ENGLISH if word in text], text
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert p.errors == []
    reused.keep()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_a_target_the_rules_forbid_is_refused_and_the_right_one_goes_on(reused: Reused, scheme: str) -> None:
    p, pg = reused.open(PHONE, scheme, "07-quick-magic")
    try_a_wrong_target(pg)
    refusal = pg.text_content("#feedback [data-refusal]")
    assert "2.10.3: 対象は「" in refusal, refusal
    assert pg.get_attribute("#feedback [data-section]", "data-section") == "2.10.3"
    # the choices stay as they were, to change one and try again
    pressed = [b.text_content() for b in pg.query_selector_all('#variants [data-choice][aria-pressed="true"]')]
    assert pressed == ["◇2", "プレイヤー B"], pressed
    text = pg.evaluate("document.body.innerText")
    assert not [word for word in ENGLISH if word in text], text
    pg.locator('#variants [data-slot="targets"]', has_text="プレイヤー B").click()
    pg.locator('#variants [data-slot="targets"]', has_text="ステージの「兵士召喚」").click()
    pg.click("#variants [data-try]")
    pg.wait_for_function(f"{IDLE} && document.querySelector('#step-count').textContent === 'ステップ 2 / 2'", polling=POLL)
    assert "よくできました" in pg.text_content("#feedback")
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert p.errors == []
    reused.keep()


def test_a_lesson_by_touch_only(browser: Any, base: str) -> None:
    """A phone with a touch screen: every move of a lesson made with taps (key card, action, payment and target
    chosen one by one, passes), a wrong target refused on the way."""
    p = Page(browser, PHONE, has_touch=True, is_mobile=True)
    pg = p.page
    pg.goto(base)
    pg.wait_for_function("window.bpTutorial && window.bpTutorial.ready", timeout=LOAD_TIMEOUT, polling=POLL)
    assert pg.evaluate("matchMedia('(pointer: coarse)').matches"), "a touch screen"
    pg.locator('[data-lesson="07-quick-magic"]').tap()
    shown(pg, "07-quick-magic")
    try_a_wrong_target(pg, "tap")
    assert "2.10.3: 対象は「" in pg.text_content("#feedback [data-refusal]")
    pg.locator('#variants [data-slot="targets"]', has_text="プレイヤー B").tap()
    pg.locator('#variants [data-slot="targets"]', has_text="ステージの「兵士召喚」").tap()
    pg.locator("#variants [data-try]").tap()
    pg.wait_for_function(f"{IDLE} && document.querySelector('#step-count').textContent === 'ステップ 2 / 2'", polling=POLL)
    pg.locator("[data-pass]").tap()
    pg.wait_for_selector('[data-lesson-done="07-quick-magic"]')
    pg.locator("#to-list").tap()
    assert pg.locator('[data-done-for="07-quick-magic"]').text_content() == "✓ 完了"
    assert pg.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert p.errors == []
    p.close()


def test_a_payment_and_a_target_chosen_by_keyboard_only(reused: Reused) -> None:
    p, pg = reused.open(DESKTOP, "light", "07-quick-magic")

    def press(selector: str, key: str) -> None:
        for _ in range(200):
            pg.keyboard.press("Tab")
            if pg.evaluate("s => document.activeElement && document.activeElement.matches(s)", selector):
                pg.keyboard.press(key)
                return
        raise AssertionError(f"Tab never reached {selector}")

    press('#hand [data-card="C9"]', "Space")
    press('#actions [data-action="counter"]', "Enter")
    pg.wait_for_selector("#variants [data-try]")
    press('#variants [data-slot="discards"][data-choice="card:D2"]', "Space")
    stage = pg.locator('#variants [data-slot="targets"]', has_text="ステージの「兵士召喚」").get_attribute("data-choice")
    press(f'#variants [data-slot="targets"][data-choice="{stage}"]', "Space")
    press("#variants [data-try]", "Enter")
    pg.wait_for_function(f"{IDLE} && document.querySelector('#step-count').textContent === 'ステップ 2 / 2'", polling=POLL)
    assert "よくできました" in pg.text_content("#feedback")
    assert p.errors == []
    reused.keep()
