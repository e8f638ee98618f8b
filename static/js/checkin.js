// Check-in desk: filter the server-rendered list as the user types and mark players present
// without reloading. Without JavaScript the page still works: a GET search and plain form posts.
(function () {
  "use strict";
  var search = document.getElementById("desk-search");
  if (!search) return;
  var statusBox = document.getElementById("desk-status");
  var tokenMeta = document.querySelector('meta[name="csrf-token"]');
  var token = tokenMeta ? tokenMeta.content : "";
  var sections = Array.prototype.slice.call(document.querySelectorAll(".desk-section"));
  var rows = Array.prototype.slice.call(document.querySelectorAll(".desk-row"));
  var labels = { registered: "Registered", present: "Present", withdrawn: "Withdrawn", disqualified: "Disqualified" };
  var badgeClass = { registered: "badge-muted", present: "", withdrawn: "badge-warn", disqualified: "badge-danger" };

  // Same folding as the server (tournament/text.py): lower case, no accents, Ł as L.
  var NO_DECOMPOSITION = { "Ł": "L", "ł": "l", "Ø": "O", "ø": "o", "Đ": "D", "đ": "d", "ß": "ss",
                           "Æ": "AE", "æ": "ae", "Œ": "OE", "œ": "oe", "Þ": "Th", "þ": "th" };
  function fold(text) {
    return text.normalize("NFKD").replace(/[ŁłØøĐđßÆæŒœÞþ]/g, function (c) { return NO_DECOMPOSITION[c]; })
      .replace(/[\u0300-\u036f]/g, "").toLowerCase();
  }

  function say(message) {
    statusBox.textContent = message;
  }

  function visibleRows() {
    return rows.filter(function (row) { return !row.hidden; });
  }

  function filter() {
    var words = fold(search.value).trim().split(/\s+/).filter(Boolean);
    rows.forEach(function (row) {
      var haystack = row.dataset.search || "";
      row.hidden = !words.every(function (word) { return haystack.indexOf(word) !== -1; });
    });
    sections.forEach(function (section) {
      var shown = section.querySelectorAll(".desk-row:not([hidden])").length;
      var count = section.querySelector("[data-visible-count]");
      var empty = section.querySelector("[data-empty]");
      if (count) count.textContent = shown;
      if (empty) {
        empty.hidden = shown > 0;
        if (!shown) empty.textContent = words.length ? "No match." : "None registered.";
      }
    });
  }

  function updateCounts(counts) {
    Object.keys(counts).forEach(function (key) {
      document.querySelectorAll('[data-count="' + key + '"]').forEach(function (el) {
        el.textContent = counts[key];
      });
    });
    var hint = document.querySelector("[data-table-hint]");
    if (hint) {
      var full = Math.floor(counts.present / 4);
      var left = counts.present % 4;
      var text = full + " full table" + (full === 1 ? "" : "s");
      if (left) {
        text += "; " + left + " player" + (left === 1 ? "" : "s") + " left over: " + (4 - left) +
          " substitute" + (4 - left === 1 ? "" : "s") + " needed, " + counts.substitutes_present + " present";
      }
      hint.textContent = text + ".";
    }
  }

  function updateRow(row, player) {
    row.dataset.status = player.status;
    row.className = row.className.replace(/\bstatus-\w+/, "status-" + player.status);
    var badge = row.querySelector("[data-status].badge");
    if (badge) {
      badge.textContent = player.status_label || labels[player.status] || player.status;
      badge.dataset.status = player.status;
      badge.className = ("badge " + (badgeClass[player.status] || "")).trim();
    }
    var time = row.querySelector("[data-time]");
    if (time) time.textContent = player.status === "present" && player.checked_in_at ? player.checked_in_at : "";
    row.querySelector('[data-desk-action="present"]').hidden = player.status !== "registered";
    row.querySelector('[data-desk-action="undo"]').hidden = player.status !== "present";
  }

  function send(form) {
    var row = form.closest(".desk-row");
    var button = form.querySelector("button");
    if (button.disabled) return;
    button.disabled = true;
    fetch(form.action, {
      method: "POST",
      body: new FormData(form),
      credentials: "same-origin",
      headers: { "X-CSRFToken": token, "Accept": "application/json" },
    })
      .then(function (response) {
        var type = response.headers.get("Content-Type") || "";
        if (response.redirected || type.indexOf("application/json") === -1) {
          throw new Error("Your login may have expired. Reload the page and try again.");
        }
        return response.json().then(function (body) { return { ok: response.ok, body: body }; });
      })
      .then(function (result) {
        if (result.body.player) updateRow(row, result.body.player);
        if (result.body.counts) updateCounts(result.body.counts);
        say(result.ok ? result.body.message : result.body.error);
        search.focus();
        search.select();
      })
      .catch(function (error) {
        say(error.message || "The desk could not reach the server. Try again.");
      })
      .then(function () {
        button.disabled = false;
      });
  }

  document.querySelectorAll("form[data-desk-action]").forEach(function (form) {
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      send(form);
    });
  });

  search.addEventListener("input", function () {
    filter();
    say("");
  });

  search.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    var shown = visibleRows();
    if (shown.length === 1) {
      var row = shown[0];
      var name = row.querySelector(".desk-name").textContent;
      if (row.dataset.status === "registered") {
        send(row.querySelector('[data-desk-action="present"]'));
      } else {
        say(name + " is " + (labels[row.dataset.status] || row.dataset.status).toLowerCase() + ".");
      }
    } else if (shown.length === 0) {
      say("No player matches.");
    } else {
      say(shown.length + " players match: keep typing, or choose one with Tab and Enter.");
    }
  });

  search.addEventListener("keydown", function (event) {
    if (event.key === "Escape") {
      search.value = "";
      filter();
    }
  });

  filter();
})();
