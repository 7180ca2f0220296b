// Paper.io renderer: territories, trails, heads with their direction, the
// bonuses on the map and held, scores and deaths with their reason. Frames
// carry only what changed; the state of every frame is built once at load
// by carrying the rest forward.
function gauntletRenderer(replay, stage) {
  "use strict";
  var S = replay.setup, n = S.players, cols = S.cols, W = S.width, size = cols * W;
  var pc = S.playerColours;
  // seatOf[player index] = seat, for the labels.
  var seatOf = [];
  S.ids.forEach(function (id, seat) { seatOf[id - 1] = seat; });
  var states = [];
  var cur = { terr: [], trail: [], held: [], bonus: [], scores: [], deaths: [] };
  replay.frames.forEach(function (f) {
    var st = { tick: f.t, heads: f.h, cmds: f.c, terr: cur.terr.slice(), trail: cur.trail.slice(), held: cur.held.slice(),
      bonus: cur.bonus, scores: cur.scores, deaths: cur.deaths };
    Object.keys(f.terr || {}).forEach(function (k) { st.terr[k] = f.terr[k]; });
    Object.keys(f.trail || {}).forEach(function (k) { st.trail[k] = f.trail[k]; });
    Object.keys(f.held || {}).forEach(function (k) { st.held[k] = f.held[k] || []; });
    if (f.b || f.nb) { st.bonus = f.b || []; }
    if (f.s) { st.scores = f.s; }
    if (f.dead) { st.deaths = f.dead; }
    cur = st;
    states.push(st);
  });

  var canvas = document.createElement("canvas");
  var scale = 2 / 3;
  canvas.width = size * scale;
  canvas.height = size * scale;
  stage.appendChild(canvas);
  var side = document.createElement("div");
  stage.appendChild(side);
  var ctx = canvas.getContext("2d");

  function rgba(hex, a) {
    var v = parseInt(hex.slice(1), 16);
    return "rgba(" + (v >> 16) + "," + ((v >> 8) & 255) + "," + (v & 255) + "," + a + ")";
  }
  // cell draws cell c (index j*cols+i; y grows upwards).
  function cell(c, fill) {
    var i = c % cols, j = Math.floor(c / cols);
    ctx.fillStyle = fill;
    ctx.fillRect(i * W * scale, (size - (j + 1) * W) * scale, W * scale, W * scale);
  }
  function drawHead(k, h) {
    var x = h[0] * scale, y = (size - h[1]) * scale, r = W * scale / 2;
    ctx.fillStyle = h[4] ? pc[k] : rgba(pc[k], 0.35);
    ctx.fillRect(x - r, y - r, 2 * r, 2 * r);
    ctx.strokeStyle = "#222";
    ctx.lineWidth = 1;
    ctx.strokeRect(x - r, y - r, 2 * r, 2 * r);
    var d = [null, [0, -1], [0, 1], [-1, 0], [1, 0]][h[2]];
    if (d) {
      ctx.fillStyle = "#fff";
      ctx.beginPath();
      ctx.moveTo(x + d[0] * r * 0.8, y + d[1] * r * 0.8);
      ctx.lineTo(x - d[1] * r * 0.5 - d[0] * r * 0.2, y + d[0] * r * 0.5 - d[1] * r * 0.2);
      ctx.lineTo(x + d[1] * r * 0.5 - d[0] * r * 0.2, y - d[0] * r * 0.5 - d[1] * r * 0.2);
      ctx.fill();
    }
  }
  var bonusLetter = ["N", "S", "saw"], bonusColour = ["#1c9c3c", "#c0392b", "#555"];

  return {
    draw: function (i) {
      var st = states[i];
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      ctx.strokeStyle = "#eee";
      ctx.lineWidth = 1;
      for (var g = 0; g <= cols; g++) {
        ctx.beginPath(); ctx.moveTo(g * W * scale, 0); ctx.lineTo(g * W * scale, size * scale); ctx.stroke();
        ctx.beginPath(); ctx.moveTo(0, g * W * scale); ctx.lineTo(size * scale, g * W * scale); ctx.stroke();
      }
      // A player out of the game leaves the map, as in the runner's window.
      for (var k = 0; k < n; k++) {
        if (!st.heads[k][4]) { continue; }
        var rows = st.terr[k] || [];
        for (var j = 0; j < rows.length; j++) {
          for (var x = 0; x < cols; x++) {
            if ((rows[j] >>> x) & 1) { cell(j * cols + x, rgba(pc[k], 0.45)); }
          }
        }
      }
      for (k = 0; k < n; k++) {
        if (st.heads[k][4]) { (st.trail[k] || []).forEach(function (c) { cell(c, rgba(pc[k], 0.8)); }); }
      }
      st.bonus.forEach(function (b) {
        var x = b[1] * scale, y = (size - b[2]) * scale;
        ctx.fillStyle = bonusColour[b[0]];
        ctx.font = "bold " + Math.round(W * scale * 0.6) + "px sans-serif";
        ctx.textAlign = "center";
        ctx.textBaseline = "middle";
        ctx.fillText(bonusLetter[b[0]], x, y);
      });
      for (k = 0; k < n; k++) { if (st.heads[k][4]) { drawHead(k, st.heads[k]); } }
      // The players' panel.
      side.innerHTML = "";
      var t = document.createElement("table");
      t.className = "gv";
      t.innerHTML = "<caption>players</caption><tr><th></th><th>player</th><th>score</th><th>speed</th><th>bonuses held</th><th>command</th><th>state</th></tr>";
      for (k = 0; k < n; k++) {
        var tr = document.createElement("tr");
        var held = (st.held[k] || []).map(function (h) { return S.bonusNames[h[0]] + (h[0] === 2 ? "" : " " + h[1]); }).join(", ");
        var cmd = st.cmds ? st.cmds[k] : "";
        var cells = ["", replay.seats[seatOf[k]] + " (id " + (k + 1) + ")", st.scores[k], st.heads[k][3], held,
          { u: "up", d: "down", l: "left", r: "right", "-": "" }[cmd] || "", st.deaths[k] || (st.heads[k][4] ? "alive" : "")];
        cells.forEach(function (c, ci) {
          var td = document.createElement("td");
          if (ci === 0) { td.style.background = pc[k]; td.style.width = "1em"; } else { td.textContent = String(c); }
          tr.appendChild(td);
        });
        t.appendChild(tr);
      }
      side.appendChild(t);
      var scores = S.ids.map(function (id) { return st.scores[id - 1]; });
      return { label: i === 0 ? "start" : "tick " + st.tick, scores: scores };
    }
  };
}
