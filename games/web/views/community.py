"""Pages and partials of the players around a game (issue 18): chat, notes, mutes, follows,
invitations and rematches.

Thin views: each parses its form, calls a ``games.community`` service and answers with the
chat section (HTMX) or a redirect with a message. A refusal changes nothing and says why,
with the refusal's status (400 too long or empty, 403 not a player, 429 too fast).
"""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.community import chat, follows, invitations, notes
from games.core.errors import GameError
from games.core.stamps import games_changed
from games.models import Game
from games.selectors import community as selectors
from games.web.community_page import chat_context
from games.web.viewer import viewer_seated
from games.web.views.game import HtmxHttpRequest, _viewable_game


def _chat_answer(
    request: HtmxHttpRequest,
    game_id: int,
    *,
    status: int = 200,
    error: str = "",
    info: str = "",
    typed: str = "",
) -> HttpResponse:
    """Answer a chat form: the ``#chat`` section for HTMX, else back to the game page."""
    if not request.htmx:
        if error:
            messages.error(request, error)
        elif info:
            messages.success(request, info)
        return redirect(reverse("games:game", args=[game_id]) + "#chat")
    game = _viewable_game(request, game_id)
    ctx = chat_context(game, viewer_seated(request, game), error=error, info=info, typed=typed)
    return render(request, "games/_chat.html#chat", ctx, status=status)


@require_GET
def chat_lines(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """The chat's poll: 204 while nothing was written after ``?after=N``, else the lines."""
    game = _viewable_game(request, game_id)  # 404 for a game the viewer may not see
    viewer = viewer_seated(request, game)
    if not selectors.chat_readable(game, viewer, seated=viewer.seated):
        raise Http404("chat closed to spectators")
    try:
        after = int(request.GET.get("after", ""))
    except ValueError:
        after = -1
    if after >= 0 and not selectors.chat_has_new(game_id, after_id=after):
        return HttpResponse(status=204)
    return render(request, "games/_chat.html#chat-lines", chat_context(game, viewer))


@require_POST
def chat_post(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Send a chat message (form field ``text``)."""
    _viewable_game(request, game_id)
    text = request.POST.get("text", "")
    try:
        chat.chat_post(game_id=game_id, user=request.user, text=text)
    except GameError as exc:
        return _chat_answer(request, game_id, status=exc.status, error=str(exc), typed=text)
    games_changed([game_id])  # the "since your last move" of a partial rendered ahead
    return _chat_answer(request, game_id)


@require_POST
@login_required
def chat_report(request: HtmxHttpRequest, game_id: int, message_id: int) -> HttpResponse:
    """Report a chat message to the operators."""
    _viewable_game(request, game_id)
    try:
        chat.chat_report(message_id=message_id, game_id=game_id, user=request.user)
    except GameError as exc:
        return _chat_answer(request, game_id, status=exc.status, error=str(exc))
    return _chat_answer(request, game_id, info=_("Thank you: the message was reported."))


@require_POST
@login_required
def chat_mute(request: HtmxHttpRequest, game_id: int, user_id: int) -> HttpResponse:
    """Mute (``on=1``) or unmute a player, from a game's chat."""
    _viewable_game(request, game_id)
    on = request.POST.get("on") == "1"
    try:
        chat.mute_set(user=request.user, muted_id=user_id, on=on)
    except GameError as exc:
        return _chat_answer(request, game_id, status=exc.status, error=str(exc))
    games_changed([game_id])
    info = _("Muted: you no longer see their messages.") if on else _("Unmuted.")
    return _chat_answer(request, game_id, info=info)


@require_POST
def notes_save(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Save the viewer's notes (field ``text``): the saved line for HTMX, else a redirect."""
    _viewable_game(request, game_id)
    try:
        notes.note_save(game_id=game_id, user=request.user, text=request.POST.get("text", ""))
    except GameError as exc:
        if not request.htmx:
            messages.error(request, str(exc))
            return redirect(reverse("games:game", args=[game_id]) + "#notes")
        return render(
            request, "games/_notes.html#notes-status", {"error": str(exc)}, status=exc.status
        )
    if not request.htmx:
        messages.success(request, _("Your notes are saved."))
        return redirect(reverse("games:game", args=[game_id]) + "#notes")
    saved = time_format(timezone.localtime(), "H:i")
    return render(request, "games/_notes.html#notes-status", {"saved_at": saved})


@require_POST
@login_required
def player_follow(request: HtmxHttpRequest, user_id: int) -> HttpResponse:
    """Follow (``on=1``) or stop following a player, from their profile."""
    get_object_or_404(get_user_model(), pk=user_id)
    on = request.POST.get("on") == "1"
    try:
        follows.follow_set(user=request.user, followed_id=user_id, on=on)
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request,
            _("You follow this player: their games are in your lobby.")
            if on
            else _("You no longer follow this player."),
        )
    return redirect("games:profile", user_id=user_id)


@require_POST
@login_required
def player_mute(request: HtmxHttpRequest, user_id: int) -> HttpResponse:
    """Mute (``on=1``) or unmute a player, from their profile."""
    get_object_or_404(get_user_model(), pk=user_id)
    on = request.POST.get("on") == "1"
    try:
        chat.mute_set(user=request.user, muted_id=user_id, on=on)
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(
            request, _("Muted: you no longer see their messages.") if on else _("Unmuted.")
        )
    return redirect("games:profile", user_id=user_id)


@require_POST
@login_required
def invitation_accept(request: HtmxHttpRequest, invitation_id: int) -> HttpResponse:
    """Accept an invitation: take the seat and open the game."""
    try:
        game = invitations.invitation_accept(invitation_id=invitation_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:lobby")
    messages.success(request, _("You joined the game."))
    return redirect("games:game", game_id=game.pk)


@require_POST
@login_required
def invitation_decline(request: HtmxHttpRequest, invitation_id: int) -> HttpResponse:
    """Decline an invitation in one click."""
    try:
        invitations.invitation_decline(invitation_id=invitation_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _("Invitation declined."))
    return redirect("games:lobby")


@require_POST
@login_required
def game_rematch(request: HtmxHttpRequest, game_id: int) -> HttpResponse:
    """Offer the same players a new game with the same settings, or join the one offered."""
    _viewable_game(request, game_id)
    try:
        game = invitations.rematch_create(game_id=game_id, user=request.user)
    except GameError as exc:
        messages.error(request, str(exc))
        return redirect("games:game", game_id=game_id)
    if game.status == Game.Status.ACTIVE:  # against bots, or the last seat just taken
        messages.success(request, _("Rematch: the new game has started."))
    elif game.creator_id != request.user.pk:
        messages.success(request, _("You joined the rematch."))
    else:
        messages.success(request, _("Rematch: the other players are invited."))
    return redirect("games:game", game_id=game.pk)
