// Game page behaviour: pick a piece (in the hand, the list, or your leader on the board) to
// highlight its legal squares, mark the chosen square and confirm an action in
// words before sending it, keep the title in step with "your move", and replay arrows.
// Every action element carries data-action (engine notation) and, when it lands on a square,
// data-square (the engine's target): notation is never taken apart here. Without this script the
// swap and notation forms still post to /games/<id>/act; the action buttons need it.
(function () {
  "use strict";
  var OUTLINE_KEY = "tigris.outline";

  // The player's setting (Settings page), carried by the #game element.
  function confirmWanted() {
    var root = game();
    return !root || root.dataset.confirm !== "0";
  }

  function game() { return document.getElementById("game"); }

  // A picked piece's button says so to screen readers (aria-pressed) as well as by its look.
  function pressed(el, on) {
    if (el.tagName === "BUTTON") { el.setAttribute("aria-pressed", on ? "true" : "false"); }
  }

  // A lit square's name says so (issue 34): "a2, land, empty, legal" while the picked piece
  // may go there (the word is the board's data-legal, in the page's language), its own
  // name again once nothing is picked.
  function markLegal(sq, on) {
    if (on) {
      var word = sq.closest("table").dataset.legal;
      if (!sq.dataset.name) { sq.dataset.name = sq.getAttribute("aria-label"); }
      sq.setAttribute("aria-label", word ? sq.dataset.name + ", " + word : sq.dataset.name);
    } else if (sq.dataset.name) {
      sq.setAttribute("aria-label", sq.dataset.name);
      delete sq.dataset.name;
    }
  }

  function clearTargets(root) {
    root.querySelectorAll(".sq.target").forEach(function (el) { el.classList.remove("target"); markLegal(el, false); });
    root.querySelectorAll(".pick.selected").forEach(function (el) { el.classList.remove("selected"); pressed(el, false); });
  }

  function selectGroup(root, key) {
    clearTargets(root);
    root.dataset.group = key;
    root.querySelectorAll('.pick[data-group="' + key + '"]').forEach(function (el) { el.classList.add("selected"); pressed(el, true); });
    root.querySelectorAll(".sq[data-targets]").forEach(function (sq) {
      if (sq.dataset.targets.split(" ").indexOf(key) >= 0) { sq.classList.add("target"); markLegal(sq, true); }
    });
  }

  // The docked tray of a phone covers the bottom of the window: the page's scroll padding
  // (--tray-h, game.css) keeps scrolled-to squares above it.
  function dockedTrayHeight() {
    var tray = document.getElementById("tray");
    return tray && getComputedStyle(tray).position === "fixed" ? tray.offsetHeight : 0;
  }
  function noteTrayHeight() {
    var height = dockedTrayHeight();
    document.documentElement.style.setProperty("--tray-h", height + "px");
    return height;
  }
  window.addEventListener("resize", noteTrayHeight);

  // The page's messages float just under the site's header (its height: --header-h), so
  // they never cover the navigation while they last.
  function noteHeaderHeight() {
    var header = document.querySelector("header.site");
    if (header) { document.documentElement.style.setProperty("--header-h", header.offsetHeight + "px"); }
  }
  document.addEventListener("DOMContentLoaded", noteHeaderHeight);
  window.addEventListener("resize", noteHeaderHeight);

  // A piece picked from the hand or the list, with none of its squares in sight (a phone,
  // where the docked tray covers the board's lowest rows): bring the first one into view.
  function showTargets(root) {
    var bottom = window.innerHeight - noteTrayHeight();
    var targets = root.querySelectorAll(".sq.target");
    for (var i = 0; i < targets.length; i++) {
      var box = targets[i].getBoundingClientRect();
      if (box.bottom > 0 && box.bottom <= bottom) { return; }
    }
    if (targets.length) { targets[0].scrollIntoView({block: "nearest", inline: "center", behavior: "smooth"}); }
  }

  // An action's words: its own data-words, or its group's with "@" standing for its
  // target square (data-square).
  function wordsOf(el) {
    if (el.dataset.words) { return el.dataset.words; }
    var group = el.closest("[data-words]");
    return group ? group.dataset.words.replace("@", el.dataset.square || "") : el.dataset.action;
  }

  // The element offering an action (engine notation), also among the legal swaps kept in
  // the swap form's inert <template>; null when the page does not offer it.
  function offeredAction(root, notation) {
    var selector = '[data-action="' + CSS.escape(notation) + '"]';
    var found = root.querySelector(selector);
    var swaps = root.querySelector("template.swap-words");
    return found || (swaps ? swaps.content.querySelector(selector) : null);
  }

  // Where the player was before the confirm step (the typed-action box, a button), to
  // return there when they cancel.
  var before = null;

  function cancel() {
    var input = document.getElementById("act-action");
    var panel = document.getElementById("confirm");
    if (!input || !panel || panel.hidden) { return false; }
    input.disabled = true; input.value = "";
    panel.hidden = true;
    document.querySelectorAll(".sq.chosen").forEach(function (el) { el.classList.remove("chosen"); });
    if (before && document.body.contains(before)) { before.focus(); }
    before = null;
    return true;
  }

  // The engine's preview of an action (GET /games/<id>/preview): what it will start, or
  // why it is refused; calls back with (ok, fragment element).
  function fetchPreview(notation, done) {
    var form = document.getElementById("act-form");
    var root = game();
    if (!form || !form.dataset.preview || !root) { done(true, null); return; }
    var url = form.dataset.preview + "?action=" + encodeURIComponent(notation) + "&version=" + encodeURIComponent(root.dataset.version);
    fetch(url, {credentials: "same-origin"}).then(function (r) {
      return r.text().then(function (text) {
        var holder = document.createElement("template");
        holder.innerHTML = text;  // our own escaped fragment (games/_preview.html); no script runs
        var el = holder.content.querySelector(".preview");
        done(!!el && el.dataset.legal === "1", el);
      });
    }).catch(function () { done(true, null); });
  }

  function showPreview(notation) {
    var box = document.getElementById("confirm-preview");
    var ok = document.getElementById("confirm-ok");
    if (!box) { return; }
    box.textContent = "";
    box.dataset.for = notation;
    fetchPreview(notation, function (legal, el) {
      if (box.dataset.for !== notation) { return; }  // another action was chosen meanwhile
      if (el) { box.appendChild(el); }
      if (ok) { ok.disabled = !legal; }
    });
  }

  function choose(root, notation, words, target) {
    var form = document.getElementById("act-form");
    var input = document.getElementById("act-action");
    if (!form || !input) { return false; }
    chosenTarget = target || "";
    input.value = notation;
    input.disabled = false;
    if (!confirmWanted()) { form.requestSubmit(); return true; }
    var ok = document.getElementById("confirm-ok");
    if (ok) { ok.disabled = false; }
    showPreview(notation);
    before = document.activeElement;
    // Mark the square the action lands on, if it lands on one.
    document.querySelectorAll(".sq.chosen").forEach(function (el) { el.classList.remove("chosen"); });
    var square = target ? root.querySelector('.sq[data-square="' + CSS.escape(target) + '"]') : null;
    if (square) { square.classList.add("chosen"); }
    document.getElementById("confirm-words").textContent = words || notation;
    var panel = document.getElementById("confirm");
    panel.hidden = false;
    document.getElementById("confirm-ok").focus();
    return true;
  }

  // The skip link to the board goes on to the board's square that holds its tab stop, where
  // the arrows move (without this script, the next Tab reaches it).
  document.addEventListener("click", function (ev) {
    var skip = ev.target.closest && ev.target.closest('a.skip[href="#board"]');
    var sq = skip && document.querySelector('#board td.sq[tabindex="0"]');
    if (sq) { ev.preventDefault(); sq.focus(); }
  });

  // A private game's invitation link: copied with one click (the link stays selectable).
  document.addEventListener("click", function (ev) {
    var button = ev.target.closest && ev.target.closest("button.copy[data-copy]");
    var source = button && document.getElementById(button.dataset.copy);
    if (!source || !navigator.clipboard) { return; }
    navigator.clipboard.writeText(source.textContent.trim()).then(function () {
      button.textContent = button.dataset.copied;
    });
  });

  document.addEventListener("click", function (ev) {
    var root = game();
    if (!root || !root.contains(ev.target)) { return; }
    var el = ev.target.closest("[data-action]");
    if (el && el.tagName === "BUTTON") {
      if (choose(root, el.dataset.action, wordsOf(el), el.dataset.square)) { ev.preventDefault(); }
      return;
    }
    if (ev.target.closest("#confirm-cancel")) {
      cancel();
      return;
    }
    var pick = ev.target.closest(".pick[data-group]");
    if (pick) {
      if (pick.tagName !== "SUMMARY") { ev.preventDefault(); }
      selectGroup(root, pick.dataset.group);
      picked = pick;
      if (!pick.classList.contains("sq")) {
        showTargets(root);
        // Picked with the keyboard (a click with no pointer): on to its first square, where
        // the arrows move and Enter chooses; Escape puts the piece back.
        if (ev.detail === 0 && pick.tagName === "BUTTON") { focusSquare(root.querySelector(".sq.target")); }
      }
      return;
    }
    var sq = ev.target.closest(".sq.target");
    if (sq && root.dataset.group) {
      var group = root.querySelector('.group[data-group="' + root.dataset.group + '"]');
      var buttons = group ? group.querySelectorAll('[data-square="' + CSS.escape(sq.dataset.square) + '"]') : [];
      if (buttons.length === 1) {
        choose(root, buttons[0].dataset.action, wordsOf(buttons[0]), sq.dataset.square);
      } else if (group) {
        for (var d = group; d; d = d.parentElement && d.parentElement.closest("details")) { d.open = true; }
        group.scrollIntoView({block: "nearest"});
      }
    }
  });

  // A form sent with nothing chosen is answered here, in place (the server, without
  // JavaScript, answers the same with the whole page).
  function refuseEmpty(form) {
    var note = form.querySelector(".refused");
    if (note) { note.remove(); }
    note = document.createElement("p");
    note.className = "refused";
    note.setAttribute("role", "alert");
    note.textContent = form.dataset.empty;
    form.appendChild(note);
  }

  // The square to give the focus to once the game's new board is in (issue 34): the one
  // the action sent lands on (its data-square, kept by choose()), or the one that had the
  // focus when a poll brought a new board; "" for the board's own tab stop.
  var focusAfterSwap = null;
  var chosenTarget = "";

  document.addEventListener("htmx:beforeSwap", function (ev) {
    var active = document.activeElement;
    if (!ev.detail.shouldSwap) { return; }
    if (focusAfterSwap === null && active && active.matches && active.matches("td.sq") && ev.detail.target.contains(active)) {
      focusAfterSwap = active.dataset.square;
    }
  });

  function giveBackFocus(root) {
    if (focusAfterSwap === null) { return; }
    var name = focusAfterSwap;
    focusAfterSwap = null;
    var sq = name ? root.querySelector('td.sq[data-square="' + CSS.escape(name) + '"]') : null;
    focusSquare(sq || root.querySelector('td.sq[tabindex="0"]'));
  }

  // Swap and notation forms send through the same confirm step.
  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    var root = game();
    if (form.id === "act-form") {
      focusAfterSwap = chosenTarget;
      return;
    }
    if (!root || !form.classList || !form.classList.contains("alt-act")) { return; }
    if (form.classList.contains("swap-pick")) {
      // The ticked tiles, in the engine's colour order, as "swap red blue".
      var order = ["red", "black", "blue", "green"];
      var ticked = Array.prototype.map.call(form.querySelectorAll('input[name="swap"]:checked'), function (box) { return box.value; });
      if (!ticked.length) { ev.preventDefault(); refuseEmpty(form); return; }
      ticked.sort(function (a, b) { return order.indexOf(a) - order.indexOf(b); });
      var swap = "swap " + ticked.join(" ");
      var legal = offeredAction(root, swap);
      if (choose(root, swap, legal ? wordsOf(legal) : swap)) { ev.preventDefault(); }
      return;
    }
    var field = form.elements.namedItem("action");
    var notation = field && field.value.trim();
    if (!notation) { ev.preventDefault(); refuseEmpty(form); return; }
    // A typed action is put in words when the page offers it. The engine is asked first:
    // an illegal one is refused here, with its reason, before any confirm step.
    var offered = offeredAction(root, notation.toLowerCase().split(/\s+/).join(" "));
    ev.preventDefault();
    var note = form.querySelector(".refused");
    if (note) { note.remove(); }
    fetchPreview(notation, function (legal, el) {
      if (!legal && el) {
        var refused = el.querySelector(".refused");
        if (refused) { form.appendChild(refused); if (field.focus) { field.focus(); } return; }
      }
      choose(root, notation, offered ? wordsOf(offered) : notation, offered ? offered.dataset.square : "");
    });
  });

  document.addEventListener("change", function (ev) {
    if (ev.target.id === "outline-toggle") {
      localStorage.setItem(OUTLINE_KEY, ev.target.checked ? "on" : "off");
      applyOutline();
    }
  });

  // Kingdom outlines are on unless the player switched them off (remembered per browser).
  function applyOutline() {
    var on = localStorage.getItem(OUTLINE_KEY) !== "off";
    document.querySelectorAll("table.board").forEach(function (t) { t.classList.toggle("outline-kingdoms", on); });
    var toggle = document.getElementById("outline-toggle");
    if (toggle) { toggle.checked = on; }
  }

  // The board is a grid: one tab stop, arrow keys move between squares (Home/End: the row's
  // ends), Enter or Space acts on a square as a click does.
  document.addEventListener("keydown", function (ev) {
    var sq = ev.target.closest && ev.target.closest("td.sq");
    if (!sq) { return; }
    if (ev.key === "Enter" || ev.key === " ") { ev.preventDefault(); sq.click(); return; }
    // Squares by the board's own rows and columns, as drawn: no board size is assumed here.
    var row = Array.prototype.slice.call(sq.parentElement.querySelectorAll("td.sq"));
    var col = row.indexOf(sq);
    var tr = {ArrowUp: sq.parentElement.previousElementSibling, ArrowDown: sq.parentElement.nextElementSibling}[ev.key];
    var next = null;
    if (ev.key === "ArrowLeft") { next = row[col - 1]; }
    else if (ev.key === "ArrowRight") { next = row[col + 1]; }
    else if (tr) { next = tr.querySelectorAll("td.sq")[col]; }
    else if (ev.key === "Home") { next = row[0]; }
    else if (ev.key === "End") { next = row[row.length - 1]; }
    if (!next) { return; }
    ev.preventDefault();
    sq.tabIndex = -1; next.tabIndex = 0; next.focus();
  });

  // A new board (a move, a poll) takes the page's messages away.
  document.addEventListener("htmx:afterSwap", function () {
    document.querySelectorAll("body > .messages").forEach(function (el) { el.remove(); });
  });

  // The board stays where the player scrolled it (issue 32): a new board (their own action,
  // an update) replaces the frame, whose sideways scroll would snap back to column a; the
  // old frame's scroll is noted before the swap and given to the new one after it.
  var keptScroll = null;
  function noteBoardScroll(target) {
    var frame = target && target.querySelector && target.querySelector(".board-frame");
    if (frame) { keptScroll = frame.scrollLeft; }
  }
  function keepBoardScroll(root) {
    var frame = root.querySelector(".board-frame");
    if (frame && keptScroll !== null) { frame.scrollLeft = keptScroll; }
    keptScroll = null;
  }
  document.addEventListener("htmx:beforeSwap", function (ev) {
    if (ev.detail.shouldSwap) { noteBoardScroll(ev.detail.target); }
  });
  document.addEventListener("htmx:afterSwap", function () {
    var root = game();
    if (root) { keepBoardScroll(root); }
  });

  // A board wider than its frame (a phone shows about nine of the sixteen columns): when
  // none of the squares changed since the player's last move is in sight, the frame scrolls
  // sideways to the first of them, so the opponents' moves are seen without searching.
  function showChanges(root) {
    var frame = root.querySelector(".board-frame");
    if (!frame || frame.scrollWidth <= frame.clientWidth) { return; }
    var changed = frame.querySelectorAll(".sq.changed");
    if (!changed.length) { return; }
    var seen = frame.getBoundingClientRect();
    for (var i = 0; i < changed.length; i++) {
      var box = changed[i].getBoundingClientRect();
      if (box.left >= seen.left && box.right <= seen.right) { return; }
    }
    var first = changed[0].getBoundingClientRect();
    frame.scrollLeft += first.left - seen.left - (seen.width - first.width) / 2;
  }

  // A box that scrolls (the log on a phone, a wide table in its own box) takes the focus
  // when nothing in it can, so that it scrolls from the keyboard too (issue 34); the
  // focus stop goes away when it no longer scrolls.
  var SCROLLERS = "main table:not(.board), .log ol, .chat-lines";
  var FOCUSABLE = "a[href], button, input, select, textarea, [tabindex]";
  function scrollersFocusable() {
    document.querySelectorAll(SCROLLERS).forEach(function (el) {
      var scrolls = el.scrollHeight > el.clientHeight + 1 || el.scrollWidth > el.clientWidth + 1;
      var ours = el.dataset.scrollFocus === "1";
      if (scrolls && !ours && !el.hasAttribute("tabindex") && !el.querySelector(FOCUSABLE)) {
        el.tabIndex = 0;
        el.dataset.scrollFocus = "1";
      } else if (!scrolls && ours) {
        el.removeAttribute("tabindex");
        delete el.dataset.scrollFocus;
      }
    });
  }
  window.addEventListener("resize", scrollersFocusable);

  function refresh() {
    scrollersFocusable();
    var root = game();
    if (!root) { return; }
    document.title = root.dataset.myTurn ? root.dataset.titleMine : root.dataset.title;
    applyOutline();
    noteTrayHeight();
    showChanges(root);
    giveBackFocus(root);
  }
  document.addEventListener("DOMContentLoaded", refresh);
  document.addEventListener("htmx:afterSettle", refresh);

  // The board's one tab stop moves to ``sq``, which takes the focus.
  function focusSquare(sq) {
    if (!sq) { return; }
    sq.closest("table").querySelectorAll('td.sq[tabindex="0"]').forEach(function (el) { el.tabIndex = -1; });
    sq.tabIndex = 0;
    sq.focus();
  }

  // The piece last picked, to go back to when Escape puts it back.
  var picked = null;

  // Escape closes the confirm step without sending; with none open, it puts the picked
  // piece back (its squares no longer lit) and returns to it.
  document.addEventListener("keydown", function (ev) {
    if (ev.key !== "Escape") { return; }
    if (cancel()) { ev.preventDefault(); return; }
    var root = game();
    if (!root || !root.dataset.group) { return; }
    ev.preventDefault();
    clearTargets(root);
    delete root.dataset.group;
    if (picked && document.body.contains(picked) && !picked.classList.contains("sq")) { picked.focus(); }
    picked = null;
  });

  // The live page (issue 29): the game's stream (Server-Sent Events, /games/<id>/live) names
  // each new version of the game and nothing else; a page behind it fetches its own partial
  // through the poll (/games/<id>/poll?version=N), in any tab, whoever is to act. Where the
  // stream fails or never opens (a proxy that buffers it), the poll itself runs, backing off
  // from 2 s to 30 s, and the stream is tried again at each poll. An open game's page (its
  // waiting room: data-live-mark="waiting") does the same with its room's change marker
  // (data-waiting; "seats" events, ?waiting=M): a seat taken or given up, the game started.
  // Separate functions, kept apart from the board's behaviour above.
  var LIVE_FIRST_MS = 2000, LIVE_MAX_MS = 30000, LIVE_OPEN_MS = 10000;
  var live = {source: null, url: "", latest: -1, failures: 0, timer: null, opening: null, busy: 0, posting: null};

  function liveRoot() { var root = game(); return root && root.dataset.live ? root : null; }

  // "version" (a game in progress) or "waiting" (an open game's room): what the page's
  // stream and poll name, and the page's own mark of it.
  function liveKind(root) { return root.dataset.liveMark === "waiting" ? "waiting" : "version"; }

  function livePageVersion(root) { return parseInt(root.dataset[liveKind(root)], 10); }

  function liveQuery(root) { return "?" + liveKind(root) + "=" + encodeURIComponent(root.dataset[liveKind(root)]); }

  function liveKey(root) { return root.dataset.live + liveQuery(root).split("=")[0]; }

  // The page's partial when the game moved past it (the poll answers 204 otherwise); not
  // while one of the page's own requests is out (its answer brings the new board).
  function liveFetch() {
    var root = liveRoot();
    if (!root || live.busy || live.posting || !window.htmx) { return Promise.resolve(); }
    live.busy += 1;
    var url = root.dataset.poll + liveQuery(root);
    return window.htmx.ajax("GET", url, {source: root, target: "#game", swap: "outerHTML"}).then(
      function () { live.busy -= 1; }, function () { live.busy -= 1; });
  }

  function liveCatchUp() {
    var root = liveRoot();
    if (root && live.latest > livePageVersion(root)) { liveFetch(); }
  }

  function liveStop() {
    if (live.source) { live.source.close(); }
    live.source = null; live.url = "";
    clearTimeout(live.timer); clearTimeout(live.opening);
    live.timer = live.opening = null;
  }

  // The stream failed: poll now and then, each wait twice the last (up to 30 s), and try
  // the stream again after each poll.
  function liveFallback() {
    var url = live.url;
    liveStop();
    live.url = url;  // still this game's: another swap on the page does not reopen it early
    live.failures += 1;
    var wait = Math.min(LIVE_FIRST_MS * Math.pow(2, live.failures - 1), LIVE_MAX_MS);
    live.timer = setTimeout(function () {
      live.timer = null;
      liveFetch().then(function () { if (liveRoot() && !live.source) { liveOpen(url); } });
    }, wait);
  }

  function liveOpen(url) {
    var root = liveRoot();
    if (!root || !window.EventSource) { if (root) { liveFallbackOnly(); } return; }
    if (live.source) { live.source.close(); }
    live.url = url;
    var source = live.source = new EventSource(root.dataset.live + liveQuery(root));
    live.opening = setTimeout(function () { if (live.source === source) { liveFallback(); } }, LIVE_OPEN_MS);
    source.onopen = function () { clearTimeout(live.opening); live.opening = null; live.failures = 0; };
    function heard(ev) {
      var version = parseInt(ev.data, 10);
      if (version > live.latest) { live.latest = version; }
      liveCatchUp();
    }
    source.addEventListener("version", heard);
    source.addEventListener("seats", heard);
    source.onerror = function () { if (live.source === source) { liveFallback(); } };
  }

  // No EventSource at all: the poll alone, backing off while nothing changes.
  function liveFallbackOnly() {
    clearTimeout(live.timer);
    live.timer = setTimeout(function () {
      var before = liveRoot() && liveRoot().dataset.version;
      liveFetch().then(function () {
        var root = liveRoot();
        live.failures = root && root.dataset.version !== before ? 1 : live.failures + 1;
        if (root) { liveFallbackOnly(); }
      });
    }, Math.min(LIVE_FIRST_MS * Math.pow(2, live.failures), LIVE_MAX_MS));
  }

  // On every page and every new board: one stream per game page, kept across boards.
  function liveStart() {
    var root = liveRoot();
    if (!root) { liveStop(); return; }
    if (live.url === liveKey(root) && (live.source || live.timer)) { liveCatchUp(); return; }
    liveStop();
    live.latest = -1;  // a new stream (a waiting room's game started): its own marks
    liveOpen(liveKey(root));
  }

  // An action sent from the page: its answer brings the new board; the stream's news waits
  // for it (at most 10 s) rather than fetching the same board twice.
  document.addEventListener("htmx:beforeRequest", function (ev) {
    var root = game();
    var config = ev.detail.requestConfig;
    if (!root || !root.contains(ev.detail.elt) || !config || config.verb === "get") { return; }
    live.posting = setTimeout(function () { live.posting = null; liveCatchUp(); }, 10000);
  });
  document.addEventListener("htmx:afterSettle", function () { clearTimeout(live.posting); live.posting = null; });
  document.addEventListener("DOMContentLoaded", liveStart);
  document.addEventListener("htmx:afterSettle", liveStart);
  // Back or Forward to a page kept in the browser's memory: it may be old; ask at once.
  window.addEventListener("pageshow", function (ev) {
    if (!ev.persisted) { return; }
    liveStop();
    liveFetch().then(liveStart);
  });
  window.addEventListener("pagehide", function (ev) { if (ev.persisted) { liveStop(); } });

  // The chat counts a message's characters as one types (issue 32), as the server does
  // (code points), and will not send more than its limit: the count says why.
  function countChat(input) {
    var note = document.getElementById("chat-count");
    var send = document.getElementById("chat-send");
    if (!note) { return; }
    var n = Array.from(input.value).length;
    var over = n > Number(input.dataset.max);
    note.textContent = (over ? note.dataset.over : note.dataset.words).replace("{n}", n);
    note.classList.toggle("over", over);
    input.setAttribute("aria-invalid", over ? "true" : "false");
    if (send) { send.disabled = over; }
  }
  document.addEventListener("input", function (ev) {
    if (ev.target.id === "chat-text") { countChat(ev.target); }
  });

  // Replay: arrow keys step, Home/End jump.
  document.addEventListener("keydown", function (ev) {
    if (!document.getElementById("replay") || ev.target.closest("input, select, textarea")) { return; }
    var rel = {ArrowLeft: "prev", ArrowRight: "next", Home: "first", End: "last"}[ev.key];
    var link = rel && document.querySelector('.replay-nav a[rel="' + rel + '"]');
    if (link) { ev.preventDefault(); link.click(); }
  });
})();
