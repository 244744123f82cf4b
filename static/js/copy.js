// A copy button beside each secret shown once (invitation and share links, calendar address,
// API token): <input readonly data-copy data-copy-label="…" data-copied="…" data-copy-failed="…">.
// Without this script the field stays a selectable read-only field. The result is said in a
// status region beside the button, so screen readers announce it.
(function () {
  function writeToClipboard(field) {
    if (navigator.clipboard && window.isSecureContext) {
      return navigator.clipboard.writeText(field.value);
    }
    field.select();
    return document.execCommand("copy") ? Promise.resolve() : Promise.reject();
  }

  function say(status, text) {
    status.textContent = "";
    window.setTimeout(function () { status.textContent = text; }, 50);
  }

  function addButton(field) {
    field.setAttribute("data-copy-ready", "");
    var button = document.createElement("button");
    button.type = "button";
    button.className = "button button--secondary button--small copy__button";
    button.textContent = field.dataset.copyLabel;
    var status = document.createElement("span");
    status.className = "copy__status";
    status.setAttribute("role", "status");
    field.insertAdjacentElement("afterend", status);
    field.insertAdjacentElement("afterend", button);
    button.addEventListener("click", function () {
      writeToClipboard(field).then(
        function () { say(status, field.dataset.copied); },
        function () { field.focus(); field.select(); say(status, field.dataset.copyFailed); }
      );
    });
    field.addEventListener("focus", function () { field.select(); });
  }

  function enhance(root) {
    root.querySelectorAll("input[data-copy]:not([data-copy-ready])").forEach(addButton);
  }

  document.addEventListener("DOMContentLoaded", function () { enhance(document); });
  // Sections swapped in by htmx (the calendar address) get their button too.
  document.addEventListener("htmx:load", function (event) { enhance(event.target); });
})();
