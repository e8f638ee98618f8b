// Hand entry at the table: keeps the live score's hidden win context in step with the form.
// No inline script. Works with static/js/hand-score.js and static/js/tile-picker.js.
//
// Contract (markup):
//   <form data-hand-entry data-winds='{"1": {"prevalent": "E", "seats": {"<player id>": "E", ...}}, ...}'>
//     the hand number field (name="number"), the result radios (name="result": win | draw),
//     the winner and discarder selects (name="winner_id", name="discarder_id"; "" = self-drawn),
//     hidden inputs [data-entry=seat_wind], [data-entry=prevalent_wind], [data-entry=self_drawn]
//     (they carry data-hand-param so hand-score.js sends them), [data-entry=win-fields] (hidden on a draw),
//     [data-entry=winds-note] (says who is dealer and the winner's seat wind), and an optional
//     [data-entry=convert] button shown when the engine says the claim is a false mahjong.
(function () {
  "use strict";

  var NAMES = { E: "East", S: "South", W: "West", N: "North" };

  function setup(form) {
    var winds = {};
    try { winds = JSON.parse(form.getAttribute("data-winds") || "{}"); } catch (e) { winds = {}; }
    var number = form.elements.namedItem("number");
    var winner = form.elements.namedItem("winner_id");
    var discarder = form.elements.namedItem("discarder_id");
    var seat = form.querySelector("[data-entry=seat_wind]");
    var prevalent = form.querySelector("[data-entry=prevalent_wind]");
    var selfDrawn = form.querySelector("[data-entry=self_drawn]");
    var winFields = form.querySelector("[data-entry=win-fields]");
    var note = form.querySelector("[data-entry=winds-note]");
    var convert = form.querySelector("[data-entry=convert]");

    function result() {
      var checked = form.querySelector("input[name=result]:checked");
      return checked ? checked.value : "win";
    }

    function labelOptions(hand) {
      [winner, discarder].forEach(function (select) {
        if (!select) return;
        Array.prototype.forEach.call(select.options, function (option) {
          if (!option.value) return;
          if (!option.hasAttribute("data-name")) option.setAttribute("data-name", option.textContent);
          var wind = hand && hand.seats[option.value];
          option.textContent = option.getAttribute("data-name") + (wind ? " (" + NAMES[wind] + ")" : "");
        });
      });
    }

    function update(announce) {
      var hand = winds[number && number.value];
      labelOptions(hand);
      var isWin = result() === "win";
      if (winFields) winFields.hidden = !isWin;
      if (!hand) {
        if (note) note.textContent = "";
        return;
      }
      prevalent.value = hand.prevalent;
      var chosen = winner && winner.value;
      seat.value = (chosen && hand.seats[chosen]) || "E";
      selfDrawn.value = discarder && discarder.value ? "0" : "1";
      if (note) {
        var dealer = "";
        Object.keys(hand.seats).forEach(function (id) {
          if (hand.seats[id] === "E" && winner) {
            var option = winner.querySelector('option[value="' + id + '"]');
            if (option) dealer = option.getAttribute("data-name") || option.textContent;
          }
        });
        note.textContent = "Hand " + number.value + ": " + NAMES[hand.prevalent] + " round, dealer " + dealer +
          (chosen ? "; the winner sits " + NAMES[seat.value] : "") + ".";
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
      convert.hidden = !(verdict === "under_minimum" || verdict === "not_winning") || !(winner && winner.value);
    });
    update(true);
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form[data-hand-entry]"), setup);
  });
}());
