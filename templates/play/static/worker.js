// The play page's engine: Pyodide runs the site's own simulator (blackpoker.zip, pure Python) with the rules of
// the site's export. One command at a time: {id, command} in, {id, answer} out (the answer is JSON text).
// A later visit restores the engine kept by the first one (snapshot.js) instead of booting Python again.
import { loadPyodide, version as runtimeVersion } from "./pyodide/pyodide.mjs";
import { bootOptions, engineKey, forgetEngine, keepEngine, keptEngine, takeSnapshot } from "./snapshot.js";

const here = (path) => new URL(path, import.meta.url).href;
const ENGINE_DIR = "/home/pyodide/engine";
let handle = null;

async function fetchOk(path) {
  const response = await fetch(here(path));
  if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
  return response;
}

// the engine's files: a restored engine has its modules imported already, but a function may import one later
function unpack(pyodide, zip) {
  pyodide.unpackArchive(zip, "zip", { extractDir: ENGINE_DIR });
}

async function restore(kept, zip) {
  const pyodide = await loadPyodide(bootOptions({ indexURL: here("./pyodide/") }, kept));
  unpack(pyodide, zip);
  return pyodide;
}

async function start() {
  const began = performance.now();
  const phases = {};
  const mark = (name) => { phases[name] = (performance.now() - began) / 1000; };
  const [zip, rules] = await Promise.all([
    fetchOk("blackpoker.zip").then((r) => r.arrayBuffer()),
    fetchOk("../blackpoker-rules.json").then((r) => r.text()),
  ]);
  const key = await engineKey(runtimeVersion, zip, rules);
  const kept = await keptEngine(key);
  mark("fetched");
  let pyodide = null;
  if (kept) {
    try {
      pyodide = await restore(kept, zip);
      mark("restored");
    } catch {
      await forgetEngine(key);
      pyodide = null;
    }
  }
  let snapshot = null;
  if (!pyodide) {
    pyodide = await loadPyodide(bootOptions({ indexURL: here("./pyodide/") }, null));
    mark("runtime");
    unpack(pyodide, zip);
    // no compiled modules here: the sources run as they are
    pyodide.runPython(`import os, sys; os.environ['BLACKPOKER_PURE'] = '1'; sys.path.insert(0, '${ENGINE_DIR}')`);
    pyodide.runPython("import blackpoker.play.browser");
    mark("engine imported");
    pyodide.globals.set("rules_json", rules);
    pyodide.runPython("blackpoker.play.browser.load(rules_json); del rules_json");
    mark("rules loaded");
  }
  const browser = pyodide.pyimport("blackpoker.play.browser");
  handle = browser.handle;
  postMessage({ ready: browser.edition(), seconds: (performance.now() - began) / 1000, phases });
  // at once, in this same task, so that no command of the page runs before it: the engine as it started, no game
  if (!phases.restored) snapshot = takeSnapshot(pyodide);
  // kept while the page's commands run (the next visit restores it); the commands need not wait for it
  keepEngine(key, snapshot).then((kept) => postMessage({ kept }));
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
