"""Services: every write to games, seats and moves (STYLE.md, Django: services do the writing).

Each service takes keyword-only arguments, runs in ``transaction.atomic()``, locks the game
row with ``select_for_update()`` and raises a ``games.errors.GameError`` subclass (with a
player-facing message and an HTTP status) instead of returning error values.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games import signals
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
from games.models import Game, Move, Seat
from games.states import events_to_db, state_from_db, state_to_db

UserLike = AbstractBaseUser | AnonymousUser

COLOR_ORDER = ("red", "black", "blue", "green")


def _locked_game(game_id: int) -> Game:
    try:
        return Game.objects.select_for_update().get(pk=game_id)
    except Game.DoesNotExist:
        raise GameNotFound() from None


def _user_id(user: UserLike) -> int:
    if not user.is_authenticated or user.pk is None:
        raise NotAPlayer(_("Log in to play."))
    return int(user.pk)


def _deadline(game: Game) -> Any:
    if game.days_per_move:
        return timezone.now() + timedelta(days=game.days_per_move)
    return None


def game_create(
    *,
    creator: UserLike,
    num_players: int,
    is_public: bool = True,
    is_rated: bool = True,
    open_scoring: bool = False,
    days_per_move: int | None = None,
) -> Game:
    """Create an open game of ``num_players`` (2–4) seats and seat its creator.

    Raises ``JoinRefused`` for a player count outside 2–4.
    """
    creator_id = _user_id(creator)
    if not 2 <= num_players <= 4:
        raise JoinRefused(_("A game has 2 to 4 players."))
    with transaction.atomic():
        game = Game.objects.create(
            creator_id=creator_id,
            num_players=num_players,
            is_public=is_public,
            is_rated=is_rated,
            open_scoring=open_scoring,
            days_per_move=days_per_move,
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
    game.deadline = _deadline(game)
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
        game = _locked_game(game_id)
        if game.status != Game.Status.ACTIVE:
            if game.status == Game.Status.FINISHED:
                raise GameNotActive(_("This game is over."))
            raise GameNotActive()
        seat = game.seats.filter(user_id=user_id).first()
        if seat is None:
            raise NotAPlayer()
        if expected_version != game.version:
            raise StaleVersion()
        position = seat.position
        if position is None or position != game.to_act_seat:
            raise NotYourTurn()
        before = state_from_db(game.state or {})
        try:
            after = engine.apply(before, parsed)
        except engine.IllegalActionError as exc:
            raise IllegalAction(str(exc), code=exc.code, params=exc.params) from None
        game.version += 1
        move = Move.objects.create(
            game=game,
            ply=game.version,
            seat=position,
            action=str(parsed),
            events=events_to_db(after),
        )
        game.state = state_to_db(after)
        fields = ["state", "version", "to_act_seat", "deadline", "updated_at"]
        if after.is_over:
            game.to_act_seat = None
            game.deadline = None
            game.status = Game.Status.FINISHED
            game.finished_at = timezone.now()
            fields += ["status", "finished_at"]
        else:
            game.to_act_seat = after.to_act
            if after.to_act != before.to_act:
                game.deadline = _deadline(game)
        game.save(update_fields=fields)
        signals.move_applied.send(sender=Game, game=game, move=move, before=before, after=after)
        if after.is_over:
            _game_finish(game=game, state=after)
    return SubmitResult(game=game, move=move)


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
