// Live hand score: asks the fan engine as the hand changes and shows the fans and the total, or why it is no win.
// Its markup contract and behaviour: static/js/README.md (kept there: a phone on venue wifi fetches this file).
(function () {
  "use strict";

  var DELAY_MS = 250;
  var TEXTS = {
    empty: "Build or type a hand to see its fans.",
    failed: "The hand could not be checked.",
    unreachable: "The checker could not be reached. Check the connection and try again.",
    copied: "Link copied.",
    copy_this: "Copy this address:",
    summary_empty: "Build or type a hand to see its points.",
    summary_unreachable: "The checker could not be reached."
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
    return pageWords.read(TEXTS, form, "data-hand-score-texts").texts;
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
        summarize(texts.summary_empty, "");
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
          summarize(texts.summary_unreachable, "invalid");
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
