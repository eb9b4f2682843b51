"""Browser push notifications (issue 29): a channel beside email, from the outbox.

Each notification reaches each subscribed browser once, whatever runs twice; quiet hours
hold it like the email; a batched email is one push; a browser the push service says is
gone (404, 410) is forgotten; the words are the recipient's language and nothing hidden.
"""

from __future__ import annotations

import json
import random
from datetime import UTC, datetime, time, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

from games import tasks
from games.accounts import profiles
from games.core.errors import GameError
from games.models import (
    Delivery,
    Game,
    Notification,
    NotificationKind,
    NotificationPreference,
    PushDelivery,
    PushSubscription,
)
from games.outbox import retries
from games.outbox.notifications import notification_create
from games.outbox.push import push_owed
from games.play import lifecycle
from games.push import deliver
from tests.games.factories import UserFactory, client_for, play_random_plies, started_game
from tests.games.leaks import assert_push_no_leak
from tests.games.playing import passing, submit
from tests.games.push.conftest import Pushes

pytestmark = pytest.mark.django_db(transaction=True)

REAL_SESSION_POST = __import__("requests").Session.post  # before the fixture replaces it

LATE = datetime(2026, 3, 8, 4, 0, tzinfo=UTC)  # 23:00 in New York
MORNING = datetime(2026, 3, 8, 11, 0, tzinfo=UTC)  # 07:00 EDT: the quiet hours end


def _immediate(user: Any, *kinds: str) -> None:
    for kind in kinds:
        NotificationPreference.objects.update_or_create(
            user=user, kind=kind, defaults={"delivery": Delivery.IMMEDIATE}
        )


def _remind(user: Any, game: Game) -> Notification:
    row = notification_create(
        user_id=user.pk, game=game, ply=game.version, kind=NotificationKind.REMINDER
    )
    assert row is not None
    return row


def test_each_notification_is_pushed_once_to_each_browser_whatever_runs_twice(
    pushes: Pushes,
) -> None:
    game, seats = started_game(2)
    phone, laptop = pushes.browser("phone"), pushes.browser("laptop")
    phone.subscribe(seats[1])
    laptop.subscribe(seats[1])
    pushes.browser("other").subscribe(seats[2])
    row = _remind(seats[1], game)  # immediate: email and push at the commit (eager tasks)

    assert [m.to for m in mail.outbox if "due soon" in m.subject] == [[seats[1].email]]
    for browser in (phone, laptop):
        (payload,) = pushes.to(browser)
        assert payload == {
            "title": f"Game #{game.pk}",
            "body": "Your move is due soon.",
            "url": f"http://testserver/games/{game.pk}/".replace("testserver", "127.0.0.1:8000"),
            "tag": f"game-{game.pk}",
        }
    assert all(p["headers"]["Authorization"].startswith("vapid t=") for p in pushes.posts)
    # Everything again: the email task, the push rows, each push task, the sweep an hour on.
    tasks.send_notification(row.pk)
    assert push_owed([row]) == []
    for delivery in PushDelivery.objects.all():
        assert tasks.send_push(delivery.pk) == "skipped"
    with time_machine.travel(datetime.now(UTC) + timedelta(hours=1)):
        assert tasks.sweep_push() == 0
    assert len(pushes.posts) == 2
    assert set(PushDelivery.objects.values_list("status", flat=True)) == {"sent"}


def test_a_push_waits_for_the_end_of_quiet_hours_like_the_email(pushes: Pushes) -> None:
    sleeper = UserFactory()
    profile = profiles.profile_get(sleeper)
    profile.time_zone = "America/New_York"
    profile.quiet_start, profile.quiet_end = time(22), time(7)
    profile.save()
    browser = pushes.browser("sleeper")
    browser.subscribe(sleeper)
    with time_machine.travel(LATE, tick=False) as clock:
        game, _seats = started_game(2)
        _remind(sleeper, game)
        assert pushes.posts == [] and not PushDelivery.objects.exists()
        clock.move_to(MORNING + timedelta(minutes=2))
        tasks.sweep_outbox()  # the email's sweep: the held row goes out, its push with it
        assert [p["body"] for p in pushes.to(browser)] == ["Your move is due soon."]
        # A push left pending into the next quiet hours (a retry) is held again, not sent.
        again = _remind(sleeper, Game.objects.create(creator=sleeper, num_players=2))
        clock.move_to(LATE + timedelta(days=1))
        PushDelivery.objects.filter(notification=again).update(status="pending")
        (held,) = PushDelivery.objects.filter(notification=again)
        assert deliver.push_deliver(held.pk) == "held"
        held.refresh_from_db()
        assert held.status == "pending" and held.send_after == MORNING + timedelta(days=1)
    assert len(pushes.posts) == 2  # the first one and the second reminder's, before the night


def test_a_batched_email_is_one_push_in_the_players_language(pushes: Pushes) -> None:
    player = UserFactory()
    profile = profiles.profile_get(player)
    profile.language = "zh-hans"
    profile.save()
    browser = pushes.browser("batched")
    browser.subscribe(player)
    start = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    with time_machine.travel(start, tick=False) as clock:
        games = []
        for _n in range(2):  # two games, each waiting on the player: batched rows (default)
            other = UserFactory()
            game = lifecycle.game_create(creator=other, num_players=2)
            lifecycle.game_join(game_id=game.pk, user=player)
            game.refresh_from_db()
            seats = {s.position: s.user for s in game.seats.all()}
            while seats[game.to_act_seat or 0] == player:
                game = submit(game, seats, passing)
            while seats[game.to_act_seat or 0] != player:
                game = submit(game, seats, passing)
            games.append(game)
        turn_posts = len(pushes.posts)
        clock.shift(timedelta(minutes=16))
        tasks.send_batched()
        tasks.send_batched()  # the next minute's sweep: nothing more
    payloads = pushes.to(browser)[turn_posts:]
    assert payloads == [
        {
            "title": "《两河流域》",
            "body": "2 局对局有新消息。",
            "url": "http://127.0.0.1:8000/#my-games",
            "tag": "games",
        }
    ]


def test_a_browser_the_push_service_says_is_gone_is_forgotten(pushes: Pushes) -> None:
    game, seats = started_game(2)
    gone, flaky, refused = (pushes.browser(n) for n in ("gone", "flaky", "refused"))
    for browser in (gone, flaky, refused):
        browser.subscribe(seats[1])
    pushes.statuses = [410, 503, 400]  # in the order the rows are posted (subscription order)
    _remind(seats[1], game)  # the pushes run at the commit; a failing one is logged
    assert not PushSubscription.objects.filter(endpoint=gone.endpoint).exists()
    rows = {r.subscription.endpoint: r for r in PushDelivery.objects.select_related("subscription")}
    assert {e: r.status for e, r in rows.items()} == {
        flaky.endpoint: "pending",  # retried later (Celery, then the sweep)
        refused.endpoint: "failed",
    }
    assert len(pushes.posts) == 3


def test_each_answer_of_the_push_service_is_handled(pushes: Pushes) -> None:
    game, seats = started_game(2)
    browser = pushes.browser("one")
    sub = browser.subscribe(seats[1])
    row = Notification.objects.create(
        user=seats[1], game=game, ply=0, kind=NotificationKind.REMINDER, send_after=game.created_at
    )
    (delivery,) = push_owed([row])  # not executed: no on-commit outside a transaction here
    PushDelivery.objects.filter(pk=delivery.pk).update(status="pending")
    pushes.posts.clear()
    pushes.statuses = [503]
    with pytest.raises(deliver.TransientPushError):
        deliver.push_deliver(delivery.pk)
    delivery.refresh_from_db()
    assert delivery.status == "pending" and delivery.send_after > game.created_at
    pushes.statuses = [400]
    assert deliver.push_deliver(delivery.pk) == "failed"
    PushDelivery.objects.filter(pk=delivery.pk).update(status="pending")
    pushes.statuses = [404]
    assert deliver.push_deliver(delivery.pk) == "gone"
    assert not PushSubscription.objects.filter(pk=sub.pk).exists()
    assert not PushDelivery.objects.filter(pk=delivery.pk).exists()


def test_a_transient_answer_after_the_last_retry_fails_the_row_for_good(
    pushes: Pushes,
) -> None:
    """The outbox's one retry-or-fail rule (``games.outbox.retries``), as push uses it."""
    game, seats = started_game(2)
    pushes.browser("one").subscribe(seats[1])
    row = Notification.objects.create(
        user=seats[1], game=game, ply=0, kind=NotificationKind.REMINDER, send_after=game.created_at
    )
    (delivery,) = push_owed([row])
    PushDelivery.objects.filter(pk=delivery.pk).update(
        status="pending", attempts=retries.MAX_RETRIES
    )
    pushes.statuses = [503]
    assert deliver.push_deliver(delivery.pk) == "failed"  # nothing raised: no more retries
    delivery.refresh_from_db()
    assert delivery.status == "failed" and delivery.attempts == retries.MAX_RETRIES + 1
    assert delivery.error.startswith("HTTP 503") and delivery.claimed_at is None


def test_push_payloads_show_nothing_hidden(pushes: Pushes) -> None:
    game, seats = started_game(3)
    browsers = {}
    for position, user in seats.items():
        _immediate(user, *NotificationKind.values)
        browsers[position] = pushes.browser(f"seat-{position}")
        browsers[position].subscribe(user)
    game = play_random_plies(game, seats, 40, random.Random(29))
    sent = 0
    for browser in browsers.values():
        for payload in pushes.to(browser):  # as the browser decrypts it
            sent += 1
            assert_push_no_leak(payload, game)  # a lock screen: not even the seat's own
            for user in seats.values():
                assert user.username not in json.dumps(payload)
    assert sent >= 3
    for delivery in PushDelivery.objects.all():
        assert_push_no_leak(delivery.payload, game)


def _subscription_json(pushes: Pushes, name: str) -> dict[str, Any]:
    browser = pushes.browser(name)
    return {
        "endpoint": browser.endpoint,
        "keys": {"p256dh": browser.p256dh, "auth": "AAAAAAAAAAAAAAAAAAAAAA"},
    }


def test_the_settings_control_turns_a_browser_on_and_off(pushes: Pushes) -> None:
    user = UserFactory()
    client = client_for(user)
    page = client.get("/settings").content.decode()
    assert 'id="push-toggle"' in page and "data-push-key=" in page
    body = _subscription_json(pushes, "mine")
    answer = client.post("/settings/push", body, content_type="application/json")
    assert answer.status_code == 201
    assert PushSubscription.objects.get().user == user
    # the same browser, another account signed in: it moves
    other = client_for(UserFactory())
    assert other.post("/settings/push", body, content_type="application/json").status_code == 201
    assert PushSubscription.objects.get().user != user
    answer = other.post(
        "/settings/push/remove", {"endpoint": body["endpoint"]}, content_type="application/json"
    )
    assert answer.json() == {"ok": True, "removed": True}
    assert not PushSubscription.objects.exists()


@pytest.mark.parametrize(
    "change",
    [
        {"endpoint": "http://push.example.net/send/x"},
        {"endpoint": "https://push.example.net/" + "x" * 1000},
        {"keys": {"p256dh": "not-a-key", "auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
        {"keys": {"auth": "AAAAAAAAAAAAAAAAAAAAAA"}},
        {"keys": "nothing"},
        {"endpoint": 12},
    ],
)
def test_a_bad_subscription_is_refused_with_a_reason_and_nothing_stored(
    pushes: Pushes, change: dict[str, Any]
) -> None:
    client = client_for(UserFactory())
    body = {**_subscription_json(pushes, "bad"), **change}
    answer = client.post("/settings/push", body, content_type="application/json")
    assert answer.status_code == 400 and answer.json()["error"]
    assert not PushSubscription.objects.exists()
    assert client.post("/settings/push", "{", content_type="application/json").status_code == 400


def test_a_private_push_address_is_refused(pushes: Pushes, monkeypatch: Any) -> None:
    from games.webhooks import addresses

    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["10.0.0.8"])
    browser = pushes.browser("intranet")
    with pytest.raises(GameError):
        browser.subscribe(UserFactory())
    assert not PushSubscription.objects.exists()


def _owed_push(pushes: Pushes) -> PushDelivery:
    """A pending push row to one subscribed browser, not posted yet."""
    game, seats = started_game(2)
    pushes.browser("one").subscribe(seats[1])
    row = Notification.objects.create(
        user=seats[1], game=game, ply=0, kind=NotificationKind.REMINDER, send_after=game.created_at
    )
    (delivery,) = push_owed([row])  # not executed: no on-commit outside a transaction here
    PushDelivery.objects.filter(pk=delivery.pk).update(status="pending")
    pushes.posts.clear()  # the game's start, pushed already
    return delivery


def test_an_endpoint_resolving_to_our_network_at_send_time_is_refused(
    pushes: Pushes, monkeypatch: Any
) -> None:
    from games.webhooks import addresses

    delivery = _owed_push(pushes)  # subscribed while its host resolved to a public address
    for private in ("10.0.0.8", "127.0.0.1", "169.254.169.254", "::ffff:192.168.1.1", "fd00::1"):
        PushDelivery.objects.filter(pk=delivery.pk).update(status="pending")
        monkeypatch.setattr(addresses, "resolve", lambda host, port, ip=private: [ip])
        assert deliver.push_deliver(delivery.pk) == "failed", private
        delivery.refresh_from_db()
        assert delivery.status == "failed" and delivery.error.startswith("refused"), private
    # one public address among private ones is refused too: any of them could be reached
    PushDelivery.objects.filter(pk=delivery.pk).update(status="pending")
    monkeypatch.setattr(addresses, "resolve", lambda host, port: ["93.184.216.34", "10.0.0.8"])
    assert deliver.push_deliver(delivery.pk) == "failed"
    assert pushes.posts == []


def test_a_push_connects_to_the_address_checked_not_a_new_answer(
    pushes: Pushes, monkeypatch: Any
) -> None:
    import socket

    import requests
    import urllib3.util.connection

    delivery = _owed_push(pushes)
    monkeypatch.setattr(requests.Session, "post", REAL_SESSION_POST)  # the real transport
    asked: list[object] = []

    def rebinding(host: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(host)  # a second lookup would answer with our own network
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", ("10.0.0.8", 443))]

    def no_network(address: tuple[str, int], *args: Any, **kwargs: Any) -> Any:
        asked.append(address)
        raise OSError("no network in the tests")

    monkeypatch.setattr(socket, "getaddrinfo", rebinding)
    monkeypatch.setattr(urllib3.util.connection, "create_connection", no_network)
    with pytest.raises(deliver.TransientPushError):
        deliver.push_deliver(delivery.pk)
    # the checked address (the fixture's resolve), once, and never a lookup of the host
    assert asked == [("93.184.216.34", 443)]


def test_a_push_service_redirect_is_not_followed(pushes: Pushes) -> None:
    delivery = _owed_push(pushes)
    pushes.statuses = [307]
    assert deliver.push_deliver(delivery.pk) == "failed"
    assert len(pushes.posts) == 1 and pushes.posts[0]["url"].startswith("https://push.example.net")


def test_signed_out_and_forged_requests_change_nothing(pushes: Pushes) -> None:
    body = _subscription_json(pushes, "anon")
    answer = Client().post("/settings/push", body, content_type="application/json")
    assert answer.status_code == 302
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(UserFactory())
    answer = strict.post("/settings/push", body, content_type="application/json")
    assert answer.status_code == 403
    assert not PushSubscription.objects.exists()


def test_the_push_leak_check_catches_a_leak() -> None:
    game, _seats = started_game(2)
    good = {"title": f"Game #{game.pk}", "body": "It is your move.", "url": "http://x/", "tag": "t"}
    assert_push_no_leak(good, game)
    for bad in (
        {**good, "body": "It is your move: you have 7 points."},
        {**good, "seed": game.seed},
        {**good, "url": "https://elsewhere.example/steal?h=red"},
    ):
        with pytest.raises(AssertionError):
            assert_push_no_leak(bad, game)


def test_the_embedded_mode_posts_from_the_sweep_never_in_the_request(
    pushes: Pushes, settings: Any
) -> None:
    settings.PUSH_QUEUED = False  # eager tasks, no broker: `run_sweeps` posts pushes
    game, seats = started_game(2)
    browser = pushes.browser("embedded")
    browser.subscribe(seats[1])
    _remind(seats[1], game)  # the email goes at the commit; its push only waits
    assert pushes.posts == []
    assert PushDelivery.objects.get().status == "pending"
    assert tasks.sweep_push() == 1
    assert [p["body"] for p in pushes.to(browser)] == ["Your move is due soon."]
    assert tasks.sweep_push() == 0
    assert len(pushes.posts) == 1


def test_every_kind_has_its_words_in_both_languages() -> None:
    from django.utils import translation

    from games.text.push import push_body

    for kind in NotificationKind.values:
        with translation.override("en"):
            english = push_body(kind)
        with translation.override("zh-hans"):
            chinese = push_body(kind)
        assert english and chinese and english != chinese, kind
