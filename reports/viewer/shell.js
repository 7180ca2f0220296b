// The viewer shell: frame state, controls, keyboard, fragment, score line.
// The game's renderer (gauntletRenderer) draws the frames.
(function () {
  "use strict";
  var replay = JSON.parse(document.getElementById("replay-data").textContent);
  var count = replay.count;
  var renderer = gauntletRenderer(replay, document.getElementById("stage"));
  var slider = document.getElementById("slider");
  var playBtn = document.getElementById("play");
  var speed = document.getElementById("speed");
  var scoreEl = document.getElementById("score");
  var noteEl = document.getElementById("note");
  var labelEl = document.getElementById("frame-label");
  var colours = replay.setup && replay.setup.colours ? replay.setup.colours : [];
  var frame = -1, timer = null;
  slider.max = String(count - 1);

  function fmt(x) {
    if (typeof x !== "number") { return String(x); }
    if (x === Math.trunc(x)) { return String(x); }
    return x.toFixed(Math.abs(x) >= 1000 ? 1 : Math.abs(x) >= 10 ? 2 : 4);
  }

  // Scores: one span per seat, built once; their values change per frame.
  var values = replay.seats.map(function (label, k) {
    var seat = document.createElement("span");
    seat.className = "seat";
    seat.setAttribute("data-seat", String(k));
    if (colours[k]) {
      var sw = document.createElement("span");
      sw.className = "swatch";
      sw.style.background = colours[k];
      seat.appendChild(sw);
    }
    var name = document.createElement("span");
    name.className = "label";
    name.textContent = label + ": ";
    var v = document.createElement("span");
    v.className = "value";
    seat.appendChild(name);
    seat.appendChild(v);
    scoreEl.appendChild(seat);
    return v;
  });

  // Bots' stderr (replay.logs), beside the board: the lines of the turn
  // drawn in this frame where the game's frames follow the bots' inputs
  // (log.frames), else the whole log. The lines are escaped by gauntlet and
  // set as text, never as markup.
  var logs = (replay.logs || []).map(function (l) {
    var box = document.createElement("section");
    var h = document.createElement("h2");
    var label = replay.seats[l.seat];
    h.textContent = "stderr of seat " + l.seat + (label ? " (" + label + ")" : "");
    var pre = document.createElement("pre");
    pre.setAttribute("data-seat", String(l.seat));
    box.appendChild(h);
    box.appendChild(pre);
    document.getElementById("logs").appendChild(box);
    var byFrame = null, whole = [];
    if (l.frames) {
      byFrame = {};
      l.turns.forEach(function (lines, t) {
        var f = l.frames[t];
        byFrame[f] = (byFrame[f] || []).concat(lines || []);
      });
    } else {
      l.turns.forEach(function (lines, t) {
        if (!lines || !lines.length) { return; }
        if (l.turns.length > 1) { whole.push(t === 0 ? "--- before the first input ---" : "--- input " + t + " ---"); }
        whole = whole.concat(lines);
      });
      pre.textContent = whole.join("\n");
    }
    return { pre: pre, byFrame: byFrame };
  });
  if (logs.length) {
    var logsEl = document.getElementById("logs");
    if (replay.logs_url) {
      var a = document.createElement("a");
      a.className = "logs-link";
      a.href = replay.logs_url;
      a.textContent = "the whole logs as text";
      logsEl.appendChild(a);
    }
    logsEl.hidden = false;
  }
  function showLogs(i) {
    logs.forEach(function (l) {
      if (l.byFrame) { l.pre.textContent = (l.byFrame[i] || []).join("\n"); }
    });
  }

  function show(i) {
    i = Math.max(0, Math.min(count - 1, i));
    frame = i;
    showLogs(i);
    var st = renderer.draw(i) || {};
    (st.scores || []).forEach(function (s, k) { if (values[k]) { values[k].textContent = fmt(s); } });
    noteEl.textContent = st.note || "";
    labelEl.textContent = "frame " + (i + 1) + " / " + count + (st.label ? " · " + st.label : "");
    slider.value = String(i);
    document.body.setAttribute("data-frame", String(i));
    var hash = "#frame=" + (i === count - 1 ? "last" : String(i));
    if (location.hash.indexOf("press=") < 0 && location.hash !== hash && history.replaceState) {
      history.replaceState(null, "", hash);
    }
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    playBtn.innerHTML = "&#x25B6;";
  }
  function play() {
    if (frame >= count - 1) { show(0); }
    stop();
    playBtn.innerHTML = "&#x275A;&#x275A;";
    var fps = Number(speed.value);
    var per = Math.max(1, Math.round(fps / 60));
    timer = setInterval(function () {
      if (frame >= count - 1) { stop(); return; }
      show(frame + per);
    }, 1000 / Math.min(fps, 60));
  }
  function toggle() { if (timer === null) { play(); } else { stop(); } }

  document.getElementById("first").onclick = function () { stop(); show(0); };
  document.getElementById("last").onclick = function () { stop(); show(count - 1); };
  document.getElementById("back").onclick = function () { stop(); show(frame - 1); };
  document.getElementById("fwd").onclick = function () { stop(); show(frame + 1); };
  playBtn.onclick = toggle;
  slider.oninput = function () { stop(); show(Number(slider.value)); };
  speed.onchange = function () { if (timer !== null) { play(); } };

  document.addEventListener("keydown", function (ev) {
    if (ev.target && ev.target.tagName === "SELECT") { return; }
    var big = Math.max(1, Math.round(count / 10));
    switch (ev.key) {
    case " ": case "Spacebar": toggle(); break;
    case "ArrowLeft": stop(); show(frame - (ev.shiftKey ? 10 : 1)); break;
    case "ArrowRight": stop(); show(frame + (ev.shiftKey ? 10 : 1)); break;
    case "Home": stop(); show(0); break;
    case "End": stop(); show(count - 1); break;
    case "PageUp": stop(); show(frame - big); break;
    case "PageDown": stop(); show(frame + big); break;
    default: return;
    }
    ev.preventDefault();
  });

  function fromHash() {
    var m = /frame=(last|\d+)/.exec(location.hash);
    if (!m) { return 0; }
    return m[1] === "last" ? count - 1 : Number(m[1]);
  }
  window.addEventListener("hashchange", function () { stop(); show(fromHash()); });

  show(fromHash());
  document.body.setAttribute("data-frames", String(count));
  var press = /press=([^&]*)/.exec(location.hash);
  if (press) {
    press[1].split(",").forEach(function (key) {
      document.dispatchEvent(new KeyboardEvent("keydown", { key: decodeURIComponent(key), bubbles: true }));
    });
    document.body.setAttribute("data-pressed", "1");
  }
  document.body.setAttribute("data-viewer-ready", "1");
}());
