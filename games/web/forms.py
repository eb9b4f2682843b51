"""Forms of the games pages: creating a game and submitting an action."""

from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from games.text.words import COLORS

DAYS_PER_MOVE_CHOICES = [
    ("", _("no limit")),
    ("1", _("1 day per move")),
    ("2", _("2 days per move")),
    ("3", _("3 days per move")),
    ("5", _("5 days per move")),
    ("7", _("7 days per move")),
    ("14", _("14 days per move")),
]


class GameCreateForm(forms.Form):
    """Choose the seats, visibility, rating, scoring and time control of a new game."""

    num_players = forms.TypedChoiceField(
        label=_("Players"),
        choices=[(2, "2"), (3, "3"), (4, "4")],
        coerce=int,
        initial=2,
    )
    is_public = forms.BooleanField(
        label=_("Public (listed in the lobby; otherwise join by invitation link)"),
        required=False,
        initial=True,
    )
    is_rated = forms.BooleanField(label=_("Rated"), required=False, initial=True)
    open_scoring = forms.BooleanField(
        label=_("Open scoring (everyone sees everyone's points)"), required=False
    )
    days_per_move = forms.TypedChoiceField(
        label=_("Time per move"),
        choices=DAYS_PER_MOVE_CHOICES,
        coerce=int,
        empty_value=None,
        required=False,
        initial="3",
    )
    vacation_allowed = forms.BooleanField(
        label=_("Players' vacations pause the clock"),
        required=False,
        initial=True,
        help_text=_("Untick to keep every deadline running even while a player is away."),
    )

    def clean(self) -> dict[str, Any]:
        """Refuse a rated game without a time limit (issue 6: no limit is for friendly games)."""
        data = super().clean() or {}
        if data.get("is_rated") and not data.get("days_per_move"):
            self.add_error(
                "days_per_move",
                _("A rated game needs a time limit: choose the days per move, or untick Rated."),
            )
        return data


class ActionForm(forms.Form):
    """One action in engine notation (``tile red f7``) and the version it was chosen at.

    The swap form ticks hand tiles instead (``swap`` = their colours, one value a tile);
    ``cleaned_data["action"]`` is then ``"swap red blue"`` (RULES.md §11).
    """

    action = forms.CharField(max_length=64, strip=True, required=False)
    swap = forms.MultipleChoiceField(choices=[(c, c) for c in COLORS], required=False)
    version = forms.IntegerField(min_value=0)

    def clean(self) -> dict[str, Any]:
        """Require an action, typed or chosen, or at least one tile ticked to swap."""
        data = super().clean() or {}
        if not data.get("action") and data.get("swap"):
            ticked = sorted(data["swap"], key=COLORS.index)
            data["action"] = "swap " + " ".join(ticked)
        if not data.get("action"):
            raise forms.ValidationError("no action")
        return data


class VacationForm(forms.Form):
    """Start a vacation now, for a number of whole days (issue 6: 21 days a calendar year)."""

    days = forms.IntegerField(label=_("Days of vacation, starting now"), min_value=1, max_value=21)
