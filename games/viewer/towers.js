// Sarov towers renderer: the columns of coloured blocks (width by size,
// the size written on each), the run moved by the last move outlined with
// an arrow from its column, the moves so far and the blocks still off
// their final support. Positions come from the referee's replay of the
// moves; the page applies no rule.
function gauntletRenderer(replay, stage) {
  "use strict";
  var S = replay.setup, F = replay.frames;
  var palette = ["#d63a3a", "#2f7fd6", "#3fae49", "#e3b92b", "#8e4fc9", "#e9822a", "#2bb3b3", "#c94f94"];
  var letters = "abcdefgh";
  var ncol = F[0].c.length;
  var high = 0;
  F.forEach(function (f) { f.c.forEach(function (col) { high = Math.max(high, col.length); }); });
  high = Math.max(high, 8);
  var bw = 11, bh = 20, gap = 14, colW = 20 + 6 * bw + 10;
  var canvas = document.createElement("canvas");
  canvas.width = ncol * (colW + gap) + gap;
  canvas.height = (high + 1) * bh + 40;
  stage.appendChild(canvas);
  var info = document.createElement("div");
  stage.appendChild(info);
  var ctx = canvas.getContext("2d");
  var floorY = canvas.height - 22;

  function colX(i) { return gap + i * (colW + gap); }
  function block(i, k, b, outline) {
    var size = b % 7, w = 20 + size * bw, x = colX(i) + (colW - w) / 2, y = floorY - (k + 1) * bh;
    ctx.fillStyle = palette[Math.floor(b / 7) % palette.length];
    ctx.fillRect(x, y + 1, w, bh - 2);
    ctx.strokeStyle = outline ? "#111" : "rgba(0,0,0,.35)";
    ctx.lineWidth = outline ? 2.5 : 1;
    ctx.strokeRect(x, y + 1, w, bh - 2);
    ctx.fillStyle = "#fff";
    ctx.font = "bold 12px sans-serif";
    ctx.textAlign = "center";
    ctx.textBaseline = "middle";
    ctx.fillText(letters[Math.floor(b / 7)] + size, x + w / 2, y + bh / 2 + 1);
    return [x + w / 2, y];
  }
  function arrow(x0, y0, x1, y1) {
    ctx.strokeStyle = "#555";
    ctx.lineWidth = 1.5;
    ctx.setLineDash([4, 3]);
    ctx.beginPath();
    ctx.moveTo(x0, y0);
    ctx.quadraticCurveTo((x0 + x1) / 2, Math.min(y0, y1) - 30, x1, y1);
    ctx.stroke();
    ctx.setLineDash([]);
    ctx.beginPath();
    ctx.arc(x1, y1, 3, 0, 2 * Math.PI);
    ctx.fillStyle = "#555";
    ctx.fill();
  }

  return {
    draw: function (i) {
      var f = F[i], last = i === replay.count - 1;
      ctx.fillStyle = "#fff";
      ctx.fillRect(0, 0, canvas.width, canvas.height);
      var runTop = null;
      f.c.forEach(function (col, ci) {
        ctx.fillStyle = "#ccc";
        ctx.fillRect(colX(ci), floorY, colW, 3);
        ctx.fillStyle = "#666";
        ctx.font = "11px sans-serif";
        ctx.textAlign = "center";
        ctx.textBaseline = "top";
        ctx.fillText(String(ci), colX(ci) + colW / 2, floorY + 6);
        col.forEach(function (b, k) {
          var moved = f.m && ci === f.m[1] && k >= col.length - f.r;
          var p = block(ci, k, b, moved);
          if (moved && k === col.length - f.r) { runTop = p; }
        });
      });
      if (f.m && runTop) {
        arrow(colX(f.m[0]) + colW / 2, floorY - f.c[f.m[0]].length * bh - 4, runTop[0], floorY - f.c[f.m[1]].length * bh - 4);
      }
      var rows = "<tr><th>moves</th><th>off final support</th><th>optimum</th><th>last move</th></tr>" +
        "<tr><td>" + i + "</td><td>" + f.left + "</td><td>" + (S.optimum >= 0 ? S.optimum : "unknown") + " (" + S.level + ")</td><td>" +
        (f.m ? f.m[0] + " → " + f.m[1] + " (" + f.r + " block" + (f.r > 1 ? "s" : "") + ")" : "—") + "</td></tr>";
      info.innerHTML = "<table class='gv'>" + rows + "</table>";
      var note = "";
      if (last) {
        note = !S.solved ? "not solved" : "solved in " + i + " moves" + (S.optimum >= 0 ? " (optimum " + S.optimum + ", gap " + (i - S.optimum) + ")" : "");
        if (S.forfeit) { note += "; forfeit: " + S.forfeit; }
      }
      return { label: i === 0 ? "deal" : "move " + i, scores: [last ? replay.scores[0] : i], note: note };
    }
  };
}
