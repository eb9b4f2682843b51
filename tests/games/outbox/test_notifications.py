"""The email outbox: who is told what, exactly once, through retries, batches and digests."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client
from kombu.exceptions import OperationalError

from games import tasks
from games.accounts import profiles
from games.core.states import game_state
from games.mail import deliver, sending
from games.models import Delivery, Game, Notification, NotificationKind
from games.selectors import people
from games.text import seats as seat_text
from tests.games.factories import client_for, started_game
from tests.games.mail_backends import FlakyBackend
from tests.games.playing import passing, randomly, submit
from tigris_site.celery import app as celery_app

# Real transactions, so each service's on-commit hooks (the queued eager tasks) run when
# its transaction commits, as in production.
pytestmark = pytest.mark.django_db(transaction=True)

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


@pytest.fixture(autouse=True)
def _players_chose_immediately(monkeypatch: pytest.MonkeyPatch) -> None:
    """These tests are about the outbox's immediate path: every player here chose it.

    The default (after a delay, issue 17) is tested in ``tests/games/mail/test_batched.py``.
    """
    monkeypatch.setattr(people, "DEFAULT_DELIVERY", {})


@pytest.fixture
def run_on_commit() -> None:
    """Name the tests that rely on on-commit hooks running (they do: real transactions)."""


def _start(num_players: int = 2, **options: Any) -> tuple[Game, dict[int, Any]]:
    game, seats = started_game(num_players, **options)
    return game, seats


def _play_until_other_seat(game: Game, seats: dict[int, Any]) -> Game:
    """Pass until the game waits on a different seat than now; return the game."""
    first = game.to_act_seat
    while game.to_act_seat == first:
        game = submit(game, seats, passing)
    return game


def test_game_start_tells_every_player_once_naming_whose_move(run_on_commit: Any) -> None:
    game, seats = _start(3)
    assert sorted(m.to[0] for m in mail.outbox) == sorted(u.email for u in seats.values())
    mover = seats[game.to_act_seat or 0]
    first = seat_text.display_name(mover)
    for message in mail.outbox:
        assert f"Game #{game.pk}" in message.subject
        mine = message.to == [mover.email]  # the one who moves first reads "your move"
        assert (": your move" if mine else f"{first}'s move") in message.subject


def test_a_move_sends_exactly_one_email_to_the_next_player(run_on_commit: Any) -> None:
    game, seats = _start(2)
    mail.outbox.clear()
    first = game.to_act_seat
    game = submit(game, seats, lambda legal: legal[0])  # a tile: the first of two actions
    assert game.to_act_seat == first  # the first of two actions: still the same player
    assert mail.outbox == []
    game = _play_until_other_seat(game, seats)
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [seats[game.to_act_seat or 0].email]
    mover = seat_text.display_name(seats[first or 0])
    assert message.subject == f"Game #{game.pk} · {mover} passed — your move"
    row = Notification.objects.get(kind=NotificationKind.YOUR_TURN)
    assert row.status == Notification.Status.SENT
    assert row.message_id and message.extra_headers["Message-ID"] == row.message_id
    # Running the task again (a duplicate broker message) sends nothing.
    assert tasks.send_notification.delay(row.pk).get() == "skipped"
    assert len(mail.outbox) == 1


def test_email_has_both_parts_one_game_link_settings_and_one_click_headers(
    run_on_commit: Any,
) -> None:
    game, seats = _start(2)
    mail.outbox.clear()
    game = _play_until_other_seat(game, seats)
    message = mail.outbox[0]
    html, mimetype = message.alternatives[0]
    assert mimetype == "text/html"
    game_url = f"http://127.0.0.1:8000/games/{game.pk}/"
    assert message.body.count(game_url) == 1
    assert html.count(f'href="{game_url}"') == 1
    assert "http://127.0.0.1:8000/settings" in message.body
    assert message.extra_headers["List-Unsubscribe-Post"] == "List-Unsubscribe=One-Click"
    assert re.fullmatch(
        r"<http://127\.0\.0\.1:8000/unsubscribe/[^>]+>", message.extra_headers["List-Unsubscribe"]
    )


def test_transient_smtp_failure_is_retried_and_sends_once(
    run_on_commit: Any, settings: Any
) -> None:
    # Eager tasks that propagate errors raise Celery's Retry instead of retrying inline;
    # not propagating lets Celery's own autoretry run the retry eagerly, as a worker would.
    saved = celery_app.conf.task_eager_propagates
    celery_app.conf.task_eager_propagates = False
    try:
        _transient_failure_once(settings)
    finally:
        celery_app.conf.task_eager_propagates = saved


def _transient_failure_once(settings: Any) -> None:
    game, seats = _start(2)
    mail.outbox.clear()
    settings.MAILERS = {"default": {"BACKEND": "tests.games.mail_backends.FlakyBackend"}}
    FlakyBackend.calls, FlakyBackend.failures = 0, 1
    game = _play_until_other_seat(game, seats)
    assert FlakyBackend.calls == 2
    assert len(mail.outbox) == 1
    assert mail.outbox[0].to == [seats[game.to_act_seat or 0].email]
    row = Notification.objects.get(kind=NotificationKind.YOUR_TURN)
    assert (row.status, row.attempts) == (Notification.Status.SENT, 2)


def test_permanent_smtp_failure_marks_the_row_failed(run_on_commit: Any, settings: Any) -> None:
    game, seats = _start(2)
    mail.outbox.clear()
    settings.MAILERS = {"default": {"BACKEND": "tests.games.mail_backends.RejectingBackend"}}
    _play_until_other_seat(game, seats)
    row = Notification.objects.get(kind=NotificationKind.YOUR_TURN)
    assert row.status == Notification.Status.FAILED
    assert "550" in row.error and "No such user" in row.error
    assert mail.outbox == []


def test_a_broker_that_does_not_answer_fails_no_move_and_the_sweep_sends_what_is_owed(
    monkeypatch: Any, caplog: Any
) -> None:
    # The broker is down while the game starts and a move is played over HTTP.
    down = True
    real_delay = tasks.send_notification.delay

    def delay(*args: Any, **kwargs: Any) -> Any:
        if down:
            raise OperationalError("Error 111 connecting to the broker")
        return real_delay(*args, **kwargs)

    monkeypatch.setattr(tasks.send_notification, "delay", delay)
    with time_machine.travel(START, tick=False):
        game, seats = _start(2)
        mover = game.to_act_seat or 0
        response = client_for(seats[mover]).post(
            f"/games/{game.pk}/act",
            {"action": "pass", "version": game.version},
            HTTP_HX_REQUEST="true",
        )
        assert response.status_code == 200  # the move stands, and the player is told so
        game = _play_until_other_seat(game, seats)
    assert game.version >= 2 and mail.outbox == []
    # One line a task, no traceback: the operator reads "broker unavailable", not a crash.
    unqueued = [r for r in caplog.records if "broker unavailable" in r.getMessage()]
    assert unqueued and all(r.levelname == "WARNING" and not r.exc_info for r in unqueued)
    assert not [r for r in caplog.records if r.levelname == "ERROR"]
    owed = Notification.objects.count()  # two game_started, and your_turn at each turn passed
    assert owed >= 3
    assert set(Notification.objects.values_list("status", flat=True)) == {"pending"}
    down = False
    with time_machine.travel(START + timedelta(seconds=30), tick=False):
        assert tasks.sweep_outbox() == 0  # too young: its task may still be on its way
    with time_machine.travel(START + timedelta(minutes=2), tick=False):
        assert tasks.sweep_outbox() == owed
        assert tasks.sweep_outbox() == 0
    # A "your move" for a turn the player has taken meanwhile is not sent late.
    game.refresh_from_db()
    waiting_on = game.seats.get(position=game.to_act_seat).user
    statuses = {
        (r.kind, r.user_id == waiting_on.pk and r.ply == game.version): r.status
        for r in Notification.objects.all()
    }
    assert statuses[("game_started", False)] == "sent"
    assert statuses[("your_turn", True)] == "sent"  # the turn it waits on now
    assert statuses[("your_turn", False)] == "skipped"  # turns already taken
    sent = Notification.objects.filter(status="sent").count()
    assert len(mail.outbox) == sent == owed - Notification.objects.filter(status="skipped").count()
    turns = [m for m in mail.outbox if "your move" in m.subject and "started" not in m.subject]
    assert [m.to for m in turns] == [[waiting_on.email]]


def _full_random_game(
    seed: int, run: Any
) -> tuple[Game, dict[int, Any], list[tuple[int, Any, Any]]]:
    rng = random.Random(seed)
    game, seats = _start(2, open_scoring=False)
    history = []
    while game.status == Game.Status.ACTIVE:
        before = game_state(game)
        game = submit(game, seats, randomly(rng))
        history.append((game.version, before, game_state(game)))
    return game, seats, history


def test_who_is_told_over_a_whole_game_and_no_email_leaks(run_on_commit: Any) -> None:
    game, seats, history = _full_random_game(11, run_on_commit)
    rows = {(n.user_id, n.ply, n.kind) for n in Notification.objects.filter(game=game)}
    expected = {(u.pk, 0, "game_started") for u in seats.values()}
    expected |= {(u.pk, game.version, "game_over") for u in seats.values()}
    kinds_seen = set()
    for ply, before, after in history:
        if after.is_over or after.to_act == before.to_act:
            continue
        pending = after.pending
        kind = "decision" if pending and pending.seat != after.active_seat else "your_turn"
        kinds_seen.add(kind)
        expected.add((seats[after.to_act].pk, ply, kind))
    assert rows == expected
    assert "decision" in kinds_seen, "this seed's game should ask an out-of-turn decision"
    assert len(mail.outbox) == len(rows)
    assert Notification.objects.exclude(status=Notification.Status.SENT).count() == 0
    # No email before the end carries a number other than the game's and its deadline: no
    # hand, no totals. Turn emails retell the public log since the recipient's last move
    # ("  · " lines, with squares and VP), never another player's swapped-out colours.
    for message in mail.outbox:
        if "is over" in message.subject or "has started" in message.subject:
            continue
        body = message.body.split("\n-- \n")[0]
        retold = [line for line in body.splitlines() if line.startswith("  · ")]
        if "your move" in message.subject:
            assert retold, body  # someone else moved since: the email says what they did
        assert not any("discarded" in line for line in retold), retold
        body = "\n".join(line for line in body.splitlines() if not line.startswith("  · "))
        text = body.replace(f"#{game.pk}", "")
        text = re.sub(r"https?://\S+", "", text)
        text = re.sub(r"Due by \d{4}-\d\d-\d\d \d\d:\d\d \w+\.", "", text)
        for user in seats.values():
            text = text.replace(seat_text.display_name(user), "")
        assert not re.search(r"\d", text), text
    # The game-over email ranks both players with their scores (everything is public then).
    over = [m for m in mail.outbox if "is over" in m.subject]
    assert len(over) == 2
    for seat in game.seats.all():
        assert f"{seat.final_rank}. {seat_text.display_name(seat.user)}" in over[0].body


@pytest.mark.parametrize("count", [1, 3])
@pytest.mark.parametrize("delivery", [Delivery.BATCHED, Delivery.DIGEST])
def test_batched_and_digest_send_one_email_for_several_games(
    run_on_commit: Any, delivery: str, count: int, user_factory: Any
) -> None:
    from games.play import lifecycle

    me = user_factory()
    profiles.profile_get(me)
    profiles.preference_set(user_id=me.pk, kind="your_turn", delivery=delivery, batch_minutes=15)
    profiles.preference_set(user_id=me.pk, kind="game_started", delivery=Delivery.OFF)
    with time_machine.travel(START, tick=False):
        mine = []
        for _ in range(count):
            other = user_factory()
            for kind in ("game_started", "your_turn"):
                profiles.preference_set(user_id=other.pk, kind=kind, delivery=Delivery.OFF)
            game = lifecycle.game_create(creator=other, num_players=2)
            lifecycle.game_join(game_id=game.pk, user=me)
            game.refresh_from_db()
            seats = {s.position: s.user for s in game.seats.all()}
            if seats[game.to_act_seat or 0] == me:
                game = _play_until_other_seat(game, seats)
            game = _play_until_other_seat(game, seats)  # now it is my move
            assert seats[game.to_act_seat or 0] == me
            mine.append(game)
        assert mail.outbox == []
        assert tasks.send_batched() == tasks.send_daily_digest() == 0
    later = (
        START + timedelta(minutes=16) if delivery == Delivery.BATCHED else START + timedelta(days=1)
    )
    with time_machine.travel(later, tick=False):
        if delivery == Delivery.BATCHED:
            assert tasks.send_daily_digest() == 0
            assert tasks.send_batched() == 1
        else:
            assert tasks.send_batched() == 0
            assert tasks.send_daily_digest() == 1
        assert tasks.send_batched() == tasks.send_daily_digest() == 0
    assert len(mail.outbox) == 1
    message = mail.outbox[0]
    assert message.to == [me.email]
    if delivery == Delivery.DIGEST:
        waiting = "1 game waiting for you" if count == 1 else f"{count} games waiting for you"
        assert waiting in message.subject
    elif count == 1:  # one game: its own subject, saying what happened and what is asked
        assert message.subject.startswith(f"Game #{mine[0].pk} · ")
        assert message.subject.endswith(" — your move")
    else:
        assert message.subject == f"Your move in {count} games"
    for game in mine:
        assert f"/games/{game.pk}/" in message.body
    for game in mine:  # each game is listed with its deadline (3 days per move by default)
        game.refresh_from_db()
        assert game.deadline is not None
        assert (
            f"Game #{game.pk} (due by {sending.deadline_text(game.deadline, me)}):" in message.body
        )
    assert set(Notification.objects.filter(user=me).values_list("status", flat=True)) == {"sent"}


def test_digest_goes_out_at_eight_in_the_players_time_zone() -> None:
    from games.outbox.notifications import next_digest_time

    now = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)
    assert next_digest_time(now, "UTC") == datetime(2026, 3, 3, 8, 0, tzinfo=UTC)
    assert next_digest_time(now, "America/New_York") == datetime(2026, 3, 2, 13, 0, tzinfo=UTC)
    assert next_digest_time(now, "Not/AZone") == datetime(2026, 3, 3, 8, 0, tzinfo=UTC)


def test_turned_off_kind_writes_no_row(run_on_commit: Any, user_factory: Any) -> None:
    game, seats = _start(2)
    mail.outbox.clear()
    nxt = 2 if game.to_act_seat == 1 else 1
    profiles.preference_set(user_id=seats[nxt].pk, kind="your_turn", delivery=Delivery.OFF)
    _play_until_other_seat(game, seats)
    assert mail.outbox == []
    assert not Notification.objects.filter(kind="your_turn").exists()


def test_one_click_unsubscribe_turns_off_that_kind_only(run_on_commit: Any) -> None:
    game, seats = _start(2)
    mail.outbox.clear()
    game = _play_until_other_seat(game, seats)
    me = seats[game.to_act_seat or 0]
    header = mail.outbox[0].extra_headers["List-Unsubscribe"]
    path = header.strip("<>").removeprefix("http://127.0.0.1:8000")
    client = Client(enforce_csrf_checks=True)
    page = client.get(path)
    assert page.status_code == 200 and b'method="post"' in page.content
    assert people.preference_get(me.pk, "your_turn")[0] == Delivery.IMMEDIATE
    response = client.post(path, {"List-Unsubscribe": "One-Click"})
    assert response.status_code == 200
    assert people.preference_get(me.pk, "your_turn")[0] == Delivery.OFF
    assert people.preference_get(me.pk, "game_over")[0] == Delivery.IMMEDIATE


def test_forged_unsubscribe_token_is_refused_and_changes_nothing(user_factory: Any) -> None:
    me = user_factory()
    token = sending.unsubscribe_token(me.pk, "your_turn")
    forged = sending.unsubscribe_token(me.pk, "game_over")[:-3] + "abc"
    other_kind = token.replace(token.split(":")[0], "eyJ1IjoxLCJrIjoiZ2FtZV9vdmVyIn0")
    client = Client()
    for bad in (forged, other_kind, "nonsense"):
        assert client.post(f"/unsubscribe/{bad}").status_code == 400
        assert client.get(f"/unsubscribe/{bad}").status_code == 400
    assert people.preferences_all(me.pk)["your_turn"][0] == Delivery.IMMEDIATE
    assert people.preferences_all(me.pk)["game_over"][0] == Delivery.IMMEDIATE


def test_a_transient_failure_waits_out_its_backoff_before_the_sweep_requeues_it(
    monkeypatch: Any, settings: Any
) -> None:
    # Celery's own retry message is lost; only the sweep can send the row again, and not
    # before the backoff the failed attempt set.
    monkeypatch.setattr(
        tasks.send_notification, "retry", lambda *a, **k: deliver.TransientSendError("lost")
    )
    with time_machine.travel(START, tick=False), monkeypatch.context() as lost:
        lost.setattr(tasks.send_notification, "delay", lambda *a, **k: None)
        game, seats = _start(2)
        _play_until_other_seat(game, seats)
    row = Notification.objects.get(kind=NotificationKind.YOUR_TURN)
    settings.MAILERS = {"default": {"BACKEND": "tests.games.mail_backends.FlakyBackend"}}
    FlakyBackend.calls, FlakyBackend.failures = 0, 1
    with time_machine.travel(START + timedelta(minutes=2), tick=False):
        with pytest.raises(deliver.TransientSendError):
            tasks.send_notification.run(row.pk)
        row.refresh_from_db()
        assert row.status == Notification.Status.PENDING and row.attempts == 1
        assert row.send_after == START + timedelta(minutes=2) + deliver.retry_delay(1)
    with time_machine.travel(START + timedelta(minutes=2, seconds=10), tick=False):
        tasks.sweep_outbox()
        row.refresh_from_db()
        assert row.status == Notification.Status.PENDING  # still waiting out its backoff
    with time_machine.travel(START + timedelta(minutes=3), tick=False):
        tasks.sweep_outbox()
        row.refresh_from_db()
        assert row.status == Notification.Status.SENT and row.attempts == 2


def test_a_row_fails_after_max_retries_whichever_chain_sends_it(settings: Any) -> None:
    game, seats = _start(2)
    _play_until_other_seat(game, seats)
    row = Notification.objects.get(kind=NotificationKind.YOUR_TURN)
    Notification.objects.filter(pk=row.pk).update(
        status=Notification.Status.PENDING, attempts=deliver.MAX_RETRIES + 1
    )
    settings.MAILERS = {"default": {"BACKEND": "tests.games.mail_backends.FlakyBackend"}}
    FlakyBackend.calls, FlakyBackend.failures = 0, 1
    assert tasks.send_notification.run(row.pk) == "failed"  # a fresh chain: retries == 0
    row.refresh_from_db()
    assert row.status == Notification.Status.FAILED and "SMTPServerDisconnected" in row.error
