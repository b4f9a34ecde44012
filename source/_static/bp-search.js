/* The search page's passages under each hit: a name's reading (<rt>, ruby) is not part of the sentence,
   so 「世代交代」 reads 「世代交代」 there and not 「世代交代せだいこうたい」. Sphinx builds the passage
   with Search.htmlToText (searchtools.js); this wraps it, and tests/test_search_browser.py notices if that
   function goes away or stops being used. Loaded with defer: after searchtools.js, before any search. */
"use strict";
(() => {
  if (typeof Search === "undefined" || typeof Search.htmlToText !== "function") return;
  const toText = Search.htmlToText;
  Search.htmlToText = (htmlString, anchor) => {
    const page = new DOMParser().parseFromString(htmlString, "text/html");
    // nor are the pictures: a passage is prose, never a board's or a figure's labels (「ライフ 10 ・ 手札 2」)
    page.querySelectorAll("rt, rp, svg, figure, .bp-boards, .bp-scroll-cue").forEach((el) => el.remove());
    return toText(page.documentElement.outerHTML, anchor);
  };
})();
