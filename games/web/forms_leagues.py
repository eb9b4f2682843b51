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
    Tournament,
)
from games.tournaments import leagues
from games.web import forms_events


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
    bots_fill_seats = forms.BooleanField(
        label=_("Bots fill a bye's table and a short table's seats (unrated only)"),
        required=False,
    )
    access = forms.ChoiceField(
        label=_("Who may join"),
        choices=[
            (Tournament.Access.OPEN, _("open to all")),
            (Tournament.Access.INVITE, _("by invitation only")),
        ],
        required=False,  # none chosen: open to all
    )
    invited = forms_events.invited_field()
    clean_invited = forms_events.clean_invited

    def clean(self) -> dict[str, Any]:
        """Check the settings as the service will (``leagues.settings_problems``), each
        problem beside its field, once every field but the invited is valid."""
        data = super().clean() or {}
        invalid = set(self.errors)
        if not invalid - {"invited"}:
            settings = leagues.LeagueSettings(**self.settings_kwargs())
            for field, message in leagues.settings_problems(settings):
                if field not in invalid:
                    self.add_error(field if field in self.fields else None, message)
        return data

    def settings_kwargs(self) -> dict[str, Any]:
        """Return the keywords of ``LeagueSettings`` from the cleaned data."""
        data = dict(self.cleaned_data)
        data["access"] = data.get("access") or Tournament.Access.OPEN
        return data


class NextSeasonForm(forms.Form):
    """The creator's page: the settings of the seasons not yet started (``league_update``)."""

    division_size = LeagueForm.base_fields["division_size"]
    promote = LeagueForm.base_fields["promote"]
    season_weeks = LeagueForm.base_fields["season_weeks"]
    opt_in_days = LeagueForm.base_fields["opt_in_days"]
    days_per_move = LeagueForm.base_fields["days_per_move"]
    bots_fill_seats = LeagueForm.base_fields["bots_fill_seats"]
    invited = LeagueForm.base_fields["invited"]

    def __init__(self, *args: Any, invite_only: bool = False, **kwargs: Any) -> None:
        """``invite_only``: a group's league, whose invited players are edited here too."""
        super().__init__(*args, **kwargs)
        if not invite_only:
            del self.fields["invited"]

    clean_invited = forms_events.clean_invited
