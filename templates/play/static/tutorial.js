// The guided tutorial: lessons played with the site's own simulator (the play page's worker.js). The learner
// may try any action with any of their cards (hand, field, trumps, rare card) as its key cards, then any payment
// and targets; the engine answers with the rules' refusal (and its section), the ways to make a legal move, or
// the step's hint when a legal move is not the lesson's. Progress is kept in localStorage. Stable hooks for
// tests: [data-card] (a hand card), [data-pick] (any card to pick), [data-action], [data-move], [data-choice]
// (a payment or target to choose), [data-try], [data-pass], [data-refusal], [data-hint], [data-lesson-done],
// [data-lesson-shown] (the lesson whose view is drawn: set once the engine has answered, gone while another
// lesson is on its way); window.bpTutorial.

import { connect, el, showLog } from "./engine.js";

const $ = (id) => document.getElementById(id);
const sections = JSON.parse($("main").dataset.sections);
const statusLine = $("status");
const STORE = "blackpoker-tutorial";

let lessons = [];
let lesson = null; // the lesson being played
let view = null;
let busy = false;
const chosen = new Set(); // the cards picked as key cards (tutorial.py's picks: a hand card's code, field:…)
let offered = null; // the payments and targets offered for the action tried last (its "variants")
const choices = new Set(); // the payments and targets the learner chose among them, as slot + " " + choice
window.bpTutorial = { ready: false, ask: (command) => ask(command), lessons: () => lessons };

const ask = connect({
  ready: () => ready(),
  fatal: (message) => {
    statusLine.textContent = `シミュレーターを読み込めませんでした: ${message}`;
  },
});

// --- progress (this browser only) ---------------------------------------------------------------------------
function doneSet() {
  try {
    const kept = JSON.parse(localStorage.getItem(STORE) || "{}");
    return new Set(Array.isArray(kept.done) ? kept.done : []);
  } catch {
    return new Set();
  }
}

function markDone(id) {
  const done = doneSet();
  done.add(id);
  try {
    localStorage.setItem(STORE, JSON.stringify({ done: [...done] }));
  } catch {
    statusLine.textContent = "このブラウザーでは進み具合を保存できません。";
  }
  showProgress();
}

function showProgress() {
  const done = doneSet();
  for (const mark of document.querySelectorAll("[data-done-for]")) {
    const finished = done.has(mark.dataset.doneFor);
    mark.textContent = finished ? "✓ 完了" : "";
    mark.closest("li").classList.toggle("finished", finished);
  }
  const count = lessons.filter((l) => done.has(l.id)).length;
  $("progress-summary").textContent = `${lessons.length} レッスン中 ${count} 完了`;
}

$("forget").addEventListener("click", () => {
  try {
    localStorage.removeItem(STORE);
  } catch { /* nothing kept */ }
  showProgress();
  statusLine.textContent = "進み具合を消しました。";
});

// --- lessons ------------------------------------------------------------------------------------------------
async function ready() {
  const response = await fetch(new URL("tutorial/lessons.json", import.meta.url));
  lessons = await response.json();
  showProgress();
  window.bpTutorial.ready = true;
  statusLine.textContent = "準備ができました。レッスンを選んでください。";
  route();
}

window.addEventListener("hashchange", route);

function route() {
  const match = location.hash.match(/^#lesson=([A-Za-z0-9_-]+)$/);
  const found = match && lessons.find((l) => l.id === match[1]);
  $("lesson-list").hidden = Boolean(found); // one thing at a time: the list, or the lesson
  if (!found) {
    $("lesson").hidden = true;
    $("lesson").removeAttribute("data-lesson-shown");
    lesson = null;
    return;
  }
  open(found);
}

async function open(found) {
  lesson = found;
  $("lesson").removeAttribute("data-lesson-shown"); // what is drawn is the last lesson's until the engine answers
  $("lesson").hidden = false;
  $("lesson-title").textContent = found.title;
  const section = sectionOf(found.section);
  $("lesson-meta").replaceChildren(`${found.level} ・ `, section
    ? el("a", { href: section.href }, `ルールブック ${section.number}「${section.title}」`) : `ルールブック ${found.section}`);
  $("goal").textContent = found.goal;
  feedback(null);
  await run({ command: "lesson", lesson: found });
  $("lesson-title").scrollIntoView({ block: "start" });
  $("lesson-title").setAttribute("tabindex", "-1");
  $("lesson-title").focus({ preventScroll: true });
}

async function run(command) {
  if (busy) return null;
  busy = true;
  document.body.classList.add("busy");
  try {
    const answer = await ask(command);
    if (!answer.ok) {
      statusLine.textContent = `できませんでした: ${answer.error}`;
      return null;
    }
    show(answer.view);
    return answer;
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

// --- drawing ------------------------------------------------------------------------------------------------
function show(v) {
  view = v;
  chosen.clear();
  choices.clear();
  offered = null;
  $("board").innerHTML = v.board; // drawn by the rulebook's renderer (render/board.py), text escaped there
  const chance = v.chance === null ? "ルールシステム" : v.chance;
  $("summary").textContent = `あなたは ${v.you} ・ 第${v.turn}ターン (ターンプレイヤー ${v.turn_player}) ・ チャンス ${chance}`
    + (v.stage.length ? ` ・ ステージ (上から): ${v.stage.join(" → ")}` : " ・ ステージ: 空");
  $("step-count").textContent = v.done ? `全 ${v.steps} ステップ完了` : `ステップ ${v.step} / ${v.steps}`;
  $("narration").replaceChildren(...v.narration.map((line) => el("li", {}, `相手: ${line}`)));
  $("instruction").textContent = v.instruction;
  $("instruction").classList.toggle("complete", v.done);
  showLog($("log"), v.log);
  $("variants").hidden = true;
  $("variants").replaceChildren();
  const asking = !v.done && v.question;
  $("question").hidden = !asking;
  $("free").hidden = v.done || Boolean(v.question);
  $("show-answer").hidden = v.done;
  const index = lessons.indexOf(lesson);
  $("next-lesson").hidden = !v.done || index === lessons.length - 1;
  if (asking) {
    $("question-prompt").textContent = v.question.prompt;
    $("answers").replaceChildren(...v.question.options.map((o) => moveButton(o.move, o.text)));
  } else if (!v.done) {
    $("hand").replaceChildren(...v.hand.map((card) => pickButton(card.code, card.text, { "data-card": card.code })));
    if (!v.hand.length) $("hand").append(el("p", { class: "muted" }, "手札はありません。"));
    $("own").replaceChildren(...v.cards.map((card) => pickButton(card.pick, `${card.zone} ${card.text}`, {})));
    $("own-box").hidden = !v.cards.length;
    $("actions").replaceChildren(...v.actions.map(actionButton));
  }
  $("lesson").setAttribute("data-lesson-shown", lesson.id);
  if (v.done) {
    markDone(lesson.id);
    $("lesson").setAttribute("data-lesson-done", lesson.id);
    statusLine.textContent = `レッスン「${lesson.title}」を完了しました。`;
  } else {
    $("lesson").removeAttribute("data-lesson-done");
  }
}

// a toggle: a card to pick as a key card, or a payment or target to choose (the set it goes in, and its name there)
function toggle(set, name, text, attributes) {
  const button = el("button", { type: "button", "aria-pressed": String(set.has(name)), ...attributes }, text);
  button.addEventListener("click", () => {
    if (set.has(name)) set.delete(name);
    else set.add(name);
    button.setAttribute("aria-pressed", String(set.has(name)));
  });
  return button;
}

function pickButton(pick, text, attributes) {
  const red = /^[♡◇]/.test(text);
  return toggle(chosen, pick, text, { class: red ? "card red" : "card", "data-pick": pick, ...attributes });
}

function actionButton(action) {
  const button = el("button", { type: "button", class: "action", "data-action": action.id },
                    action.name, el("span", { class: "shorthand" }, ` ${action.shorthand}`));
  button.addEventListener("click", () => attempt(action.id));
  return button;
}

function moveButton(move, text) {
  const button = el("button", { type: "button", "data-move": String(move) }, text);
  button.addEventListener("click", () => pick(move));
  return button;
}

function sectionOf(section) {
  // the section itself, else the nearest one above it that the rulebook numbers
  for (let s = section; s; s = s.includes(".") ? s.slice(0, s.lastIndexOf(".")) : "") {
    if (sections[s]) return { number: s, ...sections[s] };
  }
  return null;
}

function feedback(result) {
  const box = $("feedback");
  box.replaceChildren();
  box.className = "feedback";
  if (!result) return;
  box.classList.add(result.kind);
  if (result.kind === "refused") {
    const section = sectionOf(result.section || lesson.section);
    box.append(el("p", { "data-refusal": "" }, el("strong", {}, "ルールではできません: "), result.rule));
    const links = el("p", { class: "links" });
    if (section) {
      links.append(el("a", { href: section.href, "data-section": section.number },
                      `ルールブック ${section.number}「${section.title}」を読む`));
    }
    if (result.entry) links.append(" ", el("a", { href: result.entry }, `アクションリストで「${result.action}」を見る`));
    box.append(links);
  } else if (result.kind === "other") {
    box.append(el("p", { "data-hint": "" }, el("strong", {}, "ルール上はできる手ですが、このレッスンの手ではありません: "),
                  result.tried));
    box.append(el("p", {}, `ヒント: ${result.hint}`));
  } else if (result.kind === "ok") {
    box.append(el("p", {}, el("strong", {}, "よくできました: "), result.did));
  } else if (result.kind === "answer") {
    box.append(el("p", {}, el("strong", {}, "答え: "), result.text));
  }
}

// --- the learner's moves ------------------------------------------------------------------------------------
function keepPicked(keys) {
  // the same position: the picked cards stay picked, to try another action with them
  for (const pick of keys) {
    chosen.add(pick);
    const button = document.querySelector(`#free [data-pick="${CSS.escape(pick)}"]`);
    if (button) button.setAttribute("aria-pressed", "true");
  }
}

async function attempt(actionId) {
  const keys = [...chosen];
  const answer = await run({ command: "lesson-attempt", action: actionId, keys });
  if (!answer) return;
  const result = answer.result;
  if (result.kind !== "ok") keepPicked(keys);
  if (result.kind === "variants") {
    offered = result;
    choices.clear();
    showVariants();
    feedback(null);
    $("variants").querySelector("button").focus();
    return;
  }
  after(result);
}

function showVariants() {
  // the ways the rules allow to pay the cost and choose the targets, then every choice, to try any of them
  const box = $("variants");
  const r = offered;
  box.replaceChildren(el("p", { class: "question" }, `「${r.action}」の支払い方と対象を選んでください`));
  if (r.moves.length) {
    box.append(el("p", { class: "muted" }, "ルールに合う選び方:"), ...r.moves.map((m) => moveButton(m.move, m.text)));
  }
  if (r.slots.length) {
    const own = el("div", { class: "compose" }, el("p", { class: "muted" }, "自分で選んで試す:"));
    for (const slot of r.slots) {
      const options = slot.options.map((o) => toggle(choices, `${slot.slot} ${o.choice}`, o.text,
                                                     { class: "choice", "data-slot": slot.slot, "data-choice": o.choice }));
      own.append(el("fieldset", { class: "slot" }, el("legend", {}, slot.label), el("div", { class: "options" }, ...options)));
    }
    const go = el("button", { type: "button", "data-try": "" }, `この選び方で「${r.action}」を起こす`);
    go.addEventListener("click", () => request());
    own.append(go);
    box.append(own);
  }
  box.hidden = false;
}

async function request() {
  const r = offered;
  const chosenNow = {};
  for (const slot of r.slots) chosenNow[slot.slot] = [];
  for (const name of choices) {
    const [slot, choice] = name.split(" ");
    chosenNow[slot].push(choice);
  }
  const kept = new Set(choices);
  const answer = await run({ command: "lesson-request", action: r.id, keys: r.picks, chosen: chosenNow });
  if (!answer) return;
  if (answer.result.kind !== "ok") {
    // the same position: the picked cards and the choices stay, to change one and try again
    keepPicked(r.picks);
    offered = r;
    for (const name of kept) choices.add(name);
    showVariants();
  }
  after(answer.result);
}

async function pick(move) {
  const answer = await run({ command: "lesson-pick", move });
  if (answer) after(answer.result);
}

$("pass").addEventListener("click", async () => {
  const answer = await run({ command: "lesson-pass" });
  if (answer) after(answer.result);
});

function after(result) {
  feedback(result);
  if (result.kind === "ok") {
    $("instruction").focus(); // the next instruction (or the end) in view
  } else {
    $("feedback").querySelector("p").setAttribute("tabindex", "-1");
    $("feedback").querySelector("p").focus({ preventScroll: false });
  }
}

$("instruction").setAttribute("tabindex", "-1");

$("show-answer").addEventListener("click", async () => {
  const answer = await ask({ command: "lesson-answer" });
  if (!answer.ok) return;
  const r = answer.result;
  feedback({ kind: "answer", text: `${r.how} (${r.text})` });
});

$("restart").addEventListener("click", () => lesson && open(lesson));

$("next-lesson").addEventListener("click", () => {
  const index = lessons.indexOf(lesson);
  if (index >= 0 && index + 1 < lessons.length) location.hash = `lesson=${lessons[index + 1].id}`;
});

$("to-list").addEventListener("click", (event) => {
  event.preventDefault();
  history.replaceState(null, "", location.pathname + location.search);
  route();
  $("lessons-title").setAttribute("tabindex", "-1");
  $("lessons-title").focus();
});
