// gauntlet serve: keeps a page's parts current. Every few seconds it asks
// the page's parts endpoint (body[data-poll]) for the parts' HTML, made
// and escaped by the server, and replaces a part only when its HTML
// changed; the page itself is never reloaded. No network beyond the
// dashboard's own address.
(function () {
  "use strict";
  var body = document.body;
  var url = body.getAttribute("data-poll");
  var every = parseInt(body.getAttribute("data-poll-ms"), 10) || 2000;
  var live = document.getElementById("live");
  var last = {};
  document.querySelectorAll("[data-part]").forEach(function (el) {
    last[el.getAttribute("data-part")] = el.innerHTML;
  });
  var polls = 0;
  function mark(ok, text) {
    if (!live) return;
    live.className = ok ? "live" : "live down";
    live.textContent = text;
  }
  function poll() {
    fetch(url, { cache: "no-store" })
      .then(function (r) {
        if (!r.ok) throw new Error("HTTP " + r.status);
        return r.json();
      })
      .then(function (data) {
        var changed = 0;
        Object.keys(data.parts || {}).forEach(function (name) {
          var html = data.parts[name];
          if (last[name] === html) return;
          var el = document.querySelector('[data-part="' + name + '"]');
          if (!el) return;
          el.innerHTML = html;
          last[name] = html;
          changed++;
        });
        polls++;
        body.setAttribute("data-polls", String(polls));
        mark(true, "live · " + new Date().toLocaleTimeString() + (changed ? " · " + changed + " updated" : ""));
      })
      .catch(function (e) {
        mark(false, "not updating (" + e.message + "), retrying");
      })
      .then(function () {
        setTimeout(poll, every);
      });
  }
  setTimeout(poll, every);
  document.addEventListener("click", function (ev) {
    var b = ev.target.closest("button[data-copy]");
    if (!b) return;
    var src = document.getElementById(b.getAttribute("data-copy"));
    if (!src || !navigator.clipboard) return;
    navigator.clipboard.writeText(src.textContent).then(function () {
      b.textContent = "copied";
      setTimeout(function () { b.textContent = "copy"; }, 1500);
    });
  });
})();
