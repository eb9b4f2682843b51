"""Services: every write to games, seats and moves (STYLE.md, Django: services do the writing).

Each service takes keyword-only arguments, runs in ``transaction.atomic()``, locks the game
row with ``select_for_update()`` and raises a ``games.errors.GameError`` subclass (with a
player-facing message and an HTTP status) instead of returning error values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games import notifications, policy, render_stamps, selectors, signals, vacations
from games.errors import (
    GameNotActive,
    GameNotFound,
    IllegalAction,
    JoinRefused,
    MalformedAction,
    NotAPlayer,
    NotYourTurn,
    StaleVersion,
)
from games.messages import malformed_action_text
from games.models import Game, Move, NotificationKind, Seat
from games.states import events_to_db, state_from_db, state_to_db

UserLike = AbstractBaseUser | AnonymousUser

COLOR_ORDER = ("red", "black", "blue", "green")


def _locked_game(game_id: int, *, with_seats: bool = False) -> Game:
    """Return the game with its row locked until the transaction ends; ``GameNotFound``.

    ``with_seats`` also reads its seats with their users and profiles once (after the lock,
    so current), for a caller that only reads them: ``game.seats.all()`` then costs no
    query, and the game is ready for its page (``selectors.with_seats``).
    """
    games = Game.objects.select_for_update()
    if with_seats:
        games = selectors.with_seats(games)
    try:
        return games.get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def _user_id(user: UserLike) -> int:
    if not user.is_authenticated or user.pk is None:
        raise NotAPlayer(_("Log in to play."))
    return int(user.pk)


REMINDER_FRACTION = 4  # the reminder goes out when a quarter of the time is left…
REMINDER_MAX_BEFORE = timedelta(hours=24)  # …but at most 24 hours before the deadline
TIMEOUTS_TO_DROP = 3  # this many timeouts in a row by one seat drop it (issue 6)
AUTOPLAY_LIMIT = 10_000  # a safety bound on default-policy plies in one transaction


def _deadline(game: Game) -> Any:
    if game.days_per_move:
        return timezone.now() + timedelta(days=game.days_per_move)
    return None


def reminder_time(deadline: datetime, days_per_move: int) -> datetime:
    """Return when the reminder of ``deadline`` is due: a quarter of the time left, ≤ 24 h.

    ``days_per_move`` is the game's time per decision in days (issue 6: 1 day → 6 h before,
    2 → 12 h, 3 → 18 h, 5 or more → 24 h before the deadline).
    """
    before = min(timedelta(days=days_per_move) / REMINDER_FRACTION, REMINDER_MAX_BEFORE)
    return deadline - before


def _clock_start(game: Game) -> None:
    """Start the clock of whoever must act now in ``game`` (not saved: the caller saves).

    Sets ``deadline`` (``days_per_move`` from now), ``deadline_seat``, ``deadline_set_at``
    and ``reminder_at``; clears them all in a game without a time limit or nobody to act.
    """
    deadline = _deadline(game) if game.to_act_seat is not None else None
    game.deadline = deadline
    if deadline is None or not game.days_per_move:
        game.deadline_seat = game.deadline_set_at = game.reminder_at = None
        return
    game.deadline_seat = game.to_act_seat
    game.deadline_set_at = timezone.now()
    game.reminder_at = reminder_time(deadline, game.days_per_move)


CLOCK_FIELDS = ["deadline", "deadline_seat", "deadline_set_at", "reminder_at"]


def game_create(
    *,
    creator: UserLike,
    num_players: int,
    is_public: bool = True,
    is_rated: bool = True,
    open_scoring: bool = False,
    days_per_move: int | None = 3,
    vacation_allowed: bool = True,
) -> Game:
    """Create an open game of ``num_players`` (2–4) seats and seat its creator.

    ``days_per_move`` is the time per decision in days (None: no limit, unrated games
    only); ``vacation_allowed`` False means players' vacations do not pause its deadlines.
    Raises ``JoinRefused`` for a player count outside 2–4 or a rated game without a limit.
    """
    creator_id = _user_id(creator)
    if not 2 <= num_players <= 4:
        raise JoinRefused(_("A game has 2 to 4 players."))
    if is_rated and not days_per_move:
        raise JoinRefused(_("A rated game needs a time limit per move."))
    with transaction.atomic():
        game = Game.objects.create(
            creator_id=creator_id,
            num_players=num_players,
            is_public=is_public,
            is_rated=is_rated,
            open_scoring=open_scoring,
            days_per_move=days_per_move,
            vacation_allowed=vacation_allowed,
        )
        Seat.objects.create(game=game, user_id=creator_id)
    return game


def game_join(*, game_id: int, user: UserLike, invite_token: str | None = None) -> Game:
    """Seat ``user`` in the open game ``game_id``; start the game when the last seat fills.

    A private game needs its ``invite_token``. Raises ``GameNotFound``, ``GameNotActive``
    (not open any more), ``JoinRefused`` (already seated, full, wrong invitation) or
    ``NotAPlayer`` (anonymous).
    """
    user_id = _user_id(user)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("This game is not open for joining."))
        if not game.is_public and invite_token != game.invite_token:
            raise JoinRefused(_("This game is private: you need its invitation link."))
        seats = list(game.seats.all())
        if any(seat.user_id == user_id for seat in seats):
            raise JoinRefused(_("You already have a seat in this game."))
        if len(seats) >= game.num_players:
            raise JoinRefused(_("This game is full."))
        Seat.objects.create(game=game, user_id=user_id)
        if len(seats) + 1 == game.num_players:
            game_start(game=game)
    return game


def game_leave(*, game_id: int, user: UserLike) -> Game:
    """Give up ``user``'s seat in an open game; a game left empty is aborted.

    Raises ``GameNotFound``, ``GameNotActive`` (already started) or ``NotAPlayer``.
    """
    user_id = _user_id(user)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN:
            raise GameNotActive(_("The game has started: you can no longer leave it."))
        deleted, _unused = Seat.objects.filter(game=game, user_id=user_id).delete()
        if not deleted:
            raise NotAPlayer()
        if not game.seats.exists():
            game.status = Game.Status.ABORTED
            game.save(update_fields=["status", "updated_at"])
    return game


def game_start(*, game: Game) -> Game:
    """Start a full open game: random seat order and dynasties, then ``engine.new_game``.

    Call it inside a transaction holding the game's row lock (``game_join`` does).
    The engine is seeded with ``game.seed`` (secret) and ``game.open_scoring``.
    Raises ``GameNotActive`` if the game is not open or ``JoinRefused`` if not full.
    """
    if game.status != Game.Status.OPEN:
        raise GameNotActive(_("This game has already started."))
    seats = list(game.seats.all())
    if len(seats) != game.num_players:
        raise JoinRefused(_("The game starts when every seat is taken."))
    rng = random.SystemRandom()
    rng.shuffle(seats)
    dynasties = [d.value for d in Seat.Dynasty]
    rng.shuffle(dynasties)
    for position, (seat, dynasty) in enumerate(zip(seats, dynasties, strict=False), start=1):
        seat.position = position
        seat.dynasty = dynasty
        seat.save(update_fields=["position", "dynasty"])
    state = engine.new_game(game.num_players, game.seed, open_scoring=game.open_scoring)
    game.state = state_to_db(state)
    game.version = 0
    game.status = Game.Status.ACTIVE
    game.to_act_seat = state.to_act
    game.started_at = timezone.now()
    _clock_start(game)
    game.save()
    signals.game_started.send(sender=Game, game=game)
    return game


@dataclass(frozen=True)
class SubmitResult:
    """What ``game_submit_action`` did: the updated game and the ``Move`` it appended."""

    game: Game
    move: Move


def parse_action(text: str) -> engine.Action:
    """Return the engine action written as ``text``; raise ``MalformedAction`` if invalid."""
    try:
        return engine.Action.parse(text)
    except ValueError:
        # The parser's reason is English; the player reads how actions are written instead.
        raise MalformedAction(malformed_action_text(text)) from None


def game_submit_action(
    *, game_id: int, user: UserLike, action: str, expected_version: int
) -> SubmitResult:
    """Apply ``user``'s ``action`` (engine notation) to the game at ``expected_version``.

    In one transaction with the game row locked: check the game is in progress, that
    ``user`` holds a seat, that the version matches and that the seat must act now; apply
    the action through the engine; append the ``Move`` with its events; save the snapshot;
    bump the version; update who acts; finish the game when the engine says it is over;
    send ``signals.move_applied`` (and ``game_finished``) inside the transaction.

    Raises ``MalformedAction`` (400), ``GameNotFound`` (404), ``GameNotActive`` (409),
    ``NotAPlayer``/``NotYourTurn`` (403), ``StaleVersion`` (409) or ``IllegalAction`` (400);
    on any error nothing is saved.
    """
    parsed = parse_action(action)
    user_id = _user_id(user)
    with transaction.atomic():
        game = _locked_game(game_id, with_seats=True)
        if game.status != Game.Status.ACTIVE:
            if game.status == Game.Status.FINISHED:
                raise GameNotActive(_("This game is over."))
            raise GameNotActive()
        seat = next((s for s in game.seats.all() if s.user_id == user_id), None)
        if seat is None:
            raise NotAPlayer()
        if expected_version != game.version:
            raise StaleVersion()
        position = seat.position
        if position is None or position != game.to_act_seat:
            raise NotYourTurn()
        before = state_from_db(game.state or {})
        move, after = _action_apply(
            game=game, position=position, before=before, action=parsed, source=Move.Source.PLAYER
        )
        if seat.timeouts_in_row:
            seat.timeouts_in_row = 0  # a human action resets the streak (issue 6)
            seat.save(update_fields=["timeouts_in_row"])
        _dropped_autoplay(game=game, state=after)
    return SubmitResult(game=game, move=move)


def _action_apply(
    *,
    game: Game,
    position: int,
    before: engine.GameState,
    action: engine.Action,
    source: str,
) -> tuple[Move, engine.GameState]:
    """Apply ``action`` of seat ``position`` to the locked ``game``: the one path of every ply.

    Humans (``game_submit_action``), timeouts (``seat_timeout``) and dropped seats
    (``_dropped_autoplay``) all come here: append the ``Move`` (with ``source``) and its
    events, save the snapshot, bump the version, restart the clock when the seat to act
    changes, finish the game when it is over, and send ``signals.move_applied``
    (and ``game_finished``). Raises ``IllegalAction``; the caller holds the row lock.
    """
    try:
        after = engine.apply(before, action)
    except engine.IllegalActionError as exc:
        raise IllegalAction(str(exc), code=exc.code, params=exc.params) from None
    game.version += 1
    move = Move.objects.create(
        game=game,
        ply=game.version,
        seat=position,
        action=str(action),
        events=events_to_db(after),
        source=source,
    )
    game.state = state_to_db(after)
    fields = ["state", "version", "to_act_seat", *CLOCK_FIELDS, "updated_at"]
    if after.is_over:
        game.to_act_seat = None
        _clock_start(game)
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    else:
        game.to_act_seat = after.to_act
        if after.to_act != before.to_act:
            _clock_start(game)
    game.save(update_fields=fields)
    signals.move_applied.send(sender=Game, game=game, move=move, before=before, after=after)
    if after.is_over:
        _game_finish(game=game, state=after)
    return move, after


def _dropped_autoplay(*, game: Game, state: engine.GameState) -> list[Move]:
    """Play the default policy at once for every dropped seat ``game`` waits on (issue 6).

    Stops when the game waits on a seat still played by a person, or is over. The caller
    holds the game's row lock; returns the moves played (``source`` dropped).
    """
    dropped = {s.position for s in game.seats.all() if s.dropped_at is not None}
    moves: list[Move] = []
    while (
        dropped
        and game.status == Game.Status.ACTIVE
        and game.to_act_seat in dropped
        and len(moves) < AUTOPLAY_LIMIT
    ):
        position = game.to_act_seat
        assert position is not None
        move, state = _action_apply(
            game=game,
            position=position,
            before=state,
            action=policy.default_action(state),
            source=Move.Source.DROPPED,
        )
        moves.append(move)
    return moves


def _game_finish(*, game: Game, state: engine.GameState) -> None:
    """Store each seat's final rank and score sheet from ``engine.final_ranking``."""
    ranking = engine.final_ranking(state)
    seats = {seat.position: seat for seat in game.seats.all()}
    for placing in ranking:
        seat = seats[placing.seat]
        colors = [int(c) for c in placing.colors]
        seat.final_rank = placing.rank
        seat.final_score = {
            "colors": dict(zip(COLOR_ORDER, colors, strict=True)),
            "score": min(colors),
        }
        seat.save(update_fields=["final_rank", "final_score"])
    signals.game_finished.send(sender=Game, game=game, ranking=ranking)


def game_abort(*, game_id: int) -> Game:
    """Abort an open or active game (operators, from the admin); finished games stay.

    Raises ``GameNotFound`` or ``GameNotActive`` for a finished or already aborted game.
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status not in (Game.Status.OPEN, Game.Status.ACTIVE):
            raise GameNotActive(_("Only open games and games in progress can be aborted."))
        game.status = Game.Status.ABORTED
        game.to_act_seat = None
        game.deadline = None
        game.save(update_fields=["status", "to_act_seat", "deadline", "updated_at"])
    return game


# --------------------------------------------------------------------------- time controls
# (issue 6): timeouts played by the default policy, reminders, dropped and resigned seats,
# expired open games. The beat sweep (``tasks.sweep_deadlines``) calls these with ids.


def _deadline_paused(game: Game) -> bool:
    """Return whether the seat whose deadline runs is on vacation and vacation counts here."""
    if not game.vacation_allowed or game.deadline_seat is None:
        return False
    user_id = game.seats.filter(position=game.deadline_seat).values_list("user_id", flat=True)
    return vacations.user_on_vacation(user_id=user_id.first())


def seat_timeout(*, game_id: int, expected_version: int) -> list[Move]:
    """Play the default action for the seat whose deadline passed; return the moves played.

    Under the game's row lock, only if the game is still in progress at
    ``expected_version``, its deadline has passed and is not paused by vacation: the
    default policy (``policy.default_action``) plays that seat through the same path as a
    human (``_action_apply``, moves marked ``timeout``) until the game waits on someone
    else — one timeout. The seat's streak grows; at ``TIMEOUTS_TO_DROP`` in a row the seat
    is dropped (``_seat_drop``). Returns [] when there was nothing to do, so running the
    sweep twice applies nothing twice. Raises ``GameNotFound``.
    """
    now = timezone.now()
    with transaction.atomic():
        game = _locked_game(game_id)
        if (
            game.status != Game.Status.ACTIVE
            or game.version != expected_version
            or game.deadline is None
            or game.deadline > now
            or game.to_act_seat is None
            or _deadline_paused(game)
        ):
            return []
        position = game.to_act_seat
        seat = game.seats.select_for_update().get(position=position)
        state = state_from_db(game.state or {})
        moves: list[Move] = []
        while (
            game.status == Game.Status.ACTIVE
            and game.to_act_seat == position
            and len(moves) < AUTOPLAY_LIMIT
        ):
            move, state = _action_apply(
                game=game,
                position=position,
                before=state,
                action=policy.default_action(state),
                source=Move.Source.TIMEOUT,
            )
            moves.append(move)
        seat.timeouts_in_row += 1
        seat.save(update_fields=["timeouts_in_row"])
        if seat.timeouts_in_row >= TIMEOUTS_TO_DROP and seat.dropped_at is None:
            _seat_drop(game=game, seat=seat, reason=Seat.DropReason.TIMEOUTS)
        else:
            moves += _dropped_autoplay(game=game, state=state)
    return moves


def seat_remind(*, game_id: int, expected_version: int) -> bool:
    """Send the one reminder of the running deadline if it is due; return whether it was.

    Under the game's row lock, only if the game is in progress at ``expected_version``,
    ``reminder_at`` has come and the deadline is not paused by vacation: write the
    ``reminder`` outbox row for the seat that must act and clear ``reminder_at`` (once per
    deadline; the row is also unique per ply). Dropped seats are never reminded.
    """
    now = timezone.now()
    with transaction.atomic():
        game = _locked_game(game_id)
        if (
            game.status != Game.Status.ACTIVE
            or game.version != expected_version
            or game.reminder_at is None
            or game.reminder_at > now
            or game.deadline_seat is None
            or _deadline_paused(game)
        ):
            return False
        seat = game.seats.get(position=game.deadline_seat)
        game.reminder_at = None
        game.save(update_fields=["reminder_at", "updated_at"])
        if seat.dropped_at is not None:
            return False
        notifications.notification_create(
            user_id=seat.user_id,
            game=game,
            ply=game.version,
            kind=NotificationKind.REMINDER,
        )
    return True


def _seat_drop(*, game: Game, seat: Seat, reason: str) -> None:
    """Drop ``seat`` of the locked ``game`` (timeouts or resignation), with its consequences.

    When every seat is dropped the game is aborted (never rated). Otherwise the other
    players are told (``seat_dropped``) and the default policy plays the seat at once
    whenever the game waits on it; a rated game ranks it last (``ratings.rating_ranks``).
    """
    seat.dropped_at = timezone.now()
    seat.drop_reason = reason
    seat.save(update_fields=["dropped_at", "drop_reason"])
    render_stamps.games_changed([game.pk])  # the game's pages now say who was dropped
    if not game.seats.filter(dropped_at__isnull=True).exists():
        game.status = Game.Status.ABORTED
        game.to_act_seat = None
        _clock_start(game)
        game.save(update_fields=["status", "to_act_seat", *CLOCK_FIELDS, "updated_at"])
        return
    notifications.notify_seat_dropped(game=game, seat=seat)
    _dropped_autoplay(game=game, state=state_from_db(game.state or {}))


def game_resign(*, game_id: int, user: UserLike) -> Game:
    """Resign ``user``'s seat in a game in progress: it is handled as dropped (issue 6).

    Raises ``GameNotFound``, ``GameNotActive`` (not in progress), ``NotAPlayer`` or
    ``JoinRefused`` (the seat is already dropped).
    """
    user_id = _user_id(user)
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive(_("Only a game in progress can be resigned."))
        seat = game.seats.select_for_update().filter(user_id=user_id).first()
        if seat is None:
            raise NotAPlayer()
        if seat.dropped_at is not None:
            raise JoinRefused(_("Your seat in this game is already played automatically."))
        _seat_drop(game=game, seat=seat, reason=Seat.DropReason.RESIGNED)
    return game


OPEN_GAME_LIFETIME = timedelta(days=14)


def game_expire(*, game_id: int) -> bool:
    """Expire an open game created more than ``OPEN_GAME_LIFETIME`` ago; tell its creator.

    Returns whether it expired now (False when it filled, was left, or expired already).
    """
    with transaction.atomic():
        game = _locked_game(game_id)
        if game.status != Game.Status.OPEN or game.created_at > timezone.now() - OPEN_GAME_LIFETIME:
            return False
        game.status = Game.Status.EXPIRED
        game.save(update_fields=["status", "updated_at"])
        notifications.notification_create(
            user_id=game.creator_id,
            game=game,
            ply=0,
            kind=NotificationKind.GAME_EXPIRED,
        )
    return True
