// A stand-in for https://www.youtube.com/iframe_api, served by tests/browser/test_player.py through
// Playwright's page.route: the test machines cannot reach YouTube. It implements the part of the
// IFrame Player API that static/js/player.js relies on, as YouTube documents it
// (https://developers.google.com/youtube/iframe_api_reference): window.onYouTubeIframeAPIReady,
// YT.Player on an existing <iframe> (its src's start and autoplay) or in place of an element
// (videoId, playerVars.start and autoplay), the onReady and onStateChange events, YT.PlayerState,
// playVideo, pauseVideo, seekTo, getCurrentTime, getDuration, getPlaybackRate, setPlaybackRate,
// getPlayerState and getIframe.
//
// The video "plays" on the page's clock (Date.now and setTimeout), which the test drives with
// page.clock. The stand-in embed page (embed.html) answers the player's handshake and forwards the
// keys pressed in it, as YouTube's player reads them: k plays or pauses, 0 or Home goes back to
// the start, l and j go 10 seconds forward and back. The test sets the video's length
// (__DURATION__) when it serves this file.
(function () {
  "use strict";
  var DURATION = __DURATION__;
  var State = { UNSTARTED: -1, ENDED: 0, PLAYING: 1, PAUSED: 2, BUFFERING: 3, CUED: 5 };

  function Player(target, options) {
    options = options || {};
    var vars = options.playerVars || {};
    var element = typeof target === "string" ? document.getElementById(target) : target;
    if (element.tagName !== "IFRAME") {
      var iframe = document.createElement("iframe");
      var query = new URLSearchParams(vars);
      query.set("enablejsapi", "1");
      iframe.id = element.id;
      iframe.src = "https://www.youtube.com/embed/" + options.videoId + "?" + query;
      element.replaceWith(iframe);
      element = iframe;
    }
    var address = new URL(element.src);
    this._iframe = element;
    this._events = options.events || {};
    this._state = State.UNSTARTED;
    this._position = Number(vars.start || address.searchParams.get("start") || 0);
    this._since = 0; // Date.now() when the video last started playing from _position
    this._rate = 1;
    this._ender = null;
    this._ready = false;
    this._autoplay = String(vars.autoplay || address.searchParams.get("autoplay")) === "1";
    var player = this;
    // Like YouTube's API, say "listening" to the frame until it answers.
    var handshake = setInterval(function () {
      if (element.contentWindow) element.contentWindow.postMessage({ standIn: "listening" }, "*");
    }, 50);
    window.addEventListener("message", function (event) {
      if (event.source !== element.contentWindow || !event.data) return;
      if (event.data.standIn === "ready" && !player._ready) {
        clearInterval(handshake);
        player._ready = true;
        player._fire("onReady");
        if (player._autoplay) player.playVideo();
      } else if (event.data.standIn === "key") {
        player._key(event.data.key);
      }
    });
    window.youtubeStandIn = this;
  }

  Player.prototype._fire = function (name, data) {
    var handler = this._events[name];
    if (typeof handler === "string") handler = window[handler];
    if (handler) handler({ target: this, data: data });
  };

  Player.prototype._become = function (state) {
    this._state = state;
    this._fire("onStateChange", state);
  };

  Player.prototype._key = function (key) {
    if (key === "k" || key === " ") {
      if (this._state === State.PLAYING) this.pauseVideo();
      else this.playVideo();
    } else if (key === "0" || key === "Home") {
      this.seekTo(0, true);
    } else if (key === "l" || key === "j") {
      this.seekTo(this.getCurrentTime() + (key === "l" ? 10 : -10), true);
    }
  };

  Player.prototype._endLater = function () {
    var player = this;
    clearTimeout(this._ender);
    this._ender = setTimeout(function () {
      player._position = DURATION;
      player._become(State.ENDED);
    }, ((DURATION - this._position) / this._rate) * 1000);
  };

  Player.prototype.playVideo = function () {
    if (this._state === State.PLAYING) return;
    if (this._position >= DURATION) this._position = 0;
    this._become(State.BUFFERING);
    this._since = Date.now();
    this._endLater();
    this._become(State.PLAYING);
  };

  Player.prototype.pauseVideo = function () {
    if (this._state !== State.PLAYING) return;
    this._position = this.getCurrentTime();
    clearTimeout(this._ender);
    this._become(State.PAUSED);
  };

  // A paused video stays paused; a playing one plays on from there.
  Player.prototype.seekTo = function (seconds) {
    this._position = Math.max(0, Math.min(Number(seconds), DURATION));
    if (this._state === State.PLAYING) {
      this._since = Date.now();
      this._endLater();
    }
  };

  Player.prototype.getCurrentTime = function () {
    if (this._state !== State.PLAYING) return this._position;
    var played = ((Date.now() - this._since) / 1000) * this._rate;
    return Math.min(this._position + played, DURATION);
  };

  Player.prototype.getDuration = function () {
    return this._ready ? DURATION : 0;
  };

  Player.prototype.getPlaybackRate = function () {
    return this._rate;
  };

  Player.prototype.setPlaybackRate = function (rate) {
    var playing = this._state === State.PLAYING;
    if (playing) this._position = this.getCurrentTime();
    this._rate = rate;
    if (playing) {
      this._since = Date.now();
      this._endLater();
    }
  };

  Player.prototype.getPlayerState = function () {
    return this._state;
  };

  Player.prototype.getIframe = function () {
    return this._iframe;
  };

  window.YT = { Player: Player, PlayerState: State, loaded: 1 };
  if (typeof window.onYouTubeIframeAPIReady === "function") window.onYouTubeIframeAPIReady();
})();
