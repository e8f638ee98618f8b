// Hands entered while the venue's network is down (issue 23). Loaded (templates/base.html) only on the pages the
// service worker keeps for a drop: a player's page and hand form (/p/<token>...), a referee's table page and hand
// form (/manage/...); and on the logout page when the account has hands not sent (templates/auth/logout.html).
//
// - It registers the service worker (/sw.js) that keeps those pages for a drop, once the page has loaded (the
//   worker's script does not compete with the page's own files on a slow network), and asks it to keep this page,
//   its files and the pages it links to with [data-offline-keep] when the page was loaded before it took charge.
// - A form with [data-offline-queue] (the hand forms) saved with no network is kept in this browser
//   (IndexedDB): its URL, its fields and a new idempotency key, then the form is cleared for the next hand.
//   Online, the form is sent as usual; should that sending fail on the way, the service worker answers with a
//   page that gives its fields (key unchanged) to this script to keep.
// - The kept hands are sent, oldest first, when the network returns (the `online` event, a page load and a
//   timer): the same fields and the same key each time, so a hand whose answer was lost on the way is stored
//   once (the server answers a key it has seen with its first answer). A banner says how many are waiting.
// - A hand the server refuses (the engine's 422, a 409 conflict, a 403 or 404) is kept with the server's message
//   and shown to whoever entered it. "Correct it" fills the form again with it; "Discard it" drops it.
// - The hands are their owner's (issue 31): the page names it (<html data-offline-owner>), each owner has a
//   database of their own, a page sends and shows only its owner's. The logout asks first: static/js/README.md.
(function () {
  "use strict";

  var STORE = "hands";
  var RETRY_MS = 20000;
  var path = window.location.pathname;
  var own = /^\/p\/[A-Za-z0-9_-]+/.exec(path);
  var logout = document.querySelector("form[data-offline-logout]");
  var scope = own ? own[0] + "/" : (path.indexOf("/manage/") === 0 || logout ? "/manage/" : null);
  if (!scope) return;
  // The service worker's page for a hand that failed on its way (static/sw.js) names no owner: the form's field does.
  var unsentHolder = document.querySelector("[data-offline-unsent]");
  var owner = document.documentElement.getAttribute("data-offline-owner") ||
    (unsentHolder ? new URLSearchParams(unsentHolder.getAttribute("data-body") || "").get("offline_owner") : "");
  if (!/^[0-9a-f]{32}$/.test(owner || "")) owner = null;
  var DB_NAME = "mcr-offline-" + owner;

  // ------------------------------------------------------------------ the words
  // In the page's language when it gives them (<html data-offline-texts>, templates/_offline_texts.html);
  // {name} is filled in. Counts: "_one" for 1, "_other" for any other number (so in every language offered).
  var TEXTS = {
    hand: "Hand {number}", hand_at_table: "Hand {number} at table {table}", banner: "Hands kept on this device",
    waiting_one: "{num} hand waiting to be sent.", waiting_other: "{num} hands waiting to be sent.",
    waiting_offline_one: "{num} hand waiting to be sent: no network now; it is sent, and checked by the engine, when it is back.",
    waiting_offline_other: "{num} hands waiting to be sent: no network now; they are sent, and checked by the engine, when it is back.",
    waiting_sending_one: "{num} hand waiting to be sent: sending…", waiting_sending_other: "{num} hands waiting to be sent: sending…",
    sent_one: "{hands} was sent and saved.", sent_other: "{hands} were sent and saved.",
    refused_one: "{num} hand not saved: see below.", refused_other: "{num} hands not saved: see below.",
    not_saved: "{hand} was not saved: {reason}.", refused_reason: "the server refused it",
    answered: "the server answered {status}", correct: "Correct it", discard: "Discard it",
    log_in: "Log in again to send the hands kept on this device.",
    back_in_form: "{hand} is back in the form: correct it and save it again, or discard it above.",
    kept: "{hand} is kept on this device.",
    not_sent: "No network: that was not sent. Try again when the network is back.",
    false_mahjong: "Recording a claim as a false mahjong needs the network: fill in the false mahjong part by hand, or save when the network is back.",
    verdict: "No network: the engine checks this hand when it is sent. Save keeps it on this device.",
    unsent_one: "{num} hand not sent: send it now, or discard it.",
    unsent_other: "{num} hands not sent: send them now, or discard them.",
    unsent_none: "No hand is waiting on this device."
  };
  var say = pageWords.read(TEXTS, document.documentElement, "data-offline-texts");
  var count = say.count;

  // ------------------------------------------------------------------ the service worker
  function keepThisPage() {
    var urls = [window.location.href];
    Array.prototype.forEach.call(document.querySelectorAll("script[src], link[rel=stylesheet][href], [data-offline-keep][href]"),
      function (el) { urls.push(el.src || el.href); });
    navigator.serviceWorker.ready.then(function (registration) {
      if (registration.active) registration.active.postMessage({ type: "keep", urls: urls });
    });
  }

  function registerWorker() {
    navigator.serviceWorker.register("/sw.js", { scope: "/" }).then(function () {
      // A page the worker answered is kept already; one loaded before it took charge asks for itself.
      if (!navigator.serviceWorker.controller) keepThisPage();
      else {
        var links = Array.prototype.map.call(document.querySelectorAll("[data-offline-keep][href]"),
          function (a) { return a.href; });
        if (links.length) navigator.serviceWorker.ready.then(function (registration) {
          if (registration.active) registration.active.postMessage({ type: "keep", urls: links });
        });
      }
    }).catch(function () { /* no worker (a private window): the queue below still works */ });
  }

  if ("serviceWorker" in navigator) {
    if (document.readyState === "complete") registerWorker();
    else window.addEventListener("load", registerWorker);
  }

  // A page with no owner keeps nothing: its hands could not be told from another account's.
  if (!("indexedDB" in window) || !owner) return;

  // ------------------------------------------------------------------ the store
  var opened = null;
  function database() {
    if (!opened) {
      opened = new Promise(function (resolve, reject) {
        var request = indexedDB.open(DB_NAME, 1);
        request.onupgradeneeded = function () {
          request.result.createObjectStore(STORE, { keyPath: "id", autoIncrement: true });
        };
        request.onsuccess = function () { resolve(request.result); };
        request.onerror = function () { reject(request.error); };
      });
    }
    return opened;
  }

  function transact(mode, work) {
    return database().then(function (db) {
      return new Promise(function (resolve, reject) {
        var tx = db.transaction(STORE, mode);
        var result = work(tx.objectStore(STORE));
        tx.oncomplete = function () { resolve(result && "result" in result ? result.result : undefined); };
        tx.onerror = function () { reject(tx.error); };
        tx.onabort = function () { reject(tx.error); };
      });
    });
  }

  function all() {
    return transact("readonly", function (store) { return store.getAll(); }).then(function (rows) {
      return (rows || []).filter(function (row) { return row.url.indexOf(scope) === 0 && row.owner === owner; })
        .sort(function (a, b) { return a.id - b.id; });
    });
  }
  function put(row) { return transact("readwrite", function (store) { return store.put(row); }); }
  function drop(id) { return transact("readwrite", function (store) { return store.delete(id); }); }
  function one(id) { return transact("readonly", function (store) { return store.get(id); }); }

  function newKey() {
    var bytes = new Uint8Array(24);
    window.crypto.getRandomValues(bytes);
    return btoa(String.fromCharCode.apply(null, bytes)).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
  }

  function fieldOf(body, name) {
    return new URLSearchParams(body).get(name) || "";
  }

  function describe(url, body) {
    var table = /\/tables\/(\d+)\//.exec(url);
    var number = fieldOf(body, "number") || "?";
    return table ? say("hand_at_table", { number: number, table: table[1] }) : say("hand", { number: number });
  }

  // ------------------------------------------------------------------ the banner
  var banner = null;
  var lastSent = [];
  var sending = false;
  var unreachable = false;  // the last try found no server: the waiting hands are said to wait for the network

  function makeBanner() {
    var main = document.getElementById("main") || document.body;
    banner = document.createElement("section");
    banner.className = "callout offline-queue";
    banner.setAttribute("aria-label", say("banner"));
    banner.setAttribute("tabindex", "-1");
    banner.hidden = true;
    var status = document.createElement("p");
    status.setAttribute("role", "status");
    status.setAttribute("data-offline-status", "");
    banner.appendChild(status);
    var list = document.createElement("ul");
    list.setAttribute("data-offline-refused", "");
    banner.appendChild(list);
    main.insertBefore(banner, main.firstChild);
  }

  // The logout asks first while this cookie counts hands (tournament/web/offline.py); only /logout gets it.
  function countForLogout(n) {
    if (scope !== "/manage/") return;
    document.cookie = "mcr_offline_" + owner + "=" + (n ? String(n) + "; max-age=31536000" : "; max-age=0") +
      "; path=/logout; SameSite=Strict" + (window.location.protocol === "https:" ? "; Secure" : "");
  }

  function show(rows, note) {
    countForLogout(rows.length);
    if (!banner) makeBanner();
    var waiting = rows.filter(function (row) { return row.state !== "refused"; });
    var refused = rows.filter(function (row) { return row.state === "refused"; });
    var lines = [];
    if (note) lines.push(note);
    if (waiting.length) {
      lines.push(count(navigator.onLine === false || (unreachable && !sending) ? "waiting_offline" :
                       (sending ? "waiting_sending" : "waiting"), waiting.length));
    }
    if (!waiting.length && lastSent.length) {
      lines.push(say(lastSent.length === 1 ? "sent_one" : "sent_other", { hands: lastSent.join(", ") }));
    }
    if (refused.length) lines.push(count("refused", refused.length));
    banner.querySelector("[data-offline-status]").textContent = lines.join(" ");
    var list = banner.querySelector("[data-offline-refused]");
    list.textContent = "";
    refused.forEach(function (row) {
      var item = document.createElement("li");
      item.className = "flash flash-error";
      var text = document.createElement("p");
      text.textContent = say("not_saved", { hand: row.label, reason: row.message || say("refused_reason") });
      item.appendChild(text);
      var correct = document.createElement("a");
      correct.className = "button button-secondary";
      correct.href = row.page.split("#")[0] + "#offline-hand-" + row.id;
      correct.textContent = say("correct");
      correct.addEventListener("click", function (event) {
        if (restoreHere(row)) event.preventDefault();
      });
      var discard = document.createElement("button");
      discard.type = "button";
      discard.className = "button-danger";
      discard.textContent = say("discard");
      discard.addEventListener("click", function () {
        drop(row.id).then(refresh);
      });
      item.appendChild(correct);
      item.appendChild(document.createTextNode(" "));
      item.appendChild(discard);
      list.appendChild(item);
    });
    list.hidden = !refused.length;
    banner.hidden = !lines.length;
    // What the page's other scripts and styles go by (one status line at a time, issue 32): hands still to send,
    // and the banner shown (the kept copy's note and the player page's connection line then give way to it).
    var root = document.documentElement;
    root.setAttribute("data-offline-waiting", String(waiting.length));
    if (banner.hidden) root.removeAttribute("data-offline-banner");
    else root.setAttribute("data-offline-banner", "");
  }

  function refresh(note) {
    return all().then(function (rows) { show(rows, typeof note === "string" ? note : ""); return rows; });
  }

  // ------------------------------------------------------------------ sending
  // The server's own words for a refusal: the page it answered with (the form again, with its errors).
  function refusal(response, text) {
    var doc = new DOMParser().parseFromString(text || "", "text/html");
    var parts = [];
    doc.querySelectorAll(".flashes .flash-error, .refusal p:first-child, .form-summary li, [data-entry=notice] p, " +
      ".error-page h1, .error-page h1 + p")
      .forEach(function (el) {
        var line = el.textContent.replace(/\s+/g, " ").trim().replace(/[.:]$/, "");
        if (line && parts.indexOf(line) < 0 && parts.length < 3) parts.push(line);
      });
    return parts.join(". ") || say("answered", { status: response.status });
  }

  // A saved form moves on to another page. A staff form does so only when the hand is stored (or was already:
  // a double submit); a player's form also when there is no hand to enter any more (the session ended, the
  // referees enter the hands), back to the player's page, where the hand kept must then be listed as theirs.
  function saved(row, text) {
    if (row.url.indexOf("/p/") !== 0) return true;
    var doc = new DOMParser().parseFromString(text || "", "text/html");
    var number = fieldOf(row.body, "number");
    var hand = doc.getElementById("hand-" + number);
    return Boolean(hand) && !hand.querySelector('form[action$="/hands/' + number + '/confirm"]');
  }

  function freshToken() {
    var input = document.querySelector("input[name=csrf_token]");
    return input ? input.value : "";
  }

  function sendOne(row) {
    var body = new URLSearchParams(row.body);
    var token = freshToken();  // the same session's: a form kept for long still passes
    if (token) body.set("csrf_token", token);
    return fetch(row.url, {
      method: "POST", body: body, credentials: "same-origin", redirect: "follow", cache: "no-store",
      headers: { "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function (response) {
      var landed = new URL(response.url, window.location.href).pathname;
      if (landed === "/login") return "login";
      if (response.status >= 500 || response.status === 429) return "later";
      return response.text().then(function (text) {
        if (response.ok && response.redirected && saved(row, text)) return "sent";
        row.state = "refused";
        row.message = refusal(response, text);
        row.status = response.status;
        return put(row).then(function () { return "refused"; });
      });
    }, function () { return "later"; });
  }

  function sendAll() {
    if (sending || navigator.onLine === false) return Promise.resolve();
    sending = true;
    var note = "";
    var sentBefore = lastSent.length;
    var run = function () {
      return all().then(function (rows) {
        var waiting = rows.filter(function (row) { return row.state !== "refused"; });
        if (!waiting.length) return null;
        show(rows, "");
        return waiting.reduce(function (chain, row) {
          return chain.then(function (stop) {
            if (stop) return stop;
            return sendOne(row).then(function (outcome) {
              unreachable = outcome === "later";
              if (outcome === "sent") {
                lastSent.push(row.label);
                return drop(row.id).then(function () { return null; });
              }
              if (outcome === "login") { note = say("log_in"); return outcome; }
              if (outcome === "later") return outcome;
              return null;
            });
          });
        }, Promise.resolve(null));
      });
    };
    // One tab sends at a time (two would still store each hand once, by its key).
    var locked = navigator.locks ? navigator.locks.request("mcr-offline-queue", run) : run();
    var done = function () {
      sending = false;
      return refresh(note).then(function (rows) {
        if (lastSent.length > sentBefore && !note) takeServerState(rows);
        return rows;
      });
    };
    return locked.then(done, done);
  }

  // ------------------------------------------------------------------ one state on the page (issue 32)
  // Once the hands are sent, the page takes the server's state once: drawn again (the hands it now has, the next
  // hand to enter, no kept copy's note), the "sent and saved" line carried over to it. Not a hand form someone is
  // filling in, nor while a hand is still waiting, nor the logout page.
  var SENT_KEY = "mcr-offline-sent-" + owner;
  var touched = false;  // the hand form changed by a person since it was drawn or cleared

  function takeServerState(rows) {
    // (the service worker's page for a hand that failed on its way answered a POST: it is not drawn again)
    if (logout || unsentHolder || rows.some(function (row) { return row.state !== "refused"; })) return;
    if (queueForm() && touched) {
      var copyNote = document.querySelector("[data-offline-copy]");
      if (copyNote) copyNote.parentNode.removeChild(copyNote);
      return;
    }
    try {
      window.sessionStorage.setItem(SENT_KEY, JSON.stringify(lastSent));
    } catch (e) { /* no storage: the page is drawn again without the line */ }
    if (!queueForm()) { window.location.reload(); return; }
    // a hand form: for the next hand to enter, not the one its address asked for (?hand=), now sent
    var next = new URL(window.location.href);
    next.searchParams.delete("hand");
    next.hash = "";
    window.location.replace(next.href);
  }

  function sentBeforeReload() {
    var hands = null;
    try {
      hands = JSON.parse(window.sessionStorage.getItem(SENT_KEY) || "null");
      window.sessionStorage.removeItem(SENT_KEY);
    } catch (e) { hands = null; }
    if (Array.isArray(hands) && hands.length) lastSent = hands.map(String);
  }

  // ------------------------------------------------------------------ the hand forms
  function fire(el, type) { if (el) el.dispatchEvent(new Event(type, { bubbles: true })); }

  // The form made ready for another hand: the fields as the page gave them, the next hand's number.
  function clearForm(form, nextNumber) {
    touched = false;
    form.reset();
    var number = form.elements.namedItem("number");
    if (number && nextNumber) number.value = String(nextNumber);
    fire(form.elements.namedItem("hand"), "input");
    fire(number, "change");
  }

  function fill(form, body) {
    form.reset();
    new URLSearchParams(body).forEach(function (value, name) {
      if (name === "csrf_token" || name === "idempotency_key" || name === "offline_owner") return;
      Array.prototype.forEach.call(form.querySelectorAll('[name="' + name + '"]'), function (el) {
        if (el.type === "radio" || el.type === "checkbox") {
          if (el.value === value) el.checked = true;
        } else if (el.type !== "submit" && el.type !== "button") {
          el.value = value;
        }
      });
    });
    fire(form.elements.namedItem("hand"), "input");
    fire(form.elements.namedItem("number"), "change");
    var details = form.querySelector("[data-entry=false-mahjongs]");
    if (details && /false_mahjongs-\d+-(kind|hand)=[^&]/.test(body)) details.open = true;
  }

  function queueForm() {
    return document.querySelector("form[data-offline-queue]");
  }

  // "Correct it" on the page where the hand was entered: its fields go back into the form; the kept copy is
  // dropped once the corrected hand is saved or kept again.
  function restoreHere(row) {
    var form = queueForm();
    if (!form || row.page.split("#")[0] !== window.location.pathname + window.location.search) return false;
    fill(form, row.body);
    form.setAttribute("data-offline-restoring", String(row.id));
    var message = document.createElement("p");
    message.className = "flash flash-info";
    message.setAttribute("role", "status");
    message.textContent = say("back_in_form", { hand: row.label });
    form.parentNode.insertBefore(message, form);
    message.scrollIntoView({ block: "center" });
    return true;
  }

  function newRow(url, body, page) {
    return {
      url: url, body: body, page: page, owner: owner, key: fieldOf(body, "idempotency_key"),
      label: describe(url, body),
      state: "waiting", created_at: new Date().toISOString()
    };
  }

  // Kept once per key: the same sending caught twice (a reload of the page below) is one hand.
  function keepRow(row) {
    return all().then(function (rows) {
      if (rows.some(function (other) { return other.key === row.key; })) return null;
      return put(row);
    });
  }

  // The service worker's page for a hand form whose sending failed as it went (see static/sw.js): its fields,
  // idempotency key unchanged, since the server may have stored it already and will then answer the retry with
  // its first answer.
  function keepUnsent(holder) {
    var url = holder.getAttribute("data-url");
    if (url.indexOf(scope) !== 0) return Promise.resolve();
    var row = newRow(url, holder.getAttribute("data-body"), url);
    return keepRow(row).then(function () { return refresh(say("kept", { hand: row.label })); });
  }

  function keepForLater(form, submitter) {
    var data = new FormData(form, submitter || undefined);
    data.set("idempotency_key", newKey());  // each hand kept has its own key: a kept page's key may be used
    var body = new URLSearchParams(data).toString();
    var action = new URL(form.action, window.location.href);
    var row = newRow(action.pathname + action.search, body, window.location.pathname + window.location.search);
    var restoring = parseInt(form.getAttribute("data-offline-restoring"), 10);
    form.removeAttribute("data-offline-restoring");
    return (restoring ? drop(restoring) : Promise.resolve()).then(function () { return keepRow(row); }).then(function () {
      var number = parseInt(fieldOf(body, "number"), 10);
      clearForm(form, number ? number + 1 : null);
      return refresh(say("kept", { hand: row.label }));
    }).then(function () {
      if (banner) banner.focus();
    });
  }

  document.addEventListener("submit", function (event) {
    var form = event.target;
    if (!form.hasAttribute || !form.hasAttribute("data-offline-queue")) {
      // Any other form of these pages (confirm, dispute) needs the server: say so instead of the browser's error.
      if (navigator.onLine === false && form.method === "post" && !event.defaultPrevented) {
        event.preventDefault();
        refresh(say("not_sent")).then(function () {
          if (banner) banner.focus();
        });
      }
      return;
    }
    if (event.defaultPrevented) return;
    var restoring = form.getAttribute("data-offline-restoring");
    if (navigator.onLine !== false) {
      // Sent now: the kept copy it corrects is done with once the server has it (the page then changes).
      if (restoring) drop(parseInt(restoring, 10));
      return;
    }
    event.preventDefault();
    if (event.submitter && event.submitter.name === "convert") {
      refresh(say("false_mahjong"));
      return;
    }
    keepForLater(form, event.submitter);
  });

  // Offline the engine cannot be asked: the verdict line says the hand is checked when it is sent.
  var OFFLINE_VERDICT = say("verdict");
  function watchVerdict() {
    var summary = document.querySelector("form[data-offline-queue] [data-hand-score-summary]");
    if (!summary) return;
    var mark = function () {
      if (navigator.onLine === false && summary.textContent !== OFFLINE_VERDICT) {
        summary.textContent = OFFLINE_VERDICT;
        summary.className = "entry-verdict";
      }
    };
    new MutationObserver(mark).observe(summary, { childList: true, characterData: true, subtree: true });
    window.addEventListener("offline", mark);
    window.addEventListener("online", function () { fire(queueForm().elements.namedItem("hand"), "input"); });
    mark();
  }

  // ------------------------------------------------------------------ the logout page
  // "Send now" or "Discard"; the logout goes on once none is left (static/js/README.md).
  function logoutStep() {
    var status = document.querySelector("[data-offline-logout-status]");
    var send = logout.querySelector("[data-offline-logout-send]");
    var discard = logout.querySelector("[data-offline-logout-discard]");
    var plain = logout.querySelector("[data-offline-logout-plain]");
    function offer(rows) {
      status.textContent = rows.length ? count("unsent", rows.length) : say("unsent_none");
      send.hidden = !rows.some(function (row) { return row.state !== "refused"; });
      discard.hidden = !rows.length;
      plain.hidden = rows.length > 0;
      send.disabled = discard.disabled = false;
      return rows;
    }
    function leave(how) {
      var choice = document.createElement("input");
      choice.type = "hidden";
      choice.name = "offline";
      choice.value = how;
      logout.appendChild(choice);
      logout.submit();
    }
    function choose(button, work, how) {
      button.addEventListener("click", function (event) {
        event.preventDefault();
        send.disabled = discard.disabled = true;
        var left = function () { return refresh(); };
        work().then(function (rows) { return rows || left(); }, left).then(function (rows) {
          if (rows.length) offer(rows);
          else leave(how);
        });
      });
    }
    choose(send, sendAll, "sent");
    choose(discard, function () {
      return all().then(function (rows) { return Promise.all(rows.map(function (row) { return drop(row.id); })); })
        .then(function () { return refresh(); });
    }, "discarded");
    refresh().then(offer);
  }

  function start() {
    watchVerdict();
    var form = queueForm();
    if (form) {
      var mark = function (event) { if (event.isTrusted) touched = true; };
      form.addEventListener("input", mark);
      form.addEventListener("change", mark);
    }
    sentBeforeReload();
    // Loaded after the page (after-load.js): until now a form sent offline got the browser's error page.
    // Tests wait for this mark before they cut the network.
    document.documentElement.setAttribute("data-offline-ready", "");
    if (logout) {
      logoutStep();  // sends only when asked to
      return;
    }
    var wanted = /^#offline-hand-(\d+)$/.exec(window.location.hash);
    if (wanted) {
      one(parseInt(wanted[1], 10)).then(function (row) { if (row && row.owner === owner) restoreHere(row); });
    }
    (unsentHolder ? keepUnsent(unsentHolder) : refresh()).then(sendAll);
    window.addEventListener("online", function () { sendAll(); });
    window.addEventListener("offline", function () { refresh(); });
    window.setInterval(function () {
      all().then(function (rows) {
        if (rows.some(function (row) { return row.state !== "refused"; })) sendAll();
      });
    }, RETRY_MS);
  }

  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", start);
  else start();
}());
