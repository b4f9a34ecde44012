// The site's simulator in a Web Worker (worker.js), for the play page and the tutorial: one command at a time,
// each answered by its id; the one way both pages make an element; the play-by-play as both show it.

export function connect({ ready, fatal, kept = () => {} }) {
  const worker = new Worker(new URL("worker.js", import.meta.url), { type: "module" });
  let nextId = 1;
  const waiting = new Map();
  worker.onmessage = (event) => {
    const data = event.data;
    if (data.ready !== undefined) ready(data);
    else if (data.fatal !== undefined) fatal(data.fatal);
    else if (data.kept !== undefined) kept(data.kept); // the started engine kept for the next visit (snapshot.js)
    else {
      const resolve = waiting.get(data.id);
      waiting.delete(data.id);
      resolve(JSON.parse(data.answer));
    }
  };
  return (command) => {
    const id = nextId++;
    return new Promise((resolve) => {
      waiting.set(id, resolve);
      worker.postMessage({ id, command });
    });
  };
}

export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (key === "class") node.className = value;
    else node.setAttribute(key, value === true ? "" : value);
  }
  for (const child of children) node.append(child);
  return node;
}

// the engine's play-by-play (play/playbyplay.py): each line pieces of text, an action's name with its entry's address.
// A log grows a line or a few per move and comes whole with every view: the lines already shown stay (no list
// of hundreds of lines made again at each move of a long game), only those after the first that differs (an
// undo, a new game) are replaced. Each shown line's pieces are noted as text, with the list they are shown in.
const shownLines = new WeakMap();

export function showLog(list, lines) {
  const texts = lines.map((pieces) => JSON.stringify(pieces));
  let shown = shownLines.get(list) || [];
  if (shown.length !== list.children.length) shown = []; // emptied elsewhere (a new game's settings)
  let same = 0;
  while (same < shown.length && same < texts.length && shown[same] === texts[same]) same++;
  while (list.children.length > same) list.lastElementChild.remove();
  for (const pieces of lines.slice(same)) {
    const item = el("li");
    for (const piece of pieces) item.append(piece.length > 1 ? el("a", { href: piece[1] }, piece[0]) : piece[0]);
    list.append(item);
  }
  shownLines.set(list, texts);
}
