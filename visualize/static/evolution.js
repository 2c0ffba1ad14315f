/* Evolution page: a slider over writes; each stop shows the edges believed after it. */
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
  var view = gm.drawGraph(container, data.graph, data.facts);
  var slider = document.getElementById("step");
  var label = document.getElementById("step-label");
  var caption = document.getElementById("caption");
  var panel = document.getElementById("details");
  var playButton = document.getElementById("play");
  var styles = {};
  data.graph.edges.forEach(function (edge) { styles[edge.id] = edge; });
  var current = steps.length;
  var timer = null;

  function statusOf(stepEdges) {
    var map = {};
    stepEdges.forEach(function (entry) { map[entry[0]] = entry; });
    return map;
  }
  function withStatus(info, status) {
    var rows = info.rows.map(function (row) { return row[0] === "status" ? ["status at this write", status] : row; });
    return { heading: info.heading, rows: rows, sources: info.sources };
  }
  function colour(status) { return data.colours[status] || "#9e9e9e"; }

  function renderCaption(step, index) {
    while (caption.firstChild) { caption.removeChild(caption.firstChild); }
    var headline = gm.el("div", "headline");
    headline.appendChild(gm.el("span", "when", "Write " + index + " of " + steps.length + " · " + step.when));
    headline.appendChild(document.createTextNode(step.headline));
    caption.appendChild(headline);
    if (step.meaning) { caption.appendChild(gm.el("div", "meaning", step.meaning)); }
    var list = gm.el("ul");
    step.changes.forEach(function (change) {
      var item = gm.el("li");
      item.appendChild(gm.el("span", "sign " + (change.sign === "+" ? "add" : "remove"), change.sign));
      item.appendChild(document.createTextNode(change.text + " "));
      item.appendChild(gm.el("span", "pill status-" + change.status.replace(/[^a-z]/g, ""), change.status));
      list.appendChild(item);
    });
    caption.appendChild(list);
    if (step.reason) { caption.appendChild(gm.el("div", "reason", "Reason: " + step.reason)); }
    if (step.quote) { caption.appendChild(gm.el("div", "quote", "“" + step.quote + "”")); }
  }

  function show(index) {
    index = Math.max(1, Math.min(steps.length, index));
    current = index;
    var step = steps[index - 1];
    var shown = statusOf(step.edges);
    var used = {};
    var updates = data.graph.edges.map(function (edge) {
      var entry = shown[edge.id];
      if (!entry) { return { id: edge.id, hidden: true }; }
      used[edge.from] = true;
      used[edge.to] = true;
      var status = entry[1];
      return {
        id: edge.id, hidden: false, dashes: status === "superseded" || status === "retracted",
        width: entry[2] ? 4 : 2,
        color: { color: colour(status), highlight: colour(status), hover: colour(status) },
        font: { color: colour(status) },
        title: gm.details(withStatus(data.facts[edge.id], status)),
      };
    });
    view.edges.update(updates);
    view.nodes.update(data.graph.nodes.map(function (node) { return { id: node.id, hidden: !used[node.id] }; }));
    slider.value = String(index);
    label.textContent = index + " / " + steps.length;
    renderCaption(step, index);
    Array.prototype.forEach.call(document.querySelectorAll("tr[data-step]"), function (row) {
      row.classList.toggle("active", row.getAttribute("data-step") === String(index));
    });
    var visible = view.visible();
    gm.report({ step: index, nodes: visible.nodes, edges: visible.edges.length, edge_ids: visible.edges.sort() });
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
    }, 1400);
  }

  slider.addEventListener("input", function () { stop(); show(Number(slider.value)); });
  document.getElementById("prev").addEventListener("click", function () { stop(); show(current - 1); });
  document.getElementById("next").addEventListener("click", function () { stop(); show(current + 1); });
  playButton.addEventListener("click", play);
  Array.prototype.forEach.call(document.querySelectorAll("tr[data-step]"), function (row) {
    row.addEventListener("click", function () { stop(); show(Number(row.getAttribute("data-step"))); });
  });
  view.network.on("click", function (params) {
    var id = params.edges.length && !params.nodes.length ? params.edges[0] : params.nodes[0];
    var entry = statusOf(steps[current - 1].edges)[id];
    var info = data.facts[id] ? withStatus(data.facts[id], entry ? entry[1] : "not believed")
                              : data.graph.node_details[id];
    gm.showInPanel(panel, info, "Click an edge or a node to see its details.");
  });
  function fromHash() {
    var wanted = Number(gm.hashParams().step);
    if (wanted >= 1) { stop(); show(wanted); }
  }
  window.addEventListener("hashchange", fromHash);
  show(steps.length);
  fromHash();
})();
