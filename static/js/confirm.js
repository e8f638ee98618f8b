// Confirmation before a destructive or final action: a form marked data-confirm="Delete hand 3?" asks first,
// in a small dialog (Cancel is the default: Enter or Escape keeps everything). Confirmed, the form is sent as
// the button would have sent it. Without JavaScript the form is sent directly (the server still checks it).
(function () {
  "use strict";
  var forms = document.querySelectorAll("form[data-confirm]");
  if (!forms.length || typeof HTMLDialogElement !== "function") return;

  // Its words in the page's language (<html data-script-texts>, templates/_script_texts.html), else English
  // (static/js/words.js reads them).
  var word = pageWords.read({ back: "Go back", ok: "Confirm" }, document.documentElement, "data-script-texts", "confirm");

  var dialog = document.createElement("dialog");
  dialog.className = "confirm-dialog";
  dialog.setAttribute("aria-labelledby", "confirm-dialog-text");
  dialog.innerHTML = '<form method="dialog"><p id="confirm-dialog-text"></p><div class="actions">' +
    '<button value="cancel" class="button-secondary" autofocus></button> ' +
    '<button value="ok" class="button-danger" data-confirm-ok></button></div></form>';
  document.body.appendChild(dialog);
  var text = dialog.querySelector("#confirm-dialog-text");
  var ok = dialog.querySelector("[data-confirm-ok]");
  dialog.querySelector("button[value=cancel]").textContent = word("back");
  var pending = null; // {form, submitter}

  Array.prototype.forEach.call(forms, function (form) {
    form.addEventListener("submit", function (event) {
      if (form.dataset.confirmed === "1") { delete form.dataset.confirmed; return; }
      event.preventDefault();
      pending = { form: form, submitter: event.submitter || null };
      text.textContent = form.dataset.confirm;
      var submitter = pending.submitter;
      // an <input type=submit> says its label in its value
      var label = submitter ? (submitter.tagName === "INPUT" ? submitter.value : submitter.textContent).trim() : "";
      ok.textContent = form.dataset.confirmButton || label || word("ok");
      dialog.returnValue = "";
      dialog.showModal();
    });
  });

  dialog.addEventListener("close", function () {
    var chosen = pending;
    pending = null;
    if (!chosen) return;
    if (dialog.returnValue !== "ok") {
      if (chosen.submitter) chosen.submitter.focus();
      return;
    }
    chosen.form.dataset.confirmed = "1";
    if (chosen.form.requestSubmit) chosen.form.requestSubmit(chosen.submitter || undefined);
    else chosen.form.submit();
  });
})();
