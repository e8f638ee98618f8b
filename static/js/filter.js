// Filter a server-rendered list as the user types: <input data-filter="#list li">, items carry data-name.
(function () {
  document.querySelectorAll("input[data-filter]").forEach(function (input) {
    var items = document.querySelectorAll(input.dataset.filter);
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().trim().split(/\s+/).filter(Boolean);
      items.forEach(function (item) {
        var name = item.dataset.name || item.textContent.toLowerCase();
        item.hidden = !words.every(function (w) { return name.indexOf(w) !== -1; });
      });
    });
  });
})();
