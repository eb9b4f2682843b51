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


class LeagueForm(forms_events.ClockFields):
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
    # here: the time control and playing hours (``forms_events.ClockFields``, in field_order)
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

    # the clock's fields (inherited, so first by default) after the days to join
    field_order = (
        "name",
        "table_size",
        "division_size",
        "promote",
        "season_weeks",
        "opt_in_days",
        *forms_events.ClockFields.base_fields,
    )

    def clean(self) -> dict[str, Any]:
        """Check the settings as the service will, each problem beside its field: with
        every field but the invited valid, ``leagues.settings_problems``; otherwise the
        time bank and playing hours (``forms_events.add_problems``)."""
        data = super().clean() or {}
        kw = self.settings_kwargs()
        forms_events.add_problems(
            self, kw, lambda: leagues.settings_problems(leagues.LeagueSettings(**kw))
        )
        return data

    def settings_kwargs(self) -> dict[str, Any]:
        """Return the keywords of ``LeagueSettings`` from the cleaned data."""
        data = forms_events.clock_kwargs(self.cleaned_data)
        data["access"] = data.get("access") or Tournament.Access.OPEN
        return data


class NextSeasonForm(forms_events.ClockFields):
    """The creator's page: the settings of the seasons not yet started (``league_update``)."""

    division_size = LeagueForm.base_fields["division_size"]
    promote = LeagueForm.base_fields["promote"]
    season_weeks = LeagueForm.base_fields["season_weeks"]
    opt_in_days = LeagueForm.base_fields["opt_in_days"]
    # here: the time control and playing hours (``forms_events.ClockFields``, in field_order)
    bots_fill_seats = LeagueForm.base_fields["bots_fill_seats"]
    invited = LeagueForm.base_fields["invited"]
    field_order = (
        "division_size",
        "promote",
        "season_weeks",
        "opt_in_days",
        *forms_events.ClockFields.base_fields,
    )

    def __init__(self, *args: Any, invite_only: bool = False, **kwargs: Any) -> None:
        """``invite_only``: a group's league, whose invited players are edited here too."""
        super().__init__(*args, **kwargs)
        if not invite_only:
            del self.fields["invited"]

    clean_invited = forms_events.clean_invited

    def clean(self) -> dict[str, Any]:
        """Check the time bank and playing hours beside their fields
        (``forms_events.add_problems``); ``leagues.league_update`` checks the rest."""
        data = super().clean() or {}
        forms_events.add_problems(self, self.settings_kwargs(), None)
        return data

    def settings_kwargs(self) -> dict[str, Any]:
        """Return the keywords of ``leagues.NextSeasonSettings`` from the cleaned data."""
        return forms_events.clock_kwargs(self.cleaned_data)
