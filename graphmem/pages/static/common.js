/* graphmem page runtime: captures errors, reports status, renders user text as text only. */
(function () {
  "use strict";
  var status = { ready: false, errors: [], resources: [] };

  function publish() {
    var out = document.getElementById("graphmem-status");
    if (out) { out.textContent = JSON.stringify(status); }
  }
  function record(message) {
    status.errors.push(String(message));
    publish();
  }
  window.addEventListener("error", function (event) {
    var target = event.target;
    if (target && target !== window && (target.src || target.href)) {
      record("failed to load " + (target.src || target.href));
    } else {
      record(event.message || "script error");
    }
  }, true);
  window.addEventListener("unhandledrejection", function (event) {
    record("unhandled rejection: " + event.reason);
  });
  document.addEventListener("securitypolicyviolation", function (event) {
    record("blocked by content policy: " + event.violatedDirective + " " + (event.blockedURI || ""));
  });
  var consoleError = console.error;
  console.error = function () {
    record(Array.prototype.map.call(arguments, String).join(" "));
    return consoleError.apply(console, arguments);
  };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  /* One fact or entity as DOM: heading, label/value rows, quoted sources. Text only. */
  function details(info) {
    var box = el("div", "info");
    box.appendChild(el("h3", "", info.heading));
    var list = el("dl");
    info.rows.forEach(function (row) {
      list.appendChild(el("dt", "", row[0]));
      var value = el("dd");
      if (row[0] === "status") {
        value.appendChild(el("span", "pill status-" + String(row[1]).replace(/[^a-z]/g, ""), row[1]));
      } else {
        value.textContent = String(row[1]);
      }
      list.appendChild(value);
    });
    box.appendChild(list);
    info.sources.forEach(function (source) {
      var quote = el("blockquote", "", source.text);
      quote.appendChild(el("cite", "", source.cite));
      box.appendChild(quote);
    });
    return box;
  }

  /* Replace a panel's content with one item's details (or several), or a hint when there is none. */
  function showInPanel(panel, info, hint) {
    while (panel.firstChild) { panel.removeChild(panel.firstChild); }
    if (!info) { panel.appendChild(el("p", "hint", hint)); return; }
    (Array.isArray(info) ? info : [info]).forEach(function (one) { panel.appendChild(details(one)); });
  }

  /* The zone times are shown and read in: UTC, unless a page says otherwise (the explorer: the store's zone). */
  var zone = { name: "UTC", clock: null };
  function setZone(name) {
    zone = { name: "UTC", clock: null };
    if (!name || name === "UTC") { return zone.name; }
    try {
      zone = { name: name, clock: new Intl.DateTimeFormat("en-US", {
        timeZone: name, hourCycle: "h23", year: "numeric", month: "numeric", day: "numeric",
        hour: "numeric", minute: "numeric", second: "numeric" }) };
    } catch (err) { record("unknown time zone " + name + "; times are shown in UTC"); }
    return zone.name;
  }
  /* How far the zone's clock is ahead of UTC at the moment ms (milliseconds; 0 in UTC). */
  function offset(ms) {
    if (!zone.clock) { return 0; }
    var second = Math.floor(ms / 1000) * 1000;
    var wall = {};
    zone.clock.formatToParts(new Date(second)).forEach(function (part) { wall[part.type] = Number(part.value); });
    var midnight = new Date(0).setUTCFullYear(wall.year, wall.month - 1, wall.day);
    return midnight + ((wall.hour * 60 + wall.minute) * 60 + wall.second) * 1000 - second;
  }
  /* The moment a wall-clock time in the zone names, given as milliseconds of the same clock in UTC. */
  function fromWall(wall) { var guess = wall - offset(wall); return wall - offset(guess); }
  /* A time for people, as the pages write it: the date alone at midnight, else date and minute; in UTC with a Z,
     in another zone by its clock (the page says which zone). */
  function when(ms, openText) {
    if (ms === null || ms === undefined) { return openText || "open"; }
    var text = new Date(ms + offset(ms)).toISOString();
    return text.slice(11, 23) === "00:00:00.000" ? text.slice(0, 10)
      : text.slice(0, 10) + " " + text.slice(11, 16) + (zone.clock ? "" : "Z");
  }
  /* The day (YYYY-MM-DD) a moment falls on in the zone, as a date input takes it. */
  function day(ms) { return ms === null || ms === undefined ? "" : new Date(ms + offset(ms)).toISOString().slice(0, 10); }
  function period(start, end) { return when(start) + " → " + when(end); }

  /* A version's status seen from transaction time asOf and valid time validAt (default asOf):
     the same rule as graphmem.temporal.status, over times in milliseconds (null: open). */
  function statusAt(v, asOf, validAt) {
    if (validAt === undefined || validAt === null) { validAt = asOf; }
    if (v.superseded_at !== null && v.superseded_at !== undefined && v.superseded_at <= asOf) {
      return v.retracted ? "retracted" : "superseded";
    }
    if (validAt < v.valid_from) { return "upcoming"; }
    if (v.valid_to !== null && v.valid_to !== undefined && v.valid_to <= validAt) { return "ended"; }
    return "current";
  }
  function believedAt(v, asOf) {
    return v.recorded_at <= asOf && (v.superseded_at === null || v.superseded_at === undefined || asOf < v.superseded_at);
  }
  /* A time as milliseconds: ISO 8601 with a zone as it says, a date or a time without one on the zone's clock (as
     the store reads it). */
  var NAIVE = /^[0-9]{4}-[0-9]{2}-[0-9]{2}(T[0-9]{2}:[0-9]{2}(:[0-9]{2}(\.[0-9]+)?)?)?$/;
  function ms(text) {
    if (text === null || text === undefined) { return null; }
    if (!NAIVE.test(text)) { return Date.parse(text); }
    return fromWall(Date.parse(text.length === 10 ? text + "T00:00:00Z" : text + "Z"));
  }

  function hashParams() {
    var params = {};
    location.hash.replace(/^#/, "").split("&").forEach(function (part) {
      if (!part) { return; }
      var pair = part.split("=");
      try {
        params[decodeURIComponent(pair[0])] = decodeURIComponent(pair.slice(1).join("="));
      } catch (err) { /* a malformed hash is ignored */ }
    });
    return params;
  }

  function data() {
    var parsed = JSON.parse(document.getElementById("graphmem-data").textContent);
    if (parsed && parsed.zone) { setZone(parsed.zone); }  /* a picture of a store shows the store's zone */
    return parsed;
  }

  /* Count sampled canvas pixels that are not transparent: a test's proof the graph drew. */
  function inked(container) {
    var canvas = container && container.querySelector("canvas");
    if (!canvas || !canvas.width || !canvas.height) { return 0; }
    var pixels = canvas.getContext("2d").getImageData(0, 0, canvas.width, canvas.height).data;
    var count = 0;
    for (var i = 3; i < pixels.length; i += 16) { if (pixels[i] > 0) { count += 1; } }
    return count;
  }

  function report(extra) {
    Object.keys(extra || {}).forEach(function (key) { status[key] = extra[key]; });
    if (window.performance && performance.getEntriesByType) {
      status.resources = performance.getEntriesByType("resource").map(function (e) { return e.name; });
    }
    publish();
  }

  document.addEventListener("DOMContentLoaded", publish);
  window.graphmem = {
    status: status, report: report, details: details, el: el, showInPanel: showInPanel,
    hashParams: hashParams, data: data, inked: inked, when: when, period: period, day: day,
    statusAt: statusAt, believedAt: believedAt, ms: ms, setZone: setZone, offset: offset, fromWall: fromWall,
    zone: function () { return zone.name; },
  };
})();
