// The service worker (served at /sw.js, scope "/"): the pages a table needs load when the venue's network is down.
//
// What it keeps, each under its own address (the key is the URL, and these URLs are private: a player's page
// holds their link's token, a staff page is only ever fetched with the staff member's cookie):
//   - a player's page /p/<token> and their hand form /p/<token>/hands/new,
//   - a referee's table page and hand form /manage/tournaments/<id>/play/<n>/tables/<t>[/hands/new],
//   - the static files in the version the pages name (?v=, so a kept copy is never stale).
// Pages: the network first, the kept copy when there is no network. Nothing else is touched: the public pages,
// the API, every POST (never kept: a POST goes to the network as it is; when it cannot get there, a hand form's
// comes back for the offline queue, any other form of a kept page gets that page's kept copy saying "not sent").
// A staff page is never shown to the wrong person: logging out or in (any form that ends or starts a login: the
// login, the logout, "log out everywhere", a password change or reset, an invitation) empties the staff copies,
// and so does a staff page that the server no longer gives (a redirect to the login page); a page the server
// answers 404 (a renewed link) is dropped at once. A staff page still on its way when they are emptied is not
// kept: it is the account's logged out (issue 31).
"use strict";

var VERSION = "1";
var PLAYER_PAGES = "player-pages-" + VERSION;
var STAFF_PAGES = "staff-pages-" + VERSION;
var STATIC_FILES = "static-" + VERSION;
var KEPT = [PLAYER_PAGES, STAFF_PAGES, STATIC_FILES];

var PLAYER_PAGE = /^\/p\/[A-Za-z0-9_-]+(\/hands\/new)?$/;
var STAFF_PAGE = /^\/manage\/tournaments\/\d+\/play\/\d+\/tables\/\d+(\/hands\/new)?$/;
var PLAYER_POST = /^(\/p\/[A-Za-z0-9_-]+)\/tables\//;
var HAND_FORM = /^(\/p\/[A-Za-z0-9_-]+|\/manage\/tournaments\/\d+\/play\/\d+\/tables\/\d+)\/hands\/new$/;
var LOGIN_CHANGE =
  /^\/(login|logout|account\/logout-everywhere|account\/password|reset-password\/[^/]+|invitations\/[^/]+)$/;
// Wifi that is up with no way through: after this long the kept copy is shown (the network's answer, should it
// come, still updates the copy).
var PATIENCE_MS = 8000;

function storeFor(path) {
  if (PLAYER_PAGE.test(path)) return PLAYER_PAGES;
  if (STAFF_PAGE.test(path)) return STAFF_PAGES;
  if (path.indexOf("/static/") === 0) return STATIC_FILES;
  return null;
}

// Bumped whenever the staff copies are emptied: a staff page fetched before then is not kept after.
var staffGeneration = 0;

function forgetStaff() {
  staffGeneration += 1;
  return caches.delete(STAFF_PAGES);
}

function forget(store, url) {
  return caches.open(store).then(function (cache) { return cache.delete(url, { ignoreSearch: store !== STATIC_FILES }); });
}

// Only a page given whole to this browser is kept: a 200 of this site, not the end of a redirect.
function keepable(response) {
  return response && response.status === 200 && response.type === "basic" && !response.redirected;
}

function keep(store, url, response, generation) {
  return caches.open(store).then(function (cache) {
    if (store === STAFF_PAGES && generation !== staffGeneration) return null;  // logged out (or in) meanwhile
    return cache.put(url, response);
  });
}

var NOT_KEPT = "<!doctype html><html lang=\"en\"><head><meta charset=\"utf-8\">" +
  "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>No network</title></head>" +
  "<body><main><h1>No network</h1><p>This page was not kept on this device, and the server cannot be reached " +
  "just now. Try again when the network is back.</p></main></body></html>";

function notKept() {
  return new Response(NOT_KEPT, {
    status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }
  });
}

function kept(store, request) {
  return caches.open(store).then(function (cache) {
    // A hand form asked for another hand (?hand=3) offline: the table's form kept for another number will do.
    return cache.match(request.url).then(function (found) {
      return found || cache.match(request.url, { ignoreSearch: true });
    });
  });
}

// The kept page's own words for the note (its <html data-offline-texts>, in the page's language), else English.
var COPY_NOTE = "No answer from the server: this is the copy of this page kept on this device. It may be out of date.";
var COPY_NOTE_AT = "No answer from the server: this is the copy of this page kept on this device at {time}. " +
  "It may be out of date.";

function pageTexts(html) {
  var found = /<html\b[^>]*\sdata-offline-texts="([^"]*)"/.exec(html);
  if (!found) return {};
  var json = found[1].replace(/&#34;|&quot;/g, "\"").replace(/&#39;/g, "'").replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  try { return JSON.parse(json); } catch (error) { return {}; }
}

// A kept copy says so at the top of the page, with the time the server gave it: it may be out of date.
function marked(found) {
  if (!found) return null;
  var when = new Date(found.headers.get("Date") || "");
  return found.text().then(function (html) {
    var texts = pageTexts(html);
    var lang = (/<html\b[^>]*\slang="([^"]+)"/.exec(html) || [])[1];
    var text = isNaN(when.getTime()) ? (texts.copy_note || COPY_NOTE)
      : (texts.copy_note_at || COPY_NOTE_AT).replace("{time}",
          when.toLocaleTimeString(lang ? [lang] : [], { hour: "2-digit", minute: "2-digit" }));
    var note = "<p class=\"callout\" role=\"status\" data-offline-copy>" + escapeHtml(text) + "</p>";
    var headers = new Headers(found.headers);
    headers.delete("Content-Length");  // the page is longer by the note
    return new Response(html.replace(/(<main\b[^>]*>)/, "$1" + note), { status: 200, headers: headers });
  });
}

function page(event, store) {
  var request = event.request;
  var generation = staffGeneration;
  var network = fetch(request).then(function (response) {
    if (keepable(response)) {
      event.waitUntil(keep(store, request.url, response.clone(), generation));
    } else if (response.type === "opaqueredirect" || response.status === 401 || response.status === 403 ||
               response.status === 404 || response.status === 410) {
      // A renewed link, a hand form with no hand to enter, a staff page for someone logged out: not kept.
      event.waitUntil(store === STAFF_PAGES ? forgetStaff() : forget(store, request.url));
    }
    return response;
  });
  event.waitUntil(network.catch(function () { return null; }));
  return new Promise(function (resolve) {
    network.then(resolve, function () {
      kept(store, request).then(marked).then(function (found) { resolve(found || notKept()); });
    });
    setTimeout(function () {
      kept(store, request).then(marked).then(function (found) { if (found) resolve(found); });
    }, PATIENCE_MS);
  });
}

function escapeHtml(text) {
  return String(text).replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;")
    .replace(/'/g, "&#39;");
}

// A hand form sent as the network failed (the phone believed it was online, or the drop came as it was sent):
// a page that hands the form's fields, its idempotency key unchanged (the server may have it already), to
// static/js/offline-queue.js, which keeps them with the others and sends them when the network returns (after
// static/js/words.js, the word reader it uses: the hand form's page loaded both, so both are kept).
// In the language of the form's kept copy (its <html lang> and data-offline-texts, which the offline queue reads on
// this page too), else English.
function unsent(url, body, form) {
  var path = url.pathname + url.search;
  var texts = pageTexts(form || "");
  var lang = (/<html\b[^>]*\slang="([^"]+)"/.exec(form || "") || [])[1] || "en";
  var own = /<html\b[^>]*\s(data-offline-texts="[^"]*")/.exec(form || "");
  var title = escapeHtml(texts.no_network || "No network");
  var html = "<!doctype html><html lang=\"" + escapeHtml(lang) + "\"" + (own ? " " + own[1] : "") + "><head>" +
    "<meta charset=\"utf-8\"><meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"><title>" +
    title + "</title><link rel=\"stylesheet\" href=\"/static/css/app.css\"></head><body>" +
    "<main id=\"main\" class=\"container\"><h1>" + title + "</h1><div data-offline-unsent data-url=\"" +
    escapeHtml(path) + "\" data-body=\"" + escapeHtml(body) + "\" hidden></div><p>" +
    escapeHtml(texts.unsent || "The server could not be reached as the hand was sent.") + " <a href=\"" +
    escapeHtml(path) + "\">" + escapeHtml(texts.back_to_form || "Back to the form") + "</a></p></main>" +
    "<script src=\"/static/js/words.js\" defer></script>" +
    "<script src=\"/static/js/offline-queue.js\" defer></script></body></html>";
  return new Response(html, {
    status: 503, headers: { "Content-Type": "text/html; charset=utf-8", "Cache-Control": "no-store" }
  });
}

// Any other form of a kept page (a player's confirm or dispute, a referee's call) sent as the network failed
// before the page's offline queue could catch it (the queue is loaded after the page): that page's kept copy
// again, with its own "not sent" words at the top, instead of the browser's error page.
var NOT_SENT = "No network: that was not sent. Try again when the network is back.";

function notSent(event, from, store) {
  return fetch(event.request).catch(function () {
    return kept(store, new Request(from.href)).then(function (found) {
      if (!found) return notKept();
      return found.text().then(function (html) {
        var text = pageTexts(html).not_sent || NOT_SENT;
        var note = "<p class=\"callout\" role=\"alert\" data-offline-not-sent>" + escapeHtml(text) +
          "</p>";
        var headers = new Headers(found.headers);
        headers.delete("Content-Length");
        return new Response(html.replace(/(<main\b[^>]*>)/, "$1" + note), { status: 503, headers: headers });
      });
    });
  });
}

function handForm(event, url) {
  var copy = event.request.clone();
  var keepIt = function () {
    return copy.text().then(function (body) {
      var store = storeFor(url.pathname);
      return kept(store, new Request(url.href)).then(function (found) { return found ? found.text() : ""; },
        function () { return ""; }).then(function (form) { return unsent(url, body, form); });
    });
  };
  // A 503 (the server up, its database not: nothing was saved) is kept for later too, its key unchanged.
  return fetch(event.request).then(function (response) {
    return response.status === 503 ? keepIt() : response;
  }, keepIt);
}

// A versioned file (?v=<its digest>, see tournament/web/static_files.py) never changes: the kept copy first, and
// the other versions of that file are dropped when a new one is kept. Anything else: the network first.
function staticFile(event) {
  var request = event.request;
  var url = new URL(request.url);
  var versioned = url.searchParams.has("v");
  return caches.open(STATIC_FILES).then(function (cache) {
    function fromNetwork() {
      return fetch(request).then(function (response) {
        if (versioned && keepable(response)) event.waitUntil(replaceVersions(cache, url, response.clone()));
        return response;
      }, function (error) {
        // No network: the copy kept of this file in another version will do (the service worker's own pages
        // name the files without their version).
        return cache.match(request.url, { ignoreSearch: true }).then(function (other) {
          if (other) return other;
          throw error;
        });
      });
    }
    if (!versioned) return fromNetwork();
    return cache.match(request.url).then(function (found) { return found || fromNetwork(); });
  });
}

function replaceVersions(cache, url, response) {
  return cache.keys().then(function (requests) {
    return Promise.all(requests.filter(function (old) {
      var kept = new URL(old.url);
      return kept.pathname === url.pathname && kept.search !== url.search;
    }).map(function (old) { return cache.delete(old); }));
  }).then(function () { return cache.put(url.href, response); });
}

self.addEventListener("install", function () {
  self.skipWaiting();
});

self.addEventListener("activate", function (event) {
  event.waitUntil(caches.keys().then(function (names) {
    return Promise.all(names.filter(function (name) { return KEPT.indexOf(name) < 0; })
      .map(function (name) { return caches.delete(name); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (event) {
  var request = event.request;
  var url = new URL(request.url);
  if (url.origin !== self.location.origin) return;
  if (request.method !== "GET") {
    // Whoever logs out or in, the staff pages kept so far are not theirs to see.
    if (LOGIN_CHANGE.test(url.pathname)) event.waitUntil(forgetStaff());
    // A hand form's POST goes to the network as it is and its answer is never kept; only a failure is caught.
    if (request.method === "POST" && request.mode === "navigate" && HAND_FORM.test(url.pathname)) {
      event.respondWith(handForm(event, url));
    } else if (request.method === "POST" && request.mode === "navigate") {
      // the page it was sent from: a player's pages send no referrer (their address holds the link's token), and
      // their forms' addresses start with the page's own
      var own = PLAYER_POST.exec(url.pathname);
      var from = own ? new URL(own[1], self.location.origin) : request.referrer ? new URL(request.referrer) : null;
      var store = from && from.origin === self.location.origin ? storeFor(from.pathname) : null;
      if (store && store !== STATIC_FILES) event.respondWith(notSent(event, from, store));
    }
    return;
  }
  var store = storeFor(url.pathname);
  if (store === STATIC_FILES) {
    event.respondWith(staticFile(event));
  } else if (store && request.mode === "navigate") {
    event.respondWith(page(event, store));
  }
});

// A page loaded before this worker took charge asks for itself, its files and the pages it links to for use at
// the table ([data-offline-keep]) to be kept: only what this worker would keep anyway, fetched with this
// browser's own credentials.
self.addEventListener("message", function (event) {
  var data = event.data || {};
  if (data.type !== "keep" || !Array.isArray(data.urls)) return;
  event.waitUntil(Promise.all(data.urls.slice(0, 40).map(function (address) {
    var url;
    try { url = new URL(address, self.location.origin); } catch (e) { return null; }
    var store = url.origin === self.location.origin ? storeFor(url.pathname) : null;
    if (!store) return null;
    url.hash = "";
    if (store === STATIC_FILES && !url.searchParams.has("v")) return null;
    var generation = staffGeneration;
    return caches.open(store).then(function (cache) {
      return cache.match(url.href).then(function (found) {
        if (found && store === STATIC_FILES) return null;
        // A versioned file never changes: the copy the page itself just fetched (in the browser's cache, kept a
        // year) will do, instead of a second download on the venue's wifi. A page is asked for afresh.
        var fresh = store === STATIC_FILES ? "default" : "no-store";
        return fetch(url.href, { credentials: "same-origin", cache: fresh }).then(function (response) {
          if (keepable(response)) return store === STATIC_FILES ? replaceVersions(cache, url, response)
            : keep(store, url.href, response, generation);
          if (store !== STATIC_FILES && (response.status === 404 || response.redirected)) return cache.delete(url.href);
          return null;
        });
      });
    }).catch(function () { return null; });
  })));
});
