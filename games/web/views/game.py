"""A game's own pages: its page, a submit, the poll, the live stream, the confirm step's
preview, the replay, and taking or leaving a seat; thin function views over services,
selectors and pages (finding or starting a game: ``games.web.views.lobby``).

``request.htmx`` (django-htmx) picks ``games/game_htmx.html`` (the named partial
``games/game.html#game``, and the navigation's waiting count out of band) instead of the
whole page. Services raise ``games.core.errors.GameError``; views answer with its status and
message (a partial with the message for HTMX, the page with the message otherwise).
"""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.handlers.asgi import ASGIRequest
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.template.loader import render_to_string
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST
from django_htmx.middleware import HtmxDetails

from games.core.errors import GameError, MalformedAction
from games.core.live import LiveKey, WaitingRoom
from games.models import Game, Move
from games.play import lifecycle, submit, timeouts
from games.play.errors import IllegalAction
from games.selectors import games as selectors
from games.selectors.visibility import game_poll_facts, games_visible_to
from games.tournaments.values import tournament_of_game
from games.web import live, prerender
from games.web.charts import colour_charts_context
from games.web.community_page import chat_context, invitation_context, notes_context
from games.web.forms import ActionForm
from games.web.forms_orders import StandingOrdersForm
from games.web.game_page import game_context
from games.web.orders_panel import game_orders_panel
from games.web.previews import action_preview
from games.web.replay_page import replay_context
from games.web.viewer import viewer_seated

INVITES_SESSION_KEY = "game_invites"


ActionRefused = (MalformedAction, IllegalAction)


class HtmxHttpRequest(HttpRequest):
    """An ``HttpRequest`` with django-htmx's ``request.htmx`` (typing only)."""

    htmx: HtmxDetails


def _invites(request: HtmxHttpRequest) -> list[str]:
    return list(request.session.get(INVITES_SESSION_KEY, []))


def _viewable_game(request: HtmxHttpRequest, game_id: int, *, for_page: bool = False) -> Game:
    # Who may see it is the one rule of the pages and the API: any other game is no game.
    visible = games_visible_to(request.user, invite_tokens=_invites(request), game_id=game_id)
    games = selectors.with_seats(Game.objects.filter(visible))
    if for_page:  # the viewer's games waiting and the chat's last line, in the same query
        games = selectors.with_viewer_facts(games, request.user)
    return get_object_or_404(games, pk=game_id)


def _next_game(waiting: list[int], game_id: int) -> int | None:
    """Return the game to offer next from ``waiting`` (the viewer's, the oldest first).

    The same rule on every path (the page, a submit, a poll, a cached poll):
    ``selectors.next_game_offered``.
    """
    other = next((g for g in waiting if g != game_id), None)
    return selectors.next_game_offered(here=game_id in waiting, oldest_other=other)


def _waiting_ids(request: HtmxHttpRequest) -> list[int]:
    return selectors.games_waiting_ids(request.user) if request.user.is_authenticated else []


def _waiting(request: HtmxHttpRequest, game: Game) -> tuple[int, int | None]:
    """Return how many games wait for the viewer and the next game to offer them.

    From the game's own query when it was read for a page (``with_viewer_facts``), else
    one read of the games waiting.
    """
    known = selectors.waiting_for_viewer(game, request.user)
    if known is not None:
        return known
    waiting = _waiting_ids(request)
    return len(waiting), _next_game(waiting, game.pk)


def _waiting_oob(request: HtmxHttpRequest, game: Game | None, game_id: int = 0) -> str:
    """Render what concerns the player beyond the game (``games/_waiting_oob.html``) for
    an answer whose ``#game`` partial was kept: never cached with it, as other games
    change it. From ``game``'s own facts when it was read, else one read (of ``game_id``).
    """
    if game is not None:
        count, next_game_id = _waiting(request, game)
    else:
        waiting = _waiting_ids(request)
        count, next_game_id = len(waiting), _next_game(waiting, game_id)
    return render_to_string(
        "games/_waiting_oob.html",
        {"games_waiting": count, "next_game_id": next_game_id},
        request=request,
    )


def _render_game(
    request: HtmxHttpRequest,
    game: Game,
    *,
    status: int = 200,
    template: str | None = None,
    orders_form: StandingOrdersForm | None = None,
    **extra: Any,
) -> HttpResponse:
    waiting, next_game_id = _waiting(request, game)  # the next game and the navigation's count
    # The viewer's seat, looked up once: every part of the page reads it from the Viewer.
    viewer = viewer_seated(request, game)
    ctx = game_context(
        game, viewer, invite_tokens=_invites(request), next_game_id=next_game_id, **extra
    )
    ctx["games_waiting"] = waiting
    if not request.htmx:  # beside the #game partial: charts, chat, notes (issue 18)
        ctx.update(colour_charts_context(game))
        ctx.update(chat_context(game, viewer))
        ctx.update(notes_context(game, viewer))
        ctx.update(invitation_context(game, viewer))
        # For its owner only (issue 17): standing orders.
        ctx["orders_panel"] = game_orders_panel(game, viewer, form=orders_form)
        # Issue 30: the event it belongs to; read only for a tournament's table when the
        # game's query said whether it is one (``with_viewer_facts``).
        in_tournament = getattr(game, "in_tournament", True)
        ctx["tournament"] = tournament_of_game(game.pk) if in_tournament else None
    if template is None:
        template = "games/game_htmx.html" if request.htmx else "games/game.html"
    return render(request, template, ctx, status=status)


@require_POST
@login_required
def game_join(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Take a seat in an open game (a private one needs its invitation in the session)."""
    game = _viewable_game(request, game_id)  # a stranger's private game: 404, as no game
    token = game.invite_token if game.invite_token in _invites(request) else None
    try:
        game = lifecycle.game_join(game_id=game_id, user=request.user, invite_token=token)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby")
    if game.status == Game.Status.ACTIVE:
        messages.success(request, _("Every seat is taken: the game has started."))
    else:
        messages.success(request, _("You joined the game."))
    return redirect("games:game", game_id=game_id)


@require_POST
@login_required
def game_leave(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Give up a seat in a game that has not started."""
    _viewable_game(request, game_id)  # a stranger's private game: 404, as no game
    try:
        lifecycle.game_leave(game_id=game_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:game", game_id=game_id)
    messages.success(request, _("You left the game."))
    return redirect("games:lobby")


@require_POST
@login_required
def game_resign(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Resign a game in progress (form field ``confirm`` must be ticked): seat dropped."""
    _viewable_game(request, game_id)  # a stranger's private game: 404, as no game
    if not request.POST.get("confirm"):
        messages.error(request, _("Tick the box to confirm that you resign."))
        return redirect("games:game", game_id=game_id)
    try:
        game = timeouts.game_resign(game_id=game_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:game", game_id=game_id)
    if game.status == Game.Status.ABORTED:  # no person left playing (against bots only)
        messages.success(request, _("You resigned: the game is over and not rated."))
    else:
        messages.success(request, _("You resigned: your seat is now played automatically."))
    return redirect("games:game", game_id=game_id)


@require_GET
def game_invite(request: HtmxHttpRequest, game_id: int, token: str) -> HttpResponse:
    """Remember an invitation link in the session, then show the game."""
    game = get_object_or_404(Game, pk=game_id, invite_token=token)
    invites = _invites(request)
    if game.invite_token not in invites:
        request.session[INVITES_SESSION_KEY] = [*invites[-19:], game.invite_token]
    return redirect("games:game", game_id=game.pk)


@require_GET
def game_page(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Render the game page (or its ``#game`` partial for HTMX) for the viewer's seat."""
    return _render_game(request, _viewable_game(request, game_id, for_page=True))


@require_http_methods(["GET", "POST"])
def game_act(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Submit one action (form fields ``action`` and ``version``), or ``undo`` (issue 16).

    Success: the fresh ``#game`` partial for HTMX, a redirect to the page otherwise.
    Errors: the page or partial with the message and the error's status (403 wrong
    user/seat, 409 stale version or finished game, 400 malformed or illegal action), or
    404 for a game the viewer may not see. A GET (the address of a page sent without
    JavaScript, reloaded or bookmarked) goes to the game's page.
    """
    if request.method != "POST":
        return redirect("games:game", game_id=_viewable_game(request, game_id).pk)
    # Read before the service reads the game: a change committed in between drops the
    # partial kept from this answer (games.web.prerender, issue 29).
    stamp = prerender.stamp_read(game_id) if request.htmx and settings.PRERENDER_PARTIALS else ""
    form = ActionForm(request.POST)
    if not form.is_valid():
        game = _viewable_game(request, game_id)
        return _render_game(
            request, game, status=400, error=_("Choose an action or type one first.")
        )
    try:
        if form.cleaned_data["action"].lower() == Move.UNDO:  # take back (issue 16)
            result = submit.game_undo(
                game_id=game_id, user=request.user, expected_version=form.cleaned_data["version"]
            )
        else:
            result = submit.game_submit_action(
                game_id=game_id,
                user=request.user,
                action=form.cleaned_data["action"],
                expected_version=form.cleaned_data["version"],
            )
    except GameError as exc:
        game = _viewable_game(request, game_id)  # 404 before any message, if not viewable
        # A refused action stays in the typed box, to be mended rather than typed again.
        typed = form.cleaned_data["action"] if isinstance(exc, ActionRefused) else ""
        return _render_game(request, game, status=exc.status, error=str(exc), typed_action=typed)
    if not request.htmx:
        return redirect("games:game", game_id=game_id)  # the page offers the next game
    # The service's game comes with its seats, users and profiles, read under its lock; a
    # game that just ended is read again for its seats' final ranks.
    game = result.game
    if game.status == Game.Status.FINISHED:
        game = _viewable_game(request, game_id)
    kept = prerender.partial_answer(request, game, stamp=stamp)  # for the mover's other tabs
    if kept is not None:
        return HttpResponse(kept + _waiting_oob(request, game))
    return _render_game(request, game, state=result.state)


@require_GET
def game_poll(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Answer 204 while the game is still at ``?version=N``; else the viewer's partial.

    A waiting room polls with ``?waiting=M`` instead (M its ``Game.waiting_mark``: a join
    or the start does not change the version) and gets 204 while the game is open at M.

    The unchanged answer to a public game costs one indexed query and renders nothing; a
    private or aborted game first checks that the viewer may see it (else 404), so a poll
    never tells a stranger that a game exists or how far it went. A changed game is answered
    from the partial rendered for this player after the move when there is one, else a
    seated player's is rendered once and kept for their other tabs (or waited for while the
    worker renders it: ``games.web.prerender.partial_fetched``); else rendered now.
    """
    if "waiting" in request.GET:
        game = _viewable_game(request, game_id)
        if game.status == Game.Status.OPEN and request.GET["waiting"] == str(game.waiting_mark):
            return HttpResponse(status=204)
        return _render_game(request, game, template="games/game_htmx.html")
    facts = game_poll_facts(game_id)
    if facts is None:
        raise Http404("no game")
    try:
        known = int(request.GET.get("version", ""))
    except ValueError:
        known = -1
    if known == facts.version and facts.openly_viewable:
        return HttpResponse(status=204)
    if known != facts.version:
        # Rendered for this very player after the move (games.web.prerender) if it was,
        # else rendered here once for all their tabs and the worker (a seated player).
        fetched = prerender.partial_fetched(
            request,
            game_id=game_id,
            version=facts.version,
            updated_at=facts.updated_at,
            read_game=lambda: _viewable_game(request, game_id, for_page=True),
        )
        if fetched is not None and fetched.html is not None:
            return HttpResponse(fetched.html + _waiting_oob(request, fetched.game, game_id))
        if fetched is not None and fetched.game is not None:  # read already: rendered here
            return _render_game(request, fetched.game, template="games/game_htmx.html")
    game = _viewable_game(request, game_id, for_page=True)
    if known == facts.version:
        return HttpResponse(status=204)
    return _render_game(request, game, template="games/game_htmx.html")


@require_GET
def game_live(request: HtmxHttpRequest, game_id: int) -> StreamingHttpResponse:
    """The game's live stream (issue 29): Server-Sent Events naming each new version.

    The version the page shows comes as ``?version=N``, or as ``Last-Event-ID`` when the
    browser reconnects; a game already past it is announced at once. An open game's page
    asks with ``?waiting=M`` (its ``Game.waiting_mark``) and hears its waiting room's
    marks (``event: seats``) the same way. Visibility is the
    poll's: a game the viewer may not see is 404 (and a public game answers before the
    viewer is looked up, as its poll does). Each event carries the version only
    (``games.web.live``). Under ASGI the stream is a coroutine; under WSGI it holds a thread.
    """
    facts = game_poll_facts(game_id)
    if facts is None:
        raise Http404("no game")
    if not facts.openly_viewable:
        _viewable_game(request, game_id)
    waiting = "waiting" in request.GET
    key: LiveKey = WaitingRoom(game_id) if waiting else game_id
    current = facts.waiting_mark if waiting else facts.version
    known = -1
    page_mark = request.GET.get("waiting" if waiting else "version", "")
    for raw in (request.headers.get("Last-Event-ID", ""), page_mark):
        if raw.strip().isdigit():
            known = int(raw)
            break
    if isinstance(request, ASGIRequest) and request.scope.get(live.SCOPE_KEY):
        # tigris_site.asgi streams it once this handler, and its thread, are done.
        handed = StreamingHttpResponse(live.empty_body(), content_type="text/event-stream")
        # a seated player's stream waits for the partial rendered ahead for them (live.py)
        seat = None if waiting else selectors.seat_position_of(game_id, request.user)
        name, value = live.handoff(key, known, current, seat)
        handed[name] = value
        return handed
    times = live.StreamTimes.from_settings()
    content: Any
    if isinstance(request, ASGIRequest):
        content = live.stream_async(key, known, current=current, times=times)
    else:
        content = live.stream_sync(key, known, current=current, times=times)
    response = StreamingHttpResponse(content, content_type="text/event-stream")
    response["Cache-Control"] = "no-cache, no-transform"
    response["X-Accel-Buffering"] = "no"  # nginx: pass each event on at once
    return response


@require_GET
def game_preview(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Answer the confirm step's preview of ``?action=…&version=N`` (issue 16), as a fragment.

    200 with what the action will start; the refusal's status (400 illegal, 403 not the
    seat to act, 409 stale) with its reason, so a typed action is refused before the
    confirm step; 404 for a game the viewer may not see.
    """
    game = _viewable_game(request, game_id)
    try:
        version: int | None = int(request.GET["version"])
    except (KeyError, ValueError):
        version = None
    answer = action_preview(
        game,
        viewer_seated(request, game),
        action=request.GET.get("action", "")[:64],
        version=version,
    )
    return render(request, "games/_preview.html", {"answer": answer}, status=answer.status)


@require_GET
def game_replay(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Step through a game: any ply of a finished game, or what the viewer's seat saw."""
    game = _viewable_game(request, game_id)
    if game.state is None:
        raise Http404("not started")
    viewer = viewer_seated(request, game)
    if game.status != Game.Status.FINISHED and viewer.seat is None:
        messages.error(request, _("Only players can replay a game in progress."))
        return redirect("games:game", game_id=game.pk)
    try:
        ply = int(request.GET["ply"]) if "ply" in request.GET else None
    except ValueError:
        ply = None
    ctx = replay_context(game, viewer, ply=ply)
    if not request.htmx:  # beside the #replay partial (issue 18): only after the end
        ctx.update(colour_charts_context(game))
        ctx.update(notes_context(game, viewer, in_replay=True))
    template = "games/replay.html#replay" if request.htmx else "games/replay.html"
    return render(request, template, ctx)
