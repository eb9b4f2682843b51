"""Webhooks (issue 19): delivered once through the outbox, retried, refused, disabled, discreet.

A local ``http.server`` thread receives them (``conftest.receiver``; private addresses
and plain http allowed for it alone); the address checks are tested with the resolver
replaced, so no test ever reaches past this machine.
"""

from __future__ import annotations

import socket
from typing import Any

import pytest
from django.core import mail
from django.test import Client

from games.core.errors import GameError
from games.models import Game, NotificationKind, Webhook, WebhookDelivery
from games.outbox import retries
from games.outbox import webhooks as outbox
from games.webhooks import deliver, hooks
from games.webhooks.addresses import WebhookURLError, address_allowed, checked_target
from games.webhooks.payloads import payload_for
from tests.games.factories import client_for, started_game
from tests.games.leaks import assert_json_no_leak
from tests.games.playing import passing, submit
from tests.games.webhooks.conftest import Receiver

pytestmark = pytest.mark.django_db


def _hooked_game(receiver: Receiver, kind: str = Webhook.Kind.JSON) -> tuple[Game, dict, Webhook]:
    """A started 2-player game whose seat 2 has a webhook posting to ``receiver``."""
    game, seats = started_game(2)
    hook = hooks.webhook_add(
        user=seats[2], kind=kind, url=receiver.url, on_turn=True, on_game_over=True
    )
    return game, seats, hook


def _until_seat_2_waited_on(game: Game, seats: dict, capture: Any) -> Game:
    with capture(execute=True):
        while game.to_act_seat != 2:
            game = submit(game, seats, passing)
    return game


def test_a_turn_notice_is_posted_once_whatever_runs_twice(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    game, seats, hook = _hooked_game(receiver)
    if game.to_act_seat == 2:  # seat 2 began: make the game wait on seat 1 first
        with django_capture_on_commit_callbacks(execute=True):
            while game.to_act_seat == 2:
                game = submit(game, seats, passing)
    receiver.bodies.clear()
    game = _until_seat_2_waited_on(game, seats, django_capture_on_commit_callbacks)
    (row,) = WebhookDelivery.objects.filter(webhook=hook, kind=NotificationKind.YOUR_TURN)
    assert row.status == "sent" and row.attempts == 1
    assert len(receiver.bodies) == 1
    body = receiver.bodies[0]
    assert body["event"] == "your_turn" and body["game"] == game.pk and body["ply"] == row.ply
    assert body["url"].endswith(f"/games/{game.pk}/")
    # a duplicate task, the sweep, a second write of the same row: nothing more is posted
    from games.tasks import send_webhook

    assert send_webhook.apply(args=[row.pk]).get() == "skipped"
    assert deliver.webhooks_sweep() == 0
    assert (
        outbox.deliveries_create(user_id=seats[2].pk, game=game, ply=row.ply, kind=row.kind) == []
    )
    assert len(receiver.bodies) == 1


def test_a_5xx_answer_is_retried_with_backoff_until_delivered(receiver: Receiver) -> None:
    from games.tasks import send_webhook

    game, seats, hook = _hooked_game(receiver)
    receiver.statuses = [503, 502]
    (row,) = outbox.deliveries_create(
        user_id=seats[2].pk, game=game, ply=game.version, kind=NotificationKind.GAME_OVER
    )
    # one call of the service: the row goes back to pending, due after the backoff
    with pytest.raises(deliver.TransientWebhookError, match="HTTP 503"):
        deliver.webhook_deliver(row.pk)
    row.refresh_from_db()
    assert row.status == "pending" and row.attempts == 1 and row.error == "HTTP 503"
    # the Celery task retries (eagerly here, as a worker would: errors not propagated, so
    # Celery's own autoretry runs) until the receiver says yes
    from tigris_site.celery import app as celery_app

    saved = celery_app.conf.task_eager_propagates
    celery_app.conf.task_eager_propagates = False
    try:
        assert send_webhook.apply(args=[row.pk]).get() == "sent"
    finally:
        celery_app.conf.task_eager_propagates = saved
    row.refresh_from_db()
    assert row.status == "sent" and row.attempts == 3
    assert len(receiver.bodies) == 3 and receiver.bodies[0] == receiver.bodies[2]


def test_a_transient_answer_after_the_last_retry_fails_and_counts_against_the_hook(
    receiver: Receiver,
) -> None:
    """The outbox's one retry-or-fail rule (``games.outbox.retries``), as webhooks use it."""
    game, seats, hook = _hooked_game(receiver)
    (row,) = outbox.deliveries_create(
        user_id=seats[2].pk, game=game, ply=game.version, kind=NotificationKind.GAME_OVER
    )
    WebhookDelivery.objects.filter(pk=row.pk).update(attempts=retries.MAX_RETRIES)
    receiver.statuses = [503]
    assert deliver.webhook_deliver(row.pk) == "failed"  # nothing raised: no more retries
    row.refresh_from_db()
    hook.refresh_from_db()
    assert row.status == "failed" and row.error == "HTTP 503" and row.claimed_at is None
    assert hook.failures_in_row == 1 and hook.last_error == "HTTP 503" and hook.is_active


@pytest.mark.parametrize(
    "url",
    [
        "http://hooks.example/x",  # not https
        "https://127.0.0.1/x",
        "https://localhost/x",
        "https://[::1]/x",
        "https://10.0.0.5/x",
        "https://192.168.1.1/x",
        "https://172.16.0.1/x",
        "https://169.254.169.254/latest/meta-data",
        "https://100.64.0.1/x",
        "https://0.0.0.0/x",
        "https://[::ffff:127.0.0.1]/x",
        "https://[fd00::1]/x",
        "https://user:secret@hooks.example/x",
        "ftp://hooks.example/x",
    ],
)
def test_urls_to_private_addresses_are_refused_and_nothing_is_saved(url: str) -> None:
    game, seats = started_game(2)
    with pytest.raises(GameError):
        hooks.webhook_add(user=seats[1], kind="json", url=url, on_turn=True, on_game_over=True)
    assert not Webhook.objects.exists()


@pytest.mark.parametrize(
    "address",
    [
        "64:ff9b::a00:1",  # NAT64 (well-known prefix) to 10.0.0.1
        "64:ff9b::7f00:1",  # NAT64 to 127.0.0.1
        "64:ff9b:1::a00:1",  # NAT64 for local use
        "64:ff9b:1:ffff::808:808",  # NAT64 for local use, even to a public address
        "2002:a00:1::",  # 6to4 of 10.0.0.1
        "2002:7f00:1::1",  # 6to4 of 127.0.0.1
        "::10.0.0.1",  # IPv4-compatible
        "::127.0.0.1",
        "::ffff:10.0.0.1",  # IPv4-mapped
        "::ffff:169.254.169.254",
        "2001:0:4136:e378:8000:63bf:3fff:fdd2",  # Teredo
        "2001:0:808:808:0:f5f5:f7f7:f7f7",  # Teredo, public server and client
        "192.0.0.8",  # IETF protocol assignments (192.0.0.8/29)
        "192.0.0.9",
        "192.88.99.1",  # 6to4 relay anycast
        "198.18.0.1",  # benchmarking
        "240.0.0.1",
        "5f00::1",  # SRv6 SIDs
        "3fff::1",  # documentation
        "2001:db8::1",
        "100::1",  # discard-only
        "fe80::1",
        "fec0::1",
        "ff02::1",
        "::",
        "::1",
    ],
)
def test_addresses_in_disguise_and_special_ranges_are_refused(address: str) -> None:
    """Issue 28 finding 4: every embedded IPv4 form by its inner address, every special range."""
    assert not address_allowed(address)
    host = f"[{address}]" if ":" in address else address
    with pytest.raises(WebhookURLError, match="private"):
        checked_target(f"https://{host}/hook")


@pytest.mark.parametrize(
    "address", ["93.184.216.34", "2606:4700::1111", "64:ff9b::808:808", "2002:808:808::1"]
)
def test_public_addresses_and_their_translations_are_allowed(address: str) -> None:
    assert address_allowed(address)


def _resolver(monkeypatch: Any, answers: dict[str, list[str]]) -> None:
    """Make ``host`` resolve to ``answers[host]`` (no DNS query leaves this machine)."""
    real = socket.getaddrinfo

    def fake(host: str, port: Any, *args: Any, **kwargs: Any) -> Any:
        if host in answers:
            return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (a, port)) for a in answers[host]]
        return real(host, port, *args, **kwargs)

    monkeypatch.setattr(socket, "getaddrinfo", fake)


def test_every_resolved_address_is_checked_and_again_at_send_time(monkeypatch: Any) -> None:
    _resolver(monkeypatch, {"mixed.example": ["93.184.216.34", "10.1.1.1"]})
    with pytest.raises(WebhookURLError, match="private"):
        checked_target("https://mixed.example/hook")
    _resolver(monkeypatch, {"hooks.example": ["93.184.216.34"]})
    game, seats = started_game(2)
    hook = hooks.webhook_add(
        user=seats[2],
        kind="discord",
        url="https://hooks.example/x",
        on_turn=True,
        on_game_over=True,
    )
    # DNS rebinding: by the time of the delivery the name points at this machine
    _resolver(monkeypatch, {"hooks.example": ["127.0.0.1"]})
    (row,) = outbox.deliveries_create(
        user_id=seats[2].pk, game=game, ply=0, kind=NotificationKind.GAME_OVER
    )
    assert deliver.webhook_deliver(row.pk) == "failed"
    row.refresh_from_db()
    hook.refresh_from_db()
    assert row.status == "failed" and "private" in row.error
    assert hook.failures_in_row == 1 and hook.is_active


@pytest.mark.parametrize("kind", ["json", "discord", "slack"])
def test_payloads_carry_nothing_hidden(
    receiver: Receiver, kind: str, django_capture_on_commit_callbacks: Any
) -> None:
    game, seats, hook = _hooked_game(receiver, kind)
    game = submit(game, seats, lambda legal: next(a for a in legal if str(a).startswith("swap")))
    game = _until_seat_2_waited_on(game, seats, django_capture_on_commit_callbacks)
    rows = list(WebhookDelivery.objects.filter(webhook=hook))
    assert rows and receiver.bodies
    for body in receiver.bodies:
        assert_json_no_leak(body, game, None)
        allowed = {
            "json": {"event", "game", "ply", "url", "text"},
            "discord": {"content", "allowed_mentions"},
            "slack": {"text"},
        }
        assert set(body) <= allowed[kind]
    # game over: the ranking is public then, and only names, seats and places are given
    Game.objects.filter(pk=game.pk).update(status=Game.Status.FINISHED)
    game.seats.filter(position=1).update(final_rank=1)
    game.seats.filter(position=2).update(final_rank=2)
    (over,) = outbox.deliveries_create(
        user_id=seats[2].pk, game=game, ply=game.version, kind=NotificationKind.GAME_OVER
    )
    body = payload_for(
        WebhookDelivery.objects.select_related("webhook__user", "game").get(pk=over.pk)
    )
    text = str(body)
    assert "won" in text
    if kind == "json":
        assert [r["rank"] for r in body["ranking"]] == [1, 2]
        assert set(body["ranking"][0]) == {"rank", "seat", "player"}


def test_repeated_failures_turn_a_webhook_off_with_an_email_and_a_message(
    receiver: Receiver, django_capture_on_commit_callbacks: Any
) -> None:
    game, seats, hook = _hooked_game(receiver)
    receiver.statuses = [404] * 10
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        for ply in range(deliver.DISABLE_AFTER):
            outbox.deliveries_create(
                user_id=seats[2].pk, game=game, ply=ply, kind=NotificationKind.GAME_OVER
            )
    hook.refresh_from_db()
    assert not hook.is_active and hook.disabled_at is not None and hook.last_error == "HTTP 404"
    assert len(receiver.bodies) == deliver.DISABLE_AFTER
    (email,) = mail.outbox
    assert email.to == [seats[2].email] and "turned off" in email.subject
    # no more notices are owed to it, and the settings page says why
    assert (
        outbox.deliveries_create(
            user_id=seats[2].pk, game=game, ply=99, kind=NotificationKind.GAME_OVER
        )
        == []
    )
    page = client_for(seats[2]).get("/settings").content.decode()
    assert "Turned off on" in page and "HTTP 404" in page


def test_the_settings_page_adds_and_removes_webhooks_and_refuses_bad_urls(
    receiver: Receiver, settings: Any
) -> None:
    game, seats = started_game(2)
    client = client_for(seats[1])
    settings.WEBHOOKS_ALLOW_PRIVATE = False
    form = {"kind": "slack", "url": "https://127.0.0.1/x", "on_turn": "on", "on_game_over": "on"}
    refused = client.post("/settings/webhooks", form)
    page = refused.content.decode()
    assert refused.status_code == 400 and not Webhook.objects.exists()
    assert "private, loopback or link-local" in page
    assert 'value="https://127.0.0.1/x"' in page  # what was typed, to mend
    settings.WEBHOOKS_ALLOW_PRIVATE = True
    page = client.post("/settings/webhooks", {**form, "url": receiver.url}, follow=True)
    (hook,) = Webhook.objects.filter(user=seats[1])
    assert "The webhook is added." in page.content.decode() and hook.kind == "slack"
    # someone else cannot remove it; its owner can
    client_for(seats[2]).post(f"/settings/webhooks/{hook.pk}/remove")
    assert Webhook.objects.filter(pk=hook.pk).exists()
    client.post(f"/settings/webhooks/{hook.pk}/remove")
    assert not Webhook.objects.filter(pk=hook.pk).exists()


def test_the_settings_page_shows_a_new_token_once_and_revokes_it() -> None:
    from games.models import AccessToken

    game, seats = started_game(2)
    client = client_for(seats[1])
    response = client.post("/settings/tokens", {"name": "my bot"})
    assert response.status_code == 200 and "no-store" in response["Cache-Control"]
    secret = response.context["new_token"]
    assert secret.startswith("tep_") and secret in response.content.decode()
    assert secret not in client.get("/settings").content.decode()  # shown once
    row = AccessToken.objects.get(user=seats[1])
    assert Client(HTTP_AUTHORIZATION=f"Bearer {secret}").get("/api/v1/me").status_code == 200
    client_for(seats[2]).post(f"/settings/tokens/{row.pk}/revoke")  # not theirs: nothing
    assert Client(HTTP_AUTHORIZATION=f"Bearer {secret}").get("/api/v1/me").status_code == 200
    client.post(f"/settings/tokens/{row.pk}/revoke")
    assert Client(HTTP_AUTHORIZATION=f"Bearer {secret}").get("/api/v1/me").status_code == 401
    assert client.post("/settings/tokens", {"name": ""}).status_code == 302  # refused
    assert AccessToken.objects.filter(user=seats[1]).count() == 1


def test_the_answer_showing_a_secret_sent_again_makes_no_second_token() -> None:
    from games.models import AccessToken

    _game, seats = started_game(2)
    client = client_for(seats[1])
    first = client.post("/settings/tokens", {"name": "reloadtest"})
    secret = first.context["new_token"]
    assert first.status_code == 200 and secret
    again = client.post("/settings/tokens", {"name": " reloadtest "}, follow=True)  # a reload
    assert not again.context.get("new_token") and secret not in again.content.decode()
    assert "You already have a token called “reloadtest”" in again.content.decode()
    assert AccessToken.objects.filter(user=seats[1]).count() == 1
    row = AccessToken.objects.get(user=seats[1])
    client.post(f"/settings/tokens/{row.pk}/revoke")
    assert client.post("/settings/tokens", {"name": "reloadtest"}).context["new_token"]
    assert AccessToken.objects.filter(user=seats[1], revoked_at__isnull=True).count() == 1


def test_the_settings_panel_reads_in_chinese(receiver: Receiver) -> None:
    from tests.games.text.test_i18n import (
        CJK,
        english_phrases,
        untranslated,
        visible_text,
        zh_client,
    )

    game, seats, hook = _hooked_game(receiver, "discord")
    Webhook.objects.filter(pk=hook.pk).update(
        is_active=False, disabled_at=game.created_at, last_error="HTTP 404"
    )
    client = zh_client(seats[2])
    created = client.post("/settings/tokens", {"name": "bot"})
    for content in (created.content, client.get("/settings").content):
        assert not untranslated(content, english_phrases(), [seats[2].username, "bot"])
        assert "API 令牌" in visible_text(content) and CJK.search(visible_text(content))


def test_a_turn_notice_sent_late_after_the_player_moved_is_skipped(receiver: Receiver) -> None:
    game, seats, hook = _hooked_game(receiver)
    if game.to_act_seat == 2:
        while game.to_act_seat == 2:
            game = submit(game, seats, passing)
    while game.to_act_seat != 2:  # the notice is written, not sent (no commit in this test)
        game = submit(game, seats, passing)
    row = WebhookDelivery.objects.get(webhook=hook, kind=NotificationKind.YOUR_TURN)
    assert row.status == "pending"
    game = submit(game, seats, passing)  # seat 2 moves before the notice goes out
    assert deliver.webhook_deliver(row.pk) == "skipped"
    row.refresh_from_db()
    assert row.status == "skipped" and receiver.bodies == []
