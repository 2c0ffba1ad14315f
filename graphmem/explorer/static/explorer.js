/* The explorer page: search, a focused neighbourhood, as-of controls, a timeline, changes.
   Everything comes from this server's JSON API; user text is only ever set as textContent. */
(function () {
  "use strict";
  var gm = window.graphmem;
  var $ = function (id) { return document.getElementById(id); };
  var DAY = 86400000;
  var MAX_CHANGES = 200;  /* rows the Changes panel lists, newest first (the note says when there are more) */
  var state = { focus: null, depth: 2, as_of: null, valid_at: null, speaker: null, since: null, until: null };
  var writes = { times: [], now: null };
  var current = null;   /* the graph answer on screen */
  var timeline = null;
  var requests = 0;
  var selected = null;
  var opened = null;    /* why the page opened where it did, said once */
  /* The explorer's token: taken from the address the page was opened at (then out of it), kept in this origin's
     storage (no other port's page can read it, where a cookie went to every port of the host) and sent with each
     request as a header. */
  var TOKEN_KEY = "graphmem-explorer-token";
  var token = (function () {
    var params = new URLSearchParams(location.search);
    var given = params.get("token");
    var kept = null;
    try { kept = window.localStorage.getItem(TOKEN_KEY); } catch (e) { kept = null; }
    if (given) {
      try { window.localStorage.setItem(TOKEN_KEY, given); } catch (e) { /* kept for this page alone */ }
      params.delete("token");
      history.replaceState(null, "", params.toString() ? "?" + params.toString() : location.pathname);
      return given;
    }
    return kept;
  })();

  function show(message, isError) {
    var box = $("message");
    box.hidden = !message;
    box.textContent = message || "";
    box.className = "message" + (isError ? " error" : "");
  }
  function api(path, params) {
    var query = Object.keys(params || {}).filter(function (k) { return params[k] !== null && params[k] !== undefined && params[k] !== ""; })
      .map(function (k) { return encodeURIComponent(k) + "=" + encodeURIComponent(params[k]); }).join("&");
    requests += 1;
    var headers = { Accept: "application/json" };
    if (token) { headers.Authorization = "Bearer " + token; }
    return fetch(path + (query ? "?" + query : ""), { headers: headers })
      .then(function (response) {
        return response.json().then(function (body) {
          if (!response.ok) {
            var error = new Error(body.error || ("HTTP " + response.status));
            error.status = response.status;
            throw error;
          }
          return body;
        });
      });
  }
  /* The day a time falls on in the store's zone, as the date inputs show it. */
  function day(text) { return text ? gm.day(gm.ms(text)) : ""; }
  /* The end of a day picked in a date input, on the store's clock (the server reads a time without a zone in it). */
  function endOf(date) { return date + "T23:59:59"; }
  function asOfParam() { return state.as_of; }
  function validParam() { return state.valid_at; }

  /* -- address ------------------------------------------------------------------------ */
  function readAddress() {
    var params = new URLSearchParams(location.search);
    state.focus = params.get("focus") || null;
    state.depth = Number(params.get("depth") || 2);
    state.as_of = params.get("as_of") || null;
    state.valid_at = params.get("valid_at") || null;
    state.speaker = params.get("speaker") || null;
  }
  function writeAddress() {
    var params = new URLSearchParams();
    ["focus", "depth", "as_of", "valid_at", "speaker"].forEach(function (key) {
      if (state[key] !== null && state[key] !== "") { params.set(key, state[key]); }
    });
    history.replaceState(null, "", "?" + params.toString());
  }

  /* -- the graph ----------------------------------------------------------------------- */
  var OPTIONS = {
    physics: { solver: "forceAtlas2Based", forceAtlas2Based: { gravitationalConstant: -60, springLength: 120, centralGravity: 0.015, avoidOverlap: 0.4, damping: 0.4 },
               stabilization: { enabled: true, iterations: 300, fit: false }, minVelocity: 0.75 },
    layout: { randomSeed: 7, improvedLayout: true },
    edges: { smooth: { enabled: true, type: "dynamic" }, font: { size: 11, strokeWidth: 3, align: "middle" },
             arrows: { to: { enabled: true, scaleFactor: 0.6 } }, selectionWidth: 2 },
    nodes: { shape: "dot", borderWidth: 1, font: { size: 14, face: "system-ui, sans-serif", strokeWidth: 3, strokeColor: "#ffffff" } },
    interaction: { hover: true, tooltipDelay: 150 },
  };
  function short(text, limit) { limit = limit || 40; return text.length <= limit ? text : text.slice(0, limit - 1) + "…"; }

  /* The API's answer as vis-network data: parallel versions of one predicate merged. */
  function toGraph(answer) {
    /* the names of one entity (an alias group) are one node, whatever the focus, as the rendered pictures draw them:
       named by the group's leading name ("Tom (also tommy, Sam's brother)") and coloured by the group's kind; each
       fact still says the name it was stated under, and the alias facts between them are the node's, not edges */
    var lead = {};
    answer.nodes.forEach(function (n) { if (n.group) { lead[n.id] = n.group; } });
    function drawn(id) { return lead[id] || id; }
    var members = {};  /* each node's entities, in the answer's order (nearest first) */
    var drawnIds = [];
    answer.nodes.forEach(function (n) {
      var id = drawn(n.id);
      if (!members[id]) { members[id] = []; drawnIds.push(id); }
      members[id].push(n);
    });
    var focusNode = drawn(answer.focus.id);
    var groups = {};
    var order = [];
    answer.edges.forEach(function (edge) {
      var from = drawn(edge.subject_id), to = drawn(edge.object_id);
      if (from === to && edge.predicate === "alias_of") { return; }
      var key = [from, to, edge.predicate, edge.status].join("\u0000");
      if (!groups[key]) { groups[key] = []; order.push(key); }
      groups[key].push(edge);
    });
    var degree = {};
    var edges = [];
    var tips = {};
    var pairs = {};
    order.forEach(function (key) {
      var group = groups[key];
      var first = group[0];
      var colour = answer.statuses[first.status] || "#9e9e9e";
      var from = drawn(first.subject_id), to = drawn(first.object_id);
      degree[from] = (degree[from] || 0) + 1;
      degree[to] = (degree[to] || 0) + 1;
      var pair = [from, to].sort().join("\u0000");
      var index = pairs[pair] = (pairs[pair] === undefined ? 0 : pairs[pair] + 1);
      edges.push({
        id: first.id, from: from, to: to, versions: group.map(function (e) { return e.id; }),
        status: first.status,
        label: short(first.predicate) + (group.length > 1 ? " ×" + group.length : ""),
        color: { color: colour, highlight: colour, hover: colour }, font: { color: colour }, width: 2,
        dashes: answer.dashed.indexOf(first.status) >= 0,
        smooth: index ? { enabled: true, type: index % 2 ? "curvedCW" : "curvedCCW", roundness: 0.15 + 0.1 * index } : undefined,
      });
      tips[first.id] = {
        heading: first.subject + " " + first.predicate + " " + first.object + (group.length > 1 ? " (×" + group.length + ")" : ""),
        rows: [["status", first.status]].concat(group.slice(0, 12).map(function (e) {
          return ["valid", gm.period(gm.ms(e.valid_from), gm.ms(e.valid_to))];
        })),
        sources: [],
      };
    });
    var details = {};
    var names = {};  /* each node's full name: "Tom (also tommy, Sam's brother)" */
    var nodes = drawnIds.map(function (id) {
      var entities = members[id];
      var name = (answer.groups && answer.groups[id]) || entities[0].name;  /* a group's leading name, shown or not */
      /* every name of the group, those out of view too ("Dev's girlfriend" is Sana at a date the hops reach only her) */
      var every = (answer.names && answer.names[id]) || entities.map(function (e) { return e.name; });
      var others = every.filter(function (n) { return n !== name; });
      var kind = entities[0].kind;  /* the names of one entity share its kind */
      var distance = Math.min.apply(null, entities.map(function (e) { return e.distance; }));
      var colour = answer.kinds[kind] || "#90a4ae";
      names[id] = others.length ? name + " (also " + others.join(", ") + ")" : name;
      details[id] = { heading: name, rows: [["kind", kind]].concat(others.length ? [["also called", others.join(", ")]] : [],
                                                                 [["hops from the focus", String(distance)],
                                                                  ["facts shown", String(degree[id] || 0)], ["id", id]]),
                      sources: [] };
      var node = { id: id, label: short(names[id]), kind: kind, name: name,
                   size: Math.round(Math.min(34, 10 + 5 * Math.sqrt(degree[id] || 0)) * 10) / 10,
                   color: { background: colour, border: "#37474f", highlight: { background: colour, border: "#000000" },
                            hover: { background: colour, border: "#000000" } } };
      if (id === focusNode) { node.borderWidth = 4; node.color.border = "#0d47a1"; }
      return node;
    });
    var facts = order.reduce(function (n, key) { return n + groups[key].length; }, 0);  /* the versions drawn */
    return { nodes: nodes, edges: edges, tips: tips, node_details: details, options: OPTIONS, facts: facts,
             kinds: Object.keys(answer.kinds), focus: focusNode, focus_name: names[focusNode] };
  }

  function legend(answer, data) {
    var box = $("graph-title");
    while (box.firstChild) { box.removeChild(box.firstChild); }
    var text = "around " + data.focus_name + ", within " + answer.depth + " hop" + (answer.depth === 1 ? "" : "s") +
      ", as believed at " + gm.when(gm.ms(answer.as_of)) + ", valid " +
      (answer.valid_at === "all" ? "at any time" : "at " + gm.when(gm.ms(answer.valid_at))) +
      (gm.zone() === "UTC" ? "" : " (" + gm.zone() + " time)") +
      " · " + data.nodes.length + " entities, " + data.facts + " facts" +
      (answer.truncated ? " (the nearest shown; more lie further out)" : "") + " · ";
    box.appendChild(document.createTextNode(text));
    Object.keys(answer.kinds).forEach(function (kind) {
      var item = gm.el("span", "kind-key");
      var dot = gm.el("span", "swatch dot");
      dot.style.background = answer.kinds[kind];
      item.appendChild(dot);
      item.appendChild(document.createTextNode(" " + kind + " "));
      box.appendChild(item);
    });
    /* an edge has the colour of its first version's status; dashed when no longer believed */
    var shown = {};
    data.edges.forEach(function (e) { shown[e.status] = true; });
    var statuses = Object.keys(answer.statuses).filter(function (s) { return shown[s]; });
    if (statuses.length) { box.appendChild(document.createTextNode("· facts: ")); }
    statuses.forEach(function (status) {
      var item = gm.el("span", "kind-key status-key");
      var line = gm.el("span", "swatch line" + (answer.dashed.indexOf(status) >= 0 ? " dashed" : ""));
      line.style.setProperty("--colour", answer.statuses[status]);
      item.appendChild(line);
      item.appendChild(document.createTextNode(" " + status + " "));
      box.appendChild(item);
    });
  }

  function drawAnswer(answer) {
    current = answer;
    var data = toGraph(answer);
    if (gm.view && gm.view.destroy) { gm.view.destroy(); }
    var view = gm.drawGraph($("graph"), data, {}, { onStable: function () { report(); } });
    view.data = data;
    view.network.on("click", function (params) {
      if (params.nodes.length) {
        var node = view.nodes.get(params.nodes[0]);
        if (params.event && params.event.srcEvent && params.event.srcEvent.shiftKey) { expand(node); }
        else { focusOn(node.name); }
      } else if (params.edges.length) {
        var edge = view.edges.get(params.edges[0]);
        showVersions(edge.versions || [edge.id]);
      }
    });
    legend(answer, data);
  }

  function expand(node) {
    api("/api/graph", { focus: node.id, depth: 1, as_of: asOfParam(), valid_at: validParam() }).then(function (answer) {
      var view = gm.view;
      /* every field of the answer drawn (the legend's "dashed" among them), its nodes and edges grown */
      var merged = Object.assign({}, current, { kinds: Object.assign({}, current.kinds),
                                                groups: Object.assign({}, current.groups, answer.groups),
                                                nodes: current.nodes.slice(), edges: current.edges.slice() });
      var known = {};
      merged.nodes.forEach(function (n) { known[n.id] = n; });
      var seen = {};
      merged.edges.forEach(function (e) { seen[e.id] = true; });
      /* hops counted from the focus through the node expanded (its own other names are as far as it is, not the
         focus's) */
      var base = known[node.id] ? known[node.id].distance : 1;
      answer.nodes.forEach(function (n) {
        if (!known[n.id]) { merged.nodes.push(Object.assign({}, n, { distance: Math.max(1, base + n.distance) })); }
      });
      answer.edges.forEach(function (e) { if (!seen[e.id]) { merged.edges.push(e); } });
      Object.keys(answer.kinds).forEach(function (k) { merged.kinds[k] = answer.kinds[k]; });
      var positions = view.network.getPositions();
      drawAnswer(merged);
      Object.keys(positions).forEach(function (id) { gm.view.nodes.update({ id: id, x: positions[id].x, y: positions[id].y }); });
      selected = node.id;
      report({ expanded: node.id });
    }).catch(function (error) { show(error.message, true); });
  }

  /* -- details ------------------------------------------------------------------------- */
  function panel() { return $("details"); }
  function versionInfo(record) {
    var rows = [["status", record.status], ["valid", gm.period(gm.ms(record.valid_from), gm.ms(record.valid_to))],
                ["believed", gm.when(gm.ms(record.recorded_at)) + " → " + gm.when(gm.ms(record.superseded_at), "still believed")]];
    if (record.supersedes && record.supersedes.length) { rows.push(["replaced", record.supersedes.join(", ")]); }
    if (record.superseded_by && record.superseded_by.length) { rows.push(["replaced by", record.superseded_by.join(", ")]); }
    if (record.reason) { rows.push(["reason", record.reason]); }
    rows.push(["version", record.id]);
    return {
      heading: record.subject + " " + record.predicate + " " + record.object,
      rows: rows,
      sources: record.provenance.map(function (e) {
        return { text: e.text, cite: (e.actor ? e.actor + " · " : "") + e.kind + ", " + gm.when(gm.ms(e.reference_time)) + " · " + e.id };
      }),
    };
  }
  function showVersions(ids) {
    return Promise.all(ids.slice(0, 10).map(function (id) { return api("/api/version", { id: id }); }))
      .then(function (answers) {
        var box = panel();
        while (box.firstChild) { box.removeChild(box.firstChild); }
        answers.forEach(function (answer) {
          var record = answer[0];
          box.appendChild(gm.details(versionInfo(record)));
          var actions = gm.el("div", "actions");
          record.provenance.forEach(function (e) {
            var button = gm.el("button", "", "episode " + e.id);
            button.type = "button";
            button.addEventListener("click", function () { showEpisode(e.id); });
            actions.appendChild(button);
          });
          box.appendChild(actions);
        });
        selected = ids[0];
        report({ selected: ids[0], sources: answers.reduce(function (n, a) { return n + a[0].provenance.length; }, 0) });
      }).catch(function (error) { show(error.message, true); });
  }
  function showEpisode(id) {
    return api("/api/episode", { id: id }).then(function (answer) {
      var episode = answer[0];
      var info = { heading: "Episode " + episode.id, rows: [["kind", episode.kind], ["by", episode.actor || "unknown"],
                   ["said", gm.when(gm.ms(episode.reference_time))], ["received", gm.when(gm.ms(episode.received_at))]],
                   sources: [{ text: episode.text, cite: "exact text" }] };
      episode.versions.forEach(function (v) { info.rows.push(["supports " + v.id, v.subject + " " + v.predicate + " " + v.object + " (" + v.status + ")"]); });
      gm.showInPanel(panel(), info, "");
      report({ selected: id });
    }).catch(function (error) { show(error.message, true); });
  }

  /* -- timeline and changes ------------------------------------------------------------ */
  function loadTimeline() {
    if (!current) { return Promise.resolve(); }
    var focus = current.focus;
    var named = gm.view && gm.view.data ? gm.view.data.focus_name : focus.name;  /* "Tom (also tommy)" */
    $("timeline-title").textContent = "Timeline of " + named + " (as believed at " + gm.when(gm.ms(current.as_of)) + ")";
    return api("/api/timeline", { entity: focus.id, as_of: asOfParam() }).then(function (records) {
      var bars = records.map(function (r) {
        var incoming = r.subject !== focus.name && (current.aliases || []).indexOf(r.subject) < 0;  // said under another of its names
        var other = incoming ? r.subject : r.object;
        if (r.predicate === "alias_of") { other = r.subject === focus.name ? r.object : r.subject; }  // the name it gives, not the focus's own (a new user's: two rows of "Tomás Ferreira")
        return { id: r.id, predicate: r.predicate, incoming: incoming, other: other,
                 subject: r.subject, object: r.object, valid_from: gm.ms(r.valid_from), valid_to: gm.ms(r.valid_to),
                 recorded_at: gm.ms(r.recorded_at), superseded_at: gm.ms(r.superseded_at), retracted: r.status === "retracted" };
      });
      var box = $("timeline-box");
      while (box.firstChild) { box.removeChild(box.firstChild); }
      if (!bars.length) { box.appendChild(gm.el("p", "empty", "No facts about " + focus.name + " were believed then.")); timeline = null; return; }
      timeline = gm.timeline(box, { entity: focus, versions: bars, asOf: gm.ms(current.as_of),
                                    onSelect: function (id) { showVersions([id]); } });
      report();
    });
  }
  /* The changes asked for: after the "after" date, else over the chosen span before "up to"
     ("all time": from just before the store's first write), up to the end of the "up to" day
     or the as-of moment. What the panel says it shows is what it asked for. */
  function changesPeriod() {
    var until = $("until").value ? endOf($("until").value) : (current ? current.as_of : new Date().toISOString());
    var span = $("span").value;
    $("span").disabled = Boolean($("since").value);
    if ($("since").value) { return { since: $("since").value, until: until, span: null }; }
    if (span === "all") {
      var first = writes.times.length ? new Date(Date.parse(writes.times[0]) - 1).toISOString() : until;
      return { since: first, until: until, span: "all" };
    }
    return { since: new Date(gm.ms(until) - Number(span) * DAY).toISOString(), until: until, span: Number(span) };
  }
  function changesNote(period, count) {
    var over = period.span === "all" ? "over all time"
      : period.span ? "over the last " + (period.span === 365 ? "year" : period.span === 3650 ? "10 years" : period.span + " days") +
                      " (choose a longer span, or an “after” date, to see further back)"
      : "after " + period.since;
    var text = "Changes " + over + ", up to " + gm.when(gm.ms(period.until)) +
      ($("changes-focus").checked && current ? ", about " + current.focus.name : "") + ": " + count + " change" + (count === 1 ? "" : "s") +
      (count > MAX_CHANGES ? "; the newest " + MAX_CHANGES + " are listed" : "") + ".";
    $("changes-note").textContent = text;
  }
  function loadChanges() {
    var period = changesPeriod();
    var params = { since: period.since, until: period.until };
    if ($("changes-focus").checked && current) { params.focus = current.focus.id; }
    return api("/api/changes", params).then(function (rows) {
      var body = $("changes");
      while (body.firstChild) { body.removeChild(body.firstChild); }
      changesNote(period, rows.length);
      rows.slice(-MAX_CHANGES).reverse().forEach(function (c) {
        var row = gm.el("tr", c.id ? "clickable" : "");
        row.appendChild(gm.el("td", "fit", gm.when(gm.ms(c.at))));
        row.appendChild(gm.el("td", "fit", c.change + " · " + c.believed));
        row.appendChild(gm.el("td", "", c.id ? c.subject + " " + c.predicate + " " + c.object : "(removed)"));
        row.appendChild(gm.el("td", "fit", c.id ? gm.period(gm.ms(c.valid_from), gm.ms(c.valid_to)) : ""));
        row.appendChild(gm.el("td", "", c.reason || ""));
        if (c.id) { row.addEventListener("click", function () { showVersions([c.id]); }); }
        body.appendChild(row);
      });
      if (!rows.length) {
        var empty = gm.el("tr");
        var cell = gm.el("td", "hint", "No change in belief in this period.");
        cell.colSpan = 5;  /* across the table: in the first column alone it wrapped a letter a line (a new user's) */
        empty.appendChild(cell);
        body.appendChild(empty);
      }
      report({ changes: rows.length, changes_since: period.since, changes_note: $("changes-note").textContent });
    }).catch(function (error) { show(error.message, true); });
  }

  /* -- loading ------------------------------------------------------------------------- */
  function report(extra) {
    var shown = gm.view && gm.view.visible ? gm.view.visible() : { nodes: 0, edges: [] };
    var out = { focus: current ? current.focus.name : null, as_of: current ? current.as_of : null,
                nodes: shown.nodes, edges: shown.edges.length, edge_ids: shown.edges.sort(),
                timeline_bars: timeline ? timeline.stats().bars : 0, requests: requests,
                selected: selected, graph_ready: Boolean(gm.view && gm.view.stable) };
    Object.keys(extra || {}).forEach(function (k) { out[k] = extra[k]; });
    gm.report(out);
  }
  function loadAll() {
    if (!state.focus) { show("Find an entity to start: type a name in the search box."); gm.report({ ready: true, focus: null }); return Promise.resolve(); }
    writeAddress();
    return api("/api/graph", { focus: state.focus, depth: state.depth, as_of: asOfParam(), valid_at: validParam() })
      .then(function (answer) {
        show(opened || "");
        opened = null;
        drawAnswer(answer);
        return Promise.all([loadTimeline(), loadChanges()]);
      })
      .catch(function (error) { show(error.message, true); gm.report({ ready: true, error: error.message }); });
  }
  /* Given no focus: who asks ("I am"), when the store has an entity by that name, else the entity the most facts
     believed now are about (the one written last was often a one-fact aside); the page says why. */
  function openOnStart(start) {
    var asker = !state.speaker ? Promise.resolve(false)
      : api("/api/graph", { focus: state.speaker, depth: 0 }).then(function () { return true; }, function () { return false; });
    return asker.then(function (known) {
      if (known) {
        state.focus = state.speaker;
        opened = "Opened on " + state.speaker + ", who asks (“I am”). Find another entity in the search box.";
      } else if (start) {
        state.focus = start.name;
        opened = "Opened on " + start.name + ", the subject of the most facts believed now (" + start.facts + "). " +
          "Find another in the search box, or say who you are (“I am”) to open on yourself.";
      }
      report({ opened: state.focus });
      return loadAll();
    });
  }
  function focusOn(name) {
    state.focus = name;
    selected = null;
    gm.showInPanel(panel(), null, "Click a node or an edge to see its details.");
    return loadAll();
  }

  /* -- the as-of slider over the store's writes ---------------------------------------- */
  function loadWrites() {
    return api("/api/writes").then(function (answer) {
      writes = answer;
      $("zone").textContent = "· times in " + gm.setZone(answer.zone);
      $("zone").title = answer.zone === "UTC" ? "the store's zone: UTC" : "the store's zone (as on the command line)";
      var slider = $("writes");
      slider.max = String(answer.times.length);   /* the last stop is "now" */
      placeSlider();
      return answer;
    });
  }
  function placeSlider() {
    var slider = $("writes");
    var index = writes.times.length;
    if (state.as_of) {
      var at = gm.ms(state.as_of);
      index = 0;
      while (index < writes.times.length && Date.parse(writes.times[index]) <= at) { index += 1; }
      index = Math.max(0, index - 1);
    }
    slider.value = String(index);
    $("writes-label").textContent = (index >= writes.times.length ? "now" : gm.when(gm.ms(writes.times[index]))) +
      " · change " + (writes.sampled ? "≈" + Math.round(Math.min(index + 1, writes.times.length) * writes.count / writes.times.length)
                                     : Math.min(index + 1, writes.times.length)) + " of " + writes.count;
    $("as-of").value = state.as_of ? day(state.as_of) : "";
  }
  var pendingSlide = null;
  function slideTo(index) {
    var slider = $("writes");
    index = Math.max(0, Math.min(Number(slider.max), index));
    state.as_of = index >= writes.times.length ? null : writes.times[index];
    placeSlider();
    slider.value = String(index);
    if (pendingSlide) { clearTimeout(pendingSlide); }
    pendingSlide = setTimeout(loadAll, 120);
  }

  /* -- search: entities by name, and the facts that answer a question ------------------ */
  /* A chosen answer: focus on its subject, show it in the graph (moving valid-at into its valid
     period when the graph would not hold it) and open its details, as clicking its edge does. */
  function chooseFact(hit, question) {
    state.focus = hit.subject;
    selected = null;
    gm.showInPanel(panel(), null, "Opening the answer…");
    var moved = false;
    return loadAll().then(function () {
      if (!current || current.focus.name !== hit.subject || state.valid_at === "all" || holds(hit.id)) { return; }
      moved = true;
      state.valid_at = hit.valid_from;
      $("valid-all").checked = false;
      $("valid-at").value = day(hit.valid_from);
      return loadAll();
    }).then(function () {
      var edge = gm.view && gm.view.edges.get({ filter: function (e) { return (e.versions || [e.id]).indexOf(hit.id) >= 0; } })[0];
      if (edge) { gm.view.network.selectEdges([edge.id]); }
      return showVersions([hit.id]).then(function () {
        var reason = gm.searchBox.why(hit.matched);
        var note = gm.el("p", "hint answer", "An answer to “" + question + "”" + (reason ? " (" + reason + ")" : "") + "." +
                         (moved ? " The graph now shows what was valid at " + gm.when(gm.ms(hit.valid_from)) + ", when it held." : ""));
        panel().insertBefore(note, panel().firstChild);
        report({ answer: hit.id, answer_edge: edge ? edge.id : null });
      });
    });
  }
  /* A message that answers the question: who said it and when, the times it names, the turns around it. */
  function chooseMessage(hit, question) {
    var rows = [["by", (hit.speaker || "unknown") + (hit.role === "assistant" ? " (assistant)" : "")],
                ["said", gm.when(gm.ms(hit.said_at))], ["received", gm.when(gm.ms(hit.received_at))]];
    hit.times.forEach(function (t) { rows.push(["“" + t.text + "”", gm.period(gm.ms(t.valid_from), gm.ms(t.valid_to))]); });
    var sources = hit.before.map(function (t) { return { text: t.text, cite: "before, " + (t.speaker || "unknown") }; });
    sources.push({ text: hit.text, cite: "the answer, " + (hit.speaker || "unknown") });
    hit.after.forEach(function (t) { sources.push({ text: t.text, cite: "after, " + (t.speaker || "unknown") }); });
    gm.showInPanel(panel(), { heading: "Message " + hit.episode, rows: rows, sources: sources }, "");
    var note = gm.el("p", "hint answer", "An answer to “" + question + "”: what was said.");
    panel().insertBefore(note, panel().firstChild);
    selected = null;
    report({ answer: hit.episode, selected: hit.episode });
    return Promise.resolve();
  }
  function holds(versionId) { return current.edges.some(function (e) { return e.id === versionId; }); }

  var searchBox = gm.searchBox({
    input: $("search"), list: $("suggestions"), api: api, asOf: asOfParam, speaker: function () { return state.speaker; },
    onEntity: focusOn, onFact: chooseFact, onMessage: chooseMessage, onError: function (message) { show(message, true); },
    report: report,
  });

  /* -- wiring -------------------------------------------------------------------------- */
  $("depth").addEventListener("change", function () { state.depth = Number($("depth").value); loadAll(); });
  $("as-of").addEventListener("change", function () { state.as_of = $("as-of").value ? endOf($("as-of").value) : null; placeSlider(); loadAll(); });
  $("valid-at").addEventListener("change", function () { $("valid-all").checked = false; state.valid_at = $("valid-at").value || null; loadAll(); });
  $("valid-all").addEventListener("change", function () { state.valid_at = $("valid-all").checked ? "all" : ($("valid-at").value || null); loadAll(); });
  $("writes").addEventListener("input", function () { slideTo(Number($("writes").value)); });
  $("write-prev").addEventListener("click", function () { slideTo(Number($("writes").value) - 1); });
  $("write-next").addEventListener("click", function () { slideTo(Number($("writes").value) + 1); });
  $("refresh").addEventListener("click", function () { loadWrites().then(loadAll); });
  $("speaker").addEventListener("change", function () {
    state.speaker = $("speaker").value.trim() || null;
    writeAddress();
    if ($("search").value.trim()) { searchBox.ask(); }
  });
  $("span").addEventListener("change", loadChanges);
  $("since").addEventListener("change", loadChanges);
  $("until").addEventListener("change", loadChanges);
  $("changes-focus").addEventListener("change", loadChanges);
  $("zoom-in").addEventListener("click", function () { if (timeline) { timeline.zoom(0.5); } });
  $("zoom-out").addEventListener("click", function () { if (timeline) { timeline.zoom(2); } });
  $("zoom-reset").addEventListener("click", function () { if (timeline) { timeline.reset(); } });

  readAddress();
  $("depth").value = String(state.depth);
  $("speaker").value = state.speaker || "";
  loadWrites().then(function (answer) {
    if (state.valid_at === "all") { $("valid-all").checked = true; } else if (state.valid_at) { $("valid-at").value = day(state.valid_at); }
    return state.focus ? loadAll() : openOnStart(answer.start);
  }).catch(function (error) { show(error.message, true); gm.report({ ready: true, error: error.message }); });
  window.explorer = { state: state, focusOn: focusOn, slideTo: slideTo, expand: expand, showVersions: showVersions,
                      showEpisode: showEpisode, reload: loadAll, search: searchBox, chooseFact: chooseFact };
})();
