"""A push message reaches the service worker and shows the notification (issue 29).

Chromium's DevTools protocol delivers the push (``ServiceWorker.deliverPushMessage``) as a
push service would, with the payload our outbox composes for a player (``push_payload``);
the page then reads the notification the worker showed (``registration.getNotifications``):
its words in the player's language and the link to the game.

The settings page's control: Playwright's contexts are incognito, where Chromium has no
Push API (``subscribe`` is refused), so one test stubs ``PushManager`` in the page to see
our script post the subscription and take it back, and one sees the real refusal said in
the player's language.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest
from django.conf import settings
from django.test import Client

from games.accounts import profiles
from games.models import Notification, NotificationKind, PushSubscription
from games.outbox.push import push_payload
from games.webhooks import addresses
from tests.games.factories import UserFactory, started_game

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = """navigator.serviceWorker.ready
  .then(r => r.getNotifications())
  .then(ns => ns.map(n => ({
    title: n.title, body: n.body, url: n.data && n.data.url, tag: n.tag})))"""


def _push_and_read(cdp: Any, page: Any, origin: str, registration: str, payload: Any) -> Any:
    """Deliver ``payload`` as a push and return the one notification the worker showed.

    Read once per 100 ms and kept as first seen: a second read may find it gone already
    (Chromium's headless notifications do not stay). Not ``wait_for_function``, which once
    took the promise itself for a truthy answer and then read an empty list. Delivered up to
    three times, 5 s apart: once in CI (ci-j) nothing showed within 15 s of one delivery; the
    worker shows a push under the game's tag, so a repeat replaces, never adds (fails after 15 s).
    """
    data = json.dumps(payload, ensure_ascii=False)
    shown: list[dict[str, Any]] = []
    for _ in range(3):
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {"origin": origin, "registrationId": registration, "data": data},
        )
        deadline = time.monotonic() + 5
        shown = page.evaluate(SHOWN)
        while not shown and time.monotonic() < deadline:
            page.wait_for_timeout(100)
            shown = page.evaluate(SHOWN)
        if shown:
            break
    (only,) = shown
    return only


def _registration_id(cdp: Any, page: Any, scope: str) -> str:
    """Return the DevTools id of the service worker registration of ``scope``."""
    found: dict[str, str] = {}

    def seen(event: dict[str, Any]) -> None:
        for registration in event["registrations"]:
            if registration["scopeURL"] == scope and not registration["isDeleted"]:
                found["id"] = registration["registrationId"]

    cdp.on("ServiceWorker.workerRegistrationUpdated", seen)
    cdp.send("ServiceWorker.enable")
    deadline = time.monotonic() + 10
    while "id" not in found and time.monotonic() < deadline:
        page.wait_for_timeout(50)  # lets Playwright hand over the protocol's events
    return found["id"]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        ("en", {"title": "Game #{id}", "body": "Your move is due soon."}),
        ("zh-hans", {"title": "第 {id} 局", "body": "您的行动即将到期。"}),
    ],
)
def test_a_pushed_message_shows_its_words_and_link(
    browser: Any, live_server: Any, language: str, words: dict[str, str]
) -> None:
    game, seats = started_game(2)
    row = Notification.objects.create(
        user=seats[1], game=game, ply=0, kind=NotificationKind.REMINDER, send_after=game.created_at
    )
    payload = push_payload([row], language=language)
    context = browser.new_context()
    context.set_default_timeout(15_000)
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        cdp = context.new_cdp_session(page)
        registration = _registration_id(cdp, page, f"{live_server.url}/")
        shown = _push_and_read(cdp, page, live_server.url, registration, payload)
        assert shown == {
            "title": words["title"].format(id=game.pk),
            "body": words["body"],
            "url": f"{live_server.url}/games/{game.pk}/",  # on this origin, whatever SITE_URL
            "tag": f"game-{game.pk}",
        }
    finally:
        context.close()


# A subscription as Chromium's would be, for the page's script (the keys are valid ones).
FAKE_PUSH_MANAGER = """
(() => {
  const sub = {
    endpoint: "https://push.example.net/send/settings-test",
    toJSON() {
      return {endpoint: this.endpoint, keys: {
        p256dh: "BJQKq0f4kQwUvlpIBUVX5jB52PxZZL2vKSpv-ZGi7QuDaoaZlfUekyZ2IcJ5L"
          + "Z5ifmrLPHolH32ZEcBdKhhG0cY",
        auth: "AAAAAAAAAAAAAAAAAAAAAA"}};
    },
    unsubscribe() { window.__pushSub = null; return Promise.resolve(true); },
  };
  PushManager.prototype.subscribe = function (options) {
    window.__pushKeyLength = options.applicationServerKey.length;
    window.__pushSub = sub;
    return Promise.resolve(sub);
  };
  PushManager.prototype.getSubscription = function () {
    return Promise.resolve(window.__pushSub || null);
  };
})();
"""


def _settings_page(browser: Any, live_server: Any, user: Any, language: str) -> tuple[Any, Any]:
    profile = profiles.profile_get(user)
    profile.language = language
    profile.save()
    client = Client()
    client.force_login(user)
    context = browser.new_context()
    context.set_default_timeout(15_000)
    context.grant_permissions(["notifications"], origin=live_server.url)
    session = client.cookies[settings.SESSION_COOKIE_NAME].value
    context.add_cookies(
        [{"name": settings.SESSION_COOKIE_NAME, "value": session, "url": live_server.url}]
    )
    return context, context.new_page()


def test_the_settings_control_turns_notifications_on_and_off(
    browser: Any, live_server: Any, monkeypatch: Any
) -> None:
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34"])
    user = UserFactory()
    context, page = _settings_page(browser, live_server, user, "en")
    context.add_init_script(FAKE_PUSH_MANAGER)
    try:
        page.goto(f"{live_server.url}/settings")
        toggle = page.locator("#push-toggle")
        toggle.click()
        page.wait_for_function(
            "document.getElementById('push-status').textContent.includes('are on')"
        )
        assert page.evaluate("window.__pushKeyLength") == 65  # the site's public key, decoded
        (row,) = PushSubscription.objects.all()
        assert row.user_id == user.pk and row.endpoint.endswith("/settings-test")
        assert toggle.text_content() == "Turn off notifications in this browser"
        toggle.click()
        page.wait_for_function(
            "document.getElementById('push-status').textContent.includes('are off')"
        )
        assert not PushSubscription.objects.exists()
    finally:
        context.close()


def test_a_browser_that_cannot_subscribe_is_told_so_in_the_players_language(
    browser: Any, live_server: Any
) -> None:
    context, page = _settings_page(browser, live_server, UserFactory(), "zh-hans")
    try:
        page.goto(f"{live_server.url}/settings")
        page.locator("#push-toggle").click()  # incognito Chromium refuses the subscription
        page.wait_for_function("document.getElementById('push-status').textContent !== ''")
        assert page.locator("#push-status").text_content() == "浏览器未能开启通知，请稍后再试。"
        assert page.locator("#push-toggle").text_content() == "在此浏览器中开启通知"
        assert not PushSubscription.objects.exists()
    finally:
        context.close()


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (
            "en",
            {
                "on": "Notifications are on in this browser.",
                "off_label": "Turn off notifications in this browser",
            },
        ),
        ("zh-hans", {"on": "此浏览器的通知已开启。", "off_label": "在此浏览器中关闭通知"}),
    ],
)
def test_the_game_page_control_turns_notifications_on_through_the_same_endpoint(
    browser: Any, live_server: Any, monkeypatch: Any, language: str, words: dict[str, str]
) -> None:
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34"])
    game, seats = started_game(2)
    context, page = _settings_page(browser, live_server, seats[1], language)
    context.add_init_script(FAKE_PUSH_MANAGER)
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        toggle = page.locator("#notifications #push-toggle")
        toggle.click()
        page.wait_for_function(
            "document.getElementById('push-status').textContent !== ''", polling=100
        )
        assert page.locator("#push-status").text_content() == words["on"]
        assert toggle.get_attribute("aria-label") == words["off_label"]
        assert toggle.get_attribute("aria-pressed") == "true"
        (row,) = PushSubscription.objects.all()
        assert row.user_id == seats[1].pk and row.endpoint.endswith("/settings-test")
    finally:
        context.close()


def test_a_spectator_has_no_control(browser: Any, live_server: Any) -> None:
    game, seats = started_game(2)
    context, page = _settings_page(browser, live_server, UserFactory(), "en")
    try:
        page.goto(f"{live_server.url}/games/{game.pk}/")
        assert page.locator("#game").count() == 1
        assert page.locator("#notifications").count() == 0  # not their game
    finally:
        context.close()


# In the worker: the notification a push showed, clicked as the browser would dispatch it.
# No DevTools command clicks a notification, and a script-made event may neither extend
# its life (``waitUntil``) nor open a window, so the click is dispatched with those two
# hooks recorded: what the worker's own handler asks for is what is checked.
CLICK_IN_WORKER = """async (seen) => {
  // Chromium's headless notifications do not always stay: shown again from what the page saw.
  let [n] = await self.registration.getNotifications();
  if (!n) {
    await self.registration.showNotification(seen.title, {body: seen.body, tag: seen.tag,
      data: {url: seen.url}});
    [n] = await self.registration.getNotifications();
  }
  const asked = {opened: [], focused: []};
  const openWindow = self.clients.openWindow.bind(self.clients);
  self.clients.openWindow = (url) => { asked.opened.push(url); return Promise.resolve(null); };
  const matchAll = self.clients.matchAll.bind(self.clients);
  self.clients.matchAll = (o) => matchAll(o).then(tabs => tabs.map(t => ({url: t.url,
    focus() { asked.focused.push(t.url); return Promise.resolve(t); }})));
  let done = null;
  const ev = new NotificationEvent("notificationclick", {notification: n});
  Object.defineProperty(ev, "waitUntil", {value: (p) => { done = p; }});
  self.dispatchEvent(ev);
  await done;
  self.clients.openWindow = openWindow;
  self.clients.matchAll = matchAll;
  const left = await self.registration.getNotifications();
  return {...asked, closed: left.length === 0};
}"""


def test_clicking_a_delivered_notification_opens_the_games_link(
    browser: Any, live_server: Any
) -> None:
    game, seats = started_game(2)
    row = Notification.objects.create(
        user=seats[1], game=game, ply=0, kind=NotificationKind.REMINDER, send_after=game.created_at
    )
    payload = push_payload([row], language="en")
    context = browser.new_context()
    context.set_default_timeout(15_000)
    context.grant_permissions(["notifications"], origin=live_server.url)
    page = context.new_page()
    try:
        page.goto(f"{live_server.url}/")
        page.evaluate("navigator.serviceWorker.ready.then(r => r.active.state)")
        cdp = context.new_cdp_session(page)
        registration = _registration_id(cdp, page, f"{live_server.url}/")
        shown = _push_and_read(cdp, page, live_server.url, registration, payload)
        (worker,) = context.service_workers
        game_url = f"{live_server.url}/games/{game.pk}/"
        # no tab on the game: the click opens one on the game's page
        assert worker.evaluate(CLICK_IN_WORKER, shown) == {
            "opened": [game_url],
            "focused": [],
            "closed": True,
        }
        # a tab already on the game: the click brings it forward instead
        page.goto(game_url)
        shown = _push_and_read(cdp, page, live_server.url, registration, payload)
        assert worker.evaluate(CLICK_IN_WORKER, shown) == {
            "opened": [],
            "focused": [game_url],
            "closed": True,
        }
    finally:
        context.close()
