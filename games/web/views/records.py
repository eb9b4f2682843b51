"""Game records (``/games/<id>/record.json``, ``.txt``) and the analysis board (``/analysis/``).

Thin views over ``games.records``: the export is ``record_for`` (a finished game whole, an
unfinished one as the requester may see it, 404 for a stranger to a private game); the
analysis board reads its position from the URL (and, for a pasted or re-dealt start, the
visitor's session) and never writes a ``Game`` or ``Move`` (``games.records.analysis``).
"""

from __future__ import annotations

from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from games.models import Game
from games.records import analysis
from games.records.export import record_for, record_text, viewable_game
from games.records.replay import RecordError
from games.web.analysis_page import analysis_context, board_query
from games.web.forms import ActionForm
from games.web.forms_analysis import DiagramForm, RecordLoadForm
from games.web.views.game import INVITES_SESSION_KEY, HtmxHttpRequest


def _invites(request: HttpRequest) -> list[str]:
    return list(request.session.get(INVITES_SESSION_KEY, []))


def _record(request: HttpRequest, game_id: int) -> dict[str, object]:
    record = record_for(game_id, request.user, invite_tokens=_invites(request))
    if record is None:
        raise Http404("no record")
    return record


@require_GET
def record_json(request: HttpRequest, game_id: int) -> HttpResponse:
    """Answer the game's record as JSON (docs/record-format.md), or 404."""
    response = JsonResponse(_record(request, game_id), json_dumps_params={"indent": 1})
    response["Content-Disposition"] = f'inline; filename="game-{game_id}.json"'
    return response


@require_GET
def record_txt(request: HttpRequest, game_id: int) -> HttpResponse:
    """Answer the game's record as a plain-text move list, or 404."""
    response = HttpResponse(
        record_text(_record(request, game_id)), content_type="text/plain; charset=utf-8"
    )
    response["Content-Disposition"] = f'inline; filename="game-{game_id}.txt"'
    return response


def _source(request: HttpRequest) -> tuple[analysis.Board, dict[str, object]] | None:
    """Return the board the query names (``game`` or ``board``) and its source, or None."""
    data = request.GET
    if "game" in data:
        try:
            game_id = int(data["game"])
        except ValueError:
            raise analysis.AnalysisError(_("There is no such game.")) from None
        board = analysis.board_of_game(game_id, request.user, invite_tokens=_invites(request))
        return board, {"game": game_id}
    if "board" in data:
        key = str(data["board"])[:32]
        return analysis.board_from_session(request.session, key), {"board": key}
    return None


def _ply(request: HttpRequest) -> int:
    try:
        return int(request.GET.get("ply", "0"))
    except ValueError:
        return 0


def _landing(request: HttpRequest, *, status: int = 200, **extra: object) -> HttpResponse:
    ctx: dict[str, object] = {
        "record_form": RecordLoadForm(),
        "diagram_form": DiagramForm(),
        **extra,
    }
    return render(request, "games/analysis.html", ctx, status=status)


def _board_page(
    request: HtmxHttpRequest,
    position: analysis.Position,
    source: dict[str, object],
    *,
    status: int = 200,
    error: str | None = None,
) -> HttpResponse:
    ctx = analysis_context(position, source, error=error)
    template = "games/analysis.html#analysis" if request.htmx else "games/analysis.html"
    return render(request, template, ctx, status=status)


def _opened(
    request: HtmxHttpRequest,
) -> tuple[analysis.Position, dict[str, object]] | HttpResponse | None:
    """Return the position the URL names and its source, or the answer when it cannot be.

    A source that cannot be opened: the landing page, 404 with its reason; a line that no
    longer applies: the board at its step, 400 with the reason. None without a source.
    """
    try:
        found = _source(request)
    except analysis.AnalysisError as exc:
        return _landing(request, status=404, error=str(exc))
    if found is None:
        return None
    board, source = found
    try:
        return analysis.position_at(board, _ply(request), request.GET.getlist("line")), source
    except analysis.AnalysisError as exc:
        position = analysis.position_at(board, _ply(request), ())
        return _board_page(request, position, source, status=400, error=str(exc))


@require_GET
def analysis_board(request: HtmxHttpRequest) -> HttpResponse:
    """Show the analysis board at ``?ply=N`` of its source, with the ``line`` tried.

    Without a source: the forms to load a record or a diagram. A source that cannot be
    opened answers 404 with its reason; a line that no longer applies, 400.
    """
    opened = _opened(request)
    if opened is None:
        return _landing(request)
    if isinstance(opened, HttpResponse):
        return opened
    position, source = opened
    return _board_page(request, position, source)


@require_POST
def analysis_act(request: HtmxHttpRequest) -> HttpResponse:
    """Try one action (form field ``action``, or ``swap`` ticks) at the URL's position.

    Success: the board after it (its URL pushed for HTMX), a redirect there otherwise.
    A refused action: the same position with the reason (400). Nothing is saved.
    """
    opened = _opened(request)
    if opened is None:
        return redirect("games:analysis")
    if isinstance(opened, HttpResponse):
        return opened
    position, source = opened
    form = ActionForm(request.POST)
    if not form.is_valid():
        return _board_page(
            request, position, source, status=400, error=_("Choose an action or type one first.")
        )
    try:
        tried = analysis.position_try(position, form.cleaned_data["action"])
    except analysis.AnalysisError as exc:
        return _board_page(request, position, source, status=400, error=str(exc))
    url = f"{reverse('games:analysis')}?{board_query(source, tried.ply, tried.line)}"
    if not request.htmx:
        return redirect(url)
    response = _board_page(request, tried, source)
    response["HX-Push-Url"] = url
    return response


@require_POST
def analysis_load(request: HttpRequest) -> HttpResponse:
    """Open a pasted or uploaded record, or a pasted diagram, on a new board.

    A record that does not replay is refused with its ply and reason (400), a diagram
    that does not read with its line and reason; nothing is kept then.
    """
    if "diagram" in request.POST:
        diagram_form = DiagramForm(request.POST)
        if not diagram_form.is_valid():
            return _landing(request, status=400, diagram_form=diagram_form)
        try:
            text = diagram_form.cleaned_data["diagram"]
            key = analysis.board_paste_diagram(request.session, text)
        except analysis.AnalysisError as exc:
            return _landing(request, status=400, diagram_form=diagram_form, error=str(exc))
        return redirect(f"{reverse('games:analysis')}?{board_query({'board': key}, 0, ())}")
    record_form = RecordLoadForm(request.POST, request.FILES)
    if not record_form.is_valid():
        return _landing(request, status=400, record_form=record_form)
    try:
        key = analysis.board_paste_record(request.session, record_form.cleaned_data["record"])
    except RecordError as exc:
        return _landing(
            request, status=400, record_form=record_form, error=str(exc), refused_ply=exc.ply
        )
    return redirect(f"{reverse('games:analysis')}?{board_query({'board': key}, 0, ())}")


@require_POST
def analysis_from_game(request: HttpRequest, game_id: int) -> HttpResponse:
    """Open a game's position at ``ply`` (default: now) on the analysis board.

    A finished game opens whole at that step; an unfinished one only from the
    requester's own view, its hidden hands and bag dealt anew (``board_redeal``).
    """
    try:
        ply: int | None = int(request.POST["ply"]) if request.POST.get("ply") else None
    except ValueError:
        ply = None
    game = viewable_game(game_id, request.user, invite_tokens=_invites(request))
    if game is None:
        raise Http404("no game")
    if game.status == Game.Status.FINISHED:
        step = game.version if ply is None else max(0, min(ply, game.version))
        return redirect(f"{reverse('games:analysis')}?{board_query({'game': game_id}, step, ())}")
    try:
        key = analysis.board_redeal(
            request.session, game_id, request.user, ply=ply, invite_tokens=_invites(request)
        )
    except analysis.AnalysisError as exc:
        raise Http404(str(exc)) from None
    return redirect(f"{reverse('games:analysis')}?{board_query({'board': key}, 0, ())}")


__all__ = [
    "analysis_act",
    "analysis_board",
    "analysis_from_game",
    "analysis_load",
    "record_json",
    "record_txt",
]
