// Live tables: Server-Sent Events replace a table's HTML (and take away a table whose match was left); clocks count down between updates; the TV rotates.
(function () {
  "use strict";
  var box = document.getElementById("tables");
  if (!box) { return; }
  var only = box.getAttribute("data-live");
  var lastId = null;
  var source = null;

  function stamp(slot) {
    var age = parseInt(slot.getAttribute("data-age-ms") || "0", 10);
    slot.setAttribute("data-t0", String(performance.now() - age));
  }

  function slotFor(key) {
    var slots = box.querySelectorAll(".slot");
    for (var i = 0; i < slots.length; i++) {
      if (slots[i].getAttribute("data-key") === key) { return slots[i]; }
    }
    return null;
  }

  function onTable(event) {
    lastId = event.lastEventId || lastId;
    var data = JSON.parse(event.data);
    if (only !== "all" && data.key !== only) { return; }
    var slot = slotFor(data.key);
    if (!slot) {
      slot = document.createElement("div");
      slot.className = "slot";
      slot.setAttribute("data-key", data.key);
      if (box.classList.contains("tv-tables") && box.querySelector(".slot")) { slot.hidden = true; }
      box.appendChild(slot);
    }
    slot.setAttribute("data-age-ms", "0");
    slot.setAttribute("data-event", String(data.event));
    slot.setAttribute("data-match", String(data.match));
    slot.setAttribute("data-seq", String(data.seq));
    slot.innerHTML = data.html;
    if (box.hasAttribute("data-watch")) {
      var a = document.createElement("a");
      a.className = "open";
      a.href = "/tables/" + data.key;
      a.textContent = box.getAttribute("data-watch") || "";
      slot.insertBefore(a, slot.firstChild);
    }
    stamp(slot);
    var none = document.getElementById("no-tables");
    if (none) { none.hidden = true; }
    tick();
  }

  function onGone(event) {
    lastId = event.lastEventId || lastId;
    var data = JSON.parse(event.data);
    var slot = slotFor(data.key);
    if (slot) { slot.parentNode.removeChild(slot); }
    var none = document.getElementById("no-tables");
    if (none && !box.querySelector(".slot")) { none.hidden = false; }
    var left = box.querySelectorAll(".slot");
    if (left.length && !box.querySelector(".slot:not([hidden])")) { left[0].hidden = false; }
  }

  function connect() {
    var url = "/live/events" + (only !== "all" ? "?table=" + encodeURIComponent(only) : "");
    if (lastId !== null) { url += (url.indexOf("?") < 0 ? "?" : "&") + "since=" + encodeURIComponent(lastId); }
    source = new EventSource(url);
    source.addEventListener("table", onTable);
    source.addEventListener("gone", onGone);
    source.onopen = function () { document.body.classList.remove("offline"); };
    source.onerror = function () {
      document.body.classList.add("offline");
      if (source.readyState === EventSource.CLOSED) { setTimeout(connect, 2000); }
    };
  }

  function show(ms) {
    var s = Math.max(0, Math.ceil(ms / 1000));
    var m = Math.floor(s / 60);
    var r = s % 60;
    return m + ":" + (r < 10 ? "0" : "") + r;
  }

  function tick() {
    var now = performance.now();
    var clocks = box.querySelectorAll('.clock[data-running="1"]');
    for (var i = 0; i < clocks.length; i++) {
      var c = clocks[i];
      var slot = c.closest(".slot");
      var t0 = parseFloat(slot.getAttribute("data-t0") || String(now));
      var elapsed = now - t0;
      var delay = parseInt(c.getAttribute("data-delay-ms"), 10) - elapsed;
      var bank = parseInt(c.getAttribute("data-bank-ms"), 10) + Math.min(0, delay);
      c.querySelector(".bank").textContent = show(bank);
      var d = c.querySelector(".delay");
      if (d) { d.textContent = "+" + Math.max(0, Math.ceil(delay / 1000)); }
    }
  }

  function rotate() {
    var slots = box.querySelectorAll(".slot");
    if (slots.length < 2) { if (slots.length === 1) { slots[0].hidden = false; } return; }
    var shown = 0;
    for (var i = 0; i < slots.length; i++) { if (!slots[i].hidden) { shown = i; } }
    for (var j = 0; j < slots.length; j++) { slots[j].hidden = j !== (shown + 1) % slots.length; }
  }

  var slots = box.querySelectorAll(".slot");
  for (var i = 0; i < slots.length; i++) { stamp(slots[i]); }
  setInterval(tick, 250);
  var every = parseInt(box.getAttribute("data-rotate-ms") || "0", 10);
  if (every > 0) { setInterval(rotate, every); }
  connect();
}());
