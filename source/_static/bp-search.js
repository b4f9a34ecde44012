/* The search page's passages under each hit: a name's reading (<rt>, ruby) is not part of the sentence,
   so 「世代交代」 reads 「世代交代」 there and not 「世代交代せだいこうたい」. Sphinx builds the passage
   with Search.htmlToText (searchtools.js); this wraps it, and tests/test_search_browser.py notices if that
   function goes away or stops being used. Loaded with defer: after searchtools.js, before any search.
   A name is looked up whole (sphinxext/search.py indexes every entry name whole). Each place is listed once:
   Sphinx keeps hits that differ only in their heading's wording (「コアルール」 from the index entry,
   「コアルール > チャンス」 from the title), so this keeps the best-ranked hit per page and anchor. */
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
  // a query the index has whole (an entry's name: 「B・J」, 「R・S・F」) is one word; Sphinx's splitter would cut it
  // at the 「・」 into letters too short to search for
  if (typeof splitQuery === "function") {
    const split = splitQuery;
    splitQuery = (query) => {
      const whole = query.trim();
      const terms = Search._index && Search._index.terms;
      return terms && Object.hasOwn(terms, whole.toLowerCase()) ? [whole] : split(query);
    };
  }
  const perform = Search._performSearch;
  if (typeof perform !== "function") return;
  Search._performSearch = (...args) => {
    // best last (the page shows the list from its end): keep the last hit of each place
    const seen = new Set();
    return perform(...args).reverse().filter((hit) => {
      const place = `${hit[0]}${hit[2]}`;
      if (seen.has(place)) return false;
      seen.add(place);
      return true;
    }).reverse();
  };
})();
