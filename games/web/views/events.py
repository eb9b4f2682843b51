"""What the tournament and league pages share (issue 30): the creation page, a button's POST.

Both creation forms work alike — show the form; on POST check it, hand its settings to
the room's service, and either go to the new event's page or show what to fix (the
service's refusal as the form's error, nothing saved) — and so do their buttons
(call a service, say what happened, back to the event's page).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, Protocol

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _

from games.core.errors import GameError

TEMPLATE = "games/event_create.html"


class EventForm(Protocol):
    """A creation form: its ``settings_kwargs`` are the service's settings' keywords."""

    fields: dict[str, Any]

    def __init__(self, data: Any = None) -> None: ...
    def is_valid(self) -> bool: ...
    def add_error(self, field: str | None, error: str) -> None: ...
    def settings_kwargs(self) -> dict[str, Any]: ...


def event_create_page(
    request: HttpRequest,
    *,
    form_class: type[EventForm],
    create: Callable[[Any, dict[str, Any]], Any],
    page: str,
    kind: str,
) -> HttpResponse:
    """Show ``form_class``; on POST call ``create(user, settings_kwargs)`` and go to ``page``.

    ``create`` returns the new row (its ``pk`` goes to the URL named ``page``) or raises a
    ``GameError`` (shown beside the field it names, ``exc.field``, or as the form's error;
    status 400, nothing saved). ``kind`` is
    "tournament" or "league": the page's heading and ids.
    """
    form = form_class(request.POST or None)
    context = {
        "form": form,
        "kind": kind,
        "heading": _("Create a tournament") if kind == "tournament" else _("Create a league"),
        "action": request.path,
    }
    if request.method == "POST":
        if form.is_valid():
            try:
                made = create(request.user, form.settings_kwargs())
            except GameError as exc:  # beside its field when the refusal names one
                field = getattr(exc, "field", None)
                form.add_error(field if field in form.fields else None, str(exc))
            else:
                return redirect(page, made.pk)
        return render(request, TEMPLATE, context, status=400)
    return render(request, TEMPLATE, context)


def event_act(
    request: HttpRequest, page: str, event_id: int, done: str, action: Callable[[], Any]
) -> HttpResponse:
    """Run ``action``; say ``done`` or the refusal's message; back to the event's page."""
    try:
        action()
    except GameError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done)
    return redirect(page, event_id)
