// A write answers its own block, which htmx swaps over the block its form targets, and names the
// change in an htmx event: "watch-changed" {resource, status, announcement} for a one-click change
// or a sitting's correction (progress/views/watching.py, sittings.py), "coding-changed"
// {resource, announcement} for code logged (progress/views/today.py, coding.py). A page whose other
// blocks follow has a live region, #change-announcer, whose data-follow-blocks is the page's
// address: this script says the change there, then asks the page, with the address's query (the
// catalogue's filters), for its blocks that follow that resource (&changed=<slug>, answered out
// of band, printed by the page's own macros).
// The refresh keeps as they are the block the click's answer brought, and any controls or
// sittings the learner is in or typing in, so that no input is lost. If the card the learner
// clicked in is gone after it (focus fell back to the page), focus goes to the next-up card's
// first action, data-first-action, a link that marks nothing when pressed again.
// Without this script the blocks still answer in place; without JavaScript the forms post and
// come back to their place on the page.
(function () {
  // Blocks with forms in them, which the refresh keeps while the learner is in one.
  var FORMS = ".watch[id], .sittings__list[id]";
  // The id of the block a click's answer swapped, while the page's refresh after it is on its way.
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

  // The block the form's answer is swapped over: its hx-target, "#id" or "closest <selector>".
  function answeredBlock(form) {
    var target = (form.getAttribute && form.getAttribute("hx-target")) || "";
    if (target.indexOf("closest ") === 0) {
      return form.closest(target.slice("closest ".length));
    }
    return target.charAt(0) === "#" ? document.querySelector(target) : null;
  }

  // A kept block the refresh swaps whole is left as it is; one inside a block it swaps is kept
  // in place by htmx (hx-preserve).
  document.body.addEventListener("htmx:oobBeforeSwap", function (event) {
    if (clicked === null) {
      return;
    }
    var target = event.detail.target;
    var kept = clicked ? FORMS + ", #" + CSS.escape(clicked) : FORMS;
    if (target.matches(kept) && isKept(target.id)) {
      event.detail.shouldSwap = false;
      return;
    }
    event.detail.fragment.querySelectorAll(kept).forEach(function (block) {
      if (isKept(block.id)) {
        block.setAttribute("hx-preserve", "");
      }
    });
  });

  function refresh(event) {
    var region = document.getElementById("change-announcer");
    if (!region || !region.dataset.followBlocks) {
      return;
    }
    region.textContent = event.detail.announcement;
    var focused = document.activeElement;
    var focusedId = focused && focused !== document.body ? focused.id : "";
    var block = answeredBlock(event.target);
    var mine = block && block.id ? block.id : "";
    clicked = mine;
    htmx.ajax("GET", region.dataset.followBlocks + window.location.search, {
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
  }

  document.body.addEventListener("watch-changed", refresh);
  document.body.addEventListener("coding-changed", refresh);
})();
