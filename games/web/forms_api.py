"""Forms of the settings page's API tokens and webhooks (issue 19)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from games.models import Webhook


class TokenForm(forms.Form):
    """A new personal access token: the name the player knows it by."""

    name = forms.CharField(
        label=_("Token name"),
        max_length=60,
        help_text=_("For you to tell your tokens apart, e.g. the tool that uses it."),
    )


class WebhookForm(forms.Form):
    """A new webhook: its kind, the https URL, and which notices it gets."""

    kind = forms.ChoiceField(label=_("Kind"), choices=Webhook.Kind.choices)
    url = forms.CharField(label=_("Webhook URL"), max_length=500)
    on_turn = forms.BooleanField(
        label=_("When it is my move or my decision"),
        required=False,
        initial=True,
        label_suffix="",
    )
    on_game_over = forms.BooleanField(
        label=_("When a game is over"), required=False, initial=True, label_suffix=""
    )
