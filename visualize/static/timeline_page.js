/* Timeline page: the as-of control, zoom buttons, and a bar's details with its episode text. */
(function () {
  "use strict";
  var gm = window.graphmem;
  var data = gm.data();
  var box = document.getElementById("timeline-box");
  var panel = document.getElementById("details");
  if (!box) {
    gm.report({ ready: true, drawn: 0, bars: 0, nodes: 0 });
    return;
  }
  var slider = document.getElementById("asof");
  var label = document.getElementById("asof-label");
  /* The as-of stops: every write about the entity, and the time the page was opened at. */
  var stops = data.writes.slice();
  if (stops.indexOf(data.as_of) < 0) { stops.push(data.as_of); stops.sort(function (a, b) { return a - b; }); }
  slider.max = String(stops.length - 1);
  var selected = null;

  function details(id, asOf) {
    var fact = data.facts[id];
    var v = data.versions.filter(function (one) { return one.id === id; })[0];
    if (!fact || !v) { return null; }
    var known = v.recorded_at <= asOf;
    return {
      heading: fact.heading,
      rows: [["status", known ? gm.statusAt(v, asOf) : "not yet recorded"]].concat(fact.rows),
      sources: fact.episodes.map(function (e) {
        return data.episodes[e] || { text: "", cite: "episode " + e + " (not available)" };
      }),
    };
  }
  function show(id) {
    var info = details(id, timeline.asOf());
    if (!info) { return false; }
    selected = id;
    gm.showInPanel(panel, info, "");
    gm.report({ selected: id });
    return true;
  }
  function report() {
    var stats = timeline.stats();
    var known = data.versions.filter(function (v) { return v.recorded_at <= timeline.asOf(); }).length;
    gm.report({ ready: true, drawn: 1, bars: stats.bars, nodes: stats.bars, lanes: stats.lanes,
                labels: stats.labels, hidden: stats.hidden, known: known, as_of: gm.when(timeline.asOf()),
                range: timeline.range(), min_width: stats.min_width });
  }
  var timeline = gm.timeline(box, {
    entity: data.entity, versions: data.versions, asOf: data.as_of,
    onSelect: show, onDraw: function () { if (timeline) { report(); } },
  });

  function setStop(index) {
    index = Math.max(0, Math.min(stops.length - 1, index));
    slider.value = String(index);
    label.textContent = gm.when(stops[index]) + " · " + (index + 1) + " / " + stops.length;
    timeline.setAsOf(stops[index]);
    if (selected) { show(selected); timeline.select(selected); }
  }
  slider.addEventListener("input", function () { setStop(Number(slider.value)); });
  document.getElementById("asof-prev").addEventListener("click", function () { setStop(Number(slider.value) - 1); });
  document.getElementById("asof-next").addEventListener("click", function () { setStop(Number(slider.value) + 1); });
  document.getElementById("zoom-in").addEventListener("click", function () { timeline.zoom(0.5); });
  document.getElementById("zoom-out").addEventListener("click", function () { timeline.zoom(2); });
  document.getElementById("zoom-reset").addEventListener("click", function () { timeline.reset(); });
  function fromHash() {
    var id = gm.hashParams().version;
    if (id && show(id)) { timeline.select(id); }
  }
  window.addEventListener("hashchange", fromHash);
  window.addEventListener("resize", function () { timeline.draw(); });
  setStop(stops.indexOf(data.as_of));
  gm.timelineView = timeline;
  report();
  fromHash();
})();
