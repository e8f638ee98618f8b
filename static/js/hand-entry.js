// Hand entry at the table: keeps the live score's hidden win context and the seat buttons' winds in step.
// Its markup contract and behaviour: static/js/README.md (kept there: a phone on venue wifi fetches this file).
(function () {
  "use strict";

  // Its words in the page's language (<html data-script-texts>, templates/_script_texts.html), else English
  // (static/js/words.js reads them).
  var word = pageWords.read({
    winds: { E: "East", S: "South", W: "West", N: "North" }, hand: "Hand {number}", round: "{wind} round",
    dealer: "dealer {name}", winner: "the winner sits {wind}"
  }, document.documentElement, "data-script-texts", "hands");
  var NAMES = word.texts.winds;
  var INITIALS = word.texts.initials || {};  // a badge's letter in the page's language (Finnish I, E, L, P)
  var SELF_DRAWN = "self";

  function setup(form) {
    var winds = {};
    try { winds = JSON.parse(form.getAttribute("data-winds") || "{}"); } catch (e) { winds = {}; }
    var number = form.elements.namedItem("number");
    var seat = form.querySelector("[data-entry=seat_wind]");
    var prevalent = form.querySelector("[data-entry=prevalent_wind]");
    var selfDrawn = form.querySelector("[data-entry=self_drawn]");
    var winFields = form.querySelector("[data-entry=win-fields]");
    var note = form.querySelector("[data-entry=winds-note]");
    var convert = form.querySelector("[data-entry=convert]");

    function checked(name) {
      var input = form.querySelector("input[name=" + name + "]:checked");
      return input ? input.value : "";
    }

    function nameOf(id) {
      var face = form.querySelector('input[name=winner_id][value="' + id + '"]');
      var label = face && face.closest("label");
      var name = label && label.querySelector(".seat-choice-name");
      return name ? name.textContent : "";
    }

    // The seat buttons show each player's wind in the hand being entered (winds turn every four hands).
    function showWinds(hand) {
      if (!hand) return;
      Object.keys(hand.seats).forEach(function (id) {
        var wind = hand.seats[id];
        form.querySelectorAll('[data-seat-wind="' + id + '"]').forEach(function (badge) {
          badge.textContent = INITIALS[wind] || wind;
          badge.className = "wind wind-" + wind;
        });
        form.querySelectorAll('[data-seat-wind-name="' + id + '"]').forEach(function (spoken) {
          spoken.textContent = NAMES[wind] + ": ";
        });
      });
    }

    function update(announce) {
      var hand = winds[number && number.value];
      showWinds(hand);
      var isWin = (checked("result") || "win") === "win";
      if (winFields) winFields.hidden = !isWin;
      if (!hand) {
        if (note) note.textContent = "";
        return;
      }
      prevalent.value = hand.prevalent;
      var chosen = checked("winner_id");
      seat.value = (chosen && hand.seats[chosen]) || "E";
      // Until the discarder is chosen the engine scores the hand as won on a discard.
      selfDrawn.value = checked("discarder_id") === SELF_DRAWN ? "1" : "0";
      if (note) {
        var dealer = "";
        Object.keys(hand.seats).forEach(function (id) { if (hand.seats[id] === "E") dealer = nameOf(id); });
        note.textContent = word("hand", { number: number.value }) + ": " +
          word("round", { wind: NAMES[hand.prevalent] }) + ", " +
          word("dealer", { name: dealer }) +
          (chosen ? "; " + word("winner", { wind: NAMES[seat.value] }) : "") + ".";
      }
      // Tell the live score that its context changed.
      if (announce) seat.dispatchEvent(new Event("input", { bubbles: true }));
    }

    ["change", "input"].forEach(function (type) {
      form.addEventListener(type, function (event) {
        var name = event.target && event.target.name;
        if (name === "number" || name === "result" || name === "winner_id" || name === "discarder_id") update(true);
      });
    });
    form.addEventListener("hand-score", function (event) {
      if (!convert) return;
      var verdict = event.detail && event.detail.verdict;
      convert.hidden = !(verdict === "under_minimum" || verdict === "not_winning") || !checked("winner_id");
    });
    update(true);
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-hand-entry]"), setup);
  });
}());
