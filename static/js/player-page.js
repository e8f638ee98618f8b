// The player's page keeps itself up to date: every `data-poll` seconds (and as the network returns) it asks the
// player's API what the table looks like (hands, their status and confirmations) and reloads when that changed,
// unless the player is in the middle of typing a dispute. One state on the page (issue 32):
//   - a kept copy (the service worker's, [data-offline-copy]) takes the server's state once the server answers;
//   - not while the offline queue still has hands to send (<html data-offline-waiting>): it reloads the page itself
//     once they are sent (static/js/offline-queue.js);
//   - one status line at a time: no line of its own while the copy's note or the queue's banner says it.
(function () {
  "use strict";
  var box = document.querySelector("[data-player-view]");
  if (!box) return;
  var url = box.getAttribute("data-player-view");
  var every = (parseInt(box.getAttribute("data-poll"), 10) || 15) * 1000;
  var say = pageWords.read({
    offline: "No connection to the server just now: this page will update when it is back."
  }, box, "data-player-page-texts");
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

  function waiting() {
    return parseInt(document.documentElement.getAttribute("data-offline-waiting"), 10) > 0;
  }

  function note(text) {
    var p = document.getElementById("player-page-status");
    // The kept copy's note already says the server does not answer.
    if (text && document.querySelector("[data-offline-copy]")) text = "";
    if (!p && !text) return;
    if (!p) {
      p = document.createElement("p");
      p.id = "player-page-status";
      p.className = "meta";
      p.setAttribute("role", "status");
      box.appendChild(p);
    }
    p.textContent = text;
    p.hidden = !text;
  }

  function poll() {
    fetch(url, {headers: {"Accept": "application/json"}, cache: "no-store"}).then(function (response) {
      if (!response.ok) throw new Error(String(response.status));
      return response.json();
    }).then(function (view) {
      note("");
      if (waiting()) return;  // the queue sends first, then reloads the page
      var now = signature(view);
      var copy = document.querySelector("[data-offline-copy]");
      if ((copy || (seen !== null && now !== seen)) && !busy()) {
        window.location.reload();
        return;
      }
      seen = now;
    }).catch(function () {
      note(say("offline"));
    });
  }

  poll();
  window.setInterval(poll, every);
  window.addEventListener("online", poll);
  window.addEventListener("offline", function () { note(say("offline")); });
})();
