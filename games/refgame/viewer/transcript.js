// The transcript of a referee's game: the whole game as a list (the start,
// each turn, the verdict), the current frame's entry highlighted. Every
// text goes in through textContent: the page never reads a bot's or a
// referee's text as markup.
function gauntletRenderer(replay, stage) {
  "use strict";
  var setup = replay.setup || {};
  var turns = replay.frames || [];
  var seats = replay.seats || [];
  var relayed = setup.protocol === "relayed";

  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  function ms(x) {
    return (x >= 100 ? x.toFixed(0) : x >= 10 ? x.toFixed(1) : x.toFixed(2)) + " ms";
  }
  function block(parent, what, lines, cls) {
    if (!lines || !lines.length) { return; }
    var d = el("div", "tx-block " + (cls || ""));
    d.appendChild(el("div", "tx-what", what));
    d.appendChild(el("pre", "", lines.join("\n")));
    parent.appendChild(d);
  }
  var noteNames = { stdout: "referee: its own lines", error: "referee: ###Error", stderr: "referee: stderr" };
  function notes(parent, ns) {
    (ns || []).forEach(function (n) { block(parent, noteNames[n.from] || "referee: " + n.from, n.lines, "tx-ref"); });
  }
  function player(i) { return "player " + i + " (" + (seats[i] || "?") + ")"; }
  function limit(answer) {
    var l = setup.limits;
    if (!l || !l.turn_ms) { return "no limit"; }
    return answer === 1 ? "limit " + l.first_turn_ms + " + " + l.first_turn_margin_ms + " ms"
      : "limit " + l.turn_ms + " + " + l.margin_ms + " ms";
  }

  var list = el("div", "tx");
  stage.appendChild(list);
  var sections = [];
  function section(cls, title) {
    var s = el("section", "tx-entry " + cls);
    s.appendChild(el("h2", "", title));
    list.appendChild(s);
    return s;
  }

  // The start: the protocol, the seed, the limits.
  var start = section("tx-start", relayed ? "Start" : "Game");
  start.appendChild(el("p", "tx-about", setup.about || ""));
  var facts = "seed " + setup.seed + " · " + seats.length + " players";
  if (relayed) {
    facts += " · " + (setup.limits && setup.limits.turn_ms ? "first answer " + limit(1).replace("limit ", "") +
      ", the others " + limit(2).replace("limit ", "") : "no time limit");
  }
  start.appendChild(el("p", "tx-facts", facts));
  notes(start, setup.notes);
  block(start, "the referee's output", setup.output, "tx-ans");
  block(start, "the referee's log file", setup.log, "tx-sent");
  block(start, "test_data, player_data", setup.data, "tx-ref");
  if (relayed) { sections.push(start); }

  turns.forEach(function (t, k) {
    var head = "turn " + (k + 1) + " · " + player(t.player) + " · answer " + t.answer + " · " +
      (t.ms ? ms(t.ms) : "no answer") + " (" + limit(t.answer) + ")";
    var s = section("tx-turn" + (t.forfeit ? " tx-forfeited" : ""), head);
    s.setAttribute("data-player", String(t.player));
    block(s, "sent to " + player(t.player), t.sent, "tx-sent");
    block(s, "answered", t.answered, "tx-ans");
    if (t.forfeit) { s.appendChild(el("p", "tx-forfeit", "forfeit: " + t.forfeit)); }
    block(s, "its stderr", t.stderr, "tx-err");
    notes(s, t.referee);
    sections.push(s);
  });

  if (setup.cut) { list.appendChild(el("p", "tx-cut", "The transcript stops here: " + setup.cut)); }

  // The verdict: the referee's line and every seat's result.
  var verdict = relayed ? section("tx-verdict", "Verdict") : start;
  if (setup.end) { block(verdict, "the referee's verdict", [setup.end], "tx-ref"); }
  var table = el("table", "gv tx-table");
  var hr = el("tr");
  ["seat", "player", "rank", "score", relayed ? "answers" : null, "forfeit"].forEach(function (h) {
    if (h !== null) { hr.appendChild(el("th", "", h)); }
  });
  table.appendChild(hr);
  (setup.verdict || []).forEach(function (v, i) {
    var tr = el("tr", v.forfeit ? "tx-forfeited" : "");
    tr.appendChild(el("td", "", String(i)));
    tr.appendChild(el("td", "tx-label", seats[i] || ""));
    tr.appendChild(el("td", "", String(v.rank)));
    tr.appendChild(el("td", "", String(v.score)));
    if (relayed) { tr.appendChild(el("td", "", String(v.answers))); }
    tr.appendChild(el("td", "tx-label", v.forfeit || ""));
    table.appendChild(tr);
  });
  verdict.appendChild(table);
  (setup.verdict || []).forEach(function (v, i) {
    block(verdict, player(i) + ": stderr after its last answer was read", v.stderr, "tx-err");
  });
  if (!relayed) { sections.push(start); }
  if (relayed) { sections.push(verdict); }

  return {
    draw: function (i) {
      sections.forEach(function (s, k) { s.classList.toggle("tx-current", k === i); });
      var last = i === sections.length - 1;
      if (sections[i] && i > 0 && sections[i].scrollIntoView) { sections[i].scrollIntoView({ block: "nearest" }); }
      var label = !relayed ? "" : i === 0 ? "start" : last ? "verdict" : "turn " + i + " of " + turns.length;
      var t = relayed && i > 0 && !last ? turns[i - 1] : null;
      return {
        label: label,
        scores: last ? replay.scores : seats.map(function () { return "…"; }),
        note: t && t.forfeit ? player(t.player) + " forfeits: " + t.forfeit : ""
      };
    }
  };
}
