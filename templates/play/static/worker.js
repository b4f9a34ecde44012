// The play page's engine: Pyodide runs the site's own simulator (blackpoker.zip, pure Python) with the rules of
// the site's export. One command at a time: {id, command} in, {id, answer} out (the answer is JSON text).
import { loadPyodide } from "./pyodide/pyodide.mjs";

const here = (path) => new URL(path, import.meta.url).href;
let handle = null;

async function fetchOk(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

async function start() {
  const began = performance.now();
  const phases = {};
  const mark = (name) => { phases[name] = (performance.now() - began) / 1000; };
  const pyodide = await loadPyodide({ indexURL: here("./pyodide/") });
  mark("runtime");
  const [zip, rules] = await Promise.all([
    fetchOk("blackpoker.zip").then((r) => r.arrayBuffer()),
    fetchOk("../blackpoker-rules.json").then((r) => r.text()),
  ]);
  mark("fetched");
  pyodide.unpackArchive(zip, "zip", { extractDir: "/home/pyodide/engine" });
  // no compiled modules here: the sources run as they are
  pyodide.runPython("import os, sys; os.environ['BLACKPOKER_PURE'] = '1'; sys.path.insert(0, '/home/pyodide/engine')");
  const browser = pyodide.pyimport("blackpoker.play.browser");
  mark("engine imported");
  const version = browser.load(rules);
  mark("rules loaded");
  handle = browser.handle;
  postMessage({ ready: version, seconds: (performance.now() - began) / 1000, phases });
}

const ready = start().catch((error) => {
  postMessage({ fatal: String(error && error.message ? error.message : error) });
});

onmessage = async (event) => {
  await ready;
  const { id, command } = event.data;
  if (!handle) {
    postMessage({ id, answer: JSON.stringify({ ok: false, error: "engine not loaded" }) });
    return;
  }
  postMessage({ id, answer: handle(JSON.stringify(command)) });
};
