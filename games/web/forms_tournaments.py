"""The tournament creation form (issue 30): a plain form; the service checks the ranges."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import TOURNAMENT_NAME_MAX, Tournament
from games.tournaments import services
from games.web import forms_events


class TournamentForm(forms_events.ClockFields):
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
    # here: the time control and playing hours (``forms_events.ClockFields``, in field_order)
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

    # the clock's fields (inherited, so first by default) after the bye's points
    field_order = (
        "name",
        "kind",
        "table_size",
        "min_table_size",
        "rounds",
        "max_players",
        "start_when_full",
        "points_by_rank",
        "bye_points",
        *forms_events.ClockFields.base_fields,
    )

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
        checks); otherwise the time bank and the playing hours (``forms_events.add_problems``).
        """
        data = super().clean() or {}
        kw = self.settings_kwargs()
        forms_events.add_problems(
            self,
            kw,
            lambda: services.settings_problems(services.TournamentSettings(**kw)),
        )
        return data

    def settings_kwargs(self) -> dict[str, Any]:
        """Return the keywords of ``TournamentSettings`` from the cleaned data (the fields
        in error left out)."""
        data = forms_events.clock_kwargs(self.cleaned_data)
        points = data.pop("points_by_rank", None)
        # the points of a full table; smaller tables keep the default of their size
        data["points_by_rank"] = None if points is None else {str(data.get("table_size")): points}
        return data
