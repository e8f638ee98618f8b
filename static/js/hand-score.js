// Live hand score: as the user types or clicks, asks the fan engine (the hand checker's JSON endpoint)
// and shows the fans, their points and the total, or the reason the hand is no win. No inline script.
//
// Contract (markup):
//   <form data-hand-score="/check/score.json"          the JSON endpoint (GET); never hard-coded here.
//                                                     Asks as fields change (debounced), and at once on load
//                                                     when the hand is filled and the output is empty
//         data-hand-score-output="ID"                 id of the element that receives the result; give it
//                                                     aria-live="polite" (or put [data-hand-score-output]
//                                                     inside the form instead of naming an id)
//         data-hand-score-sync-url>                   optional: keep the page address in step with the form
//                                                     (history.replaceState to action?query), for sharing
//     <input data-hand-param="hand">                  the hand text (usually also data-tile-picker)
//     <input type=checkbox data-hand-param="self_drawn">   checkboxes send 1 or 0:
//                                                     self_drawn, last_tile, wall_last, kong
//     <select data-hand-param="seat_wind">            E S W N; also prevalent_wind
//     <select data-hand-param="flowers">              0..8
//     <input type=hidden data-hand-param="ruleset" value="ema">   ema | chinese (a fixed value is fine)
//     <button type=button data-hand-score-copy hidden>     optional: shown, copies the link to this hand
//     <span data-hand-score-copy-status role=status>       optional: says "Link copied"
//   <form data-hand-score-texts='{"empty": ..., "failed": ..., "unreachable": ..., "copied": ...,
//         "copy_this": ...}'>                         optional: this script's own sentences in the page's
//                                                     language (English without it)
//   [data-hand-score-share] / [data-hand-score-share-link]  optional, anywhere: shown and kept pointing at
//                                                     the link to the hand
//   [data-hand-score-summary]                         optional, in the form: the verdict's one line (the
//                                                     hand form's sticky bar keeps it on screen); not a live
//                                                     region, the output above already is one
//
// The endpoint: GET URL?hand=...&self_drawn=0|1&last_tile=0|1&wall_last=0|1&kong=0|1&seat_wind=E&
//   prevalent_wind=E&flowers=0..8&ruleset=ema ->
//   200 {verdict: "valid"|"under_minimum"|"not_winning"|"invalid", is_win, reason, fans: [{name, points,
//        count, sets: ["123m", ...]}] (flowers last as "Flower Tiles"), fan_points, flower_points, total,
//        code, field, tiles, result_html, reason_text}: result_html is the result drawn by the server
//        (templates/checker/_result.html, in the reader's language), shown as it is
//   400 {error, field} for a parameter value it cannot take.
// After each answer the form gets a "hand-score" event whose detail is the JSON (or {error, field}, or
// {verdict: "", empty: true} when the hand is emptied), so a page can, for example, offer to record a false mahjong when detail.verdict is not "valid".
(function () {
  "use strict";

  var DELAY_MS = 250;
  var TEXTS = {
    empty: "Build or type a hand to see its fans.",
    failed: "The hand could not be checked.",
    unreachable: "The checker could not be reached. Check the connection and try again.",
    copied: "Link copied.",
    copy_this: "Copy this address:"
  };

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  // The server draws the result (templates/checker/_result.html) in the reader's language: one markup.
  function renderResult(out, data) {
    out.innerHTML = data.result_html;
  }

  function message(out, className, text) {
    out.textContent = "";
    out.appendChild(el("p", className, text));
  }

  function pageTexts(form) {
    var texts = {};
    Object.keys(TEXTS).forEach(function (key) { texts[key] = TEXTS[key]; });
    try {
      var own = JSON.parse(form.dataset.handScoreTexts || "{}");
      Object.keys(own).forEach(function (key) { texts[key] = own[key]; });
    } catch (e) { /* the English ones */ }
    return texts;
  }

  function enhance(form) {
    var url = form.dataset.handScore;
    var texts = pageTexts(form);
    var out = (form.dataset.handScoreOutput && document.getElementById(form.dataset.handScoreOutput)) ||
      form.querySelector("[data-hand-score-output]");
    if (!url || !out) return;
    var timer = null;
    var controller = null;
    var asked = 0;
    var copy = form.querySelector("[data-hand-score-copy]");
    var copyStatus = form.querySelector("[data-hand-score-copy-status]");
    var share = document.querySelector("[data-hand-score-share]");
    var shareLink = document.querySelector("[data-hand-score-share-link]");
    var summary = form.querySelector("[data-hand-score-summary]");

    function summarize(text, verdict) {
      if (!summary) return;
      summary.textContent = text;
      summary.className = summary.className.replace(/\s*verdict-\S+/g, "") + (verdict ? " verdict-" + verdict : "");
    }

    function params() {
      var query = new URLSearchParams();
      Array.prototype.forEach.call(form.querySelectorAll("[data-hand-param]"), function (field) {
        var value = field.type === "checkbox" ? (field.checked ? "1" : "0") : field.value;
        query.set(field.dataset.handParam, value);
      });
      return query;
    }

    function pageLink(query) {
      var action = new URL(form.getAttribute("action") || window.location.pathname, window.location.href);
      return action.origin + action.pathname + "?" + query.toString();
    }

    // The reason next to the field to blame (the hand for "13 tiles, 14 expected", the kong flag ...), and
    // no stale message next to the others. Server-rendered messages use the same markup.
    function markFields(blamed, text) {
      Array.prototype.forEach.call(form.querySelectorAll("[data-hand-param]"), function (field) {
        var wrapper = field.closest(".field");
        if (!wrapper || field.type === "hidden") return;
        var id = (field.id || field.dataset.handParam) + "-error";
        var note = document.getElementById(id);
        var bad = field.dataset.handParam === blamed;
        wrapper.classList.toggle("has-error", bad);
        if (bad) field.setAttribute("aria-invalid", "true");
        else field.removeAttribute("aria-invalid");
        var described = (field.getAttribute("aria-describedby") || "").split(" ").filter(function (x) {
          return x && x !== id;
        });
        if (bad) {
          if (!note) {
            note = el("p", "error");
            note.id = id;
            wrapper.appendChild(note);
          }
          note.textContent = text;
          described.push(id);
        } else if (note) {
          note.parentNode.removeChild(note);
        }
        if (described.length) field.setAttribute("aria-describedby", described.join(" "));
        else field.removeAttribute("aria-describedby");
      });
    }

    function publish(detail) {
      form.dispatchEvent(new CustomEvent("hand-score", { bubbles: true, detail: detail }));
    }

    function ask() {
      var query = params();
      var link = pageLink(query);
      if (form.hasAttribute("data-hand-score-sync-url")) window.history.replaceState(null, "", link);
      if (shareLink) shareLink.href = link;
      if (!(query.get("hand") || "").trim()) {
        if (controller) controller.abort();
        asked++;
        message(out, "empty", texts.empty);
        summarize("Build or type a hand to see its points.", "");
        markFields("", "");
        if (share) share.hidden = true;
        publish({ verdict: "", empty: true });
        return;
      }
      if (share) share.hidden = false;
      if (controller) controller.abort();
      controller = "AbortController" in window ? new AbortController() : null;
      var mine = ++asked;
      out.setAttribute("aria-busy", "true");
      var target = url + (url.indexOf("?") < 0 ? "?" : "&") + query.toString();
      fetch(target, { headers: { Accept: "application/json" }, signal: controller ? controller.signal : undefined })
        .then(function (response) {
          return response.json().then(function (data) { return { ok: response.ok, data: data }; });
        })
        .then(function (answer) {
          if (mine !== asked) return;  // a newer question is on its way
          out.removeAttribute("aria-busy");
          if (answer.ok) {
            renderResult(out, answer.data);
            var line = out.querySelector(".verdict");
            summarize(line ? line.textContent : "", answer.data.verdict);
            markFields(answer.data.verdict === "invalid" ? answer.data.field : "", answer.data.reason_text);
          } else {
            message(out, "error", answer.data.error || texts.failed);
            summarize(answer.data.error || texts.failed, "invalid");
            markFields(answer.data.field, answer.data.error);
          }
          publish(answer.data);
        })
        .catch(function (error) {
          if (error && error.name === "AbortError") return;
          if (mine !== asked) return;
          out.removeAttribute("aria-busy");
          message(out, "error", texts.unreachable);
          summarize("The checker could not be reached.", "invalid");
        });
    }

    function later() {
      window.clearTimeout(timer);
      timer = window.setTimeout(ask, DELAY_MS);
    }

    form.addEventListener("input", later);
    form.addEventListener("change", later);
    // a form that opens with a hand (a correction) but no server-rendered result asks at once
    if (!out.children.length && (params().get("hand") || "").trim()) ask();

    if (copy) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        var link = pageLink(params());
        function done(ok) {
          if (copyStatus) copyStatus.textContent = ok ? texts.copied : texts.copy_this + " " + link;
        }
        if (navigator.clipboard && window.isSecureContext) {
          navigator.clipboard.writeText(link).then(function () { done(true); }, function () { done(fallback(link)); });
        } else {
          done(fallback(link));
        }
      });
    }
  }

  // Copying without the asynchronous clipboard (plain http on a local network).
  function fallback(text) {
    var area = document.createElement("textarea");
    area.value = text;
    area.setAttribute("readonly", "");
    area.style.position = "fixed";
    area.style.opacity = "0";
    document.body.appendChild(area);
    area.select();
    var ok = false;
    try { ok = document.execCommand("copy"); } catch (e) { ok = false; }
    document.body.removeChild(area);
    return ok;
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-hand-score]"), function (form) {
      if (form.dataset.handScoreReady) return;
      form.dataset.handScoreReady = "1";
      enhance(form);
    });
  }

  window.HandScore = { init: init };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
