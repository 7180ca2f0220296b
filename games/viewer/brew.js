// Witches' Brew renderer: both witches (inventory, spells, exhausted ones
// greyed), the tome with its tax, the orders with their urgency bonus, and
// the action each witch answered this round.
function gauntletRenderer(replay, stage) {
  "use strict";
  var tierColour = ["#3a8fe0", "#3fae49", "#e98b2a", "#e3c32b"];
  var witchColour = replay.setup.colours;
  function el(tag, cls, text) {
    var e = document.createElement(tag);
    if (cls) { e.className = cls; }
    if (text !== undefined) { e.textContent = text; }
    return e;
  }
  // ingredients draws a delta or an inventory as coloured counts.
  function ingredients(d, signed) {
    var span = el("span");
    for (var t = 0; t < 4; t++) {
      if (d[t] === 0 && signed) { continue; }
      var c = el("span", "ing", (signed && d[t] > 0 ? "+" : "") + d[t]);
      c.style.color = tierColour[t];
      c.style.fontWeight = "bold";
      c.style.marginRight = ".35em";
      span.appendChild(c);
    }
    return span;
  }
  function table(caption, head) {
    var t = el("table", "gv");
    t.appendChild(el("caption", "", caption));
    var tr = el("tr");
    head.forEach(function (h) { tr.appendChild(el("th", "", h)); });
    t.appendChild(tr);
    return t;
  }
  function row(t, cells, cls) {
    var tr = el("tr", cls || "");
    cells.forEach(function (c) {
      var td = el("td");
      if (c instanceof Node) { td.appendChild(c); } else { td.textContent = String(c); }
      tr.appendChild(td);
    });
    t.appendChild(tr);
    return tr;
  }
  function actionID(a) {
    var m = /^\s*(CAST|LEARN|BREW)\s+(\d+)/.exec(a || "");
    return m ? { verb: m[1], id: Number(m[2]) } : null;
  }
  return {
    draw: function (i) {
      var f = replay.frames[i];
      stage.innerHTML = "";
      var acts = f.acts || [null, null];
      [0, 1].forEach(function (p) {
        var w = f.p[p];
        var box = el("div", "witch");
        box.style.borderTop = "4px solid " + witchColour[p];
        box.style.padding = ".3em";
        var head = el("div");
        head.appendChild(el("b", "", replay.seats[p]));
        head.appendChild(document.createTextNode("  score " + f.s[p] + ", potions " + w.d + (w.a ? "" : " (out)")));
        box.appendChild(head);
        var inv = el("div");
        inv.appendChild(document.createTextNode("inventory "));
        inv.appendChild(ingredients(w.inv, false));
        box.appendChild(inv);
        box.appendChild(el("div", "", "action: " + (acts[p] === null || acts[p] === undefined ? (f.over ? "(game over)" : "—") : (acts[p] === "" ? "(no valid answer)" : acts[p]))));
        var act = actionID(acts[p]);
        var t = table("spells", ["id", "recipe", ""]);
        w.sp.forEach(function (s) {
          var hl = act && act.verb === "CAST" && act.id === s[0];
          row(t, [s[0], ingredients(s.slice(1, 5), true), s[5] ? "ready" : "exhausted"], (s[5] ? "" : "off") + (hl ? " hl" : ""));
        });
        box.appendChild(t);
        stage.appendChild(box);
      });
      var shared = el("div");
      var tome = table("tome", ["id", "spell", "tax"]);
      (f.tome || []).forEach(function (s) {
        var hl = acts.some(function (a) { var x = actionID(a); return x && x.verb === "LEARN" && x.id === s[0]; });
        row(tome, [s[0], ingredients(s.slice(1, 5), true), s[5]], hl ? "hl" : "");
      });
      shared.appendChild(tome);
      var orders = table("orders", ["id", "cost", "price", "bonus"]);
      (f.orders || []).forEach(function (o) {
        var hl = acts.some(function (a) { var x = actionID(a); return x && x.verb === "BREW" && x.id === o[0]; });
        row(orders, [o[0], ingredients(o.slice(1, 5).map(function (v) { return -v; }), true), o[5], o[6] ? "+" + o[6] : ""], hl ? "hl" : "");
      });
      shared.appendChild(orders);
      stage.appendChild(shared);
      return { label: f.over ? "end after round " + f.r : "round " + (f.r + 1), scores: f.s };
    }
  };
}
