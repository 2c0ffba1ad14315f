/* A zoomable valid-time axis of one entity's versions, drawn as SVG (timeline page, explorer). */
(function () {
  "use strict";
  var gm = window.graphmem;
  var SVG = "http://www.w3.org/2000/svg";
  var LABEL_W = 210, RIGHT = 28, TOP = 30, ROW = 22, BAR = 14, GAP = 8, MIN_BAR = 6;
  var LABEL_MAX = 32, PAD = 4, ARROW = 9, DAY = 86400000;
  var MIN_SPAN = 2 * DAY, MAX_SPAN = 500 * 365.25 * DAY;
  var MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];
  var STEPS = [["day", 1, 1], ["day", 7, 7], ["month", 1, 30.4], ["month", 3, 91.3], ["month", 6, 182.6],
               ["year", 1, 365.25], ["year", 2, 730.5], ["year", 5, 1826], ["year", 10, 3652],
               ["year", 25, 9131], ["year", 50, 18262], ["year", 100, 36525], ["year", 250, 91312],
               ["year", 500, 182625], ["year", 1000, 365250]];
  var measurer = document.createElement("canvas").getContext("2d");
  measurer.font = "11px system-ui, sans-serif";

  function textWidth(text) { return measurer.measureText(text).width; }
  function node(tag, attrs, text) {
    var made = document.createElementNS(SVG, tag);
    Object.keys(attrs || {}).forEach(function (key) { made.setAttribute(key, attrs[key]); });
    if (text !== undefined) { made.textContent = String(text); }
    return made;
  }
  /* Text cut to fit a width in pixels, with an ellipsis ("" when not even a letter fits). */
  function fit(text, room) {
    if (textWidth(text) <= room) { return text; }
    var low = 0, high = text.length;
    while (low < high) {
      var mid = Math.ceil((low + high) / 2);
      if (textWidth(text.slice(0, mid) + "…") <= room) { low = mid; } else { high = mid - 1; }
    }
    return low ? text.slice(0, low) + "…" : "";
  }

  /* Date.UTC reads years 0-99 as 1900-1999; this does not. */
  function utc(year, month, day) { return new Date(0).setUTCFullYear(year, month, day || 1); }

  /* Round dates between low and high (milliseconds), about nine of them, on the page's clock (gm.zone). */
  function ticks(low, high) {
    return wallTicks(low + gm.offset(low), high + gm.offset(high)).map(function (tick) {
      return [gm.fromWall(tick[0]), tick[1]];
    });
  }
  /* Round dates between low and high, read as UTC. */
  function wallTicks(low, high) {
    var days = (high - low) / DAY;
    var step = STEPS.filter(function (s) { return days / s[2] <= 9; })[0] || STEPS[STEPS.length - 1];
    var d = new Date(low);
    var t;
    if (step[0] === "year") {
      var year = d.getUTCFullYear() + ((step[1] - d.getUTCFullYear() % step[1]) % step[1]);
      t = utc(year, 0, 1);
      if (t < low) { t = utc(year + step[1], 0, 1); }
    } else if (step[0] === "month") {
      var month = d.getUTCMonth() + ((step[1] - d.getUTCMonth() % step[1]) % step[1]);
      t = utc(d.getUTCFullYear(), month, 1);
      if (t < low) { t = utc(d.getUTCFullYear(), month + step[1], 1); }
    } else {
      t = utc(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate());
      if (step[1] === 7) { t += ((8 - new Date(t).getUTCDay()) % 7) * DAY; }
      while (t < low) { t += step[1] * DAY; }
    }
    var found = [];
    while (t <= high && found.length < 30) {
      var at = new Date(t);
      var label = step[0] === "year" ? String(at.getUTCFullYear())
        : step[0] === "month" ? MONTHS[at.getUTCMonth()] + " " + at.getUTCFullYear()
        : at.toISOString().slice(0, 10);
      found.push([t, label]);
      t = step[0] === "year" ? utc(at.getUTCFullYear() + step[1], 0, 1)
        : step[0] === "month" ? utc(at.getUTCFullYear(), at.getUTCMonth() + step[1], 1)
        : t + step[1] * DAY;
    }
    return found;
  }

  /* The range first shown: every moment of every version, padded a little. */
  function initialRange(versions, asOf) {
    var moments = [asOf];
    versions.forEach(function (v) {
      moments.push(v.valid_from);
      if (v.valid_to !== null) { moments.push(v.valid_to); }
    });
    var low = Math.min.apply(null, moments);
    var high = Math.max.apply(null, moments);
    if (high - low < 2 * DAY) { return [low - 30 * DAY, high + 30 * DAY]; }
    var pad = (high - low) * 0.04;
    return [low - pad, high + pad];
  }

  /* Draw versions of one entity into container; returns a controller. ``options``:
     entity {id, name}, versions (bar records, times in ms), asOf, onSelect(id). */
  gm.timeline = function (container, options) {
    var versions = options.versions;
    var asOf = options.asOf;
    var home = initialRange(versions, asOf);
    var range = home.slice();
    var selected = null;
    var svg = node("svg", { id: "timeline", "class": "timeline", role: "img",
                            "aria-label": "timeline of " + options.entity.name });
    container.appendChild(svg);
    var stats = { bars: 0, lanes: 0, labels: 0, overlaps: 0, hidden: 0, min_width: 0 };

    function width() { return Math.max(600, container.clientWidth || 1100); }
    function x(t) {
      var plot = width() - LABEL_W - RIGHT;
      return LABEL_W + (t - range[0]) / (range[1] - range[0]) * plot;
    }
    function groupsAt() {
      var groups = {};
      versions.forEach(function (v) {
        if (v.recorded_at > asOf) { return; }
        var key = (v.incoming ? "1" : "0") + v.predicate;
        (groups[key] = groups[key] || { incoming: v.incoming, predicate: v.predicate, believed: [], closed: [] });
        if (gm.believedAt(v, asOf)) { groups[key].believed.push(v); } else { groups[key].closed.push(v); }
      });
      return Object.keys(groups).sort().map(function (key) { return groups[key]; });
    }

    /* Where a bar and its label go: pixel extent, label text, inside or to the right. */
    function place(v, plotRight) {
      var left = x(v.valid_from);
      var right = v.valid_to === null ? Math.max(plotRight, left + MIN_BAR) : x(v.valid_to);
      if (right - left < MIN_BAR) {
        var middle = (left + right) / 2;
        left = middle - MIN_BAR / 2;
        right = middle + MIN_BAR / 2;
      }
      var full = v.other.length > LABEL_MAX ? v.other.slice(0, LABEL_MAX - 1) + "…" : v.other;
      var visibleLeft = Math.max(left, LABEL_W);
      var visibleRight = Math.min(right, plotRight);
      var arrow = v.valid_to === null ? ARROW : 0;
      var need = textWidth(full) + 2 * PAD;
      var spot;
      if (visibleRight - visibleLeft >= need) {
        spot = { text: full, x: visibleLeft + PAD, inside: true, end: right + arrow };
      } else if (right + arrow + need <= plotRight + RIGHT) {
        spot = { text: full, x: right + arrow + PAD, inside: false, end: right + arrow + need };
      } else if (left - need >= LABEL_W) {
        spot = { text: full, x: left - PAD, inside: false, anchor: "end", start: left - need, end: right + arrow };
      } else {
        var text = fit(full, Math.max(visibleRight - visibleLeft, plotRight - right - arrow) - 2 * PAD);
        var inside = visibleRight - visibleLeft >= plotRight - right - arrow;
        spot = { text: text, x: inside ? visibleLeft + PAD : right + arrow + PAD, inside: inside,
                 end: inside ? right + arrow : plotRight + RIGHT };
      }
      spot.left = left;
      spot.right = right;
      spot.start = spot.start === undefined ? left : spot.start;
      spot.tight = spot.text !== v.other;
      return spot;
    }

    /* Bars in as few lanes as possible, no two extents (bar and label) overlapping in one. */
    function lanes(items) {
      var ends = [];
      var found = [];
      items.sort(function (a, b) { return a.spot.start - b.spot.start || (a.v.id < b.v.id ? -1 : 1); });
      items.forEach(function (item) {
        var lane = 0;
        while (lane < ends.length && ends[lane] > item.spot.start + 0.5) { lane += 1; }
        ends[lane] = item.spot.end;
        item.lane = lane;
        found.push(item);
      });
      return { items: found, count: Math.max(ends.length, 1) };
    }

    function bar(v, spot, y, rowLabel) {
      var status = gm.statusAt(v, asOf);
      var closed = status === "superseded" || status === "retracted";
      var g = node("g", { "class": "bar status-" + status + (closed ? " closed" : "") + (selected === v.id ? " active" : ""),
                          "data-version": v.id, tabindex: "0", role: "button" });
      g.appendChild(node("title", {}, v.subject + " " + v.predicate + " " + v.object +
        "\nvalid " + gm.period(v.valid_from, v.valid_to) +
        "\nbelieved " + gm.when(v.recorded_at) + " → " + gm.when(v.superseded_at, "still believed") +
        "\n" + status + (rowLabel ? "" : "")));
      g.appendChild(node("rect", { x: spot.left.toFixed(1), y: (y + (ROW - BAR) / 2).toFixed(1),
                                   width: (spot.right - spot.left).toFixed(1), height: BAR, rx: 3 }));
      if (v.valid_to === null) {
        var top = y + (ROW - BAR) / 2;
        g.appendChild(node("polygon", { points: [spot.right, top - 2, spot.right + ARROW, top + BAR / 2,
                                                 spot.right, top + BAR + 2].join(" ") }));
      }
      if (spot.text) {
        var label = node("text", { x: spot.x.toFixed(1), y: (y + 15).toFixed(1), "class": spot.inside ? "" : "outside",
                                   "text-anchor": spot.anchor || "start" }, spot.text);
        g.appendChild(label);
        stats.labels += 1;
      }
      g.addEventListener("click", function () { select(v.id); });
      g.addEventListener("keydown", function (event) {
        if (event.key === "Enter" || event.key === " ") { event.preventDefault(); select(v.id); }
      });
      stats.bars += 1;
      stats.min_width = Math.min(stats.min_width || Infinity, spot.right - spot.left);
      return g;
    }

    function draw() {
      while (svg.firstChild) { svg.removeChild(svg.firstChild); }
      stats = { bars: 0, lanes: 0, labels: 0, hidden: 0, min_width: 0, extents: [] };
      var w = width();
      var plotRight = w - RIGHT;
      var defs = node("defs");
      var clip = node("clipPath", { id: "plot-clip" });
      defs.appendChild(clip);
      svg.appendChild(defs);
      var rows = node("g");
      var plot = node("g", { "clip-path": "url(#plot-clip)" });
      var y = TOP;
      groupsAt().forEach(function (group) {
        y += GAP;
        rows.appendChild(node("text", { "class": "group-title", x: 8, y: y + 15 },
          group.incoming ? "← " + group.predicate + " (as object)" : group.predicate));
        y += ROW;
        var items = group.believed.map(function (v) { return { v: v, spot: place(v, plotRight) }; })
          .filter(function (item) {
            var seen = item.spot.right >= LABEL_W && item.spot.left <= plotRight;
            if (!seen) { stats.hidden += 1; }
            return seen;
          });
        var packed = lanes(items);
        for (var lane = 0; lane < packed.count; lane += 1) {
          plot.appendChild(node("rect", { "class": "band", x: LABEL_W, y: y + lane * ROW, width: plotRight - LABEL_W, height: ROW }));
        }
        rows.appendChild(node("text", { "class": "row-label", x: 16, y: y + 15 }, "believed"));
        packed.items.forEach(function (item) {
          plot.appendChild(bar(item.v, item.spot, y + item.lane * ROW));
          stats.extents.push([y + item.lane * ROW, item.spot.start, item.spot.end]);
        });
        stats.lanes += packed.count;
        y += packed.count * ROW;
        if (group.closed.length) {
          rows.appendChild(node("text", { "class": "subhead", x: 16, y: y + 15 }, "no longer believed, newest first"));
          y += ROW;
          group.closed.sort(function (a, b) { return b.superseded_at - a.superseded_at || b.recorded_at - a.recorded_at; })
            .forEach(function (v) {
              rows.appendChild(node("text", { "class": "row-label", x: 16, y: y + 15 },
                gm.when(v.recorded_at) + " → " + gm.when(v.superseded_at)));
              var spot = place(v, plotRight);
              if (spot.right >= LABEL_W && spot.left <= plotRight) { plot.appendChild(bar(v, spot, y, true)); }
              else { stats.hidden += 1; }
              y += ROW;
            });
        }
      });
      var height = y + 30;
      clip.appendChild(node("rect", { x: LABEL_W - 2, y: 0, width: plotRight - LABEL_W + RIGHT, height: height }));
      svg.setAttribute("viewBox", "0 0 " + w + " " + height);
      svg.setAttribute("height", String(height));
      var axis = node("g", { "class": "axis" });
      ticks(range[0], range[1]).forEach(function (tick) {
        var at = x(tick[0]).toFixed(1);
        axis.appendChild(node("line", { "class": "grid", x1: at, x2: at, y1: TOP - 4, y2: height - 24 }));
        axis.appendChild(node("text", { x: at, y: 18, "text-anchor": "middle" }, tick[1]));
        axis.appendChild(node("text", { x: at, y: height - 8, "text-anchor": "middle" }, tick[1]));
      });
      axis.appendChild(node("line", { "class": "axis-line", x1: LABEL_W, x2: plotRight, y1: TOP - 4, y2: TOP - 4 }));
      var title = "valid time (" + gm.zone() + ") →";
      if (title.length <= 30) {
        axis.appendChild(node("text", { x: 8, y: 18 }, title));
      } else {  // a long zone ("America/Argentina/Cordoba") on a line of its own, not over the first year (a new user's)
        axis.appendChild(node("text", { x: 8, y: 11 }, "valid time →"));
        axis.appendChild(node("text", { x: 8, y: 24, "class": "axis-zone" }, gm.zone()));
      }
      svg.appendChild(axis);
      svg.appendChild(plot);
      svg.appendChild(rows);
      var nowX = x(asOf);
      if (nowX >= LABEL_W && nowX <= plotRight) {
        svg.appendChild(node("line", { "class": "now-line", x1: nowX, x2: nowX, y1: TOP - 4, y2: height - 24 }));
        var right = nowX > plotRight - 150;
        svg.appendChild(node("text", { "class": "now-label", x: right ? nowX - 4 : nowX + 4, y: TOP + 8,
                                       "text-anchor": right ? "end" : "start" }, "as of " + gm.when(asOf)));
      }
      if (options.onDraw) { options.onDraw(controller); }
    }

    function select(id) {
      selected = id;
      Array.prototype.forEach.call(svg.querySelectorAll("g.bar"), function (g) {
        g.classList.toggle("active", g.getAttribute("data-version") === id);
      });
      if (options.onSelect) { options.onSelect(id); }
    }

    function zoom(factor, around) {
      var span = range[1] - range[0];
      var next = Math.min(MAX_SPAN, Math.max(MIN_SPAN, span * factor));
      var at = around === undefined ? (range[0] + range[1]) / 2 : around;
      var share = (at - range[0]) / span;
      range = [at - share * next, at - share * next + next];
      draw();
    }
    function timeAt(clientX) {
      var box = svg.getBoundingClientRect();
      var px = (clientX - box.left) * width() / box.width;
      return range[0] + (px - LABEL_W) / (width() - LABEL_W - RIGHT) * (range[1] - range[0]);
    }
    svg.addEventListener("wheel", function (event) {
      event.preventDefault();
      zoom(event.deltaY > 0 ? 1.25 : 0.8, timeAt(event.clientX));
    }, { passive: false });
    var drag = null;
    svg.addEventListener("mousedown", function (event) {
      drag = { x: event.clientX, range: range.slice() };
      svg.classList.add("dragging");
    });
    window.addEventListener("mousemove", function (event) {
      if (!drag) { return; }
      var box = svg.getBoundingClientRect();
      var shift = (event.clientX - drag.x) * width() / box.width / (width() - LABEL_W - RIGHT) * (drag.range[1] - drag.range[0]);
      range = [drag.range[0] - shift, drag.range[1] - shift];
      draw();
    });
    window.addEventListener("mouseup", function () { drag = null; svg.classList.remove("dragging"); });
    svg.addEventListener("dblclick", function () { controller.reset(); });

    var controller = {
      svg: svg,
      draw: draw,
      zoom: zoom,
      select: select,
      reset: function () { range = home.slice(); draw(); },
      range: function () { return range.slice(); },
      setRange: function (low, high) { range = [low, high]; draw(); },
      setAsOf: function (value) { asOf = value; draw(); },
      asOf: function () { return asOf; },
      stats: function () { return stats; },
    };
    draw();
    return controller;
  };
  gm.timelineTicks = ticks;
})();
