"""Who is looking, resolved once per request: the values templates get instead of rows (issue 27).

A template follows ``.`` through attributes and calls what it finds, so a ``User`` row in a
context reaches every relation of it — ``{{ user.seats.all.0.game.seed }}`` prints a game's
seed, and ``game.state`` every hand and the bag. Django's context processors put such rows
in every page: ``user`` (the row), ``request`` (``request.user``), ``perms`` and
``messages`` (each holding the request or the user). ``page_values`` (a context processor,
listed after Django's) replaces them on the site's own pages with small frozen values: the
``Viewer``, a ``PageRequest`` with what the templates read of the request, and the
messages themselves. allauth's pages (sign-up, login, password, email; drawn inside the
site's layout) get the same values: their templates read only ``user.is_authenticated``
and ``{% user_display user %}`` (``games.text.seats.display_name`` reads a ``Viewer``),
and the layout reads ``request.url_name`` and ``signup_bot_tier``. The admin keeps
Django's values (staff-only, with its own leak tests).

Template tags, which are code, reach the request through ``request_of(context)`` (the
``RequestContext``'s own attribute, which no template variable names).
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.contrib.messages import get_messages
from django.http import HttpRequest
from django.utils import translation
from django.utils.functional import SimpleLazyObject, lazy

from games.models import Game, Profile, Seat
from games.selectors.games import seat_for
from games.text.seats import display_name

_CACHE = "_games_viewer"


@dataclass(frozen=True)
class Viewer:
    """The person a page is rendered for, or nobody signed in.

    ``id`` the user's id (None: signed out); ``display_name`` as other players see it
    (``""`` signed out); ``language`` the language code the page speaks (``"en"``,
    ``"zh-hans"``); ``time_zone`` an IANA name (``"Europe/Paris"``).

    In the game a page shows (``viewer_in_game``, the one look-up of the viewer's seat in
    a request): ``seat`` the viewer's seat (1–4), None for a spectator, before the start
    or on a page of no game; ``seated`` whether they hold a seat (also before the start,
    when it has no number yet); ``seat_is_bot`` whether a bot account holds it;
    ``seat_dropped`` whether it was dropped (resigned or timed out, issue 6);
    ``confirm_actions`` the player's wish to confirm each action in words (``Profile``).
    ``is_authenticated``, ``is_anonymous`` and ``pk`` read as a user's do, so a ``Viewer``
    serves the selectors that ask only who is looking (``selectors.games.UserLike``).
    """

    id: int | None
    display_name: str
    language: str
    time_zone: str
    seat: int | None = None
    seated: bool = False
    seat_is_bot: bool = False
    seat_dropped: bool = False
    confirm_actions: bool = True

    @property
    def pk(self) -> int | None:
        """The user's id, as a row's ``pk``."""
        return self.id

    @property
    def is_authenticated(self) -> bool:
        """Whether someone is signed in."""
        return self.id is not None

    @property
    def is_anonymous(self) -> bool:
        """Whether nobody is signed in."""
        return self.id is None

    @property
    def is_spectator(self) -> bool:
        """Whether the viewer holds no seat in the game the page shows."""
        return not self.seated


def _zone_of(user: Any) -> str:
    try:
        return str(user.profile.time_zone or settings.TIME_ZONE)
    except Profile.DoesNotExist:
        return str(settings.TIME_ZONE)


def viewer_for_user(user: Any, *, language: str | None = None) -> Viewer:
    """Return the ``Viewer`` of a ``User`` row (or ``AnonymousUser``).

    ``language`` defaults to the active language. The display name and the time zone (the
    profile's, else ``settings.TIME_ZONE``) are lazy text, read from the profile when a
    page first shows them: an HTMX poll that asks only whether someone is signed in costs
    no query. A lazy text exposes only text (a template cannot reach what computes it).
    """
    language = language or translation.get_language() or settings.LANGUAGE_CODE
    if user is None or not user.is_authenticated:
        return Viewer(id=None, display_name="", language=language, time_zone=settings.TIME_ZONE)
    return Viewer(
        id=int(user.pk),
        display_name=lazy(display_name, str)(user),
        language=language,
        time_zone=lazy(_zone_of, str)(user),
    )


def _confirm_actions(user: Any) -> bool:
    try:
        return bool(user.profile.confirm_actions)
    except Profile.DoesNotExist:
        return True


def viewer_at_seat(seat: Seat, *, language: str | None = None) -> Viewer:
    """Return the ``Viewer`` of the person holding ``seat``, seated at it.

    ``seat`` comes with its user and profile (``selectors.games.with_seats``): no query.
    """
    return replace(
        viewer_for_user(seat.user, language=language),
        seat=seat.position,
        seated=True,
        seat_is_bot=seat.is_bot,
        seat_dropped=seat.dropped_at is not None,
        confirm_actions=_confirm_actions(seat.user),
    )


def viewer_in_game(user: Any, game: Game, *, language: str | None = None) -> Viewer:
    """Return the ``Viewer`` of ``user`` (a row or ``AnonymousUser``) looking at ``game``.

    The one look-up of the viewer's seat (``selectors.games.seat_for``) for a page: every
    context builder reads it from the ``Viewer`` it is given. ``game`` comes with its
    seats (``with_seats``): no query.
    """
    seat = seat_for(game, user) if user is not None else None
    if seat is None:
        return viewer_for_user(user, language=language)
    return viewer_at_seat(seat, language=language)


def viewer_of(request: HttpRequest) -> Viewer:
    """Return the request's ``Viewer``, resolved on first use and kept for the request."""
    known = getattr(request, _CACHE, None)
    if known is None:
        known = viewer_for_user(getattr(request, "user", None))
        setattr(request, _CACHE, known)
    return known


def viewer_seated(request: HttpRequest, game: Game) -> Viewer:
    """Return the request's ``Viewer`` in ``game`` (``viewer_in_game``) and keep it for the
    request: the page's ``viewer`` and ``user`` are it. A view calls it once, when it has
    the game it renders, and passes the ``Viewer`` to every context builder."""
    viewer = viewer_in_game(getattr(request, "user", None), game)
    setattr(request, _CACHE, viewer)
    return viewer


@dataclass(frozen=True)
class PageRequest:
    """What the site's templates read of the request, as plain text (never ``request.user``).

    The attribute names are the ``HttpRequest``'s, so ``{{ request.get_full_path }}`` reads
    the same: ``method`` (``"GET"``), ``path`` and ``get_full_path`` (with the query
    string), ``scheme`` (``"https"``), ``get_host`` (``"example.com:8000"``), ``htmx``
    (whether HTMX asked for a partial); ``url_name`` the name of the page's URL pattern
    (``"account_signup"``, ``""`` when none), read of ``request.resolver_match``.
    """

    method: str
    path: str
    get_full_path: str
    scheme: str
    get_host: str
    htmx: bool
    url_name: str = ""

    @classmethod
    def of(cls, request: HttpRequest) -> PageRequest:
        """Return the values of ``request``."""
        return cls(
            method=str(request.method),
            path=request.path,
            get_full_path=request.get_full_path(),
            scheme=str(request.scheme),
            get_host=request.get_host(),
            htmx=bool(getattr(request, "htmx", False)),
            url_name=str(getattr(getattr(request, "resolver_match", None), "url_name", "") or ""),
        )


def page_of(request: HttpRequest) -> str:
    """Return whose page answers ``request``: ``"site"``, ``"allauth"`` or ``"other"``
    (the admin)."""
    match = getattr(request, "resolver_match", None)
    if match is None:  # an error page (404, 403 CSRF): the site's templates
        return "site"
    module = str(getattr(match.func, "__module__", ""))
    if module.startswith("games."):
        return "site"
    return "allauth" if module.startswith("allauth.") else "other"


def page_values(request: HttpRequest) -> dict[str, Any]:
    """Context processor: the site's pages get values for ``user``, ``request``, ``perms``,
    ``messages`` (Django's own hold rows) and ``viewer``; lazily, so a partial that reads
    none of them costs no query."""
    page = page_of(request)
    if page == "other":
        return {}
    viewer = SimpleLazyObject(lambda: viewer_of(request))
    values: dict[str, Any] = {
        "viewer": viewer,
        "user": viewer,
        "request": SimpleLazyObject(lambda: PageRequest.of(request)),
        "perms": {},
        "messages": SimpleLazyObject(lambda: tuple(get_messages(request))),
    }
    if page == "allauth":  # sign-up says which bot game follows (issue 32; lobby.BOT_AFTER_SIGNUP…)
        values["signup_bot_tier"] = lazy(_signup_bot_tier, str)(request)
    return values


def _signup_bot_tier(request: HttpRequest) -> str:
    session = getattr(request, "session", None)
    return str(session.get("bot_after_signup", "") or "") if session is not None else ""


def request_of(context: Any) -> HttpRequest | None:
    """Return the request a template is rendered for, from a tag's ``context``, or None.

    The ``RequestContext``'s own attribute: code may read it, templates cannot.
    """
    request = getattr(context, "request", None)
    return request if isinstance(request, HttpRequest) else None
