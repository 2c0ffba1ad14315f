/* The explorer's search box: entities whose name holds the text, and the facts and messages that
   best answer it as a question ("where does Ivan live"), as believed at the page's as-of time.
   Every name and sentence is set as text, never as markup. */
(function () {
  "use strict";
  var gm = window.graphmem;
  var WORD = /[\p{L}\p{N}]/u;   /* a question with no letter or digit has nothing to search for */
  var FACTS = 6;

  /* Why a fact was found, as `graphmem search` says it: anchor, synonyms, words, time, meaning. */
  function why(matched) {
    var parts = [];
    if (matched.anchor) { parts.push("about " + matched.anchor + (matched.via ? " → " + matched.via : "")); }
    if (matched.synonyms && matched.synonyms.length) {
      parts.push(matched.synonyms.map(function (s) { return "“" + s.phrase + "” → " + s.predicate; }).join(", "));
    }
    if (matched.words && matched.words.length) { parts.push("words: " + matched.words.join(", ")); }
    if (matched.time) { parts.push("time: " + matched.time.text); }
    if (matched.semantic !== null && matched.semantic !== undefined) { parts.push("meaning " + matched.semantic.toFixed(2)); }
    return parts.join("; ");
  }

  function hitItem(hit) {
    var item = gm.el("li", "option hit");
    var fact = gm.el("div", "hit-fact");
    fact.appendChild(gm.el("span", "pill status-" + String(hit.status).replace(/[^a-z]/g, ""), hit.status));
    fact.appendChild(document.createTextNode(" " + hit.subject + " "));
    fact.appendChild(gm.el("span", "hit-predicate", hit.predicate));
    fact.appendChild(document.createTextNode(" " + hit.object));
    item.appendChild(fact);
    if (hit.matched.sentence) { item.appendChild(gm.el("div", "hit-sentence", "“" + hit.matched.sentence + "”")); }
    var meta = "valid " + gm.period(gm.ms(hit.valid_from), gm.ms(hit.valid_to));
    var reason = why(hit.matched);
    item.appendChild(gm.el("div", "hit-why", meta + (reason ? " · " + reason : "")));
    item.title = hit.subject + " " + hit.predicate + " " + hit.object + " (" + hit.id + ", score " + hit.score + ")";
    return item;
  }

  /* When a message was said, and the times its phrases name ("yesterday = 7 May 2023"). */
  function said(hit) {
    var parts = ["said " + gm.when(gm.ms(hit.said_at))];
    (hit.times || []).forEach(function (t) { parts.push("“" + t.text + "” = " + gm.when(gm.ms(t.valid_from))); });
    return parts.join(" · ");
  }

  function messageItem(hit) {
    var item = gm.el("li", "option hit said-hit");
    var line = gm.el("div", "hit-fact");
    line.appendChild(gm.el("span", "pill said", hit.role === "assistant" ? "assistant" : "said"));
    line.appendChild(document.createTextNode(" " + (hit.speaker || "unknown") + ": "));
    line.appendChild(gm.el("span", "hit-said", "“" + hit.text + "”"));
    item.appendChild(line);
    hit.before.forEach(function (turn) {
      item.appendChild(gm.el("div", "hit-sentence", "before, " + (turn.speaker || "unknown") + ": “" + turn.text + "”"));
    });
    var words = hit.words && hit.words.length ? " · words: " + hit.words.join(", ") : "";
    item.appendChild(gm.el("div", "hit-why", said(hit) + words + (hit.time ? " · time: " + hit.time.text : "")));
    item.title = (hit.speaker || "unknown") + " (" + hit.episode + ", score " + hit.score + ")";
    return item;
  }

  /* settings: input, list (a <ul>), api(path, params) → Promise, asOf() → time or null, speaker() → who asks or null,
     onEntity(name), onFact(hit, question), onMessage(hit, question), onError(message), report(extra). */
  gm.searchBox = function (settings) {
    var input = settings.input;
    var list = settings.list;
    var choices = [];   /* in list order: { entity: name } or { hit: record } */
    var items = [];
    var active = -1;
    var asked = 0;      /* answers to an older text are dropped */
    var pending = null;
    var shown = null;   /* the text the list answers */

    function clear() {
      while (list.firstChild) { list.removeChild(list.firstChild); }
      choices = [];
      items = [];
      active = -1;
    }
    function hide() { list.hidden = true; }
    function highlight(index) {
      if (!items.length) { active = -1; return; }
      active = (index + items.length) % items.length;
      items.forEach(function (item, i) {
        item.className = item.className.replace(/ ?active/g, "") + (i === active ? " active" : "");
        item.setAttribute("aria-selected", String(i === active));
      });
      items[active].scrollIntoView({ block: "nearest" });
    }
    function add(item, choice) {
      var index = items.length;
      item.setAttribute("role", "option");
      item.addEventListener("mousedown", function (event) { event.preventDefault(); choose(index); });
      item.addEventListener("mousemove", function () { if (active !== index) { highlight(index); } });
      list.appendChild(item);
      items.push(item);
      choices.push(choice);
    }
    function heading(text) {
      var item = gm.el("li", "group", text);
      item.setAttribute("role", "presentation");
      list.appendChild(item);
    }

    function show(text, entities, hits, asOf) {
      clear();
      if (entities.length) { heading("Entities"); }
      entities.forEach(function (entity) { add(gm.el("li", "option", entity.name), { entity: entity.name }); });
      if (hits.length) { heading("Facts and messages that answer it" + (asOf ? ", as believed at " + gm.when(gm.ms(asOf)) : "")); }
      hits.forEach(function (hit) { add(hit.kind === "message" ? messageItem(hit) : hitItem(hit), { hit: hit }); });
      if (!items.length) { list.appendChild(gm.el("li", "empty", "No entity, fact or message matches “" + text + "”.")); }
      list.className = "suggestions" + (hits.length ? " with-facts" : "");
      highlight(0);
      shown = text;
      list.hidden = false;
      settings.report({ suggestions: entities.map(function (e) { return e.name; }),
                        hits: hits.map(function (h) { return h.id; }), asked: text });
    }

    function ask() {
      var text = input.value.trim();
      var mine = asked += 1;
      if (!text) { clear(); shown = null; hide(); return Promise.resolve(); }
      var asOf = settings.asOf();
      var speaker = settings.speaker ? settings.speaker() : null;
      var facts = WORD.test(text)
        ? settings.api("/api/search", { q: text, as_of: asOf, limit: FACTS, speaker: speaker })
          .catch(function (error) {
            if (error.status !== 400) { throw error; }
            /* who asks is unknown: say so, and still list the entities the text names */
            if (/^unknown speaker/.test(error.message)) { settings.onError(error.message); }
            return [];
          })
        : Promise.resolve([]);
      return Promise.all([settings.api("/api/entities", { q: text }), facts]).then(function (found) {
        if (mine !== asked) { return; }
        show(text, found[0], found[1], asOf);
      }).catch(function (error) {
        if (mine === asked) { clear(); hide(); settings.onError(error.message); }
      });
    }

    function choose(index) {
      var choice = choices[index];
      hide();
      if (!choice) {
        var text = input.value.trim();
        if (text) { settings.onEntity(text); }
        return;
      }
      if (choice.entity !== undefined) {
        input.value = choice.entity;
        settings.onEntity(choice.entity);
      } else if (choice.hit.kind === "message") {
        settings.onMessage(choice.hit, input.value.trim());
      } else {
        settings.onFact(choice.hit, input.value.trim());   /* the question stays, to choose another answer */
      }
    }

    input.addEventListener("input", function () {
      if (pending) { clearTimeout(pending); }
      pending = setTimeout(ask, 120);
    });
    var leaving = null;   /* hiding on blur waits, so that a click on the list lands first */
    input.addEventListener("focus", function () {
      if (leaving) { clearTimeout(leaving); leaving = null; }
      if (input.value.trim()) { ask(); }
    });
    input.addEventListener("keydown", function (event) {
      if (list.hidden) { return; }
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        highlight(active + (event.key === "ArrowDown" ? 1 : -1));
      } else if (event.key === "Escape") {
        hide();
      }
    });
    input.addEventListener("blur", function () { leaving = setTimeout(hide, 150); });
    input.form.addEventListener("submit", function (event) {
      event.preventDefault();
      if (pending) { clearTimeout(pending); pending = null; }
      /* Enter before the list answers this text: ask now, then take the first choice */
      var ready = list.hidden || shown !== input.value.trim() ? ask() : Promise.resolve();
      ready.then(function () { choose(active); });
    });
    return { ask: ask, choose: choose, hide: hide };
  };
  gm.searchBox.why = why;
  gm.searchBox.said = said;
})();
