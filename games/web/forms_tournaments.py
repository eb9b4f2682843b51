"""The tournament creation form (issue 30): a plain form; the service checks the ranges."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import TOURNAMENT_NAME_MAX, Tournament
from games.tournaments import services
from games.web import forms_events
from games.web.forms import GameCreateForm
from games.web.forms_accounts import time_zone_choices

# the fields of ``services.clock_problems``, in its order
_CLOCK = (
    "bank_days",
    "bank_increment_hours",
    "bank_cap_days",
    "playing_start",
    "playing_end",
    "playing_zone",
)


class TournamentForm(forms.Form):
    """What a creator chooses; ``settings_kwargs`` hands it to ``tournament_create``."""

    name = forms.CharField(label=_("Name"), max_length=TOURNAMENT_NAME_MAX)
    kind = forms.ChoiceField(label=_("System"), choices=Tournament.Kind.choices)
    table_size = forms.TypedChoiceField(
        label=_("Players per table"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int
    )
    min_table_size = forms.TypedChoiceField(
        label=_("Smallest table allowed"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int
    )
    rounds = forms.IntegerField(label=_("Rounds (Swiss)"), min_value=1, max_value=15, initial=5)
    max_players = forms.IntegerField(
        label=_("Most players"), min_value=2, max_value=200, initial=16
    )
    start_when_full = forms.IntegerField(
        label=_("Start when this many have joined"), min_value=2, max_value=200, required=False
    )
    points_by_rank = forms.CharField(
        label=_("Points by place (best first, e.g. 6 4 2 0)"), required=False, max_length=40
    )
    bye_points = forms.IntegerField(
        label=_("Points for a bye"), min_value=0, max_value=100, initial=0
    )
    days_per_move = forms.IntegerField(
        label=_("Days per move"), min_value=1, max_value=30, initial=3
    )
    # the games' own time bank fields (issue 17), as the game creation form has them
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
    max_game_days = forms.IntegerField(
        label=_("Longest game, in days"), min_value=3, max_value=90, initial=30
    )
    min_rating = forms.IntegerField(label=_("Lowest rating"), required=False)
    max_rating = forms.IntegerField(label=_("Highest rating"), required=False)
    is_rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    bots_fill_seats = forms.BooleanField(
        label=_("Bots fill a bye's table and a short table's seats (unrated only)"),
        required=False,
    )
    access = forms.ChoiceField(label=_("Who may register"), choices=Tournament.Access.choices)
    invited = forms_events.invited_field()
    clean_invited = forms_events.clean_invited

    def clean_points_by_rank(self) -> list[int] | None:
        """Read "6 4 2 0" (spaces or commas) into numbers; empty keeps the default."""
        text = self.cleaned_data["points_by_rank"].replace(",", " ").split()
        if not text:
            return None
        try:
            return [int(p) for p in text]
        except ValueError:
            raise forms.ValidationError(_("Write the points as whole numbers.")) from None

    def clean(self) -> dict[str, Any]:
        """Check the settings as the service will, each problem beside its field, all at once.

        With every other field valid, ``services.settings_problems`` (the service's own
        checks); otherwise the time bank and the playing hours
        (``services.clock_problems``), which need only their own fields. A field already in
        error gets no second message.
        """
        data = super().clean() or {}
        invalid = set(self.errors)
        problems: list[tuple[str, str]] = []
        if invalid - {"invited"}:
            kw = self.settings_kwargs()
            if not set(_CLOCK) & invalid:
                problems = services.clock_problems(*(kw[f] for f in _CLOCK))
        else:
            problems = services.settings_problems(
                services.TournamentSettings(**self.settings_kwargs())
            )
        for field, message in problems:
            if field not in invalid:
                self.add_error(field if field in self.fields else None, message)
        return data

    def settings_kwargs(self) -> dict[str, Any]:
        """Return the keywords of ``TournamentSettings`` from the cleaned data (the fields
        in error left out)."""
        data = dict(self.cleaned_data)
        points = data.pop("points_by_rank", None)
        # the points of a full table; smaller tables keep the default of their size
        data["points_by_rank"] = None if points is None else {str(data.get("table_size")): points}
        if data.get("bank_days") is None:  # no bank: its other two choices say nothing
            data["bank_increment_hours"], data["bank_cap_days"] = 0, None
        data["bank_increment_hours"] = data.get("bank_increment_hours") or 0
        data["playing_zone"] = data.get("playing_zone") or "UTC"
        return data
