"""Template tags of the games app: the count of games waiting for me, players' ratings,
the site's dates."""

from __future__ import annotations

from datetime import date, datetime
from typing import Any

from django import template
from django.utils import dateformat
from django.utils.timezone import is_aware, localtime
from django.utils.translation import pgettext

from games.play import ratings
from games.selectors import games as selectors
from games.selectors import people
from games.selectors.people import Person
from games.text.seats import display_name
from games.web.forms import VacationForm
from games.web.orders_panel import default_orders_form
from games.web.viewer import Viewer, request_of

register = template.Library()


@register.simple_tag(takes_context=True)
def games_waiting_count(context: Any) -> int:
    """Return how many games wait for the viewer to act (0 when anonymous).

    A view that counted them already leaves ``games_waiting`` (how many) in the context.
    The viewer is the request's user, or the context's ``user`` when rendering without a
    request (``games.web.prerender`` renders a player's partial in the worker).
    """
    known = context.get("games_waiting")
    if known is not None:
        return int(known)
    request = request_of(context)
    user = request.user if request is not None else context.get("user")
    if user is None:
        return 0
    return selectors.games_waiting_for(user).count()


@register.filter
def player_name(user: Any) -> str:
    """Return the name other players see for ``user``: the display name, else the username.

    ``user`` is a ``Person`` or a ``Viewer`` (what pages hold), or a ``User`` row (the pages
    of allauth and the admin, which keep Django's ``user``).
    """
    if isinstance(user, Person | Viewer):
        return user.display_name
    return display_name(user)


@register.filter
def player_rating(user: Any) -> str:
    """Return a ``Person``'s displayed rating, ``"1532"``, with ``?`` while provisional.

    A player without a profile yet has the starting rating; a bot, which plays only
    unrated games, has none (``"—"``). A ``User`` row is read through its profile.
    """
    person = user if isinstance(user, Person) else people.person_of(user)
    if person.is_bot:
        return "—"
    if person.rating_mu is None or person.rating_sigma is None:
        mu, sigma, provisional = ratings.MODEL.mu, ratings.MODEL.sigma, True
    else:
        mu, sigma = person.rating_mu, person.rating_sigma
        provisional = person.rated_games < ratings.PROVISIONAL_GAMES
    return f"{round(ratings.display_rating(mu, sigma))}{'?' if provisional else ''}"


@register.filter(expects_localtime=True)
def event_time(value: datetime | None) -> str:
    """Return ``value`` as the site writes an event's date and time, in the active language
    and time zone: "10 Dec 2026, 18:00 UTC", "2026年12月10日 18:00 UTC"; "" for None.

    The one format of a date with its time on the site's pages (events' starts, finished
    games, tokens, vacations); a deadline is written with its weekday (``_clock.html``).
    """
    if value is None:
        return ""
    return dateformat.format(
        localtime(value) if is_aware(value) else value,
        pgettext(
            "date and time of an event (Django date format: 10 Dec 2026, 18:00 CET)", "j M Y, H:i T"
        ),
    )


@register.filter(expects_localtime=True)
def event_day(value: date | datetime | None) -> str:
    """Return ``value``'s day as the site writes it, in the active language and time zone:
    "10 Dec 2026", "2026年12月10日"; "" for None."""
    if value is None:
        return ""
    if isinstance(value, datetime) and is_aware(value):
        value = localtime(value)
    return dateformat.format(value, pgettext("a date (Django date format: 10 Dec 2026)", "j M Y"))


@register.inclusion_tag("accounts/_vacation.html", takes_context=True)
def vacation_panel(context: Any) -> dict[str, Any]:
    """Render the settings page's vacation panel: running vacation, days left, the form."""
    user = getattr(request_of(context), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    return {
        "show": True,
        "current": people.vacation_current(user_id=user.pk),
        "days_left": people.days_left(user_id=user.pk),
        "per_year": people.VACATION_DAYS_PER_YEAR,
        "form": VacationForm(),
        "csrf_token": context.get("csrf_token"),
    }


@register.inclusion_tag("accounts/_standing_orders.html", takes_context=True)
def standing_orders_panel(context: Any) -> dict[str, Any]:
    """Render the settings page's default standing orders (issue 17), for the viewer only.

    A bound form the view left in the context (``orders_form``, refused) is shown again.
    """
    user = getattr(request_of(context), "user", None)
    if user is None or not user.is_authenticated:
        return {"show": False}
    form = context.get("orders_form") or default_orders_form(user.pk)
    return {"show": True, "form": form, "csrf_token": context.get("csrf_token")}
