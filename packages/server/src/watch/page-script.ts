/**
 * The watch page's script, served at `/w/assets/watch.js` (plain browser JavaScript, no framework).
 *
 * - Takes the login ticket from the URL fragment and removes it from the address bar and history at once, then
 *   exchanges it at `POST /w/api/session`; a refused real ticket says why (used, expired, replaced).
 * - Polls `GET /w/api/state` for the title, state, mode and video, so a live that starts or ends switches the page.
 * - Credits time only while the video is really playing and the page is visible and online: a playback session
 *   is started on the first play in a mode, a heartbeat `playing: true` goes out every interval while playing and
 *   when playing stops (pause, hidden, ended, stalled), and a heartbeat `playing: false` when it resumes, so the
 *   paused stretch is never credited. A change of mode stops the session. Going offline loses the time since the
 *   last heartbeat (at most one interval): the beat that would credit it cannot reach the server.
 */
export const PAGE_SCRIPT = `"use strict";
(function () {
  var byId = function (id) { return document.getElementById(id); };
  var ticketCode = decodeURIComponent(location.pathname.split("/").pop() || "");
  var loginTicket = new URLSearchParams(location.hash.slice(1)).get("login_ticket");
  history.replaceState(null, "", location.pathname);

  var STATE_TEXT = {
    SCHEDULED: "Scheduled: the live has not started yet. This page switches to the video when it starts.",
    LIVE: "Live now",
    REPLAY: "The live has ended. Watch the replay.",
    ENDED: "The live has ended. There is no replay.",
    CANCELLED: "This webinar was cancelled."
  };
  var REASONS = {
    USED: "This link has already been used.",
    EXPIRED: "This link has expired.",
    SUPERSEDED: "This link was replaced by a newer one."
  };
  var title = byId("title"), stateText = byId("state"), message = byId("message"), player = byId("player");
  var video = byId("video"), button = byId("play");
  var current = null, playbackId = null, crediting = false, interval = 15, ticker = null, poller = null;
  var queue = Promise.resolve();

  function enqueue(task) { queue = queue.then(task, task).catch(function () {}); return queue; }

  function post(path, body) {
    return fetch(path, {
      method: "POST", credentials: "same-origin", keepalive: true,
      headers: { "content-type": "application/json" }, body: JSON.stringify(body)
    }).then(function (response) {
      return response.json().catch(function () { return {}; }).then(function (json) {
        return { ok: response.ok, status: response.status, body: json };
      });
    });
  }

  function showMessage(text) { message.textContent = text; message.hidden = false; }

  function deviceType() {
    var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
    if (!coarse) return "DESKTOP";
    return Math.min(screen.width, screen.height) < 600 ? "MOBILE" : "TABLET";
  }

  function reallyPlaying() {
    return !video.paused && !video.ended && video.readyState >= 3 && document.visibilityState === "visible" && navigator.onLine;
  }

  function startSession() {
    if (current === null || current.mode === null) return Promise.resolve();
    var mode = current.mode;
    return post("/w/api/playback/start", { mode: mode, protocol: "HLS", deviceType: deviceType() }).then(function (answer) {
      if (answer.ok && current !== null && current.mode === mode) {
        playbackId = answer.body.playbackId;
        crediting = true;
        if (answer.body.heartbeatIntervalSeconds > 0 && answer.body.heartbeatIntervalSeconds !== interval) {
          interval = answer.body.heartbeatIntervalSeconds;
          restartTicker();
        }
      } else if (answer.status === 409) {
        refreshState();
      }
    });
  }

  function beat(playing) {
    var id = playbackId;
    if (id === null) return Promise.resolve();
    return post("/w/api/playback/heartbeat", { playbackId: id, playing: playing }).then(function (answer) {
      var gone = answer.ok ? answer.body.ended === true : answer.status === 404 || answer.status === 401;
      if (gone && playbackId === id) { playbackId = null; crediting = false; }
    });
  }

  function stopSession() {
    var id = playbackId, playing = crediting;
    playbackId = null;
    crediting = false;
    if (id !== null) enqueue(function () { return post("/w/api/playback/stop", { playbackId: id, playing: playing }); });
  }

  // Brings the server's view in line with the player: called on every player, visibility and network event and
  // on every tick of the heartbeat interval.
  function sync(tick) {
    var playing = reallyPlaying();
    if (playing && playbackId === null) return startSession();
    if (playbackId === null) return Promise.resolve();
    if (playing && !crediting) { crediting = true; return beat(false); }
    if (!playing && crediting) { crediting = false; return beat(true); }
    if (playing && tick) return beat(true);
    return Promise.resolve();
  }

  function restartTicker() {
    if (ticker !== null) clearInterval(ticker);
    ticker = setInterval(function () { enqueue(function () { return sync(true); }); }, interval * 1000);
  }

  function updateButton() {
    button.textContent = video.paused || video.ended ? "Play" : "Pause";
  }

  function apply(next) {
    var before = current;
    current = next;
    var name = next.title || "Webinar " + next.ticketCode;
    title.textContent = name;
    document.title = name;
    stateText.textContent = STATE_TEXT[next.state] || next.state;
    player.hidden = false;
    if (before === null || before.mode !== next.mode || before.videoUrl !== next.videoUrl) {
      stopSession();
      video.pause();
      if (next.videoUrl) video.src = next.videoUrl; else video.removeAttribute("src");
      // The sample video stands in for a live stream: it loops while live.
      video.loop = next.mode === "LIVE" && next.videoUrl === "/w/assets/sample.webm";
      video.load();
    }
    button.disabled = next.mode === null;
    updateButton();
  }

  function refreshState() {
    return fetch("/w/api/state?ticketCode=" + encodeURIComponent(ticketCode), { credentials: "same-origin" }).then(function (response) {
      if (response.ok) return response.json().then(apply);
      if (response.status === 401) {
        stopSession();
        video.pause();
        player.hidden = true;
        stateText.textContent = "";
        showMessage(current === null
          ? "Open this page with the login link you were given."
          : "Your watch session has ended. Please ask for a new link.");
        current = null;
        if (poller !== null) { clearInterval(poller); poller = null; }
      }
    }, function () { /* offline: the next poll tries again */ });
  }

  button.addEventListener("click", function () {
    if (video.paused || video.ended) {
      video.play().catch(function () { showMessage("The video cannot be played in this browser."); });
    } else {
      video.pause();
    }
  });
  ["play", "pause", "ended"].forEach(function (type) { video.addEventListener(type, updateButton); });
  ["playing", "pause", "ended", "waiting", "stalled", "error"].forEach(function (type) {
    video.addEventListener(type, function () { enqueue(function () { return sync(false); }); });
  });
  document.addEventListener("visibilitychange", function () {
    enqueue(function () { return sync(false); });
    if (document.visibilityState === "visible" && current !== null) refreshState();
  });
  // A login link opened over this page (same path, new fragment) is a new page load, not a fragment change.
  window.addEventListener("hashchange", function () {
    if (/login_ticket=/.test(location.hash)) location.reload();
  });
  window.addEventListener("online", function () { enqueue(function () { return sync(false); }); });
  window.addEventListener("offline", function () { enqueue(function () { return sync(false); }); });

  function begin() {
    return refreshState().then(function () {
      if (current !== null) {
        poller = setInterval(refreshState, 5000);
        restartTicker();
      }
    });
  }

  if (loginTicket === null) {
    begin();
  } else {
    post("/w/api/session", { ticketCode: ticketCode, loginTicket: loginTicket }).then(function (answer) {
      if (answer.ok) return begin();
      stateText.textContent = "";
      var error = answer.body && answer.body.error;
      var reason = error && error.details && error.details.reason;
      if (answer.status === 401) {
        showMessage((REASONS[reason] || "This link is not valid for this webinar.") + " Please ask for a new link.");
      } else {
        showMessage("Signing in failed. Please try again in a moment.");
      }
    }, function () {
      stateText.textContent = "";
      showMessage("The watch service cannot be reached. Check your connection and try again.");
    });
  }
})();
`;
