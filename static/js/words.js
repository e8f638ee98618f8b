// The page scripts' word reader. Its contract: static/js/README.md (kept there: a phone fetches this file).
var pageWords = (function () {
  "use strict";
  function fill(text, values) {
    return String(text).replace(/\{(\w+)\}/g, function (whole, name) {
      var known = values && Object.prototype.hasOwnProperty.call(values, name) && values[name] !== undefined;
      return known ? String(values[name]) : whole;
    });
  }
  function read(english, element, attribute, section) {
    var own = {}, texts = {};
    try { own = JSON.parse((element && element.getAttribute(attribute)) || "{}") || {}; } catch (e) { own = {}; }
    if (section) own = own[section] || {};
    Object.keys(english).forEach(function (key) { texts[key] = english[key]; });
    Object.keys(typeof own === "object" ? own : {}).forEach(function (key) {
      var word = own[key];
      if (word === null || word === "" || (key in english && typeof word !== typeof english[key])) return;
      texts[key] = word;
    });
    function say(key, values) { return fill(texts[key], values); }
    say.texts = texts;
    say.count = function (key, n) { return say(key + (n === 1 ? "_one" : "_other"), { num: n }); };
    return say;
  }
  return { fill: fill, read: read };
}());
