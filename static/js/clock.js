// The session clock on the projector, the staff's clock page and the referee board.
// It counts locally between updates and re-syncs from the server's JSON every few seconds (and as soon as
// the network returns). Each sync measures how far this device's clock is from the server's, half the round
// trip assumed each way, so a laptop with a wrong clock still shows the right time.
(function () {
  "use strict";
  var root = document.querySelector("[data-clock]");
  if (!root) return;
  var kind = root.dataset.clock; // "projector" | "staff" | "board" | "table" (a table's own time)
  var url = root.dataset.clockUrl;
  var pollMs = Math.min(60, Math.max(1, parseInt(root.dataset.poll, 10) || 5)) * 1000;
  var warningSeconds = parseInt(root.dataset.warningSeconds, 10) || 0;
  var digits = root.querySelector("[data-clock-digits]");
  var stateBox = root.querySelector("[data-clock-state]");
  var face = kind === "projector" ? document.body : root.querySelector(".clock-panel") || root;
  var offset = 0; // the server's clock minus this device's, in milliseconds
  var clock = null; // the clock as last received
  var timer = null;

  // The words shown, in the page's language when it gives them (data-clock-texts); {num} is filled in.
  var TEXTS = {
    time: "Time", not_started: "Not started", paused: "Paused", running: "Running", warning: "",
    table: "Table {num}", called_during: "Time called during hand {num}", called_between: "Time called between hands"
  };
  var word = pageWords.read(TEXTS, root, "data-clock-texts");
  TEXTS = word.texts;

  function say(key, num) {
    return word(key, { num: num });
  }

  function serverNow() {
    return Date.now() + offset;
  }

  function two(n) {
    return (n < 10 ? "0" : "") + n;
  }

  function format(seconds) {
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var s = seconds % 60;
    return h ? h + ":" + two(m) + ":" + two(s) : two(m) + ":" + two(s);
  }

  // Whole seconds left for a table with `extra` seconds; the server's figure while the clock stands still.
  function left(extra, standing) {
    if (clock.state !== "running" || !clock.ends_at) return standing;
    var end = Date.parse(clock.ends_at) + extra * 1000;
    return Math.max(0, Math.ceil((end - serverNow()) / 1000 - 1e-6));
  }

  function tableLeft(table) {
    return left(table.extra_seconds, table.remaining_seconds);
  }

  function shown(seconds) {
    return clock.state !== "not_started" && seconds === 0 ? TEXTS.time : format(seconds);
  }

  function label(seconds, warning) {
    if (clock.state === "not_started") return TEXTS.not_started;
    if (seconds === 0) return TEXTS.time;
    if (clock.state === "paused") return TEXTS.paused;
    if (warning) return TEXTS.warning || "Last " + Math.round(warningSeconds / 60) + " minutes";
    return TEXTS.running;
  }

  // The projector shows the time every table has; tables with more extra time are listed with their own end.
  function renderExtra(tables, common) {
    var list = root.querySelector("[data-clock-extra]");
    if (!list) return;
    list.textContent = "";
    tables.forEach(function (table) {
      if (table.extra_seconds <= common) return;
      var seconds = tableLeft(table);
      var item = document.createElement("li");
      item.dataset.table = table.table;
      item.className = clock.state !== "not_started" && seconds === 0 ? "table-time-up" : "";
      item.appendChild(document.createTextNode(say("table", table.table) + " "));
      var extra = document.createElement("span");
      extra.className = "extra";
      extra.textContent = "+" + format(table.extra_seconds - common);
      item.appendChild(extra);
      item.appendChild(document.createTextNode(" "));
      var remaining = document.createElement("strong");
      remaining.className = "remaining";
      remaining.textContent = shown(seconds);
      item.appendChild(remaining);
      list.appendChild(item);
    });
  }

  function render() {
    if (!clock) return;
    var tables = clock.tables || [];
    var started = clock.state !== "not_started";
    var common = 0;
    var main = left(0, clock.remaining_seconds);
    var called = null; // the table page's own time call: its time is over whatever the clock still counts
    // The hall's time (extra time given to every table included) on the projector, the staff page and the
    // board alike: the server's hall_clock computes the same for the page as first drawn.
    if (kind !== "table" && tables.length) {
      common = Math.min.apply(null, tables.map(function (t) { return t.extra_seconds; }));
      main = Math.min.apply(null, tables.map(tableLeft));
    } else if (kind === "table") {
      var own = tables.filter(function (t) { return String(t.table) === root.dataset.table; })[0];
      if (!own) return;
      main = tableLeft(own);
      if (own.time_called) called = own;
    }
    var warning = !called && started && clock.state !== "ended" && main > 0 && main <= warningSeconds;
    digits.textContent = called ? TEXTS.time : shown(main);
    digits.classList.toggle("clock-hours", !called && main >= 3600);
    if (stateBox) {
      stateBox.textContent = called ? (called.hand_in_progress ? say("called_during", called.hand_in_progress) :
        TEXTS.called_between) : label(main, warning);
    }
    face.classList.toggle("clock-warning", warning);
    face.classList.toggle("clock-time", !!called || (started && main === 0));
    face.classList.toggle("clock-paused", clock.state === "paused");
    tables.forEach(function (table) {
      // The staff page's table rows are outside the clock's panel: look in the whole page.
      var cell = document.querySelector('[data-table-remaining="' + table.table + '"]');
      if (cell) cell.textContent = shown(tableLeft(table));
    });
    if (kind === "projector") renderExtra(tables, common);
    if (kind !== "table") renderEnds(common);
  }

  // When the hall's time runs out, in the tournament's zone (data-time-zone: the page names it); shown while
  // the clock runs, moved by a pause or extra time for everyone.
  var ends = document.querySelector("[data-clock-ends]");
  var endsTime = ends && ends.querySelector("[data-clock-ends-time]");
  var endsFormat = null;
  // The page's language writes the time as the server did (10.00 in Finnish); the pages' English is British.
  var language = document.documentElement.lang;
  try {
    endsFormat = ends && new Intl.DateTimeFormat(!language || language === "en" ? "en-GB" : language, { timeZone: ends.dataset.timeZone, hour: "2-digit",
                                                            minute: "2-digit", hourCycle: "h23" });
  } catch (e) { endsFormat = null; } // a zone this browser does not know: the server's text stays

  function renderEnds(common) {
    if (!endsTime || !endsFormat) return;
    var running = clock.state === "running" && !!clock.ends_at;
    ends.hidden = !running;
    if (!running) return;
    var at = new Date(Date.parse(clock.ends_at) + common * 1000);
    endsTime.textContent = endsFormat.format(at);
    endsTime.setAttribute("datetime", at.toISOString());
  }

  // The referee board is drawn by the server (one card per table, a dispute settled on its card): when what it
  // shows changes (board.json's key), it is drawn again, unless someone is in the middle of using it.
  function boardChanged(key) {
    if (kind !== "board" || !key || key === root.dataset.boardKey) return false;
    var active = document.activeElement;
    if (active && active !== document.body && active.closest("form")) return false;
    window.location.reload();
    return true;
  }

  function sync() {
    clearTimeout(timer);
    var sent = Date.now();
    fetch(url, { cache: "no-store", credentials: "same-origin", headers: { Accept: "application/json" } })
      .then(function (response) {
        if (!response.ok) throw new Error("HTTP " + response.status);
        return response.json();
      })
      .then(function (body) {
        var back = Date.now();
        // The hall's one address (/t/<id>/clock): drawn for one session, or for the wait before the next; when
        // the hall moves on (a session starts or finishes, a start is re-planned) the page draws itself again.
        if (root.dataset.hallKey !== undefined) {
          if (body.key !== root.dataset.hallKey) {
            window.location.reload();
            return;
          }
          if (!body.clock) return;  // between sessions: nothing counts
        }
        var received = body.clock || body;
        offset = Date.parse(received.server_time) - (sent + back) / 2;
        // The staff page's buttons belong to the state it was drawn in: redraw it when another screen
        // changed the state, unless someone is typing or choosing in one of its forms.
        if (kind === "staff" && root.dataset.state && received.state !== root.dataset.state &&
            (!document.activeElement || document.activeElement === document.body)) {
          window.location.reload();
          return;
        }
        if (boardChanged(body.key)) return;
        clock = received;
        root.classList.remove("clock-offline");
        render();
      })
      .catch(function () {
        root.classList.add("clock-offline"); // keep counting from the last sync
      })
      .then(function () {
        timer = setTimeout(sync, pollMs);
      });
  }

  // The projector's dark theme: ?theme=dark (or light) sets it, this screen remembers it, the button toggles it.
  if (kind === "projector") {
    var KEY = "mcr-projector-theme";
    var asked = new URLSearchParams(window.location.search).get("theme");
    var remembered = null;
    try {
      if (asked === "dark" || asked === "light") window.localStorage.setItem(KEY, asked);
      remembered = window.localStorage.getItem(KEY);
    } catch (e) { remembered = asked; } // storage refused (private mode): this visit only
    var themeButton = root.querySelector("[data-theme-toggle]");
    var applyTheme = function (dark) {
      document.body.classList.toggle("theme-dark", dark);
      if (themeButton) themeButton.setAttribute("aria-pressed", dark ? "true" : "false");
    };
    applyTheme((remembered || asked) === "dark");
    if (themeButton) {
      themeButton.hidden = false;
      themeButton.addEventListener("click", function () {
        var dark = !document.body.classList.contains("theme-dark");
        applyTheme(dark);
        try { window.localStorage.setItem(KEY, dark ? "dark" : "light"); } catch (e) { /* this visit only */ }
      });
    }
  }

  window.addEventListener("online", sync);
  document.addEventListener("visibilitychange", function () {
    if (!document.hidden) sync();
  });
  setInterval(render, 250);
  sync();
})();
