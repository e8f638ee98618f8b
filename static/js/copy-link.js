// "Copy the link" beside a link shown once (an invitation, a password reset): the button stays hidden without
// JavaScript or a clipboard, where the read-only field can still be selected and copied by hand.
(function () {
  "use strict";
  document.querySelectorAll("button[data-copy]").forEach(function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field || !navigator.clipboard) return;
    button.hidden = false;
    button.addEventListener("click", function () {
      field.select();
      navigator.clipboard.writeText(field.value).then(function () {
        button.textContent = "Copied";
      }, function () {
        button.textContent = "Select the link and copy it";
      });
    });
  });
})();
