// Hextris renderer: the hex board (odd rows shifted right), locked cells,
// the live unit with its pivot, lines cleared, the command text with the
// phrases of power marked and the current command outlined, move score and
// phrase points. Boards come from the frames' lock records; positions from
// the referee's replay of every command.
function gauntletRenderer(replay, stage) {
  "use strict";
  var S = replay.setup, F = replay.frames, W = S.Width, H = S.Height, n = replay.count;
  // Positions and text offsets per frame, decoded from the steps (see
  // hexFrames in the Go source).
  var PX = new Int32Array(n), PY = new Int32Array(n), PR = new Int32Array(n), AT = new Int32Array(n);
  (function () {
    var s = F.steps, k = 0, x = 0, y = 0, r = 0;
    for (var f = 0; f < n; f++) {
      if (s[k] === "(") {
        var e = s.indexOf(")", k);
        var v = s.slice(k + 1, e).split(",").map(Number);
        x = v[0]; y = v[1]; r = v[2];
        k = e + 1;
      } else {
        var c = s.charCodeAt(k) - 65;
        x += c % 3 - 1; y += Math.floor(c / 3) % 2; r += Math.floor(c / 6) - 1;
        k++;
      }
      PX[f] = x; PY[f] = y; PR[f] = r;
    }
    var at = -1, skips = F.at || [], si = 0;
    for (f = 0; f < n; f++) {
      if (si < skips.length && skips[si][0] === f) { at = skips[si][1]; si++; } else { at++; }
      AT[f] = at;
    }
  }());
  // Boards at every lock, in frame order.
  var lockAt = Object.keys(F.locks).map(Number).sort(function (a, b) { return a - b; });
  var boards = [], units = [], board = S.board.slice(), unit = S.unit;
  lockAt.forEach(function (fi) {
    var lk = F.locks[fi];
    Object.keys(lk.rows).forEach(function (y) { board[Number(y)] = lk.rows[y]; });
    boards.push(board.slice());
    units.push(lk.u);
  });
  function lastLock(i) {
    var lo = 0, hi = lockAt.length - 1, best = -1;
    while (lo <= hi) {
      var mid = (lo + hi) >> 1;
      if (lockAt[mid] <= i) { best = mid; lo = mid + 1; } else { hi = mid - 1; }
    }
    return best;
  }
  // cellsOf decodes a row of hex words (64 cells each, lowest cell in the
  // last hex digit) into 0/1 per cell.
  function cellsOf(row) {
    var out = new Uint8Array(W);
    row.split(" ").forEach(function (word, k) {
      for (var x = 0; x < 64 && k * 64 + x < W; x++) {
        var nib = word.length - 1 - (x >> 2);
        if (nib < 0) { break; }
        if ((parseInt(word[nib], 16) >> (x & 3)) & 1) { out[k * 64 + x] = 1; }
      }
    });
    return out;
  }
  var cw = Math.max(6, Math.min(30, Math.floor(1100 / (W + 0.5))));
  var ch = cw * 0.866;
  var canvas = document.createElement("canvas");
  canvas.width = Math.ceil((W + 0.5) * cw) + 4;
  canvas.height = Math.ceil(H * ch + cw * 0.3) + 4;
  var ctx = canvas.getContext("2d");
  var board0 = document.createElement("div");
  board0.appendChild(canvas);
  stage.appendChild(board0);
  var info = document.createElement("div");
  info.style.maxWidth = "100%";
  stage.appendChild(info);

  function hex(x, y, fill, stroke) {
    var cx = 2 + (x + (y & 1 ? 1 : 0.5)) * cw, cy = 2 + cw * 0.55 + y * ch, r = cw * 0.56;
    ctx.beginPath();
    for (var k = 0; k < 6; k++) {
      var a = Math.PI / 180 * (60 * k - 30);
      ctx.lineTo(cx + r * Math.cos(a), cy + r * Math.sin(a));
    }
    ctx.closePath();
    ctx.fillStyle = fill;
    ctx.fill();
    if (stroke) { ctx.strokeStyle = stroke; ctx.lineWidth = 1; ctx.stroke(); }
    return [cx, cy];
  }
  function escapeHTML(s) {
    return s.replace(/[&<>]/g, function (c) { return { "&": "&amp;", "<": "&lt;", ">": "&gt;" }[c]; });
  }
  // textWindow shows the text around offset at, phrases marked.
  function textWindow(at) {
    var from = Math.max(0, at - 240), to = Math.min(S.text.length, Math.max(at, 0) + 80);
    var mark = new Uint8Array(to - from);
    S.phrases.forEach(function (r) {
      for (var k = Math.max(r[0], from); k < Math.min(r[1], to); k++) { mark[k - from] = 1; }
    });
    var html = from > 0 ? "…" : "", open = false;
    for (var k = from; k < to; k++) {
      var m = mark[k - from] === 1;
      if (m !== open) { html += m ? '<span class="phrase">' : "</span>"; open = m; }
      var c = escapeHTML(S.text[k]);
      html += k === at ? '<span class="cursor">' + c + "</span>" : c;
    }
    if (open) { html += "</span>"; }
    return html + (to < S.text.length ? "…" : "");
  }

  return {
    draw: function (i) {
      var li = lastLock(i);
      var rows = li >= 0 ? boards[li] : S.board;
      var u = li >= 0 ? units[li] : S.unit;
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      for (var y = 0; y < H; y++) {
        var cells = cellsOf(rows[y]);
        for (var x = 0; x < W; x++) { hex(x, y, cells[x] ? "#555" : "#eef1f5", "#d5d9e0"); }
      }
      var px = PX[i], py = PY[i], rot = PR[i];
      if (u >= 0 && py >= 0) {
        var shape = S.shapes[u][rot * 2 + (py & 1)];
        shape.forEach(function (o) { hex(px + o[0], py + o[1], "#e8a33d", "#a0671a"); });
        var c = [2 + (px + (py & 1 ? 1 : 0.5)) * cw, 2 + cw * 0.55 + py * ch];
        ctx.fillStyle = "#222";
        ctx.beginPath();
        ctx.arc(c[0], c[1], Math.max(2, cw * 0.15), 0, 2 * Math.PI);
        ctx.fill();
      }
      var lk = li >= 0 ? F.locks[lockAt[li]] : null;
      var ms = lk ? lk.ms : 0, ps = lk ? lk.ps : 0;
      var last = i === replay.count - 1;
      var score = last ? replay.scores[0] : ms + ps;
      var at = AT[i];
      var lines = lk && lockAt[li] === i ? lk.lines + " line(s) cleared by this lock" : (lk ? "last lock cleared " + lk.lines + " line(s)" : "");
      info.innerHTML = "<table class='gv'><tr><th>move score</th><th>phrase points</th><th>units locked</th><th>unit</th><th>lines</th></tr>" +
        "<tr><td>" + (last ? S.final[1] : ms) + "</td><td>" + (last ? S.final[2] : ps) + "</td><td>" + (li + 1) + "</td><td>" + (u >= 0 ? u : "—") +
        "</td><td>" + lines + "</td></tr></table>" +
        "<div style='font-family:monospace;white-space:pre-wrap;word-break:break-all;max-width:70em'>" + textWindow(at) + "</div>";
      var note = "";
      if (last) {
        note = "end: " + S.end + (S.error ? ", error " + S.error + " at byte " + S.error_at + " (scores 0)" : "") +
          (S.forfeit ? ", forfeit: " + S.forfeit : "");
      }
      return { label: i === 0 ? "spawn" : "command " + i + " (offset " + at + ")", scores: [score], note: note };
    }
  };
}
