// A one-click change to the learner's watching answers its own controls, which htmx swaps over
// the form's block, and names the change in the htmx event "watch-changed": {resource, status,
// announcement} (progress/views/watching.py). A page whose other blocks follow it has a live
// region, #watch-announcer, whose data-watch-blocks is the page's address: this script says the
// change there, then asks the page for its blocks that follow that resource (?changed=<slug>,
// answered out of band).
// The refresh keeps as they are the controls the click came from (its answer brought them), and
// any controls the learner is in or typing in, so that no input is lost. If the card the learner
// clicked in is gone after it (focus fell back to the page), focus goes to the next-up card's
// first action, data-first-action, a link that marks nothing when pressed again.
// Without this script the controls still answer in place; without JavaScript the forms post and
// come back to their place on the page.
(function () {
  // The id of the controls a click came from, while the page's refresh after it is on its way.
  var clicked = null;

  function isTyped(block) {
    return Array.prototype.some.call(block.querySelectorAll("input"), function (field) {
      return field.value !== field.defaultValue;
    });
  }

  function isKept(id) {
    var live = document.getElementById(id);
    return live && (id === clicked || live.contains(document.activeElement) || isTyped(live));
  }

  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (clicked === null) {
      return;
    }
    event.detail.fragment.querySelectorAll(".watch[id]").forEach(function (block) {
      if (isKept(block.id)) {
        block.setAttribute("hx-preserve", "");
      }
    });
  });

  document.body.addEventListener("watch-changed", function (event) {
    var region = document.getElementById("watch-announcer");
    if (!region || !region.dataset.watchBlocks) {
      return;
    }
    region.textContent = event.detail.announcement;
    var focused = document.activeElement;
    var focusedId = focused && focused !== document.body ? focused.id : "";
    var block = event.target.closest ? event.target.closest(".watch") : null;
    var mine = block ? block.id : "";
    clicked = mine;
    htmx.ajax("GET", region.dataset.watchBlocks, {
      source: region,
      swap: "none",
      values: { changed: event.detail.resource },
    }).then(function () {
      if (clicked === mine) {
        clicked = null;
      }
      var active = document.activeElement;
      if (!focusedId || (active && active !== document.body)) {
        return;
      }
      var again = document.getElementById(focusedId);
      var first = document.querySelector("[data-first-action]");
      if (again) {
        again.focus();
      } else if (first) {
        first.focus();
      }
    });
  });
})();
