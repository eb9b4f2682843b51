"""Time controls (issue 6): reminders, timeouts, dropped seats, resignation, lobby expiry.

The clock is driven with time_machine; ``tasks.sweep_deadlines`` is the beat sweep.
"""

from __future__ import annotations

import random
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
import time_machine
from django.core import mail
from django.test import Client

import engine
from games import tasks
from games.core import clock as clock_rules
from games.core import errors as game_errors
from games.core.states import game_state, state_to_db
from games.mail import notification as emails
from games.models import Game, Move, Notification, NotificationKind, Profile, Seat
from games.play import deadlines, lifecycle, policy, timeouts
from games.text import seats as seat_text
from tests.engine.rules_helpers import play, position
from tests.games.factories import client_for, game_at_state, started_game
from tests.games.leaks import assert_no_leak
from tests.games.playing import passing, submit

pytestmark = pytest.mark.django_db

START = datetime(2026, 3, 2, 10, 0, tzinfo=UTC)


def _rows(game: Game, kind: str) -> list[Notification]:
    return list(Notification.objects.filter(game=game, kind=kind))


def _sweep_twice() -> dict[str, int]:
    first = tasks.sweep_deadlines()
    second = tasks.sweep_deadlines()
    assert not any(second.values()), f"the second sweep did something: {second}"
    return first


def test_the_reminder_is_sent_once_when_a_quarter_of_the_time_is_left() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=3)
        assert game.deadline == START + timedelta(days=3)
        assert game.deadline_seat == game.to_act_seat
        assert game.reminder_at == game.deadline - timedelta(hours=18)
        clock.move_to(game.reminder_at - timedelta(minutes=1))
        assert _sweep_twice()["reminders"] == 0
        clock.move_to(game.reminder_at)
        assert _sweep_twice()["reminders"] == 1
        clock.shift(timedelta(hours=1))
        assert _sweep_twice()["reminders"] == 0
    rows = _rows(game, NotificationKind.REMINDER)
    assert [r.user_id for r in rows] == [seats[game.to_act_seat or 0].pk]


def test_the_reminder_is_at_most_a_day_before_the_deadline() -> None:
    deadline = START + timedelta(days=14)
    assert clock_rules.reminder_time(deadline, 14) == deadline - timedelta(hours=24)
    assert clock_rules.reminder_time(deadline, 1) == deadline - timedelta(hours=6)


def test_a_reminder_email_names_the_game_and_is_sent_once(
    django_capture_on_commit_callbacks: Any, mailoutbox: list[Any]
) -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=1)
        mailoutbox.clear()
        clock.move_to(START + timedelta(hours=18))
        for _ in range(2):
            with django_capture_on_commit_callbacks(execute=True):
                tasks.sweep_deadlines()
    assert len(mailoutbox) == 1
    assert mailoutbox[0].to == [seats[game.to_act_seat or 0].email]
    assert f"Game #{game.pk}" in mailoutbox[0].subject
    assert "due" in mailoutbox[0].body


def test_a_timeout_passes_for_the_active_player_and_the_log_says_so() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=2)
        first = game.to_act_seat
        clock.move_to(game.deadline - timedelta(seconds=1))
        assert _sweep_twice()["timeouts"] == 0
        clock.move_to(game.deadline)
        assert _sweep_twice()["timeouts"] == 1
    game.refresh_from_db()
    moves = list(game.moves.all())
    assert [(m.seat, m.action, m.source) for m in moves] == [(first, "pass", "timeout")]
    assert moves[0].by_timeout
    assert game.to_act_seat != first
    assert game.deadline == START + timedelta(days=2) + timedelta(days=2)
    seat = game.seats.get(position=first)
    assert seat.timeouts_in_row == 1 and seat.dropped_at is None
    page = client_for(seats[game.to_act_seat or 0]).get(f"/games/{game.pk}/")
    assert "timed out" in page.content.decode()


def _game_at(state: engine.GameState, **options: Any) -> tuple[Game, dict[int, Any]]:
    """Return a started game whose snapshot is ``state`` (a diagram position), clock started."""
    game, seats = game_at_state(state, **options)
    deadlines.clock_start(game)
    game.save()
    return game, seats


SIDE_1 = {"c5": "r", "c6": "1K", "d5": "k", "e5": "k", "d6": "k"}
SIDE_2 = {"g5": "k", "h5": "k", "h6": "k", "i5": "r", "j5": "2K"}


def test_a_defender_who_times_out_in_a_war_commits_no_support() -> None:
    """RULES.md §7.3: seat 1 attacks with 2 black; seat 2's deadline passes: commit 0."""
    state = position({**SIDE_1, **SIDE_2}, hands={1: "g k k r", 2: "k b"})
    state = play(state, "tile green f5", "commit 2")
    assert (state.to_act, state.pending.kind) == (2, "support")
    with time_machine.travel(START, tick=False) as clock:
        game, seats = _game_at(state, days_per_move=1)
        clock.shift(timedelta(days=1))
        assert _sweep_twice()["timeouts"] == 1
    game.refresh_from_db()
    assert [(m.seat, m.action, m.source) for m in game.moves.all()] == [(2, "commit 0", "timeout")]
    after = game_state(game)
    assert after.pending is None and after.to_act == 1  # the attacker won and acts again
    assert game.deadline_seat == 1


def test_the_default_policy_orders_wars_treasures_and_declines_monuments(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def offering(*notations: str) -> None:
        actions = tuple(engine.Action.parse(n) for n in notations)
        monkeypatch.setattr(engine, "legal_actions", lambda state: actions)

    offering("war green", "war blue", "war black")
    assert str(policy.default_action(None)) == "war black"  # type: ignore[arg-type]
    offering("treasure k1", "treasure b8", "treasure b2", "treasure a10")
    assert str(policy.default_action(None)) == "treasure a10"  # type: ignore[arg-type]
    offering("monument red-blue e4", "decline monument")
    assert str(policy.default_action(None)) == "decline monument"  # type: ignore[arg-type]
    offering("commit 0", "commit 1")
    assert str(policy.default_action(None)) == "commit 0"  # type: ignore[arg-type]


def test_the_first_war_in_colour_order_is_chosen_on_a_real_position() -> None:
    state = position({**SIDE_1, **SIDE_2, "b5": "1P", "i4": "2P"}, hands={1: "g r r", 2: "k"})
    state = play(state, "tile green f5")
    assert str(policy.default_action(state)) == "war red"


def _timeout(game: Game, clock: Any) -> None:
    game.refresh_from_db()
    assert game.deadline is not None
    clock.move_to(game.deadline)
    assert tasks.sweep_deadlines()["timeouts"] == 1


def _swapping(legal: tuple[engine.Action, ...]) -> engine.Action:
    """Swap the most tiles offered (empties the bag fast), else pass, else the first."""
    swaps = [a for a in legal if isinstance(a, engine.SwapTiles)]
    if swaps:
        return max(swaps, key=lambda a: len(str(a)))
    return passing(legal)


def test_three_timeouts_drop_the_seat_and_the_game_still_reaches_its_end() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=1)
        lazy = game.to_act_seat or 0
        busy = 3 - lazy
        for n in range(1, 4):
            _timeout(game, clock)  # the lazy seat passes by timeout…
            seat = game.seats.get(position=lazy)
            assert seat.timeouts_in_row == n
            # …and its player is told what was played for them and how many are left.
            [row] = [r for r in _rows(game, NotificationKind.TIMED_OUT) if r.status == "pending"]
            assert row.user_id == seats[lazy].pk
            mail.outbox.clear()
            emails.notification_send(row)
            Notification.objects.filter(pk=row.pk).update(status="sent")
            [told] = mail.outbox
            assert told.subject.startswith(f"Game #{game.pk} · your clock ran out")
            assert "timed out: the default action was played" in told.body
            left = {1: "2 more timeouts in a row", 2: "One more timeout in a row", 3: "third"}
            assert left[n] in told.body
            assert_no_leak(told.body.encode(), game, lazy)
            assert_no_leak(str(told.alternatives[0].content).encode(), game, lazy)
            if n < 3:
                assert seat.dropped_at is None
                game = submit(game, seats, passing)  # …the busy one passes (ends its turn)
        seat = game.seats.get(position=lazy)
        assert seat.dropped_at is not None and seat.drop_reason == Seat.DropReason.TIMEOUTS
        rows = _rows(game, NotificationKind.SEAT_DROPPED)
        assert [r.user_id for r in rows] == [seats[busy].pk]
        mail.outbox.clear()
        emails.notification_send(rows[0])
        lazy_name = seat_text.display_name(seats[lazy])
        assert f"{lazy_name}'s seat is now played automatically" in mail.outbox[0].subject
        assert f"{lazy_name} missed three deadlines in a row" in mail.outbox[0].body
        for _ in range(2000):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            assert game.to_act_seat == busy  # the dropped seat never keeps the game waiting
            game = submit(game, seats, _swapping)
    game.refresh_from_db()
    assert game.status == Game.Status.FINISHED
    dropped_moves = game.moves.filter(source=Move.Source.DROPPED)
    assert dropped_moves.exists() and {m.seat for m in dropped_moves} == {lazy}
    assert game.rated_at is not None
    ratings = {s.position: s.rating_after for s in game.seats.all()}
    assert ratings[busy] > ratings[lazy]  # the dropped seat ranks last


def test_a_human_action_resets_the_timeout_streak() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=1)
        lazy = game.to_act_seat
        _timeout(game, clock)
        assert game.seats.get(position=lazy).timeouts_in_row == 1
        game = submit(game, seats, passing)
        assert game.to_act_seat == lazy
        game = submit(game, seats, passing)
    assert game.seats.get(position=lazy).timeouts_in_row == 0


def test_resigning_drops_the_seat_and_its_turn_is_played_at_once(
    django_capture_on_commit_callbacks: Any, mailoutbox: list[Any]
) -> None:
    game, seats = started_game(3, days_per_move=3)
    mover = game.to_act_seat or 0
    client = client_for(seats[mover])
    refused = client.post(f"/games/{game.pk}/resign", {})
    assert refused.status_code == 302
    assert game.seats.get(position=mover).dropped_at is None  # no confirmation: nothing
    mailoutbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/games/{game.pk}/resign", {"confirm": "on"})
    assert response.status_code == 302
    game.refresh_from_db()
    seat = game.seats.get(position=mover)
    assert seat.drop_reason == Seat.DropReason.RESIGNED
    # 3 players: the medium bot takes the seat over (issue 15), in the background, not in
    # the request; the embedded mode's sweep plays it.
    assert not game.moves.exists() and game.to_act_seat == mover
    from games.play import bots

    assert bots.bots_sweep() == 1
    ((seat_moved, source),) = game.moves.values_list("seat", "source")
    assert (seat_moved, source) == (mover, Move.Source.BOT)
    others = sorted(u.email for n, u in seats.items() if n != mover)
    dropped_mail = [m for m in mailoutbox if "automatically" in m.subject]
    assert sorted(m.to[0] for m in dropped_mail) == others
    name = seat_text.display_name(seats[mover])
    for message in dropped_mail:  # each names who resigned
        assert f"{name}'s seat is now played automatically" in message.subject
        assert f"{name} resigned: their seat is now played automatically" in message.body


def test_a_game_whose_seats_all_drop_is_aborted_and_not_rated() -> None:
    game, seats = started_game(2, days_per_move=3)
    for user in seats.values():
        timeouts.game_resign(game_id=game.pk, user=user)
    game.refresh_from_db()
    assert game.status == Game.Status.ABORTED
    assert game.rated_at is None and game.deadline is None
    assert all(p.rated_games == 0 for p in Profile.objects.all())
    page = client_for(seats[1]).get(f"/games/{game.pk}/").content.decode()
    assert (
        "Every person in the game resigned or was dropped: the game is over and not rated." in page
    )
    assert "administrator" not in page


def test_an_open_game_expires_after_fourteen_days_and_its_creator_is_told() -> None:
    with time_machine.travel(START, tick=False) as clock:
        creator = started_game(2)[1][1]  # any user
        game = lifecycle.game_create(creator=creator, num_players=3)
        clock.move_to(START + timedelta(days=14) - timedelta(minutes=1))
        assert _sweep_twice()["expired"] == 0
        clock.move_to(START + timedelta(days=14))
        assert _sweep_twice()["expired"] == 1
    game.refresh_from_db()
    assert game.status == Game.Status.EXPIRED
    assert [r.user_id for r in _rows(game, NotificationKind.GAME_EXPIRED)] == [creator.pk]


def test_a_game_without_a_limit_never_times_out() -> None:
    with time_machine.travel(START, tick=False) as clock:
        game, _seats = started_game(2, is_rated=False, days_per_move=None)
        assert game.deadline is None and game.reminder_at is None
        clock.shift(timedelta(days=365))
        assert not any(tasks.sweep_deadlines().values())


def test_a_rated_game_needs_a_limit() -> None:
    user = started_game(2)[1][1]
    with pytest.raises(game_errors.JoinRefused):
        lifecycle.game_create(creator=user, num_players=2, is_rated=True, days_per_move=None)
    response = client_for(user).post(
        "/games/new", {"num_players": "2", "is_rated": "on", "days_per_move": ""}
    )
    assert response.status_code == 400
    assert "A rated game needs a time limit" in response.content.decode()


def test_random_play_with_timeouts_keeps_every_game_consistent() -> None:
    """Timeouts interleaved with human moves: the snapshot still replays from the seed."""
    rng = random.Random(6)
    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(3, days_per_move=2)
        for _ in range(40):
            game.refresh_from_db()
            if game.status != Game.Status.ACTIVE:
                break
            if rng.random() < 0.3:
                _timeout(game, clock)
            else:
                game = submit(game, seats, lambda legal: rng.choice(legal))
    from games.core.states import replay

    game.refresh_from_db()
    assert state_to_db(replay(game)) == game.state


# ---------------------------------------------------------------------------- vacation


def test_vacation_pauses_a_deadline_and_resumes_it_with_the_time_left() -> None:
    from games.accounts import vacations
    from games.selectors import people

    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=3)
        away = seats[game.to_act_seat or 0]
        original = game.deadline
        assert original is not None
        clock.shift(timedelta(days=1))  # two days left when the vacation starts
        vacation = vacations.vacation_start(user_id=away.pk, days=5)
        clock.move_to(original + timedelta(hours=1))
        assert _sweep_twice() == {"vacations": 0, "reminders": 0, "timeouts": 0, "expired": 0}
        page = client_for(seats[3 - (game.to_act_seat or 0)]).get(f"/games/{game.pk}/")
        assert "on vacation until" in page.content.decode()
        assert "is paused for their vacation" in page.content.decode()
        # A spectator sees the clock paused, not that a player is away, nor until when.
        seen = Client().get(f"/games/{game.pk}/").content.decode()
        assert "is paused." in seen and "vacation" not in seen
        clock.move_to(START + timedelta(days=6))  # the vacation's planned end
        assert _sweep_twice()["vacations"] == 1
        game.refresh_from_db()
        assert game.deadline == START + timedelta(days=6) + timedelta(days=2)
        clock.move_to(game.deadline - timedelta(minutes=1))
        assert tasks.sweep_deadlines()["timeouts"] == 0
        clock.move_to(game.deadline)
        assert _sweep_twice()["timeouts"] == 1
    vacation.refresh_from_db()
    assert vacation.ended_at == START + timedelta(days=6)
    ended = Notification.objects.filter(user=away, kind=NotificationKind.VACATION_ENDED)
    assert ended.count() == 1
    assert people.days_left(user_id=away.pk, year=2026) == 21 - 5


def test_ending_a_vacation_early_gives_the_full_time_to_a_deadline_set_meanwhile() -> None:
    from games.accounts import vacations
    from games.selectors import people

    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=2)
        first = game.to_act_seat or 0
        waiting = seats[3 - first]  # not to act yet
        vacation = vacations.vacation_start(user_id=waiting.pk, days=10)
        clock.shift(timedelta(hours=30))
        game = submit(game, seats, passing)  # now the deadline is the vacationer's
        assert game.deadline == START + timedelta(hours=30) + timedelta(days=2)
        clock.shift(timedelta(hours=50))  # past that deadline: paused
        assert tasks.sweep_deadlines()["timeouts"] == 0
        end = timezone_now()
        assert vacations.vacation_end(vacation_id=vacation.pk)
        assert not vacations.vacation_end(vacation_id=vacation.pk)
        game.refresh_from_db()
        assert game.deadline == end + timedelta(days=2)
    assert people.days_left(user_id=waiting.pk, year=2026) == 21 - 4  # 80 h: 4 days started


def timezone_now() -> datetime:
    from django.utils import timezone

    return timezone.now()


def test_a_game_that_forbids_vacation_keeps_its_clock_running() -> None:
    from games.accounts import vacations

    with time_machine.travel(START, tick=False) as clock:
        game, seats = started_game(2, days_per_move=1, vacation_allowed=False)
        vacations.vacation_start(user_id=seats[game.to_act_seat or 0].pk, days=7)
        clock.move_to(game.reminder_at)
        assert _sweep_twice()["reminders"] == 1
        clock.move_to(game.deadline)
        assert _sweep_twice()["timeouts"] == 1


def test_vacation_days_are_limited_to_21_a_year() -> None:
    from games.accounts import vacations
    from games.selectors import people

    user = started_game(2)[1][1]
    with time_machine.travel(START, tick=False) as clock:
        vacation = vacations.vacation_start(user_id=user.pk, days=15)
        with pytest.raises(vacations.VacationRefused):
            vacations.vacation_start(user_id=user.pk, days=1)  # already on vacation
        clock.shift(timedelta(days=15))
        tasks.sweep_deadlines()
        vacation.refresh_from_db()
        assert vacation.ended_at is not None
        with pytest.raises(vacations.VacationRefused):
            vacations.vacation_start(user_id=user.pk, days=7)
        vacations.vacation_start(user_id=user.pk, days=6)
    with time_machine.travel(datetime(2027, 1, 1, tzinfo=UTC), tick=False):
        assert people.days_left(user_id=user.pk) == 21


def test_the_settings_page_starts_and_ends_a_vacation() -> None:
    from games.models import Vacation

    user = started_game(2)[1][1]
    client = client_for(user)
    page = client.get("/settings")
    assert "21" in page.content.decode()
    response = client.post("/settings/vacation", {"days": "3"})
    assert response.status_code == 302
    vacation = Vacation.objects.get(user=user)
    assert vacation.ended_at is None
    assert "on vacation until" in client.get("/settings").content.decode()
    response = client.post("/settings/vacation/end")
    assert response.status_code == 302
    vacation.refresh_from_db()
    assert vacation.ended_at is not None
