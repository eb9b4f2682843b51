"""What the tournament and league forms share (issue 30): the invited players, the clock.

One field and one cleaner (``invited_field``, ``clean_invited``) for the three forms that
name invited players (a tournament's, a league's, a league's next season): names as the
site shows them, checked against the players while the other fields are checked, so an
unknown name or a bot is reported beside the field with every other error at once.

One set of time control and playing hours' fields (``ClockFields``: days per move, or a
time bank; daily playing hours in a time zone) and one reading of them
(``clock_kwargs``, ``add_problems``) for the same three forms: a league's games get the
same choices, checked by the same rules (``services.clock_problems_of``), as a
tournament's.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.core.timecontrol import Clock
from games.selectors.people import people_named
from games.tournaments import services
from games.tournaments.services import invited_refusal
from games.web.forms import GameCreateForm
from games.web.forms_accounts import time_zone_choices

# the fields of ``services.clock_problems``, in its order
CLOCK = (
    "bank_days",
    "bank_increment_hours",
    "bank_cap_days",
    "playing_start",
    "playing_end",
    "playing_zone",
)


class ClockFields(forms.Form):
    """An event's time control and playing hours (``timecontrol.Clock``'s fields); the
    event forms extend it.

    ``days_per_move`` 1–30; the games' own time bank fields (issue 17, as the game
    creation form has them); the daily playing hours (both or neither) and their IANA
    time zone. Not a form shown by itself: a form that extends it places the seven
    fields with its ``field_order`` (inherited fields come first otherwise).
    """

    days_per_move = forms.IntegerField(
        label=_("Days per move"), min_value=1, max_value=30, initial=3
    )
    bank_days = GameCreateForm.base_fields["bank_days"]
    bank_increment_hours = GameCreateForm.base_fields["bank_increment_hours"]
    bank_cap_days = GameCreateForm.base_fields["bank_cap_days"]
    playing_start = forms.TimeField(
        label=_("Playing hours from"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
    )
    playing_end = forms.TimeField(
        label=_("to"),
        required=False,
        widget=forms.TimeInput(attrs={"type": "time"}, format="%H:%M"),
        help_text=_(
            "Every day, in the time zone below: the games' clocks run only then (moves may be "
            "played at any time). Leave both empty for clocks that always run."
        ),
    )
    playing_zone = forms.ChoiceField(
        label=_("Playing hours' time zone"),
        choices=time_zone_choices,
        initial="UTC",
        required=False,  # none chosen: UTC
    )


def clock_initial(clock: Clock) -> dict[str, Any]:
    """Return a form's initial values of ``ClockFields`` for an event's ``clock`` as it is:
    without a bank, its increment's choice left empty; without playing hours, UTC."""
    initial = clock.clock_fields()
    if clock.bank_days is None:
        initial["bank_increment_hours"] = None
    initial["playing_zone"] = initial["playing_zone"] or "UTC"
    return initial


def clock_kwargs(data: dict[str, Any]) -> dict[str, Any]:
    """Return ``data`` (a form's cleaned data) with the clock's fields read as the services
    take them: no bank, no increment nor cap; no zone chosen, UTC."""
    data = dict(data)
    if data.get("bank_days") is None:  # no bank: its other two choices say nothing
        data["bank_increment_hours"], data["bank_cap_days"] = 0, None
    data["bank_increment_hours"] = data.get("bank_increment_hours") or 0
    data["playing_zone"] = data.get("playing_zone") or "UTC"
    return data


def add_problems(
    form: forms.Form,
    kwargs: dict[str, Any],
    every_problem: Callable[[], list[tuple[str, str]]] | None,
) -> None:
    """Add the settings' problems to ``form``, each beside its field, all at once.

    With every field but the invited valid, ``every_problem()`` (the service's own checks;
    None: the clock's only); otherwise the time bank and the playing hours
    (``services.clock_problems``), which need only their own fields (``kwargs``: the
    form's ``clock_kwargs``). A field already in error gets no second message; a problem
    of a field the form lacks is said above the form.
    """
    invalid = set(form.errors)
    problems: list[tuple[str, str]] = []
    if invalid - {"invited"} or every_problem is None:
        if not set(CLOCK) & invalid:
            problems = services.clock_problems(*(kwargs[f] for f in CLOCK))
    else:
        problems = every_problem()
    for field, message in problems:
        if field not in invalid:
            form.add_error(field if field in form.fields else None, message)


def invited_field() -> forms.CharField:
    """Return a new invited players' field (names separated by commas or lines)."""
    return forms.CharField(
        label=_(
            "Invited players (names as the site shows them, separated by commas or lines; "
            "by invitation only)"
        ),
        required=False,
        max_length=4000,
        widget=forms.Textarea(attrs={"rows": 3}),
    )


def names_in(text: str) -> tuple[str, ...]:
    """Return the players' names in ``text`` (separated by commas or lines), once each.

    A name is a display name (which may hold spaces: "Li Wei") or a username
    (``selectors.people.people_named`` resolves it).
    """
    parts = (part.strip() for part in text.replace("\n", ",").split(","))
    return tuple(dict.fromkeys(part for part in parts if part))


def clean_invited(form: forms.Form) -> tuple[str, ...]:
    """Read "Ann, Li Wei" into names, once each; every unknown name and bot is refused.

    A form's ``clean_invited`` (``clean_invited = forms_events.clean_invited`` in its
    body). Raises ``ValidationError`` naming them (the services' own message,
    ``tournaments.services.invited_refusal``); the services check again when saving.
    """
    wanted = names_in(form.cleaned_data["invited"])
    refused = invited_refusal(people_named(wanted))
    if refused:
        raise forms.ValidationError(refused)
    return wanted
