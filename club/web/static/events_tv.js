// The TV mode's standings slides: the running events' standings join the live tables' rotation
// (live.js rotates every .slot), fetched again every 30 s.
(function () {
  "use strict";
  var box = document.getElementById("tables");
  if (!box || !box.classList.contains("tv-tables")) { return; }

  function refresh() {
    fetch("/tv/standings", { credentials: "same-origin" }).then(function (r) { return r.json(); }).then(function (data) {
      var keep = {};
      data.slides.forEach(function (s) {
        keep[s.key] = true;
        var slot = box.querySelector('.slot[data-key="' + s.key + '"]');
        if (!slot) {
          slot = document.createElement("div");
          slot.className = "slot standings-slot";
          slot.setAttribute("data-key", s.key);
          slot.hidden = true;
          box.appendChild(slot);
        }
        slot.innerHTML = s.html;
      });
      box.querySelectorAll(".standings-slot").forEach(function (slot) {
        if (!keep[slot.getAttribute("data-key")]) { slot.remove(); }
      });
      var none = document.getElementById("no-tables");
      if (none && data.slides.length) { none.hidden = true; }
      if (!box.querySelector(".slot:not([hidden])")) {
        var first = box.querySelector(".slot");
        if (first) { first.hidden = false; }
      }
    }).catch(function () { /* the next refresh tries again */ });
  }

  refresh();
  setInterval(refresh, 30000);
}());
