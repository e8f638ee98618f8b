// Tile picker: builds a hand in MCR notation by clicking tiles.
// Its markup contract and behaviour: static/js/README.md (kept there: a phone on venue wifi fetches this file).
(function () {
  "use strict";

  var ENGLISH = {
    suits: { m: "characters", p: "dots", s: "bamboo" },
    honours: { E: "East wind", S: "South wind", W: "West wind", N: "North wind",
      C: "Red dragon", F: "Green dragon", P: "White dragon" },
    "short": { E: "East", S: "South", W: "West", N: "North", C: "Red", F: "Green", P: "White" },
    tile: "{ranks} {suit}",
    chow: "Chow [ ]", chow_aria: "Melded chow: then pick its lowest tile",
    pung: "Pung [ ]", pung_aria: "Melded pung: then pick its tile",
    kong: "Kong [ ]", kong_aria: "Melded kong: then pick its tile",
    concealed: "Concealed kong { }", concealed_aria: "Concealed kong: then pick its tile",
    run: "Run", run_aria: "Run mode: each tile adds a run of three in the hand, from that tile up",
    three: "Three", three_aria: "Three mode: each tile adds three of it in the hand",
    pair: "Pair", pair_aria: "Pair mode: each tile adds two of it in the hand",
    pick_chow: "Pick the lowest tile of the chow.",
    pick_pung: "Pick the tile of the pung.",
    pick_kong: "Pick the tile of the kong.",
    pick_concealed: "Pick the tile of the concealed kong.",
    pick_run: "Runs in the hand: pick the lowest tile of each; Run again for single tiles.",
    pick_three: "Threes in the hand: pick each tile; Three again for single tiles.",
    pick_pair: "Pairs in the hand: pick each tile; Pair again for single tiles.",
    picker: "Tile picker",
    tools: "Picker tools",
    back: "Back", back_long: "remove the last tile or set",
    clear: "Clear", clear_long: "clear the hand",
    honour_grid: "Winds and dragons",
    unreadable: "The picker cannot read the text: correct it, or press Clear.",
    only_four: "There are only four {tile} tiles.",
    hand_full: "The hand already has {n} tiles.",
    chow_numbers: "A chow is three numbers in a row of one suit: pick a number tile.",
    run_numbers: "A run is three numbers in a row of one suit: pick a number tile.",
    max_sets: "At most four declared sets.",
    no_room_set: "No room for another set in a {n}-tile hand.",
    no_room_tiles: "No room for {count} more tiles in a {n}-tile hand.",
    count_unknown: "tile count unknown",
    count: "{n} of {total} tiles",
    cannot_read: "The picker cannot read this text.",
    unreadable_words: "unreadable text",
    empty: "Click tiles below, or type.",
    no_tiles: "no tiles yet",
    concealed_set: "concealed", melded_set: "melded",
    concealed_words: "concealed {tiles}", melded_words: "melded {tiles}",
    winning_words: "winning tile {tile}",
    hand_words: "Hand: {words}"
  };
  var Z = "ESWNCFP";
  var HAND_TILES = 14;
  var MAX_SETS = 4;
  // Declared sets: one set, then back to single tiles.
  var MODES = { chow: { size: 3 }, pung: { size: 3 }, kong: { size: 4 }, concealed: { size: 4 } };
  // Groups in the concealed hand: the mode stays on, so a hand of four runs and a pair is seven taps
  // ("Run", four lowest tiles, "Pair", the pair's tile; the last tile added is the winning tile).
  var GROUPS = { run: { size: 3 }, three: { size: 3 }, pair: { size: 2 } };
  var ALL_MODES = Object.assign({}, MODES, GROUPS);
  var T = ENGLISH;  // the words of the picker being drawn (one language per page)

  // T[key] with its {name} marks filled in from values.
  function word(key, values) {
    return pageWords.fill(T[key], values);
  }

  // The words of the picker of this field: English, or the page's language (data-tile-picker-texts).
  function wordsOf(input) {
    return pageWords.read(ENGLISH, input, "data-tile-picker-texts").texts;
  }

  function isHonour(code) { return code.length === 1; }

  function tileLabel(code) {
    if (isHonour(code)) return T.honours[code];
    return word("tile", { ranks: code.charAt(0), suit: T.suits[code.charAt(1)] });
  }

  function tileElement(tag, code) {
    var el = document.createElement(tag);
    el.className = "tile " + (isHonour(code) ? "tile-honour tile-" + code : "tile-" + code.charAt(1));
    var rank = document.createElement("span");
    rank.className = "tile-rank";
    rank.textContent = isHonour(code) ? code : code.charAt(0);
    var suit = document.createElement("span");
    suit.className = "tile-suit";
    suit.textContent = isHonour(code) ? T["short"][code] : code.charAt(1);
    rank.setAttribute("aria-hidden", "true");
    suit.setAttribute("aria-hidden", "true");
    el.appendChild(rank);
    el.appendChild(suit);
    return el;
  }

  // Tiles of a run of tokens ("123m45pE", "1234z"), or null when something else is in it.
  function readTiles(text) {
    var out = [];
    var re = /([1-9]+)([msp])|([1-7]+)z|([ESWNCFP])/g;
    var used = 0;
    var m;
    while ((m = re.exec(text)) !== null) {
      if (m.index !== used) return null;
      used = re.lastIndex;
      if (m[1]) m[1].split("").forEach(function (d) { out.push(d + m[2]); });
      else if (m[3]) m[3].split("").forEach(function (d) { out.push(Z.charAt(+d - 1)); });
      else out.push(m[4]);
    }
    return used === text.length ? out : null;
  }

  // {sets: [{concealed, tiles}], tiles: [...], error} read from the text, as far as the picker needs it
  // (the engine says what is wrong in detail: the picker only needs to know it cannot build on it).
  function parse(text) {
    var s = text.replace(/[ \t]/g, "");
    var hand = { sets: [], tiles: [], error: "" };
    var i = 0;
    while (i < s.length) {
      var ch = s.charAt(i);
      if (ch === "[" || ch === "{") {
        var close = ch === "[" ? "]" : "}";
        var j = i + 1;
        while (j < s.length && "[]{}".indexOf(s.charAt(j)) < 0) j++;
        var body = j < s.length && s.charAt(j) === close ? readTiles(s.slice(i + 1, j)) : null;
        if (body === null || hand.tiles.length) { hand.error = "unreadable"; return hand; }
        hand.sets.push({ concealed: ch === "{", tiles: body });
        i = j + 1;
      } else {
        var k = i;
        while (k < s.length && "[{".indexOf(s.charAt(k)) < 0) k++;
        var tiles = readTiles(s.slice(i, k));
        if (tiles === null) { hand.error = "unreadable"; return hand; }
        hand.tiles = hand.tiles.concat(tiles);
        i = k;
      }
    }
    return hand;
  }

  // "1m 2m 3m 5p 5p" -> "123m55p": a run of digits shares its suit letter; order is kept (winning tile last).
  function compact(tiles) {
    var out = "";
    var pendingSuit = "";
    tiles.forEach(function (code) {
      if (isHonour(code)) {
        out += pendingSuit + code;
        pendingSuit = "";
        return;
      }
      var suit = code.charAt(1);
      if (pendingSuit && pendingSuit !== suit) out += pendingSuit;
      out += code.charAt(0);
      pendingSuit = suit;
    });
    return out + pendingSuit;
  }

  function write(hand) {
    return hand.sets.map(function (set) {
      var body = compact(set.tiles);
      return set.concealed ? "{" + body + "}" : "[" + body + "]";
    }).join("") + compact(hand.tiles);
  }

  function tileCount(hand) { return hand.sets.length * 3 + hand.tiles.length; }

  function copies(hand, code) {
    var n = 0;
    hand.sets.forEach(function (set) { set.tiles.forEach(function (t) { if (t === code) n++; }); });
    hand.tiles.forEach(function (t) { if (t === code) n++; });
    return n;
  }

  // The accessible name starts with the visible text (speech users say what they see), then the long form
  // in a visually hidden span: "Back (remove the last tile or set)", "1 m (1 characters)".
  function hiddenText(text) {
    var span = document.createElement("span");
    span.className = "visually-hidden";
    span.textContent = text;
    return span;
  }

  function button(label, long, className, icon) {
    var b = document.createElement("button");
    b.type = "button";
    if (icon) {
      var mark = document.createElement("span");
      mark.setAttribute("aria-hidden", "true");
      mark.textContent = icon + " ";
      b.appendChild(mark);
    }
    b.appendChild(document.createTextNode(label));
    if (long) b.appendChild(hiddenText(" (" + long + ")"));
    if (className) b.className = className;
    return b;
  }

  function enhance(input) {
    T = wordsOf(input);
    var mode = "";
    var box = document.createElement("div");
    box.className = "tile-picker";
    box.setAttribute("role", "group");
    box.setAttribute("aria-label", T.picker);

    var row = document.createElement("div");
    row.className = "picker-hand-row";
    var shown = document.createElement("div");
    shown.className = "picker-hand";
    shown.setAttribute("role", "img");
    var count = document.createElement("span");
    count.className = "picker-count";
    row.appendChild(shown);
    row.appendChild(count);

    var message = document.createElement("p");
    message.className = "picker-message";
    message.setAttribute("role", "status");

    // One tab stop for the tools and one for the tiles; arrow keys move inside them (roving focus).
    var tools = document.createElement("div");
    tools.className = "picker-tools";
    tools.setAttribute("role", "toolbar");
    tools.setAttribute("aria-label", T.tools);
    var modeButtons = {};
    Object.keys(GROUPS).concat(Object.keys(MODES)).forEach(function (name) {
      var b = button(T[name], T[name + "_aria"], GROUPS[name] ? "picker-group" : "");
      b.setAttribute("aria-pressed", "false");
      b.dataset.pickerMode = name;
      b.addEventListener("click", function () { setMode(mode === name ? "" : name); });
      modeButtons[name] = b;
      tools.appendChild(b);
    });
    var back = button(T.back, T.back_long, "picker-danger", "⌫");
    var clear = button(T.clear, T.clear_long, "picker-danger");
    tools.appendChild(back);
    tools.appendChild(clear);
    roving(Array.prototype.slice.call(tools.querySelectorAll("button")), function (items, index, key) {
      if (key === "ArrowRight" || key === "ArrowDown") return (index + 1) % items.length;
      if (key === "ArrowLeft" || key === "ArrowUp") return (index + items.length - 1) % items.length;
      if (key === "Home") return 0;
      if (key === "End") return items.length - 1;
      return -1;
    });

    var grids = document.createElement("div");
    grids.className = "picker-grids";
    var tileButtons = {};
    var rows = [];
    ["m", "p", "s", "honours"].forEach(function (suit) {
      var row = [];
      var grid = document.createElement("div");
      grid.className = "picker-grid";
      grid.setAttribute("role", "group");
      grid.setAttribute("aria-label", suit === "honours" ? T.honour_grid : T.suits[suit]);
      var codes = suit === "honours" ? ["E", "S", "W", "N", "", "C", "F", "P"]
        : [1, 2, 3, 4, 5, 6, 7, 8, 9].map(function (d) { return d + suit; });
      codes.forEach(function (code, column) {
        if (!code) { grid.appendChild(document.createElement("span")); return; }
        var b = tileElement("button", code);
        b.type = "button";
        // Named by what it shows, then the long form: "1 m (1 characters)", "E East (East wind)".
        b.querySelectorAll("[aria-hidden]").forEach(function (part) { part.removeAttribute("aria-hidden"); });
        b.insertBefore(hiddenText(" "), b.lastChild);
        b.appendChild(hiddenText(" (" + tileLabel(code) + ")"));
        b.dataset.tile = code;
        b.dataset.row = String(rows.length);
        b.dataset.col = String(column);
        b.addEventListener("click", function () { pick(code); });
        tileButtons[code] = b;
        grid.appendChild(b);
        row.push(b);
      });
      rows.push(row);
      grids.appendChild(grid);
    });
    // Left and right go through the tiles in order; up and down to the same place in the suit above or
    // below (the nearest tile in the winds and dragons, which have a gap); Home and End to the row's ends.
    roving(rows.reduce(function (all, r) { return all.concat(r); }, []), function (items, index, key) {
      var here = items[index];
      var r = +here.dataset.row;
      var c = +here.dataset.col;
      if (key === "ArrowRight") return Math.min(index + 1, items.length - 1);
      if (key === "ArrowLeft") return Math.max(index - 1, 0);
      if (key === "Home") return items.indexOf(rows[r][0]);
      if (key === "End") return items.indexOf(rows[r][rows[r].length - 1]);
      if (key === "ArrowUp" || key === "ArrowDown") {
        var target = rows[r + (key === "ArrowUp" ? -1 : 1)];
        if (!target) return index;
        var best = target[0];
        target.forEach(function (b) {
          if (Math.abs(+b.dataset.col - c) < Math.abs(+best.dataset.col - c)) best = b;
        });
        return items.indexOf(best);
      }
      return -1;
    });

    box.appendChild(row);
    box.appendChild(message);
    box.appendChild(tools);
    box.appendChild(grids);
    var target = input.dataset.tilePicker && document.getElementById(input.dataset.tilePicker);
    if (target) target.appendChild(box);
    else {
      var anchor = input.closest(".field") || input;
      anchor.parentNode.insertBefore(box, anchor.nextSibling);
    }

    function say(text, info) {
      message.textContent = text || "";
      message.classList.toggle("is-info", !!info);
    }

    function setMode(name) {
      mode = name;
      Object.keys(modeButtons).forEach(function (n) {
        modeButtons[n].setAttribute("aria-pressed", n === mode ? "true" : "false");
      });
      if (mode) say(word("pick_" + mode), true);
      else say("");
      render();
    }

    function store(hand) {
      input.value = write(hand);
      input.dispatchEvent(new Event("input", { bubbles: true }));
    }

    function pick(code) {
      var hand = parse(input.value);
      if (hand.error) { say(word("unreadable")); return; }
      if (!mode) {
        if (copies(hand, code) >= 4) { say(word("only_four", { tile: tileLabel(code) })); return; }
        if (tileCount(hand) >= HAND_TILES) { say(word("hand_full", { n: HAND_TILES })); return; }
        hand.tiles.push(code);
        say("");
        store(hand);
        return;
      }
      if (GROUPS[mode]) { addGroup(hand, code); return; }
      var tiles;
      if (mode === "chow") {
        if (isHonour(code)) { say(word("chow_numbers")); return; }
        var low = Math.min(+code.charAt(0), 7);
        tiles = [low, low + 1, low + 2].map(function (d) { return d + code.charAt(1); });
      } else {
        tiles = [];
        for (var i = 0; i < MODES[mode].size; i++) tiles.push(code);
      }
      if (hand.sets.length >= MAX_SETS) { say(word("max_sets")); return; }
      if (tileCount(hand) + 3 > HAND_TILES) { say(word("no_room_set", { n: HAND_TILES })); return; }
      for (var k = 0; k < tiles.length; k++) {
        var need = tiles.filter(function (t) { return t === tiles[k]; }).length;
        if (copies(hand, tiles[k]) + need > 4) { say(word("only_four", { tile: tileLabel(tiles[k]) })); return; }
      }
      hand.sets.push({ concealed: mode === "concealed", tiles: tiles });
      mode = "";
      setMode("");
      store(hand);
    }

    function groupTiles(code) {
      if (mode !== "run") {
        var same = [];
        for (var i = 0; i < GROUPS[mode].size; i++) same.push(code);
        return same;
      }
      var low = Math.min(+code.charAt(0), 7);
      return [low, low + 1, low + 2].map(function (d) { return d + code.charAt(1); });
    }

    // A run, three or pair added to the concealed tiles; the mode stays on for the next group.
    function addGroup(hand, code) {
      if (mode === "run" && isHonour(code)) { say(word("run_numbers")); return; }
      var tiles = groupTiles(code);
      if (tileCount(hand) + tiles.length > HAND_TILES) {
        say(word("no_room_tiles", { count: tiles.length, n: HAND_TILES }));
        return;
      }
      for (var k = 0; k < tiles.length; k++) {
        var need = tiles.filter(function (t) { return t === tiles[k]; }).length;
        if (copies(hand, tiles[k]) + need > 4) { say(word("only_four", { tile: tileLabel(tiles[k]) })); return; }
      }
      hand.tiles = hand.tiles.concat(tiles);
      if (tileCount(hand) >= HAND_TILES) setMode("");  // the hand is complete: back to single tiles
      else say("");
      store(hand);
    }

    back.addEventListener("click", function () {
      var hand = parse(input.value);
      if (hand.error) { say(word("unreadable")); return; }
      if (hand.tiles.length) hand.tiles.pop();
      else if (hand.sets.length) hand.sets.pop();
      else return;
      say("");
      store(hand);
    });

    clear.addEventListener("click", function () {
      setMode("");
      store({ sets: [], tiles: [] });
      input.focus();
    });

    function render() {
      var hand = parse(input.value);
      shown.textContent = "";
      var n = tileCount(hand);
      count.textContent = hand.error ? "?/" + HAND_TILES : n + "/" + HAND_TILES;
      count.setAttribute("aria-label", hand.error ? word("count_unknown") : word("count", { n: n, total: HAND_TILES }));
      count.classList.toggle("is-complete", !hand.error && n === HAND_TILES);
      count.classList.toggle("is-over", !hand.error && n > HAND_TILES);
      var words = [];
      if (hand.error) {
        var p = document.createElement("p");
        p.className = "empty";
        p.textContent = word("cannot_read");
        shown.appendChild(p);
        words.push(word("unreadable_words"));
      } else if (!n) {
        var e = document.createElement("p");
        e.className = "empty";
        e.textContent = word("empty");
        shown.appendChild(e);
        words.push(word("no_tiles"));
      }
      if (!hand.error) {
        hand.sets.forEach(function (set) {
          var group = document.createElement("span");
          group.className = "picker-set" + (set.concealed ? " picker-set-concealed" : "");
          var label = document.createElement("span");
          label.className = "picker-set-label";
          label.textContent = word(set.concealed ? "concealed_set" : "melded_set");
          group.appendChild(label);
          set.tiles.forEach(function (code) { group.appendChild(tileElement("span", code)); });
          shown.appendChild(group);
          words.push(word(set.concealed ? "concealed_words" : "melded_words", { tiles: set.tiles.map(tileLabel).join(" ") }));
        });
        hand.tiles.forEach(function (code, index) {
          var el = tileElement("span", code);
          if (index === hand.tiles.length - 1) el.classList.add("tile-winning");
          shown.appendChild(el);
        });
        if (hand.tiles.length) {
          words.push(word("concealed_words", { tiles: hand.tiles.slice(0, -1).map(tileLabel).join(", ") }));
          words.push(word("winning_words", { tile: tileLabel(hand.tiles[hand.tiles.length - 1]) }));
        }
      }
      shown.setAttribute("aria-label", word("hand_words", { words: words.join("; ") }));
      Object.keys(tileButtons).forEach(function (code) {
        var full = !hand.error && copies(hand, code) >= 4;
        // a set or group needs its tiles still free (a pung or kong that many copies)
        var noChow = (mode === "chow" || mode === "run") && isHonour(code);
        var noSet = mode && !hand.error && !noChow && groupFull(hand, code);
        tileButtons[code].setAttribute("aria-disabled", full || noChow || noSet ? "true" : "false");
      });
    }

    function groupFull(hand, code) {
      if (mode === "chow" || mode === "run") {
        var low = Math.min(+code.charAt(0), 7);
        return [low, low + 1, low + 2].some(function (d) { return copies(hand, d + code.charAt(1)) >= 4; });
      }
      return copies(hand, code) + ALL_MODES[mode].size > 4;
    }

    input.addEventListener("input", render);
    render();
  }

  // Roving focus: one of `items` is in the tab order (the last one used); `next(items, index, key)` says
  // which item an arrow key moves to (-1: not ours, the browser keeps the key).
  function roving(items, next) {
    if (!items.length) return;
    items.forEach(function (b, i) {
      b.tabIndex = i === 0 ? 0 : -1;
      b.addEventListener("focus", function () {
        items.forEach(function (other) { other.tabIndex = other === b ? 0 : -1; });
      });
      b.addEventListener("keydown", function (event) {
        if (event.altKey || event.ctrlKey || event.metaKey) return;
        var to = next(items, items.indexOf(b), event.key);
        if (to < 0) return;
        event.preventDefault();
        items[to].focus();
      });
    });
  }

  function init() {
    Array.prototype.forEach.call(document.querySelectorAll("input[data-tile-picker]"), function (input) {
      if (input.dataset.tilePickerReady) return;
      input.dataset.tilePickerReady = "1";
      enhance(input);
    });
  }

  window.TilePicker = { init: init, parse: parse, write: write };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
