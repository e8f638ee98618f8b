// Live public pages: every ~10 s, ask the server whether the page changed (If-None-Match: a 304 costs
// the server one small query); when it did, swap in the new content of each [data-live-region] and mark
// what changed: rows that moved up or down, new scores. No full reload: scroll, focus and what is typed
// in a filter box stay as they were.
(function () {
  "use strict";
  var regions = Array.prototype.slice.call(document.querySelectorAll("[data-live-region][id]"));
  if (!regions.length || !window.fetch || !window.DOMParser) { return; }

  var first = regions[0];
  var etag = first.getAttribute("data-live-etag") ? '"' + first.getAttribute("data-live-etag") + '"' : "";
  var seconds = parseInt(first.getAttribute("data-live-seconds"), 10) || 10;
  var MARK_MS = 6000;
  var timer = null;
  var failures = 0;
  var stopped = false;
  // Its words in the page's language (<html data-script-texts>, templates/_script_texts.html), else English
  // (static/js/words.js reads them).
  var word = pageWords.read({
    live: "Live: updates by itself", updated: "Updated at {time}",
    updated_one: "Updated at {time}: {num} change marked", updated_other: "Updated at {time}: {num} changes marked",
    gone: "This is not shown any more. Reload the page later.", stopped: "Stopped: this page is no longer public.",
    offline: "Offline: retrying…", again: "Live again at {time}"
  }, document.documentElement, "data-script-texts", "live");

  // A quiet status line: screen readers hear what changed, sighted people see that the page is live.
  var status = document.createElement("p");
  status.className = "live-status";
  status.setAttribute("role", "status");
  status.innerHTML = '<span class="live-dot" aria-hidden="true"></span> <span class="live-text"></span>';
  first.parentNode.insertBefore(status, first);
  var statusText = status.querySelector(".live-text");
  statusText.textContent = word("live");

  function say(text, state) {
    statusText.textContent = text;
    status.setAttribute("data-state", state || "ok");
  }

  function clock() {
    var now = new Date();
    return [now.getHours(), now.getMinutes(), now.getSeconds()].map(function (n) {
      return (n < 10 ? "0" : "") + n;
    }).join(":");
  }

  // What each keyed row or card looked like, to compare after the swap.
  function snapshot(region) {
    var out = {};
    region.querySelectorAll("tr[id], li[id]").forEach(function (el, index) {
      out[el.id] = { index: index, text: el.textContent.replace(/\s+/g, " ").trim(), rank: rankOf(el) };
    });
    return out;
  }

  function rankOf(el) {
    var cell = el.querySelector(".rank");
    var value = cell ? parseInt(cell.textContent, 10) : NaN;
    return isNaN(value) ? null : value;
  }

  function mark(region, before) {
    var changed = 0;
    var hadRows = Object.keys(before).length > 0;
    region.querySelectorAll("tr[id], li[id]").forEach(function (el) {
      var old = before[el.id];
      var text = el.textContent.replace(/\s+/g, " ").trim();
      var cls = null;
      var rank = rankOf(el);
      if (!old) {
        cls = hadRows ? "live-new" : null;
      } else if (rank !== null && old.rank !== null && rank < old.rank) {
        cls = "live-up";
        el.querySelector(".rank").setAttribute("data-live-was", old.rank);
      } else if (rank !== null && old.rank !== null && rank > old.rank) {
        cls = "live-down";
        el.querySelector(".rank").setAttribute("data-live-was", old.rank);
      } else if (old.text !== text) {
        cls = "live-changed";
      }
      if (cls) {
        changed += 1;
        el.classList.add("live-mark", cls);
        window.setTimeout(function () {
          el.classList.remove("live-mark", cls);
          var rank = el.querySelector(".rank[data-live-was]");
          if (rank) { rank.removeAttribute("data-live-was"); }
        }, MARK_MS);
      }
    });
    return changed;
  }

  // Form fields inside a region keep their value, focus and caret across the swap.
  function keepFields(region) {
    var active = document.activeElement;
    return Array.prototype.map.call(region.querySelectorAll("input[id], select[id], textarea[id]"), function (f) {
      var focused = f === active;
      return { id: f.id, value: f.value, focused: focused,
               start: focused && "selectionStart" in f ? f.selectionStart : null,
               end: focused && "selectionEnd" in f ? f.selectionEnd : null };
    });
  }

  function restoreFields(saved) {
    saved.forEach(function (s) {
      var f = document.getElementById(s.id);
      if (!f) { return; }
      f.value = s.value;
      if (s.focused) {
        f.focus();
        try { if (s.start !== null) { f.setSelectionRange(s.start, s.end); } } catch (e) { /* not a text field */ }
      }
      if (f.hasAttribute("data-filter")) { filter(f); }
    });
  }

  // The same filtering as filter.js, for the list items that just replaced the old ones.
  function filter(input) {
    var words = input.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
    document.querySelectorAll(input.getAttribute("data-filter")).forEach(function (item) {
      var name = item.getAttribute("data-name") || item.textContent.toLowerCase();
      item.hidden = !words.every(function (w) { return name.indexOf(w) !== -1; });
    });
  }

  function apply(html) {
    var doc = new DOMParser().parseFromString(html, "text/html");
    var changed = 0;
    var swapped = false;
    regions.forEach(function (region) {
      var fresh = doc.getElementById(region.id);
      if (!fresh || fresh.innerHTML === region.innerHTML) { return; }
      var before = snapshot(region);
      var fields = keepFields(region);
      region.innerHTML = fresh.innerHTML;
      restoreFields(fields);
      changed += mark(region, before);
      swapped = true;
    });
    if (swapped) {
      var at = { time: clock(), num: changed };
      if (!changed) say(word("updated", at));
      else if (changed === 1) say(word("updated_one", at));
      else say(word("updated_other", at));
      document.dispatchEvent(new CustomEvent("live:updated", { detail: { changed: changed } }));
    }
  }

  function schedule(delay) {
    window.clearTimeout(timer);
    if (!stopped) { timer = window.setTimeout(poll, delay); }
  }

  function poll() {
    if (document.hidden) { return; } // resumes on visibilitychange
    var headers = { "X-Live": "1" };
    if (etag) { headers["If-None-Match"] = etag; }
    fetch(window.location.pathname + window.location.search,
          { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) { return null; }
        if (response.status === 200) {
          etag = response.headers.get("ETag") || "";
          return response.text();
        }
        if (response.status === 404 || response.status === 403) {
          // Hidden meanwhile (the organisers hid the standings, a seating was withdrawn): take it off the
          // screen too, not only out of the next page load.
          stopped = true;
          regions.forEach(function (region) {
            var note = document.createElement("p");
            note.className = "callout";
            note.textContent = word("gone");
            region.replaceChildren(note);
          });
          say(word("stopped"), "stopped");
          return null;
        }
        throw new Error("HTTP " + response.status);
      })
      .then(function (html) {
        failures = 0;
        if (html !== null) { apply(html); }
        if (status.getAttribute("data-state") === "offline") { say(word("again", { time: clock() })); }
        schedule(seconds * 1000);
      })
      .catch(function () {
        // The venue's wifi comes and goes: back off, keep the page as it is, say so.
        failures += 1;
        say(word("offline"), "offline");
        schedule(Math.min(seconds * 1000 * Math.pow(2, failures), 120000));
      });
  }

  document.addEventListener("visibilitychange", function () {
    if (!document.hidden && !stopped) { schedule(0); }
  });
  schedule(seconds * 1000);
})();
