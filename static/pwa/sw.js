// The site's service worker (issue 29), served at /sw.js so that it covers the whole site.
// It keeps one page, the offline page (/offline/, in both languages), and shows it when a
// page cannot be reached; nothing else is cached, so no game, hand or message is ever kept
// on the device. Every other request goes to the network untouched.
// It also shows the site's push notifications (games/push/): each push's data is
// {"title", "body", "url", "tag"} in the player's language; a click focuses a tab already on
// that page of the site or opens one.
"use strict";
var CACHE = "tigris-offline-v1";
var ICON = "/static/pwa/icon-192.png";
var OFFLINE = "/offline/";

self.addEventListener("install", function (ev) {
  ev.waitUntil(caches.open(CACHE).then(function (cache) {
    return cache.add(new Request(OFFLINE, {cache: "reload", credentials: "omit"}));
  }).then(function () { return self.skipWaiting(); }));
});

self.addEventListener("activate", function (ev) {
  ev.waitUntil(caches.keys().then(function (keys) {
    return Promise.all(keys.filter(function (k) { return k !== CACHE; }).map(function (k) { return caches.delete(k); }));
  }).then(function () { return self.clients.claim(); }));
});

self.addEventListener("fetch", function (ev) {
  if (ev.request.mode !== "navigate") { return; }
  ev.respondWith(fetch(ev.request).catch(function () {
    return caches.open(CACHE).then(function (cache) { return cache.match(OFFLINE); });
  }));
});

// The page a notification opens: only a page of this site (its path, on this origin).
function pageOf(url) {
  try {
    var u = new URL(url, self.location.origin);
    return self.location.origin + u.pathname + u.search + u.hash;
  } catch (e) {
    return self.location.origin + "/";
  }
}

self.addEventListener("push", function (ev) {
  var data = {};
  try { data = ev.data ? ev.data.json() : {}; } catch (e) { data = {}; }
  var options = {body: data.body || "", icon: ICON, badge: ICON, data: {url: pageOf(data.url || "/")}};
  if (data.tag) { options.tag = data.tag; options.renotify = true; }
  ev.waitUntil(self.registration.showNotification(data.title || "Tigris & Euphrates", options));
});

self.addEventListener("notificationclick", function (ev) {
  ev.notification.close();
  var url = pageOf((ev.notification.data && ev.notification.data.url) || "/");
  ev.waitUntil(self.clients.matchAll({type: "window", includeUncontrolled: true}).then(function (tabs) {
    for (var i = 0; i < tabs.length; i++) {
      if (tabs[i].url === url && "focus" in tabs[i]) { return tabs[i].focus(); }
    }
    return self.clients.openWindow(url);
  }));
});
