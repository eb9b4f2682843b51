// The browser notifications control (issue 29) of the settings page (templates/accounts/
// _push.html) and of a game page, a bell (templates/games/_push_control.html, data-compact).
// Turning on asks the browser's permission, subscribes through the service worker's
// PushManager with the site's VAPID public key, and posts the subscription (CSRF header);
// turning off posts its endpoint for the site to forget, then unsubscribes. Words come from
// the panel's data-* attributes, in the page's language.
(function () {
  "use strict";
  var panel = document.getElementById("notifications");
  var button = document.getElementById("push-toggle");
  if (!panel || !button) { return; }
  var status = document.getElementById("push-status");
  var d = panel.dataset;

  var hush = null;
  function say(text) {
    if (!status) { return; }
    status.textContent = text;
    // the bell's words float over the game: they go after a while (the settings' stay)
    if (button.dataset.compact) {
      clearTimeout(hush);
      hush = setTimeout(function () { status.textContent = ""; }, 8000);
    }
  }
  // Our own words (the panel's, the server's) are shown; a browser's own error is not in the
  // page's language, so it is said as "could not turn on".
  function ours(text) { var err = new Error(text); err.ours = true; return err; }

  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !("Notification" in window)) {
    var unsupported = document.getElementById("push-unsupported");
    if (unsupported) { unsupported.hidden = false; }
    return;
  }

  function keyBytes(text) {
    var b64 = (text + "===".slice((text.length + 3) % 4)).replace(/-/g, "+").replace(/_/g, "/");
    var raw = atob(b64), out = new Uint8Array(raw.length);
    for (var i = 0; i < raw.length; i++) { out[i] = raw.charCodeAt(i); }
    return out;
  }

  function csrf() {
    try { return JSON.parse(document.body.getAttribute("hx-headers") || "{}")["X-CSRFToken"] || ""; }
    catch (e) { return ""; }
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", credentials: "same-origin",
      headers: {"Content-Type": "application/json", "X-CSRFToken": csrf()},
      body: JSON.stringify(body)
    }).then(function (r) {
      if (!r.ok) {
        return r.json().catch(function () { return {}; }).then(function (j) { throw ours(j.error || d.saidFailed); });
      }
      return r.json();
    });
  }

  function show(on) {
    var label = on ? d.labelOff : d.labelOn;
    if (button.dataset.compact) {  // the game page's bell: its words are its name
      button.setAttribute("aria-label", label);
      button.title = label;
    } else {
      button.textContent = label;
    }
    button.setAttribute("aria-pressed", on ? "true" : "false");
    button.dataset.on = on ? "1" : "";
    button.hidden = false;
  }

  var ready = navigator.serviceWorker.register("/sw.js", {scope: "/"}).then(function () {
    return navigator.serviceWorker.ready;
  });

  ready.then(function (reg) { return reg.pushManager.getSubscription(); })
    .then(function (sub) { show(!!sub && Notification.permission === "granted"); })
    .catch(function () { show(false); });

  function turnOn(reg) {
    return Notification.requestPermission().then(function (permission) {
      if (permission !== "granted") { throw ours(d.saidDenied); }
      return reg.pushManager.subscribe({userVisibleOnly: true, applicationServerKey: keyBytes(d.pushKey)});
    }).then(function (sub) {
      return post(d.pushSubscribe, sub.toJSON()).catch(function (err) {
        return sub.unsubscribe().then(function () { throw err; });
      });
    }).then(function () { show(true); say(d.saidOn); });
  }

  function turnOff(reg) {
    return reg.pushManager.getSubscription().then(function (sub) {
      if (!sub) { return null; }
      return post(d.pushUnsubscribe, {endpoint: sub.endpoint}).then(function () { return sub.unsubscribe(); });
    }).then(function () { show(false); say(d.saidOff); });
  }

  button.addEventListener("click", function () {
    button.disabled = true;
    ready.then(function (reg) { return button.dataset.on ? turnOff(reg) : turnOn(reg); })
      .catch(function (err) { say(err && err.ours ? err.message : d.saidFailed); })
      .then(function () { button.disabled = false; });
  });
})();
