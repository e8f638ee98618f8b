// A new tournament's time zone: the browser's own, when the server knew none better (no earlier tournament of
// this organiser's). Only an untouched select is set, and only to a zone it offers; without JavaScript, UTC stays.
(function () {
  "use strict";
  var select = document.querySelector("[data-browser-zone] select");
  if (!select || !window.Intl) return;
  var zone = "";
  try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { return; }
  var offered = Array.prototype.some.call(select.options, function (option) { return option.value === zone; });
  if (zone && offered && select.selectedIndex <= 0) select.value = zone;
}());
