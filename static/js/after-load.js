// Scripts a page needs only once it is up (issue 21 item 13): named in data-scripts="url url" on this script's
// tag, each is fetched after the page's load event, so on a slow venue network their bytes do not hold up the
// files the page needs to be used. Each such script must work whenever it runs (it checks document.readyState).
(function () {
  "use strict";
  var tag = document.currentScript;
  var urls = ((tag && tag.getAttribute("data-scripts")) || "").split(/\s+/).filter(Boolean);

  function load() {
    urls.forEach(function (url) {
      var script = document.createElement("script");
      script.src = url;
      document.body.appendChild(script);
    });
  }

  if (document.readyState === "complete") load();
  else window.addEventListener("load", load);
}());
