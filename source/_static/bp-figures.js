// A figure wider than its box scrolls sideways in it; phones hide the scrollbar, so such a figure is marked
// (bp-overflows: its cue 「横にスクロール」 and a shade at the edge show) and the shade moves once it is scrolled to the end.
(function () {
  "use strict";
  function mark() {
    document.querySelectorAll("figure.bp-figure").forEach(function (figure) {
      var box = figure.querySelector(".bp-figure-scroll");
      if (!box) { return; }
      var over = box.scrollWidth > box.clientWidth + 1;
      figure.classList.toggle("bp-overflows", over);
      figure.classList.toggle("bp-at-end", over && box.scrollLeft + box.clientWidth >= box.scrollWidth - 2);
    });
  }
  document.addEventListener("DOMContentLoaded", function () {
    mark();
    window.addEventListener("resize", mark);
    document.querySelectorAll("figure.bp-figure .bp-figure-scroll").forEach(function (box) {
      box.addEventListener("scroll", mark, {passive: true});
    });
  });
})();
