"""Reads of a game's move history: the plies a page or an email retells."""

from __future__ import annotations

from datetime import datetime

from django.db.models import Count, IntegerField, Subquery
from django.db.models.functions import Coalesce

from games.models import Move

LOG_PLIES = 40  # the plies a game page's log shows


def moves_recent(game_id: int, *, version: int, position: int | None) -> tuple[list[Move], int]:
    """Return the moves a game page writes, in ply order, and the viewer's latest ply (or 0).

    The page needs the last ``LOG_PLIES`` plies of the game at ``version`` and every ply
    since the viewer's (seat ``position``) latest move; only those rows are read, so a
    page costs the same at ply 300 as at ply 30: one query, or three when the viewer's
    latest move is older than the last ``LOG_PLIES``.
    """
    # Each row also carries ``standing_before``: the plies that stand before the window (no
    # ply taken back, no undo row), for the log's numbers (issue 32); one subquery, computed
    # once, in the same query.
    before = (
        Move.objects.filter(game_id=game_id, ply__lte=version - LOG_PLIES)
        .played()
        .order_by()
        .values("game_id")
        .annotate(n=Count("pk"))
        .values("n")
    )
    moves = list(
        Move.objects.filter(game_id=game_id, ply__gt=version - LOG_PLIES, undone=False)
        .annotate(standing_before=Coalesce(Subquery(before, output_field=IntegerField()), 0))
        .order_by("ply")
    )
    if position is None:
        return moves, 0
    # A standing order's answer is not the viewer's move: the page tells them of it.
    mine = [m.ply for m in moves if m.seat == position and m.source != Move.Source.ORDER]
    if mine:
        return moves, mine[-1]
    first = moves[0].ply if moves else version + 1
    if first <= 1:  # the log starts at the first ply: no earlier move to look for
        return moves, 0
    last_mine = (
        Move.objects.filter(game_id=game_id, seat=position, ply__lt=first)
        .exclude(source=Move.Source.ORDER)
        .order_by("-ply")
        .values_list("ply", flat=True)
        .first()
    )
    if last_mine is None:
        return moves, 0
    earlier = list(
        Move.objects.filter(
            game_id=game_id, ply__gt=last_mine, ply__lt=first, undone=False
        ).order_by("ply")
    )
    return earlier + moves, last_mine


def moves_all(game_id: int) -> list[Move]:
    """Return the line of play in ply order (replays, bots' history).

    Plies taken back and the undo rows that took them back are left out (issue 16).
    """
    return list(Move.objects.filter(game_id=game_id).played().order_by("ply"))


def moves_turn_tail(game_id: int, *, version: int, limit: int) -> list[Move]:
    """Return the last ``limit`` plies of the line of play up to ``version``, in ply order.

    What ``engine.undoable_plies`` reads to say what the active player may take back:
    ``limit`` is ``engine.undo_window`` of the position (at most a turn's two actions).
    """
    rows = Move.objects.filter(game_id=game_id, ply__lte=version).played().order_by("-ply")
    return list(reversed(rows[:limit]))


def moves_since_seat(game_id: int, *, seat: int, up_to: int, limit: int) -> list[Move]:
    """Return the moves after ``seat``'s latest one up to ply ``up_to``, the last ``limit``.

    In ply order; all of them up to ``up_to`` (at most ``limit``) when ``seat`` has not moved.
    A standing order's answer (issue 17) is not the player's move: it is among those told.
    """
    moves = Move.objects.filter(game_id=game_id, ply__lte=up_to, undone=False)
    mine = moves.filter(seat=seat).exclude(source=Move.Source.ORDER)
    last_mine = mine.order_by("-ply").values_list("ply", flat=True).first()
    recent = list(moves.filter(ply__gt=last_mine or 0).order_by("-ply")[:limit])
    return list(reversed(recent))


def seat_moved_since(game_id: int, *, seat: int, ply: int) -> bool:
    """Return whether ``seat`` has played a ply after ``ply``."""
    return Move.objects.filter(game_id=game_id, seat=seat, ply__gt=ply).exists()


def moves_for_record(game_id: int) -> list[Move]:
    """Return the line of play in ply order without the events (a game's record).

    Plies taken back and the undo rows that took them back are left out (issue 16).
    """
    fields = ("ply", "seat", "action", "source", "created_at")
    return list(Move.objects.filter(game_id=game_id).played().order_by("ply").only(*fields))


def last_move_time(game_id: int, *, seat: int) -> datetime | None:
    """Return when ``seat`` last played a ply of game ``game_id`` (None: not yet)."""
    return (
        Move.objects.filter(game_id=game_id, seat=seat)
        .order_by("-ply")
        .values_list("created_at", flat=True)
        .first()
    )


def timeout_moves(game_id: int, *, seat: int, up_to: int, limit: int = 100) -> list[Move]:
    """Return the moves the default policy just played for ``seat``, ending at ply ``up_to``.

    In ply order. One timeout (issue 6) plays the seat's plies in a row until the game
    waits on someone else: the run of consecutive ``timeout`` plies of ``seat`` that ends
    at ``up_to``.
    """
    mine = Move.objects.filter(game_id=game_id, ply__lte=up_to).order_by("-ply")
    played: list[Move] = []
    for move in mine[:limit]:
        if move.seat != seat or move.source != Move.Source.TIMEOUT:
            break
        played.append(move)
    return list(reversed(played))
