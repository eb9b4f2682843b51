"""The league creation form (issue 30): a plain form; the service checks the ranges."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import (
    LEAGUE_DIVISION_MAX,
    LEAGUE_DIVISION_MIN,
    LEAGUE_MAX_WEEKS,
    TOURNAMENT_NAME_MAX,
)


class LeagueForm(forms.Form):
    """What a league's creator chooses; ``settings_kwargs`` hands it to ``league_create``."""

    name = forms.CharField(label=_("Name"), max_length=TOURNAMENT_NAME_MAX)
    table_size = forms.TypedChoiceField(
        label=_("Players per table"), choices=[(2, "2"), (3, "3"), (4, "4")], coerce=int
    )
    division_size = forms.IntegerField(
        label=_("Players per division"),
        min_value=LEAGUE_DIVISION_MIN,
        max_value=LEAGUE_DIVISION_MAX,
        initial=6,
    )
    promote = forms.IntegerField(
        label=_("Players going up and down each season"), min_value=1, max_value=2, initial=1
    )
    season_weeks = forms.IntegerField(
        label=_("Weeks per season"), min_value=1, max_value=LEAGUE_MAX_WEEKS, initial=6
    )
    opt_in_days = forms.IntegerField(
        label=_("Days to join before each season"), min_value=1, max_value=30, initial=7
    )
    days_per_move = forms.IntegerField(
        label=_("Days per move"), min_value=1, max_value=30, initial=3
    )
    is_rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)

    def settings_kwargs(self) -> dict[str, Any]:
        """Return the keywords of ``LeagueSettings`` from the cleaned data."""
        return dict(self.cleaned_data)
