// Register the site's service worker (static/pwa/sw.js, served at /sw.js): the offline page,
// and what lets a phone add the site to its home screen (issue 29).
(function () {
  "use strict";
  if (!("serviceWorker" in navigator)) { return; }
  window.addEventListener("load", function () {
    navigator.serviceWorker.register("/sw.js", {scope: "/"}).catch(function () {});
  });
})();
