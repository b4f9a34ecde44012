/* BlackPoker action lists: table-of-contents drawer, and on the full list the format/frame/type filters.
 * Without this script every entry stays visible. No network, no dependencies; works from file://. */
(function () {
  "use strict";
  var doc = document;

  /* ---- table of contents: a drawer on narrow screens ---- */
  var toc = doc.getElementById("toc");
  var toggle = doc.getElementById("toc-toggle");
  function setDrawer(open) {
    if (!toc || !toggle) return;
    toc.classList.toggle("is-open", open);
    doc.body.classList.toggle("drawer-open", open);
    toggle.setAttribute("aria-expanded", open ? "true" : "false");
  }
  if (toggle) {
    toggle.addEventListener("click", function () { setDrawer(!toc.classList.contains("is-open")); });
    toc.addEventListener("click", function (ev) { if (ev.target.closest("a")) setDrawer(false); });
    doc.addEventListener("keydown", function (ev) { if (ev.key === "Escape") setDrawer(false); });
  }

  /* ---- the edition switcher: the same page of the other edition, at the entry the reader is at (the one in
   * the address while it is on screen, else the first entry visible below the top bar), with the same filters ---- */
  function entryInView() {
    var bar = doc.querySelector(".topbar");
    var top = bar ? bar.getBoundingClientRect().bottom : 0;
    var height = window.innerHeight || doc.documentElement.clientHeight;
    function onScreen(el) {
      if (!el || el.hidden || !el.offsetParent) return false;
      var r = el.getBoundingClientRect();
      return r.bottom > top + 8 && r.top < height;
    }
    var named = window.location.hash ? doc.getElementById(window.location.hash.slice(1)) : null;
    if (named && named.closest) named = named.closest("article.entry") || named;
    if (named && named.id && onScreen(named)) return named.id;
    var entries = doc.querySelectorAll("article.entry[id]");
    for (var i = 0; i < entries.length; i++) {
      if (onScreen(entries[i])) return entries[i].id;
    }
    return null;
  }
  doc.addEventListener("click", function (ev) {
    var link = ev.target.closest && ev.target.closest("a.edition-switch");
    if (!link || link.getAttribute("aria-current")) return;
    var entry = entryInView();
    ev.preventDefault();
    window.location.href = link.href.split("#")[0].split("?")[0] + window.location.search + (entry ? "#" + entry : "");
  });

  /* ---- help panels: 「防壁の置き方」 in an entry's text opens its panel (a closed <details> hides its text) ---- */
  function openTarget(id) {
    var panel = id && doc.getElementById(id);
    if (panel && panel.tagName === "DETAILS" && !panel.open) panel.open = true;
  }
  doc.addEventListener("click", function (ev) {
    var ref = ev.target.closest && ev.target.closest("a.help-ref");
    if (ref) openTarget(ref.getAttribute("href").slice(1));
  });
  window.addEventListener("hashchange", function () { openTarget(window.location.hash.slice(1)); });
  openTarget(window.location.hash.slice(1));

  /* ---- filters (all.html only) ---- */
  var dataEl = doc.getElementById("filter-data");
  if (!dataEl) return;
  var data = JSON.parse(dataEl.textContent);
  var state = { format: "all", frame: "none", categories: [] };

  function norm(text) { return String(text).normalize("NFKC").replace(/\s+/g, ""); }
  function byIdOrName(list, value) {
    var v = norm(value);
    for (var i = 0; i < list.length; i++) {
      if (norm(list[i].id) === v || norm(list[i].name) === v) return list[i];
    }
    return null;
  }
  function frameById(id) { return byIdOrName(data.frames, id); }

  /* frames offered for a format (Table 3.1) */
  function framesFor(format) {
    return data.frames.filter(function (f) { return format === "all" || f.formats.indexOf(format) >= 0; })
      .map(function (f) { return f.id; });
  }
  function frameAllowed(frame, format) {
    return frame === "none" || frame === "all" || framesFor(format).indexOf(frame) >= 0;
  }

  /* what the address asked for that cannot be shown, and why (shown on the page, not dropped silently) */
  var notices = [];

  function readUrl() {
    var q = new URLSearchParams(window.location.search);
    var format = q.get("format"), frame = q.get("frame");
    if (format) {
      var f = norm(format) === "all" ? { id: "all" } : byIdOrName(data.formats, format);
      if (f) state.format = f.id;
      else notices.push("フォーマット「" + format + "」はありません。全フォーマットを表示しています。");
    }
    if (frame) {
      var v = norm(frame);
      if (v === "none" || v === "指定なし" || v === "なし") state.frame = "none";
      else if (v === "all" || v === "すべて") state.frame = "all";
      else {
        var fr = frameById(frame);
        if (fr) state.frame = fr.id;
        else notices.push("フレーム「" + frame + "」はありません。フレームなしで表示しています。");
      }
    }
    var cats = [];
    q.getAll("category").forEach(function (value) {
      value.split(",").forEach(function (c) {
        var hit = data.categories.filter(function (k) { return norm(k) === norm(c); })[0];
        if (hit && cats.indexOf(hit) < 0) cats.push(hit);
        else if (!hit && c) notices.push("タイプ「" + c + "」はありません。");
      });
    });
    state.categories = cats;
    if (!frameAllowed(state.frame, state.format)) {
      notices.push(frameById(state.frame).name + " は" + byIdOrName(data.formats, state.format).name +
        "では使えないフレームです(表 3.1)。フレームなしで表示しています。");
      state.frame = "none";
    }
  }

  function writeUrl() {
    var q = new URLSearchParams();
    if (state.format !== "all") q.set("format", state.format);
    if (state.frame !== "none") q.set("frame", state.frame);
    if (state.categories.length) q.set("category", state.categories.join(","));
    var qs = q.toString();
    try {
      window.history.replaceState(null, "", window.location.pathname + (qs ? "?" + qs : "") + window.location.hash);
    } catch (e) { /* some browsers refuse history on file:// — the filter still works */ }
  }

  function words(el, attr) { return (el.getAttribute(attr) || "").split(" ").filter(Boolean); }

  function isVisible(el) {
    if (state.categories.length && state.categories.indexOf(el.getAttribute("data-category")) < 0) return false;
    var frames = words(el, "data-frames");
    if (frames.length) {
      var allowed = state.frame === "none" ? [] : state.frame === "all" ? framesFor(state.format) : [state.frame];
      return frames.some(function (f) { return allowed.indexOf(f) >= 0; });
    }
    return state.format === "all" || words(el, "data-formats").indexOf(state.format) >= 0;
  }

  function label() {
    var parts = [state.format === "all" ? "全フォーマット" : byIdOrName(data.formats, state.format).name];
    if (state.frame === "all") parts.push("全フレーム");
    else if (state.frame !== "none") parts.push(frameById(state.frame).name);
    var text = parts.join(" + ");
    if (state.categories.length) text += " ・ " + state.categories.join("/");
    return text;
  }

  var entries = Array.prototype.slice.call(doc.querySelectorAll("article.entry"));
  var tocItems = {};
  Array.prototype.forEach.call(doc.querySelectorAll("#toc li[data-target]"), function (li) {
    tocItems[li.getAttribute("data-target")] = li;
  });

  function apply() {
    var shown = 0;
    entries.forEach(function (el) {
      var vis = isVisible(el);
      el.hidden = !vis;
      if (tocItems[el.id]) tocItems[el.id].hidden = !vis;
      if (vis) shown++;
    });
    Array.prototype.forEach.call(doc.querySelectorAll("section.group"), function (g) {
      var any = g.querySelector("article.entry:not([hidden])") !== null;
      g.hidden = !any;
      var li = doc.querySelector('#toc li[data-group="' + g.id + '"]');
      if (li) li.hidden = !any;
    });
    Array.prototype.forEach.call(doc.querySelectorAll("section.list-section"), function (s) {
      var any = s.querySelector("section.group:not([hidden])") !== null;
      s.hidden = !any;
      var li = doc.querySelector('#toc li[data-section="' + s.id + '"]');
      if (li) li.hidden = !any;
    });
    Array.prototype.forEach.call(doc.querySelectorAll("[data-filter] button"), function (b) {
      var kind = b.parentNode.getAttribute("data-filter"), v = b.getAttribute("data-value");
      var pressed = kind === "category" ? state.categories.indexOf(v) >= 0 : state[kind] === v;
      b.setAttribute("aria-pressed", pressed ? "true" : "false");
      if (kind === "frame") b.disabled = !frameAllowed(v, state.format);
      if (kind === "format") b.disabled = v !== "all" && state.frame !== "none" && state.frame !== "all" &&
        frameById(state.frame).formats.indexOf(v) < 0;
      if (b.disabled) b.title = kind === "frame" ? "このフォーマットでは使えないフレームです" : "このフレームでは使えないフォーマットです";
      else b.removeAttribute("title");
    });
    var text = label();
    doc.getElementById("active-filter").textContent = text;
    doc.getElementById("visible-count").textContent = String(shown);
    doc.getElementById("filter-empty").hidden = shown > 0;
    var notice = doc.getElementById("filter-notice");
    notice.textContent = notices.join(" ");  /* text, never markup: it quotes the address */
    notice.hidden = notices.length === 0;
    doc.title = text + " | " + doc.title.split(" | ").slice(-1)[0];
    writeUrl();
  }

  doc.getElementById("filters").addEventListener("click", function (ev) {
    var b = ev.target.closest("[data-filter] button");
    if (!b || b.disabled) return;
    notices = [];  /* the reader chose anew: the address's problems are past */
    var kind = b.parentNode.getAttribute("data-filter"), v = b.getAttribute("data-value");
    if (kind === "category") {
      var i = state.categories.indexOf(v);
      if (i >= 0) state.categories.splice(i, 1); else state.categories.push(v);
      state.categories.sort(function (a, b2) { return data.categories.indexOf(a) - data.categories.indexOf(b2); });
    } else {
      state[kind] = v;
      if (!frameAllowed(state.frame, state.format)) state.frame = "none";
    }
    apply();
  });
  doc.getElementById("filter-reset").addEventListener("click", function () {
    state = { format: "all", frame: "none", categories: [] };
    notices = [];
    apply();
  });

  readUrl();
  apply();
  if (window.location.hash) {
    var target = doc.getElementById(window.location.hash.slice(1));
    // an official anchor (act-summonsSoldier) is an empty element inside its entry: scroll to the entry
    if (target && target.closest) target = target.closest("article.entry") || target;
    if (target && !target.hidden) target.scrollIntoView();
  }
})();
