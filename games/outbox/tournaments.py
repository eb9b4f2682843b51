"""The outbox's rows of tournaments and leagues (issue 30): a round, a bye, an event's end.

Written by the tournaments' room in the transaction that starts a round or ends an event
(under the tournament's or the season's row lock), through ``notification_create``: the
player's preference for the kind, bots skipped, immediate rows queued after the commit;
quiet hours and batching are the sender's (``games.mail.deliver``). Each row is unique on
(user, tournament, number, kind), so a step run twice writes nothing twice.

A round's game replaces the game's own "game started" email: the round email names the
event, the round and the game, so a player gets one email, not two.
"""

from __future__ import annotations

from collections.abc import Iterable

from games.models import Game, Notification, NotificationKind
from games.outbox.notifications import notification_create


def _rows(
    user_ids: Iterable[int],
    *,
    kind: str,
    ply: int,
    tournament_id: int,
    game: Game | None = None,
) -> list[Notification]:
    """Write one ``kind`` row for each of ``user_ids``; return those written (not skipped)."""
    rows = []
    for user_id in user_ids:
        row = notification_create(
            user_id=user_id, game=game, ply=ply, kind=kind, tournament_id=tournament_id
        )
        if row is not None:
            rows.append(row)
    return rows


def notify_round_started(
    *, tournament_id: int, number: int, games: dict[int, list[int]], byes: Iterable[int]
) -> list[Notification]:
    """Tell each player of round ``number`` their game, or that they have a bye.

    ``games``: game id → the user ids seated there; ``byes``: user ids with a bye. The
    games' pending "game started" rows are skipped (the round email says it).
    """
    rows = []
    for game in Game.objects.filter(pk__in=list(games)):
        Notification.objects.filter(
            game=game, kind=NotificationKind.GAME_STARTED, status=Notification.Status.PENDING
        ).update(status=Notification.Status.SKIPPED)
        rows += _rows(
            games[game.pk],
            kind=NotificationKind.TOURNAMENT_ROUND,
            ply=number,
            tournament_id=tournament_id,
            game=game,
        )
    rows += _rows(
        byes, kind=NotificationKind.TOURNAMENT_BYE, ply=number, tournament_id=tournament_id
    )
    return rows


def notify_tournament_over(*, tournament_id: int, user_ids: Iterable[int]) -> list[Notification]:
    """Tell every player of the tournament (withdrawn ones too) that it is over."""
    return _rows(
        user_ids, kind=NotificationKind.TOURNAMENT_OVER, ply=0, tournament_id=tournament_id
    )


def notify_invited(*, tournament_id: int, user_ids: Iterable[int]) -> list[Notification]:
    """Tell each invited player of an invitation-only tournament that they may register."""
    return _rows(
        user_ids, kind=NotificationKind.TOURNAMENT_INVITE, ply=0, tournament_id=tournament_id
    )


def notify_league_invited(*, league_id: int, user_ids: Iterable[int]) -> list[Notification]:
    """Tell each player invited to a group's league that they may join its seasons."""
    rows = []
    for user_id in user_ids:
        row = notification_create(
            user_id=user_id,
            game=None,
            ply=0,
            kind=NotificationKind.LEAGUE_INVITE,
            league_id=league_id,
        )
        if row is not None:
            rows.append(row)
    return rows


def notify_season_over(*, season: int, members: dict[int, int]) -> list[Notification]:
    """Tell each member that season ``season`` is over (their place, their move, the next).

    ``members``: user id → the tournament id of their division.
    """
    rows = []
    for user_id, tournament_id in members.items():
        rows += _rows(
            [user_id], kind=NotificationKind.SEASON_OVER, ply=season, tournament_id=tournament_id
        )
    return rows
