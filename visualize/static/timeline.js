/* Timeline page: clicking a bar (or #version=<id>) shows that version and its episode text. */
(function () {
  "use strict";
  var gm = window.graphmem;
  var data = gm.data();
  var panel = document.getElementById("details");
  var bars = document.querySelectorAll("g.bar[data-version]");

  function show(id) {
    var info = data.facts[id];
    if (!info || !panel) { return false; }
    gm.showInPanel(panel, info, "");
    Array.prototype.forEach.call(bars, function (bar) {
      bar.classList.toggle("active", bar.getAttribute("data-version") === id);
    });
    gm.report({ selected: id });
    return true;
  }
  Array.prototype.forEach.call(bars, function (bar) {
    var id = bar.getAttribute("data-version");
    bar.addEventListener("click", function () { show(id); });
    bar.addEventListener("keydown", function (event) {
      if (event.key === "Enter" || event.key === " ") { event.preventDefault(); show(id); }
    });
  });
  function fromHash() {
    var id = gm.hashParams().version;
    if (id) { show(id); }
  }
  window.addEventListener("hashchange", fromHash);
  var svg = document.getElementById("timeline");
  var box = svg ? svg.getBoundingClientRect() : { width: 0, height: 0 };
  gm.report({ ready: true, drawn: bars.length ? 1 : 0, bars: bars.length,
              nodes: bars.length, width: Math.round(box.width), height: Math.round(box.height) });
  fromHash();
})();
