"""Reads of the table talk and the players around a game (issue 18): chat, notes, follows,
invitations.

Who reads a game's chat: its seated players, always; anyone else who may see the game
(``games.selectors.visibility.games_visible_to``) while the creator left ``Game.chat_spectators``
on. A reader never gets the lines of a player they muted. Private notes are read for their
author only: no function here returns another user's notes (RULES.md §14 treats them as a
secret, like a hand).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from functools import partial

from django.contrib.auth import get_user_model
from django.db.models import Exists, OuterRef

from games.models import ChatMessage, Follow, Game, Invitation, Mute, PrivateNote, Seat
from games.selectors.games import (
    UserLike,
    in_seat_order,
    list_seats,
    read_when_used,
    seat_for,
    with_seats,
)
from games.text.seats import display_name, shown_name

CHAT_LINES = 50  # the chat lines a game page shows, the latest


@dataclass(frozen=True)
class ChatLine:
    """One chat message as a reader sees it: plain text, escaped by whatever shows it."""

    pk: int
    author_id: int
    author: str
    seat: int | None
    text: str
    created_at: datetime
    mine: bool


def chat_readable(game: Game, user: UserLike, *, seated: bool | None = None) -> bool:
    """Return whether ``user`` may read ``game``'s chat (a viewer of the game already).

    ``game`` comes with its seats (``with_seats``). Seated players always may; anyone
    else only while ``Game.chat_spectators`` is on. ``seated``: whether ``user`` holds a
    seat, when the caller knows (a page's ``Viewer``), else looked up.
    """
    if seated is None:
        seated = seat_for(game, user) is not None
    return seated or game.chat_spectators


def _muted_ids(user: UserLike) -> list[int]:
    if not user.is_authenticated:
        return []
    return list(Mute.objects.filter(user_id=user.pk).values_list("muted_id", flat=True))


def chat_lines(
    game: Game,
    user: UserLike,
    *,
    after_id: int = 0,
    since: datetime | None = None,
    limit: int = CHAT_LINES,
    seated: bool | None = None,
) -> list[ChatLine]:
    """Return the chat of ``game`` that ``user`` may read, oldest first, the last ``limit``.

    ``after_id`` keeps only messages after that id (a poll), ``since`` those written after
    that time ("since your last move"). Empty when ``user`` may not read the chat
    (``seated`` as in ``chat_readable``). One query (the messages with their authors'
    profiles, the mutes as a subquery).
    """
    if not chat_readable(game, user, seated=seated):
        return []
    seats = {s.user_id: s.position for s in game.seats.all() if not s.is_bot}
    rows = ChatMessage.objects.filter(game_id=game.pk, id__gt=after_id)
    if since is not None:
        rows = rows.filter(created_at__gt=since)
    if user.is_authenticated:  # one query: the mutes as a subquery
        muted = Mute.objects.filter(user_id=user.pk).values("muted_id")
        rows = rows.exclude(author_id__in=muted)
    recent = list(rows.select_related("author__profile").order_by("-id")[:limit])
    me = user.pk if user.is_authenticated else None
    return [
        ChatLine(
            pk=m.pk,
            author_id=m.author_id,
            author=display_name(m.author),
            seat=seats.get(m.author_id),
            text=m.text,
            created_at=m.created_at,
            mine=m.author_id == me,
        )
        for m in reversed(recent)
    ]


def chat_since_for_user(game_id: int, *, user_id: int, since: datetime | None) -> list[ChatLine]:
    """Return the chat lines of game ``game_id`` written after ``since`` that ``user_id`` reads.

    For the turn email (``games.mail``): the messages since the recipient's last move
    (``since`` None: all, the last ``CHAT_LINES``), without those of players they muted and
    without their own. Empty when they may not read the chat or turned the chat off in
    their emails (``Profile.chat_in_email``).
    """
    user = get_user_model().objects.select_related("profile").filter(pk=user_id).first()
    game = with_seats(Game.objects.filter(pk=game_id)).first()
    if user is None or game is None:
        return []
    profile = getattr(user, "profile", None)
    if profile is not None and not profile.chat_in_email:
        return []
    return [line for line in chat_lines(game, user, since=since) if not line.mine]


def chat_has_new(game_id: int, *, after_id: int) -> bool:
    """Return whether game ``game_id`` has a chat message after ``after_id`` (one query)."""
    return ChatMessage.objects.filter(game_id=game_id, id__gt=after_id).exists()


def chat_recent_count(*, game_id: int, user_id: int, since: datetime) -> int:
    """Return how many messages ``user_id`` wrote in game ``game_id`` after ``since``."""
    return ChatMessage.objects.filter(
        game_id=game_id, author_id=user_id, created_at__gt=since
    ).count()


def muted_in_game(game: Game, user: UserLike) -> list[tuple[int, str]]:
    """Return ``(user id, name)`` of the players of ``game`` whom ``user`` muted."""
    muted = set(_muted_ids(user))
    return [(s.user_id, display_name(s.user)) for s in game.seats.all() if s.user_id in muted]


def note_of(*, game_id: int, user: UserLike) -> str:
    """Return ``user``'s own notes on game ``game_id`` ("" when none or anonymous)."""
    if not user.is_authenticated:
        return ""
    text = (
        PrivateNote.objects.filter(game_id=game_id, user_id=user.pk)
        .values_list("text", flat=True)
        .first()
    )
    return text or ""


def follows(*, user_id: int) -> set[int]:
    """Return the ids of the players ``user_id`` follows."""
    return set(Follow.objects.filter(follower_id=user_id).values_list("followed_id", flat=True))


def is_following(user: UserLike, *, followed_id: int) -> bool:
    """Return whether ``user`` follows ``followed_id``."""
    if not user.is_authenticated:
        return False
    return Follow.objects.filter(follower_id=user.pk, followed_id=followed_id).exists()


def is_muting(user: UserLike, *, muted_id: int) -> bool:
    """Return whether ``user`` muted ``muted_id``."""
    if not user.is_authenticated:
        return False
    return Mute.objects.filter(user_id=user.pk, muted_id=muted_id).exists()


@dataclass(frozen=True)
class FollowedGame:
    """A game in progress of a player one follows: public facts only (its players' names
    in seat order)."""

    pk: int
    num_players: int
    players: tuple[str, ...]


@dataclass(frozen=True)
class FollowedGames:
    """The home page's games of followed players: ``rows`` (``FollowedGame``, read when
    first used: their seats' query) and ``key``, the games' ids in order (``""``: none).
    A game in progress keeps its players, so ``key`` names what ``rows`` show but for the
    players' names (``games.core.stamps.names_stamp``): the page keeps their rendering
    under both, for whoever follows them."""

    rows: Sequence[FollowedGame]
    key: str

    def __bool__(self) -> bool:
        """Whether there is a game to list."""
        return bool(self.key)


def games_of_followed(user: UserLike, *, limit: int = 20) -> FollowedGames:
    """Return the public games in progress of the players ``user`` follows, latest moved
    first, at most ``limit``. Two queries (the follows, the games' columns), then one
    when the rows are first used (their seats as tuples: ``list_seats``, no row built).

    Games in which ``user`` holds a seat are in their own list and left out here.
    """
    if not user.is_authenticated:
        return FollowedGames(rows=[], key="")
    followed = follows(user_id=int(user.pk))
    if not followed:
        return FollowedGames(rows=[], key="")
    games = list(
        Game.objects.filter(status=Game.Status.ACTIVE, is_public=True, seats__user_id__in=followed)
        .exclude(seats__user_id=user.pk)
        .distinct()
        .order_by("-updated_at")
        .values_list("pk", "num_players", "updated_at")[:limit]
    )
    return FollowedGames(
        rows=read_when_used(partial(_followed_rows, [(pk, n) for pk, n, _at in games])),
        key=",".join(str(pk) for pk, _n, _at in games),
    )


def _followed_rows(games: list[tuple[int, int]]) -> list[FollowedGame]:
    """Return the ``FollowedGame`` of each (game id, number of players), in order."""
    seats_of = list_seats([pk for pk, _n in games])
    return [
        FollowedGame(
            pk=pk,
            num_players=num_players,
            players=tuple(s.player.user.display_name for s in in_seat_order(seats_of.get(pk, []))),
        )
        for pk, num_players in games
    ]


@dataclass(frozen=True)
class InvitationNotice:
    """A pending invitation as "My games" shows it."""

    pk: int
    game_id: int
    num_players: int
    inviter: str


def invitations_pending(user: UserLike, *, limit: int | None = None) -> list[InvitationNotice]:
    """Return ``user``'s pending invitations to games still open, newest first: the first
    ``limit`` (None: all). One query, of tuples (no row built: issue 31, the home page
    reads it at every request)."""
    if not user.is_authenticated:
        return []
    seated = Seat.objects.filter(game_id=OuterRef("game_id"), user_id=user.pk)
    rows = (
        Invitation.objects.filter(
            invitee_id=user.pk, status=Invitation.Status.PENDING, game__status=Game.Status.OPEN
        )
        .exclude(Exists(seated))
        .order_by("-created_at")
        .values_list(
            "pk",
            "game_id",
            "game__num_players",
            "inviter__username",
            "inviter__profile__display_name",
            "inviter__profile__is_bot",
            "inviter__profile__bot_tier",
        )
    )
    if limit is not None:
        rows = rows[:limit]
    return [
        InvitationNotice(
            pk=pk,
            game_id=game_id,
            num_players=num_players,
            inviter=shown_name(username, name, is_bot=bool(is_bot), tier=tier or ""),
        )
        for pk, game_id, num_players, username, name, is_bot, tier in rows
    ]


def invitation_pending(
    game: Game, user: UserLike, *, seated: bool | None = None
) -> InvitationNotice | None:
    """Return ``user``'s pending invitation to ``game`` while it is open and they are not
    seated in it (the game page offers accept and decline), else None. ``seated`` as in
    ``chat_readable``."""
    if not user.is_authenticated or game.status != Game.Status.OPEN:
        return None
    if seated is None:
        seated = seat_for(game, user) is not None
    if seated:
        return None
    row = (
        Invitation.objects.filter(
            game_id=game.pk, invitee_id=user.pk, status=Invitation.Status.PENDING
        )
        .select_related("inviter__profile")
        .first()
    )
    if row is None:
        return None
    return InvitationNotice(
        pk=row.pk, game_id=game.pk, num_players=game.num_players, inviter=display_name(row.inviter)
    )


def human_seats(game: Game) -> list[Seat]:
    """Return the seats of ``game`` that people hold (not bots), in seat order."""
    return sorted((s for s in game.seats.all() if not s.is_bot), key=lambda s: s.position or 0)
