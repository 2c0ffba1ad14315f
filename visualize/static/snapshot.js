/* Snapshot page: draw the graph, show details on click or from #select=<id>. */
(function () {
  "use strict";
  var gm = window.graphmem;
  var data = gm.data();
  var container = document.getElementById("graph");
  var panel = document.getElementById("details");
  var hint = "Click a node or an edge to see its details.";
  if (!container) {
    gm.report({ ready: true, drawn: 0, nodes: 0, edges: 0, edge_ids: [], inked: 0 });
    return;
  }
  var view = gm.drawGraph(container, data.graph, data.facts);

  function show(id) {
    var info = data.facts[id] || data.graph.node_details[id];
    gm.showInPanel(panel, info, hint);
    gm.report({ selected: info ? id : null });
    return Boolean(info);
  }
  view.network.on("click", function (params) {
    if (params.nodes.length) { show(params.nodes[0]); }
    else if (params.edges.length) { show(params.edges[0]); }
  });
  Array.prototype.forEach.call(document.querySelectorAll("tr[data-version]"), function (row) {
    row.addEventListener("click", function () {
      var id = row.getAttribute("data-version");
      if (show(id)) { view.network.selectEdges([id]); }
    });
  });
  function fromHash() {
    var id = gm.hashParams().select;
    if (id && show(id)) {
      if (data.facts[id]) { view.network.selectEdges([id]); } else { view.network.selectNodes([id]); }
    }
  }
  window.addEventListener("hashchange", fromHash);
  fromHash();
})();
