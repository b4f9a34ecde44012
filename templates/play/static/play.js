// The play page: settings, the board, the offered moves and the play-by-play. The engine runs in a Web Worker
// (worker.js); this script only shows what it answers. Every offered move is a <button data-move="N">, N being the
// move's index among the engine's legal decisions.

import { connect, el, showLog as fillLog } from "./engine.js";

const $ = (id) => document.getElementById(id);
const form = $("new-game");
const regulations = JSON.parse(form.dataset.regulations);
const statusLine = $("status");
const CHOOSE_SETTINGS = "設定を選んで「対戦を始める」を押してください。"; // when the page is ready, and after a game

let busy = false;
let current = null; // the last view
let settings = null;
const timings = []; // seconds per computer decision (read by the benchmark)
// for tests and assistive tools: whether the engine is ready, the computer's decision times, and the engine itself
window.bpPlay = { timings, ready: false, kept: null, loadSeconds: null, phases: null, ask: (command) => ask(command) };

const ask = connect({
  ready: (data) => {
    window.bpPlay.ready = true;
    window.bpPlay.loadSeconds = data.seconds;
    window.bpPlay.phases = data.phases; // seconds from the worker's start: fetched, then restored (a later visit) or runtime, engine imported, rules loaded
    $("start").disabled = false;
    $("load").disabled = false;
    $("open-saved").disabled = false;
    statusLine.textContent = `準備ができました (ルール ${data.ready})。${CHOOSE_SETTINGS}`;
    openFromLink();
    openExample();
  },
  fatal: (message) => {
    statusLine.textContent = `シミュレーターを読み込めませんでした: ${message}`;
  },
  kept: (kept) => {
    window.bpPlay.kept = kept;
  },
});

// --- settings -----------------------------------------------------------------------------------------------
function refreshFrames() {
  const format = regulations.find((f) => f.id === $("format").value);
  const select = $("frame");
  const kept = select.value;
  select.replaceChildren(new Option("なし (共通ルール)", ""));
  for (const frame of format.frames) select.add(new Option(frame.name, frame.id));
  select.value = format.frames.some((f) => f.id === kept) ? kept : "";
}
$("format").addEventListener("change", refreshFrames);
$("opponent").addEventListener("change", () => {
  $("strength").disabled = $("opponent").value !== "ismcts";
});

function opponentSpec() {
  const name = $("opponent").value;
  return name === "ismcts" ? $("strength").value : name;
}

form.addEventListener("submit", async (event) => {
  event.preventDefault();
  if (busy) return;
  const seedText = $("seed").value.trim();
  const seed = seedText === "" ? Math.floor(Math.random() * 2147483647) : Number(seedText);
  settings = { format: $("format").value, frame: $("frame").value || null, opponent: opponentSpec(),
               starts: $("starts").value, seed };
  await run({ command: "new", ...settings }, "対局を準備しています…");
});

// --- running commands ---------------------------------------------------------------------------------------
async function run(command, message) {
  busy = true;
  setBusy(message);
  try {
    const answer = await ask(command);
    if (!answer.ok) {
      statusLine.textContent = `できませんでした: ${answer.error}`;
      return answer;
    }
    if (answer.view) show(answer.view);
    await computerTurns();
    return answer;
  } finally {
    busy = false;
    setBusy(null);
  }
}

async function computerTurns() {
  while (current && !current.winner && current.to_act !== null && current.to_act !== current.you) {
    const answer = await ask({ command: "step" });
    if (!answer.ok) {
      statusLine.textContent = `コンピューターの手でエラー: ${answer.error}`;
      return;
    }
    timings.push(answer.seconds);
    statusLine.textContent = `コンピューター ${answer.did}`;
    show(answer.view);
    await new Promise((r) => requestAnimationFrame(() => r()));
  }
}

function setBusy(message) {
  document.body.classList.toggle("busy", message !== null);
  $("undo").disabled = message !== null || !current || !current.can_undo;
  for (const button of document.querySelectorAll("#moves button")) button.disabled = message !== null;
  if (message) statusLine.textContent = message;
  else if (current && !current.winner) {
    statusLine.textContent = current.to_act === current.you ? "あなたの番です。" : statusLine.textContent;
  }
}

// --- drawing ------------------------------------------------------------------------------------------------
function show(view) {
  current = view;
  $("game").hidden = false;
  $("board").innerHTML = view.board; // drawn by the rulebook's renderer (render/board.py), text escaped there
  const chance = view.chance === null ? "ルールシステム" : view.chance;
  $("summary").textContent = `あなたは ${view.you} ・ 第${view.turn}ターン (ターンプレイヤー ${view.turn_player}) ・ チャンス ${chance}`
    + (view.stage.length ? ` ・ ステージ (上から): ${view.stage.join(" → ")}` : " ・ ステージ: 空");
  $("moved").textContent = view.moved.length ? `前のあなたの手から動いたカード (盤面で橙色の枠): ${view.moved.join(" ")}` : "";
  showResult(view);
  showMoves(view.moves);
  showLog(view.log);
  $("undo").disabled = !view.can_undo;
  $("save").hidden = !view.can_save;
  $("share").hidden = !view.can_save;
}

function showResult(view) {
  const box = $("result");
  box.replaceChildren();
  if (view.game_over) {
    const text = view.winner === view.you ? `${view.game_over} (あなたの勝ち)` : `${view.game_over} (コンピューターの勝ち)`;
    box.append(el("p", { class: "game-over", "data-game-over": view.winner }, text));
    statusLine.textContent = `対局が終わりました: ${view.game_over}`;
  }
}

function moveButton(move, text) {
  const button = el("button", { type: "button", "data-move": String(move) }, text);
  button.addEventListener("click", () => choose(move));
  return button;
}

function entryText(action) {
  const box = el("div", { class: "entry" });
  box.append(el("p", {}, `${action.shorthand}` + (action.cost ? ` $${action.cost}` : "") + (action.key_card ? ` ★${action.key_card}` : "")));
  if (action.target) box.append(el("p", {}, `対象: ${action.target}`));
  for (const line of action.effect) box.append(el("p", {}, line));
  box.append(el("a", { href: action.href }, `アクションリストで「${action.name}」を見る`));
  return box;
}

function showMoves(moves) {
  const box = $("moves");
  box.replaceChildren();
  if (moves.kind === "wait") {
    box.append(el("p", { class: "hint" }, current && current.winner ? "対局は終わりました。" : "コンピューターが考えています…"));
    return;
  }
  if (moves.kind === "question") {
    box.append(el("p", { class: "question" }, moves.prompt));
    const list = el("div", { class: "answers" });
    for (const option of moves.options) list.append(moveButton(option.move, option.text));
    box.append(list);
    return;
  }
  if (moves.pass !== null) {
    box.append(el("div", { class: "pass" }, moveButton(moves.pass, "パス (チャンスを渡す)")));
  }
  if (!moves.groups.length) return;
  box.append(el("p", { class: "hint" }, "カードを選ぶと、そのカードをキーカードにできるアクションが出ます。"));
  for (const group of moves.groups) {
    const details = el("details", { class: "key-group" });
    const red = group.card && /^[♡◇]/.test(group.card);
    details.append(el("summary", { class: red ? "red" : null }, `${group.label}` + ` (${group.actions.length})`));
    for (const action of group.actions) {
      const inner = el("details", { class: "action" });
      inner.append(el("summary", {}, action.name, el("span", { class: "shorthand" }, ` ${action.shorthand}`)));
      const more = el("details", { class: "entry-box" }, el("summary", {}, "効果を見る"), entryText(action));
      inner.append(more);
      const variants = el("div", { class: "variants" });
      for (const variant of action.moves) variants.append(moveButton(variant.move, variant.text));
      inner.append(variants);
      if (group.actions.length === 1) inner.open = true;
      details.append(inner);
    }
    box.append(details);
  }
}

function showLog(lines) {
  const log = $("log");
  fillLog(log, lines);
  log.scrollTop = log.scrollHeight;
}

async function choose(move) {
  if (busy) return;
  await run({ command: "play", move }, "…");
  focusMoves();
}

function focusMoves() {
  const first = document.querySelector("#moves button, #moves summary");
  if (first && current && current.to_act === current.you) first.focus({ preventScroll: true });
}

// --- undo, save, load ---------------------------------------------------------------------------------------
$("undo").addEventListener("click", async () => {
  if (busy) return;
  await run({ command: "undo" }, "一手戻しています…");
  statusLine.textContent = "あなたの前の手の前に戻しました。";
});

$("again").addEventListener("click", () => {
  $("game").hidden = true;
  current = null;
  // The last game's result and moves go with it: a hidden result would still be read as this game's by assistive
  // technology and by anything that looks for the game's end.
  for (const id of ["result", "moves", "board", "log"]) $(id).replaceChildren();
  statusLine.textContent = CHOOSE_SETTINGS;
  history.replaceState(null, "", location.pathname + location.search);
  $("format").focus();
});

async function recordText() {
  const answer = await ask({ command: "record" });
  return JSON.stringify(answer.record, null, 1) + "\n";
}

$("save").addEventListener("click", async () => {
  const text = await recordText();
  const url = URL.createObjectURL(new Blob([text], { type: "application/json" }));
  const link = el("a", { href: url, download: `blackpoker-game-${settings ? settings.seed : "saved"}.json` });
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 1000);
  statusLine.textContent = "対局を保存しました (blackpoker sim replay で再生できます)。";
});

async function compress(text) {
  const stream = new Blob([text]).stream().pipeThrough(new CompressionStream("deflate-raw"));
  const bytes = new Uint8Array(await new Response(stream).arrayBuffer());
  let binary = "";
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

async function decompress(code) {
  const binary = atob(code.replaceAll("-", "+").replaceAll("_", "/"));
  const bytes = Uint8Array.from(binary, (c) => c.charCodeAt(0));
  const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream("deflate-raw"));
  return new Response(stream).text();
}

$("share").addEventListener("click", async (event) => {
  event.preventDefault();
  const code = await compress(await recordText());
  const url = `${location.origin}${location.pathname}#game=${code}`;
  history.replaceState(null, "", url);
  $("share").href = url;
  try {
    await navigator.clipboard.writeText(url);
    statusLine.textContent = "この対局のリンクをコピーしました (アドレス欄のリンクです)。";
  } catch {
    statusLine.textContent = "この対局のリンクをアドレス欄に入れました。";
  }
});

async function resumeFrom(text, origin) {
  let record;
  try {
    record = JSON.parse(text);
  } catch {
    statusLine.textContent = `${origin}は対局の記録 (JSON) ではありません。`;
    return;
  }
  settings = { format: record.format, frame: record.frame, seed: record.seed, opponent: null, starts: null };
  await run({ command: "resume", record }, "保存した対局を再現しています…");
}

// the browser's own file control says "Choose File" in its own language: a Japanese button opens it instead
$("open-saved").addEventListener("click", () => $("load").click());
$("load").addEventListener("change", async () => {
  const file = $("load").files[0];
  if (file) await resumeFrom(await file.text(), "このファイル");
  $("load").value = "";
});

// 「この局面から遊ぶ」: the rulebook's worked example ?example=STEM, from its starting position (written by the build)
async function openExample() {
  const stem = new URLSearchParams(location.search).get("example");
  if (!stem || !/^[A-Za-z0-9_-]+$/.test(stem)) return;
  const response = await fetch(`examples/${stem}.json`);
  if (!response.ok) {
    statusLine.textContent = "この例の局面が見つかりませんでした。";
    return;
  }
  const position = await response.json();
  settings = { example: stem, opponent: opponentSpec() };
  const answer = await run({ command: "position", position, opponent: opponentSpec(), seed: 0 }, "例の局面を準備しています…");
  if (answer && answer.ok) {
    $("example-title").textContent = `ルールブックの例「${answer.title}」のはじめの局面から (相手: ${$("opponent").selectedOptions[0].text})`;
    $("example-title").hidden = false;
  }
}

async function openFromLink() {
  const match = location.hash.match(/^#game=([A-Za-z0-9_-]+)$/);
  if (!match) return;
  let text;
  try {
    text = await decompress(match[1]);
  } catch {
    statusLine.textContent = "リンクの対局を読めませんでした。";
    return;
  }
  await resumeFrom(text, "リンク");
}
