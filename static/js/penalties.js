// The penalty form fills in the ladder's next rung (MERS 3.1: warning, 5, 10, 20 ...) when the referee
// chooses the player and the foul, for the session in play; the referee may still type another amount.
(function () {
  "use strict";
  var form = document.querySelector("form[data-penalty-ladder]");
  if (!form) return;
  var ladder = {};
  try { ladder = JSON.parse(form.getAttribute("data-penalty-ladder") || "{}"); } catch (e) { return; }
  var inPlay = form.getAttribute("data-ladder-session");
  var player = form.querySelector("[name=player_id]");
  var foul = form.querySelector("[name=foul]");
  var session = form.querySelector("[name=session]");
  var amount = form.querySelector("[name=amount]");
  if (!player || !foul || !amount) return;
  var typed = false;
  amount.addEventListener("input", function () { typed = true; });
  function suggest() {
    if (typed || !player.value || !foul.value) return;
    if (session && inPlay && session.value !== inPlay) return;
    var next = ladder[player.value + "|" + foul.value];
    amount.value = next === undefined ? 0 : next;
  }
  player.addEventListener("change", suggest);
  foul.addEventListener("change", suggest);
  // Chosen before this script ran (a slow phone): suggested now, unless the page came back with an amount.
  if (!amount.defaultValue) suggest();
})();
