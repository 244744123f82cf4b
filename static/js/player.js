// The video on a resource page (templates/progress/_player.html). Nothing is asked of YouTube
// until the learner presses play; then the video is embedded from youtube-nocookie.com and driven
// through YouTube's IFrame Player API. While it plays, the seconds of the video really played are
// kept as ranges (a seek starts a new range; a paused or hidden tab adds nothing) and sent every
// 30 s, on pause, at the end and when the page is hidden, with the same key for the whole visit:
// the server merges them, so a beat sent twice or late never counts twice.
(function () {
  "use strict";
  var section = document.getElementById("player");
  if (!section) return;
  var frame = document.getElementById("player-frame");
  var poster = document.getElementById("player-play");
  var status = document.getElementById("player-status");
  var recordUrl = section.getAttribute("data-record-url");
  var key = newKey();
  var player = null;
  var ranges = [];
  var last = null; // the position and the time of the last sample while counting
  var sampler = null;
  var beater = null;
  var hiddenWhilePlaying = false;
  var SAMPLE_MS = 1000;
  var BEAT_MS = 30000;

  poster.addEventListener("click", embed);

  function newKey() {
    if (window.crypto && crypto.randomUUID) return crypto.randomUUID();
    var bytes = crypto.getRandomValues(new Uint8Array(16));
    bytes[6] = (bytes[6] & 15) | 64;
    bytes[8] = (bytes[8] & 63) | 128;
    var hex = Array.prototype.map.call(bytes, function (b) { return (b + 256).toString(16).slice(1); }).join("");
    return [hex.slice(0, 8), hex.slice(8, 12), hex.slice(12, 16), hex.slice(16, 20), hex.slice(20)].join("-");
  }

  function embed() {
    var iframe = document.createElement("iframe");
    var query = new URLSearchParams({
      enablejsapi: "1", autoplay: "1", rel: "0", playsinline: "1",
      start: section.getAttribute("data-start") || "0", origin: location.origin,
    });
    iframe.id = "player-iframe";
    iframe.src = "https://www.youtube-nocookie.com/embed/" + section.getAttribute("data-video") + "?" + query;
    iframe.title = frame.getAttribute("data-frame-title");
    iframe.allow = "autoplay; encrypted-media; picture-in-picture; fullscreen";
    // The site sends no referrer to other origins; YouTube's embeds need the page's origin.
    iframe.referrerPolicy = "strict-origin-when-cross-origin";
    frame.replaceChildren(iframe);
    // Focus stays on the player while it loads, then enters its document, so that the video's
    // own keys (k, 0, the arrows) work at once: a frame focused before its document arrived
    // leaves that document without focus.
    iframe.focus();
    iframe.addEventListener("load", function () {
      if (document.activeElement !== iframe) return;
      iframe.blur();
      iframe.focus();
    });
    window.onYouTubeIframeAPIReady = function () {
      player = new YT.Player(iframe, { events: { onStateChange: changed } });
    };
    var api = document.createElement("script");
    api.src = "https://www.youtube.com/iframe_api";
    document.head.appendChild(api);
  }

  function changed(event) {
    if (event.data === YT.PlayerState.PLAYING) {
      startCounting();
    } else if (event.data === YT.PlayerState.PAUSED || event.data === YT.PlayerState.ENDED) {
      stopCounting();
      send(false);
    }
  }

  function startCounting() {
    if (sampler || document.hidden) return;
    last = null;
    sample();
    sampler = setInterval(sample, SAMPLE_MS);
    beater = setInterval(function () { send(false); }, BEAT_MS);
  }

  function stopCounting() {
    if (!sampler) return;
    sample();
    clearInterval(sampler);
    clearInterval(beater);
    sampler = beater = null;
    last = null;
  }

  // Played since the last sample: forward, and no further than the speed allows in the time
  // that passed (plus a second); anything else was a seek, which counts nothing.
  function sample() {
    var position = player.getCurrentTime();
    var now = Date.now();
    if (last !== null) {
      var reach = (player.getPlaybackRate() || 1) * (now - last.at) / 1000 + 1;
      if (position >= last.position && position - last.position <= reach) {
        add(last.position, position);
      }
    }
    last = { position: position, at: now };
  }

  function add(start, end) {
    if (end <= start) return;
    ranges.push([start, end]);
    ranges.sort(function (a, b) { return a[0] - b[0]; });
    var merged = [];
    ranges.forEach(function (range) {
      var top = merged[merged.length - 1];
      if (top && range[0] <= top[1]) top[1] = Math.max(top[1], range[1]);
      else merged.push([range[0], range[1]]);
    });
    ranges = merged;
  }

  function csrfToken() {
    try {
      return JSON.parse(document.body.getAttribute("hx-headers"))["X-CSRFToken"];
    } catch (error) {
      return "";
    }
  }

  function send(leaving) {
    if (!recordUrl || !player) return;
    if (sampler) sample();
    var duration = Math.round(player.getDuration() || 0);
    if (!duration) return;
    var body = JSON.stringify({
      viewing: key,
      duration: duration,
      ranges: ranges.map(function (r) { return [Math.round(r[0]), Math.min(Math.round(r[1]), duration)]; }),
    });
    fetch(recordUrl, {
      method: "POST", body: body, keepalive: leaving, credentials: "same-origin",
      headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    }).then(function (response) { return response.json(); }).then(function (answer) {
      if (answer.finished_now && answer.announcement) status.textContent = answer.announcement;
    }).catch(function () {});
  }

  document.addEventListener("visibilitychange", function () {
    if (!player) return;
    if (document.hidden) {
      hiddenWhilePlaying = Boolean(sampler);
      stopCounting();
      send(true);
    } else if (hiddenWhilePlaying && player.getPlayerState() === YT.PlayerState.PLAYING) {
      hiddenWhilePlaying = false;
      startCounting();
    }
  });
  window.addEventListener("pagehide", function () {
    if (!player) return;
    stopCounting();
    send(true);
  });
})();
