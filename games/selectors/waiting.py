"""The games waiting on a player to act: the navigation's count, the next game a page offers.

``games_waiting_for`` is the query; a game page reads the same facts inside its own game's
query (``with_viewer_facts``) and ``waiting_for_viewer`` reads them back, so the page pays no
query of its own for them. ``games.selectors.games`` re-exports these names.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import BooleanField, DateTimeField, F, IntegerField, QuerySet, TextField
from django.db.models.expressions import RawSQL

from games.models import ChatMessage, Game, Move, PrivateNote, Seat, TournamentTable

UserLike = AbstractBaseUser | AnonymousUser

# Correlated subqueries written out, as ``games.selectors.games`` writes its own (their ORM
# compilation cost more than the queries they replace); the outer row is the game's table.
_GAME, _SEAT, _CHAT, _MOVE, _NOTE, _TABLE = (
    m._meta.db_table for m in (Game, Seat, ChatMessage, Move, PrivateNote, TournamentTable)
)
_WAITING = (
    f"SELECT {{what}} FROM {_GAME} g INNER JOIN {_SEAT} s ON s.game_id = g.id"
    " WHERE g.status = %s AND s.user_id = %s AND s.final_rank IS NULL"
    " AND s.position = g.to_act_seat"
    f" AND g.id <> {_GAME}.id{{tail}}"
)
_CHAT_LAST = f"SELECT MAX(c.created_at) FROM {_CHAT} c WHERE c.game_id = {_GAME}.id"
_IN_TOURNAMENT = f"EXISTS (SELECT 1 FROM {_TABLE} t WHERE t.game_id = {_GAME}.id)"
# ``selectors.moves.last_move_time`` of the user's seat: the latest ply it played (any source).
_LAST_MOVE = (
    f"SELECT m.created_at FROM {_MOVE} m INNER JOIN {_SEAT} s"
    " ON s.game_id = m.game_id AND s.position = m.seat"
    f" WHERE m.game_id = {_GAME}.id AND s.user_id = %s ORDER BY m.ply DESC LIMIT 1"
)
# ``selectors.community.note_of``: the user's own notes on the game.
_NOTE_TEXT = (
    f"SELECT n.text FROM {_NOTE} n WHERE n.game_id = {_GAME}.id AND n.user_id = %s"
    " ORDER BY n.id LIMIT 1"
)


def games_waiting_for(user: UserLike) -> QuerySet[Game]:
    """Return the games in progress in which ``user``'s seat must act now.

    Reads the player's seats not ranked yet (``seat_unranked_user_idx``: a seat is ranked
    when its game ends), never their finished history (issue 31).
    """
    if not user.is_authenticated:
        return Game.objects.none()
    return Game.objects.filter(
        status=Game.Status.ACTIVE,
        seats__user_id=user.pk,
        seats__final_rank__isnull=True,  # not ranked yet: seat_unranked_user_idx (issue 31)
        seats__position=F("to_act_seat"),
    ).order_by("updated_at")


def with_viewer_facts(queryset: QuerySet[Game], user: UserLike) -> QuerySet[Game]:
    """Return ``queryset`` with what a game page needs to know beyond each game, in its query.

    Every game gets ``chat_last_at``: when its latest chat message was written (None: no
    chat), and ``in_tournament``: whether it is a tournament's table (the page reads the
    event only then, ``tournament_if_any``). For a logged-in ``user`` also
    ``waiting_elsewhere``, how many other games wait for them to act, and ``waiting_next``,
    the longest waiting of those (None: none); with whether the game itself waits for them,
    that is ``games_waiting_ids`` without a query of its own (``waiting_for_viewer``);
    ``viewer_last_move_at``, when ``user``'s seat last played a ply (None: not seated or no
    ply yet: ``selectors.moves.last_move_time``), and ``viewer_note``, ``user``'s own notes
    on the game (None: none, ``selectors.community.note_of``). Each is a correlated
    subquery of the game's one query (issue 31: a query each cost more than the subquery).
    ``viewer_note`` is the user's own private text: the game row carrying it never reaches
    a template (the page's context holds values, RULES.md §14).
    """
    queryset = queryset.annotate(
        chat_last_at=RawSQL(_CHAT_LAST, [], output_field=DateTimeField()),
        in_tournament=RawSQL(_IN_TOURNAMENT, [], output_field=BooleanField()),
    )
    if not user.is_authenticated:
        return queryset
    where = [Game.Status.ACTIVE.value, user.pk]
    return queryset.annotate(
        viewer_last_move_at=RawSQL(_LAST_MOVE, [user.pk], output_field=DateTimeField()),
        viewer_note=RawSQL(_NOTE_TEXT, [user.pk], output_field=TextField()),
        waiting_elsewhere=RawSQL(
            _WAITING.format(what="COUNT(*)", tail=""), where, output_field=IntegerField()
        ),
        # games_waiting_for's order: the longest waiting first.
        waiting_next=RawSQL(
            _WAITING.format(what="g.id", tail=" ORDER BY g.updated_at LIMIT 1"),
            where,
            output_field=IntegerField(),
        ),
    )


def next_game_offered(*, here: bool, oldest_other: int | None) -> int | None:
    """Return the game a page offers next: none while this game itself waits on the viewer,
    else the oldest other game waiting on them (issue 17), the rule of every game page."""
    return None if here else oldest_other


def waiting_for_viewer(game: Game, user: UserLike) -> tuple[int, int | None] | None:
    """Return ``(how many games wait for user, the one to offer next)``, or None.

    Read from the annotations of ``with_viewer_facts`` (None when ``game`` was read
    without them). The next game is ``next_game_offered``.
    """
    if not user.is_authenticated or not hasattr(game, "waiting_elsewhere"):
        return None
    here = game.status == Game.Status.ACTIVE and any(
        s.user_id == user.pk and s.position == game.to_act_seat for s in game.seats.all()
    )
    count = int(game.waiting_elsewhere or 0) + (1 if here else 0)
    oldest_other: int | None = getattr(game, "waiting_next", None)
    return count, next_game_offered(here=here, oldest_other=oldest_other)


def games_waiting_ids(user: UserLike) -> list[int]:
    """Return the ids of the games waiting for ``user`` to act, the longest waiting first."""
    return list(games_waiting_for(user).values_list("pk", flat=True))
