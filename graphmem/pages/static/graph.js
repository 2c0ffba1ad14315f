/* Shared vis-network setup for the snapshot, evolution and explorer pages. */
(function () {
  "use strict";
  var gm = window.graphmem;

  /* Quartiles of a sorted list of numbers. */
  function quantile(sorted, q) {
    if (!sorted.length) { return 0; }
    var at = (sorted.length - 1) * q;
    var low = Math.floor(at);
    var high = Math.ceil(at);
    return sorted[low] + (sorted[high] - sorted[low]) * (at - low);
  }

  /* The box holding the bulk of the nodes: quartiles widened by three interquartile ranges
     (never narrower than a few node spacings), so one node flung far away cannot shrink
     everything else to a dot. */
  gm.bulkBox = function (positions) {
    var ids = Object.keys(positions);
    var xs = ids.map(function (id) { return positions[id].x; }).sort(function (a, b) { return a - b; });
    var ys = ids.map(function (id) { return positions[id].y; }).sort(function (a, b) { return a - b; });
    function range(values) {
      var q1 = quantile(values, 0.25);
      var q3 = quantile(values, 0.75);
      var spread = Math.max(q3 - q1, 300);
      return [q1 - 3 * spread, q3 + 3 * spread];
    }
    var rx = range(xs);
    var ry = range(ys);
    return { x0: rx[0], x1: rx[1], y0: ry[0], y1: ry[1] };
  };

  /* Pull nodes outside the bulk box onto its edge, then fit the view to what is left.
     Returns the number of nodes that were pulled in. */
  gm.fitBulk = function (network, ids) {
    var positions = network.getPositions(ids);
    var names = Object.keys(positions);
    var outliers = 0;
    if (names.length > 3) {
      var box = gm.bulkBox(positions);
      names.forEach(function (id) {
        var p = positions[id];
        var x = Math.min(box.x1, Math.max(box.x0, p.x));
        var y = Math.min(box.y1, Math.max(box.y0, p.y));
        if (x !== p.x || y !== p.y) { network.moveNode(id, x, y); outliers += 1; }
      });
    }
    network.fit({ nodes: names, animation: false, maxZoomLevel: 1.6 });
    network.once("afterDrawing", function () { fitLabels(network, names); });  /* labels are measured once drawn */
    network.redraw();
    return outliers;
  };

  /* How many shown nodes' labels the frame cuts (a node with its label reaching past an edge of the view). */
  function clipped(network, nodes) {
    var frame = network.body.container, cut = 0;
    nodes.get({ filter: function (n) { return !n.hidden; } }).forEach(function (n) {
      var b = network.getBoundingBox(n.id);
      if (!b) { return; }
      var a = network.canvasToDOM({ x: b.left, y: b.top }), z = network.canvasToDOM({ x: b.right, y: b.bottom });
      if (a.x < -1 || a.y < -1 || z.x > frame.clientWidth + 1 || z.y > frame.clientHeight + 1) { cut += 1; }
    });
    return cut;
  }

  /* Zoom out and move, if need be, so that the nodes' labels fit too, not only their centres: a long label of a node
     at the edge ("Duarte (also Tomás Ferreira's brother)") was cut by the frame (a new user's). Labels keep their size
     on screen as the view zooms (readableLabels), so each node needs, around its centre, as many pixels as its label
     takes now: the largest scale (down to half the nodes' fit; past that a label too long for the frame is cut, not
     the drawing made too small to read) at which the nodes with their labels span no more than the frame, centred. */
  function fitLabels(network, names) {
    var frame = network.body.container, wide = frame.clientWidth - 16, high = frame.clientHeight - 16;
    var scale = network.getScale(), at = network.getPositions(names), spots = [];
    names.forEach(function (id) {
      var b = network.getBoundingBox(id), p = at[id];
      if (b && p) {
        spots.push({ x: p.x, y: p.y, left: (p.x - b.left) * scale, right: (b.right - p.x) * scale,
                     up: (p.y - b.top) * scale, down: (b.bottom - p.y) * scale });
      }
    });
    if (!spots.length || wide <= 0 || high <= 0) { return; }
    function spans(s) {  /* the screen extents, in pixels, of the nodes and labels at scale s */
      var x0 = Infinity, x1 = -Infinity, y0 = Infinity, y1 = -Infinity;
      spots.forEach(function (p) {
        x0 = Math.min(x0, p.x * s - p.left); x1 = Math.max(x1, p.x * s + p.right);
        y0 = Math.min(y0, p.y * s - p.up); y1 = Math.max(y1, p.y * s + p.down);
      });
      return { x0: x0, x1: x1, y0: y0, y1: y1, fits: x1 - x0 <= wide && y1 - y0 <= high };
    }
    var s = scale;
    if (!spans(scale).fits) {  /* the largest that fits, by halving the interval; half the fit where none does */
      var low = 0.5 * scale, top = scale;
      for (var i = 0; i < 24; i += 1) {
        var mid = (low + top) / 2;
        if (spans(mid).fits) { low = mid; } else { top = mid; }
      }
      s = low;
    }
    var found = spans(s);
    network.moveTo({ position: { x: (found.x0 + found.x1) / 2 / s, y: (found.y0 + found.y1) / 2 / s }, scale: s,
                     animation: false });
  }

  /* Node labels keep a readable size on screen when the view is zoomed out, down to a limit
     past which they shrink with the drawing (or hide, for the least connected nodes). */
  function readableLabels(network, nodes) {
    var last = null;
    network.on("zoom", apply);
    function apply() {
      var scale = network.getScale();
      var size = Math.round(13 / Math.max(scale, 0.4));
      if (size === last) { return; }
      last = size;
      network.setOptions({ nodes: { font: { size: size } }, edges: { font: { size: Math.round(11 / Math.max(scale, 0.6)) } } });
    }
    return apply;
  }

  /* Draw graph data into container; tooltips are DOM elements built from text. */
  gm.drawGraph = function (container, graph, facts, settings) {
    settings = settings || {};
    var nodes = new vis.DataSet(graph.nodes.map(function (node) {
      node.title = gm.details(graph.node_details[node.id]);
      return node;
    }));
    var edges = new vis.DataSet(graph.edges.map(function (edge) {
      var tip = graph.tips && graph.tips[edge.id];
      if (tip) { edge.title = gm.details(tip); }
      return edge;
    }));
    var network = new vis.Network(container, { nodes: nodes, edges: edges }, graph.options);
    var drawn = 0;
    var pending = null;
    var view = { network: network, nodes: nodes, edges: edges, stable: false, outliers: 0 };
    gm.view = view;
    view.visible = function () {
      return {
        nodes: nodes.get({ filter: function (n) { return !n.hidden; } }).length,
        edges: edges.get({ filter: function (e) { return !e.hidden; } }).map(function (e) { return e.id; }),
      };
    };
    view.fit = function () {
      var shown = nodes.get({ filter: function (n) { return !n.hidden; } }).map(function (n) { return n.id; });
      view.outliers = gm.fitBulk(network, shown.length ? shown : nodes.getIds());
      view.labels();
    };
    view.labels = readableLabels(network, nodes);
    view.destroy = function () {  /* before drawing anew in the same container */
      view.destroyed = true;
      if (pending) { clearTimeout(pending); }
      network.destroy();
    };
    network.on("afterDrawing", function () {
      drawn += 1;
      if (pending) { clearTimeout(pending); }
      pending = setTimeout(function () {
        if (view.destroyed) { return; }
        var shown = view.visible();
        gm.report({ ready: view.stable, drawn: drawn, stable: view.stable, nodes: shown.nodes,
                    edges: shown.edges.length, edge_ids: shown.edges.sort(),
                    inked: gm.inked(container), scale: network.getScale(), outliers: view.outliers,
                    clipped: clipped(network, nodes) });
      }, 30);
    });
    function settle() {
      network.setOptions({ physics: false });
      view.stable = true;
      view.fit();
      /* stable now, drawn soon: the report after the next drawing says how much ink */
      gm.report({ stable: true, drawn: drawn, inked: 0 });
      if (settings.onStable) { settings.onStable(view); }
    }
    if (graph.nodes.length) {
      network.once("stabilizationIterationsDone", settle);
    } else {
      settle();
    }
    return view;
  };
})();
