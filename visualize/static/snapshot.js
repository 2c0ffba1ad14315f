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
  var members = {};
  var edgeOf = {};
  data.graph.edges.forEach(function (edge) {
    members[edge.id] = edge.versions || [edge.id];
    members[edge.id].forEach(function (id) { edgeOf[id] = edge.id; });
  });

  /* Show a node, a version, or every version a merged edge stands for. */
  function show(id) {
    var infos = members[id] ? members[id].map(function (v) { return data.facts[v]; })
                            : [data.facts[id] || data.graph.node_details[id]];
    infos = infos.filter(Boolean);
    gm.showInPanel(panel, infos.length ? infos : null, hint);
    gm.report({ selected: infos.length ? id : null });
    return Boolean(infos.length);
  }
  view.network.on("click", function (params) {
    if (params.nodes.length) { show(params.nodes[0]); }
    else if (params.edges.length) { show(params.edges[0]); }
  });
  Array.prototype.forEach.call(document.querySelectorAll("tr[data-version]"), function (row) {
    row.addEventListener("click", function () {
      var id = row.getAttribute("data-version");
      if (show(id)) { view.network.selectEdges([edgeOf[id] || id]); }
    });
  });
  function fromHash() {
    var id = gm.hashParams().select;
    if (id && show(id)) {
      if (data.facts[id]) { view.network.selectEdges([edgeOf[id] || id]); } else { view.network.selectNodes([id]); }
    }
  }
  window.addEventListener("hashchange", fromHash);
  document.getElementById("fit").addEventListener("click", function () { view.fit(); });
  fromHash();
})();
