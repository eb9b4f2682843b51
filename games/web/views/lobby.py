"""The pages that find or start a game: the home page (lobby), creating a game, "Play a bot
now" and the finished games' list. Thin function views, as ``games.web.views.game``'s.
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import SimpleLazyObject
from django.utils.http import urlencode
from django.utils.timesince import timeuntil
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from games.accounts.bots import BOT_TIERS
from games.community import invitations
from games.community.errors import InvitationRefused
from games.core import stamps
from games.core.errors import GameError
from games.models import Game
from games.play import lifecycle
from games.play.botstrength import bot_strength
from games.selectors import community
from games.selectors import games as selectors
from games.selectors import lobby as lobby_lists
from games.selectors.finished import FinishedGame, games_finished
from games.web.forms import FinishedGamesForm, GameCreateForm, keyset_after
from games.web.views.game import HtmxHttpRequest


@require_GET
def lobby(request: HtmxHttpRequest) -> HttpResponse:
    """Render the home page: what the game is, "Play a bot now", open games to join, games
    in progress to watch, the user's own games, their invitations, the games of the players
    they follow and the create form.

    Every list is bounded, with a link to the rest (issue 31): the first
    ``HOME_OPEN_GAMES`` open games (all of them on ``/games/open``) and ``HOME_WATCH_GAMES``
    games to watch, both cached for every visitor (``games.selectors.lobby``); "My games"
    up to ``MY_GAMES_IN_PROGRESS`` in progress (the rest on the profile) and the latest
    ``MY_GAMES_ENDED`` ended (the rest on the finished games' page); at most
    ``HOME_INVITATIONS`` invitations and ``HOME_FOLLOWED_GAMES`` followed players' games.

    Renderings are kept in Django's cache by the template's ``{% cache %}`` (issue 31:
    the signed-in home page's CPU was mostly its rendering): the create form's fields per
    language and bots' calibration (whose figures its seats name), built only when not
    kept (``form`` is lazy): the same unbound form for everyone; the games to watch under
    their excerpt's key and the open games' table under its excerpt's key (public facts
    only; the Join buttons post through one form outside the table, with the page's CSRF
    token, so the table is the same for every signed-in visitor); "My games" per player
    under ``MyGames.key`` (every game in progress or open of theirs with its version,
    seats' mark, status, last update and deadline: a ply, a seat taken, a start, an end,
    an invitation accepted all change it; see ``selectors.games.games_of_user``), the
    words of its deadlines ("due in 2 days"), the names' stamp
    (``games.core.stamps.names_stamp``: a player's new name) and the language; the
    followed players' games under their ids, the names' stamp and the language (for
    whoever follows them). The rows of both are read only when rendered. Pending
    invitations are read and rendered at every request (each holds a CSRF token).
    """
    mine = selectors.games_of_user(request.user)
    signed_in = request.user.is_authenticated
    return render(
        request,
        "games/lobby.html",
        {
            "open_games": lobby_lists.open_games_excerpt(),
            "watch_games": lobby_lists.games_to_watch_excerpt(
                request.user, seated_in=mine.seated_in
            ),
            "my_games": mine.rows,
            "my_games_beyond": mine.beyond,
            "my_games_key": mine.key,
            # the words of "due in …" as the list shows them: a kept rendering varies with them
            "my_games_due": "|".join(timeuntil(deadline) for deadline in mine.deadlines),
            "my_games_seconds": MY_GAMES_SECONDS,
            "names_stamp": stamps.names_stamp() if signed_in else "",
            # the navigation's count, read with "My games" (``games_waiting_count``)
            "games_waiting": mine.waiting if signed_in else None,
            "invitations": community.invitations_pending(request.user, limit=HOME_INVITATIONS),
            "followed_games": community.games_of_followed(request.user, limit=HOME_FOLLOWED_GAMES),
            "form": SimpleLazyObject(GameCreateForm),
            "form_cache_seconds": CREATE_FORM_SECONDS,
            "list_seconds": lobby_lists.LIST_SECONDS,  # the public lists' renderings kept
            "bot_strength": bot_strength(),
        },
    )


HOME_INVITATIONS = 10  # pending invitations the home page lists, the newest first
HOME_FOLLOWED_GAMES = 10  # games of followed players the home page lists, the latest moved
CREATE_FORM_SECONDS = 600  # how long the create form's rendered fields are kept
# How long a player's "My games" rendering is kept: its key changes with every change of
# their games made through the services; this bounds what is written past them.
MY_GAMES_SECONDS = 300


@require_GET
def open_games(request: HtmxHttpRequest) -> HttpResponse:
    """``/games/open``: every open public game, oldest first, ``OPEN_GAMES_PAGE`` a page.

    ``?after=<game id>`` is the previous page's last game (keyset: the next page starts
    right after it whatever filled meanwhile); a value that is not a game id answers 400
    with the first page and a message, nothing else changed.
    """
    after, valid = keyset_after(request.GET.get("after"))
    if not valid:
        messages.error(request, _("That page of open games does not exist; here is the first."))
    rows, next_after = lobby_lists.open_games_page(after=after)
    return render(
        request,
        "games/open.html",
        {"open_games": rows, "next_after": next_after, "first_page": after is not None},
        status=200 if valid else 400,
    )


def _create_page(
    request: HtmxHttpRequest, form: GameCreateForm, *, status: int = 200
) -> HttpResponse:
    return render(
        request, "games/create.html", {"form": form, "bot_strength": bot_strength()}, status=status
    )


@require_http_methods(["GET", "POST"])
@login_required
def game_create(request: HtmxHttpRequest) -> HttpResponse:
    """``/games/new``: GET shows the create form alone; POST creates a game from
    ``GameCreateForm`` and goes to its page, or shows the form again with its errors at the
    top of a short page (400), nothing created (issue 32: the address reloads, no 405)."""
    if request.method == "GET":
        return _create_page(request, GameCreateForm())
    form = GameCreateForm(request.POST)
    if not form.is_valid():
        return _create_page(request, form, status=400)
    try:
        game = invitations.game_create_inviting(creator=request.user, **form.cleaned_data)
    except InvitationRefused as exc:  # an unknown name: nothing created, the form again
        form.add_error("invite", str(exc))
        return _create_page(request, form, status=400)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby")
    if game.status == Game.Status.ACTIVE:
        messages.success(request, _("Every seat is taken: the game has started."))
    else:
        messages.success(request, _("Game created. It starts when every seat is taken."))
    return redirect("games:game", game_id=game.pk)


# The tier a visitor chose on the home page before signing up (issue 32): the game starts
# when they come back signed in, so the page after confirming their address is that game.
BOT_AFTER_SIGNUP_SESSION_KEY = "bot_after_signup"


def _bot_tier(value: str | None) -> str | None:
    """Return ``value`` when it names a bot tier (easy, medium, hard), the default for none."""
    tier = value or lifecycle.QUICK_BOT_TIER
    return tier if tier in BOT_TIERS else None


def _play_bot_page(request: HtmxHttpRequest, *, status: int = 200) -> HttpResponse:
    """Render the tiers' buttons, each with its calibrated strength (issue 26)."""
    context = {"bot_tiers": BOT_TIERS, "bot_strength": bot_strength()}
    return render(request, "games/play_bot.html", context, status=status)


def _start_bot_game(request: HtmxHttpRequest, tier: str) -> HttpResponse:
    try:
        game = lifecycle.game_against_bot_create(creator=request.user, tier=tier)
    except GameError as exc:  # e.g. too many bot games running (issue 28): nothing created
        messages.error(request, str(exc))
        return _play_bot_page(request, status=400)
    messages.success(request, _("Your game against the bot has started."))
    return redirect("games:game", game_id=game.pk)


@require_http_methods(["GET", "POST"])
def play_bot(request: HtmxHttpRequest) -> HttpResponse:
    """ "Play a bot now" at a tier (``tier``: easy, medium, hard; medium when absent).

    POST (signed in) starts an unrated 2-player game against that bot and opens it. POST
    (signed out) remembers the tier in the session and sends to sign-up, whose ``next``
    comes back here; GET, signed in, with the tier the session remembers starts that game
    once (the visitor asked for it by their POST), else shows the tiers' buttons. An
    unknown tier is refused with a message and nothing is created (400).
    """
    tier = _bot_tier(
        request.POST.get("tier") if request.method == "POST" else request.GET.get("tier")
    )
    if tier is None:
        messages.error(request, _("There is no such bot: choose easy, medium or hard."))
        return _play_bot_page(request, status=400)
    if not request.user.is_authenticated:
        if request.method == "POST":
            request.session[BOT_AFTER_SIGNUP_SESSION_KEY] = tier
        here = f"{reverse('games:play_bot')}?{urlencode({'tier': tier})}"
        return redirect(f"{reverse('account_signup')}?{urlencode({'next': here})}")
    if request.method == "POST":
        request.session.pop(BOT_AFTER_SIGNUP_SESSION_KEY, None)
        return _start_bot_game(request, tier)
    if request.session.get(BOT_AFTER_SIGNUP_SESSION_KEY) == tier:
        del request.session[BOT_AFTER_SIGNUP_SESSION_KEY]  # once: a reload shows the page
        return _start_bot_game(request, tier)
    return _play_bot_page(request)


@require_GET
def games_finished_page(request: HtmxHttpRequest) -> HttpResponse:
    """``/games/finished``: finished games the visitor may see, filtered, newest first.

    Filters from the query string (``FinishedGamesForm``); invalid ones answer 400 with
    the form's messages and no list. The next page's link carries the same filters and
    the keyset cursor (``before``).
    """
    form = FinishedGamesForm(request.GET or None)
    rows: list[FinishedGame] = []
    cursor = None
    if form.is_bound and not form.is_valid():
        status = 400
    else:
        status = 200
        filters = form.filters() if form.is_bound else {}
        rows, cursor = games_finished(request.user, **filters)
    next_query = None
    if cursor is not None:
        query = request.GET.copy()
        query["before"] = str(cursor)
        next_query = query.urlencode()
    return render(
        request,
        "games/finished.html",
        {"form": form, "games": rows, "next_query": next_query},
        status=status,
    )
