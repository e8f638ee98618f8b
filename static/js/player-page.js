// The player's page keeps itself up to date: every `data-poll` seconds it asks the player's API what the table
// looks like (hands, their status and confirmations) and reloads when that changed, unless the player is in the
// middle of typing a dispute. No network: it says so and tries again on the next tick.
(function () {
  "use strict";
  var box = document.querySelector("[data-player-view]");
  if (!box) return;
  var url = box.getAttribute("data-player-view");
  var every = (parseInt(box.getAttribute("data-poll"), 10) || 15) * 1000;
  var seen = null;

  function signature(view) {
    return JSON.stringify([view.session, view.table, view.seat_wind, (view.hands || []).map(function (h) {
      return [h.number, h.version, h.status, h.confirmed_by];
    })]);
  }

  function busy() {
    var active = document.activeElement;
    if (active && active.tagName === "TEXTAREA" && active.value) return true;
    return Array.prototype.some.call(document.querySelectorAll("details[open] textarea"), function (t) {
      return t.value.trim() !== "";
    });
  }

  function note(text) {
    var p = document.getElementById("player-page-status");
    if (!p) {
      p = document.createElement("p");
      p.id = "player-page-status";
      p.className = "meta";
      p.setAttribute("role", "status");
      box.appendChild(p);
    }
    p.textContent = text;
  }

  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, cache: "no-store"}).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (view) {
      var now = signature(view);
      if (seen !== null && now !== seen && !busy()) {
        window.location.reload();
        return;
      }
      seen = now;
      note("");
    }).catch(function () {
      note("No connection to the server just now: this page will update when it is back.");
    });
  }

  poll();
  window.setInterval(poll, every);
})();
