"""A push message reaches the service worker and shows the notification (issue 29).

Chromium's DevTools protocol delivers the push (``ServiceWorker.deliverPushMessage``) as a
push service would, with the payload our outbox composes for a player (``push_payload``);
the page then reads the notification the worker showed (``registration.getNotifications``):
its words in the player's language and the link to the game.
"""

from __future__ import annotations

import json
import time
from typing import Any

import pytest

from games.models import Notification, NotificationKind
from games.outbox.push import push_payload
from tests.games.factories import started_game

pytestmark = pytest.mark.django_db(transaction=True)

SHOWN = """navigator.serviceWorker.ready
  .then(r => r.getNotifications())
  .then(ns => ns.map(n => ({title: n.title, body: n.body, url: n.data && n.data.url, tag: n.tag})))"""


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
        cdp.send(
            "ServiceWorker.deliverPushMessage",
            {
                "origin": live_server.url,
                "registrationId": registration,
                "data": json.dumps(payload, ensure_ascii=False),
            },
        )
        page.wait_for_function(f"({SHOWN}).then(ns => ns.length > 0)", polling=100)
        (shown,) = page.evaluate(SHOWN)
        assert shown == {
            "title": words["title"].format(id=game.pk),
            "body": words["body"],
            "url": f"{live_server.url}/games/{game.pk}/",  # on this origin, whatever SITE_URL
            "tag": f"game-{game.pk}",
        }
    finally:
        context.close()
