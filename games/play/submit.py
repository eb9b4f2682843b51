"""Submitting an action: the one path of every ply — human, bot, timeout, dropped, standing
order (RULES.md §2).

Each service takes keyword-only arguments, runs in ``transaction.atomic()``, locks the game
row with ``select_for_update()`` and raises a ``games.core.errors.GameError`` subclass
(with a player-facing message and an HTTP status) instead of returning error values.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _

import engine
from games.core.errors import (
    GameError,
    GameNotActive,
    MalformedAction,
    NotAPlayer,
    NotYourTurn,
    StaleVersion,
)
from games.core.states import events_to_db, replay, state_from_db, state_to_db
from games.core.timecontrol import time_control_of
from games.models import Game, Move
from games.play import effects, policy
from games.play.access import UserLike, locked_game, user_id_of
from games.play.botturns import bot_played, bot_to_act_mark, bot_turn_queue
from games.play.deadlines import CLOCK_FIELDS, bank_settle, clock_start
from games.play.errors import IllegalAction
from games.play.orderturns import order_due, order_schedule, standing_order_action
from games.selectors.moves import moves_turn_tail
from games.text.messages import malformed_action_text

AUTOPLAY_LIMIT = 10_000  # a safety bound on default-policy plies in one transaction


@dataclass(frozen=True)
class SubmitResult:
    """What ``game_submit_action`` or ``game_undo`` did: the updated ``game``, the ``Move``
    it appended and the engine ``state`` the game is now in (what the snapshot holds, after
    any plies ``autoplay`` answered), so the page is built from it without decoding the
    snapshot again."""

    game: Game
    move: Move
    state: engine.GameState


def parse_action(text: str) -> engine.Action:
    """Return the engine action written as ``text``; raise ``MalformedAction`` if invalid."""
    try:
        return engine.Action.parse(text)
    except ValueError:
        # The parser's reason is English; the player reads how actions are written instead.
        raise MalformedAction(malformed_action_text(text)) from None


def game_submit_action(
    *,
    game_id: int,
    user: UserLike,
    action: str,
    expected_version: int,
    seat: int | None = None,
    source: str = Move.Source.PLAYER,
) -> SubmitResult:
    """Apply ``user``'s ``action`` (engine notation) to the game at ``expected_version``.

    ``seat`` names which of ``user``'s seats acts (a bot account may hold several seats of
    one game; a person holds one, found without it). ``source`` is ``Move.Source.BOT`` for
    a bot's move (``games.play.bots``): only a bot's seat may be played so, and a bot's
    seat only so.

    In one transaction with the game row locked: check the game is in progress, that
    ``user`` holds a seat, that the version matches and that the seat must act now; apply
    the action through the engine; append the ``Move`` with its events; save the snapshot;
    bump the version; update who acts; finish the game when the engine says it is over;
    call the move's side effects (``effects.move_applied``, ``game_finished``); then
    answer at once what follows for dropped seats and standing orders (``autoplay``).

    Raises ``MalformedAction`` (400), ``GameNotFound`` (404), ``GameNotActive`` (409),
    ``NotAPlayer``/``NotYourTurn`` (403), ``StaleVersion`` (409) or ``IllegalAction`` (400);
    on any error nothing is saved.
    """
    parsed = parse_action(action)
    user_id = user_id_of(user)
    with transaction.atomic():
        game = locked_game(game_id, with_seats=True, for_move=user)
        if game.status != Game.Status.ACTIVE:
            if game.status == Game.Status.FINISHED:
                raise GameNotActive(_("This game is over."))
            raise GameNotActive()
        mine = (s for s in game.seats.all() if s.user_id == user_id)
        if seat is not None:
            mine = (s for s in mine if s.position == seat)
        held = next(mine, None)
        if held is None:
            raise NotAPlayer()
        if bot_played(game, held) != (source == Move.Source.BOT):
            if held.dropped_at is not None:
                raise NotAPlayer(_("You left this game: the bot plays your seat now."))
            raise NotAPlayer()
        if expected_version != game.version:
            raise StaleVersion()
        position = held.position
        if position is None or position != game.to_act_seat:
            raise NotYourTurn()
        before = state_from_db(game.state or {})
        move, after = action_apply(
            game=game, position=position, before=before, action=parsed, source=source
        )
        if held.timeouts_in_row:
            held.timeouts_in_row = 0  # a human action resets the streak (issue 6)
            held.save(update_fields=["timeouts_in_row"])
        _moves, after = _autoplay(game=game, state=after)
    return SubmitResult(game=game, move=move, state=after)


class NothingToUndo(GameError):
    """Nothing of this turn can be taken back any more (409, issue 16)."""

    status = 409
    default_message = _(
        "Nothing to take back: only your own actions of this turn, before a tile is drawn "
        "or anyone has to answer, can be taken back."
    )


def _undo_tail(
    game: Game, state: engine.GameState, moves: list[Move] | None = None
) -> tuple[list[Move], int]:
    """Return the plies that could be taken back now and how many may be.

    The engine says from the position how many of the latest plies could count at most
    (``engine.undo_window``: the active seat's actions of this turn, none at a turn's
    start); only those are read (from ``moves``, the recent history in ply order when the
    caller has it, else from the database) and judged by ``engine.undoable_plies``.
    """
    window = engine.undo_window(state) if game.status == Game.Status.ACTIVE else 0
    if window == 0:
        return [], 0
    if moves is None:
        moves = moves_turn_tail(game.pk, version=game.version, limit=window)
    tail = [m for m in moves if not m.undone and not m.is_undo][-window:]
    plies = [(m.seat, engine.Action.parse(m.action), m.events) for m in tail]
    return tail, engine.undoable_plies(state, plies)


def undoable_count(*, game: Game, state: engine.GameState, moves: list[Move] | None = None) -> int:
    """Return how many plies the active seat may take back now (``engine.undoable_plies``).

    ``moves`` is the recent history when the caller has read it already (the game page's
    log, in ply order), else the turn's last plies are read (``_undo_tail``).
    """
    return _undo_tail(game, state, moves)[1]


def game_undo(*, game_id: int, user: UserLike, expected_version: int) -> SubmitResult:
    """Take back ``user``'s last action of the current turn (issue 16); return the undo row.

    Checked as ``game_submit_action`` checks a ply (in progress, seated, version, to act),
    then ``engine.undoable_plies`` must allow it, else ``NothingToUndo`` (409). In one
    transaction with the game row locked: mark the last ply of the line of play ``undone``,
    append an ``UNDO`` row (version + 1, so other pages poll the change and a repeated
    request is stale), and put back the snapshot replayed from the seed without it. Nothing
    hidden is revealed: an undoable ply drew nothing and asked nobody.
    """
    user_id = user_id_of(user)
    with transaction.atomic():
        game = locked_game(game_id, with_seats=True)
        if game.status != Game.Status.ACTIVE:
            raise GameNotActive()
        held = next((s for s in game.seats.all() if s.user_id == user_id), None)
        if held is None or bot_played(game, held):
            raise NotAPlayer()
        if expected_version != game.version:
            raise StaleVersion()
        if held.position is None or held.position != game.to_act_seat:
            raise NotYourTurn()
        before = state_from_db(game.state or {})
        tail, undoable = _undo_tail(game, before)
        if undoable < 1:
            raise NothingToUndo()
        taken = tail[-1]
        taken.undone = True
        taken.save(update_fields=["undone"])
        after = replay(game)
        # The snapshot must be the replay plus the ply taken back; a game whose history does
        # not replay (a position set up by hand) is refused, and the mark rolls back.
        if engine.apply(after, engine.Action.parse(taken.action)) != before:
            raise NothingToUndo()
        game.version += 1
        move = Move.objects.create(
            game=game,
            ply=game.version,
            seat=held.position,
            action=Move.UNDO,
            events=[{"code": "undone", "params": {"seat": held.position, "ply": taken.ply}}],
            source=Move.Source.PLAYER,
        )
        game.state = state_to_db(after)
        game.to_act_seat = after.to_act
        bot_to_act_mark(game)
        game.save(update_fields=["state", "version", "to_act_seat", "bot_to_act", "updated_at"])
        effects.move_applied(game=game, move=move, before=before, after=after)
    return SubmitResult(game=game, move=move, state=after)


def action_apply(
    *,
    game: Game,
    position: int,
    before: engine.GameState,
    action: engine.Action,
    source: str,
) -> tuple[Move, engine.GameState]:
    """Apply ``action`` of seat ``position`` to the locked ``game``: the one path of every ply.

    Humans (``game_submit_action``), timeouts (``seat_timeout``), dropped seats and
    standing orders (``autoplay``) all come here: append the ``Move`` (with ``source``) and its
    events, save the snapshot, bump the version, restart the clock when the seat to act
    changes, finish the game when it is over, call the move's side effects
    (``effects.move_applied``, ``effects.game_finished``: the outbox's rows now, the live
    event and the rendering ahead after the commit), and queue the bot's move when the
    game now waits on a bot (``botturns.bot_turn_queue``, after the commit). Raises
    ``IllegalAction``; the caller holds the row lock.
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
    fields = [
        "state",
        "version",
        "to_act_seat",
        "order_due_at",
        "bot_to_act",
        *CLOCK_FIELDS,
        "updated_at",
    ]
    # before the effects: whom the move owes a notice reads it (an order will answer)
    order_schedule(game, after)
    if after.is_over:
        game.to_act_seat = None
        clock_start(game)
        game.status = Game.Status.FINISHED
        game.finished_at = timezone.now()
        fields += ["status", "finished_at"]
    else:
        game.to_act_seat = after.to_act
        turn_ended = before.active_seat if after.active_seat != before.active_seat else None
        # A time bank (issue 17) also settles when a turn ends on the same seat's clock.
        banked = time_control_of(game).has_bank
        if after.to_act != before.to_act or (banked and turn_ended is not None):
            bank_settle(game, turn_ended_for=turn_ended)
            clock_start(game)
    bot_to_act_mark(game)  # after the finish too: nobody to act, no bot
    game.save(update_fields=fields)
    effects.move_applied(game=game, move=move, before=before, after=after)
    if after.is_over:
        game_finish(game=game, state=after)
    else:
        bot_turn_queue(game=game, after_source=source)
    return move, after


def autoplay(*, game: Game, state: engine.GameState) -> list[Move]:
    """Answer at once every decision ``game`` waits on that no person need answer now.

    A dropped seat is played by the default policy (issue 6; ``source`` dropped); a
    decision its player's standing order covers is answered by that order (issue 17,
    ``standing_order_action``; ``source`` order) once it is due (``orderturns``: in its
    own step, after a person-like delay, issue 28). Stops when the game waits on a person
    who must answer, or is over. In a game of 3–4 players the medium bot plays dropped
    seats instead (``botturns``), in the background like any bot. The caller holds the
    game's row lock; returns the moves played.
    """
    return _autoplay(game=game, state=state)[0]


def _autoplay(*, game: Game, state: engine.GameState) -> tuple[list[Move], engine.GameState]:
    """Play as ``autoplay`` does; return the moves played and the state they left."""
    seats = {s.position: s for s in game.seats.all() if s.position is not None}
    moves: list[Move] = []
    while game.status == Game.Status.ACTIVE and len(moves) < AUTOPLAY_LIMIT:
        seat = seats.get(game.to_act_seat or 0)
        if seat is None or seat.position is None:
            break
        if seat.dropped_at is not None and not bot_played(game, seat):
            action, source = policy.default_action(state), Move.Source.DROPPED
        else:
            order = standing_order_action(game=game, seat=seat, state=state)
            if order is None or not order_due(game):
                break  # a person must answer, or the order answers later in its own step
            action, source = order, Move.Source.ORDER
        move, state = action_apply(
            game=game, position=seat.position, before=state, action=action, source=source
        )
        moves.append(move)
    return moves, state


def final_ranks(ranking: list[engine.Placing], *, dropped_seats: set[int]) -> dict[int, int]:
    """Return seat → final place: ``ranking``'s order, dropped seats after every other.

    A seat dropped or resigned ranks last whoever played it since (the default policy, or
    the medium bot in a 3–4 player game, issue 15), however it scored; the others keep
    ``engine.final_ranking``'s order (RULES.md §13.2), places shared as there (1, 2, 2, 4).
    """
    kept = [p for p in ranking if p.seat not in dropped_seats]
    places: dict[int, int] = {}
    for i, placing in enumerate(kept):
        tied = i > 0 and placing.rank == kept[i - 1].rank
        places[placing.seat] = places[kept[i - 1].seat] if tied else i + 1
    return places | dict.fromkeys(dropped_seats, len(kept) + 1)


def game_finish(*, game: Game, state: engine.GameState) -> None:
    """Store each seat's final place and score sheet from ``engine.final_ranking``.

    Dropped seats are placed last (``final_ranks``); ``effects.game_finished`` gets the
    engine's ranking.
    """
    ranking = engine.final_ranking(state)
    seats = {seat.position: seat for seat in game.seats.all()}
    dropped = {p for p, seat in seats.items() if p is not None and seat.dropped_at is not None}
    places = final_ranks(ranking, dropped_seats=dropped)
    for placing in ranking:
        seat = seats[placing.seat]
        colors = [int(c) for c in placing.colors]
        seat.final_rank = places[placing.seat]
        seat.final_score = {
            "colors": dict(zip(engine.COLOR_NAMES, colors, strict=True)),
            "score": min(colors),
        }
        seat.save(update_fields=["final_rank", "final_score"])
    effects.game_finished(game=game, ranking=ranking)
