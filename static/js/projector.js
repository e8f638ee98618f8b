// The projector loop: pages of the standings, then pages of the next session's seating by name, each
// shown for a few seconds, round and round. Data comes from the live JSON endpoints, revalidated with
// ETags (a 304 when nothing changed). Hidden standings (404) are simply left out of the loop.
// Keys: right/left arrow = next/previous page, space = pause.
(function () {
  "use strict";
  var root = document.getElementById("projector");
  if (!root || !window.fetch) { return; }

  var slideBox = document.getElementById("projector-slide");
  var titleBox = document.getElementById("projector-title");
  var pageBox = document.getElementById("projector-page");
  var bar = document.getElementById("projector-bar");
  var header = root.querySelector(".projector-head");
  var seconds = parseInt(root.getAttribute("data-seconds"), 10) || 15;
  var pollSeconds = parseInt(root.getAttribute("data-poll-seconds"), 10) || 10;
  var fixedRows = parseInt(root.getAttribute("data-rows"), 10) || 0;

  // The words shown, in the page's language when it gives them (data-projector-texts); {name} is filled in.
  var TEXTS = {
    time: "Time", clock: "Session {session} · {time}", standings_one: "Standings after session {last}",
    standings_many: "Standings after sessions {first}–{last}", seating: "Session {session}: your table and seat wind",
    welcome: "Welcome", rank: "Rank", player: "Player", table_points: "Table points", score: "Score",
    session: "Session {session}", empty: "Standings and seating appear here as soon as they are published.",
    decimal: ".", winds: {}
  };
  var say = pageWords.read(TEXTS, root, "data-projector-texts");
  TEXTS = say.texts;

  // Table points come as "1.75" in the JSON; the screen writes them as the page's language does (1,75).
  function points(text) { return String(text).replace(".", TEXTS.decimal); }

  var sources = {
    standings: { url: root.getAttribute("data-standings-url"), etag: "", data: null },
    seating: { url: root.getAttribute("data-seating-url"), etag: "", data: null }
  };
  var moved = {};          // player id -> places gained (+) or lost (-) at the last change
  var slides = [];
  var current = 0;
  var timer = null;
  var paused = false;

  function load(source) {
    var headers = { Accept: "application/json" };
    if (source.etag) { headers["If-None-Match"] = source.etag; }
    return fetch(source.url, { headers: headers, cache: "no-store", credentials: "same-origin" })
      .then(function (response) {
        if (response.status === 304) { return false; }
        if (response.status === 404 || response.status === 403) {  // hidden: leave it out
          var had = source.data !== null;
          source.data = null;
          source.etag = "";
          return had;
        }
        if (!response.ok) { throw new Error("HTTP " + response.status); }
        source.etag = response.headers.get("ETag") || "";
        return response.json().then(function (data) {
          if (source === sources.standings) { noteMoves(source.data, data); }
          source.data = data;
          return true;
        });
      })
      .catch(function () { return false; });  // offline: keep showing what we have
  }

  function noteMoves(before, after) {
    if (!before) { return; }
    var old = {};
    before.rows.forEach(function (r) { old[r.player_id] = r.rank; });
    moved = {};
    after.rows.forEach(function (r) {
      if (old[r.player_id] !== undefined && old[r.player_id] !== r.rank) { moved[r.player_id] = old[r.player_id] - r.rank; }
    });
  }

  function refresh() {
    return Promise.all([load(sources.standings), load(sources.seating)]).then(function (changes) {
      loadClock();
      return changes[0] || changes[1];
    });
  }

  // The session in play's clock in the corner: synced at each poll, counted down locally in between.
  var clockBox = document.getElementById("projector-clock");
  var clock = null;
  var offset = 0;  // the server's clock minus this screen's, in ms

  function loadClock() {
    var url = sources.seating.data && sources.seating.data.clock_url;
    if (!url) { clock = null; showClock(); return; }
    var sent = Date.now();
    fetch(url, { headers: { Accept: "application/json" }, cache: "no-store", credentials: "same-origin" })
      .then(function (response) { return response.ok ? response.json() : null; })
      .then(function (data) {
        clock = data;
        if (data && data.server_time) { offset = Date.parse(data.server_time) - (sent + Date.now()) / 2; }
        showClock();
      })
      .catch(function () { /* keep counting from what we had */ });
  }

  function two(n) { return (n < 10 ? "0" : "") + n; }

  function showClock() {
    if (!clock || clock.state === "not_started" || !sources.seating.data) { clockBox.hidden = true; return; }
    var seconds = clock.remaining_seconds;
    if (clock.state === "running" && clock.ends_at) {
      seconds = Math.max(0, Math.ceil((Date.parse(clock.ends_at) - (Date.now() + offset)) / 1000));
    }
    var h = Math.floor(seconds / 3600);
    var m = Math.floor((seconds % 3600) / 60);
    var time = seconds === 0 ? TEXTS.time : (h ? h + ":" + two(m) : m) + ":" + two(seconds % 60);
    clockBox.textContent = say("clock", { session: sources.seating.data.in_play, time: time });
    clockBox.classList.toggle("warning", Boolean(clock.warning) || seconds === 0);
    clockBox.classList.toggle("paused", clock.state === "paused");
    clockBox.hidden = false;
  }

  window.setInterval(showClock, 1000);

  // How many rows fit: the screen's height shared by readable rows (a hall needs big type).
  function rowsPerPage() {
    if (fixedRows) { return fixedRows; }
    var free = window.innerHeight - header.offsetHeight - 40;
    return Math.max(5, Math.min(20, Math.floor(free / Math.max(44, window.innerHeight / 15))));
  }

  function columns() {
    return window.innerWidth >= 1400 ? 3 : (window.innerWidth >= 900 ? 2 : 1);
  }

  function chunk(list, size) {
    var out = [];
    for (var i = 0; i < list.length; i += size) { out.push(list.slice(i, i + size)); }
    return out;
  }

  function build() {
    var rows = rowsPerPage();
    var out = [];
    var standings = sources.standings.data;
    if (standings && standings.rows.length && standings.session_numbers.length) {
      var n = standings.session_numbers;
      var pages = chunk(standings.rows, rows);
      pages.forEach(function (page, i) {
        out.push({ kind: "standings", rows: rows, items: page, page: i + 1, pages: pages.length,
                   title: n.length > 1 ? say("standings_many", { first: n[0], last: n[n.length - 1] })
                                       : say("standings_one", { last: n[0] }) });
      });
    }
    var seating = sources.seating.data;
    if (seating && seating.by_name.length) {
      var per = rows * columns();
      var seatPages = chunk(seating.by_name, per);
      seatPages.forEach(function (page, i) {
        out.push({ kind: "seating", rows: rows, items: page, page: i + 1, pages: seatPages.length,
                   title: say("seating", { session: seating.session }) });
      });
    }
    if (!out.length) { out.push({ kind: "empty", title: TEXTS.welcome, page: 1, pages: 1 }); }
    return out;
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) { node.className = className; }
    if (text !== undefined && text !== null) { node.textContent = String(text); }
    return node;
  }

  function renderStandings(slide) {
    var table = el("table", "projector-standings");
    var head = el("thead");
    var hr = el("tr");
    var last = sources.standings.data.session_numbers.slice(-1)[0];
    [[TEXTS.rank, "num"], [TEXTS.player, ""], ["", "country"], [TEXTS.table_points, "num"], [TEXTS.score, "num"],
     [say("session", { session: last }), "num last"]].forEach(function (c) {
      var th = el("th", c[1], c[0]);
      th.setAttribute("scope", "col");
      hr.appendChild(th);
    });
    head.appendChild(hr);
    table.appendChild(head);
    var body = el("tbody");
    slide.items.forEach(function (r) {
      var tr = el("tr");
      tr.id = "projector-player-" + r.player_id;
      var rank = el("td", "num rank", r.rank_label);
      var move = moved[r.player_id];
      if (move) {
        tr.classList.add(move > 0 ? "live-up" : "live-down");
        rank.appendChild(el("span", "move", (move > 0 ? "▲" : "▼") + Math.abs(move)));
      }
      tr.appendChild(rank);
      var name = el("th", "name", r.name);
      name.setAttribute("scope", "row");
      tr.appendChild(name);
      tr.appendChild(el("td", "country", r.country));
      tr.appendChild(el("td", "num strong", points(r.table_points)));
      tr.appendChild(el("td", "num", r.score));
      tr.appendChild(el("td", "num last", r.last ? points(r.last.table_points) + " · " + r.last.score : "–"));
      body.appendChild(tr);
    });
    table.appendChild(body);
    return table;
  }

  function renderSeating(slide) {
    var list = el("ol", "projector-seats");
    list.style.setProperty("--cols", columns());
    slide.items.forEach(function (s) {
      var li = el("li");
      li.appendChild(el("span", "who", s.name));
      var where = el("span", "where");
      where.appendChild(el("strong", "", s.table));
      where.appendChild(document.createTextNode(" "));
      where.appendChild(el("span", "wind wind-" + s.wind, TEXTS.winds[s.wind] || s.wind));  // Finnish I, E, L, P
      li.appendChild(where);
      list.appendChild(li);
    });
    return list;
  }

  // Rows share the free height exactly; the type follows the row height (and the width on narrow screens).
  function fitRows(table, rows) {
    var free = slideBox.clientHeight - table.tHead.offsetHeight;
    var rowHeight = Math.max(24, Math.floor(free / rows));
    table.style.setProperty("--row-h", rowHeight + "px");
    // Narrow screens drop two columns (CSS), so the names may use a larger share of the width.
    var perWidth = window.innerWidth < 900 ? 0.04 : 0.026;
    table.style.fontSize = Math.round(Math.min(rowHeight * 0.5, window.innerWidth * perWidth)) + "px";
  }

  function render() {
    var slide = slides[current];
    var body;
    if (slide.kind === "standings") { body = renderStandings(slide); }
    else if (slide.kind === "seating") { body = renderSeating(slide); }
    else { body = el("p", "projector-empty", TEXTS.empty); }
    slideBox.style.setProperty("--rows", slide.rows || 12);
    slideBox.setAttribute("data-kind", slide.kind);
    slideBox.setAttribute("data-page", slide.page);
    slideBox.replaceChildren(body);
    if (slide.kind === "standings") { fitRows(body, slide.rows); }
    titleBox.textContent = slide.title;
    pageBox.textContent = slide.pages > 1 ? slide.page + " / " + slide.pages : "";
    restartBar();
  }

  function restartBar() {
    bar.classList.remove("running");
    void bar.offsetWidth;  // restart the CSS animation
    bar.style.animationDuration = seconds + "s";
    if (!paused) { bar.classList.add("running"); }
  }

  function show(index) {
    current = (index + slides.length) % slides.length;
    render();
    window.clearTimeout(timer);
    if (!paused) { timer = window.setTimeout(advance, seconds * 1000); }
  }

  function advance() {
    if (current + 1 < slides.length) { show(current + 1); return; }
    // The end of the loop: start again from fresh data.
    refresh().then(function () { slides = build(); show(0); });
  }

  // Between page turns, keep the data fresh; redraw the page on screen if it changed.
  function poll() {
    refresh().then(function (changed) {
      if (changed) {
        var kind = slides[current] && slides[current].kind;
        var page = slides[current] && slides[current].page;
        slides = build();
        var same = slides.findIndex(function (s) { return s.kind === kind && s.page === page; });
        current = same >= 0 ? same : 0;
        render();
        window.clearTimeout(timer);
        if (!paused) { timer = window.setTimeout(advance, seconds * 1000); }
      }
    }).finally(function () { window.setTimeout(poll, pollSeconds * 1000); });
  }

  document.addEventListener("keydown", function (event) {
    if (event.key === "ArrowRight") { show(current + 1); }
    else if (event.key === "ArrowLeft") { show(current - 1); }
    else if (event.key === " ") {
      event.preventDefault();
      paused = !paused;
      root.classList.toggle("paused", paused);
      show(current);
    }
  });

  var resizeTimer = null;
  window.addEventListener("resize", function () {
    window.clearTimeout(resizeTimer);
    resizeTimer = window.setTimeout(function () { slides = build(); show(Math.min(current, slides.length - 1)); }, 300);
  });

  refresh().then(function () {
    slides = build();
    show(0);
    window.setTimeout(poll, pollSeconds * 1000);
  });
})();
