/* Shared vis-network setup for the snapshot and evolution pages. */
(function () {
  "use strict";
  var gm = window.graphmem;

  /* Draw graph data into container; tooltips are DOM elements built from text. */
  gm.drawGraph = function (container, graph, facts) {
    var nodes = new vis.DataSet(graph.nodes.map(function (node) {
      node.title = gm.details(graph.node_details[node.id]);
      return node;
    }));
    var edges = new vis.DataSet(graph.edges.map(function (edge) {
      if (facts[edge.id]) { edge.title = gm.details(facts[edge.id]); }
      return edge;
    }));
    var network = new vis.Network(container, { nodes: nodes, edges: edges }, graph.options);
    var drawn = 0;
    var pending = null;
    var view = { network: network, nodes: nodes, edges: edges, stable: false };
    gm.view = view;
    view.visible = function () {
      return {
        nodes: nodes.get({ filter: function (n) { return !n.hidden; } }).length,
        edges: edges.get({ filter: function (e) { return !e.hidden; } }).map(function (e) { return e.id; }),
      };
    };
    network.on("afterDrawing", function () {
      drawn += 1;
      if (pending) { clearTimeout(pending); }
      pending = setTimeout(function () {
        var shown = view.visible();
        gm.report({ ready: true, drawn: drawn, stable: view.stable, nodes: shown.nodes,
                    edges: shown.edges.length, edge_ids: shown.edges.sort(),
                    inked: gm.inked(container) });
      }, 30);
    });
    network.once("stabilizationIterationsDone", function () {
      network.setOptions({ physics: false });
      view.stable = true;
      network.fit();
    });
    return view;
  };
})();
