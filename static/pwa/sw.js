// The site's service worker (issue 29), served at /sw.js so that it covers the whole site.
// It keeps one page, the offline page (/offline/, in both languages), and shows it when a
// page cannot be reached; nothing else is cached, so no game, hand or message is ever kept
// on the device. Every other request goes to the network untouched.
"use strict";
var CACHE = "tigris-offline-v1";
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
