/* Evolution page: a slider scaled by date over writes; each stop is built from the deltas. */
(function () {
  "use strict";
  var gm = window.graphmem;
  var data = gm.data();
  var steps = data.steps;
  var container = document.getElementById("graph");
  if (!container || !steps.length) {
    gm.report({ ready: true, drawn: 0, nodes: 0, edges: 0, edge_ids: [], inked: 0, step: 0 });
    return;
  }
  var slider = document.getElementById("step");
  var label = document.getElementById("step-label");
  var caption = document.getElementById("caption");
  var panel = document.getElementById("details");
  var playButton = document.getElementById("play");
  var ticks = document.getElementById("ticks");
  var first = steps[0].at;
  var last = Math.max(steps[steps.length - 1].at, first + 1);
  var current = steps.length;
  var timer = null;
  var ready = false;

  /* Each version's life on the slider: believed from the stop that created it (0: at the
     start) until the stop that closed it. */
  var born = {};
  var died = {};
  data.start.forEach(function (id) { born[id] = 0; });
  steps.forEach(function (step, index) {
    step.created.forEach(function (id) { if (!(id in born)) { born[id] = index + 1; } });
    step.closed.forEach(function (id) { if (!(id in died)) { died[id] = index + 1; } });
  });
  var endpoints = {};
  data.graph.edges.forEach(function (edge) { endpoints[edge.id] = edge; });
  var nodeOf = {};
  data.graph.nodes.forEach(function (node) { nodeOf[node.id] = node; });
  data.graph.edges.forEach(function (edge) { edge.hidden = true; });

  function times(id) {
    var t = data.times[id];
    return { valid_from: t[0], valid_to: t[1], recorded_at: t[2], superseded_at: t[3], retracted: t[4] };
  }
  function statusOf(id, at) { return gm.statusAt(times(id), at); }
  function colour(status) { return data.colours[status] || "#9e9e9e"; }
  function info(id, status) {
    var fact = data.facts[id];
    if (!fact) { return null; }
    return {
      heading: fact.heading,
      rows: [["status at this write", status]].concat(fact.rows),
      sources: fact.episodes.map(function (e) {
        return data.episodes[e] || { text: "", cite: "episode " + e + " (not available)" };
      }),
    };
  }
  function changeText(id) {
    var fact = data.facts[id];
    if (!fact) { return "version " + id + " (no longer in the store)"; }
    var t = times(id);
    return fact.heading + " · valid " + gm.period(t.valid_from, t.valid_to);
  }

  var view = gm.drawGraph(container, data.graph, data.facts, { onStable: function () {
    ready = true;
    show(current, { fit: false });
  } });

  function renderCaption(step, index, at) {
    while (caption.firstChild) { caption.removeChild(caption.firstChild); }
    var headline = gm.el("div", "headline");
    headline.appendChild(gm.el("span", "when", "Write " + index + " of " + steps.length + " · " + step.when));
    headline.appendChild(document.createTextNode(step.headline));
    caption.appendChild(headline);
    if (step.meaning) { caption.appendChild(gm.el("div", "meaning", step.meaning)); }
    var list = gm.el("ul");
    [["−", step.closed], ["+", step.created]].forEach(function (pair) {
      pair[1].forEach(function (id) {
        var status = data.times[id] ? statusOf(id, at) : "unknown";
        var item = gm.el("li");
        item.appendChild(gm.el("span", "sign " + (pair[0] === "+" ? "add" : "remove"), pair[0]));
        item.appendChild(document.createTextNode(changeText(id) + " "));
        item.appendChild(gm.el("span", "pill status-" + status.replace(/[^a-z]/g, ""), status));
        list.appendChild(item);
      });
    });
    caption.appendChild(list);
    if (step.reason) { caption.appendChild(gm.el("div", "reason", "Reason: " + step.reason)); }
    var quote = step.episode && data.episodes[step.episode];
    if (quote) { caption.appendChild(gm.el("div", "quote", "“" + quote.text + "”")); }
  }

  /* Bring the changed entities into view when any of them is off screen. */
  function bringIntoView(ids) {
    if (!ids.length) { return; }
    var box = container.getBoundingClientRect();
    var positions = view.network.getPositions(ids);
    var outside = ids.some(function (id) {
      var p = positions[id] && view.network.canvasToDOM(positions[id]);
      return !p || p.x < 20 || p.y < 20 || p.x > box.width - 20 || p.y > box.height - 20;
    });
    if (outside) {
      view.network.fit({ nodes: ids, maxZoomLevel: 1.2, animation: timer ? false : { duration: 250 } });
    }
  }

  function show(index, options) {
    options = options || {};
    index = Math.max(1, Math.min(steps.length, index));
    current = index;
    var step = steps[index - 1];
    var at = step.at;
    var changed = {};
    step.created.concat(step.closed).forEach(function (id) { changed[id] = true; });
    var used = {};
    var lit = {};
    var shownIds = [];
    var updates = data.graph.edges.map(function (edge) {
      var id = edge.id;
      var visible = (born[id] !== undefined && born[id] <= index && !(died[id] <= index)) || died[id] === index;
      if (!visible) { return { id: id, hidden: true }; }
      shownIds.push(id);
      used[edge.from] = true;
      used[edge.to] = true;
      var status = statusOf(id, at);
      var c = colour(status);
      if (changed[id]) { lit[edge.from] = true; lit[edge.to] = true; } else { c = c + "44"; }
      return {
        id: id, hidden: false, dashes: status === "superseded" || status === "retracted",
        width: changed[id] ? 4 : 1.5,
        color: { color: c, highlight: colour(status), hover: colour(status) },
        font: { color: changed[id] ? colour(status) : "#9aa5b1" },
        title: gm.details(info(id, status)),
      };
    });
    view.edges.update(updates);
    var anyChange = Object.keys(lit).length > 0;
    view.nodes.update(data.graph.nodes.map(function (node) {
      return { id: node.id, hidden: !used[node.id], opacity: !anyChange || lit[node.id] ? 1 : 0.35 };
    }));
    slider.value = String(at);
    label.textContent = index + " / " + steps.length;
    Array.prototype.forEach.call(ticks.querySelectorAll("line"), function (line, i) {
      line.setAttribute("class", i === index - 1 ? "here" : "");
    });
    renderCaption(step, index, at);
    if (location.hash !== "#step=" + index && history.replaceState) {
      history.replaceState(null, "", "#step=" + index);
    }
    if (ready && options.fit !== false) { bringIntoView(Object.keys(lit)); }
    var changedIds = Object.keys(changed).filter(function (id) { return data.times[id]; }).sort();
    gm.report({ step: index, nodes: view.visible().nodes, edges: shownIds.length,
                edge_ids: shownIds.sort(), changed: changedIds, ready: ready });
  }

  /* The last stop at or before a time (the first stop when the time is earlier). */
  function stopAt(time) {
    var low = 0;
    var high = steps.length - 1;
    if (time < steps[0].at) { return 1; }
    while (low < high) {
      var mid = Math.ceil((low + high) / 2);
      if (steps[mid].at <= time) { low = mid; } else { high = mid - 1; }
    }
    return low + 1;
  }

  function drawTicks() {
    steps.forEach(function (step) {
      var x = (1000 * (step.at - first) / (last - first)).toFixed(1);
      var line = document.createElementNS("http://www.w3.org/2000/svg", "line");
      line.setAttribute("x1", x); line.setAttribute("x2", x);
      line.setAttribute("y1", "2"); line.setAttribute("y2", "12");
      ticks.appendChild(line);
    });
  }

  function stop() {
    if (timer) { clearInterval(timer); timer = null; }
    playButton.textContent = "▶ Play";
    playButton.setAttribute("aria-label", "play");
  }
  function play() {
    if (timer) { stop(); return; }
    if (current >= steps.length) { show(1); }
    playButton.textContent = "⏸ Pause";
    playButton.setAttribute("aria-label", "pause");
    timer = setInterval(function () {
      if (current >= steps.length) { stop(); return; }
      show(current + 1);
    }, 1200);
  }

  function fillTable() {
    var body = document.getElementById("write-rows");
    if (body.firstChild) { return; }
    steps.forEach(function (step, i) {
      var row = gm.el("tr", "clickable");
      row.setAttribute("data-step", String(i + 1));
      row.appendChild(gm.el("td", "fit", i + 1));
      row.appendChild(gm.el("td", "fit", step.when));
      var op = gm.el("td", "fit");
      op.appendChild(gm.el("strong", "", step.op));
      op.appendChild(gm.el("br"));
      op.appendChild(gm.el("small", "", step.meaning));
      row.appendChild(op);
      var text = step.closed.map(function (id) { return "− " + changeText(id); })
        .concat(step.created.map(function (id) { return "+ " + changeText(id); }));
      if (step.reason) { text.push("reason: " + step.reason); }
      row.appendChild(gm.el("td", "", text.join("\n")));
      row.addEventListener("click", function () { stop(); show(i + 1); });
      body.appendChild(row);
    });
  }

  slider.addEventListener("input", function () { stop(); show(stopAt(Number(slider.value))); });
  document.getElementById("prev").addEventListener("click", function () { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); show(current + 1); });
  document.getElementById("fit").addEventListener("click", function () { view.fit(); });
  document.getElementById("jump").addEventListener("change", function (event) {
    var day = Date.parse(event.target.value + "T00:00:00Z");
    if (isNaN(day)) { return; }
    /* the day's end in the zone shown: where a clock change skips the next midnight, the next day begins later */
    var next = new Date(day + 86400000).toISOString().slice(0, 10), end = gm.fromWall(day + 86400000);
    for (var hours = 0; gm.day(end) < next && hours < 3; hours++) { end += 3600000; }
    stop(); show(stopAt(end - 1));
  });
  document.getElementById("writes").addEventListener("toggle", fillTable);
  playButton.addEventListener("click", play);
  view.network.on("click", function (params) {
    var id = params.edges.length && !params.nodes.length ? params.edges[0] : params.nodes[0];
    var shown = data.facts[id] ? info(id, statusOf(id, steps[current - 1].at)) : data.graph.node_details[id];
    gm.showInPanel(panel, shown, "Click an edge or a node to see its details.");
  });
  function fromHash() {
    var wanted = Number(gm.hashParams().step);
    if (wanted >= 1 && wanted !== current) { stop(); show(wanted); }
  }
  window.addEventListener("hashchange", fromHash);
  drawTicks();
  var wanted = Number(gm.hashParams().step);
  if (wanted >= 1) { current = Math.max(1, Math.min(steps.length, wanted)); }
  show(current, { fit: false });
})();
