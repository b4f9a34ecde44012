// The engine kept for a later visit: the one module that uses Pyodide's memory snapshots (loadPyodide's private
// options _makeSnapshot and _loadSnapshot, and makeMemorySnapshot, as in Pyodide 0.27). After the first start
// (Python booted, the engine imported, the rules loaded) the worker takes a copy of the interpreter's memory and
// keeps it in the browser's Cache Storage under a key made of the runtime's version, the engine's zip and the
// rules; a later visit with the same key restores that memory instead of booting Python and importing again.
// Anything that fails here (no Cache Storage, a snapshot of another runtime build) falls back to the full start.
// tests/test_play_browser.py::test_a_later_visit_restores_the_kept_engine is the canary for a new Pyodide version.

const CACHE = "blackpoker-play";
const PREFIX = new URL("engine-snapshot/", import.meta.url).href; // one per site: several sites may share an origin

const hex = (buffer) => Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, "0")).join("");

// The key of an engine: what the kept memory was made from.
export async function engineKey(runtimeVersion, zip, rules) {
  const parts = [new TextEncoder().encode(`${runtimeVersion}\n`), new Uint8Array(zip), new TextEncoder().encode(rules)];
  const all = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let at = 0;
  for (const part of parts) {
    all.set(part, at);
    at += part.length;
  }
  return hex(await crypto.subtle.digest("SHA-256", all));
}

function available() {
  return typeof caches !== "undefined" && typeof crypto !== "undefined" && crypto.subtle !== undefined;
}

// Pyodide 0.27's snapshot: a header (its magic number, its length, …) then the whole memory, in 64 KiB pages.
const MAGIC = 1886286592;
const PAGE = 65536;

// Whether ``bytes`` has the shape of a snapshot: a damaged one (cut short) would make Pyodide wait forever
// instead of refusing it.
function wellFormed(bytes) {
  if (bytes.byteLength < 64 || bytes.byteLength % 4 !== 0) return false;
  const [magic, header] = new Uint32Array(bytes.buffer, bytes.byteOffset, 2);
  const memory = bytes.byteLength - header;
  return magic === MAGIC && header >= 48 && memory >= 256 * PAGE && memory % PAGE === 0;
}

// The kept memory for this key (a Uint8Array), or null; a damaged one is dropped.
export async function keptEngine(key) {
  if (!available()) return null;
  try {
    const cache = await caches.open(CACHE);
    const found = await cache.match(PREFIX + key);
    if (!found) return null;
    const bytes = new Uint8Array(await found.arrayBuffer());
    if (wellFormed(bytes)) return bytes;
    await cache.delete(PREFIX + key);
    return null;
  } catch {
    return null;
  }
}

// loadPyodide's options to restore ``kept`` (or, without it, to boot so that a snapshot can be taken).
export function bootOptions(options, kept) {
  if (!available()) return options;
  return kept ? { ...options, _loadSnapshot: kept } : { ...options, _makeSnapshot: true };
}

// A copy of the interpreter's memory now, or null when it cannot be taken (booted without the option).
export function takeSnapshot(pyodide) {
  try {
    return pyodide.makeMemorySnapshot();
  } catch {
    return null;
  }
}

// Keep ``snapshot`` for the next visit, in place of this site's older ones; says whether it was kept.
export async function keepEngine(key, snapshot) {
  if (!available() || !snapshot) return false;
  try {
    const cache = await caches.open(CACHE);
    for (const request of await cache.keys()) {
      if (request.url.startsWith(PREFIX)) await cache.delete(request);
    }
    await cache.put(PREFIX + key, new Response(snapshot, { headers: { "Content-Type": "application/octet-stream" } }));
    return true;
  } catch {
    return false; // a full disk or a private window: the next visit starts in full
  }
}

// Drop this site's kept engine (it could not be restored).
export async function forgetEngine(key) {
  if (!available()) return;
  try {
    await (await caches.open(CACHE)).delete(PREFIX + key);
  } catch {
    // nothing kept
  }
}
