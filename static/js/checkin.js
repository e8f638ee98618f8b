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
  // The words shown, in the page's language when it gives them (data-desk-texts); {num} and {name} are filled
  // in, a count's words come as [one, other].
  var TEXTS = {
    tables: ["{num} full table", "{num} full tables"], left_over: ["{num} player left over", "{num} players left over"],
    needed: ["{num} substitute needed", "{num} substitutes needed"], present: "{num} present",
    labels: { registered: "Registered", present: "Present", withdrawn: "Withdrawn", disqualified: "Disqualified" },
    is: "{name} is {status}.", no_match: "No match.", none_registered: "None registered.",
    no_player: "No player matches.", several: "{num} players match: keep typing, or choose one with Tab and Enter.",
    all_in: "{num} players match, all checked in already.",
    expired: "Your login may have expired. Reload the page and try again.",
    offline: "The desk could not reach the server. Try again."
  };
  TEXTS = pageWords.read(TEXTS, document.querySelector("[data-desk-texts]"), "data-desk-texts").texts;
  var labels = TEXTS.labels;
  var fill = pageWords.fill;

  function count(key, num) {
    return fill(TEXTS[key][num === 1 ? 0 : 1], { num: num });
  }
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
        if (!shown) empty.textContent = words.length ? TEXTS.no_match : TEXTS.none_registered;
      }
    });
  }

  function updateCounts(counts) {
    Object.keys(counts).forEach(function (key) {
      document.querySelectorAll('[data-count="' + key + '"]').forEach(function (el) {
        el.textContent = counts[key];
      });
    });
    // "Withdraw everyone not checked in (16)": its count and its question follow the desk; gone at none.
    var absent = document.querySelector(".desk-absent");
    if (absent && counts.registered !== undefined) {
      absent.hidden = counts.registered === 0;
      var shown = absent.querySelector("[data-absent-count]");
      if (shown) shown.textContent = counts.registered;
      if (TEXTS.withdraw_confirm) absent.dataset.confirm = count("withdraw_confirm", counts.registered);
    }
    var hint = document.querySelector("[data-table-hint]");
    if (hint) {
      var full = Math.floor(counts.present / 4);
      var left = counts.present % 4;
      var text = count("tables", full);
      if (left) {
        text += "; " + count("left_over", left) + ": " + count("needed", 4 - left) + ", " +
          fill(TEXTS.present, { num: counts.substitutes_present });
      }
      hint.textContent = text + ".";
    }
  }

  function updateRow(row, player) {
    row.dataset.status = player.status;
    row.className = row.className.replace(/\bstatus-\w+/, "status-" + player.status);
    var badge = row.querySelector("[data-status].badge");
    if (badge) {
      badge.textContent = labels[player.status] || player.status_label || player.status;
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
          throw new Error(TEXTS.expired);
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
        say(error instanceof TypeError || !error.message ? TEXTS.offline : error.message);
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

  // A name typed whole wins over the names it is part of: "Laine" is Tiina Laine, not Pekka Hämäläinen; "Niemi"
  // is not Nieminen. Every word typed must be a whole word of the name (a double name's parts count alone).
  function nameWords(row) {
    return fold(row.dataset.name || "").split(/[\s\-\u2010]+/).filter(Boolean);
  }
  function exactly(row, words) {
    var own = nameWords(row);
    return words.length > 0 && words.every(function (word) { return own.indexOf(word) !== -1; });
  }

  function tell(row) {
    var name = row.querySelector(".desk-name").textContent;
    say(fill(TEXTS.is, { name: name, status: (labels[row.dataset.status] || row.dataset.status).toLowerCase() }));
  }

  // Enter: the one player the desk means. A whole name typed decides (checked in, or told they already are);
  // otherwise only those still to check in count: players already present are not offered again.
  search.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    event.preventDefault();
    var words = fold(search.value).split(/[\s,]+/).filter(Boolean);
    var shown = visibleRows();
    var exact = shown.filter(function (row) { return exactly(row, words); });
    var pool = exact.length ? exact : shown;
    var open = pool.filter(function (row) { return row.dataset.status === "registered"; });
    if (exact.length === 1 && !open.length) {
      tell(exact[0]);
    } else if (open.length === 1) {
      send(open[0].querySelector('[data-desk-action="present"]'));
    } else if (!shown.length) {
      say(TEXTS.no_player);
    } else if (!open.length) {
      if (pool.length === 1) tell(pool[0]);
      else say(fill(TEXTS.all_in, { num: pool.length }));
    } else {
      say(fill(TEXTS.several, { num: open.length }));
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
