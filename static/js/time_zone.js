// Offer the browser's time zone: fills the form's time_zone field when the browser names one
// the list knows. Without this script the field keeps the site's zone.
(function () {
  var zone;
  try {
    zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch (error) {
    return;
  }
  if (!zone) return;
  document.querySelectorAll("[data-browser-time-zone]").forEach(function (field) {
    if (field.tagName === "SELECT") {
      var known = Array.prototype.some.call(field.options, function (option) {
        return option.value === zone;
      });
      if (known) field.value = zone;
    } else {
      field.value = zone;
    }
  });
})();
