// The replay: forward and back without reloading the page, and auto-play.
(function () {
  "use strict";
  var box = document.getElementById("replay");
  if (!box) { return; }
  var match = box.getAttribute("data-match");
  var step = parseInt(box.getAttribute("data-step"), 10);
  var total = parseInt(box.getAttribute("data-total"), 10);
  var caption = document.getElementById("caption");
  var button = document.getElementById("autoplay");
  var timer = null;
  var busy = false;

  function go(n, then) {
    n = Math.max(0, Math.min(total, n));
    if (busy) { return; }
    busy = true;
    fetch("/archive/" + match + "/frames/" + n, {headers: {"Accept": "application/json"}})
      .then(function (r) { if (!r.ok) { throw new Error(String(r.status)); } return r.json(); })
      .then(function (data) {
        step = data.n;
        document.getElementById("frame").innerHTML = data.html;
        caption.textContent = data.caption;
        document.getElementById("position").textContent =
          caption.getAttribute("data-position").replace("{n}", String(step)).replace("{total}", String(total));
        box.setAttribute("data-step", String(step));
        document.getElementById("back").href = "?step=" + Math.max(0, step - 1);
        document.getElementById("forward").href = "?step=" + Math.min(total, step + 1);
        history.replaceState(null, "", "?step=" + step);
        busy = false;
        if (then) { then(); }
      })
      .catch(function () { busy = false; stop(); });
  }

  function stop() {
    if (timer !== null) { clearInterval(timer); timer = null; }
    button.textContent = caption.getAttribute("data-play");
  }

  function link(id, delta, absolute) {
    document.getElementById(id).addEventListener("click", function (e) {
      e.preventDefault();
      stop();
      go(absolute !== undefined ? absolute : step + delta);
    });
  }
  link("back", -1);
  link("forward", 1);
  link("first", 0, 0);
  link("last", 0, total);
  button.hidden = false;
  button.addEventListener("click", function () {
    if (timer !== null) { stop(); return; }
    button.textContent = caption.getAttribute("data-pause");
    timer = setInterval(function () {
      if (step >= total) { stop(); return; }
      go(step + 1);
    }, parseInt(box.getAttribute("data-every-ms") || "1200", 10));
  });
  document.addEventListener("keydown", function (e) {
    if (e.key === "ArrowRight") { stop(); go(step + 1); }
    if (e.key === "ArrowLeft") { stop(); go(step - 1); }
  });
}());
